"""``manage.py import_pool FILE... [--pool NAME]``: the design document of an existing pool.

Each FILE holds outputs of ``zpool status``, ``zpool list -v -p``, ``zpool get``,
``zfs get``/``zfs list`` and ``lsblk -b`` in any order, with or without their ``$ command``
lines (``-`` reads standard input). Prints the ``zfsplanner.design/1`` JSON, with what the pool
reported under ``imported``; anything it cannot read prints a message naming the file and
line on stderr, nothing on stdout, and exits with status 2. Disk models are matched to the
catalog in the database. Member sizes no output gives (``zpool status`` alone) are asked:
answer them with ``--size q1=16TB`` (the message lists each question), or add
``zpool list -v -p`` or ``lsblk -b``. An ashift no output states is inferred from the sizes
the outputs give; when several fit, it is asked the same way (``--size q2=9``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from zfsplanner.core.importers.answers import is_ashift_question
from zfsplanner.core.importers.common import UnreadableOutput
from zfsplanner.imports.services import answer_questions, run_import
from zfsplanner.uploads.text import UploadRefused, read_text

EXIT_INVALID = 2


def read_output(path: str) -> str:
    """The text of a file ('-': stdin), refused as an uploaded one is (a NUL, UTF-16, not UTF-8)."""
    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    return read_text(data, "stdin" if path == "-" else path)


class Command(BaseCommand):
    help = "Import an existing pool from zpool/zfs/lsblk outputs; prints the design JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="file with command outputs ('-': stdin)")
        parser.add_argument("--pool", default="", help="the pool to import when the outputs show several")
        parser.add_argument("--indent", type=int, default=2, help="JSON indentation (0 for one line)")
        parser.add_argument("--size", action="append", default=[], metavar="QUESTION=SIZE",
                            help="a member size (or ashift) the outputs do not give, e.g. q1=16TB or q2=9 "
                                 "(repeat for each question)")

    def handle(self, *args: Any, **options: Any) -> None:
        sources = []
        for path in options["files"]:
            try:
                sources.append(("stdin" if path == "-" else path, read_output(path)))
            except OSError as exc:
                self.stderr.write(f"{path}: cannot read the file: {exc.strerror or exc}")
                sys.exit(EXIT_INVALID)
            except UploadRefused as exc:
                self.stderr.write(str(exc.detail))
                sys.exit(EXIT_INVALID)
        try:
            result = run_import(sources, options["pool"])
            document = result.document
            if options["size"]:
                # the same answers as the preview page's fields: size-q1=16TB
                answers = {f"size-{qid.strip()}": size.strip()
                           for qid, _, size in (item.partition("=") for item in options["size"])}
                document = answer_questions(document, answers)
        except (UnreadableOutput, ValueError) as exc:
            self.stderr.write(str(exc))
            sys.exit(EXIT_INVALID)
        except UploadRefused as exc:
            self.stderr.write(str(exc.detail))
            sys.exit(EXIT_INVALID)
        for note in result.notes:
            self.stderr.write(f"note: {note}")
        questions = (document.get("imported") or {}).get("questions") or []
        if questions:
            for q in questions:
                if is_ashift_question(q):
                    choices = ", ".join(str(c) for c in q["choices"])
                    self.stderr.write(f"{sources[0][0]}: the ashift of {', '.join(q['vdevs'])} is not in the outputs "
                                      f"and {choices} all give the sizes they report: give it with --size "
                                      f"{q['id']}=ASHIFT, or add `zpool get ashift POOL all-vdevs` (OpenZFS 2.2+)")
                    continue
                what = f"each {q['model']}" if q.get("model") else f"each {q['role']} device"
                self.stderr.write(f"{sources[0][0]}: the size of {what} ({', '.join(q['devices'])}) is not in the "
                                  f"outputs: give it with --size {q['id']}=SIZE (e.g. 16TB), or add "
                                  "`zpool list -v -p POOL` or `lsblk -b`")
            sys.exit(EXIT_INVALID)
        self.stdout.write(json.dumps(document, indent=options["indent"] or None))
