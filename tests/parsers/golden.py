"""Golden-file helpers: each sample ``X`` has ``X.expected.json`` beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from zfsplanner.parsers import ParseError, fio_log, parse

SAMPLES = Path(__file__).resolve().parent / "samples"
EXPECTED_SUFFIX = ".expected.json"


def samples(fmt: str) -> list[Path]:
    folder = SAMPLES / fmt
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.endswith(EXPECTED_SUFFIX))


def all_samples() -> list[Path]:
    return [p for fmt in sorted(d.name for d in SAMPLES.iterdir() if d.is_dir()) for p in samples(fmt)]


def expected(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads(path.with_name(path.name + EXPECTED_SUFFIX).read_bytes())
    return data


# Logs whose content can't tell their unit: the version the sample's source states.
FIO_LOG_VERSIONS = {"fioplot_fio-2.18_randread-4k-01-16_lat.1.log": "2.18"}


def parsed(path: Path) -> dict[str, Any]:
    """The normalized document of a sample, or ``{"error": {format, where, message}}`` for a
    sample that must be refused (its golden file then holds that error)."""
    try:
        if path.name in FIO_LOG_VERSIONS:
            data = path.read_bytes()
            return fio_log.parse(data, filename=path.name, fio_version=FIO_LOG_VERSIONS[path.name]).to_dict()
        return parse(path.read_bytes(), filename=path.name).to_dict()
    except ParseError as exc:
        return {"error": {"format": exc.format, "where": exc.where, "message": exc.message}}


def result_by_name(doc: dict[str, Any], name: str) -> dict[str, Any]:
    matches = [r for r in doc["results"] if r["name"] == name]
    assert len(matches) == 1, f"{name}: {len(matches)} results"
    return matches[0]
