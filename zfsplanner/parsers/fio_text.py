"""fio's normal (human) output, fio 2.0.x to 3.x, as saved or pasted.

Handles several runs appended to one file, Markdown fences, ``>`` quotes and shell prompts
around the output, ``Jobs:`` progress lines, and per-line unit switching. Units
(shared/reference/benchmark-formats.md §1.4):

* 3.x ``BW=18.8MiB/s (19.7MB/s)``: the IEC figure is used (KiB/MiB/GiB = 1024); when only
  SI is printed (``kb_base=1000``) the SI one (kB/MB = 1000).
* 2.x ``bw=611058KB/s`` (2.0.x also ``bw=422959 B/s``): ``KB`` means KiB (fio 2's default
  ``kb_base=1024``).
* ``(nsec)``/``(usec)``/``(msec)`` apply to the line they head; ``k``/``M`` suffixes
  multiply by 1000/10^6 (``IOPS=131k``, ``max=16755k``). fio 2.0.x puts a space before the
  commas (``min=28 , max=203809 , avg=459.64``).

Printed figures are rounded (3 significant digits for bandwidth), so results are less
exact than fio's JSON output. The test shape comes from the banner line
(``NAME: (g=0): rw=randread, bs=(R) 64.0KiB-64.0KiB, …, ioengine=libaio, iodepth=16``) and
the thread count from ``(groupid=0, jobs=8)``.

Clones of a job (``numjobs`` > 1 without ``group_reporting``) print one block each, all
``jobs=1`` with the same name and group; they are folded into one result exactly as the
JSON parser folds them (bandwidth and IOPS summed, mean latency weighted by the I/O
count, the largest maximum and percentiles), so the text and the JSON output of one run
give the same results. A job that ended with an error (``err=28 (…, error=No space left
on device)``) is reported in words: the log fails when no job measured anything, and is
partial (with a warning) when only some did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .common import ProgressFn, errno_words, finish_result, parse_fio_size, percentile_key, test_name
from .decode import decode, peek_text
from .types import BenchResult, ParseError, Pattern, TestResult

FORMAT = "fio-text"
TOOL = "fio"

_BANNER_RE = re.compile(r"^\s*(\S.*?): \(g=(\d+)\): rw=([\w:]+), bs=(.*?), ioengine=([\w:.-]+), iodepth=(\d+)")
_HEADER_RE = re.compile(
    r"^\s*(\S.*?): \(groupid=(\d+), jobs=(\d+)\): err=\s*(\d+)\s*(?:\(([^)]*)\))?\s*:?\s*(?:pid=\d+:?)?\s*(.*)$"
)
_VERSION_RE = re.compile(r"^\s*fio[- ](\d+\.\d+(?:\.\d+)?\S*)\s*$")
_OLD_VERSION_RE = re.compile(r"^\s*(2\.0\.\d+)\s*$")
_NUM = r"(\d+(?:\.\d+)?)([kKMG]?)"
_FLOAT = r"(\d+(?:\.\d+)?)"
_DIR3_RE = re.compile(
    r"^\s*(read|write|trim|mixed)\s*:\s*IOPS=" + _NUM + r",\s*BW=" + _FLOAT + r"([kKMGTP]?i?B)/s"
    r"(?:\s*\(" + _FLOAT + r"([kKMGTP]?i?B)/s\))?"
)
_DIR2_RE = re.compile(
    r"^\s*(read|write|trim|mixed)\s*:\s*io=\s*"
    + _FLOAT
    + r"\s*([KMGTP]?B),\s*bw=\s*"
    + _FLOAT
    + r"\s*([KMGTP]?B)/s,\s*iops=\s*"
    + _NUM,
    re.IGNORECASE,  # some pastes have the units lower-cased ("bw=260808kb/s")
)
_DIRISH_RE = re.compile(r"^\s*(read|write|trim|mixed)\s*:\s*(IOPS|io)=")
_LAT_RE = re.compile(
    r"^\s*(s|c|)lat\s*\((nsec|usec|msec)\)\s*:\s*min=\s*" + _NUM + r"\s*,\s*max=\s*" + _NUM + r"\s*,\s*avg=\s*" + _NUM
)
_PCT_HEAD_RE = re.compile(r"^\s*(s|c|)lat percentiles\s*\((nsec|usec|msec)\)\s*:")
_PCT_ITEM_RE = re.compile(r"(\d+(?:\.\d+)?)th=\[\s*" + _NUM + r"\s*\]")
_ISSUED_RES = (
    re.compile(r"^\s*issued rwts?:\s*total=(\d+),(\d+)(?:,(\d+))?"),  # 3.x
    re.compile(r"^\s*issued\s*:\s*total=r=(\d+)/w=(\d+)(?:/d=(\d+))?"),  # 2.1-2.x
    re.compile(r"^\s*issued\s+r/w(?:/[dt])?\s*:\s*total=(\d+)/(\d+)(?:/(\d+))?"),  # 2.0.x
)
_SYNC_RE = re.compile(r"^\s*fsync/fdatasync/sync_file_range:|^\s*sync\s*(\(|percentiles)")
_BS_RE = re.compile(r"\((R|W|T)\)\s*(\d+(?:\.\d+)?[KMGT]?i?B?)(?:-\S+)?")
_ERROR_WORDS_RE = re.compile(r"error=([^,)]+)")
_FIO_MESSAGE_RE = re.compile(r"^\s*fio: \S.*$")  # fio's own warnings and errors (stderr in a 2>&1 capture)
_QUOTE_RE = re.compile(r"^(?:\s*>)+ ?")

_UNIT_DIV = {"nsec": 1000.0, "usec": 1.0, "msec": 0.001}  # divide by this to get µs
_SUFFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}
_BYTES_UNIT = {
    "B": 1,
    "kiB": 1024,
    "KiB": 1024,
    "MiB": 1024**2,
    "GiB": 1024**3,
    "TiB": 1024**4,
    "PiB": 1024**5,
    "kB": 1000,
    "KB": 1000,
    "MB": 1000**2,
    "GB": 1000**3,
    "TB": 1000**4,
    "PB": 1000**5,
}
_SYNC_ENGINES = frozenset({"sync", "psync", "vsync", "pvsync", "pvsync2", "mmap"})
_DIR_INDEX = {"read": 0, "write": 1, "trim": 2, "mixed": 0}


def sniff(data: bytes) -> bool:
    head = peek_text(data)
    return bool(re.search(r"\(groupid=\d+, jobs=\d+\): err=", head)) or bool(
        re.search(r"(?m)^[\s>]*\S.*?: \(g=\d+\): rw=\w+", head)
    )


def _n(value: str, suffix: str) -> float:
    return float(value) * _SUFFIX[suffix]


@dataclass
class _Banner:
    rw: str
    bs: dict[str, int]
    ioengine: str
    iodepth: int


@dataclass
class _Dir:
    direction: str
    bandwidth: float
    iops: float
    lat_mean: float | None = None
    lat_max: float | None = None
    clat_mean: float | None = None
    clat_max: float | None = None
    percentiles: dict[str, float] = field(default_factory=dict)
    pct_kind: str = ""

    @property
    def mean(self) -> float | None:
        return self.lat_mean if self.lat_mean is not None else self.clat_mean

    @property
    def max(self) -> float | None:
        return self.lat_max if self.lat_max is not None else self.clat_max


@dataclass
class _Job:
    name: str
    groupid: int
    jobs: int
    date: str | None
    lineno: int
    error: int = 0
    error_text: str = ""
    dirs: list[_Dir] = field(default_factory=list)
    issued: tuple[int, int, int] | None = None
    clones: int = 1  # job blocks folded into this one
    clone_dirs: list[list[_Dir]] = field(default_factory=list)
    clone_issued: list[tuple[int, int, int] | None] = field(default_factory=list)


def _clean(line: str) -> str:
    """A line without Markdown quote markers (``> > ``), which e-mail and forum pastes add."""
    return _QUOTE_RE.sub("", line, count=1) if line.lstrip().startswith(">") else line


def parse(data: bytes, filename: str | None = None, progress: ProgressFn | None = None) -> BenchResult:
    text, encoding = decode(data)
    lines = text.split("\n")
    banners: dict[str, _Banner] = {}
    cloned: set[str] = set()  # job names whose banner is followed by "..." (numjobs > 1)
    last_banner: str | None = None
    job_banner: list[_Banner | None] = []
    jobs: list[_Job] = []
    version: str | None = None
    job: _Job | None = None
    open_block = False  # the last job block has not been closed by "Run status"/"Disk stats"
    current: _Dir | None = None
    in_sync = False
    messages: list[str] = []
    pct: tuple[str, float] | None = None  # (kind, unit factor) while reading a percentile table

    for lineno, raw in enumerate(lines, start=1):
        line = _clean(raw)
        if pct is not None and current is not None:
            items = _PCT_ITEM_RE.findall(line) if line.lstrip().startswith("|") else []
            if items:
                kind, factor = pct
                if not current.percentiles or current.pct_kind == kind:
                    current.pct_kind = kind
                    for key, value, suffix in items:
                        pkey = percentile_key(key)
                        if pkey is not None:
                            current.percentiles[pkey] = _n(value, suffix) / factor
                continue
            pct = None
        m = _BANNER_RE.match(line)
        if m:
            banners[m.group(1)] = _banner(m, lineno)
            last_banner = m.group(1)
            job, open_block = None, False
            continue
        if line.strip() == "..." and last_banner is not None:
            cloned.add(last_banner)
            continue
        m = _VERSION_RE.match(line) or _OLD_VERSION_RE.match(line)
        if m:
            version = version or m.group(1)
            job, open_block = None, False
            continue
        if _FIO_MESSAGE_RE.match(line):
            messages.append(line.strip())
            continue
        m = _HEADER_RE.match(line)
        if m:
            name, gid, njobs = m.group(1), int(m.group(2)), int(m.group(3))
            new = _Job(name=name, groupid=gid, jobs=njobs, date=_date(m.group(6)), lineno=lineno)
            new.error = int(m.group(4))
            words = _ERROR_WORDS_RE.search(m.group(5) or "")
            new.error_text = words.group(1).strip() if words else ""
            prev = jobs[-1] if jobs else None
            if (
                open_block
                and prev is not None
                and (prev.name, prev.groupid) == (name, gid)
                and njobs == 1
                and prev.jobs == prev.clones
                and (name in cloned or name not in banners)
            ):
                _start_clone(prev, new)  # another clone of the same job (numjobs without group_reporting)
                job = prev
            else:
                job = new
                job.clone_dirs.append(job.dirs)
                job.clone_issued.append(None)
                jobs.append(job)
                job_banner.append(banners.get(name))
            open_block = True
            current, in_sync, pct = None, False, None
            continue
        if job is None:
            continue
        stripped = line.strip()
        if stripped.startswith("Run status group") or stripped.startswith("Disk stats"):
            job, current, open_block = None, None, False
            continue
        m3 = _DIR3_RE.match(line)
        m2 = _DIR2_RE.match(line) if m3 is None else None
        if m3 or m2:
            current = _dir3(m3) if m3 else _dir2(m2, lineno)  # type: ignore[arg-type]
            job.clone_dirs[-1].append(current)
            in_sync = False
            continue
        if _DIRISH_RE.match(line):
            raise ParseError(FORMAT, f"line {lineno}", f"unreadable direction line: {line.strip()!r}")
        if _SYNC_RE.match(line):
            in_sync = True
            continue
        issued = _issued(line)
        if issued is not None:
            job.clone_issued[-1] = issued
            continue
        if in_sync or current is None:
            continue
        m = _LAT_RE.match(line)
        if m:
            kind, unit = m.group(1), m.group(2)
            factor = _UNIT_DIV[unit]
            mx = _n(m.group(5), m.group(6)) / factor
            avg = _n(m.group(7), m.group(8)) / factor
            if kind == "":
                current.lat_mean, current.lat_max = avg, mx
            elif kind == "c":
                current.clat_mean, current.clat_max = avg, mx
            continue
        m = _PCT_HEAD_RE.match(line)
        if m:
            pct = ("clat" if m.group(1) == "c" else "lat" if m.group(1) == "" else "slat", _UNIT_DIV[m.group(2)])
            if pct[0] == "slat":
                pct = None

    for j in jobs:
        _fold(j)
    results: list[TestResult] = []
    warnings: list[str] = []
    for j, b in zip(jobs, job_banner, strict=True):
        job_results = _results(j, b)
        if j.error:
            warnings.append(_error_warning(j, bool(job_results)))
        results.extend(job_results)
    if not results:
        failed = [j for j in jobs if j.error]
        if failed:
            detail = "; ".join(_error_warning(j, False) for j in failed)
            extra = f" fio said: {' / '.join(messages)}" if messages else ""
            raise ParseError(FORMAT, f"line {failed[0].lineno}", f"no job measured anything: {detail}.{extra}")
        raise ParseError(FORMAT, f"line {len(lines)}", "no job results ('NAME: (groupid=…, jobs=…)' blocks) found")
    meta: dict[str, Any] = {"jobs": len(jobs)}
    dates = [j.date for j in jobs if j.date]
    if dates:
        meta["date"] = dates[0]
    if messages:
        meta["messages"] = messages
    return finish_result(TOOL, version, encoding, data, meta, results, warnings, progress)


def _start_clone(job: _Job, clone: _Job) -> None:
    job.clones += 1
    job.jobs += clone.jobs
    job.clone_dirs.append([])
    job.clone_issued.append(None)
    if clone.error and not job.error:
        job.error, job.error_text = clone.error, clone.error_text


def _issued(line: str) -> tuple[int, int, int] | None:
    for regex in _ISSUED_RES:
        m = regex.match(line)
        if m:
            return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    return None


def _error_warning(job: _Job, measured: bool) -> str:
    words = errno_words(job.error, job.error_text)
    outcome = "its figures cover only the I/O done before the error" if measured else "it measured nothing"
    return f"fio job {job.name!r} ended with error {job.error} ({words}); {outcome}"


def _fold(job: _Job) -> None:
    """Merge the directions of a job's clones into ``job.dirs`` and ``job.issued``."""
    if job.clones == 1:
        job.dirs = job.clone_dirs[0]
        job.issued = job.clone_issued[0]
        return
    issued = [i for i in job.clone_issued if i is not None]
    job.issued = (sum(i[0] for i in issued), sum(i[1] for i in issued), sum(i[2] for i in issued)) if issued else None
    merged: list[_Dir] = []
    for direction in ("read", "write", "trim", "mixed"):
        parts = [
            (d, (job.clone_issued[k] or (0, 0, 0))[_DIR_INDEX[direction]])
            for k, dirs in enumerate(job.clone_dirs)
            for d in dirs
            if d.direction == direction
        ]
        if not parts:
            continue
        out = _Dir(
            direction=direction, bandwidth=sum(d.bandwidth for d, _ in parts), iops=sum(d.iops for d, _ in parts)
        )
        timed = [(d, w or 1) for d, w in parts if d.mean is not None]
        if timed:
            total = sum(w for _, w in timed)
            out.lat_mean = sum((d.mean or 0.0) * w for d, w in timed) / total
        maxima = [d.max for d, _ in parts if d.max is not None]
        out.lat_max = max(maxima) if maxima else None
        for d, _ in parts:
            for k, v in d.percentiles.items():
                out.percentiles[k] = max(out.percentiles.get(k, v), v)
        merged.append(out)
    job.dirs = merged


