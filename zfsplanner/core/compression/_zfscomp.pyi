"""Type stub of the C extension built from native/zfscomp.c (make native)."""

LZ4: int
ZSTD: int
ZLE: int
LZJB: int

def compressed_size(algorithm: int, block: bytes, d_len: int, level: int = 0, /) -> int | None: ...
def compress(algorithm: int, block: bytes, d_len: int, level: int = 0, /) -> bytes | None: ...
def zstd_version() -> str: ...
