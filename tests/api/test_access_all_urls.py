"""Every URL of the site × every kind of visitor, read from the URL configuration.

A URL added to the configuration without an entry here (or, for the accounts area and the
allauth pages, in ``tests/accounts/test_access.py``) fails ``test_every_url_has_an_entry``.

Visitors: anonymous; a share-link visitor (anonymous, holding a valid share token);
charlie, owner of another team (outsider); bob, viewer; erin, editor; alice, owner of team
"alpha"; a request with alice's upload-only token for "alpha" (the collect command's: it reaches
the two upload endpoints and nothing else; pages ignore tokens). What each gets is a class of
answers, checked on fresh data per cell:

* ``ok``: the request reached the view and was served or validated (2xx, 3xx other than the
  log-in page, 400, 409, 422);
* ``login``: a page sends the visitor to the log-in page;
* ``auth``: the API refuses an unauthenticated request (401/403);
* ``denied``: 403 for someone in the team without the right role;
* ``hidden``: 404 for someone outside the team: the object's existence is not revealed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from tests.accounts.test_access import ACCESS as ACCOUNTS_ACCESS
from tests.accounts.test_access import accounts_url_names
from tests.core.import_samples import text
from tests.factories import BenchResultFactory, PoolDesignFactory, design_document
from zfsplanner.accounts.tokens import UPLOAD_ONLY_ROUTES, issue_upload_token
from zfsplanner.plans.services import create_share_link

pytestmark = pytest.mark.django_db

VISITORS = ("anonymous", "share", "outsider", "viewer", "editor", "owner", "upload")
OK_STATUSES = {200, 201, 202, 204, 286, 301, 302, 303, 400, 409, 422}  # 286: htmx "stop polling"


@dataclass(frozen=True)
class Cell:
    method: str
    path: str  # {design}, {token}, {run}, {upload}, {sample}, {import_}, {histogram}, {link}, {upload_token}
    expect: dict[str, str]  # visitor -> class; "*" for every visitor not named
    data: dict[str, Any] = field(default_factory=dict)
    api: bool = False
    fmt: str = "json"

    def klass(self, visitor: str) -> str:
        if visitor == "upload" and visitor not in self.expect:
            # refused by every API view but the uploads; a page sees an anonymous visitor
            return "auth" if self.api else self.klass("anonymous")
        return self.expect.get(visitor, self.expect.get("*", ""))


# Presets: who may do what.
PUBLIC = {"*": "ok"}
SHARED = {"*": "ok"}  # the token is the credential; a wrong token is a 404 (tests/plans/test_share_links.py)
PAGE_LIST = {"anonymous": "login", "share": "login", "*": "ok"}
PAGE_READ = {"anonymous": "login", "share": "login", "outsider": "hidden", "*": "ok"}
PAGE_WRITE = {**PAGE_READ, "viewer": "denied"}
PAGE_OWN = {"anonymous": "login", "share": "login", "owner": "ok", "*": "hidden"}  # private to alice
API_LIST = {"anonymous": "auth", "share": "auth", "*": "ok"}
API_READ = {"anonymous": "auth", "share": "auth", "outsider": "hidden", "*": "ok"}
API_WRITE = {**API_READ, "viewer": "denied"}
API_OWN = {"anonymous": "auth", "share": "auth", "owner": "ok", "*": "hidden"}
RUNS_PAGE = {"anonymous": "login", "share": "login", "outsider": "hidden", "*": "ok"}  # runs named in the query
STAFF_WRITE = {"anonymous": "auth", "share": "auth", "*": "denied"}  # the catalog: staff only

DESIGN = "/designs/{design}/"
QUICK = "?layout=raidz2&disks=6&vdevs=1&size=16TB"
API_DESIGN = "/api/designs/{design}/"

ACCESS: dict[str, list[Cell]] = {
    # --- site
    ":healthz": [Cell("get", "/healthz", PUBLIC)],
    ":schema": [Cell("get", "/api/schema/", {**PUBLIC, "upload": "auth"})],  # the token is for uploads only
    ":api-docs": [Cell("get", "/api/docs/", {**PUBLIC, "upload": "auth"})],
    # --- designs: pages
    "plans:home": [Cell("get", "/", PUBLIC)],  # the quick planner for visitors, the designs list for members
    "plans:quick-plan": [Cell("get", "/plan/" + QUICK, PUBLIC)],
    "plans:design-list": [Cell("get", "/designs/", PUBLIC)],  # a redirect to / (the list, or the planner)
    "plans:glossary": [Cell("get", "/glossary/", PUBLIC)],
    "plans:quick-plan-chart": [Cell("get", "/plan/chart/" + QUICK, PUBLIC)],
    "plans:quick-plan-json": [Cell("get", "/plan/design.json" + QUICK, PUBLIC)],
    "plans:quick-plan-save": [Cell("get", "/plan/save/" + QUICK, PAGE_LIST)],  # saving needs an account
    "plans:design-new": [Cell("get", "/designs/new/", PAGE_LIST)],
    "plans:design-import": [Cell("get", "/designs/import/", PAGE_LIST)],
    "plans:design-compare": [Cell("get", "/designs/compare/?ids={design}", PAGE_LIST)],
    "plans:chart-compare": [Cell("get", "/designs/compare/chart/?ids={design}", RUNS_PAGE)],
    "plans:catalog-options": [Cell("get", "/designs/catalog-options/?media=hdd", PAGE_LIST)],
    "plans:design-detail": [Cell("get", DESIGN, PAGE_READ)],
    "plans:designer": [Cell("get", DESIGN + "designer/", PAGE_READ)],  # viewers are sent to the summary
    "plans:designer-form": [Cell("get", DESIGN + "designer/form/?section=vdevs&index=0", PAGE_WRITE)],
    "plans:designer-pool": [
        Cell("post", DESIGN + "designer/pool/", PAGE_WRITE, {"name": "tank", "openzfs_version": "2.3"})
    ],
    "plans:designer-host": [
        Cell("get", DESIGN + "designer/host/", PAGE_WRITE),
        Cell("post", DESIGN + "designer/host/", PAGE_WRITE, {"host-replacement_hours": "48"}),
    ],
    "plans:designer-vdev": [Cell("post", DESIGN + "designer/vdev/", PAGE_WRITE, {"index": "new"})],
    "plans:designer-dataset": [Cell("post", DESIGN + "designer/dataset/", PAGE_WRITE, {"index": "new"})],
    "plans:designer-op": [
        Cell("post", DESIGN + "designer/row/", PAGE_WRITE, {"op": "duplicate", "section": "datasets", "index": "0"})
    ],
    "plans:design-fix": [Cell("post", DESIGN + "fix/", PAGE_WRITE, {"code": "wide-raidz", "subject": "vdevs[0]"})],
    "plans:design-undo": [Cell("post", DESIGN + "undo/", PAGE_WRITE)],
    "plans:design-redo": [Cell("post", DESIGN + "redo/", PAGE_WRITE)],
    "plans:design-duplicate": [Cell("post", DESIGN + "duplicate/", PAGE_WRITE)],
    "plans:design-edit": [Cell("post", DESIGN + "edit/", PAGE_WRITE, {"document": "{{}}"})],
    "plans:design-delete": [Cell("get", DESIGN + "delete/", PAGE_WRITE)],
    "plans:design-export": [Cell("get", DESIGN + "export/", PAGE_READ)],
    "plans:design-report": [Cell("get", DESIGN + "report/", PAGE_READ)],
    "plans:chart-breakdown": [Cell("get", DESIGN + "charts/breakdown/", PAGE_READ)],
    "plans:chart-capacity": [Cell("get", DESIGN + "charts/capacity/", PAGE_READ)],
    "plans:chart-efficiency": [Cell("get", DESIGN + "charts/efficiency/", PAGE_READ)],
    "plans:chart-timeline": [Cell("get", DESIGN + "charts/timeline/", PAGE_READ)],
    "plans:design-growth-choose": [Cell("post", DESIGN + "growth/0/", PAGE_WRITE)],
    "plans:chart-special": [Cell("get", DESIGN + "charts/special/0/", PAGE_READ)],
    "plans:chart-measured": [Cell("get", DESIGN + "charts/measured/", PAGE_READ)],
    "plans:design-measure": [Cell("post", DESIGN + "measure/", PAGE_READ, {"dataset": "tank/data"})],
    "plans:design-use-ratio": [Cell("post", DESIGN + "use-ratio/", PAGE_WRITE, {"dataset": "tank/data"})],
    "plans:share-link-create": [Cell("post", DESIGN + "share-links/", PAGE_WRITE)],
    "plans:share-link-revoke": [Cell("post", DESIGN + "share-links/{link}/revoke/", PAGE_WRITE)],
    "plans:advisor": [Cell("get", "/advisor/", PAGE_LIST)],
    "plans:advisor-create": [Cell("post", "/advisor/create/", PAGE_LIST)],
    # --- share links: anyone with the token, read-only
    "plans:share-detail": [Cell("get", "/share/{token}/", SHARED)],
    "plans:share-export": [Cell("get", "/share/{token}/export/", SHARED)],
    "plans:share-report": [Cell("get", "/share/{token}/report/", SHARED)],
    "plans:share-report-md": [Cell("get", "/share/{token}/report.md", SHARED)],
    "plans:share-estimate-csv": [Cell("get", "/share/{token}/estimate.csv", SHARED)],
    "plans:share-chart-capacity": [Cell("get", "/share/{token}/charts/capacity/", SHARED)],
    "plans:share-chart-special": [Cell("get", "/share/{token}/charts/special/0/", SHARED)],
    "plans:share-chart-measured": [Cell("get", "/share/{token}/charts/measured/", SHARED)],
    "plans:share-chart-efficiency": [Cell("get", "/share/{token}/charts/efficiency/", SHARED)],
    "plans:share-chart-breakdown": [Cell("get", "/share/{token}/charts/breakdown/", SHARED)],
    # --- designs: API
    "plans-api:estimate": [Cell("post", "/api/estimate/", API_LIST, {"name": "x"}, api=True)],
    "plans-api:advisor": [Cell("post", "/api/advisor/", API_LIST, {}, api=True)],
    "plans-api:disk-list": [Cell("get", "/api/disks/", API_LIST, api=True)],
    "plans-api:disk-detail": [
        Cell("get", "/api/disks/{disk}/", API_LIST, api=True),
        Cell("patch", "/api/disks/{disk}/", STAFF_WRITE, {"price": "10"}, api=True),
    ],
    "plans-api:design-list": [Cell("get", "/api/designs/", API_LIST, api=True)],
    "plans-api:design-import-design": [Cell("post", "/api/designs/import/", API_LIST, {}, api=True)],
    "plans-api:design-detail": [
        Cell("get", API_DESIGN, API_READ, api=True),
        Cell("delete", API_DESIGN, API_WRITE, api=True),
    ],
    "plans-api:design-commands": [Cell("get", API_DESIGN + "commands/", API_READ, api=True)],
    "plans-api:design-estimate": [Cell("get", API_DESIGN + "estimate/", API_READ, api=True)],
    "plans-api:design-export": [Cell("get", API_DESIGN + "export/", API_READ, api=True)],
    "plans-api:design-revisions": [Cell("get", API_DESIGN + "revisions/", API_READ, api=True)],
    "plans-api:design-fixes": [Cell("get", API_DESIGN + "fixes/", API_READ, api=True)],
    "plans-api:design-apply-fix": [
        Cell("post", API_DESIGN + "fixes/apply/", API_WRITE, {"code": "wide-raidz", "subject": "vdevs[0]"}, api=True)
    ],
    "plans-api:design-undo": [Cell("post", API_DESIGN + "undo/", API_WRITE, {}, api=True)],
    "plans-api:design-redo": [Cell("post", API_DESIGN + "redo/", API_WRITE, {}, api=True)],
    "plans-api:design-duplicate": [Cell("post", API_DESIGN + "duplicate/", API_WRITE, {}, api=True)],
    "plans-api:design-share-links": [
        Cell("get", API_DESIGN + "share-links/", API_READ, api=True),
        Cell("post", API_DESIGN + "share-links/", API_WRITE, {}, api=True),
    ],
    "plans-api:design-share-link": [Cell("delete", API_DESIGN + "share-links/{link}/", API_WRITE, api=True)],
    "plans-api:design-measured": [Cell("get", "/api/designs/{design}/measured/", API_READ, api=True)],
    "plans-api:design-report-md": [Cell("get", "/api/designs/{design}/report.md", API_READ, api=True)],
    "plans-api:design-estimate-csv": [Cell("get", "/api/designs/{design}/estimate.csv", API_READ, api=True)],
    "plans-api:design-report": [Cell("get", "/api/designs/{design}/report/", API_READ, api=True)],
    # --- benchmarks
    "benchmarks:run-list": [Cell("get", "/benchmarks/", PAGE_LIST)],
    # Uploading needs a team one can write to: bob is only a viewer anywhere; charlie has his own team.
    "benchmarks:upload": [Cell("post", "/benchmarks/upload/", {**PAGE_LIST, "viewer": "denied"})],
    "benchmarks:compare": [Cell("get", "/benchmarks/compare/?runs={run}", RUNS_PAGE)],
    "benchmarks:upload-status": [Cell("get", "/benchmarks/uploads/{upload}/status/", PAGE_READ)],
    "benchmarks:upload-retry": [Cell("post", "/benchmarks/uploads/{upload}/retry/", PAGE_WRITE)],
    "benchmarks:upload-download": [Cell("get", "/benchmarks/uploads/{upload}/download/", PAGE_READ)],
    "benchmarks:run-detail": [Cell("get", "/benchmarks/{run}/", PAGE_READ)],
    "benchmarks:run-edit": [Cell("get", "/benchmarks/{run}/edit/", PAGE_WRITE)],
    "benchmarks:run-delete": [Cell("get", "/benchmarks/{run}/delete/", PAGE_WRITE)],
    "benchmarks:run-validity-check": [
        Cell("post", "/benchmarks/{run}/validity-check/", PAGE_WRITE, {"reason": "checked by hand"})
    ],
    "benchmarks-api:chart": [Cell("get", "/api/benchmarks/charts/?runs={run}", API_READ, api=True)],
    "benchmarks-api:chart-csv": [Cell("get", "/api/benchmarks/charts.csv?runs={run}", API_READ, api=True)],
    "benchmarks-api:series-compare": [Cell("get", "/api/benchmarks/series/?runs={run}", API_READ, api=True)],
    "benchmarks-api:series-compare-csv": [Cell("get", "/api/benchmarks/series.csv?runs={run}", API_READ, api=True)],
    "benchmarks-api:run-list": [Cell("get", "/api/benchmarks/", API_LIST, api=True)],
    "benchmarks-api:run-detail": [
        Cell("get", "/api/benchmarks/{run}/", API_READ, api=True),
        Cell("delete", "/api/benchmarks/{run}/", API_WRITE, api=True),
    ],
    "benchmarks-api:run-series": [Cell("get", "/api/benchmarks/{run}/series/", API_READ, api=True)],
    "benchmarks-api:run-validity-check": [
        Cell("post", "/api/benchmarks/{run}/validity-check/", API_WRITE, {"reason": "checked by hand"}, api=True),
        Cell("delete", "/api/benchmarks/{run}/validity-check/", API_WRITE, api=True),
    ],
    "benchmarks-api:run-series-csv": [Cell("get", "/api/benchmarks/{run}/series.csv", API_READ, api=True)],
    "benchmarks-api:upload-list": [
        Cell("get", "/api/benchmark-uploads/", API_LIST, api=True),
        Cell("post", "/api/benchmark-uploads/", {**API_LIST, "upload": "ok"}, {}, api=True, fmt="multipart"),
    ],
    "benchmarks-api:upload-detail": [Cell("get", "/api/benchmark-uploads/{upload}/", API_READ, api=True)],
    "benchmarks-api:upload-retry": [Cell("post", "/api/benchmark-uploads/{upload}/retry/", API_WRITE, {}, api=True)],
    # --- compression samples: private to who uploaded them
    "compression:sample-list": [Cell("get", "/compression/", PAGE_LIST)],
    "compression:sample-detail": [Cell("get", "/compression/samples/{sample}/", PAGE_OWN)],
    "compression:sample-delete": [Cell("post", "/compression/samples/{sample}/delete/", PAGE_OWN)],
    "compression-api:measure": [Cell("post", "/api/compression/measure/", API_LIST, {}, api=True, fmt="multipart")],
    "compression-api:sample-list": [Cell("get", "/api/compression/samples/", API_LIST, api=True)],
    "compression-api:sample-detail": [Cell("get", "/api/compression/samples/{sample}/", API_OWN, api=True)],
    # --- imports: a pool preview is its maker's; file histograms belong to the design's team
    "imports:pool-import-new": [Cell("get", "/imports/pool/", PAGE_LIST)],
    "imports:collect-script": [Cell("get", "/collect.sh", PUBLIC)],
    "imports:collect-script-sha256": [Cell("get", "/collect.sh.sha256", PUBLIC)],
    "imports:collect": [Cell("get", "/imports/collect/", PAGE_LIST)],
    # a viewer or an outsider is told no token can be made (422)
    "imports:collect-token-new": [Cell("post", "/imports/collect/tokens/", PAGE_LIST)],
    "imports:collect-token-revoke": [Cell("post", "/imports/collect/tokens/{upload_token}/revoke/", PAGE_OWN)],
    "imports:pool-import-detail": [Cell("get", "/imports/pool/{import_}/", PAGE_OWN)],
    "imports:pool-import-save": [Cell("post", "/imports/pool/{import_}/save/", PAGE_OWN)],
    "imports:pool-import-answer": [Cell("post", "/imports/pool/{import_}/sizes/", PAGE_OWN)],
    "imports:pool-import-retry": [Cell("post", "/imports/pool/{import_}/retry/", PAGE_OWN)],
    "imports:histogram-list": [Cell("get", DESIGN + "histograms/", PAGE_READ)],
    "imports:histogram-upload": [Cell("post", DESIGN + "histograms/upload/", PAGE_WRITE)],
    "imports:histogram-status": [Cell("get", "/histograms/{histogram}/status/", PAGE_READ)],
    "imports:histogram-retry": [Cell("post", "/histograms/{histogram}/retry/", PAGE_WRITE)],
    "imports-api:pool-import-list": [
        Cell("get", "/api/pool-imports/", API_LIST, api=True),
        Cell("post", "/api/pool-imports/", {**API_LIST, "upload": "ok"}, {}, api=True),
    ],
    "imports-api:pool-import-detail": [Cell("get", "/api/pool-imports/{import_}/", API_OWN, api=True)],
    "imports-api:pool-import-save": [Cell("post", "/api/pool-imports/{import_}/save/", API_OWN, {}, api=True)],
    "imports-api:pool-import-sizes": [Cell("post", "/api/pool-imports/{import_}/sizes/", API_OWN, {}, api=True)],
    "imports-api:pool-import-retry": [Cell("post", "/api/pool-imports/{import_}/retry/", API_OWN, api=True)],
    "imports-api:histogram-upload-list": [Cell("get", "/api/histogram-uploads/", API_LIST, api=True)],
    "imports-api:histogram-upload-detail": [Cell("get", "/api/histogram-uploads/{histogram}/", API_READ, api=True)],
    "imports-api:histogram-upload-retry": [
        Cell("post", "/api/histogram-uploads/{histogram}/retry/", API_WRITE, {}, api=True)
    ],
}


def _walk(patterns, namespace=None):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, p.namespace or namespace)
        elif isinstance(p, URLPattern):
            yield namespace, p


def site_url_names() -> set[str]:
    """Every named URL outside the admin, the accounts area and allauth (tested in tests/accounts)."""
    names = set()
    for namespace, pattern in _walk(get_resolver().url_patterns):
        if namespace in ("admin", "accounts", "accounts-api") or pattern.callback.__module__.startswith(
            ("allauth.", "zfsplanner.accounts.")
        ):
            continue
        if pattern.name is None and str(pattern.pattern).startswith("social/"):
            continue  # allauth's old addresses of the identity-provider pages: redirects to /accounts/3rdparty/
        names.add(f"{namespace or ''}:{pattern.name}")
    return names


def test_every_url_has_an_entry():
    assert site_url_names() == set(ACCESS)
    assert accounts_url_names() == set(ACCOUNTS_ACCESS)  # the rest of the site, in tests/accounts


@pytest.fixture
def world(team, alice, erin, bob, charlie, settings, tmp_path):
    """Alpha's objects, each reachable by id: a design (with a share link), a benchmark run, a file
    histogram; alice's private compression sample and pool-import preview."""
    from zfsplanner.compression.services import parse_options, store_sample
    from zfsplanner.imports.services import create_pool_import, store_histogram
    from zfsplanner.plans.models import CatalogDisk

    settings.MEDIA_ROOT = tmp_path / "media"
    growth = {"per_year": 0.3, "horizon_years": 5, "fill_limit": 0.8}  # the Growth section's URLs answer
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank", growth=growth))
    link = create_share_link(design, alice)
    run = BenchResultFactory(run__upload__team=team, run__upload__status="done").run
    sample = store_sample(alice, SimpleUploadedFile("s.log", b"hello zfs " * 1000), parse_options())
    import_ = create_pool_import(alice, [("status", text("linux-2.3-raidz2-special-log-cache-spare.txt"))])
    listing = SimpleUploadedFile("sizes.txt", b"4096\n131072\n")
    histogram = store_histogram(design=design, dataset="tank/data", user=alice, file=listing, name="sizes.txt")
    return {
        "design": design.pk,
        "token": link.token,
        "link": link.pk,
        "run": run.pk,
        "upload": run.upload_id,
        "sample": sample.pk,
        "import_": import_.pk,
        "histogram": histogram.pk,
        "disk": CatalogDisk.objects.first().pk,
        "upload_key": issue_upload_token(alice, team)[1],
        "upload_token": issue_upload_token(alice, team)[0].pk,
    }


