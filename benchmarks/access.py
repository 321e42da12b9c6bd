"""Who may see and change benchmark runs: the one place access is decided.

Members of a run's team see it; owners and editors change it; everyone else gets a 404,
so an outsider cannot even learn that a run id exists.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest

from .models import BenchRun, BenchUpload


def get_run_for_user(request: HttpRequest, pk: Any) -> tuple[BenchRun, bool]:
    run = (
        BenchRun.objects.for_user(request.user)
        .select_related("upload", "team", "design", "catalog_disk")
        .filter(pk=pk)
        .first()
    )
    if run is None:
        raise Http404("No such benchmark run")
    return run, run.team.can_write(request.user)


def get_upload_for_user(request: HttpRequest, pk: Any) -> tuple[BenchUpload, bool]:
    upload = BenchUpload.objects.for_user(request.user).select_related("team", "run").filter(pk=pk).first()
    if upload is None:
        raise Http404("No such benchmark upload")
    return upload, upload.team.can_write(request.user)


def runs_for_user(request: HttpRequest, ids: list[int]) -> list[BenchRun]:
    """The runs with these ids, in the order given; any id the user cannot see is a 404."""
    found = {
        r.pk: r
        for r in BenchRun.objects.for_user(request.user)
        .select_related("upload")
        .prefetch_related("results", "series")
        .filter(pk__in=ids)
    }
    missing = [i for i in ids if i not in found]
    if missing:
        raise Http404(f"No such benchmark run: {', '.join(map(str, missing))}")
    return [found[i] for i in ids]


def parse_run_ids(values: list[str]) -> list[int]:
    """``["1,2", "3"]`` -> ``[1, 2, 3]`` (order kept, duplicates dropped); ValueError names the bad item."""
    ids: list[int] = []
    for value in values:
        for part in value.split(","):
            part = part.strip()
            if not part:
                continue
            if not part.isdigit():
                raise ValueError(f"runs: {part!r} is not a run id")
            if int(part) not in ids:
                ids.append(int(part))
    return ids
