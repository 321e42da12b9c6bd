"""``manage.py histogram FILE [--format auto|sizes|du|csv|zdb]``: a file-size histogram for a dataset.

FILE is a listing (``find DIR -type f -printf '%s\\n'``, ``find -printf '%s %p\\n'``, ``du -ab``,
a ``size,count`` CSV) or ``zdb -Lbbbs POOL`` output (``-`` reads standard input). It is read in
chunks and bucketed in constant memory, so listings of tens of millions of files are fine.
Prints ``{"file_count", "logical_bytes", "file_size_histogram", "files_per_directory",
"block_size_histogram", ...}``; an unreadable line prints a message naming it on stderr and
exits with status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO

from django.core.management.base import BaseCommand, CommandParser

from zfsplanner.core.importers.listings import FORMATS, bucket_stream
from zfsplanner.core.importers.size_buckets import HistogramError

EXIT_INVALID = 2
CHUNK = 1024 * 1024


def chunks(fh: BinaryIO) -> Iterator[bytes]:
    while chunk := fh.read(CHUNK):
        yield chunk


class Command(BaseCommand):
    help = "Bucket a file listing or zdb -Lbbbs output into the histogram JSON a design's contents take."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="listing or zdb output ('-': stdin)")
        parser.add_argument("--format", default="auto", choices=("auto", *FORMATS))
        parser.add_argument("--indent", type=int, default=2, help="JSON indentation (0 for one line)")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                result = bucket_stream(chunks(sys.stdin.buffer), options["format"])
            else:
                with open(path, "rb") as fh:
                    result = bucket_stream(chunks(fh), options["format"])
        except OSError as exc:
            self.stderr.write(f"{path}: cannot read the file: {exc.strerror or exc}")
            sys.exit(EXIT_INVALID)
        except HistogramError as exc:
            self.stderr.write(f"{path}: {exc}")
            sys.exit(EXIT_INVALID)
        self.stdout.write(json.dumps(result.to_document(), indent=options["indent"] or None))
