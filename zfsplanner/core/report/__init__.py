"""A design and its estimate for a reader: the headline figures, the Markdown report, CSV and HTML.

:class:`Headline` is the answer a reader came for (usable space, raw, failures survived,
risks by severity), built once from the estimate by :func:`headline`; the design page's
summary (``plans.presentation``) and this report read the same object, so a headline figure
cannot differ between them.

:func:`markdown` is written for a person: it leads with the headline, then the vdevs, the
datasets, the space figure by figure (with what ``zpool list`` / ``zfs list`` will print),
the risks with their fixes, special vdev sizing, reliability, performance, SLOG and RAM
(``report.planning``), "model vs the pool" for an imported design, and the commands. Sizes
are in one family of units at a time, the reader's choice (``TiB`` or ``TB``). Every table has
labels in words; no field name of the estimate document is shown.

:func:`csv_text` is the estimate as one row for the pool, one per top-level vdev and one per
dataset, with exact byte counts (a spreadsheet formats them), machine column names and a
``label`` column in words.
"""

from __future__ import annotations

from .headline import Headline, headline, pool_figures
from .html_text import markdown_to_html
from .markdown import markdown
from .spreadsheet import csv_rows, csv_text
from .tables import generic, table, value

__all__ = [
    "Headline",
    "csv_rows",
    "csv_text",
    "generic",
    "headline",
    "markdown",
    "markdown_to_html",
    "pool_figures",
    "table",
    "value",
]
