"""What the design's OpenZFS release refuses to build, with the message its tools print.

One list for the estimate's ``zpool-refuses`` risk (and anything else that must say a
design cannot be built as written on that release):

* dRAID before 2.1: ``zpool`` does not know the vdev type and takes the word for a device
  (``make_leaf_vdev()`` in ``cmd/zpool/zpool_vdev.c``);
* a raidz or dRAID special or dedup vdev before 2.4 (``construct_spec()``; openzfs/zfs
  PR #17496 lifted it), via :func:`replication.class_topology_refusal`;
* ``compression=zstd*`` before 2.0: ``zfs create`` rejects the value
  (``zprop_register_index()`` lists ``on | off | lzjb | gzip | gzip-[1-9] | zle | lz4``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..design.types import Design, Role
from ..naming import vdev_type_word
from ..properties import resolve as properties
from ..versions import supports
from .replication import class_topology_refusal

COMPRESSION_VALUES_0_8 = "on | off | lzjb | gzip | gzip-[1-9] | zle | lz4"


@dataclass(frozen=True)
class Refusal:
    subject: str  # vdevs[i] or datasets[i]
    command: str  # the command that stops
    message: str  # what it prints


def refusals(design: Design) -> list[Refusal]:
    v = design.release
    out: list[Refusal] = []
    for i, g in enumerate(design.vdevs):
        if g.is_draid and not supports(v, "draid"):
            word = vdev_type_word(g) or g.layout.value
            out.append(
                Refusal(
                    f"vdevs[{i}]",
                    "zpool create",
                    f"cannot open '{word}': no such device in /dev\nmust be a full path or shorthand device name",
                )
            )
        if g.role in (Role.SPECIAL, Role.DEDUP):
            message = class_topology_refusal(g, v)
            if message is not None:
                out.append(Refusal(f"vdevs[{i}]", "zpool create", message))
    if not supports(v, "zstd"):
        for i, ds in enumerate(design.datasets):
            if ds.compression is not None and ds.compression.startswith("zstd"):
                out.append(
                    Refusal(
                        f"datasets[{i}]",
                        "zfs create",
                        f"cannot create '{ds.name}': 'compression' must be one of '{COMPRESSION_VALUES_0_8}'",
                    )
                )
            elif ds.compression is None and str(properties.value(design, ds, "compression")).startswith("zstd"):
                continue  # the parent's refusal covers it
    return out
