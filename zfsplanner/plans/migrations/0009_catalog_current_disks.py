"""Bring the disk catalog up to the disks people buy now: 20-24 TB data-center HDDs and the
SATA SSDs with power-loss protection used for special and log vdevs.

Every row says where each figure comes from:

* ``capacity_bytes`` is the user capacity the drive reports (LBA count × logical sector).
  The 20, 22 and 24 TB points are the same on every vendor: 39,063,650,304, 42,970,644,480
  and 46,875,541,504 LBAs of 512 B, as ``smartctl -i`` prints them for these models (and
  their SAS siblings); SSD capacities follow IDEMA LBA1-03 for their label capacity, like
  the SSDs of 0002.
* Sector formats are the formats the drives ship in (``logical_sector_bytes`` /
  ``physical_sector_bytes``); FastFormat / ``nvme format`` can change some of them, noted.
* Speeds are the vendor's data-sheet figures (``datasheet_url``; the data sheet's name is in
  ``notes``): the sustained sequential rate, in bytes/s. A figure we could not check against
  the data sheet is left empty (the estimate then uses its media class), as are the 4 KiB
  random IOPS, which HDD data sheets give at queue depth 16, not the field's 32.
* Prices stay empty: no source we could cite. Failure rates stay empty: the estimate uses the
  published large-fleet figure for the media class.

Already seeded models (0002) keep their rows; only empty data-sheet speeds are filled in
(``FIGURES``). ``unseed`` removes the disks added here that no design uses.
"""

from django.db import migrations

MB = 1_000_000
SMARTCTL = "the user capacity smartctl -i reports for this model"

