"""The text a real pool of a design would print: the reverse of the importer.

From a design and its estimate: ``zpool status`` and ``zpool list -v -p`` as OpenZFS
2.2+ prints them (``print_status_config()`` / ``collect_list_stats()`` in
``cmd/zpool/zpool_main.c``), ``lsblk -b -o NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA``
and ``zfs get -H -p``. Devices get made-up but consistent names: by-id names
(``ata-<model>_<serial>``, ``-part1`` for partitions) when the model is known, kernel
names (``sda``, ``nvme0n1``) otherwise; serials are ``ZP000001``, ``ZP000002``... The
round trip design -> these texts -> :func:`~zfsplanner.core.importers.import_pool`
gives back the same design (see ``tests/core/importers/test_import_roundtrip.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from zfsplanner.core.design.types import Design, Media, Role
from zfsplanner.core.estimate import Estimate

from .writer_json import (
    zfs_get_json,
    zfs_version_json,
    zfs_version_lines,
    zpool_get_json,
    zpool_list_json,
    zpool_status_json,
)
from .writer_model import (
    CLASS_HEADING,
    LEFT_ALIGNED,
    POOL_PROPERTIES,
    VDEV_FIELDS,
    Top,
    draid_spares,
    list_rows,
    tops_of,
    vdev_fields,
    zfs_get_text,
    zpool_get_properties,
    zpool_get_text,
    zpool_get_vdevs_text,
)


def zpool_status_text(design: Design, estimate: Estimate) -> str:
    """``zpool status POOL`` of a healthy pool of this design."""
    tops = tops_of(design, estimate)
    rows: list[tuple[int, str, str, bool]] = [(0, design.name, "ONLINE", False)]
    headings: list[tuple[int, str]] = []

    def add(top: Top, depth: int) -> None:
        if top.group.layout.value == "stripe" or top.vdev_id is None:
            rows.append((depth, top.leaves[0].name, "ONLINE", False))
            return
        rows.append((depth, top.name, "ONLINE", False))
        rows.extend((depth + 2, leaf.name, "ONLINE", False) for leaf in top.leaves)

    for top in tops:
        if top.group.role == Role.DATA:
            add(top, 2)
    for role in (Role.DEDUP, Role.SPECIAL, Role.LOG):
        chosen = [t for t in tops if t.group.role == role]
        if chosen:
            headings.append((len(rows), f"\t{CLASS_HEADING[role]}\t"))
            for top in chosen:
                add(top, 2)
    cache = [t for t in tops if t.group.role == Role.CACHE]
    if cache:
        headings.append((len(rows), "\tcache"))
        rows.extend((2, t.leaves[0].name, "ONLINE", False) for t in cache)
    spares = [t.leaves[0].name for t in tops if t.group.role == Role.SPARE]
    spares += [s for t in tops if t.group.is_draid for s in draid_spares(t)]
    if spares:
        headings.append((len(rows), "\tspares"))
        rows.extend((2, s, "AVAIL", True) for s in spares)
    width = max(10, *(depth + len(name) for depth, name, _, _ in rows))
    lines = [
        f"  pool: {design.name}",
        " state: ONLINE",
        "config:",
        "",
        f"\t{'NAME':<{width}}  {'STATE':<8} {'READ':>5} {'WRITE':>5} {'CKSUM':>5}",
    ]
    heading_at = dict(headings)
    for i, (depth, name, state, spare) in enumerate(rows):
        if i in heading_at:
            lines.append(heading_at[i])
        row = f"\t{'':{depth}}{name:<{width - depth}}  {state:<8}"
        if not spare:
            row += f" {0:>5} {0:>5} {0:>5}"
        lines.append(row)
    lines += ["", "errors: No known data errors"]
    return "\n".join(lines) + "\n"


def zpool_list_text(design: Design, estimate: Estimate, *, columns: Sequence[str] | None = None,
                    scripted: bool = False) -> str:
    """``zpool list -v -p [-H] [-o COLUMNS] POOL`` of the new pool with the design's contents written.

    As ``collect_pool()``/``collect_list_stats()`` in ``cmd/zpool/zpool_main.c`` print it: the
    pool row has the ``-o`` columns, every vdev row the name and the nine fixed fields (padded
    to ``zprop_width()``, or after tabs with ``-H``; from 2.4 the ``-o`` columns, :func:`vdev_fields`),
    class headings a row of dashes (spaces even with ``-H``). From 2.2 vdev names carry their id
    (``raidz2-0``) and leaves their physical size; before, ``raidz2`` and ``-``.
    """
    cols = tuple(columns or POOL_PROPERTIES)
    pool, rows = list_rows(design, estimate)
    fields = vdev_fields(design, cols)
    namewidth = max(9, len(design.name), *(r.depth + len(r.name) for r in rows if r.kind == "vdev"))
    # each column as wide as its heading, its value and zprop_width() (5 for numbers, 8 for HEALTH)
    least = dict(VDEV_FIELDS)
    widths = {c: max(least.get(c, 0), len(POOL_PROPERTIES.get(c, c.upper())), len(pool.get(c, "-"))) for c in cols}
    widths[cols[0]] = namewidth
    if fields is VDEV_FIELDS:  # printf(dashes, namewidth, class)
        dashes = "      -      -      -        -         -      -      -      -         -"
    else:  # 2.4: print_line(cb, class), a dash right-aligned in each -o column's width
        dashes = "".join(f"  {'-':>{widths[c]}}" for c in cols[1:])
    lines: list[str] = []
    if scripted:
        lines.append("\t".join(pool.get(c, "-") for c in cols))
    else:

        def cells(get: Mapping[str, str]) -> str:
            out = []
            for k, c in enumerate(cols):
                v = get[c]
                last = k == len(cols) - 1
                out.append(v if last and c in LEFT_ALIGNED else f"{v:<{widths[c]}}" if c in LEFT_ALIGNED
                           else f"{v:>{widths[c]}}")
            return "  ".join(out)

        lines.append(cells({c: POOL_PROPERTIES.get(c, c.upper()) for c in cols}))
        lines.append(cells({c: pool.get(c, "-") for c in cols}))
    for r in rows:
        if r.kind == "heading":
            lines.append(f"{r.name:<{namewidth}}{dashes}")
        elif scripted:
            lines.append("\t" + "\t".join([r.name, *(r.values.get(k, "-") for k, _ in fields)]))
        else:
            name = f"{'':{r.depth}}{r.name}"
            lines.append(f"{name:<{namewidth}}" + "".join(f"  {r.values.get(k, '-'):>{w}}" for k, w in fields))
    return "\n".join(lines) + "\n"


def lsblk_text(design: Design, estimate: Estimate) -> str:
    """``lsblk -b -o NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA`` of the pool's disks."""
    rows: list[tuple[str, int, int, int, str, str, str]] = []
    for top in tops_of(design, estimate):
        for leaf in top.leaves:
            d = leaf.disk
            ls, ps = d.logical_sector, d.physical_sector
            rota = "0" if d.media in (Media.SSD, Media.NVME) else "1"
            model = d.model or ""
            if leaf.partitioned:
                rows.append((leaf.kernel, d.size_bytes, ls, ps, model, leaf.serial, rota))
                p = "p" if leaf.kernel.startswith("nvme") else ""
                rows.append((f"├─{leaf.kernel}{p}1", leaf.osize, ls, ps, "", "", rota))
                rows.append((f"└─{leaf.kernel}{p}9", 8 * 1024**2 * ls // 512, ls, ps, "", "", rota))
            else:
                p = "p" if leaf.kernel.startswith("nvme") else ""
                rows.append((leaf.kernel, d.size_bytes + 2 * 1024**2, ls, ps, model, leaf.serial, rota))
                rows.append((f"└─{leaf.kernel}{p}1", d.size_bytes, ls, ps, "", "", rota))
    head = ("NAME", "SIZE", "LOG-SEC", "PHY-SEC", "MODEL", "SERIAL", "ROTA")
    cells = [tuple(str(x) for x in r) for r in rows]
    widths = [max(len(head[i]), *(len(c[i]) for c in cells)) if cells else len(head[i]) for i in range(7)]
    right = (False, True, True, True, False, False, True)

    def line(values: Sequence[str]) -> str:
        parts = [f"{v:>{w}}" if r else f"{v:<{w}}" for v, w, r in zip(values, widths, right, strict=True)]
        return " ".join(parts).rstrip()

    return "\n".join([line(head), *(line(c) for c in cells)]) + "\n"


LIST_FORMS = ("text", "scripted", "json", "none")


def outputs(design: Design, estimate: Estimate, *, disks: bool = True, datasets: bool = True,
            status: str = "text", listing: str = "text", version: bool = True, ashift_requested: bool = True,
            vdev_props: bool = False) -> str:
    """The outputs together, each after its ``$ command`` line, as a user would paste them.

    ``status`` is ``text``, ``json`` (``zpool status -j -p``) or ``none``; ``listing`` is
    ``text`` (``zpool list -v -p``), ``scripted`` (``-v -p -H -o name,size,alloc,free``),
    ``json`` (``zpool list -v -j --json-int``) or ``none``; ``version`` adds ``zfs version``. Not
    ``ashift_requested``: the pool was created without ``-o ashift`` (``zpool get ashift`` prints 0);
    ``vdev_props`` adds ``zpool get -p ashift POOL all-vdevs`` (2.2+), which states each vdev's ashift.
    """
    name = design.name
    parts = {"text": [f"$ zpool status {name}", zpool_status_text(design, estimate)],
             "json": [f"$ zpool status -j -p {name}", zpool_status_json(design, estimate)],
             "none": []}[status]
    parts += {
        "text": [f"$ zpool list -v -p {name}", zpool_list_text(design, estimate)],
        "scripted": [f"$ zpool list -v -p -H -o name,size,alloc,free {name}",
                     zpool_list_text(design, estimate, columns=("name", "size", "allocated", "free"), scripted=True)],
        "json": [f"$ zpool list -v -j --json-int {name}", zpool_list_json(design, estimate, as_int=True)],
        "none": [],
    }[listing]
    props = ",".join(zpool_get_properties(design.release))
    if status == "json":
        parts += ["$ zfs version -j", zfs_version_json(design)] if version else []
        parts += [f"$ zpool get -j -p {props} {name}", zpool_get_json(design, estimate, requested=ashift_requested)]
    else:
        parts += ["$ zfs version", *zfs_version_lines(design)] if version else []
        parts += [f"$ zpool get -H -p {props} {name}", zpool_get_text(design, estimate, requested=ashift_requested)]
    if vdev_props:
        parts += [f"$ zpool get -p ashift {name} all-vdevs", zpool_get_vdevs_text(design, estimate)]
    if disks:
        parts += ["$ lsblk -b -o NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA", lsblk_text(design, estimate)]
    if datasets and design.datasets:
        if status == "json":
            parts += [f"$ zfs get -j -p -r all {name}", zfs_get_json(design, estimate)]
        else:
            parts += [f"$ zfs get -H -p -r all {name}", zfs_get_text(design, estimate)]
    return "\n".join(p.rstrip("\n") for p in parts) + "\n"
