"""The collector: ``/collect.sh`` (the script, byte for byte as tools/collect.sh), ``/collect.sh.sha256`` (its
digest as ``sha256sum`` prints it) and the "Collect from a server" page.

The page leads the administrator through download, check, read, dry run and run, in that order; the
token is made only when asked for (a button), shown once, and handed to the script through a file or
the environment, never on a command line. The page lists the user's upload tokens (revocable) and what
arrived (pool imports and benchmark runs sent by the user; the list polls itself)."""

from __future__ import annotations

import hashlib
import re
import shlex
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_POST

from benchmarks.models import BenchRun
from zfsplanner.accounts.models import Team
from zfsplanner.accounts.tokens import (
    UPLOAD_TOKEN_LIFETIME,
    TokenError,
    issue_upload_token,
    revoke_token,
    upload_tokens,
)
from zfsplanner.plans.models import PoolDesign
from zfsplanner.web.htmx import htmx_partial

from ..models import PoolImport

SCRIPT_PATH = Path(settings.BASE_DIR) / "tools" / "collect.sh"
SCRIPT_MAX_AGE = 3600
ARRIVED_LIMIT = 10
TOKENS_SHOWN = 20
TOKEN_FILE = "~/.zfsplanner-token"  # noqa: S105  (where the page suggests keeping it)
UNPROCESSABLE = 422


@dataclass(frozen=True)
class Script:
    data: bytes
    sha256: str
    version: str

    @property
    def etag(self) -> str:
        return f'"{self.sha256[:32]}"'

    @property
    def sha256_line(self) -> str:
        """The line ``sha256sum collect.sh`` prints (and ``sha256sum -c`` reads)."""
        return f"{self.sha256}  collect.sh\n"


@lru_cache(maxsize=1)
def script() -> Script:
    """The script's bytes, SHA-256 and version (read once per process)."""
    data = SCRIPT_PATH.read_bytes()
    found = re.search(rb'^COLLECT_VERSION="([^"]+)"', data, re.MULTILINE)
    return Script(data, hashlib.sha256(data).hexdigest(), found.group(1).decode() if found else "")


def _public_text(request: HttpRequest, body: bytes, filename: str) -> HttpResponse:
    """Public (no secret), cacheable, revalidated by the script's ETag."""
    etag = script().etag
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(body, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=SCRIPT_MAX_AGE)
    return response


@require_GET
def collect_script(request: HttpRequest) -> HttpResponse:
    """``/collect.sh``: the script as it is in tools/collect.sh."""
    return _public_text(request, script().data, "collect.sh")


@require_GET
def collect_script_sha256(request: HttpRequest) -> HttpResponse:
    """``/collect.sh.sha256``: ``<hex>  collect.sh``, for ``sha256sum -c``."""
    return _public_text(request, script().sha256_line.encode(), "collect.sh.sha256")


@dataclass(frozen=True)
class Step:
    key: str
    title: str
    command: str


def steps(server: str, design: PoolDesign | None, sha256: str) -> list[Step]:
    """The commands of the page, in the order a careful administrator runs them."""
    q = shlex.quote
    target = f"--server {q(server)}" + (f" --design {design.pk}" if design is not None else "")
    return [
        Step("download", "Download the script", f"curl -fsSO {q(server + '/collect.sh')}"),
        Step("check", "Check it", f"echo {q(sha256 + '  collect.sh')} | sha256sum -c -"),
        Step("read", "Read it", "less collect.sh"),
        Step("dry-run", "See what it runs and what it would send", f"sh collect.sh {target} --dry-run | less"),
        Step("token-file", "Make a token and keep it in a file only you can read",
             f"(umask 077 && cat > {TOKEN_FILE})"),
        Step("run", "Send", f"sh collect.sh {target} --token-file {TOKEN_FILE}"),
    ]


def _arrived(request: HttpRequest, team: Any) -> dict[str, Any]:
    imports = PoolImport.objects.for_user(request.user).select_related("design")[:ARRIVED_LIMIT]
    runs = []
    if team is not None:
        runs = list(BenchRun.objects.for_user(request.user).filter(team=team, upload__uploaded_by=request.user)
                    .select_related("upload", "design")[:ARRIVED_LIMIT])
    return {"imports": imports, "runs": runs}


def _target(request: HttpRequest, data: Any) -> tuple[list[Any], Any, PoolDesign | None]:
    """(the user's writable teams, the team the outputs go to, the design they attach to) from
    ``?design=`` or ``?team=`` (or the same fields of a form); 404 for a design the user cannot see."""
    teams = list(Team.objects.writable_by(request.user).order_by("name"))
    design = None
    design_id = str(data.get("design", "") or "")
    if design_id:
        if not design_id.isdigit():
            raise Http404("No such design.")
        design = PoolDesign.objects.for_user(request.user).select_related("team").filter(pk=int(design_id)).first()
        if design is None:
            raise Http404("No such design.")
        return teams, (design.team if design.team in teams else None), design
    slug = str(data.get("team", "") or "")
    return teams, next((t for t in teams if t.slug == slug), teams[0] if teams else None), None


def _page(request: HttpRequest, data: Any, status: int = 200, **extra: Any) -> HttpResponse:
    teams, team, design = _target(request, data)
    context: dict[str, Any] = {"teams": teams, "team": team, "design": design, **_arrived(request, team)}
    if htmx_partial(request) and request.method == "GET":
        response = render(request, "imports/collect.html#arrived", context)
    else:
        server = request.build_absolute_uri("/").rstrip("/")
        context |= {
            "steps": steps(server, design, script().sha256), "sha256": script().sha256,
            "version": script().version, "server": server, "token_file": TOKEN_FILE,
            "lifetime_hours": int(UPLOAD_TOKEN_LIFETIME.total_seconds() // 3600),
            "tokens": upload_tokens(request.user)[:TOKENS_SHOWN], **extra,
        }
        response = render(request, "imports/collect.html", context, status=status)
    # The page may hold a secret (a new token, shown once): never stored by a browser or a proxy.
    patch_cache_control(response, no_store=True, private=True)
    return response


@login_required
@require_GET
def collect_page(request: HttpRequest) -> HttpResponse:
    """The steps and the tokens; no token is made by showing the page (nor by the polling list)."""
    return _page(request, request.GET)


@login_required
@require_POST
def collect_token_new(request: HttpRequest) -> HttpResponse:
    """Make an upload-only token for the chosen team and show its key, once, in the page's answer."""
    _teams, team, _design = _target(request, request.POST)
    if team is None:
        refused = "You are not an owner or editor of this team, so no token can send to it."
        return _page(request, request.POST, UNPROCESSABLE, token_error=refused)
    try:
        token, key = issue_upload_token(request.user, team, str(request.POST.get("name", "")))
    except TokenError as exc:
        return _page(request, request.POST, UNPROCESSABLE, token_error=exc.message)
    return _page(request, request.POST, new_token=token, new_key=key)


@login_required
@require_POST
def collect_token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke one of the user's upload tokens (another user's is a 404), then back to the page."""
    revoke_token(get_object_or_404(upload_tokens(request.user), pk=pk))
    url = reverse("imports:collect")
    design, team = str(request.POST.get("design", "")), str(request.POST.get("team", ""))
    if design.isdigit():
        url += f"?design={design}"
    elif re.fullmatch(r"[-a-zA-Z0-9_]+", team):
        url += f"?team={team}"
    return redirect(url + "#collect-tokens")