CELLS = [
    pytest.param(name, i, visitor, id=f"{name}-{ACCESS[name][i].method}-{visitor}")
    for name in ACCESS
    for i in range(len(ACCESS[name]))
    for visitor in VISITORS
]


@pytest.mark.parametrize(("name", "index", "visitor"), CELLS)
def test_access(name, index, visitor, world, alice, erin, bob, charlie):
    cell = ACCESS[name][index]
    user = {"outsider": charlie, "viewer": bob, "editor": erin, "owner": alice}.get(visitor)
    path = cell.path.format(**world)
    data = {k: str(v).format(**world) for k, v in cell.data.items()}
    client = APIClient() if cell.api else Client()
    if user is not None:
        client.force_login(user)
    if visitor == "upload":
        client.defaults["HTTP_AUTHORIZATION"] = f"Token {world['upload_key']}"
    kwargs = {"format": cell.fmt} if cell.api else {}
    response = getattr(client, cell.method)(path, data, **kwargs)
    assert _klass(response) == cell.klass(visitor), (cell.method, path, visitor, response.status_code)


def _klass(response) -> str:
    status = response.status_code
    location = response.get("Location", "")
    if status == 302 and "/accounts/login/" in location:
        return "login"
    if status in (401, 403):
        return "auth" if response.wsgi_request.user.is_anonymous else "denied"
    if status == 404:
        return "hidden"
    return "ok" if status in OK_STATUSES else f"status {status}"


