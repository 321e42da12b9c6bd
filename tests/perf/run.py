"""`make bench`: run every tests/perf/bench_*.py and write docs/performance.md.

Each module exposes ``run() -> list[dict]`` with keys name, result, target, ok, command.
Run one module alone with ``python tests/perf/run.py bench_estimate``.
"""

from __future__ import annotations

import datetime as dt
import importlib
import os
import platform
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zfsplanner.settings")


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )


def main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    names = argv or sorted(p.stem for p in here.glob("bench_*.py"))
    rows: list[dict] = []
    for name in names:
        print(f"== {name}", flush=True)
        try:
            module = importlib.import_module(f"tests.perf.{name}")
            for row in module.run():
                rows.append(row)
                print(f"   {'ok  ' if row['ok'] else 'MISS'} {row['name']}: {row['result']} (target {row['target']})")
        except Exception:  # noqa: BLE001 - a broken benchmark is reported, the others still run
            rows.append(
                {
                    "name": name,
                    "result": "error: " + traceback.format_exc(limit=3).splitlines()[-1],
                    "target": "-",
                    "ok": False,
                    "command": f"python tests/perf/run.py {name}",
                }
            )
            traceback.print_exc()
    if not argv:
        write_report(rows)
    return 0 if all(r["ok"] for r in rows) else 1


def write_report(rows: list[dict]) -> None:
    out = ROOT / "docs" / "performance.md"
    lines = [
        "# Performance",
        "",
        "Speed and memory targets are checked by benchmarks, not by timed unit tests.",
        "`make bench` runs every `tests/perf/bench_*.py` and rewrites this file.",
        "",
        f"Last run: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC on {machine()}.",
        "",
        "| benchmark | measured | target | met | command |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['name']} | {r['result']} | {r['target']} | {'yes' if r['ok'] else '**no**'} | `{r['command']}` |"
        )
    notes = ROOT / "docs" / "performance-notes.md"
    if notes.exists():
        lines += ["", notes.read_text().strip()]
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
