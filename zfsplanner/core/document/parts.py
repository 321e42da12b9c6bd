"""The parts of a design document: disks, vdev groups, contents and datasets, each read and checked."""

from __future__ import annotations

import re
from typing import Any

from ..design.types import (
    COMPRESSIBILITY_PROFILES,
    COMPRESSION_VALUES,
    DATASET_NAME_RE,
    DRAID_LAYOUTS,
    PARITY,
    RAIDZ_LAYOUTS,
    Compressibility,
    Contents,
    Dataset,
    DatasetType,
    Disk,
    Host,
    InvalidDesign,
    Layout,
    Media,
    Partitioning,
    Role,
    Sync,
    TunableValue,
    VdevGroup,
)
from ..geometry.ashift import ASHIFT_MAX, ASHIFT_MIN
from ..geometry.draid import draid_default_data
from ..units import is_power_of_two
from .checks import dataset_pool_problem
from .limits import MAX_FILES, MAX_TOP_LEVEL_VDEVS
from .reader import Reader, extra, join, kind

DISK_KEYS = (
    "size_bytes",
    "model",
    "vendor",
    "logical_sector_bytes",
    "physical_sector_bytes",
    "media",
    "rpm",
    "plp",
    "catalog",
    "watts",
)
MAX_DISK_WATTS = 100.0  # a disk draws a few watts (an HDD 5-10 W, an NVMe SSD up to about 25 W)


def _read_watts(r: Reader, d: Any, path: str) -> float | None:
    """The power a disk draws, in watts: above 0 and at most :data:`MAX_DISK_WATTS`."""
    if not r.given(d, "watts", path):
        return None
    v = d["watts"]
    if isinstance(v, bool) or not isinstance(v, int | float) or not 0 < v <= MAX_DISK_WATTS:
        r.err(join(path, "watts"), f"must be a number of watts above 0 and at most {MAX_DISK_WATTS:g} (got {v!r})")
        return None
    return float(v)


def read_disk(r: Reader, value: Any, path: str) -> Disk | None:
    d = r.obj(value, path)
    if d is None:
        return None
    size = r.disk_size(d, "size_bytes", path, required=True)
    sectors: dict[str, int | None] = {}
    for key in ("logical_sector_bytes", "physical_sector_bytes"):
        s = r.integer(d, key, path)
        if s is not None and (not is_power_of_two(s) or not 512 <= s <= 65536):
            r.err(join(path, key), f"must be a power of two from 512 to 65536 (got {s})")
            s = None
        sectors[key] = s
    ls, ps = sectors["logical_sector_bytes"], sectors["physical_sector_bytes"]
    if ls is not None and ps is not None and ps < ls:
        r.err(join(path, "physical_sector_bytes"), f"({ps}) cannot be smaller than logical_sector_bytes ({ls})")
    plp = d.get("plp")
    if plp is not None and not isinstance(plp, bool):
        r.err(join(path, "plp"), f"must be true or false, not {kind(plp)}")
        plp = None
    if size is None:
        return None
    return Disk(
        size_bytes=size,
        model=r.string(d, "model", path),
        vendor=r.string(d, "vendor", path),
        logical_sector_bytes=ls,
        physical_sector_bytes=ps,
        media=r.choice(d, "media", path, Media),
        rpm=r.integer(d, "rpm", path, lo=0),
        plp=plp,
        catalog=r.string(d, "catalog", path),
        watts=_read_watts(r, d, path),
        extra=extra(d, DISK_KEYS),
        size_text=d["size_bytes"] if isinstance(d["size_bytes"], str) else None,
    )


def disk_from_document(value: Any, path: str = "disk") -> Disk:
    """A disk object read on its own, where it comes in (a catalog entry, a disk the advisor is given);
    :class:`InvalidDesign` names every bad field below ``path``."""
    r = Reader()
    disk = read_disk(r, value, path)
    if r.errors or disk is None:
        raise InvalidDesign(r.errors or [(path, "cannot be read")])
    return disk


