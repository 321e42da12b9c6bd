"""``manage.py reparse_benchmarks``: parse stored benchmark uploads again, e.g. after a parser upgrade.

Every upload is kept byte for byte, so an upload that failed (or was read only in part) with
an older parser can be read again: ``reparse_benchmarks`` queues the failed ones,
``--status partial``/``done``/``all`` others too, ``--team SLUG`` limits it to one team and
``--dry-run`` only counts. The same as the "Re-parse" admin action.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from benchmarks.models import BenchUpload, UploadStatus
from benchmarks.services import reparse_uploads

CHOICES = ("failed", "partial", "done", "all")


class Command(BaseCommand):
    help = "Queue stored benchmark uploads for parsing again (default: the failed ones)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--status", choices=CHOICES, default="failed", help="which uploads (default: failed)")
        parser.add_argument("--team", metavar="SLUG", help="only this team's uploads")
        parser.add_argument("--dry-run", action="store_true", help="count them, queue nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        uploads = BenchUpload.objects.all()
        status = options["status"]
        if status != "all":
            uploads = uploads.filter(status=UploadStatus(status))
        else:
            uploads = uploads.filter(status__in=[UploadStatus.FAILED, UploadStatus.PARTIAL, UploadStatus.DONE])
        if options["team"]:
            uploads = uploads.filter(team__slug=options["team"])
            if not uploads.exists() and not BenchUpload.objects.filter(team__slug=options["team"]).exists():
                raise CommandError(f"no uploads for a team {options['team']!r}")
        count = uploads.count()
        if options["dry_run"]:
            self.stdout.write(f"{count} upload(s) would be parsed again")
            return
        result = reparse_uploads(uploads.order_by("pk"))
        self.stdout.write(f"{result.queued} upload(s) queued for parsing again")
        if result.busy:
            self.stdout.write(f"{result.busy} upload(s) skipped: being parsed right now")