def _date(text: str) -> str | None:
    try:
        return datetime.strptime(" ".join(text.split()), "%a %b %d %H:%M:%S %Y").isoformat()
    except ValueError:
        return None


def _size(text: str) -> int | None:
    """``64.0KiB`` / ``4096B`` / ``4K`` -> bytes (fio banners are 1024-based)."""
    cleaned = text.strip().rstrip("B").replace("i", "")
    return parse_fio_size(cleaned or "0")


def _banner(m: re.Match[str], lineno: int) -> _Banner:
    bs_text = m.group(4)
    sizes: dict[str, int] = {}
    tagged = _BS_RE.findall(bs_text)
    if tagged:
        for tag, size in tagged:
            value = _size(size)
            if value:
                sizes[{"R": "read", "W": "write", "T": "trim"}[tag]] = value
    else:  # fio 2.x: 4K-4K/4K-4K/4K-4K (read/write/trim ranges)
        for direction, part in zip(("read", "write", "trim"), bs_text.split("/"), strict=False):
            value = _size(part.split("-", 1)[0])
            if value:
                sizes[direction] = value
    if not sizes:
        raise ParseError(FORMAT, f"line {lineno}", f"unreadable block size {bs_text!r}")
    return _Banner(rw=m.group(3).split(":", 1)[0], bs=sizes, ioengine=m.group(5), iodepth=int(m.group(6)))


