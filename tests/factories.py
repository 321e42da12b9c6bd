"""factory_boy factories, one per model. Apps add theirs here."""

import factory
from django.contrib.auth import get_user_model

from zfsplanner.accounts.models import Membership, Role, Team


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("pw-for-tests-1")


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    name = factory.Sequence(lambda n: f"Team {n}")
    slug = factory.Sequence(lambda n: f"team-{n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    team = factory.SubFactory(TeamFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.VIEWER


# --------------------------------------------------------------------------- plans

from zfsplanner.plans.models import CatalogDisk, PoolDesign  # noqa: E402
from zfsplanner.plans.services import save_design_document  # noqa: E402


def design_document(name: str = "tank", **overrides):
    """A small valid design document in the canonical form the export writes."""
    doc = {
        "format": "zfsplanner.design/1",
        "name": name,
        "openzfs_version": "2.3",
        "vdevs": [
            {
                "role": "data",
                "layout": "raidz2",
                "width": 6,
                "count": 1,
                "ashift": 12,
                "disk": {
                    "size_bytes": 14000519643136,
                    "model": "ST14000NM001G",
                    "logical_sector_bytes": 512,
                    "physical_sector_bytes": 4096,
                    "media": "hdd",
                    "rpm": 7200,
                },
            }
        ],
        "datasets": [
            {
                "name": f"{name}/data",
                "type": "filesystem",
                "recordsize": "1M",
                "compression": "lz4",
                "contents": {"logical_bytes": 10**12},
            }
        ],
    }
    doc.update(overrides)
    return doc


class CatalogDiskFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CatalogDisk
        django_get_or_create = ("model",)

    vendor = "Example"
    model = factory.Sequence(lambda n: f"EX-{n:04d}")
    capacity_bytes = 4_000_787_030_016
    logical_sector_bytes = 512
    physical_sector_bytes = 4096
    media = "hdd"
    rpm = 7200
    plp = False


class PoolDesignFactory(factory.django.DjangoModelFactory):
    """Saved through ``save_design_document``; pass ``document=`` for a specific design."""

    class Meta:
        model = PoolDesign

    team = factory.SubFactory(TeamFactory)
    name = factory.Sequence(lambda n: f"pool{n}")

    @classmethod
    def _create(cls, model_class, team, name, document=None, user=None, **kwargs):
        return save_design_document(team, document or design_document(name), user)


# --- benchmarks -------------------------------------------------------------------------------

import hashlib  # noqa: E402

from django.core.files.base import ContentFile  # noqa: E402

from benchmarks.models import BenchResult, BenchRun, BenchUpload  # noqa: E402


class BenchUploadFactory(factory.django.DjangoModelFactory):
    """An upload whose file holds ``data`` (stored under MEDIA_ROOT like a real one)."""

    class Meta:
        model = BenchUpload

    class Params:
        data = factory.Sequence(lambda n: f"benchmark log {n}\n".encode())

    team = factory.SubFactory(TeamFactory)
    original_name = factory.Sequence(lambda n: f"log{n}.txt")
    size = factory.LazyAttribute(lambda o: len(o.data))
    sha256 = factory.LazyAttribute(lambda o: hashlib.sha256(o.data).hexdigest())
    file = factory.LazyAttribute(lambda o: ContentFile(o.data, name=o.original_name))


class BenchRunFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BenchRun

    upload = factory.SubFactory(BenchUploadFactory)
    team = factory.SelfAttribute("upload.team")
    label = factory.Sequence(lambda n: f"run {n}")


class BenchResultFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BenchResult

    run = factory.SubFactory(BenchRunFactory)
    index = factory.Sequence(lambda n: n)
    name = "SEQ1M Q8T1 read"
    op = "read"
    pattern = "sequential"
    block_size_bytes = 1048576
    queue_depth = 8
    threads = 1
    bandwidth_bytes_per_s = 500e6
    iops = 476.8
    latency_mean_us = 16000.0
