"""Named compressibility profiles: how well typical data compresses, with error bars."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .rules import algorithm_family, split_level


@dataclass(frozen=True)
class CompressibilityProfile:
    """How well a kind of data compresses, per algorithm.

    ``fractions`` maps an algorithm (with level) to compressor output / input for
    full 128 KiB records *before* ZFS rounds to sectors; ``low``/``high`` bound the
    fraction (so the ratio's error bars are 1/high .. 1/low). These are estimates:
    real data of the same kind varies by more than the difference between algorithms.
    """

    name: str
    fractions: Mapping[str, float]
    low: Mapping[str, float]
    high: Mapping[str, float]
    all_zero: bool
    basis: str

    def fraction(self, algorithm: str) -> float:
        return _lookup(self.fractions, algorithm)

    def ratio(self, algorithm: str) -> float:
        f = self.fraction(algorithm)
        return 1.0 if f >= 1.0 or f <= 0 else 1.0 / f

    def ratio_range(self, algorithm: str) -> tuple[float, float]:
        lo, hi = _lookup(self.high, algorithm), _lookup(self.low, algorithm)
        return (1.0 / lo if 0 < lo < 1 else 1.0, 1.0 / hi if 0 < hi < 1 else 1.0)


def _lookup(table: Mapping[str, float], algorithm: str) -> float:
    """Value for ``algorithm``, falling back to the nearest level of the same family."""
    if algorithm in table:
        return table[algorithm]
    fam = algorithm_family(algorithm)
    if fam == "lzjb" or fam == "zle":
        return table.get(fam, table["lz4"])
    level = split_level(algorithm)[1] if "-" in algorithm else 0
    same = [(abs(split_level(k)[1] - level), k) for k in table if "-" in k and algorithm_family(k) == fam]
    if same:
        return table[min(same)[1]]
    return table["lz4"]


def _p(fr: dict[str, float], spread: float) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    low = {k: max(0.0001, v * (1 - spread)) for k, v in fr.items()}
    high = {k: min(1.0, v * (1 + spread)) for k, v in fr.items()}
    return fr, low, high


def _profile(
    name: str, fr: dict[str, float], spread: float, basis: str, all_zero: bool = False
) -> CompressibilityProfile:
    f, lo, hi = _p(fr, spread)
    return CompressibilityProfile(name, f, lo, hi, all_zero, basis)


# Measured with measure_compression() (python-lz4 4.4, zstandard 0.25, zlib) on 128 KiB
# records of real files on a Debian 12 system, before sector rounding; see docs/datasets.md
# ("Compressibility profiles") for the samples and the published figures they agree with.
PROFILES: Mapping[str, CompressibilityProfile] = {
    p.name: p
    for p in (
        _profile(
            "incompressible",
            {"lz4": 1.0, "lzjb": 1.0, "zle": 1.0, "gzip-6": 1.0, "zstd-3": 1.0, "zstd-fast-1": 1.0},
            0.0,
            "random bytes (os.urandom): every compressor gives up; exact",
        ),
        _profile(
            "already-compressed",
            {
                "lz4": 0.97,
                "lzjb": 0.99,
                "zle": 1.0,
                "gzip-1": 0.97,
                "gzip-6": 0.97,
                "gzip-9": 0.97,
                "zstd-1": 0.95,
                "zstd-3": 0.94,
                "zstd-9": 0.944,
                "zstd-19": 0.938,
                "zstd-fast-1": 0.95,
            },
            0.03,
            "measured: 8 MiB of .gz/.png/.xz files under /usr/share (Debian 12): 3-6 % saved on "
            "average, so most records fail the 12.5 % rule and are stored as they are "
            "(compressratio 1.02-1.05x at 128K, ashift 12)",
        ),
        _profile(
            "mixed",
            {
                "lz4": 0.69,
                "lzjb": 0.74,
                "zle": 0.92,
                "gzip-1": 0.64,
                "gzip-6": 0.63,
                "gzip-9": 0.63,
                "zstd-1": 0.63,
                "zstd-3": 0.62,
                "zstd-9": 0.61,
                "zstd-19": 0.6,
                "zstd-fast-1": 0.65,
            },
            0.3,
            "half already-compressed media, half executables/libraries: measured 8 MiB of ELF "
            "files from /usr/bin and /usr/lib (lz4 0.41, zstd-3 0.30) averaged with the "
            "already-compressed sample; a general file share",
        ),
        _profile(
            "text",
            {
                "lz4": 0.392,
                "lzjb": 0.5,
                "zle": 0.99,
                "gzip-1": 0.297,
                "gzip-6": 0.244,
                "gzip-9": 0.242,
                "zstd-1": 0.275,
                "zstd-3": 0.26,
                "zstd-9": 0.234,
                "zstd-19": 0.228,
                "zstd-fast-1": 0.326,
            },
            0.25,
            "measured: 8 MiB of Python 3.11 standard-library sources: lz4 2.44x, zstd-3 3.62x, "
            "gzip-6 3.84x compressratio at 128K records, ashift 12",
        ),
        _profile(
            "logs",
            {
                "lz4": 0.19,
                "lzjb": 0.28,
                "zle": 0.99,
                "gzip-1": 0.137,
                "gzip-6": 0.115,
                "gzip-9": 0.113,
                "zstd-1": 0.123,
                "zstd-3": 0.119,
                "zstd-9": 0.108,
                "zstd-19": 0.098,
                "zstd-fast-1": 0.139,
            },
            0.4,
            "measured: 1.5 MiB of dpkg/apt/alternatives logs from /var/log: lz4 4.9x, zstd-3 7.5x "
            "at 128K records; other log formats vary widely (4-10x)",
        ),
        _profile(
            "database",
            {
                "lz4": 0.5,
                "lzjb": 0.6,
                "zle": 0.8,
                "gzip-1": 0.38,
                "gzip-6": 0.34,
                "gzip-9": 0.335,
                "zstd-1": 0.36,
                "zstd-3": 0.33,
                "zstd-9": 0.3,
                "zstd-19": 0.27,
                "zstd-fast-1": 0.44,
            },
            0.35,
            "SQLite/PostgreSQL-style pages (row data plus free space in each page); 2-3x with lz4 "
            "is the commonly reported figure for OLTP databases on ZFS, much less for "
            "pre-compressed columns",
        ),
        _profile(
            "vm-images",
            {
                "lz4": 0.6,
                "lzjb": 0.66,
                "zle": 0.8,
                "gzip-1": 0.5,
                "gzip-6": 0.47,
                "gzip-9": 0.465,
                "zstd-1": 0.48,
                "zstd-3": 0.46,
                "zstd-9": 0.43,
                "zstd-19": 0.4,
                "zstd-fast-1": 0.55,
            },
            0.35,
            "guest disks holding an OS plus applications (binaries, text, free space that is "
            "not zero); all-zero blocks become holes and are not counted here",
        ),
        _profile(
            "zeros",
            {"lz4": 0.0, "lzjb": 0.0, "zle": 0.0, "gzip-6": 0.0, "zstd-3": 0.0, "zstd-fast-1": 0.0},
            0.0,
            "all-zero blocks: with any compression they become holes and take no space "
            "(zio_write_compress); with compression=off they are written out in full",
            all_zero=True,
        ),
    )
}
