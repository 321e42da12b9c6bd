"""Typed presentations of an estimate for pages, reports and charts.

* ``summary``: the design page's summary (headline figures, cost, where the raw capacity goes);
* ``lines``: its lines (vdev groups, risks, datasets, md RAID comparison, RAIDZ expansion);
* ``sizes``: a byte count in the reader's unit (:class:`~.sizes.Size`);
* ``planning``: the planning partials (special sizing, reliability, performance, SLOG and RAM);
* ``charts``: Chart.js JSON from an estimate;
* ``pages``: what more than one page shows of a stored design (design and shared page, charts, export);
* ``quick``: the quick planner's answer and page (also the home page of a visitor).
"""
