"""The collector: ``/collect.sh`` (the script, byte for byte as tools/collect.sh) and the "Collect from a
server" page, which shows the one-line command with a fresh upload-only token for one of the user's teams
and lists what arrived (pool imports and benchmark runs sent by the user; the list polls itself)."""

from __future__ import annotations

import hashlib
import re
import shlex
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

from benchmarks.models import BenchRun
from zfsplanner.accounts.tokens import UPLOAD_TOKEN_LIFETIME, issue_upload_token
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import writable_teams

from .models import PoolImport

SCRIPT_PATH = Path(settings.BASE_DIR) / "tools" / "collect.sh"
SCRIPT_MAX_AGE = 3600
ARRIVED_LIMIT = 10


@lru_cache(maxsize=1)
def script() -> tuple[bytes, str, str]:
    """The script's bytes, its ETag and its version line (read once per process)."""
    data = SCRIPT_PATH.read_bytes()
    found = re.search(rb'^COLLECT_VERSION="([^"]+)"', data, re.MULTILINE)
    return data, f'"{hashlib.sha256(data).hexdigest()[:32]}"', found.group(1).decode() if found else ""


@require_GET
def collect_script(request: HttpRequest) -> HttpResponse:
    """``/collect.sh``: public (it holds no secret), cacheable, revalidated by its ETag."""
    data, etag, _version = script()
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(data, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = 'inline; filename="collect.sh"'
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=SCRIPT_MAX_AGE)
    return response


def _arrived(request: HttpRequest, team: Any) -> dict[str, Any]:
    imports = PoolImport.objects.for_user(request.user).select_related("design")[:ARRIVED_LIMIT]
    runs = []
    if team is not None:
        runs = list(BenchRun.objects.for_user(request.user).filter(team=team, upload__uploaded_by=request.user)
                    .select_related("upload", "design")[:ARRIVED_LIMIT])
    return {"imports": imports, "runs": runs}


def command_line(server: str, key: str, design: PoolDesign | None) -> str:
    """The exact one-line command the page shows (``curl … | sh -s -- …``)."""
    args = ["--server", server, "--token", key]
    if design is not None:
        args += ["--design", str(design.pk)]
    quoted = " ".join(shlex.quote(a) for a in args)
    return f"curl -fsS {shlex.quote(server + '/collect.sh')} | sh -s -- {quoted}"


@login_required
@require_GET
def collect_page(request: HttpRequest) -> HttpResponse:
    """A fresh command on every full page load; an htmx request (the polling list) issues no token."""
    teams = list(writable_teams(request.user).order_by("name"))
    design = None
    design_id = request.GET.get("design", "")
    if design_id:
        if not design_id.isdigit():
            raise Http404("No such design.")
        design = PoolDesign.objects.for_user(request.user).select_related("team").filter(pk=int(design_id)).first()
        if design is None:
            raise Http404("No such design.")
    team = None
    if design is not None:
        team = design.team if design.team in teams else None
    else:
        slug = request.GET.get("team", "")
        team = next((t for t in teams if t.slug == slug), teams[0] if teams else None)
    context: dict[str, Any] = {"teams": teams, "team": team, "design": design, **_arrived(request, team)}
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.boosted:
        response = render(request, "imports/collect.html#arrived", context)
    else:
        if team is not None:
            token, key = issue_upload_token(request.user, team)
            server = request.build_absolute_uri("/").rstrip("/")
            context |= {"token": token, "command": command_line(server, key, design),
                        "lifetime_hours": int(UPLOAD_TOKEN_LIFETIME.total_seconds() // 3600),
                        "version": script()[2], "server": server}
        response = render(request, "imports/collect.html", context)
    # The page holds a secret: never stored by a browser or a proxy.
    patch_cache_control(response, no_store=True, private=True)
    return response