def api_routes() -> list[tuple[str, str]]:
    """``(URL name, path)`` of every API route of the site, the accounts API included, ids filled with 1."""

    def walk(patterns, prefix="", namespace=None):
        for p in patterns:
            route = prefix + str(p.pattern).removeprefix("^").removesuffix("$")
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, route, p.namespace or namespace)
            else:
                yield namespace, p, route

    out = []
    for namespace, pattern, route in walk(get_resolver().url_patterns):
        if not route.startswith("api/") or "(?P<format>" in route:
            continue  # not the API, or a format-suffix route (the same view as its plain form)
        view = getattr(pattern.callback, "cls", None)
        if view is not None and not view.authentication_classes:
            continue  # reads no token at all (the log-in endpoint: user name and password)
        path = "/" + re.sub(r"\(\?P<\w+>[^)]*\)|<(?:\w+:)?\w+>", "1", route)
        out.append((f"{namespace or ''}:{pattern.name}", path))
    return out


@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete"])
def test_an_upload_only_token_reaches_the_uploads_and_nothing_else(method, alice, team):
    """Every API URL × every method: an upload-only token is refused (403) before any view looks at the
    request, but for POST to the two upload endpoints (where an empty body is a 400 naming the field)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_upload_token(alice, team)[1]}")
    routes = api_routes()
    assert {"accounts-api:team-list", "plans-api:design-list", "imports-api:pool-import-list"} <= {n for n, _ in routes}
    for name, path in routes:
        response = getattr(client, method)(path, {}, format="json")
        allowed = (name, method.upper()) in UPLOAD_ONLY_ROUTES
        if allowed:
            assert response.status_code == 400, (name, path, response.status_code)
        else:
            assert response.status_code == 403, (name, method, path, response.status_code)
            assert "upload-only" in str(response.data["detail"]), (name, path)
