"""A stored design's estimate and commands, each computed once per revision and cached.

* ``estimate_design(design)``: the core's estimate (catalog figures and the team's measured
  ones), cached per revision and planning stamp; ``estimate_or_error`` gives the reason instead
  of raising when the stored design no longer parses.
* ``design_commands(design)``: the ``zpool create``/``zfs create`` commands, cached per revision;
  ``page_commands(design)`` the same as the pages show them (one top-level vdev per line).
* ``planning_stamp()`` / ``planning_figures_changed()``: the stamp in every cached estimate's
  key, changed when catalog, benchmark or imported-pool figures change.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.core.cache import cache

from zfsplanner.core.commands.create import (
    all_commands,
    command_lines,
    zpool_add_commands,
    zpool_attach_commands,
    zpool_create_command,
)
from zfsplanner.core.commands.datasets import zfs_create_commands
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.estimate import Estimate, estimate
from zfsplanner.web.errors import CACHE_ERRORS

from ..models import PoolDesign
from .disk_inputs import design_inputs
from .editing import error_texts

ESTIMATE_CACHE_SECONDS = 3600
PLANNING_STAMP_KEY = "planning-inputs-stamp"


def planning_stamp() -> str:
    """Changes whenever a catalog disk or a benchmark run changes (``planning_figures_changed``).

    Part of every cached estimate's key: figures that come from the catalog or from the
    team's disk benchmarks (reliability, performance) follow them without the cache having
    to look them up on every request.
    """
    stamp = cache.get(PLANNING_STAMP_KEY)
    if stamp is None:
        stamp = secrets.token_hex(8)
        cache.add(PLANNING_STAMP_KEY, stamp, timeout=None)
        stamp = cache.get(PLANNING_STAMP_KEY, stamp)
    return str(stamp)


def planning_figures_changed(**_: Any) -> None:
    """Catalog, benchmark or imported-pool figures changed, so cached estimates and pages are made anew.

    Called directly, or connected as a receiver of the models' ``post_save``/``post_delete``.

    With the cache unreachable the save goes on (an upload must be stored while Redis restarts):
    a benchmark's figures arrive when its parse saves them, which bumps the stamp again."""
    try:
        cache.set(PLANNING_STAMP_KEY, secrets.token_hex(8), timeout=None)
    except CACHE_ERRORS as exc:
        logging.getLogger(__name__).warning("planning stamp not bumped, the cache is unavailable: %s", exc)


def estimate_design(design: PoolDesign) -> Estimate:
    """The typed estimate of a stored design, computed once per revision.

    The cache holds the typed :class:`Estimate` itself (pickled by the cache backend), so a page
    reads its attributes without parsing anything; the API's JSON is cached apart, as bytes
    (``api.views.cached_json``), written by ``Estimate.to_document()``.

    Cached under the design's id, revision and last-saved time (a revision number alone
    could repeat after a design is deleted and its id reused) and the planning stamp (catalog
    and benchmark figures); a cache hit costs one lookup and no query. ``InvalidDesign`` is
    not cached.
    """
    key = f"estimate-typed:{revision_key(design)}:{planning_stamp()}"
    cached = cache.get(key)
    if cached is None:
        spec = design.to_spec()
        cached = estimate(spec, design_inputs(design, spec))
        cache.set(key, cached, timeout=ESTIMATE_CACHE_SECONDS)
    return cached


def estimate_or_error(design: PoolDesign) -> tuple[Estimate | None, str | None]:
    """The estimate, or the reason there is none (a stored design the core now rejects)."""
    try:
        return estimate_design(design), None
    except InvalidDesign as exc:
        return None, "; ".join(error_texts(design.to_document(), exc.errors))


# --------------------------------------------------------------------------- commands


def design_commands(design: PoolDesign) -> dict[str, Any]:
    """The shell commands that build the design, in the order to run them (``InvalidDesign`` if it no longer parses).

    Cached per revision, like the estimate.
    """
    key = f"commands:{revision_key(design)}"
    cached = cache.get(key)
    if cached is None:
        spec = design.to_spec()
        cached = {
            "commands": all_commands(spec),
            "zpool_create": zpool_create_command(spec),
            "zpool_add": zpool_add_commands(spec),
            "zpool_attach": zpool_attach_commands(spec),
            "zfs_create": zfs_create_commands(spec),
        }
        cache.set(key, cached, timeout=ESTIMATE_CACHE_SECONDS)
    return cached


def revision_key(design: PoolDesign) -> str:
    """The design's id, revision and last-saved time (a revision number alone could repeat after
    a design is deleted and its id reused)."""
    return f"{design.pk}:{design.revision}:{design.updated.timestamp() if design.updated else 0}"


def page_commands(design: PoolDesign) -> dict[str, Any]:
    """The commands as the pages show and copy them: ``zpool create``/``zpool add`` one top-level vdev
    per line, continued with `` \\`` (``InvalidDesign`` if the design no longer parses). Cached per revision."""
    key = f"page-commands:{revision_key(design)}"
    cached = cache.get(key)
    if cached is None:
        commands = all_commands(design.to_spec(), wrapped=True)
        cached = {"commands": commands, "lines": command_lines(commands)}
        cache.set(key, cached, timeout=ESTIMATE_CACHE_SECONDS)
    return cached


def commands_or_none(design: PoolDesign) -> dict[str, Any] | None:
    """The page's commands (:func:`page_commands`), None for a design that no longer parses."""
    try:
        return page_commands(design)
    except InvalidDesign:
        return None


def commands_script(commands: dict[str, Any]) -> str:
    """The commands as a ``sh`` script; device paths are placeholders to replace first."""
    lines = [
        "#!/bin/sh",
        "# Generated by zfsplanner. The device paths are placeholders: replace each",
        "# /dev/disk/by-id/<model>-<n> with the by-id link of a real disk before running.",
        "set -e",
        *commands["commands"],
    ]
    return "\n".join(lines) + "\n"


