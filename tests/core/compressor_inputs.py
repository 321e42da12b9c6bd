"""Deterministic blocks for the compressor test vectors (tests/core/data/zfs_compressor_vectors.json).

Every input is generated here from a fixed seed, so the vectors name an input by its
recipe, not by bytes stored in the repository.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

WORDS = (
    b"pool vdev raidz mirror special dataset recordsize compression lz4 zstd gzip ashift sector "
    b"metaslab slop deflate parity padding block pointer indirect dnode zap directory file the a of to "
    b"in and is for on with that by this be are from or as at 0 1 2 3 4 5 6 7 8 9 { } [ ] ( ) ; : , ."
).split()


def _stream(seed: int):
    """xorshift64* bytes: stable across Python versions."""
    x = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF
    while True:
        x ^= x >> 12
        x ^= (x << 25) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 27
        yield (x * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF


def noise(n: int, seed: int) -> bytes:
    words = _stream(seed)
    return b"".join(next(words).to_bytes(8, "little") for _ in range((n + 7) // 8))[:n]


def text(n: int, seed: int) -> bytes:
    out = bytearray()
    for v in _stream(seed):
        out += WORDS[v % len(WORDS)]
        out += b"\n" if (v >> 20) % 11 == 0 else b" "
        if (v >> 40) % 97 == 0:
            out += str(v % 100000).encode()
        if len(out) >= n:
            return bytes(out[:n])
    raise AssertionError


def records(n: int, seed: int) -> bytes:
    """Fixed-width rows with counters and a little noise, like a database page or a log."""
    out = bytearray()
    i = 0
    for v in _stream(seed):
        row = b"%08d|%-12s|%016x|" % (i, WORDS[v % len(WORDS)], v >> 16 if (v & 7) == 0 else i * 4096)
        out += row + b"\n"
        i += 1
        if len(out) >= n:
            return bytes(out[:n])
    raise AssertionError


def mixed(n: int, seed: int) -> bytes:
    """Runs of text, noise and zeros: every branch of the match finders and the size checks."""
    out = bytearray()
    k = 0
    for v in _stream(seed):
        length = 64 + v % 3000
        kind = (v >> 32) % 4
        if kind == 0:
            out += noise(length, seed + k)
        elif kind == 1:
            out += text(length, seed + k)
        elif kind == 2:
            out += bytes(length)
        else:
            out += records(length, seed + k)
        k += 1
        if len(out) >= n:
            return bytes(out[:n])
    raise AssertionError


KINDS = {"noise": noise, "text": text, "records": records, "mixed": mixed}


@lru_cache(maxsize=256)
def make(kind: str, size: int, seed: int, fill: int | None = None) -> bytes:
    """``fill`` bytes of content, zero-padded to ``size`` (a file's tail record)."""
    content = KINDS[kind](size if fill is None else fill, seed)
    return content + bytes(size - len(content))


def digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


# (kind, block size, seed, content bytes or None for a full block)
CASES = [
    (kind, size, seed, fill)
    for kind in KINDS
    for size, fill in (
        (512, None), (4096, None), (8192, 5000), (16384, None), (65536, None), (65546, None),
        (65547, None), (65548, None), (131072, None), (131072, 70000), (1048576, None),
    )
    for seed in (1, 2)
]
