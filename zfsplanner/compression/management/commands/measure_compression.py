"""``manage.py measure_compression FILE... --algorithms lz4,zstd,zstd-7,gzip-9 --recordsize 128K,1M --ashift 12``

Prints the ``zfsplanner.compression/1`` JSON (``spec/design-format.md``, "Commands"): per
file and for all files together, per algorithm and recordsize, the logical bytes, the
bytes ``du -B1`` on ZFS would count, ``compressratio`` as ``zfs get`` prints it and the
throughput. A directory stands for the files under it. Unreadable input or a bad option
prints a message naming it on stderr, nothing on stdout, and exits with status 2.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from zfsplanner.core.datasets.measure import MeasureError, Source, measure_files
from zfsplanner.core.properties.resolve import DEFAULT_RECORDSIZE
from zfsplanner.core.units import format_zfs_size
from zfsplanner.core.versions import default_version

from ... import services

EXIT_INVALID = 2


def sources_for(paths: list[str]) -> list[Source]:
    out: list[Source] = []
    for given in paths:
        p = Path(given)
        if p.is_dir():
            files = sorted(q for q in p.rglob("*") if q.is_file() and not q.is_symlink())
            if not files:
                raise MeasureError(f"{given}: the directory holds no files")
        else:
            files = [p]
        for f in files:
            try:
                size = f.stat().st_size
                if not f.is_file():
                    raise MeasureError(f"{f}: not a regular file")
                if not os.access(f, os.R_OK):
                    raise MeasureError(f"{f}: cannot be read (permission denied)")
            except OSError as exc:
                raise MeasureError(f"{f}: cannot be read ({exc.strerror or exc})") from exc
            out.append(Source(str(f), size, lambda f=f: open(f, "rb")))  # noqa: SIM115
    return out


class Command(BaseCommand):
    help = "Measure how ZFS would store files: per algorithm and recordsize, du and compressratio as ZFS reports them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="file or directory to measure")
        parser.add_argument("--algorithms", default="lz4,zstd", help="comma list (default lz4,zstd)")
        default = format_zfs_size(DEFAULT_RECORDSIZE)
        parser.add_argument("--recordsize", default=default, help=f"comma list, e.g. 128K,1M (default {default})")
        parser.add_argument("--ashift", default="12", help="log2 of the pool's sector size (default 12)")
        parser.add_argument(
            "--openzfs-version",
            default=default_version(),
            help=f"a release (default {default_version()}, the newest the planner knows) or a series (2.3)",
        )
        parser.add_argument("--indent", type=int, default=2, help="JSON indentation (0 for one line)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            opts = services.parse_options(
                options["algorithms"], options["recordsize"], options["ashift"], options["openzfs_version"]
            )
            doc = measure_files(
                sources_for(options["files"]), opts.algorithms, opts.recordsizes, opts.ashift, opts.openzfs_version
            )
        except services.OptionError as exc:
            self.stderr.write(f"--{exc.field.replace('_', '-')}: {exc.message}")
            sys.exit(EXIT_INVALID)
        except MeasureError as exc:
            self.stderr.write(str(exc))
            sys.exit(EXIT_INVALID)
        self.stdout.write(json.dumps(doc, indent=options["indent"] or None))
