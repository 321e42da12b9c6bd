"""How a fio JSON run was made: its date, target and the options that decide whether its figures
measured the disks (read by the validity checks), as :mod:`.fio_json` records them in a result's meta."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

# options that decide whether a figure measured the disks (what data was written, whether writes
# reached the disks). fio's JSON lists an option only when it was given a value: a bare
# ``zero_buffers`` line in a job file does not appear, ``zero_buffers=1`` does.
META_OPTIONS = (
    "ioengine",
    "direct",
    "size",
    "runtime",
    "time_based",
    "numjobs",
    "end_fsync",
    "fsync",
    "fdatasync",
    "sync",
    "zero_buffers",
    "buffer_compress_percentage",
    "dedupe_percentage",
)


def _shortest_test(jobs: Any) -> tuple[float, int] | None:
    """(seconds, I/Os) of the shortest job direction that did I/O: ``runtime`` (ms) and
    ``total_ios`` of each ``read``/``write``/``trim`` with I/Os; None when no job says."""
    found: list[tuple[float, int]] = []
    for job in jobs if isinstance(jobs, list) else ():
        if not isinstance(job, dict):
            continue
        for ddir in ("read", "write", "trim"):
            d = job.get(ddir)
            if not isinstance(d, dict):
                continue
            ios, ms = d.get("total_ios"), d.get("runtime")
            if isinstance(ios, int) and not isinstance(ios, bool) and ios > 0 and isinstance(ms, int | float):
                found.append((float(ms) / 1000.0, ios))
    if not found:
        return None
    return min(s for s, _ in found), min(n for _, n in found)


def run_meta(doc: dict[str, Any], path: str) -> dict[str, Any]:
    """What one fio JSON document says of how it ran: date, target, job count, the options the
    validity checks read (:data:`META_OPTIONS`), the shortest test and the jobs' errors."""
    meta: dict[str, Any] = {}
    ts = doc.get("timestamp")
    if isinstance(ts, int | float) and not isinstance(ts, bool) and 0 < ts < 1e11:
        meta["date"] = datetime.fromtimestamp(ts, UTC).replace(tzinfo=None).isoformat()
    elif isinstance(doc.get("time"), str):
        meta["date"] = doc["time"]
    jobs = doc.get("jobs")
    gopts = doc.get("global options")
    opts: dict[str, Any] = dict(gopts) if isinstance(gopts, dict) else {}
    if isinstance(jobs, list) and jobs and isinstance(jobs[0], dict):
        jopts = jobs[0].get("job options")
        if isinstance(jopts, dict):
            opts.update(jopts)
        meta["jobs"] = len(jobs)
    target = opts.get("filename") or opts.get("directory")
    if isinstance(target, str):
        meta["target"] = target
    for key in META_OPTIONS:
        if isinstance(opts.get(key), str):
            meta[key] = opts[key]
    shortest = _shortest_test(jobs)
    if shortest is not None:
        meta["shortest_test_s"], meta["fewest_ios"] = shortest
    if isinstance(jobs, list):
        errors = [
            {"job": j.get("jobname"), "error": j["error"]}
            for j in jobs
            if isinstance(j, dict) and isinstance(j.get("error"), int) and j["error"] != 0
        ]
        if errors:
            meta["errors"] = errors
    return meta