VDEV_KEYS = (
    "role",
    "layout",
    "width",
    "count",
    "ashift",
    "draid_data",
    "draid_spares",
    "disk",
    "disks",
    "disk_partitioning",
    "reserved_per_disk_bytes",
    "expanded_from_width",
    "logical_bytes_written_before",
    "price_per_disk",
)

MIN_WIDTH = {
    Layout.STRIPE: 1,
    Layout.MIRROR: 2,
    Layout.RAIDZ1: 2,
    Layout.RAIDZ2: 3,
    Layout.RAIDZ3: 4,
}
DRAID_MAX_SPARES = 100


def read_vdev(r: Reader, value: Any, path: str) -> VdevGroup | None:
    d = r.obj(value, path)
    if d is None:
        return None
    n_err = len(r.errors)
    role = r.choice(d, "role", path, Role, required=True)
    layout = r.choice(d, "layout", path, Layout, required=True)
    width = r.integer(d, "width", path, required=True, lo=1)
    count = r.integer(d, "count", path, lo=1, hi=MAX_TOP_LEVEL_VDEVS)
    ashift = r.integer(d, "ashift", path, lo=ASHIFT_MIN, hi=ASHIFT_MAX)
    draid_data = r.integer(d, "draid_data", path, lo=1)
    draid_spares = r.integer(d, "draid_spares", path, lo=0, hi=DRAID_MAX_SPARES)
    partitioning = r.choice(d, "disk_partitioning", path, Partitioning)
    reserved = r.integer(d, "reserved_per_disk_bytes", path, lo=0)
    expanded_from = r.integer(d, "expanded_from_width", path, lo=1)
    # the design format's first form of the data written before an expansion (a contract): still read, for
    # the expansion report alone; beside the datasets' shares it is refused (parse._written_before_errors)
    written_before = r.integer(d, "logical_bytes_written_before", path, lo=0)
    price = r.price(d, "price_per_disk", path)

    disks: list[Disk] = []
    single = True
    if "disk" in d and "disks" in d:
        r.err(join(path, "disks"), "give either disk or disks, not both")
    elif "disks" in d:
        single = False
        raw = d["disks"]
        if not isinstance(raw, list) or not raw:
            r.err(join(path, "disks"), "must be a non-empty list of disks")
        else:
            for i, item in enumerate(raw):
                disk = read_disk(r, item, f"{join(path, 'disks')}[{i}]")
                if disk is not None:
                    disks.append(disk)
            if width is not None and len(raw) != width:
                r.err(join(path, "disks"), f"lists {len(raw)} disks but disks per vdev is {width}")
    elif "disk" in d:
        disk = read_disk(r, d["disk"], join(path, "disk"))
        if disk is not None and width is not None:
            disks = [disk] * width
    else:
        r.err(join(path, "disk"), "is required (or disks, one per member)")

    if role is not None and layout is not None and width is not None:
        _check_shape(r, path, role, layout, width, draid_data, draid_spares, expanded_from, written_before)
    if len(r.errors) > n_err or role is None or layout is None or width is None:
        return None
    return VdevGroup(
        role=role,
        layout=layout,
        width=width,
        disks=tuple(disks),
        count=count if count is not None else 1,
        ashift=ashift,
        draid_data=draid_data,
        draid_spares=draid_spares,
        disk_partitioning=partitioning,
        reserved_per_disk_bytes=reserved,
        expanded_from_width=expanded_from,
        logical_bytes_written_before=written_before,
        price_per_disk=price,
        single_disk=single,
        extra=extra(d, VDEV_KEYS),
    )