def _dir3(m: re.Match[str]) -> _Dir:
    iops = _n(m.group(2), m.group(3))
    first = (float(m.group(4)), m.group(5))
    second = (float(m.group(6)), m.group(7)) if m.group(6) else None
    chosen = first
    if second is not None and "i" in second[1] and "i" not in first[1]:
        chosen = second  # kb_base=1000 prints SI first; prefer the IEC figure
    return _Dir(direction=m.group(1), bandwidth=chosen[0] * _BYTES_UNIT[chosen[1]], iops=iops)


def _dir2(m: re.Match[str], lineno: int) -> _Dir:
    unit = m.group(5).upper()
    factor = 1024 ** "BKMGTP".index(unit[0]) if unit != "B" else 1  # fio 2: KB = KiB
    return _Dir(direction=m.group(1), bandwidth=float(m.group(4)) * factor, iops=_n(m.group(6), m.group(7)))


def _results(job: _Job, banner: _Banner | None) -> list[TestResult]:
    out: list[TestResult] = []
    for d in job.dirs:
        if d.bandwidth == 0 and d.iops == 0:
            continue
        pattern: Pattern = None
        block: int | None = None
        qd: int | None = None
        if banner is None:
            name = f"{job.name} {d.direction}"
        else:
            pattern = "random" if banner.rw.startswith("rand") else "sequential"
            block = banner.bs.get(d.direction) or next(iter(banner.bs.values()))
            qd = 1 if banner.ioengine.split(":", 1)[0] in _SYNC_ENGINES else banner.iodepth
            extra = ""
            if banner.rw in ("rw", "readwrite", "randrw") and d.direction != "mixed" and job.issued:
                total = job.issued[0] + job.issued[1]
                if total:
                    share = round(100 * job.issued[0] / total)
                    extra = f"R{share}W{100 - share}"
            name = test_name(pattern, block, qd, job.jobs, d.direction, extra)
        out.append(
            TestResult(
                name=name,
                op=d.direction,
                pattern=pattern,
                block_size_bytes=block,
                queue_depth=qd,
                threads=job.jobs,
                bandwidth_bytes_per_s=d.bandwidth,
                iops=d.iops,
                latency_mean_us=d.mean,
                latency_max_us=d.max,
                latency_percentiles_us=dict(d.percentiles),
            )
        )
    return out
