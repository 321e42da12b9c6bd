"""Choices for the plans app, mirroring the design document's enumerations.

The values come from ``zfsplanner.core.design`` so the database and the document
format cannot drift apart.
"""

from typing import Any

from django.db import models

from zfsplanner.core.design import types as core
from zfsplanner.core.releases import OFFERED
from zfsplanner.core.versions import SERIES_NAMES, Version, default_version


class Media(models.TextChoices):
    HDD = core.Media.HDD.value, "HDD"
    SSD = core.Media.SSD.value, "SATA/SAS SSD"
    NVME = core.Media.NVME.value, "NVMe"


def media_label(value: str) -> str:
    """How the pages name a disk's media (``nvme`` is "NVMe"); an unknown value as it is written."""
    return Media(value).label if value in Media.values else value


# Every name a design may give (a series or a release the planner knows), and the series a list filters by.
OPENZFS_VERSION_NAMES: tuple[str, ...] = core.OPENZFS_VERSIONS
OPENZFS_SERIES_CHOICES = [(s, f"OpenZFS {s}") for s in reversed(SERIES_NAMES)]
# What a new design, the quick planner, an import and the advisor start from: the newest release
# the planner knows (versions.default_version). A document that names none is read as the design
# format's own default (core.DEFAULT_OPENZFS_VERSION).
DEFAULT_OPENZFS_VERSION = default_version()


def openzfs_version_choices(current: str | None = None) -> list[tuple[str, str]]:
    """The releases whose figures differ, newest first (``releases.OFFERED``), and ``current``
    (a series or another known release a design already names) where it sorts."""
    choices = [(o.name, o.label) for o in OFFERED]
    if current and current in OPENZFS_VERSION_NAMES and current not in dict(choices):
        modelled = Version.parse(current)
        label = f"OpenZFS {current} (as {modelled})" if str(modelled) != current else f"OpenZFS {current}"
        at = next((i for i, o in enumerate(OFFERED) if o.release < modelled), len(choices))
        choices.insert(at, (current, label))
    return choices


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


def offer_versions(form: Any, name: str = "openzfs_version") -> None:
    """Give ``form``'s version field the offered releases plus the one the form holds (its data or
    its initial value: an older design's series, a release typed in a link), so it is kept."""
    current = form.data.get(form.add_prefix(name)) or form.initial.get(name) or form.fields[name].initial
    form.fields[name].choices = openzfs_version_choices(str(current) if current else None)
