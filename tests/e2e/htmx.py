"""Waiting for htmx in browser tests."""

from __future__ import annotations

# htmx keeps its bookkeeping on each element it has processed; ``initHash`` is set once the
# element's hx-* attributes are wired up (htmx 2, initNode; elements without hx-* are never
# marked). An element swapped in a moment ago may be on the page before that: a change made to
# it then goes unheard.
PROCESSED = """(sel) => {
  const el = document.querySelector(sel);
  return !!(el && el["htmx-internal-data"] && el["htmx-internal-data"].initHash);
}"""


def wait_processed(page, selector: str) -> None:
    """Wait until htmx has wired up the element ``selector`` (after a swap brought it)."""
    page.wait_for_function(PROCESSED, arg=selector)
