"""Build ``zfsplanner/core/compression/_zfscomp``: OpenZFS's block compressors as a Python extension.

Needs a C compiler and the Python headers. libzstd 1.4.5 (the zstd inside OpenZFS 2.0-2.4)
comes from the sources the PyPI package ``zstd==1.4.5.1`` ships; ``pip download`` fetches
that source archive once into ``native/build/``. Run through ``make native`` (``make test``
and ``make run`` do it); without the extension the measurements fall back to the Python
libraries and say they are approximate.
"""

from __future__ import annotations

import glob
import os
import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUILD = HERE / "build"
ZSTD_PACKAGE = "zstd==1.4.5.1"
ZSTD_DIR = BUILD / "zstd-1.4.5.1"
TARGET = ROOT / "zfsplanner" / "core" / "compression" / f"_zfscomp{sysconfig.get_config_var('EXT_SUFFIX')}"


def zstd_sources() -> Path:
    lib = ZSTD_DIR / "zstd" / "lib"
    if (lib / "zstd.h").exists():
        return lib
    BUILD.mkdir(exist_ok=True)
    archives = sorted(BUILD.glob("zstd-1.4.5.1.tar.gz"))
    if not archives:
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:"]
        subprocess.run([*pip, ZSTD_PACKAGE, "-d", str(BUILD)], check=True)  # noqa: S603 - fixed arguments
        archives = sorted(BUILD.glob("zstd-1.4.5.1.tar.gz"))
    with tarfile.open(archives[0]) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith("zstd-1.4.5.1/zstd/lib/")]
        tar.extractall(BUILD, members=members, filter="data")
    if "#define ZSTD_VERSION_RELEASE  5" not in (lib / "zstd.h").read_text():
        raise SystemExit(f"{lib} is not zstd 1.4.5")
    return lib


def build() -> Path:
    lib = zstd_sources()
    sources = [str(HERE / "zfscomp.c")]
    sources += sorted(glob.glob(str(lib / "common" / "*.c"))) + sorted(glob.glob(str(lib / "compress" / "*.c")))
    sources = [s for s in sources if not s.endswith("zstdmt_compress.c")]
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    cmd = [
        *cc.split(),
        "-O2",
        "-fPIC",
        "-shared",
        "-fvisibility=hidden",
        "-DXXH_NAMESPACE=ZFSPLANNER_",
        f"-I{sysconfig.get_paths()['include']}",
        f"-I{lib}",
        f"-I{lib / 'common'}",
        *sources,
        "-o",
        str(TARGET) + ".tmp",
    ]
    subprocess.run(cmd, check=True)  # noqa: S603 - the compiler with our own sources
    os.replace(str(TARGET) + ".tmp", TARGET)
    return TARGET


if __name__ == "__main__":
    newest = max(Path(p).stat().st_mtime for p in [HERE / "zfscomp.c", Path(__file__)])
    if TARGET.exists() and TARGET.stat().st_mtime >= newest and "--force" not in sys.argv:
        print(f"{TARGET.relative_to(ROOT)} is up to date")
    else:
        print(f"built {build().relative_to(ROOT)}")
