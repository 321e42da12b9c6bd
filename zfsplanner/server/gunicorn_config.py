"""gunicorn's hooks for zfsplanner (``gunicorn -c python:zfsplanner.server.gunicorn_config``).

A worker that gunicorn aborts (past ``--timeout``: SIGABRT) or quits at once (SIGINT, SIGQUIT)
leaves its request without Django finishing it, so the request's partial upload file would stay
until the sweep; these hooks remove it as the worker goes. (A worker killed with SIGKILL runs no
hook: the sweep removes what it leaves, ``UPLOAD_TEMP_MAX_AGE``.)
"""

from __future__ import annotations

from typing import Any


def _discard_partial_uploads() -> None:
    from zfsplanner.uploads.handler import discard_unfinished

    discard_unfinished()


def worker_abort(_worker: Any) -> None:
    _discard_partial_uploads()


def worker_int(_worker: Any) -> None:
    _discard_partial_uploads()
