"""The disk catalog as the importer sees it: the models it matches members to and the preview offers."""

from __future__ import annotations

from zfsplanner.core.importers.members import CatalogEntry
from zfsplanner.plans.models import CatalogDisk


def catalog_entries() -> list[CatalogEntry]:
    return [
        CatalogEntry(
            model=c.model,
            size_bytes=c.capacity_bytes,
            logical_sector_bytes=c.logical_sector_bytes,
            physical_sector_bytes=c.physical_sector_bytes,
            media=c.media,
            vendor=c.vendor,
            rpm=c.rpm,
            plp=c.plp,
        )
        for c in CatalogDisk.objects.all()
    ]
