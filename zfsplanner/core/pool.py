"""Pool-level capacity: what ``zpool list -p`` SIZE and an empty pool's ``zfs list -p`` AVAIL say.

The pipeline, per top-level vdev, follows OpenZFS step by step (see
``shared/reference/zfs-space-accounting.md`` §0-§3):

1. disk bytes -> partition ZFS is given (``lib/libzfs/os/linux/libzfs_pool_os.c``,
   ``zpool_label_disk()``, for Linux whole disks; the size as is otherwise);
2. partition -> leaf asize: whole 256 KiB label units less 4.5 MiB of labels and boot
   area (``module/zfs/vdev.c``, ``vdev_open()``);
3. leaves -> top-level asize: mirror = smallest child, raidz = width x smallest child
   (``vdev_mirror_open()``, ``vdev_raidz_open()``), dRAID per ``vdev_draid_open()``;
4. asize -> metaslab shift and count (``vdev_metaslab_set_size()``,
   ``vdev_metaslab_init()``); SIZE = whole metaslabs only;
5. metaslabs -> deflated space (``vdev_deflated_space()``) per allocation class; one
   metaslab per big normal vdev goes to the embedded log class;
6. normal-class deflated space -> less slop (``spa_get_slop_space()``) -> less the
   metadata a new pool writes -> ``zfs list`` AVAIL of the pool's root dataset.

Steps 1-6 except the very last subtraction are deterministic and reproduce real
OpenZFS to the byte. The metadata of a fresh pool (100-250 KB on 512 B sectors) is
modelled from measurements (:func:`initial_root_used`).

Each step has its own module; this one gathers their public names:

* :mod:`zfsplanner.core.partitioning` - step 1-2: whole-disk partitioning, labels, reserve;
* :mod:`zfsplanner.core.draid` - dRAID groups, asize and whole-stripe metaslabs;
* :mod:`zfsplanner.core.metaslab` - metaslab shift and deflated space;
* :mod:`zfsplanner.core.vdev_shape` - steps 2-5 for one vdev group, and removability;
* :mod:`zfsplanner.core.slop` - slop per OpenZFS version;
* :mod:`zfsplanner.core.capacity` - step 6, :func:`pool_capacity`;
* :mod:`zfsplanner.core.expansion` - RAIDZ expansion, :func:`expansion_report`.
"""

from __future__ import annotations

from .capacity import (
    INITIAL_METADATA_BLOCKS,
    INITIAL_METADATA_PER_EXTRA_VDEV,
    PoolCapacity,
    VdevCapacity,
    initial_root_used,
    pool_capacity,
)
from .draid import (
    VDEV_DRAID_REFLOW_RESERVE,
    VDEV_DRAID_ROWHEIGHT,
    draid_child_asize,
    draid_default_data,
    draid_groups,
    draid_metaslab_bytes,
    draid_metaslab_total,
    draid_vdev_asize,
)
from .expansion import ExpansionReport, expansion_report
from .metaslab import (
    LEGACY_METASLABS_PER_VDEV,
    SPA_MAXBLOCKSHIFT,
    SPA_MINBLOCKSHIFT,
    ZFS_EMBEDDED_SLOG_MIN_MS,
    ZFS_VDEV_DEFAULT_MS_COUNT,
    ZFS_VDEV_DEFAULT_MS_SHIFT,
    ZFS_VDEV_MAX_MS_SHIFT,
    ZFS_VDEV_MIN_MS_COUNT,
    ZFS_VDEV_MS_COUNT_LIMIT,
    deflated,
    metaslab_shift,
)
from .partitioning import (
    EFI_GPE_SIZE,
    EFI_MIN_ARRAY_SIZE,
    EFI_MIN_RESV_SIZE,
    EFI_NUMPAR,
    NEW_START_BLOCK,
    PARTITION_END_ALIGNMENT,
    SPA_MINDEVSIZE,
    VDEV_LABEL_END_SIZE,
    VDEV_LABEL_SIZE,
    VDEV_LABEL_START_SIZE,
    gpt_label_blocks,
    leaf_asize,
    linux_whole_disk_partition_bytes,
    member_osize,
)
from .slop import SPA_MAX_SLOP, SPA_MIN_SLOP, SPA_SLOP_SHIFT, slop_space
from .vdev_shape import ALLOCATING_ROLES, L2ARC_DEV_HDR_SIZE, METASLAB_ROLES

__all__ = [
    "ALLOCATING_ROLES",
    "EFI_GPE_SIZE",
    "EFI_MIN_ARRAY_SIZE",
    "EFI_MIN_RESV_SIZE",
    "EFI_NUMPAR",
    "INITIAL_METADATA_BLOCKS",
    "INITIAL_METADATA_PER_EXTRA_VDEV",
    "L2ARC_DEV_HDR_SIZE",
    "LEGACY_METASLABS_PER_VDEV",
    "METASLAB_ROLES",
    "NEW_START_BLOCK",
    "PARTITION_END_ALIGNMENT",
    "SPA_MAXBLOCKSHIFT",
    "SPA_MAX_SLOP",
    "SPA_MINBLOCKSHIFT",
    "SPA_MINDEVSIZE",
    "SPA_MIN_SLOP",
    "SPA_SLOP_SHIFT",
    "VDEV_DRAID_REFLOW_RESERVE",
    "VDEV_DRAID_ROWHEIGHT",
    "VDEV_LABEL_END_SIZE",
    "VDEV_LABEL_SIZE",
    "VDEV_LABEL_START_SIZE",
    "ZFS_EMBEDDED_SLOG_MIN_MS",
    "ZFS_VDEV_DEFAULT_MS_COUNT",
    "ZFS_VDEV_DEFAULT_MS_SHIFT",
    "ZFS_VDEV_MAX_MS_SHIFT",
    "ZFS_VDEV_MIN_MS_COUNT",
    "ZFS_VDEV_MS_COUNT_LIMIT",
    "ExpansionReport",
    "PoolCapacity",
    "VdevCapacity",
    "deflated",
    "draid_child_asize",
    "draid_default_data",
    "draid_groups",
    "draid_metaslab_bytes",
    "draid_metaslab_total",
    "draid_vdev_asize",
    "expansion_report",
    "gpt_label_blocks",
    "initial_root_used",
    "leaf_asize",
    "linux_whole_disk_partition_bytes",
    "member_osize",
    "metaslab_shift",
    "pool_capacity",
    "slop_space",
]