DISKS = [
    # ------------------------------------------------------------------ HDDs, 20-24 TB
    {
        "vendor": "Seagate", "model": "ST20000NM007D", "name": "Exos X20 20TB SATA",
        "capacity_bytes": 20_000_588_955_648, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "seq_read_bytes_per_s": 285 * MB, "seq_write_bytes_per_s": 285 * MB,
        "datasheet_url": "https://www.seagate.com/products/enterprise-drives/exos-x/x20/",
        "notes": f"39,063,650,304 LBAs × 512 B ({SMARTCTL}). 512e as shipped, FastFormat to 4Kn. "
        "Speed: Exos X20 data sheet, max. sustained transfer rate OD 285 MB/s.",
    },
    {
        "vendor": "Seagate", "model": "ST24000NM002H", "name": "Exos X24 24TB SATA",
        "capacity_bytes": 24_000_277_250_048, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "seq_read_bytes_per_s": 285 * MB, "seq_write_bytes_per_s": 285 * MB,
        "datasheet_url": "https://www.seagate.com/products/enterprise-drives/exos-x/x24/",
        "notes": "46,875,541,504 LBAs × 512 B (as the X24 family reports it). 512e as shipped, FastFormat to "
        "4Kn. Speed: Exos X24 data sheet, max. sustained transfer rate OD 285 MB/s.",
    },
    {
        "vendor": "Western Digital", "model": "WUH722020ALE6L4", "name": "Ultrastar DC HC560 20TB SATA",
        "capacity_bytes": 20_000_588_955_648, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "datasheet_url": "https://www.westerndigital.com/products/internal-drives/data-center-drives/ultrastar-dc-hc560-hdd",
        "notes": f"39,063,650,304 LBAs × 512 B ({SMARTCTL} and its SAS sibling WUH722020BL5204). 512e "
        "(model suffix 4). Data sheet: Ultrastar DC HC560.",
    },
    {
        "vendor": "Western Digital", "model": "WUH722222ALE6L4", "name": "Ultrastar DC HC570 22TB SATA",
        "capacity_bytes": 22_000_969_973_760, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "datasheet_url": "https://www.westerndigital.com/products/internal-drives/data-center-drives/ultrastar-dc-hc570-hdd",
        "notes": f"42,970,644,480 LBAs × 512 B ({SMARTCTL} and its SAS sibling WUH722222AL5200). 512e. "
        "Data sheet: Ultrastar DC HC570.",
    },
    {
        "vendor": "Western Digital", "model": "WUH722424ALE6L4", "name": "Ultrastar DC HC580 24TB SATA",
        "capacity_bytes": 24_000_277_250_048, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "seq_read_bytes_per_s": 298 * MB, "seq_write_bytes_per_s": 298 * MB,
        "datasheet_url": "https://www.westerndigital.com/products/internal-drives/data-center-drives/ultrastar-dc-hc580-hdd",
        "notes": "46,875,541,504 LBAs × 512 B (the drive's reported size). 512e. Speed: Ultrastar DC HC580 "
        "data sheet, sustained transfer rate 298 MB/s.",
    },
    {
        "vendor": "Toshiba", "model": "MG10ACA20TE", "name": "MG10 20TB SATA",
        "capacity_bytes": 20_000_588_955_648, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "datasheet_url": "https://www.toshiba-storage.com/",
        "notes": f"39,063,650,304 LBAs × 512 B ({SMARTCTL}). 512e. "
        "Data sheet: Toshiba MG10 Series.",
    },
    {
        "vendor": "Toshiba", "model": "MG11ACA24TE", "name": "MG11 24TB SATA",
        "capacity_bytes": 24_000_277_250_048, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "datasheet_url": "https://www.toshiba-storage.com/",
        "notes": "46,875,541,504 LBAs × 512 B (the 24 TB point every vendor reports). 512e. "
        "Data sheet: Toshiba MG11 Series.",
    },
    # ------------------------------------------------------------------ SATA SSDs for special and log vdevs
    {
        "vendor": "Intel", "model": "SSDSC2KB960G8", "name": "D3-S4510 960GB SATA",
        "capacity_bytes": 960_197_124_096, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "ssd", "rpm": None, "plp": True,
        "seq_read_bytes_per_s": 560 * MB, "seq_write_bytes_per_s": 510 * MB,
        "datasheet_url": "https://www.solidigm.com/products/data-center/d3/s4510.html",
        "notes": "1,875,385,008 LBAs × 512 B (IDEMA LBA1-03 for 960 GB). Enhanced power-loss data "
        "protection. Speeds: D3-S4510 product brief, 960 GB: 560 MB/s read, 510 MB/s write.",
    },
    {
        "vendor": "Samsung", "model": "MZ7L31T9HBLT", "name": "PM893 1.92TB SATA",
        "capacity_bytes": 1_920_383_410_176, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "ssd", "rpm": None, "plp": True,
        "seq_read_bytes_per_s": 550 * MB, "seq_write_bytes_per_s": 520 * MB,
        "datasheet_url": "https://semiconductor.samsung.com/ssd/datacenter-ssd/pm893/",
        "notes": "3,750,748,848 LBAs × 512 B (IDEMA LBA1-03 for 1,920 GB). Power-loss protection. "
        "Speeds: PM893 data sheet, 550 MB/s read, 520 MB/s write.",
    },
    {
        "vendor": "Micron", "model": "MTFDDAK960TGA", "name": "5400 PRO 960GB SATA",
        "capacity_bytes": 960_197_124_096, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "ssd", "rpm": None, "plp": True,
        "seq_read_bytes_per_s": 540 * MB, "seq_write_bytes_per_s": 520 * MB,
        "datasheet_url": "https://www.micron.com/products/storage/ssd/data-center-ssd/5400-ssd",
        "notes": "1,875,385,008 LBAs × 512 B (IDEMA LBA1-03 for 960 GB). Power-loss protection. "
        "Speeds: Micron 5400 SSD product brief, 540 MB/s read, 520 MB/s write.",
    },
]

# Data-sheet speeds of disks 0002 seeded without them (filled only where still empty).
FIGURES = {
    "MZ7L3960HCJR": {"seq_read_bytes_per_s": 550 * MB, "seq_write_bytes_per_s": 520 * MB},  # PM893 data sheet
}


def seed(apps, schema_editor):
    CatalogDisk = apps.get_model("plans", "CatalogDisk")
    for row in DISKS:
        defaults = {k: v for k, v in row.items() if k != "model"}
        CatalogDisk.objects.update_or_create(model=row["model"], defaults=defaults)
    for model, figures in FIGURES.items():
        for field, value in figures.items():
            CatalogDisk.objects.filter(model=model, **{f"{field}__isnull": True}).update(**{field: value})


def unseed(apps, schema_editor):
    CatalogDisk = apps.get_model("plans", "CatalogDisk")
    CatalogDisk.objects.filter(model__in=[d["model"] for d in DISKS], vdev_groups__isnull=True).delete()
    for model, figures in FIGURES.items():
        for field, value in figures.items():
            CatalogDisk.objects.filter(model=model, **{field: value}).update(**{field: None})


class Migration(migrations.Migration):
    dependencies = [("plans", "0008_design_variant_of")]
    operations = [migrations.RunPython(seed, unseed)]
