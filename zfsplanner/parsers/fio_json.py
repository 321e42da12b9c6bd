"""fio ``--output-format=json`` and ``json+`` (fio 2.1 … 3.x).

Units as fio writes them (shared/reference/benchmark-formats.md §1.2):

* ``bw_bytes`` is bytes/s (fio ≥ 3.2); ``bw`` is KiB/s (×1024) in every version.
* fio 3 latency objects ``slat_ns``/``clat_ns``/``lat_ns`` are in ns (÷1000 → µs);
  fio 2 ``slat``/``clat``/``lat`` are in µs already.
* ``latency_mean_us``/``latency_max_us`` are the total latency (``lat``); percentiles come
  from ``clat`` (or ``lat`` when fio only has those), keys ``"99.900000"`` → ``"99.9"``.

One result per job and per direction that did I/O. Clones of a job (``numjobs`` > 1
without ``group_reporting``) appear as consecutive entries with the same name and
options; they are folded into one result (bandwidth and IOPS summed, mean latency
weighted by sample count, max of the maxima, and percentiles taken as the largest of
the clones', an upper-bound approximation). json+ ``bins`` are not read.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from .common import ProgressFn, errno_words, finish_result, parse_fio_size, percentile_key, test_name
from .decode import detect_encoding
from .fio_meta import run_meta
from .types import BenchResult, ParseError, Pattern, TestResult

FORMAT = "fio-json"
TOOL = "fio"

_START_RE = re.compile(rb"(?m)^[ \t]*\{")
_ERROR_LINE_RE = re.compile(r"err=\s*(\d+)/.*?error=(.+)$")
# json+ histogram: a flat object of "<latency ns>" : count pairs, never nested.
_BINS_RE = re.compile(rb'(?<!\\)"bins"\s*:\s*\{[^{}]*\}')
_DIRECTIONS = ("read", "write", "trim", "mixed")
_DIR_INDEX = {"read": 0, "write": 1, "trim": 2, "mixed": 0}
_SYNC_ENGINES = frozenset({"sync", "psync", "vsync", "pvsync", "pvsync2", "mmap", "ftruncate", "filecreate"})


def sniff(data: bytes) -> bool:
    head = _as_utf8(data[:65536])
    m = _START_RE.search(head)
    if m is None:
        return False
    tail = head[m.start() : m.start() + 4096]
    return b'"fio version"' in tail or (b'"jobs"' in tail and b'"jobname"' in head)


def _as_utf8(data: bytes) -> bytes:
    label, skip = detect_encoding(data)
    if label.startswith("utf-16"):
        chunk = data[skip:]
        chunk = chunk[: len(chunk) // 2 * 2]
        return chunk.decode(label, errors="replace").encode("utf-8")
    return data[skip:]


def parse(data: bytes, filename: str | None = None, progress: ProgressFn | None = None) -> BenchResult:
    label, skip = detect_encoding(data)
    payload: bytes | memoryview
    if label.startswith("utf-16"):
        chunk = data[skip:]
        payload = chunk[: len(chunk) // 2 * 2].decode(label, errors="replace").encode("utf-8")
        encoding = label
    else:
        payload = memoryview(data)[skip:]
        encoding = "utf-8-sig" if label == "utf-8-sig" else "utf-8"

    payload = _drop_bins(payload, payload if isinstance(payload, bytes) else data)
    m = _START_RE.search(payload)
    if m is None:
        raise ParseError(FORMAT, "line 1", "no JSON object found (expected a line starting with '{')")
    start = m.start()
    prefix = bytes(payload[:start]).decode("utf-8", errors="replace")
    messages = [line.strip() for line in prefix.splitlines() if line.strip()]
    docs = _load_documents(payload, start, prefix.count("\n"))
    if progress:
        progress(0.5)

    results: list[TestResult] = []
    failures: list[_JobError] = []
    meta: dict[str, Any] = {}
    version: str | None = None
    for doc_index, (doc, doc_path) in enumerate(docs):
        if not isinstance(doc, dict):
            raise ParseError(FORMAT, doc_path, "expected a JSON object at the top level")
        ver = doc.get("fio version")
        if ver is not None and not isinstance(ver, str):
            raise ParseError(FORMAT, f"{doc_path}.fio version", "expected a string")
        version = version or (ver.removeprefix("fio-") if isinstance(ver, str) else None)
        if doc_index == 0:
            meta.update(run_meta(doc, doc_path))
        doc_results, doc_failures = _doc_results(doc, doc_path)
        results.extend(doc_results)
        failures.extend(doc_failures)
    if messages:
        meta["messages"] = messages
    if not results and failures:
        detail = "; ".join(f.describe(messages) for f in failures)
        said = f". fio said: {' / '.join(messages)}" if messages else ""
        raise ParseError(FORMAT, f"{failures[0].path}.error", f"no job measured anything: {detail}{said}")
    return finish_result(
        TOOL, version, encoding, data, meta, results, [f.describe(messages) for f in failures], progress
    )


class _JobError:
    """A job that ended with fio's ``error`` ≠ 0 (an errno value), in words."""

    __slots__ = ("jobname", "number", "path", "measured")

    def __init__(self, jobname: str, number: int, path: str, measured: bool) -> None:
        self.jobname = jobname
        self.number = number
        self.path = path
        self.measured = measured

    def describe(self, messages: list[str]) -> str:
        words = errno_words(self.number)
        for line in messages:  # fio's own words, e.g. "fio: pid=1, err=28/file:…, error=No space left on device"
            m = _ERROR_LINE_RE.search(line)
            if m and int(m.group(1)) == self.number:
                words = errno_words(self.number, m.group(2))
                break
        outcome = "its figures cover only the I/O done before the error" if self.measured else "it measured nothing"
        return f"fio job {self.jobname!r} ended with error {self.number} ({words}); {outcome}"


