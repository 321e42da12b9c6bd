"""Which dataset properties ``zfs create -o`` / ``zpool create -O`` accept, and with which values.

One table, read from OpenZFS ``module/zcommon/zfs_prop.c`` (``zfs_prop_init()``: the value
tables and the dataset types each property is registered for) at the tags ``zfs-0.8.0`` to
``zfs-2.4.0``, plus the checks ``lib/libzfs/libzfs_dataset.c`` (``zfs_valid_proplist()``)
and ``lib/libzfs/libzfs_crypto.c`` (``zfs_crypto_create()``) make before a dataset is
created. Values that appeared in a later release carry that release (``blake3`` 2.2,
``redundant_metadata=some|none`` 2.2, ``snapdir=disabled`` 2.3...), so a design that targets
an older release does not get an option its ``zfs`` rejects.

:func:`property_option` turns one design value into ``name=value`` or raises
:class:`InvalidProperty` with the reason; :func:`encryption_options` decides whether the
encryption properties of one dataset form a set ``zfs create`` accepts (they are emitted
together or not at all). Linux only: FreeBSD's ``jailed`` and its ``edonr`` gap are left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..design.types import COMPRESSION_VALUES, DatasetType
from ..units import MIB, UnitError, format_zfs_size, is_power_of_two, parse_zfs_size
from ..versions import Version, reached

FS = frozenset({DatasetType.FILESYSTEM})
VOL = frozenset({DatasetType.VOLUME})
BOTH = FS | VOL

ON_OFF = ("on", "off")
MIN_PBKDF2_ITERATIONS = 100000  # include/sys/fs/zfs.h
ENCRYPTION_PROPERTIES = ("encryption", "keyformat", "keylocation", "pbkdf2iters")


class InvalidProperty(ValueError):
    """A property value ``zfs create`` would refuse; the message names the property and the reason."""


@dataclass(frozen=True)
class Since:
    """The release that brought a value or property (``source``: the openzfs/zfs commit)."""

    release: Version
    source: str
    backport: Version | None = None

    def has(self, version: Version) -> bool:
        return reached(version, self.release, self.backport)

    def __str__(self) -> str:
        return f"{self.release.major}.{self.release.minor}" + (
            f" (or {self.backport})" if self.backport is not None else ""
        )


@dataclass(frozen=True)
class ZfsProperty:
    """One settable dataset property.

    ``kind`` says how a value is read: ``index`` (one of ``values``), ``size`` (bytes, or one of
    ``values`` such as ``none``), ``mountpoint``, ``keylocation`` or ``iterations``.
    ``since`` gives the first release that accepts a value (values not listed: every release
    the planner supports); ``types_since`` the release from which more dataset types accept it.
    A release is a :class:`Since`: the first release of the change and, when it was backported,
    the point release of an older series that has it too.
    """

    name: str
    types: frozenset[DatasetType]
    kind: str = "index"
    values: tuple[str, ...] = ()
    since: Mapping[str, Since] = field(default_factory=dict)
    property_since: Since | None = None
    types_since: Mapping[Since, frozenset[DatasetType]] = field(default_factory=dict)

    def types_for(self, version: Version) -> frozenset[DatasetType]:
        types = self.types
        for since, more in self.types_since.items():
            if since.has(version):
                types = types | more
        return types


def _p(
    name: str,
    types: frozenset[DatasetType],
    *values: str,
    kind: str = "index",
    since: Mapping[str, Since] | None = None,
    property_since: Since | None = None,
    types_since: Mapping[Since, frozenset[DatasetType]] | None = None,
) -> tuple[str, ZfsProperty]:
    return name, ZfsProperty(name, types, kind, values, since or {}, property_since, types_since or {})


_CHECKSUM = ("on", "off", "fletcher2", "fletcher4", "sha256", "sha512", "skein", "edonr", "blake3")
_DEDUP = (
    "on",
    "off",
    "verify",
    "sha256",
    "sha256,verify",
    "sha512",
    "sha512,verify",
    "skein",
    "skein,verify",
    "edonr,verify",
    "blake3",
    "blake3,verify",
)
_BLAKE3 = Since(Version(2, 2, 0), "985c33b132 'Introduce BLAKE3 checksums as an OpenZFS feature'")
_REDUNDANT_MD = Since(Version(2, 2, 0), "5405be0365 'Add options to zfs redundant_metadata property'", Version(2, 1, 7))
_SNAPDIR_DISABLED = Since(Version(2, 3, 0), "d34d4f97a8 'snapdir: add disabled value to make .zfs inaccessible'")
_PREFETCH = Since(Version(2, 3, 0), "07345ac252 'Add prefetch property'", Version(2, 2, 4))
_DIRECT = Since(Version(2, 3, 0), "a10e552b99 'Adding Direct IO Support'")
_VOLTHREADING = Since(Version(2, 3, 0), "60387facd2 'zvol: Implement zvol threading as a Property'")
_ACL_2_0 = Since(Version(2, 0, 0), "485b50bb9e 'Cross-platform acltype'; a1af567bb6 'Resurrect the aclmode property'")
_ZSTD = Since(Version(2, 0, 0), "10b3c7f5e4 'Add zstd support to zfs'")
_ZVOL_SSB = Since(Version(2, 4, 0), "special_small_blocks for zvols (zfs_prop.c registers it for volumes in 2.4)")

PROPERTIES: Mapping[str, ZfsProperty] = dict(
    [
        # inherited index properties
        _p(
            "redundant_metadata",
            BOTH,
            "all",
            "most",
            "some",
            "none",
            since=dict.fromkeys(("some", "none"), _REDUNDANT_MD),
        ),
        _p("sync", BOTH, "standard", "always", "disabled"),
        _p("checksum", BOTH, *_CHECKSUM, since={"blake3": _BLAKE3}),
        _p("dedup", BOTH, *_DEDUP, since={"blake3": _BLAKE3, "blake3,verify": _BLAKE3}),
        _p("compression", BOTH, *COMPRESSION_VALUES, since={c: _ZSTD for c in COMPRESSION_VALUES if "zstd" in c}),
        _p("snapdir", FS, "hidden", "visible", "disabled", since={"disabled": _SNAPDIR_DISABLED}),
        _p("snapdev", BOTH, "hidden", "visible"),
        _p("aclmode", FS, "discard", "groupmask", "passthrough", "restricted", property_since=_ACL_2_0),
        _p(
            "acltype",
            FS,
            "off",
            "nfsv4",
            "posix",
            "disabled",
            "noacl",
            "posixacl",
            since=dict.fromkeys(("nfsv4", "posix"), _ACL_2_0),
        ),
        _p("aclinherit", FS, "discard", "noallow", "restricted", "passthrough", "secure", "passthrough-x"),
        _p("copies", BOTH, "1", "2", "3"),
        _p("primarycache", BOTH, "all", "none", "metadata"),
        _p("secondarycache", BOTH, "all", "none", "metadata"),
        _p("prefetch", BOTH, "none", "metadata", "all", property_since=_PREFETCH),
        _p("logbias", BOTH, "latency", "throughput"),
        _p("xattr", FS, "on", "off", "dir", "sa"),
        _p("dnodesize", FS, "legacy", "auto", "1k", "2k", "4k", "8k", "16k"),
        _p("volmode", BOTH, "default", "full", "geom", "dev", "none"),
        _p("direct", FS, "disabled", "standard", "always", property_since=_DIRECT),
        _p("atime", FS, *ON_OFF),
        _p("relatime", FS, *ON_OFF),
        _p("devices", FS, *ON_OFF),
        _p("exec", FS, *ON_OFF),
        _p("setuid", FS, *ON_OFF),
        _p("readonly", BOTH, *ON_OFF),
        _p("overlay", FS, *ON_OFF),
        _p("canmount", FS, "on", "off", "noauto"),
        _p("volthreading", VOL, *ON_OFF, property_since=_VOLTHREADING),
        # set-once properties
        _p("normalization", FS, "none", "formC", "formD", "formKC", "formKD"),
        _p("casesensitivity", FS, "sensitive", "insensitive", "mixed"),
        _p("utf8only", FS, *ON_OFF),
        _p("encryption", BOTH, "on", "off", *(f"aes-{b}-{m}" for m in ("ccm", "gcm") for b in (128, 192, 256))),
        _p("keyformat", BOTH, "raw", "hex", "passphrase"),
        _p("keylocation", BOTH, kind="keylocation"),
        _p("pbkdf2iters", BOTH, kind="iterations"),
        _p("mountpoint", FS, kind="mountpoint"),
        # sizes
        _p("quota", FS, "none", kind="size"),
        _p("refquota", FS, "none", kind="size"),
        _p("reservation", BOTH, "none", kind="size"),
        _p("refreservation", BOTH, "none", "auto", kind="size"),
        _p("recordsize", FS, kind="size"),
        _p("volblocksize", VOL, kind="size"),
        _p("special_small_blocks", FS, kind="size", types_since={_ZVOL_SSB: VOL}),
    ]
)

# Keys of a dataset's ``extra`` that are passed to ``zfs create -o`` (the fields the design
# format names, such as recordsize, are written by the command builder itself).
PASSTHROUGH_PROPERTIES = tuple(
    name
    for name in PROPERTIES
    if name not in ("sync", "compression", "copies", "quota", "recordsize", "volblocksize", "special_small_blocks")
)


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int | str):
        return str(value)
    raise InvalidProperty(f"must be a string or a number, not {type(value).__name__}")


def _size_value(prop: ZfsProperty, value: object, dtype: DatasetType) -> str:
    if isinstance(value, str) and value in prop.values:
        if value == "auto" and dtype != DatasetType.VOLUME:
            raise InvalidProperty(f"{prop.name}=auto applies only to volumes")
        return value
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InvalidProperty(f"{prop.name}={_text(value)} is not a size")
    try:
        n = parse_zfs_size(value)
    except UnitError as exc:
        raise InvalidProperty(f"{prop.name}: {exc}") from exc
    return str(format_zfs_size(n))


def _check_special_small_blocks(n: int, version: Version) -> None:
    """Before 2.4, zero or a power of two from 512 to 1M (``zfs_valid_proplist()``); from 2.4, up to 16M."""
    if not _ZVOL_SSB.has(version):
        if n and (not is_power_of_two(n) or not 512 <= n <= MIB):
            raise InvalidProperty(
                f"special_small_blocks={format_zfs_size(n)}: OpenZFS {version.series} accepts only zero "
                "or a power of two from 512 to 1M"
            )
    elif n > 16 * MIB:
        raise InvalidProperty("special_small_blocks must be between zero and 16M")


def property_option(name: str, value: object, dtype: DatasetType, version: Version) -> str:
    """``name=value`` as ``zfs create -o`` takes it, or :class:`InvalidProperty` saying why not.

    JSON ``true``/``false`` become ``on``/``off``; sizes are written in ZFS units.
    """
    prop = PROPERTIES.get(name)
    if prop is None:
        raise InvalidProperty(f"{name!r} is not a ZFS dataset property the planner knows")
    v = version
    if prop.property_since is not None and not prop.property_since.has(v):
        raise InvalidProperty(f"{name} needs OpenZFS {prop.property_since} (the design targets {v.series})")
    if dtype not in prop.types_for(v):
        kind = "filesystems" if dtype == DatasetType.FILESYSTEM else "volumes"
        raise InvalidProperty(f"{name} does not apply to {kind} (OpenZFS {v.series})")
    if prop.kind == "size":
        text = _size_value(prop, value, dtype)
        if name == "special_small_blocks":
            _check_special_small_blocks(parse_zfs_size(text), v)
        return f"{name}={text}"
    text = _text(value)
    if prop.kind == "index":
        if text not in prop.values:
            raise InvalidProperty(f"{name}={text} is not valid; use one of {', '.join(prop.values)}")
        first = prop.since.get(text)
        if first is not None and not first.has(v):
            raise InvalidProperty(f"{name}={text} needs OpenZFS {first} (the design targets {v.series})")
    elif prop.kind == "mountpoint":
        if text not in ("none", "legacy") and not text.startswith("/"):
            raise InvalidProperty(f"mountpoint={text}: must be an absolute path, 'none', or 'legacy'")
        if any(len(part) > 255 for part in text.split("/")):
            raise InvalidProperty("mountpoint: a component is longer than 255 characters")
    elif prop.kind == "keylocation":
        # zfs_prop_valid_keylocation(): "none" only when unencrypted, which is the default anyway
        if not (text == "prompt" or any(len(text) > len(s) and text.startswith(s) for s in _KEY_URIS)):
            raise InvalidProperty(f"keylocation={text}: use prompt, file:///<path>, https://<url> or http://<url>")
    elif prop.kind == "iterations":
        if not text.isdigit() or int(text) < MIN_PBKDF2_ITERATIONS:
            raise InvalidProperty(f"pbkdf2iters={text}: the minimum is {MIN_PBKDF2_ITERATIONS}")
    return f"{name}={text}"


_KEY_URIS = ("file:///", "https://", "http://")


@dataclass(frozen=True)
class EncryptionOptions:
    """The encryption options one dataset gets, whether it ends up encrypted, and what was left out."""

    options: tuple[str, ...] = ()
    encrypted: bool = False
    problem: str | None = None


def encryption_options(
    given: Mapping[str, object], parent_encrypted: bool, dtype: DatasetType, version: Version
) -> EncryptionOptions:
    """The encryption properties of one dataset, complete as ``zfs create`` needs them, or none at all.

    ``given`` holds whichever of encryption, keyformat, keylocation and pbkdf2iters the design
    sets; ``parent_encrypted`` whether the dataset it is created under is encrypted. The
    rules are those of ``zfs_crypto_create()`` (``lib/libzfs/libzfs_crypto.c``):

    * keyformat, keylocation or pbkdf2iters on an unencrypted dataset: "Encryption must be
      turned on to set encryption properties.";
    * a new encryption root (parent unencrypted, or keyformat given) needs keyformat:
      "Keyformat required for new encryption root."; keylocation defaults to ``prompt``;
    * pbkdf2iters only with ``keyformat=passphrase``;
    * a raw key cannot be typed at the prompt ("Cannot enter raw keys on the terminal"),
      so ``keyformat=raw`` needs a file or URL keylocation to run as written.

    ``encryption`` alone under an encrypted parent is complete: the child inherits the key.
    """
    present = {k: given[k] for k in ENCRYPTION_PROPERTIES if k in given and given[k] not in (None, "")}
    if not present:
        return EncryptionOptions(encrypted=parent_encrypted)
    opts: dict[str, str] = {}
    for key, value in present.items():
        try:
            opts[key] = property_option(key, value, dtype, version).split("=", 1)[1]
        except InvalidProperty as exc:
            return _left_out(present, parent_encrypted, str(exc))
    crypt = opts.get("encryption", "on" if parent_encrypted else "off")
    keyformat, keylocation = opts.get("keyformat"), opts.get("keylocation")
    if crypt == "off":
        extra = [k for k in opts if k != "encryption"]
        if extra:
            return _left_out(
                present,
                parent_encrypted,
                f"{', '.join(extra)} without encryption: zfs says 'Encryption must be turned on to set "
                "encryption properties.'",
            )
        return EncryptionOptions(options=("encryption=off",), encrypted=False)
    if keyformat is None and (keylocation is not None or not parent_encrypted):
        return _left_out(
            present,
            parent_encrypted,
            "encryption needs keyformat (raw, hex or passphrase) for a new encryption root: zfs says "
            "'Keyformat required for new encryption root.'",
        )
    if "pbkdf2iters" in opts and keyformat != "passphrase":
        return _left_out(present, parent_encrypted, "pbkdf2iters applies only with keyformat=passphrase")
    if keyformat == "raw" and keylocation in (None, "prompt"):
        return _left_out(
            present,
            parent_encrypted,
            "keyformat=raw needs keylocation=file:///<path> (or an https:// URL): zfs cannot read a raw key "
            "at the prompt ('Cannot enter raw keys on the terminal')",
        )
    options = tuple(f"{k}={opts[k]}" for k in ENCRYPTION_PROPERTIES if k in opts)
    return EncryptionOptions(options=options, encrypted=True)


def _left_out(present: Mapping[str, object], parent_encrypted: bool, why: str) -> EncryptionOptions:
    names = ", ".join(f"{k}={_shown(v)}" for k, v in present.items())
    return EncryptionOptions(encrypted=parent_encrypted, problem=f"left out {names}: {why}")


def _shown(value: object) -> str:
    return _text(value) if isinstance(value, bool | int | str) else repr(value)
