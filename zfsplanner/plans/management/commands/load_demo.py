"""``manage.py load_demo``: a demo user, team and design to try zfsplanner locally.

Idempotent: the user's password is (re)set to the documented demo password, the team
and membership are created if missing, and the demo design is created once (a design
you edited is left alone unless ``--reset`` is given).
"""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from zfsplanner.accounts.models import Membership, Role, Team
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import save_design_document

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "zfsplanner-demo"  # noqa: S105 - local demo only; documented in docs/designs.md
DEMO_TEAM_SLUG = "demo"

# 72,208 JPEGs of an exported photo library, by typical file size (bytes, count).
PHOTO_HISTOGRAM = [
    [21_000, 3_208],
    [42_000, 6_000],
    [69_000, 9_000],
    [97_000, 12_000],
    [125_000, 14_000],
    [153_000, 11_000],
    [195_000, 8_000],
    [278_000, 5_000],
    [417_000, 2_500],
    [695_000, 1_000],
    [1_390_000, 400],
    [2_779_000, 100],
]
PHOTO_COUNT = sum(n for _, n in PHOTO_HISTOGRAM)  # 72,208
PHOTO_BYTES = sum(s * n for s, n in PHOTO_HISTOGRAM)  # 11,058,768,000 B = 10.30 GiB

DEMO_DESIGN: dict[str, Any] = {
    "format": "zfsplanner.design/1",
    "name": "tank",
    "description": "Home server: 6 × 14 TB in raidz2 with a mirrored special vdev for metadata and small blocks.",
    "openzfs_version": "2.3",
    "disk_partitioning": "linux-whole-disk",
    "vdevs": [
        {"role": "data", "layout": "raidz2", "width": 6, "count": 1, "ashift": 12, "disk": {"catalog": "MN08ACA14T"}},
        {
            "role": "special",
            "layout": "mirror",
            "width": 2,
            "count": 1,
            "ashift": 12,
            "disk": {"catalog": "MZ7L3960HCJR"},
        },
    ],
    "datasets": [
        {
            "name": "tank/photos",
            "type": "filesystem",
            "recordsize": "1M",
            "compression": "zstd",
            "special_small_blocks": "64K",
            "copies": 1,
            "sync": "standard",
            "contents": {
                "logical_bytes": PHOTO_BYTES,
                "file_count": PHOTO_COUNT,
                "file_size_histogram": PHOTO_HISTOGRAM,
                "compressibility": {"profile": "already-compressed"},
            },
        }
    ],
}


class Command(BaseCommand):
    help = "Create the demo user, team and design (safe to run again)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reset", action="store_true", help="overwrite the demo design if it was changed")

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user, _ = get_user_model().objects.get_or_create(username=DEMO_USERNAME, defaults={"email": "demo@example.com"})
        user.set_password(DEMO_PASSWORD)
        user.save()
        team, _ = Team.objects.get_or_create(slug=DEMO_TEAM_SLUG, defaults={"name": "Demo"})
        Membership.objects.update_or_create(team=team, user=user, defaults={"role": Role.OWNER})
        design = PoolDesign.objects.filter(team=team, name=DEMO_DESIGN["name"]).first()
        if design is None:
            design = save_design_document(team, DEMO_DESIGN, user)
            self.stdout.write(f"Created the demo design {design.name!r} in team {team.name!r}.")
        elif options["reset"]:
            design = save_design_document(team, DEMO_DESIGN, user, instance=design)
            self.stdout.write(f"Reset the demo design {design.name!r} (revision {design.revision}).")
        else:
            self.stdout.write(f"The demo design {design.name!r} exists (revision {design.revision}); left as it is.")
        port = os.environ.get("PORT", "8000")
        self.stdout.write(self.style.SUCCESS(f"Log in at http://127.0.0.1:{port} as {DEMO_USERNAME} / {DEMO_PASSWORD}"))