def _drop_bins(payload: bytes | memoryview, source: bytes) -> bytes | memoryview:
    """Blank out json+ ``bins`` objects before decoding: they are most of a json+ file and,
    decoded, would take many times its size in memory. Newlines inside them are kept so
    error line numbers still match the file. ``source`` is searched first (bytes can, a
    memoryview can't) so plain json costs one scan and no copy."""
    if b'"bins"' not in source:
        return payload
    return _BINS_RE.sub(_blank, payload)


def _blank(m: re.Match[bytes]) -> bytes:
    return b'"bins":{}' + b"\n" * m.group(0).count(b"\n")


def _load_documents(payload: bytes | memoryview, start: int, prefix_lines: int) -> list[tuple[Any, str]]:
    """One or more JSON documents from ``start`` on (fio output appended with ``>>``,
    or ``--output-format=json,normal`` which puts text after the JSON)."""
    docs: list[tuple[Any, str]] = []
    pos = start
    line_base = prefix_lines
    while True:
        chunk = payload[pos:]
        try:
            docs.append((orjson.loads(chunk), "$" if not docs else f"$[document {len(docs) + 1}]"))
            return docs
        except orjson.JSONDecodeError as exc:
            if not _is_trailing(exc.msg) or exc.pos <= 0:
                if docs:  # text after a complete document (json,normal): keep what we have
                    return docs
                line = line_base + exc.lineno
                raise ParseError(FORMAT, f"line {line}, column {exc.colno}", _json_message(exc.msg)) from None
            end = pos + exc.pos
        try:
            docs.append((orjson.loads(payload[pos:end]), "$" if not docs else f"$[document {len(docs) + 1}]"))
        except orjson.JSONDecodeError as exc:  # pragma: no cover - the prefix was valid a moment ago
            raise ParseError(FORMAT, f"line {line_base + exc.lineno}", _json_message(exc.msg)) from None
        line_base += bytes(payload[pos:end]).count(b"\n")
        rest = payload[end:]
        m = _START_RE.search(rest)
        if m is None or b'"fio version"' not in bytes(rest[m.start() : m.start() + 4096]):
            return docs
        line_base += bytes(rest[: m.start()]).count(b"\n")
        pos = end + m.start()


def _is_trailing(msg: str) -> bool:
    """orjson's wording for "a complete document, then more bytes" (it changed across releases)."""
    return "trailing characters" in msg or "unexpected content after document" in msg


def _json_message(msg: str) -> str:
    return f"invalid JSON: {msg}"


