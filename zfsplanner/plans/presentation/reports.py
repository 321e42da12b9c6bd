"""The design report's texts: Markdown and CSV of a stored design, and their file names.

The report page (``views/reports.py``) and the API (``api/reports.py``) both read them here. The
report itself is ``zfsplanner.core.report``; its headline figures come from the design page's
presentation (the same ``summarize``), so the report and the page cannot disagree on them.
"""

from __future__ import annotations

from django.utils import timezone

from zfsplanner.core import report
from zfsplanner.core.units import DEFAULT_SIZE_UNIT

from ..models import PoolDesign
from ..services.estimates import estimate_design
from .summary import summarize


def _safe_name(design: PoolDesign) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in design.name)


def report_filename(design: PoolDesign, ext: str) -> str:
    """``tank-r3-report.md`` / ``tank-r3-estimate.csv``."""
    kind = "estimate" if ext == "csv" else "report"
    return f"{_safe_name(design)}-r{design.revision}-{kind}.{ext}"


def _meta(design: PoolDesign, link: str | None) -> dict[str, str]:
    meta = {"team": design.team.name, "revision": str(design.revision),
            "generated": timezone.now().strftime("%Y-%m-%d %H:%M UTC")}
    if link:
        meta["link"] = link
    return meta


def report_texts(design: PoolDesign, link: str | None = None, unit: str = DEFAULT_SIZE_UNIT) -> tuple[str, str]:
    """(Markdown, CSV) of a stored design, sizes in ``unit``; ``InvalidDesign`` when the core rejects it now.

    The headline figures come from the design page's presentation (the same ``summarize``), so the
    report and the page cannot disagree on them."""
    spec = design.to_spec()
    est = estimate_design(design)
    summary = summarize(est, spec, with_fixes=False, unit=unit)
    markdown = report.markdown(spec, est, meta=_meta(design, link), unit=summary.unit, top=summary.headline)
    return markdown, report.csv_text(spec, est)