def _check_shape(
    r: Reader,
    path: str,
    role: Role,
    layout: Layout,
    width: int,
    draid_data: int | None,
    draid_spares: int | None,
    expanded_from: int | None,
    written_before: int | None,
) -> None:
    wpath = join(path, "width")
    if layout == Layout.STRIPE and width != 1:
        r.err(
            wpath,
            f"a stripe vdev is a single disk, so disks per vdev must be 1 (got {width}); "
            "for more disks, raise the number of vdevs",
        )
    elif layout in MIN_WIDTH and width < MIN_WIDTH[layout]:
        r.err(wpath, f"{layout.value} needs at least {MIN_WIDTH[layout]} disks (got {width})")
    # the widest raidz and dRAID: limits.structure_errors, before the document is read
    if layout in DRAID_LAYOUTS:
        p = PARITY[layout]
        spares = draid_spares or 0
        data = draid_data if draid_data is not None else draid_default_data(width, spares, p)
        if data < 1:
            r.err(wpath, f"{layout.value} with {spares} spares needs more than {p + spares} children (got {width})")
        elif data + p > width - spares:
            r.err(
                join(path, "draid_data"),
                f"{data} data + {p} parity disks do not fit in {width} children less {spares} spares",
            )
    else:
        if draid_data is not None:
            r.err(join(path, "draid_data"), f"only applies to dRAID, not {layout.value}")
        if draid_spares is not None:
            r.err(join(path, "draid_spares"), f"only applies to dRAID, not {layout.value}")
    if role in (Role.LOG, Role.CACHE, Role.SPARE) and layout not in (Layout.STRIPE, Layout.MIRROR):
        r.err(join(path, "layout"), f"a {role.value} vdev must be stripe or mirror, not {layout.value}")
    if role in (Role.CACHE, Role.SPARE) and layout == Layout.MIRROR:
        r.err(
            join(path, "layout"),
            f"{role.value} devices cannot be mirrored; use stripe, one vdev per device (number of vdevs)",
        )
    if expanded_from is not None:
        if layout not in RAIDZ_LAYOUTS:
            r.err(join(path, "expanded_from_width"), f"RAIDZ expansion only applies to raidz, not {layout.value}")
        elif expanded_from >= width:
            r.err(
                join(path, "expanded_from_width"),
                f"must be smaller than disks per vdev ({width}): expansion only adds disks",
            )
        elif expanded_from < MIN_WIDTH[layout]:
            r.err(join(path, "expanded_from_width"), f"{layout.value} needs at least {MIN_WIDTH[layout]} disks")
    if written_before is not None and expanded_from is None:
        r.err(join(path, "logical_bytes_written_before"), "needs the width before RAIDZ expansion")


CONTENTS_KEYS = (
    "logical_bytes",
    "file_count",
    "file_size_histogram",
    "compressibility",
    "files_per_directory",
    "logical_bytes_written_before",
    "dedup_ratio",
    "cloned_bytes",
)
COMPRESSIBILITY_KEYS = ("profile", "ratio", "algorithm", "recordsize")
BLOCK_HISTOGRAM_KEY = "block_size_histogram"  # kept in the contents' extra keys (core/datasets/blockhist.py)


def read_histogram(
    r: Reader, value: Any, path: str, size_name: str, *, max_count: int | None = None
) -> tuple[tuple[int, int], ...] | None:
    """A histogram a design gives (``file_size_histogram``, ``block_size_histogram``): a list of
    ``[size, count]`` pairs of non-negative integers, ``size_name`` naming the size in the messages,
    each count at most ``max_count``. Every bad pair is an error at its own path; None if any is."""
    if not isinstance(value, list | tuple):
        r.err(path, f"must be a list of [{size_name}, count] pairs")
        return None
    n_err = len(r.errors)
    pairs = []
    for i, pair in enumerate(value):
        if type(pair) is list and len(pair) == 2:  # the usual [int, int], checked without the general test
            size, count = pair
            if type(size) is int and type(count) is int and size >= 0 and count >= 0:
                if max_count is None or count <= max_count:
                    pairs.append((size, count))
                    continue
        ok = (
            isinstance(pair, list | tuple)
            and len(pair) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in pair)
            and (max_count is None or pair[1] <= max_count)
        )
        if not ok:
            r.err(f"{path}[{i}]", f"must be a [{size_name}, count] pair of non-negative integers, not {pair!r}")
        else:
            pairs.append((int(pair[0]), int(pair[1])))
    return tuple(pairs) if len(r.errors) == n_err else None