# Job options kept in ``meta`` (the global options, then the first job's): what was run and the
def _doc_results(doc: dict[str, Any], path: str) -> tuple[list[TestResult], list[_JobError]]:
    key = "jobs" if "jobs" in doc else "client_stats"
    jobs = doc.get(key)
    if not isinstance(jobs, list):
        raise ParseError(FORMAT, f"{path}.{key}", "expected a list of jobs")
    gopts_raw = doc.get("global options")
    if gopts_raw is not None and not isinstance(gopts_raw, dict):
        raise ParseError(FORMAT, f"{path}.global options", "expected an object")
    gopts = _str_options(gopts_raw or {})

    groups: list[tuple[list[tuple[int, dict[str, Any]]], dict[str, str], bool]] = []
    current_key: object = None
    for i, job in enumerate(jobs):
        jpath = f"{path}.{key}[{i}]"
        if not isinstance(job, dict):
            raise ParseError(FORMAT, jpath, "expected a job object")
        if key == "client_stats" and job.get("jobname") == "All clients":
            continue
        jopts_raw = job.get("job options")
        if jopts_raw is not None and not isinstance(jopts_raw, dict):
            raise ParseError(FORMAT, f"{jpath}.job options", "expected an object")
        jopts = _str_options(jopts_raw or {})
        has_options = jopts_raw is not None or gopts_raw is not None
        opts = {**gopts, **jopts}
        numjobs = _int_option(opts, "numjobs", 1, jpath)
        gkey = (job.get("jobname"), job.get("groupid"), tuple(sorted(jopts.items())))
        if groups and gkey == current_key and len(groups[-1][0]) < numjobs:
            groups[-1][0].append((i, job))
        else:
            groups.append(([(i, job)], opts, has_options))
            current_key = gkey

    results: list[TestResult] = []
    failures: list[_JobError] = []
    for members, opts, has_options in groups:
        first_index = members[0][0]
        jpath = f"{path}.{key}[{first_index}]"
        errors = [(i, job["error"]) for i, job in members if _job_error(job, f"{path}.{key}[{i}]")]
        before = len(results)
        for direction in _DIRECTIONS:
            stats = []
            for i, job in members:
                d = job.get(direction)
                if d is None:
                    continue
                dpath = f"{path}.{key}[{i}].{direction}"
                if not isinstance(d, dict):
                    raise ParseError(FORMAT, dpath, "expected an object")
                st = _direction_stats(d, dpath)
                if st is not None:
                    stats.append(st)
            if stats:
                jobname = members[0][1].get("jobname")
                results.append(_make_result(direction, stats, opts, has_options, str(jobname), jpath, len(members)))
        if errors:
            i, number = errors[0]
            name = str(members[0][1].get("jobname"))
            failures.append(_JobError(name, number, f"{path}.{key}[{i}]", measured=len(results) > before))
    return results, failures


