"""Choices for the plans app, mirroring the design document's enumerations.

The values come from ``zfsplanner.core.design`` so the database and the document
format cannot drift apart.
"""

from django.db import models

from zfsplanner.core.design import types as core


class Media(models.TextChoices):
    HDD = core.Media.HDD.value, "HDD"
    SSD = core.Media.SSD.value, "SATA/SAS SSD"
    NVME = core.Media.NVME.value, "NVMe"


class OpenZFSVersion(models.TextChoices):
    V0_8 = "0.8", "OpenZFS 0.8"
    V2_0 = "2.0", "OpenZFS 2.0"
    V2_1 = "2.1", "OpenZFS 2.1"
    V2_2 = "2.2", "OpenZFS 2.2"
    V2_3 = "2.3", "OpenZFS 2.3"
    V2_4 = "2.4", "OpenZFS 2.4"


DEFAULT_OPENZFS_VERSION = OpenZFSVersion.V2_3
assert tuple(OpenZFSVersion.values) == core.OPENZFS_VERSIONS  # noqa: S101


class Partitioning(models.TextChoices):
    LINUX_WHOLE_DISK = core.Partitioning.LINUX_WHOLE_DISK.value, "Linux whole disk (1 MiB offset, 8 MiB reserved)"
    NONE = core.Partitioning.NONE.value, "None (partitions or files used as they are)"


class VdevRole(models.TextChoices):
    DATA = core.Role.DATA.value, "data"
    SPECIAL = core.Role.SPECIAL.value, "special"
    DEDUP = core.Role.DEDUP.value, "dedup"
    LOG = core.Role.LOG.value, "log"
    CACHE = core.Role.CACHE.value, "cache"
    SPARE = core.Role.SPARE.value, "spare"


class VdevLayout(models.TextChoices):
    STRIPE = core.Layout.STRIPE.value, "stripe"
    MIRROR = core.Layout.MIRROR.value, "mirror"
    RAIDZ1 = core.Layout.RAIDZ1.value, "raidz1"
    RAIDZ2 = core.Layout.RAIDZ2.value, "raidz2"
    RAIDZ3 = core.Layout.RAIDZ3.value, "raidz3"
    DRAID1 = core.Layout.DRAID1.value, "draid1"
    DRAID2 = core.Layout.DRAID2.value, "draid2"
    DRAID3 = core.Layout.DRAID3.value, "draid3"


class DatasetType(models.TextChoices):
    FILESYSTEM = core.DatasetType.FILESYSTEM.value, "filesystem"
    VOLUME = core.DatasetType.VOLUME.value, "volume"


class Sync(models.TextChoices):
    STANDARD = core.Sync.STANDARD.value, "standard"
    ALWAYS = core.Sync.ALWAYS.value, "always"
    DISABLED = core.Sync.DISABLED.value, "disabled"


class Severity(models.TextChoices):
    INFO = "info", "info"
    WARNING = "warning", "warning"
    CRITICAL = "critical", "critical"
