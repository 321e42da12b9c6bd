"""The plans' services: the functions that touch the database and call the core.

* ``access``: who reaches a design (team scope, one helper for every view), writable teams, share links;
* ``designs``: a document or a changed ``Design`` validated and saved as one revision, undo/redo, variants;
* ``estimates``: the estimate and commands of a stored design (cached per revision), the planning stamp;
* ``editing``: changes to a ``Design`` (one vdev group, one dataset, a row's button), ``Design`` to ``Design``;
* ``fixes``: a risk's one-click fix applied as one revision (designer and API alike);
* ``planning``: catalog and measured figures for the core, the layout advisor;
* ``measurements``: the registry the benchmarks app fills in (plans never imports benchmarks);
* ``attached``: what other apps add to a design's page (``imports``: the attached pool);
* ``samples``: compression measured on an uploaded sample.

Other apps use the names presented here, never a module's private ones.
"""

from .access import create_share_link, design_state, get_design_for_user, revoke_share_link, writable_teams
from .attached import register_design_addition
from .designs import save_design, save_design_document, validate_document
from .editing import error_text
from .estimates import estimate_design, planning_figures_changed
from .measurements import register_measurements

__all__ = [
    "create_share_link",
    "design_state",
    "error_text",
    "estimate_design",
    "get_design_for_user",
    "planning_figures_changed",
    "register_design_addition",
    "register_measurements",
    "revoke_share_link",
    "save_design",
    "save_design_document",
    "validate_document",
    "writable_teams",
]
