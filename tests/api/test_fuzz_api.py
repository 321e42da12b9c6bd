"""Every operation in /api/schema/, fed inputs generated from the schema itself.

The requests go through the real WSGI application (middleware, authentication, the test
database) as alice, the owner of a team that has a design, a share link, a parsed benchmark
run and a failed upload. Path ids are pointed at those objects most of the time so the
generated bodies reach the serializers and services instead of stopping at a 404.

What must hold for any input: no 5xx, and the status code, content type and body are the
ones the schema documents. Run with ``FUZZ_EXAMPLES=300`` (or more) to search harder; the
default keeps the suite fast and, with ``derandomize``, the same on every run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import pytest
import schemathesis
from django.core.files.uploadedfile import SimpleUploadedFile
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from benchmarks import services as bench_services
from benchmarks.models import BenchRun
from tests.benchmarks.conftest import CDM_WD
from tests.factories import CatalogDiskFactory, MembershipFactory, PoolDesignFactory, UserFactory, design_document
from zfsplanner.accounts.models import Role
from zfsplanner.accounts.tokens import issue_token
from zfsplanner.plans.services import create_share_link
from zfsplanner.wsgi import application

MAX_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
# The schema's boundary values ("coverage" cases, not bounded by max_examples) only in deep runs.
PHASES = [Phase.explicit, Phase.generate] if MAX_EXAMPLES > 25 else [Phase.generate]
# Bodies must match what the schema declares for their status code. Status codes themselves
# are not checked: the schema lists each operation's success and validation answers, not the
# 401/403/404 that authentication, permissions and lookups give on every operation.
CHECKS = [not_a_server_error, content_type_conformance, response_schema_conformance]



def _served_schema() -> dict:
    """What /api/schema/ serves (the same generator), built without a request.

    It is loaded at collection, so that every operation is its own test with its own rows;
    fetching it through the WSGI app then would open the development database
    (ATOMIC_REQUESTS wraps every request in a transaction).
    """
    return SchemaGenerator().get_schema(request=None, public=True)


schema = schemathesis.openapi.from_dict(_served_schema())
schema.app = application  # requests go in-process through the WSGI handler, as from_wsgi does


@dataclass
class World:
    """The objects alice can reach, by the path parameter names of the schema."""

    token: str
    ids: dict[str, list[int]] = field(default_factory=dict)

    def aim(self, case) -> None:
        """Point generated path ids at real objects, chosen by the generated value so runs replay."""
        params = case.path_parameters or {}
        for name, value in params.items():
            candidates = self._candidates(case.path, name)
            if not candidates or not isinstance(value, int):
                continue
            pick = value % (len(candidates) + 1)
            if pick < len(candidates):  # otherwise keep the generated id (usually a 404)
                params[name] = candidates[pick]

    def _candidates(self, path: str, name: str) -> list[int]:
        if name == "user_id":
            return self.ids["user"]
        if name == "link_id":
            return self.ids["link"]
        if name != "id":
            return []
        for prefix, key in (
            ("/api/designs/", "design"),
            ("/api/teams/", "team"),
            ("/api/disks/", "disk"),
            ("/api/benchmarks/", "run"),
            ("/api/benchmark-uploads/", "upload"),
        ):
            if path.startswith(prefix):
                return self.ids[key]
        return []


@pytest.fixture
def world(transactional_db, team, alice, erin, bob, charlie, other_team, settings, tmp_path):
    """Committed rows, because the WSGI handler closes and reopens connections between requests."""
    settings.MEDIA_ROOT = tmp_path / "media"
    disk = CatalogDiskFactory(model="ST14000NM001G", capacity_bytes=14_000_519_643_136)
    design = PoolDesignFactory(team=team, document=design_document("tank"), user=alice)
    PoolDesignFactory(team=other_team, document=design_document("theirs"), user=charlie)
    link = create_share_link(design, alice)
    stored = bench_services.store_upload(
        team=team, user=alice, file=SimpleUploadedFile(CDM_WD.name, CDM_WD.read_bytes()), run_fields={}
    )
    failed = bench_services.store_upload(
        team=team, user=alice, file=SimpleUploadedFile("junk.txt", b"not a benchmark log\n"), run_fields={}
    )
    run = BenchRun.objects.get(upload=stored.upload)
    assert run.tool, "the sample log should have been parsed in-process"
    MembershipFactory(team=other_team, user=UserFactory(username="dave"), role=Role.VIEWER)
    return World(
        token=issue_token(alice, "fuzz", None)[1],
        ids={
            "design": [design.pk],
            "team": [team.pk, other_team.pk],
            "disk": [disk.pk],
            "run": [run.pk],
            "upload": [stored.upload.pk, failed.upload.pk],
            "user": [alice.pk, erin.pk, bob.pk, charlie.pk],
            "link": [link.pk],
        },
    )


@pytest.mark.django_db(transaction=True)
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    phases=PHASES,
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_every_generated_request_without_a_server_error(case, world):
    world.aim(case)
    case.call_and_validate(headers={"Authorization": f"Token {world.token}"}, checks=CHECKS)