def _job_error(job: dict[str, Any], path: str) -> int:
    value = job.get("error", 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParseError(FORMAT, f"{path}.error", "expected a whole number (fio's errno for the job)")
    return int(value)


def _str_options(raw: dict[str, Any]) -> dict[str, str]:
    return {str(k): (v if isinstance(v, str) else str(v)) for k, v in raw.items()}


def _int_option(opts: dict[str, str], name: str, default: int, path: str) -> int:
    raw = opts.get(name)
    if raw is None or raw == "":
        return default
    value = parse_fio_size(raw)
    if value is None:
        raise ParseError(FORMAT, f"{path}.job options.{name}", f"expected a whole number, got {raw!r}")
    return value


def _num(obj: dict[str, Any], key: str, path: str, required: bool = True) -> float | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise ParseError(FORMAT, f"{path}.{key}", "expected a number, the key is missing")
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ParseError(FORMAT, f"{path}.{key}", "expected a number")
    return float(value)


class _Stats:
    __slots__ = ("bw", "iops", "lat_mean", "lat_max", "weight", "percentiles")

    def __init__(
        self,
        bw: float,
        iops: float | None,
        lat_mean: float | None,
        lat_max: float | None,
        weight: float,
        percentiles: dict[str, float],
    ) -> None:
        self.bw = bw
        self.iops = iops
        self.lat_mean = lat_mean
        self.lat_max = lat_max
        self.weight = weight
        self.percentiles = percentiles


def _direction_stats(d: dict[str, Any], path: str) -> _Stats | None:
    """The figures of one direction of one job entry, or None when it did no I/O."""
    bw_bytes = _num(d, "bw_bytes", path, required=False)
    bw_kib = _num(d, "bw", path, required=False)
    iops = _num(d, "iops", path, required=False)
    total_ios = _num(d, "total_ios", path, required=False)
    io_bytes = _num(d, "io_bytes", path, required=False)
    if bw_bytes is None and bw_kib is None:
        raise ParseError(FORMAT, f"{path}.bw", "expected a number, the key is missing")
    bandwidth = bw_bytes if bw_bytes is not None else (bw_kib or 0.0) * 1024.0
    did_io = any(v for v in (io_bytes, bandwidth, iops)) or (io_bytes is None and bool(total_ios))
    if not did_io:
        return None

    lat_obj, lat_path, scale = _latency_object(d, path, ("lat_ns", "lat"), ("clat_ns", "clat"))
    lat_mean = lat_max = None
    weight = total_ios or 1.0
    if lat_obj is not None:
        lat_mean = _num(lat_obj, "mean", lat_path, required=False)
        lat_max = _num(lat_obj, "max", lat_path, required=False)
        n = _num(lat_obj, "N", lat_path, required=False)
        if n:
            weight = n
        lat_mean = lat_mean / scale if lat_mean is not None else None
        lat_max = lat_max / scale if lat_max is not None else None
        if lat_mean == 0 and lat_max == 0:
            lat_mean = lat_max = None  # latency not recorded (e.g. disable_lat)

    percentiles: dict[str, float] = {}
    pct_obj, pct_path, pscale = _latency_object(d, path, ("clat_ns", "clat"), ("lat_ns", "lat"), with_percentiles=True)
    if pct_obj is not None:
        raw = pct_obj["percentile"]
        if not isinstance(raw, dict):
            raise ParseError(FORMAT, f"{pct_path}.percentile", "expected an object")
        for key, value in raw.items():
            pkey = percentile_key(key)
            if pkey is None:
                raise ParseError(FORMAT, f"{pct_path}.percentile.{key}", "expected a percentile like 99.900000")
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ParseError(FORMAT, f"{pct_path}.percentile.{key}", "expected a number")
            percentiles[pkey] = value / pscale
    return _Stats(bandwidth, iops, lat_mean, lat_max, weight, percentiles)


def _latency_object(
    d: dict[str, Any], path: str, first: tuple[str, str], second: tuple[str, str], with_percentiles: bool = False
) -> tuple[dict[str, Any] | None, str, float]:
    for ns_key, us_key in (first, second):
        for key, scale in ((ns_key, 1000.0), (us_key, 1.0)):
            obj = d.get(key)
            if obj is None:
                continue
            if not isinstance(obj, dict):
                raise ParseError(FORMAT, f"{path}.{key}", "expected an object")
            if with_percentiles and "percentile" not in obj:
                continue
            return obj, f"{path}.{key}", scale
    return None, path, 1.0  # (object, its JSON path, divisor to µs)


def _make_result(
    direction: str,
    stats: list[_Stats],
    opts: dict[str, str],
    has_options: bool,
    jobname: str,
    path: str,
    clones: int,
) -> TestResult:
    bandwidth = sum(s.bw for s in stats)
    iops_values = [s.iops for s in stats if s.iops is not None]
    iops = sum(iops_values) if iops_values else None
    lat_stats = [s for s in stats if s.lat_mean is not None]
    lat_mean = None
    if lat_stats:
        total_w = sum(s.weight for s in lat_stats)
        lat_mean = sum((s.lat_mean or 0.0) * s.weight for s in lat_stats) / total_w
    lat_maxes = [s.lat_max for s in stats if s.lat_max is not None]
    lat_max = max(lat_maxes) if lat_maxes else None
    percentiles: dict[str, float] = {}
    for s in stats:
        for k, v in s.percentiles.items():
            percentiles[k] = max(percentiles.get(k, v), v)

    if not has_options:
        return TestResult(
            name=f"{jobname} {direction}",
            op=direction,
            pattern=None,
            block_size_bytes=None,
            queue_depth=None,
            threads=clones if clones > 1 else None,
            bandwidth_bytes_per_s=bandwidth,
            iops=iops,
            latency_mean_us=lat_mean,
            latency_max_us=lat_max,
            latency_percentiles_us=percentiles,
        )

    rw = (opts.get("rw") or opts.get("readwrite") or "read").split(":", 1)[0].strip()
    pattern: Pattern = "random" if rw.startswith("rand") else "sequential"
    block_size = _block_size(opts, direction, path)
    queue_depth = _int_option(opts, "iodepth", 1, path)
    if opts.get("ioengine", "").split(":", 1)[0] in _SYNC_ENGINES:
        queue_depth = 1  # synchronous engines never have more than one I/O in flight
    threads = _int_option(opts, "numjobs", 1, path)
    extra = ""
    if rw in ("rw", "readwrite", "randrw") and direction != "mixed":
        mix_read = _mix_read(opts, path)
        extra = f"R{mix_read}W{100 - mix_read}"
    return TestResult(
        name=test_name(pattern, block_size, queue_depth, threads, direction, extra),
        op=direction,
        pattern=pattern,
        block_size_bytes=block_size,
        queue_depth=queue_depth,
        threads=threads,
        bandwidth_bytes_per_s=bandwidth,
        iops=iops,
        latency_mean_us=lat_mean,
        latency_max_us=lat_max,
        latency_percentiles_us=percentiles,
    )


def _mix_read(opts: dict[str, str], path: str) -> int:
    if "rwmixread" in opts:
        return min(100, _int_option(opts, "rwmixread", 50, path))
    if "rwmixwrite" in opts:
        return 100 - min(100, _int_option(opts, "rwmixwrite", 50, path))
    return 50


def _block_size(opts: dict[str, str], direction: str, path: str) -> int:
    raw = opts.get("bs") or opts.get("blocksize")
    if raw is None:
        return 4096  # fio's default bs
    parts = raw.split(",")
    idx = _DIR_INDEX[direction]
    chosen = parts[idx] if idx < len(parts) and parts[idx].strip() else parts[0]
    chosen = chosen.split("-", 1)[0]  # a range "4k-16k": name it by its lower bound
    value = parse_fio_size(chosen)
    if value is None or value <= 0:
        raise ParseError(FORMAT, f"{path}.job options.bs", f"expected a block size, got {raw!r}")
    return value
