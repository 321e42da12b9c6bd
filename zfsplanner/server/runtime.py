"""Process-level tuning for the web server, applied once the application is loaded.

Python's cyclic garbage collector walks every tracked object of the process in a full
(generation 2) collection. A Django process holds several hundred thousand objects after
start-up, and a designer update that copies a design with a large histogram allocates enough
to trigger such a collection every few requests: 60-80 ms of pause each (measured with
``gc.callbacks`` on the 60-vdev benchmark design). So, once the application is loaded:

* ``gc.freeze()`` moves the start-up objects out of the collector's reach (they live as long
  as the process anyway), which makes the remaining full collections much shorter;
* a higher generation-0 threshold makes collections rarer; request objects are freed by
  reference counting, not by the collector, so memory does not grow from it.
"""

from __future__ import annotations

import gc

GC_THRESHOLDS = (20_000, 50, 100)


def tune_gc() -> None:
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
