"""``manage.py estimate FILE [FILE ...] [--format json|markdown|csv]``: print the estimate of design files.

One file prints one estimate object; several print a JSON array in the same order.
``--format markdown`` prints the design report (``zfsplanner.core.report``) and ``--format csv``
the estimate as CSV (one row for the pool, one per vdev and per dataset); with several files
the reports follow each other (CSV: one header, then each design's pool row and the rows under it).
Any bad input (unreadable file, invalid JSON, invalid design) prints a message naming
the file and the field on stderr, nothing on stdout, and exits with status 2.
Catalog references are resolved from the database.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from zfsplanner.core import report
from zfsplanner.core.design.types import Design, InvalidDesign
from zfsplanner.core.document.limits import MAX_DOCUMENT_BYTES, DocumentLimitError, load_json_document
from zfsplanner.core.estimate import Estimate
from zfsplanner.plans.services import validate_document
from zfsplanner.plans.services.disk_inputs import estimate_with_catalog

EXIT_INVALID = 2


class BadInput(Exception):
    pass


def read_design_file(path: str) -> Any:
    try:
        size = Path(path).stat().st_size
        if size > MAX_DOCUMENT_BYTES:
            raise BadInput(f"{path}: the file is {size:,} bytes; a design document may be at most 1 MiB")
        text = Path(path).read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise BadInput(f"{path}: cannot read the file: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path}: not UTF-8 text: {exc}") from exc
    try:
        return load_json_document(text)
    except DocumentLimitError as exc:
        raise BadInput(f"{path}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise BadInput(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc


def design_and_estimate(path: str) -> tuple[Design, Estimate]:
    doc = read_design_file(path)
    try:
        design = validate_document(doc)
        return design, estimate_with_catalog(design)
    except InvalidDesign as exc:
        lines = [f"{path}: {field or '(document)'}: {message}" for field, message in exc.errors]
        raise BadInput("\n".join(lines)) from exc


class Command(BaseCommand):
    help = "Estimate pool designs (zfsplanner.design/1 JSON files); prints zfsplanner.estimate/1 JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="design document (JSON)")
        parser.add_argument("--indent", type=int, default=2, help="JSON indentation (0 for one line)")
        parser.add_argument("--format", default="json", choices=("json", "markdown", "csv"),
                            help="json (the estimate), markdown (the design report) or csv (the estimate's rows)")

    def handle(self, *args: Any, **options: Any) -> None:
        files: list[str] = options["files"]
        results = []
        failed = False
        for path in files:
            try:
                results.append(design_and_estimate(path))
            except BadInput as exc:
                self.stderr.write(str(exc))
                failed = True
        if failed:
            sys.exit(EXIT_INVALID)
        fmt = options["format"]
        if fmt == "markdown":
            self.stdout.write("\n\n".join(report.markdown(d, e).rstrip("\n") for d, e in results))
            return
        if fmt == "csv":
            texts = [report.csv_text(d, e) for d, e in results]
            self.stdout.write(texts[0] + "".join(t.split("\n", 1)[1] for t in texts[1:]), ending="")
            return
        estimates = [e.to_document() for _, e in results]
        out: Any = estimates[0] if len(files) == 1 else estimates
        self.stdout.write(json.dumps(out, indent=options["indent"] or None))
