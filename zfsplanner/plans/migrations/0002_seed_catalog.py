"""Seed the disk catalog with real disks from vendors' data sheets.

Capacities are exact user capacities in bytes: the LBA count the drive reports
times its logical sector size. Where the data sheet only gives a rounded label
capacity, the LBA count is the one the drive reports (it follows IDEMA LBA1-03:
97,696,368 + 1,953,504 × (GB − 50) sectors of 512 bytes), noted per disk.
"""

from django.db import migrations

IDEMA = "LBA count per IDEMA LBA1-03 for the label capacity"

DISKS = [
    {
        "vendor": "Seagate", "model": "ST14000NM001G", "name": "Exos X16 14TB SATA",
        "capacity_bytes": 14_000_519_643_136, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "datasheet_url": "https://www.seagate.com/files/www-content/datasheets/pdfs/exos-x16-DS2011-1-1904US-en_US.pdf",
        "notes": "27,344,764,928 LBAs × 512 B (512e, FastFormat can switch to 4Kn).",
    },
    {
        "vendor": "Seagate", "model": "ST16000NM001G", "name": "Exos X16 16TB SATA",
        "capacity_bytes": 16_000_900_661_248, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "datasheet_url": "https://www.seagate.com/files/www-content/datasheets/pdfs/exos-x16-DS2011-1-1904US-en_US.pdf",
        "notes": "31,251,759,104 LBAs × 512 B (512e).",
    },
    {
        "vendor": "Toshiba", "model": "MN08ACA14T", "name": "N300/NAS MN08 14TB",
        "capacity_bytes": 14_000_519_643_136, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "datasheet_url": "https://www.toshiba-storage.com/products/toshiba-nas-hard-drives-mn-series/",
        "notes": "27,344,764,928 LBAs × 512 B (512e).",
    },
    {
        "vendor": "Western Digital", "model": "WUH721816ALE6L4", "name": "Ultrastar DC HC550 16TB SATA",
        "capacity_bytes": 16_000_900_661_248, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "datasheet_url": "https://documents.westerndigital.com/content/dam/doc-library/en_us/assets/public/western-digital/product/data-center-drives/ultrastar-dc-hc500-series/data-sheet-ultrastar-dc-hc550.pdf",
        "notes": "31,251,759,104 LBAs × 512 B (512e, model suffix 4).",
    },
    {
        "vendor": "HGST", "model": "HUH721010ALN600", "name": "Ultrastar He10 10TB SATA 4Kn",
        "capacity_bytes": 10_000_831_348_736, "logical_sector_bytes": 4096, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 7200, "plp": False,
        "datasheet_url": "https://documents.westerndigital.com/content/dam/doc-library/en_us/assets/public/western-digital/product/data-center-drives/ultrastar-dc-hc500-series/data-sheet-ultrastar-he10.pdf",
        "notes": "2,441,609,216 LBAs × 4096 B (4Kn; the 512e ALE604 reports 19,532,873,728 × 512 B).",
    },
    {
        "vendor": "Western Digital", "model": "WD40EFZX", "name": "Red Plus 4TB",
        "capacity_bytes": 4_000_787_030_016, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "hdd", "rpm": 5400, "plp": False,
        "datasheet_url": "https://documents.westerndigital.com/content/dam/doc-library/en_us/assets/public/western-digital/product/internal-drives/wd-red-plus-hdd/product-brief-western-digital-wd-red-plus-hdd.pdf",
        "notes": f"7,814,037,168 LBAs × 512 B (512e; {IDEMA}).",
    },
    {
        "vendor": "Samsung", "model": "MZ-77E1T0", "name": "870 EVO 1TB",
        "capacity_bytes": 1_000_204_886_016, "logical_sector_bytes": 512, "physical_sector_bytes": 512,
        "media": "ssd", "rpm": None, "plp": False,
        "datasheet_url": "https://semiconductor.samsung.com/consumer-storage/internal-ssd/870evo/",
        "notes": f"1,953,525,168 LBAs × 512 B ({IDEMA}). Consumer SSD: no power-loss protection.",
    },
    {
        "vendor": "Samsung", "model": "MZ7L3960HCJR", "name": "PM893 960GB SATA",
        "capacity_bytes": 960_197_124_096, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "ssd", "rpm": None, "plp": True,
        "datasheet_url": "https://semiconductor.samsung.com/ssd/datacenter-ssd/pm893/",
        "notes": f"1,875,385,008 LBAs × 512 B ({IDEMA}). Enterprise SATA SSD with power-loss protection.",
    },
    {
        "vendor": "Samsung", "model": "MZQL21T9HCJR", "name": "PM9A3 1.92TB U.2",
        "capacity_bytes": 1_920_383_410_176, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "nvme", "rpm": None, "plp": True,
        "datasheet_url": "https://semiconductor.samsung.com/ssd/datacenter-ssd/pm9a3/",
        "notes": f"3,750,748,848 LBAs × 512 B ({IDEMA}); can be formatted 4Kn (nvme format --lbaf).",
    },
    {
        "vendor": "Micron", "model": "MTFDKCC3T8TFS", "name": "7450 PRO 3.84TB U.3, formatted 4Kn",
        "capacity_bytes": 3_840_755_982_336, "logical_sector_bytes": 4096, "physical_sector_bytes": 4096,
        "media": "nvme", "rpm": None, "plp": True,
        "datasheet_url": "https://www.micron.com/products/storage/ssd/data-center-ssd/7450-ssd",
        "notes": "937,684,566 LBAs × 4096 B after nvme format to the 4 KiB LBA format "
        "(7,501,476,528 × 512 B as shipped).",
    },
    {
        "vendor": "Solidigm", "model": "SSDPF2KX038T1", "name": "D7-P5520 3.84TB U.2",
        "capacity_bytes": 3_840_755_982_336, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "nvme", "rpm": None, "plp": True,
        "datasheet_url": "https://www.solidigm.com/products/data-center/d7/p5520.html",
        "notes": f"7,501,476,528 LBAs × 512 B ({IDEMA}).",
    },
    {
        "vendor": "Intel", "model": "SSDPEL1K100GA", "name": "Optane SSD DC P4801X 100GB M.2",
        "capacity_bytes": 100_030_242_816, "logical_sector_bytes": 512, "physical_sector_bytes": 4096,
        "media": "nvme", "rpm": None, "plp": True,
        "datasheet_url": "https://www.intel.com/content/www/us/en/products/sku/149367/intel-optane-ssd-dc-p4801x-series-100gb-m-2-110mm-pcie-x4-20nm-3d-xpoint/specifications.html",
        "notes": f"195,371,568 LBAs × 512 B ({IDEMA}). A classic SLOG device.",
    },
    {
        "vendor": "Intel", "model": "SSDPEK1A118GA", "name": "Optane SSD P1600X 118GB M.2",
        "capacity_bytes": 118_410_444_800, "logical_sector_bytes": 512, "physical_sector_bytes": 512,
        "media": "nvme", "rpm": None, "plp": True,
        "datasheet_url": "https://www.intel.com/content/www/us/en/products/sku/211867/intel-optane-ssd-p1600x-series-118gb-m-2-80mm-pcie-3-0-x4-3d-xpoint/specifications.html",
        "notes": "231,270,400 LBAs × 512 B as the drive reports it. 3D XPoint writes in place, so "
        "data in flight is safe on power loss; a common SLOG.",
    },
]


def seed(apps, schema_editor):
    CatalogDisk = apps.get_model("plans", "CatalogDisk")
    for row in DISKS:
        CatalogDisk.objects.update_or_create(model=row["model"], defaults={k: v for k, v in row.items() if k != "model"})


def unseed(apps, schema_editor):
    CatalogDisk = apps.get_model("plans", "CatalogDisk")
    CatalogDisk.objects.filter(model__in=[d["model"] for d in DISKS], vdev_groups__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("plans", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
