"""fio's normal (human) output, fio 2.x and 3.x, as saved or pasted.

Handles several runs appended to one file, Markdown fences and shell prompts around the
output, ``Jobs:`` progress lines, and per-line unit switching. Units
(shared/reference/benchmark-formats.md §1.4):

* 3.x ``BW=18.8MiB/s (19.7MB/s)``: the IEC figure is used (KiB/MiB/GiB = 1024); when only
  SI is printed (``kb_base=1000``) the SI one (kB/MB = 1000).
* 2.x ``bw=611058KB/s``: ``KB`` means KiB (fio 2's default ``kb_base=1024``).
* ``(nsec)``/``(usec)``/``(msec)`` apply to the line they head; ``k``/``M`` suffixes
  multiply by 1000/10^6 (``IOPS=131k``, ``max=16755k``).

Printed figures are rounded (3 significant digits for bandwidth), so results are less
exact than fio's JSON output. The test shape comes from the banner line
(``NAME: (g=0): rw=randread, bs=(R) 4096B-4096B, …, ioengine=libaio, iodepth=16``) and the
thread count from ``(groupid=0, jobs=8)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .common import ProgressFn, make_source, parse_fio_size, percentile_key, test_name
from .decode import decode, peek_text
from .types import BenchResult, ParseError, Pattern, TestResult

FORMAT = "fio-text"
TOOL = "fio"

_BANNER_RE = re.compile(r"^\s*(\S.*?): \(g=(\d+)\): rw=([\w:]+), bs=(.*?), ioengine=([\w:.-]+), iodepth=(\d+)")
_HEADER_RE = re.compile(r"^\s*(\S.*?): \(groupid=(\d+), jobs=(\d+)\): err=\s*(\d+)[^:]*:(?: pid=\d+:)?\s*(.*)$")
_VERSION_RE = re.compile(r"^\s*fio-(\d+\.\d+(?:\.\d+)?\S*)\s*$")
_OLD_VERSION_RE = re.compile(r"^\s*(2\.0\.\d+)\s*$")
_NUM = r"(\d+(?:\.\d+)?)([kKMG]?)"
_FLOAT = r"(\d+(?:\.\d+)?)"
_DIR3_RE = re.compile(
    r"^\s*(read|write|trim|mixed)\s*:\s*IOPS=" + _NUM + r",\s*BW=" + _FLOAT + r"([kKMGTP]?i?B)/s"
    r"(?:\s*\(" + _FLOAT + r"([kKMGTP]?i?B)/s\))?"
)
_DIR2_RE = re.compile(
    r"^\s*(read|write|trim|mixed)\s*:\s*io="
    + _FLOAT
    + r"([KMGTP]?B),\s*bw="
    + _FLOAT
    + r"([KMGTP]?B)/s,\s*iops="
    + _NUM
)
_DIRISH_RE = re.compile(r"^\s*(read|write|trim|mixed)\s*:\s*(IOPS|io)=")
_LAT_RE = re.compile(
    r"^\s*(s|c|)lat\s*\((nsec|usec|msec)\)\s*:\s*min=\s*" + _NUM + r",\s*max=\s*" + _NUM + r",\s*avg=\s*" + _NUM
)
_PCT_HEAD_RE = re.compile(r"^\s*(s|c|)lat percentiles\s*\((nsec|usec|msec)\)\s*:")
_PCT_ITEM_RE = re.compile(r"(\d+(?:\.\d+)?)th=\[\s*" + _NUM + r"\s*\]")
_ISSUED3_RE = re.compile(r"^\s*issued rwts?:\s*total=(\d+),(\d+)")
_ISSUED2_RE = re.compile(r"^\s*issued\s*:\s*total=r=(\d+)/w=(\d+)")
_SYNC_RE = re.compile(r"^\s*fsync/fdatasync/sync_file_range:|^\s*sync\s*(\(|percentiles)")
_BS_RE = re.compile(r"\((R|W|T)\)\s*(\d+[KMG]?i?B?)(?:-\S+)?")

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


def sniff(data: bytes) -> bool:
    head = peek_text(data)
    return bool(re.search(r"\(groupid=\d+, jobs=\d+\): err=", head)) or bool(
        re.search(r"(?m)^\s*\S.*?: \(g=\d+\): rw=\w+", head)
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


@dataclass
class _Job:
    name: str
    jobs: int
    date: str | None
    dirs: list[_Dir] = field(default_factory=list)
    issued: tuple[int, int] | None = None


def parse(data: bytes, filename: str | None = None, progress: ProgressFn | None = None) -> BenchResult:
    text, encoding = decode(data)
    lines = text.split("\n")
    banners: dict[str, _Banner] = {}
    job_banner: list[_Banner | None] = []
    jobs: list[_Job] = []
    version: str | None = None
    job: _Job | None = None
    current: _Dir | None = None
    in_sync = False
    pct: tuple[str, float] | None = None  # (kind, unit factor) while reading a percentile table

    for lineno, line in enumerate(lines, start=1):
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
            continue
        m = _VERSION_RE.match(line) or _OLD_VERSION_RE.match(line)
        if m:
            version = version or m.group(1)
            continue
        m = _HEADER_RE.match(line)
        if m:
            job = _Job(name=m.group(1), jobs=int(m.group(3)), date=_date(m.group(5)))
            jobs.append(job)
            job_banner.append(banners.get(job.name))
            current, in_sync, pct = None, False, None
            continue
        if job is None:
            continue
        if line.startswith("Run status group") or line.startswith("Disk stats"):
            job, current = None, None
            continue
        m3 = _DIR3_RE.match(line)
        m2 = _DIR2_RE.match(line) if m3 is None else None
        if m3 or m2:
            current = _dir3(m3) if m3 else _dir2(m2, lineno)  # type: ignore[arg-type]
            job.dirs.append(current)
            in_sync = False
            continue
        if _DIRISH_RE.match(line):
            raise ParseError(FORMAT, f"line {lineno}", f"unreadable direction line: {line.strip()!r}")
        if _SYNC_RE.match(line):
            in_sync = True
            continue
        if in_sync or current is None:
            m = _ISSUED3_RE.match(line) or _ISSUED2_RE.match(line)
            if m:
                job.issued = (int(m.group(1)), int(m.group(2)))
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
            continue
        m = _ISSUED3_RE.match(line) or _ISSUED2_RE.match(line)
        if m:
            job.issued = (int(m.group(1)), int(m.group(2)))

    results = [r for j, b in zip(jobs, job_banner, strict=True) for r in _results(j, b)]
    if not results:
        raise ParseError(FORMAT, f"line {len(lines)}", "no job results ('NAME: (groupid=…, jobs=…)' blocks) found")
    meta: dict[str, Any] = {"jobs": len(jobs)}
    dates = [j.date for j in jobs if j.date]
    if dates:
        meta["date"] = dates[0]
    if progress:
        progress(1.0)
    return BenchResult(source=make_source(TOOL, version, encoding, data), meta=meta, results=tuple(results))


def _date(text: str) -> str | None:
    try:
        return datetime.strptime(" ".join(text.split()), "%a %b %d %H:%M:%S %Y").isoformat()
    except ValueError:
        return None


def _banner(m: re.Match[str], lineno: int) -> _Banner:
    bs_text = m.group(4)
    sizes: dict[str, int] = {}
    tagged = _BS_RE.findall(bs_text)
    if tagged:
        for tag, size in tagged:
            value = parse_fio_size(size.rstrip("B").replace("i", "") or "0")
            if value:
                sizes[{"R": "read", "W": "write", "T": "trim"}[tag]] = value
    else:  # fio 2.x: 4K-4K/4K-4K/4K-4K (read/write/trim ranges)
        for direction, part in zip(("read", "write", "trim"), bs_text.split("/"), strict=False):
            value = parse_fio_size(part.split("-", 1)[0].rstrip("B").replace("i", ""))
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
    unit = m.group(5)
    factor = 1024 ** "BKMGTP".index(unit[0]) if unit != "B" else 1  # fio 2: KB = KiB
    return _Dir(direction=m.group(1), bandwidth=float(m.group(4)) * factor, iops=_n(m.group(6), m.group(7)))


def _results(job: _Job, banner: _Banner | None) -> list[TestResult]:
    out: list[TestResult] = []
    for d in job.dirs:
        if d.bandwidth == 0 and d.iops == 0:
            continue
        lat_mean = d.lat_mean if d.lat_mean is not None else d.clat_mean
        lat_max = d.lat_max if d.lat_max is not None else d.clat_max
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
                latency_mean_us=lat_mean,
                latency_max_us=lat_max,
                latency_percentiles_us=dict(d.percentiles),
            )
        )
    return out
