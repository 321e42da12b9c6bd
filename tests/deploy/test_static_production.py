"""The production image's static files: ``collectstatic`` with DEBUG off, then every main page
rendered through WhiteNoise's manifest storage (a missing file or a reference to one is a 500).

``collectstatic`` runs in a subprocess with the same environment the Dockerfile gives it
(DEBUG=false, a build-only SECRET_KEY), into a temporary STATIC_ROOT.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings

from tests.factories import BenchResultFactory, PoolDesignFactory, UserFactory
from zfsplanner.plans.services import create_share_link

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
ASSET_RE = re.compile(r'(?:src|href)="(/static/[^"]+)"')


def dockerfile_collectstatic_env() -> dict[str, str]:
    """The variables the Dockerfile's collectstatic step sets, read from the Dockerfile itself."""
    line = next(
        line for line in (ROOT / "Dockerfile").read_text().splitlines() if "collectstatic" in line
    )
    return dict(re.findall(r"\b([A-Z_]+)=(\S+)", line.split("python", 1)[0]))


@pytest.fixture(scope="module")
def static_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("staticfiles")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env.update(dockerfile_collectstatic_env())
    env["STATIC_ROOT"] = str(root)
    assert env["DEBUG"] == "false"
    r = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return root


def test_collectstatic_with_debug_off_writes_a_manifest_of_every_vendored_file(static_root):
    manifest = json.loads((static_root / "staticfiles.json").read_text())["paths"]
    ours = ROOT / "zfsplanner" / "static"
    names = [p.relative_to(ours).as_posix() for p in ours.rglob("*") if p.is_file()]
    assert "vendor/chart.umd.js" in names
    for name in names:
        assert name in manifest and (static_root / manifest[name]).is_file(), name


def test_vendored_scripts_name_no_source_map_that_is_not_shipped():
    for path in (ROOT / "zfsplanner" / "static" / "vendor").iterdir():
        text = path.read_text(encoding="utf-8")
        for ref in re.findall(r"sourceMappingURL=(\S+)", text):
            assert (path.parent / ref).exists(), f"{path.name} names a source map {ref} that is not shipped"


@pytest.fixture
def production(static_root, settings):
    middleware = [m for m in settings.MIDDLEWARE if "whitenoise" not in m]
    middleware.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    with override_settings(
        DEBUG=False, STATIC_ROOT=static_root, STORAGES=PRODUCTION_STORAGES, MIDDLEWARE=middleware
    ):
        yield


@pytest.mark.django_db
def test_every_main_page_renders_with_debug_off_and_its_assets_are_served(production, team, alice):
    design = PoolDesignFactory(team=team, name="tank")
    link = create_share_link(design, alice)
    run = BenchResultFactory(run__upload__team=team).run
    staff = UserFactory(username="root", is_staff=True, is_superuser=True)
    member = Client(raise_request_exception=True)
    member.force_login(alice)
    admin = Client(raise_request_exception=True)
    admin.force_login(staff)
    anonymous = Client(raise_request_exception=True)
    pages = [
        (anonymous, "/accounts/login/"),
        (anonymous, "/accounts/signup/"),
        (anonymous, "/accounts/password/reset/"),
        (anonymous, f"/share/{link.token}/"),
        (member, "/"),
        (member, "/designs/new/"),
        (member, "/designs/import/"),
        (member, f"/designs/{design.pk}/"),
        (member, "/benchmarks/"),
        (member, f"/benchmarks/{run.pk}/"),
        (member, f"/benchmarks/compare/?runs={run.pk}"),
        (member, "/teams/"),
        (member, "/teams/alpha/"),
        (member, "/accounts/profile/"),
        (member, "/accounts/password/change/"),
        (member, "/accounts/email/"),
        (member, "/api/docs/"),
        (admin, "/admin/"),
    ]
    assets: set[str] = set()
    for client, url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assets.update(ASSET_RE.findall(response.content.decode()))
    assert any("/static/vendor/chart.umd." in a for a in assets)
    page = anonymous.get("/accounts/login/")
    for asset in sorted(assets):
        # Hashed names (app.3f2a….css): the manifest resolved each reference.
        assert re.search(r"\.[0-9a-f]{12}\.", asset), asset
        response = anonymous.get(asset)
        assert response.status_code == 200, asset
        assert "immutable" in response.get("Cache-Control", ""), asset
        for name in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Permissions-Policy"):
            assert response.get(name) and response[name] == page[name], (asset, name)