def read_block_histogram(r: Reader, value: Any, path: str) -> tuple[tuple[int, int], ...] | None:
    """``contents.block_size_histogram``: ``[psize_bytes, count]`` pairs that count at least one block.
    (How many entries a document may give is a limit of :mod:`.limits`, checked before this.)"""
    pairs = read_histogram(r, value, path, "psize_bytes")
    if pairs is not None and not any(n for _, n in pairs):
        r.err(path, "counts no blocks")
        return None
    return pairs


def _dedup_ratio(r: Reader, value: Any, path: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 1 <= value <= 1_000_000:
        r.err(path, f"must be a number of at least 1.0, as zpool list prints DEDUP (got {value!r})")
        return None
    return float(value)


def _read_contents(r: Reader, value: Any, path: str) -> Contents | None:
    d = r.obj(value, path)
    if d is None:
        return None
    hist = None
    if d.get("file_size_histogram") is not None:
        hpath = join(path, "file_size_histogram")
        hist = read_histogram(r, d["file_size_histogram"], hpath, "size_bytes", max_count=MAX_FILES)
    if d.get(BLOCK_HISTOGRAM_KEY) is not None:  # checked here, kept as given for the estimate
        read_block_histogram(r, d[BLOCK_HISTOGRAM_KEY], join(path, BLOCK_HISTOGRAM_KEY))
    comp = None
    if d.get("compressibility") is not None:
        cpath = join(path, "compressibility")
        c = r.obj(d["compressibility"], cpath)
        if c is not None:
            profile = r.string(c, "profile", cpath)
            if profile is not None and profile not in COMPRESSIBILITY_PROFILES:
                r.err(join(cpath, "profile"), f"{profile!r} is not one of {', '.join(COMPRESSIBILITY_PROFILES)}")
            ratio_v = c.get("ratio")
            ratio: float | None = None
            if ratio_v is not None:
                if isinstance(ratio_v, bool) or not isinstance(ratio_v, int | float) or ratio_v < 1:
                    r.err(join(cpath, "ratio"), f"must be a number of at least 1.0 (got {ratio_v!r})")
                else:
                    ratio = float(ratio_v)
            if profile is None and ratio is None:
                r.err(cpath, "needs a profile or a measured ratio")
            comp = Compressibility(
                profile=profile,
                ratio=ratio,
                algorithm=r.string(c, "algorithm", cpath),
                recordsize=r.zfs_size(c, "recordsize", cpath),
                extra=extra(c, COMPRESSIBILITY_KEYS),
            )
    logical = r.integer(d, "logical_bytes", path, lo=0)
    before = r.integer(d, "logical_bytes_written_before", path, lo=0)
    if before is not None and logical is not None and before > logical:
        r.err(
            join(path, "logical_bytes_written_before"),
            f"cannot be more than the data itself ({logical:,} bytes)",
        )
    cloned = r.integer(d, "cloned_bytes", path, lo=0)
    if cloned is not None and logical is not None and cloned > logical:
        r.err(join(path, "cloned_bytes"), f"cannot be more than the data itself ({logical:,} bytes)")
    return Contents(
        logical_bytes=logical,
        file_count=r.integer(d, "file_count", path, lo=0, hi=MAX_FILES),
        file_size_histogram=hist,
        compressibility=comp,
        files_per_directory=r.integer(d, "files_per_directory", path, lo=1),
        logical_bytes_written_before=before,
        dedup_ratio=_dedup_ratio(r, d.get("dedup_ratio"), join(path, "dedup_ratio")),
        cloned_bytes=cloned,
        extra=extra(d, CONTENTS_KEYS),
    )


DATASET_KEYS = (
    "name",
    "type",
    "recordsize",
    "volblocksize",
    "volsize",
    "quota",
    "compression",
    "special_small_blocks",
    "copies",
    "sync",
    "contents",
)


def read_dataset(r: Reader, value: Any, path: str, pool: str | None) -> Dataset | None:
    d = r.obj(value, path)
    if d is None:
        return None
    n_err = len(r.errors)
    name = r.string(d, "name", path, required=True)
    if name is not None:
        outside = dataset_pool_problem(name, pool)
        if not DATASET_NAME_RE.match(name) or len(name) > 255:
            r.err(join(path, "name"), f"{name!r} is not a valid dataset name")
        elif outside is not None:
            r.err(join(path, "name"), outside)
    dtype = r.choice(d, "type", path, DatasetType) or DatasetType.FILESYSTEM
    recordsize = r.zfs_size(d, "recordsize", path)
    volblocksize = r.zfs_size(d, "volblocksize", path)
    for key, block in (("recordsize", recordsize), ("volblocksize", volblocksize)):
        if block is not None and (not is_power_of_two(block) or not 512 <= block <= 16 * 1024**2):
            r.err(join(path, key), "must be a power of two from 512 to 16M")
    volsize = r.zfs_size(d, "volsize", path)
    if dtype == DatasetType.VOLUME:
        if volsize is None:
            r.err(join(path, "volsize"), "is required for a volume")
        elif volsize == 0:  # module/zfs/zvol.c zvol_check_volsize: EINVAL
            r.err(join(path, "volsize"), "must be larger than zero; ZFS refuses an empty volume")
        elif volblocksize is not None and volsize % volblocksize:  # zvol_check_volsize: EINVAL
            r.err(
                join(path, "volsize"),
                f"({volsize:,} bytes) must be a whole number of volblocksize blocks "
                f"({volblocksize:,} bytes); ZFS refuses a volume that ends inside one",
            )
        if recordsize is not None:
            r.err(join(path, "recordsize"), "does not apply to a volume; use volblocksize")
    else:
        if volblocksize is not None:
            r.err(join(path, "volblocksize"), "only applies to a volume; use recordsize")
        if volsize is not None:
            r.err(join(path, "volsize"), "only applies to a volume")
    compression = r.string(d, "compression", path)
    if compression is not None and compression not in COMPRESSION_VALUES:
        r.err(join(path, "compression"), f"{compression!r} is not a ZFS compression value (e.g. lz4, zstd, off)")
    ssb = r.zfs_size(d, "special_small_blocks", path)
    if ssb is not None and ssb > 16 * 1024**2:
        r.err(join(path, "special_small_blocks"), "must be between zero and 16M")
    copies = r.integer(d, "copies", path, lo=1, hi=3)
    contents = _read_contents(r, d["contents"], join(path, "contents")) if d.get("contents") is not None else None
    if len(r.errors) > n_err or name is None:
        return None
    return Dataset(
        name=name,
        type=dtype,
        recordsize=recordsize,
        volblocksize=volblocksize,
        volsize=volsize,
        quota=r.zfs_size(d, "quota", path),
        compression=compression,
        special_small_blocks=ssb,
        copies=copies,
        sync=r.choice(d, "sync", path, Sync),
        contents=contents,
        extra=extra(d, DATASET_KEYS),
    )


HOST_KEYS = ("ram_bytes", "tunables")
_TUNABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_TUNABLE_TEXT_MAX = 256


def read_host(r: Reader, value: Any, path: str = "host") -> Host:
    """``host``: ``{"ram_bytes": N, "tunables": {"zfs_nocacheflush": 1}}``; each part optional."""
    if value is None:
        return Host()
    d = r.obj(value, path)
    if d is None:
        return Host()
    ram = r.integer(d, "ram_bytes", path, lo=1)
    tunables: dict[str, TunableValue] = {}
    raw = d.get("tunables")
    if raw is not None:
        t = r.obj(raw, join(path, "tunables"))
        for name, v in (t or {}).items():
            where = join(join(path, "tunables"), name)
            if not _TUNABLE_NAME.match(name):
                r.err(where, f"{name!r} is not a module parameter name (letters, digits and _)")
            elif isinstance(v, bool | int) or (isinstance(v, str) and len(v) <= _TUNABLE_TEXT_MAX):
                tunables[name] = v
            else:
                r.err(where, f"must be a number, true/false or a short text, not {kind(v)}")
    return Host(ram_bytes=ram, tunables=tunables, extra=extra(d, HOST_KEYS))
