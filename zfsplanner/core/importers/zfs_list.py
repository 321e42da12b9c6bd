"""``zfs list [-p] [-H] [-r] [-t ...] [-o ...]``: one row per dataset.

The header holds each property's column name (``zfs_prop.c``: ``used`` is ``USED``,
``available`` ``AVAIL``, ``recordsize`` ``RECSIZE``, ``compression`` ``COMPRESS``...).
``-H`` drops the header and separates fields with tabs; the columns are then those of
``-o`` on the command line, or the default ``name,used,available,referenced,mountpoint``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .common import Lines, UnreadableOutput

# Column headings (zfs_prop.c) -> property names.
HEADINGS = {
    "NAME": "name", "USED": "used", "AVAIL": "available", "REFER": "referenced", "MOUNTPOINT": "mountpoint",
    "TYPE": "type", "RECSIZE": "recordsize", "COMPRESS": "compression", "RATIO": "compressratio",
    "REFRATIO": "refcompressratio", "VOLSIZE": "volsize", "VOLBLOCK": "volblocksize", "COPIES": "copies",
    "SYNC": "sync", "SPECIAL_SMALL_BLOCKS": "special_small_blocks", "QUOTA": "quota", "REFQUOTA": "refquota",
    "RESERV": "reservation", "REFRESERV": "refreservation", "LUSED": "logicalused", "LREFER": "logicalreferenced",
    "USEDSNAP": "usedbysnapshots", "USEDDS": "usedbydataset", "USEDCHILD": "usedbychildren",
    "USEDREFRESERV": "usedbyrefreservation", "DNSIZE": "dnodesize", "REDUND_MD": "redundant_metadata",
    "DEDUP": "dedup", "CHECKSUM": "checksum", "ATIME": "atime", "CANMOUNT": "canmount", "MOUNTED": "mounted",
    "ORIGIN": "origin", "CREATION": "creation", "WRITTEN": "written", "ENCRYPTION": "encryption",
    "XATTR": "xattr", "LOGBIAS": "logbias", "PRIMARYCACHE": "primarycache", "SECONDARYCACHE": "secondarycache",
    "GUID": "guid", "VOLMODE": "volmode", "RDONLY": "readonly", "SNAPDIR": "snapdir", "ACLTYPE": "acltype",
}
ALIASES = {"avail": "available", "refer": "referenced", "compress": "compression", "recsize": "recordsize",
           "ratio": "compressratio", "refratio": "refcompressratio", "lused": "logicalused",
           "lrefer": "logicalreferenced", "volblock": "volblocksize", "reserv": "reservation",
           "refreserv": "refreservation", "usedsnap": "usedbysnapshots", "usedds": "usedbydataset",
           "usedchild": "usedbychildren", "usedrefreserv": "usedbyrefreservation", "rdonly": "readonly"}
DEFAULT_COLUMNS = ("name", "used", "available", "referenced", "mountpoint")


class ZfsListError(UnreadableOutput):
    format = "zfs list"


@dataclass(frozen=True)
class DatasetRow:
    name: str
    values: dict[str, str]  # property -> value as printed ("-" kept)
    line: int


def columns_from_option(value: str) -> tuple[str, ...]:
    return tuple(ALIASES.get(c.strip().lower(), c.strip().lower()) for c in value.split(",") if c.strip())


def parse(lines: Lines, *, columns: tuple[str, ...] | None = None, scripted: bool = False) -> list[DatasetRow]:
    body = [(n, t.rstrip("\r")) for n, t in lines if t.strip()]
    if not body:
        raise ZfsListError(lines[0][0] if lines else None, "the output is empty")
    n0, first = body[0]
    words = first.split()
    if first.strip() == "no datasets available":
        raise ZfsListError(n0, "zfs list found no datasets")
    if not scripted and words and words[0] == "NAME":
        cols = []
        for w in words:
            if w not in HEADINGS:
                cols.append(w.lower())  # a user property column keeps its own name
            else:
                cols.append(HEADINGS[w])
        body = body[1:]
    else:
        cols = list(columns or DEFAULT_COLUMNS)
        scripted = True
    if "name" not in cols:
        raise ZfsListError(n0, "the NAME column is needed")
    out: list[DatasetRow] = []
    for n, text in body:
        if scripted:
            fields = text.split("\t")
            if len(fields) != len(cols):
                raise ZfsListError(n, f"expected {len(cols)} tab-separated fields ({', '.join(cols)}), "
                                      f"got {len(fields)}: {text.strip()!r}")
        else:
            fields = text.split()
            if len(fields) > len(cols):
                # Only a last column such as MOUNTPOINT may hold spaces.
                fields = fields[: len(cols) - 1] + [" ".join(fields[len(cols) - 1 :])]
            if len(fields) != len(cols):
                raise ZfsListError(n, f"expected {len(cols)} columns ({', '.join(cols)}), got {len(fields)}")
        values = dict(zip(cols, fields, strict=True))
        out.append(DatasetRow(values["name"], values, n))
    return out
