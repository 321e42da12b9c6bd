"""Parse each command output a paste holds, into one bag of parsed results per pool import."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from . import json_outputs, lsblk, props, vdev_props, zdb, zdb_config, zfs_list, zpool_list, zpool_status
from .sections import Section

ZPOOL_ONLY_PROPS = {
    "size", "capacity", "health", "altroot", "ashift", "autoexpand", "fragmentation", "expandsize", "freeing",
    "allocated", "free", "dedupratio", "bootfs", "cachefile", "failmode", "listsnapshots", "autoreplace",
    "delegation", "leaked", "checkpoint", "autotrim", "multihost", "load_guid", "maxblocksize", "maxdnodesize",
    "bcloneused", "bclonesaved", "bcloneratio", "compatibility", "dedup_table_size", "dedup_table_quota",
    "last_scrubbed_txg", "dedupcached",
}


@dataclass
class Outputs:
    """Everything parsed from the user's outputs, by command."""

    status: list[zpool_status.PoolStatus] = field(default_factory=list)
    lists: list[zpool_list.PoolList] = field(default_factory=list)
    pool_props: list[props.Prop] = field(default_factory=list)
    vdev_props: list[vdev_props.VdevProperties] = field(default_factory=list)
    configs: list[zdb_config.PoolConfig] = field(default_factory=list)
    dataset_props: list[props.Prop] = field(default_factory=list)
    datasets: list[zfs_list.DatasetRow] = field(default_factory=list)
    blocks: list[lsblk.BlockDevice] = field(default_factory=list)
    versions: list[tuple[int, str]] = field(default_factory=list)
    histograms: list[zdb.BlockHistogram] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    list_verbose: bool = False


# --------------------------------------------------------------------------- reading sections


def read_sections(sections: Sequence[Section], out: Outputs | None = None) -> Outputs:
    """Parse each section with its reader; errors are the readers' own, naming the line."""
    out = out or Outputs()
    for s in sections:
        cmd = s.command
        first = next((t for _, t in s.lines if t.strip()), "")
        if cmd == "json" or (cmd not in ("lsblk", "zdb") and json_outputs.starts_json(first)):
            cmd = _read_json(s, out)
        elif cmd in ("zpool status", "zpool import"):
            out.status += zpool_status.parse(s.lines)
        elif cmd == "zpool list":
            cols = s.option("o")
            out.lists += zpool_list.parse(
                s.lines,
                columns=zpool_list.columns_from_option(cols) if cols else None,
                scripted=s.flag("H"),
            )
            out.list_verbose = out.list_verbose or s.flag("v") or any(p.vdevs for p in out.lists)
        elif cmd in ("zpool get", "zfs get", "get"):
            cols = s.option("o")
            columns = tuple(c.strip() for c in cols.split(",")) if cols else None
            positionals = _positionals(s)
            if cmd != "zfs get" and vdev_props.is_vdev_output(positionals, s.lines):
                pool = positionals[1] if len(positionals) >= 3 else None
                out.vdev_props.append(vdev_props.parse(s.lines, pool=pool, columns=columns, scripted=s.flag("H")))
                cmd = "zpool get all-vdevs"
            elif cmd == "get":
                _split_get(s, out)
            else:
                parsed = props.parse(s.lines, zpool=cmd == "zpool get", columns=columns, scripted=s.flag("H"))
                (out.pool_props if cmd == "zpool get" else out.dataset_props).extend(parsed)
        elif cmd == "zfs list":
            cols = s.option("o")
            out.datasets += zfs_list.parse(
                s.lines, columns=zfs_list.columns_from_option(cols) if cols else None, scripted=s.flag("H")
            )
        elif cmd == "lsblk":
            out.blocks += lsblk.parse(s.lines)
        elif cmd == "zdb" and zdb_config.is_config(s.lines):
            out.configs += zdb_config.parse(s.lines)
            cmd = "zdb -C"
        elif cmd == "zdb":
            out.histograms.append(zdb.parse(s.lines))
        elif cmd == "version":
            out.versions += [(n, t.strip()) for n, t in s.lines if t.strip()]
        if cmd not in out.sources:
            out.sources.append("zpool get / zfs get" if cmd == "get" else cmd)
    return out


def _read_json(s: Section, out: Outputs) -> str:
    """An output of ``-j``: the same results the text readers give; the command it came from."""
    expected = s.command if s.command != "json" else None
    found = json_outputs.parse(s.lines, expected=expected)
    out.status += found.status
    out.lists += found.lists
    out.pool_props += found.pool_props
    out.dataset_props += found.dataset_props
    out.versions += found.versions
    out.vdev_props += found.vdev_props
    if found.command == "zpool list":
        out.list_verbose = out.list_verbose or any(p.vdevs for p in found.lists)
    return f"{found.command}{' all-vdevs' if found.vdev_props else ''} -j"


def _positionals(s: Section) -> list[str]:
    """The words of a ``get`` command line that are not options: properties, pool, vdevs."""
    out = []
    skip = False
    for a in s.args:
        if skip:
            skip = False
        elif a.startswith("-"):
            skip = not a.startswith("--") and a.endswith("o")  # -o name,value
        else:
            out.append(a)
    return out


def _split_get(s: Section, out: Outputs) -> None:
    """A ``NAME PROPERTY VALUE SOURCE`` output without its command line: pool or dataset properties."""
    parsed = props.parse(s.lines, zpool=False, scripted=not s.lines[0][1].lstrip().startswith("NAME"))
    is_pool = any(p.property in ZPOOL_ONLY_PROPS or p.property.startswith(("feature@", "unsupported@"))
                  for p in parsed)
    is_dataset = any(p.property in ("type", "referenced", "compressratio", "recordsize", "mountpoint")
                     for p in parsed)
    if is_pool and is_dataset:
        current = out.pool_props
        for p in parsed:
            if p.property in ZPOOL_ONLY_PROPS or p.property.startswith(("feature@", "unsupported@")):
                current = out.pool_props
            elif p.property in ("type", "used", "referenced", "available", "recordsize", "mountpoint"):
                current = out.dataset_props
            current.append(p)
    elif is_pool:
        out.pool_props += parsed
    else:
        out.dataset_props += parsed
