"""The pool design document (``zfsplanner.design/1``): parse, validate, export.

``parse_design(doc)`` turns the JSON document of ``spec/design-format.md`` into frozen
dataclasses, or raises :class:`InvalidDesign` listing every problem with the path of
the field (``vdevs[0].width``). ``design_to_document(design)`` writes it back. The round
trip is lossless: ``parse_design(design_to_document(parse_design(d))) ==
parse_design(d)``, and unknown keys are carried along in ``extra`` at every level.

Optional fields stay ``None`` when the document leaves them out, so the export writes
back only what was given; the estimator applies OpenZFS defaults itself.

The document's parts live in three modules, re-exported here so callers import from one
place: :mod:`design_types` (enums, constants, dataclasses, ``InvalidDesign``),
:mod:`design_parse` (``parse_design``) and :mod:`design_export` (``design_to_document``).
"""

from .design_export import (
    VDEV_OPTIONAL_KEYS,
    contents_to_document,
    dataset_to_document,
    design_to_document,
    disk_to_document,
    price_text,
    put_optional,
    vdev_to_document,
    with_defaults_resolved,
)
from .design_parse import (
    COMPRESSIBILITY_KEYS,
    CONTENTS_KEYS,
    DATASET_KEYS,
    DESIGN_KEYS,
    DISK_KEYS,
    DRAID_MAX_CHILDREN,
    DRAID_MAX_SPARES,
    MIN_WIDTH,
    RAIDZ_MAX_WIDTH,
    VDEV_KEYS,
    parse_design,
)
from .design_types import (
    COMPRESSIBILITY_PROFILES,
    COMPRESSION_VALUES,
    DATASET_NAME_RE,
    DEFAULT_OPENZFS_VERSION,
    DRAID_LAYOUTS,
    FORMAT,
    OPENZFS_VERSIONS,
    PARITY,
    POOL_NAME_RE,
    PRICE_MAX_DIGITS,
    PRICE_MAX_PLACES,
    RAIDZ_LAYOUTS,
    RESERVED_POOL_NAMES,
    Compressibility,
    Contents,
    Dataset,
    DatasetType,
    Design,
    Disk,
    InvalidDesign,
    Layout,
    Media,
    Partitioning,
    Role,
    Sync,
    VdevGroup,
)

__all__ = [
    "COMPRESSIBILITY_KEYS",
    "CONTENTS_KEYS",
    "DATASET_KEYS",
    "DESIGN_KEYS",
    "DISK_KEYS",
    "VDEV_KEYS",
    "Compressibility",
    "COMPRESSIBILITY_PROFILES",
    "COMPRESSION_VALUES",
    "Contents",
    "contents_to_document",
    "Dataset",
    "DATASET_NAME_RE",
    "dataset_to_document",
    "DatasetType",
    "DEFAULT_OPENZFS_VERSION",
    "Design",
    "design_to_document",
    "Disk",
    "disk_to_document",
    "DRAID_LAYOUTS",
    "DRAID_MAX_CHILDREN",
    "DRAID_MAX_SPARES",
    "FORMAT",
    "InvalidDesign",
    "Layout",
    "Media",
    "MIN_WIDTH",
    "OPENZFS_VERSIONS",
    "PARITY",
    "parse_design",
    "Partitioning",
    "POOL_NAME_RE",
    "PRICE_MAX_DIGITS",
    "PRICE_MAX_PLACES",
    "price_text",
    "put_optional",
    "RAIDZ_LAYOUTS",
    "RAIDZ_MAX_WIDTH",
    "RESERVED_POOL_NAMES",
    "Role",
    "Sync",
    "VDEV_OPTIONAL_KEYS",
    "vdev_to_document",
    "VdevGroup",
    "with_defaults_resolved",
]
