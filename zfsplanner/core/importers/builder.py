"""Reading the outputs of one pool into top-level vdevs, members, sizes and datasets."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..design.types import OPENZFS_VERSIONS, Layout, Partitioning
from ..geometry.ashift import ASHIFT_RANGE
from ..versions import NEWEST_RELEASE, Version, modelled_as
from . import devices, lsblk, zpool_list, zpool_status
from .common import Size, parse_size
from .datasets import dataset_from, root_matters
from .members import (
    CatalogEntry,
    Member,
    TopVdev,
    disk_size_for_partition,
    fit_member_size,
    vdev_size_of,
)
from .outputs import Outputs
from .pool_import import FEATURE_VERSIONS, ROLE_ORDER, ImportProblem
from .tree import find_in_catalog, layout_of, section_of, size_or_none, tree_from_list

# --------------------------------------------------------------------------- the builder


class Builder:
    def __init__(self, found: Outputs, pool_name: str | None, catalog: Sequence[CatalogEntry]) -> None:
        self.found = found
        self.catalog = list(catalog)
        self.notes: list[str] = []
        self.status = self._pick_status(pool_name)
        self.name = self.status.name if self.status else self._pick_list_pool(pool_name).name
        # zpool list (text or -j) before the sizes zpool status -j carries; exact before rounded
        self.lists = sorted((p for p in found.lists if p.name == self.name),
                            key=lambda p: (not (p.size is not None and p.size.exact), p.from_status))
        self.list = self.lists[0] if self.lists else None
        self.pool_props = {p.property: p for p in found.pool_props if p.name == self.name}
        self.vdev_ashifts: dict[str, int] = {}
        self.config_stated: list[tuple[int, str]] = []
        for vp in found.vdev_props:
            if vp.pool in (None, self.name):
                self.vdev_ashifts.update(vp.ashifts())
        self.version = self._version()  # what the outputs say (None: nothing); the design's release:
        self.release = self.version or NEWEST_RELEASE
        self.by_kernel_name = {b.name: b for b in found.blocks}
        self.list_rows = self._list_rows()

    # ---- which pool
    def _pick_status(self, pool_name: str | None) -> zpool_status.PoolStatus | None:
        """The pool to import; the same pool as text and as ``-j`` is one pool (the JSON, with paths, preferred)."""
        pools = self.found.status
        if not pools:
            return None
        names = list(dict.fromkeys(p.name for p in pools))
        if pool_name:
            if pool_name not in names:
                raise ImportProblem(pools[0].line, f"no pool named {pool_name!r} (found {', '.join(names)})")
            chosen = pool_name
        elif len(names) > 1:
            second = next(p for p in pools if p.name == names[1])
            raise ImportProblem(second.line, f"the outputs hold {len(names)} pools ({', '.join(names)}); choose one")
        else:
            chosen = names[0]
        return max((p for p in pools if p.name == chosen), key=lambda p: p.from_json)

    def _pick_list_pool(self, pool_name: str | None) -> zpool_list.PoolList:
        pools = [p for p in self.found.lists if p.vdevs and (pool_name is None or p.name == pool_name)]
        if not pools:
            line = self.found.lists[0].line if self.found.lists else None
            raise ImportProblem(line, "no vdev tree: paste the output of zpool status POOL (or zpool list -v POOL)")
        if len(pools) > 1:
            raise ImportProblem(pools[1].line, f"zpool list shows {len(pools)} pools; choose one")
        if any(r.depth is None for r in pools[0].vdevs):
            raise ImportProblem(pools[0].line, "zpool list -H loses the vdev tree; add zpool status POOL")
        return pools[0]

    # ---- version
    def _version(self) -> Version | None:
        """The release ``zfs version`` (or the pool's features) name: where the outputs' text becomes a version."""
        found = None
        for n, text in self.found.versions:
            m = re.match(r"^zfs-(kmod-)?([0-9]+)\.([0-9]+)(\.[0-9]+)?", text)
            if not m:
                raise ImportProblem(n, f"{text!r} is not a zfs version line (zfs-2.2.2-1)")
            found = f"{m.group(2)}.{m.group(3)}{m.group(4) or ''}"
            if m.group(1):
                break  # the kernel module decides what the pool does
        source = "zfs version"
        if found is None:
            features = {
                p.property.split("@", 1)[1] for p in self.pool_props.values() if p.property.startswith("feature@")
            }
            for version, names in FEATURE_VERSIONS:
                if features & set(names):
                    found = version
                    source = "the features zpool get lists"
                    break
        if found is None:
            self.notes.append(
                f"OpenZFS version not given (add `zfs version` or `zpool get all`): the newest release the "
                f"planner knows, {NEWEST_RELEASE}, is used"
            )
            return None
        if found not in OPENZFS_VERSIONS:
            chosen = modelled_as(found)
            self.notes.append(f"OpenZFS {found} (from {source}) is modelled with the {chosen} rules")
            return Version.parse(chosen)
        self.notes.append(f"OpenZFS {found}, from {source}")
        return Version.parse(found)

    # ---- zpool list -v rows by name
    def _list_rows(self) -> dict[tuple[str, str], zpool_list.ListRow]:
        rows: dict[tuple[str, str], zpool_list.ListRow] = {}
        aliases: dict[tuple[str, str], zpool_list.ListRow] = {}
        for listing in self.lists:
            for r in listing.vdevs:
                for key in ((r.section, r.name), ("*", r.name)):
                    if key not in rows or rows[key].size is None and r.size is not None:
                        rows[key] = r
                # zpool list -P prints /dev/disk/by-id/ata-...-part1 where zpool status prints ata-...
                if r.name.startswith("/dev/"):
                    dev = devices.classify(r.name)
                    for short in {dev.base, dev.disk if dev.partition == 1 else None} - {None, r.name}:
                        for key in ((r.section, str(short)), ("*", str(short))):
                            aliases.setdefault(key, r)
        return aliases | rows

    def _leaves_print_physical_sizes(self) -> bool:
        """Whether this pool's leaves print their physical size as SIZE (OpenZFS 2.2, and 2.1.6+): for the
        rows whose own figures cannot tell (:func:`~.zpool_list.size_is_physical`)."""
        if self.version is not None and self.version >= Version(2, 2):
            return True
        return any(r.depth is not None and r.depth >= 2 and r.size is not None for lst in self.lists for r in lst.vdevs)

    def _top_leaf_sizes(self, row: zpool_list.ListRow | None) -> tuple[Size | None, Size | None]:
        """(the physical size of the device, the vdev's allocatable space) of a disk that is itself a
        top-level vdev: SIZE is the first when it is physical, ALLOC + FREE the second."""
        if row is None:
            return None, None
        physical = zpool_list.size_is_physical(row)
        if physical is None:
            physical = self._leaves_print_physical_sizes()
        if physical:
            return row.size, row.allocatable
        return None, row.allocatable or row.size

    # ---- the tree
    def tree(self) -> list[tuple[str, zpool_status.StatusVdev]]:
        if self.status is not None:
            out = [("data", v) for v in self.status.vdevs]
            for role in ROLE_ORDER[1:]:
                out += [(role, v) for v in self.status.classes.get(role, ())]
            return out
        assert self.list is not None
        return tree_from_list(self.list)

    def members_of(self, role: str, top: zpool_status.StatusVdev) -> list[tuple[zpool_status.StatusVdev, str]]:
        kids = [top] if top.kind in ("leaf", "replacing", "spare") else list(top.children)
        out = []
        for kid in kids:
            if kid.kind == "replacing":
                leaf = kid.children[-1]
                self.notes.append(f"{kid.name}: {kid.children[0].device} is being replaced by {leaf.device}; "
                                  f"the design uses {leaf.device}")
            elif kid.kind == "spare":
                leaf = kid.children[0]
                self.notes.append(f"{kid.name}: hot spare {kid.children[-1].device} stands in for {leaf.device}")
            else:
                leaf = kid
            if leaf.state not in (None, "ONLINE", "AVAIL", "INUSE"):
                self.notes.append(f"{leaf.device} ({role}, {top.name}) is {leaf.state}")
            out.append((leaf, top.name))
        return out

    # ---- one member
    def member(self, leaf: zpool_status.StatusVdev, role: str, vdev: str) -> Member:
        name = leaf.device
        dev = devices.classify(name)
        if leaf.path and dev.platform == "any" and not leaf.name.isdigit():
            # a name that says nothing (a by-partuuid UUID): the full path zpool status -j gives does
            dev = devices.classify(leaf.path)
        block, disk_block = self._block_for(dev)
        whole = dev.is_whole_disk
        if dev.kind == "partition" and dev.partition == 1 and dev.full_path and self._zfs_partitioned(dev, disk_block):
            whole = True  # zpool status -P shows a whole disk by its partition 1
        partitioning = Partitioning.LINUX_WHOLE_DISK if whole else Partitioning.NONE
        info = disk_block or block
        model = (info.model if info else None) or dev.model or leaf.model or None
        serial = (info.serial if info else None) or dev.serial
        log_sec = info.logical_sector if info else None
        phy_sec = info.physical_sector if info else None
        media = None
        if dev.nvme or (info is not None and (info.transport == "nvme" or info.name.startswith("nvme"))):
            media = "nvme"
        elif info is not None and info.rotational is not None:
            media = "hdd" if info.rotational else "ssd"
        size, source = self._size(dev, name, whole, block, disk_block, role, log_sec or 512)
        catalog = find_in_catalog(self.catalog, model, size if whole or dev.platform == "freebsd" else None)
        if size is None and catalog is not None and dev.kind == "disk":
            size, source = catalog.size_bytes, f"the catalog ({catalog.model})"
        return Member(
            name=name,
            state=leaf.state,
            role=role,
            vdev=vdev,
            partitioning=partitioning,
            size_bytes=size,
            size_source=source,
            model=model,
            serial=serial,
            logical_sector=log_sec,
            physical_sector=phy_sec,
            media=media,
            catalog=catalog,
            line=leaf.line,
        )

    def _block_for(self, dev: devices.DeviceName) -> tuple[lsblk.BlockDevice | None, lsblk.BlockDevice | None]:
        """(the lsblk row of the member itself, the lsblk row of its whole disk)."""
        blocks = self.found.blocks
        if not blocks:
            return None, None
        disk_row = None
        if dev.kind == "partition" or dev.full_path:
            direct = self.by_kernel_name.get(dev.base.rsplit("/", 1)[-1])
        else:
            direct = self.by_kernel_name.get(dev.base)
        if dev.serial:
            disk_row = next((b for b in blocks if b.serial and b.serial == dev.serial and b.parent is None), None)
        if disk_row is None and dev.base.startswith("wwn-"):
            wwn = dev.base[4:].split("-part")[0]
            disk_row = next((b for b in blocks if b.wwn and b.wwn == wwn and b.parent is None), None)
        if disk_row is None and dev.disk and dev.disk in self.by_kernel_name:
            disk_row = self.by_kernel_name[dev.disk]
        if direct is not None and direct.parent is None and disk_row is None:
            disk_row = direct
        if direct is None and dev.kind == "partition" and disk_row is not None and dev.partition is not None:
            for candidate in devices.partition_name(disk_row.name, dev.partition):
                if candidate in self.by_kernel_name:
                    direct = self.by_kernel_name[candidate]
                    break
        if direct is not None and direct.parent and direct.parent in self.by_kernel_name and disk_row is None:
            disk_row = self.by_kernel_name[direct.parent]
        if dev.kind == "disk" and direct is None:
            direct = disk_row
        return direct, disk_row

    def _zfs_partitioned(self, dev: devices.DeviceName, disk_row: lsblk.BlockDevice | None) -> bool:
        """A partition 1 next to the 8 MiB partition 9 ``zpool create`` makes on a whole disk."""
        if disk_row is None:
            return dev.platform == "linux"
        nine = [b for b in self.found.blocks if b.parent == disk_row.name and b.name.endswith("9")]
        return any(b.size is not None and b.size.bytes in (8 * 1024**2, 64 * 1024**2) for b in nine)

    def _size(
        self,
        dev: devices.DeviceName,
        listed: str,
        whole: bool,
        block: lsblk.BlockDevice | None,
        disk_block: lsblk.BlockDevice | None,
        role: str,
        lbs: int,
    ) -> tuple[int | None, str]:
        candidates: list[tuple[Size, str]] = []
        if whole and disk_block is not None and disk_block.size is not None:
            candidates.append((disk_block.size, "lsblk"))
        elif not whole and block is not None and block.size is not None:
            candidates.append((block.size, "lsblk"))
        row = self.list_rows.get((section_of(role), listed)) or self.list_rows.get(("*", listed))
        # a member's SIZE is its physical size; a top-level leaf's may be the vdev's allocatable space
        physical = None if row is None else self._top_leaf_sizes(row)[0] if row.depth == 1 else row.size
        if physical is not None:
            if whole:
                disk = disk_size_for_partition(physical.bytes, lbs)
                candidates.append((Size(disk, physical.exact), "zpool list -v (partition 1)"))
            else:
                candidates.append((physical, "zpool list -v"))
        exact = [c for c in candidates if c[0].exact]
        ranked = exact or candidates
        if not ranked:
            return None, "unknown"
        size, source = ranked[0]
        return size.bytes, source if size.exact else f"{source}, rounded as printed"

    # ---- vdevs
    def top_vdevs(self) -> list[TopVdev]:
        out: list[TopVdev] = []
        pool_ashift = self._pool_ashift()
        for role, top in self.tree():
            if top.kind in ("indirect", "draid-spare"):
                continue
            members = [self.member(leaf, role, vdev) for leaf, vdev in self.members_of(role, top)]
            layout, data, spares = layout_of(top)
            if role in ("cache", "spare"):
                layout = Layout.STRIPE
            ashift = (self.vdev_ashifts.get(top.name) or self._config_ashift(top.name)
                      or next((leaf.configured_ashift for leaf, _ in self.members_of_quiet(top)
                               if leaf.configured_ashift), None) or pool_ashift)
            row = self.list_rows.get((section_of(role), top.name))
            if row is None and self.list is not None and self.status is not None:
                row = self._list_row_by_position(role, top)
            vsize = self._top_leaf_sizes(row)[1] if top.kind == "leaf" else row.size if row is not None else None
            out.append(TopVdev(role, top.name, layout, tuple(members), data, spares, ashift, vsize, top.line))
        return out

    def members_of_quiet(self, top: zpool_status.StatusVdev) -> list[tuple[zpool_status.StatusVdev, str]]:
        kids = [top] if top.kind in ("leaf", "replacing", "spare") else list(top.children)
        return [((k.children[-1] if k.kind == "replacing" else k.children[0]) if k.children else k, top.name)
                for k in kids]

    def _list_row_by_position(self, role: str, top: zpool_status.StatusVdev) -> zpool_list.ListRow | None:
        """0.8 prints ``mirror`` rather than ``mirror-0``: match the n-th top-level row of the class."""
        assert self.list is not None and self.status is not None
        section = section_of(role)
        rows = [r for r in self.list.vdevs if r.section == section and r.depth == 1]
        tops = [v for r, v in self.tree() if r == role]
        idx = next((i for i, v in enumerate(tops) if v is top), None)
        if idx is None or idx >= len(rows):
            return None
        cand = rows[idx]
        return cand if cand.name.split("-")[0] == top.name.split("-")[0] else None

    def _config_ashift(self, name: str) -> int | None:
        """The ashift ``zdb -C`` gives the top-level vdev ``name``."""
        for config in self.found.configs:
            if config.name in (None, self.name):
                found = config.ashift_of(name)
                if found:
                    self.config_stated.append((found, name))
                    return found
        return None

    @property
    def ashift_not_requested(self) -> bool:
        """``zpool get ashift`` printed 0: the pool was created without ``-o ashift`` (zpool chose)."""
        p = self.pool_props.get("ashift")
        return p is not None and p.value == "0"

    def _pool_ashift(self) -> int | None:
        p = self.pool_props.get("ashift")
        if p is None or p.value in ("0", "-", ""):
            return None
        if not p.value.isdigit() or int(p.value) not in ASHIFT_RANGE:
            raise ImportProblem(p.line, f"ashift {p.value!r} is not between {ASHIFT_RANGE[0]} and {ASHIFT_RANGE[-1]}")
        return int(p.value)

    def fill_unknown_sizes(self, tops: list[TopVdev]) -> list[TopVdev]:
        """Give members of unknown size the size that reproduces the SIZE the pool reports.

        Whatever stays unknown (``zpool status`` alone) is left for the preview to ask.
        """
        version = self.release
        by_model: dict[tuple[str | None, Partitioning], tuple[int, str]] = {
            (m.model, m.partitioning): (m.size_bytes, m.name) for t in tops for m in t.members
            if m.model and m.size_bytes is not None}
        out = []
        unknown_pool = []
        for top in tops:
            members = tuple(
                replace(m, size_bytes=by_model[(m.model, m.partitioning)][0],
                        size_source=f"as {by_model[(m.model, m.partitioning)][1]}, the same model")
                if m.size_bytes is None and (m.model, m.partitioning) in by_model else m
                for m in top.members
            )
            top = replace(top, members=members)
            missing = [m for m in top.members if m.size_bytes is None]
            if not missing:
                out.append(top)
                continue
            known = [m.size_bytes for m in top.members if m.size_bytes is not None]
            if known:
                fill, source = min(known), "assumed equal to the other members"
            elif top.reported_size is not None:
                partitioning = top.members[0].partitioning
                target = top.reported_size.bytes
                fill = fit_member_size(target, vdev_size_of(top, partitioning, version))
                source = f"fitted to the SIZE zpool list -v reports for {top.name}"
            else:
                unknown_pool.append(len(out))
                out.append(top)
                continue
            members = tuple(replace(m, size_bytes=fill, size_source=source) if m.size_bytes is None else m
                            for m in top.members)
            out.append(replace(top, members=members))
        if unknown_pool:
            out = self._fit_pool(out, unknown_pool, version)
        return out

    def _fit_pool(self, tops: list[TopVdev], indexes: list[int], version: Version) -> list[TopVdev]:
        """Fit the data vdevs' unknown members to the pool's SIZE when they are all alike; the rest is asked."""
        pool_size = self._reported_pool_size()
        indexes = [i for i in indexes if tops[i].role == "data"]
        shapes = {(tops[i].role, tops[i].layout, len(tops[i].members), tops[i].draid_data) for i in indexes}
        if pool_size is None or len(shapes) != 1 or any(
            t.role in ("dedup", "special") and i not in indexes for i, t in enumerate(tops)
        ) or any(m.size_bytes is None for i, t in enumerate(tops) if i not in indexes and t.role == "data"
                 for m in t.members):
            return tops  # the preview asks
        first = tops[indexes[0]]
        others = [t for i, t in enumerate(tops) if i not in indexes and t.role == "data"]
        count = len(indexes)
        partitioning = first.members[0].partitioning

        def pool_size_of(member: int) -> int:
            fixed = sum(vdev_size_of(t, partitioning, version)(m.size_bytes or 0) for t in others
                        for m in t.members[:1])
            return count * vdev_size_of(first, partitioning, version)(member) + fixed

        fill = fit_member_size(pool_size.bytes, pool_size_of)
        source = "fitted to the pool SIZE zpool list reports"
        for i in indexes:
            t = tops[i]
            tops[i] = replace(t, members=tuple(replace(m, size_bytes=fill, size_source=source) for m in t.members))
        return tops

    def _reported_pool_size(self) -> Size | None:
        if self.list is not None and self.list.size is not None:
            return self.list.size
        p = self.pool_props.get("size")
        if p is not None:
            try:
                return parse_size(p.value)
            except ValueError:
                raise ImportProblem(p.line, f"size {p.value!r} is not a size") from None
        return None

    # ---- datasets
    def datasets(self) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
        rows = self._dataset_values()
        docs: list[dict[str, Any]] = []
        reported: dict[str, dict[str, Any]] = {}
        for name, (values, sources, line) in rows.items():
            if "@" in name or "#" in name or not (name == self.name or name.startswith(self.name + "/")):
                continue
            dtype = values.get("type", "volume" if values.get("volsize", "-") not in ("-", "") else "filesystem")
            if dtype not in ("filesystem", "volume"):
                continue
            try:
                version = self.release
                doc, rep = dataset_from(name, dtype, values, sources, self.notes, version)
            except ValueError as exc:
                raise ImportProblem(line, f"{name}: {exc}") from None
            reported[name] = rep
            if name == self.name and not root_matters(doc):
                continue
            docs.append(doc)
        return docs, reported

    def _dataset_values(self) -> dict[str, tuple[dict[str, str], dict[str, str | None], int]]:
        rows: dict[str, tuple[dict[str, str], dict[str, str | None], int]] = {}
        for p in self.found.dataset_props:
            values, sources, _ = rows.setdefault(p.name, ({}, {}, p.line))
            values[p.property] = p.value
            sources[p.property] = p.source
        for r in self.found.datasets:
            values, _, _ = rows.setdefault(r.name, ({}, {}, r.line))
            for k, v in r.values.items():
                values.setdefault(k, v)
        return rows

    def reported(self, tops: list[TopVdev], datasets: dict[str, dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        size = self._reported_pool_size()
        if size is not None:
            out["zpool_size_bytes"] = size.bytes
            out["zpool_size_exact"] = size.exact
        if self.list is not None and self.list.allocated is not None:
            out["zpool_alloc_bytes"] = self.list.allocated.bytes
        elif "allocated" in self.pool_props:
            alloc = size_or_none(self.pool_props["allocated"].value)
            if alloc is not None:
                out["zpool_alloc_bytes"] = alloc.bytes
        root = datasets.get(self.name)
        if root is not None:
            for key in ("zfs_avail_bytes", "zfs_used_bytes", "zfs_avail_exact"):
                if key in root:
                    out[key] = root[key]
        out["vdevs"] = [
            {"index": i, "name": t.name, "role": t.role, "zpool_size_bytes": t.reported_size.bytes,
             "exact": t.reported_size.exact}
            for i, t in enumerate(tops) if t.reported_size is not None
        ]
        out["datasets"] = datasets
        if self.status is not None and self.status.state:
            out["health"] = self.status.state
        return out
