"""The designer: build and change a design with forms, see the estimate change after each step.

Every change posts one small form (pool settings, a vdev group, a dataset, a row button,
a one-click fix, undo/redo). The view applies it to the current document
(``editing``), saves the result as one new revision (``save_design_document``: all or
nothing) and answers with the re-rendered ``designer`` partial, estimate included.
Invalid input comes back with the message at the field and status 422; a change made
on an older revision than the stored one answers 409, keeps what the user typed and
says who saved what.

``page``: the page, the JSON editor's save and how a change is answered; ``sections``: the section
editors; ``rows``: row buttons, fixes, undo/redo and variants; ``editors``: the forms they show.
"""

from .page import chart_breakdown, design_edit, designer
from .rows import design_duplicate, design_fix_apply, design_redo, design_undo, designer_op
from .sections import catalog_options, designer_dataset, designer_form, designer_host, designer_pool, designer_vdev

__all__ = [
    "catalog_options",
    "chart_breakdown",
    "design_duplicate",
    "design_edit",
    "design_fix_apply",
    "design_redo",
    "design_undo",
    "designer",
    "designer_dataset",
    "designer_form",
    "designer_host",
    "designer_op",
    "designer_pool",
    "designer_vdev",
]
