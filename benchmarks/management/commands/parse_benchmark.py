"""``manage.py parse_benchmark FILE [FILE...]``: print the normalized result of benchmark logs.

Exit 0 with the JSON on stdout (one document, or a list when several files are given);
exit 2 with one message on stderr naming the format the file was taken for (or that none
was recognised) and the line or JSON path where reading stopped.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import orjson
from django.core.management.base import BaseCommand, CommandParser

from zfsplanner.parsers import ParseError, parse


class Command(BaseCommand):
    help = "Parse benchmark logs (fio, CrystalDiskMark, bonnie++, dd) and print the normalized JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        documents = []
        for name in options["files"]:
            path = Path(name)
            try:
                data = path.read_bytes()
            except OSError as exc:
                self._fail(f"{name}: cannot read the file: {exc.strerror or exc}")
            try:
                result = parse(data, filename=path.name)
            except ParseError as exc:  # UnknownFormat too: each says it in its own words
                self._fail(f"{name}: {exc.describe()}")
            documents.append(result.to_dict())
        payload = documents[0] if len(documents) == 1 else documents
        self.stdout.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode())

    def _fail(self, message: str) -> None:
        self.stderr.write(message)
        sys.exit(2)
