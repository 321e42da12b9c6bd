"""A run's validity warnings: what its log, settings, design and host say, handed to the core's rules.

The rules are :mod:`zfsplanner.core.measurement.validity`; this module only reads a
:class:`~benchmarks.models.BenchRun` into the core's plain inputs (:func:`run_facts`,
:func:`run_setting`): the parsed document's ``meta`` (fio's options, CrystalDiskMark's zero
fill, dd's commands), the run's settings, the design it is tied to, and the other runs of the
same job set on the same target (:func:`benchmarks.repeats.repeats_of`). Pages, charts and the API all call
:func:`run_validity`, so a run reads the same everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zfsplanner.core.design.types import Design
from zfsplanner.core.measurement.validity import Finding, RunFacts, Setting, check
from zfsplanner.parsers.common import parse_fio_size
from zfsplanner.parsers.dd import command_operands

from .models import BenchRun, TargetKind
from .repeats import REPEAT_SUFFIX, repeats_of

READ_OPS = frozenset(
    {"read", "mixed", "copy", "rewrite", "seeks", "seq_input_block", "seq_input_char", "random_read", "seq_read"}
)
WRITE_OPS = frozenset({"write", "mixed", "copy", "rewrite", "seq_output_block", "seq_output_char"})
_OFF = ("", "0", "none", "false")


@dataclass(frozen=True)
class RunValidity:
    """The run's findings and whether a person marked them as checked."""

    findings: tuple[Finding, ...]
    checked: bool

    @property
    def warned(self) -> bool:
        """Warnings nobody has checked yet: what charts mark."""
        return bool(self.findings) and not self.checked

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(f.code for f in self.findings)


def api_item(f: Finding) -> dict[str, str]:
    """The API's ``{"code", "title", "detail"}`` (a contract): the detail says what the run did,
    what it means and how to measure properly."""
    return {"code": f.code, "title": f.title, "detail": f"{f.detail} How to measure properly: {f.advice}"}


def _on(value: Any) -> bool:
    return value is not None and str(value).strip().lower() not in _OFF


def _fio_facts(meta: dict[str, Any]) -> dict[str, Any]:
    """fio JSON lists the options it was given (fio_json.META_OPTIONS): absent means fio's default."""
    compressible = tuple(
        f"{key}={meta[key]}" for key in ("buffer_compress_percentage", "dedupe_percentage") if _on(meta.get(key))
    )
    size = meta.get("size")
    return {
        "zero_data": "fio with zero_buffers" if _on(meta.get("zero_buffers")) else None,
        "compressible": compressible,
        "direct": _on(meta.get("direct")),
        "flushed": any(_on(meta.get(k)) for k in ("end_fsync", "fsync", "fdatasync", "sync")),
        "test_file_bytes": parse_fio_size(size) if isinstance(size, str) else None,
    }


def _dd_facts(meta: dict[str, Any], ops: list[str]) -> dict[str, Any]:
    """dd: each run's command (``meta.run_commands``), read by the dd parser's own operand reader."""
    commands = meta.get("run_commands") or []
    runs = [(op, command_operands(c)) for op, c in zip(ops, commands, strict=False) if isinstance(c, str)]
    facts: dict[str, Any] = {"test_file_bytes": meta.get("test_size_bytes")}
    if not runs:
        return facts  # no command in the log: it does not say what was written or how
    writes = [operands for op, operands in runs if op in WRITE_OPS]
    facts["direct"] = any("direct" in (o.get("oflag", "") + "," + o.get("iflag", "")) for _, o in runs)
    if writes:
        flushes = ("fdatasync", "fsync")
        facts["flushed"] = all(
            any(f in o.get("conv", "") for f in flushes) or any(f in o.get("oflag", "") for f in ("dsync", "sync"))
            for o in writes
        )
        if any(o.get("if") == "/dev/zero" for o in writes):
            facts["zero_data"] = "dd if=/dev/zero"
    return facts


def run_facts(run: BenchRun, repeats: int | None = None) -> RunFacts:
    """What the run's log says, in the core's plain values."""
    meta = run.meta or {}
    results = list(run.results.all())
    ops = [r.op for r in results]
    tool = run.upload.detected_format  # the parser's tool name: fio, dd, crystaldiskmark, …
    extra: dict[str, Any] = {}
    if tool == "fio" and "jobs" in meta:  # fio's JSON (its text output does not list the options)
        extra = _fio_facts(meta)
    elif tool == "dd":
        extra = _dd_facts(meta, ops)
    elif tool == "crystaldiskmark":
        extra = {
            "zero_data": 'CrystalDiskMark with "All 0x00" test data (<0Fill>)' if meta.get("zero_fill") else None,
            "test_file_bytes": meta.get("test_size_bytes"),
        }
    elif isinstance(meta.get("file_size_bytes"), int):
        extra = {"test_file_bytes": meta["file_size_bytes"]}
    shortest, fewest = meta.get("shortest_test_s"), meta.get("fewest_ios")
    return RunFacts(
        tool=run.tool,
        reads=any(op in READ_OPS for op in ops),
        writes=any(op in WRITE_OPS for op in ops),
        shortest_test_s=float(shortest) if isinstance(shortest, int | float) else None,
        fewest_ios=fewest if isinstance(fewest, int) else None,
        repeats=repeats if repeats is not None else len(repeats_of(run)),
        repeats_in_log=any(REPEAT_SUFFIX.search(r.name) for r in results),
        raw_device=run.target_kind == TargetKind.DISK,
        **extra,
    )


def run_setting(run: BenchRun) -> Setting:
    """The run's own settings, the design it is tied to and the dataset its target names."""
    s = run.settings or {}
    spec: Design | None = run.design.to_spec() if run.design is not None else None
    dataset = run.target.strip() if spec is not None and run.target.strip() in {d.name for d in spec.datasets} else None
    return Setting(
        compression=s.get("compression") or None,
        sync=s.get("sync") or None,
        zil=s.get("zil") or None,
        tunables=dict(s.get("tunables") or {}),
        design=spec,
        dataset=dataset,
    )


def run_validity(run: BenchRun, repeats: int | None = None) -> RunValidity:
    """The run's validity warnings (none before its log is read)."""
    if not run.is_parsed:
        return RunValidity((), run.validity_checked)
    return RunValidity(check(run_facts(run, repeats), run_setting(run)), run.validity_checked)
