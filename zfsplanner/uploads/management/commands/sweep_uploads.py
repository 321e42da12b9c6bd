"""``manage.py sweep_uploads``: queue again the uploads nobody is reading, of every kind.

The same sweep Celery beat runs every BENCHMARK_SWEEP_INTERVAL seconds (docs/operations.md)
over benchmark logs, file listings and compression samples: uploads left ``pending`` longer
than BENCHMARK_PENDING_TIMEOUT (their message was lost, e.g. the broker was down at upload)
and uploads held by a worker that died; and the partial files that killed requests left in this
machine's spool folders. Run it from cron, or once by hand after an outage; ``--pending-after 0``
queues every pending upload now. On a web machine that runs no worker (several machines,
docs/operations.md), ``--partial-files`` from cron removes only its own partial files.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from zfsplanner.uploads.handler import sweep_spool_files
from zfsplanner.uploads.lifecycle import sweep_all


class Command(BaseCommand):
    help = (
        "Queue again uploads of every kind left pending, or held by a worker that died; "
        "remove partial files of killed requests."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--pending-after",
            type=float,
            metavar="SECONDS",
            help="queue pending uploads untouched this long (default: BENCHMARK_PENDING_TIMEOUT)",
        )
        parser.add_argument(
            "--parsing-after",
            type=float,
            metavar="SECONDS",
            help="take back uploads claimed this long ago (default: the task time limit + 60 s)",
        )
        parser.add_argument(
            "--partial-files",
            action="store_true",
            help="only remove this machine's partial upload files (older than UPLOAD_TEMP_MAX_AGE)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        def seconds(value: float | None) -> timedelta | None:
            return None if value is None else timedelta(seconds=max(value, 0.001))

        if not options["partial_files"]:
            reports = sweep_all(
                pending_after=seconds(options["pending_after"]), parsing_after=seconds(options["parsing_after"])
            )
            for report in reports:
                self.stdout.write(str(report))
        removed = sweep_spool_files()
        self.stdout.write(f"partial upload files removed: {len(removed)}")
