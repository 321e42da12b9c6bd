"""manage.py load_demo: demo user, team and design, safe to run twice."""

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from zfsplanner.accounts.models import Role, Team
from zfsplanner.plans.management.commands.load_demo import DEMO_PASSWORD
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db


def load(*args):
    out = StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def test_it_creates_the_demo_and_prints_the_login():
    out = load()
    assert "Log in at http://127.0.0.1:8000 as demo / zfsplanner-demo" in out
    user = authenticate(username="demo", password=DEMO_PASSWORD)
    assert user is not None
    team = Team.objects.get(slug="demo")
    assert team.role_of(user) == Role.OWNER


def test_demo_design_is_the_documented_one():
    load()
    design = PoolDesign.objects.get(team__slug="demo")
    spec = design.to_spec()
    data, special = spec.vdevs
    assert (data.role, data.layout, data.width) == ("data", "raidz2", 6)
    assert data.disks[0].size_bytes == 14_000_519_643_136
    assert (special.role, special.layout, special.width) == ("special", "mirror", 2)
    assert special.disks[0].plp is True
    photos = spec.datasets[0]
    assert photos.name == "tank/photos"
    assert photos.recordsize == 1024**2
    assert photos.special_small_blocks == 64 * 1024
    assert photos.contents.file_count == 72_208
    hist = photos.contents.file_size_histogram
    assert sum(n for _, n in hist) == 72_208
    total = sum(s * n for s, n in hist)
    assert total == photos.contents.logical_bytes
    assert abs(total / 1024**3 - 10.3) < 0.01


def test_it_is_idempotent():
    load()
    out = load()
    assert "left as it is" in out
    assert PoolDesign.objects.count() == 1
    assert PoolDesign.objects.get().revision == 1
    assert Team.objects.filter(slug="demo").count() == 1


def test_reset_overwrites_the_design():
    load()
    load("--reset")
    assert PoolDesign.objects.get().revision == 2
