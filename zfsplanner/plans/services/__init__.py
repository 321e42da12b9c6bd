"""The plans' services: the functions that touch the database and call the core.

* ``designs``: a document or a changed ``Design`` validated and saved as one revision, undo/redo, variants;
* ``estimates``: the estimate and commands of a stored design (cached per revision), the planning stamp;
* ``editing``: changes to a ``Design`` (one vdev group, one dataset, a row's button), ``Design`` to ``Design``;
* ``fixes``: a risk's one-click fix applied as one revision (designer and API alike);
* ``disk_inputs``: what the core is told about disks (catalog and measured figures), the layout advisor;
* ``measurements``: the registry the benchmarks app fills in (plans never imports benchmarks);
* ``attached``: what other apps add to a design's page (``imports``: the attached pool);
* ``samples``: compression measured on an uploaded sample;
* ``sharing``: read-only share links made and revoked.

Who reaches a design (or a 404) is ``zfsplanner.plans.access``, beside this package.

Other apps use the names presented here, never a module's private ones.
"""

from .attached import register_design_addition
from .designs import save_design, save_design_document, validate_document
from .editing import error_text
from .estimates import estimate_design, planning_figures_changed
from .measurements import register_measurements
from .sharing import create_share_link, revoke_share_link

__all__ = [
    "create_share_link",
    "error_text",
    "estimate_design",
    "planning_figures_changed",
    "register_design_addition",
    "register_measurements",
    "revoke_share_link",
    "save_design",
    "save_design_document",
    "validate_document",
]
