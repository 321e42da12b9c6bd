"""``manage.py parse_benchmark``: JSON and exit 0, or exit 2 and one message."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from .golden import SAMPLES, expected

ROOT = Path(__file__).resolve().parents[2]
CDM = SAMPLES / "crystaldiskmark" / "cdmparser_cdm-8.0.1-x64_default_WD-Blue.txt"


def run(*files: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "parse_benchmark", *map(str, files)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_it_prints_the_normalized_json(capsys):
    call_command("parse_benchmark", str(CDM))
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "zfsplanner.benchmark/1"
    assert doc == expected(CDM)


def test_exit_0_and_json_on_stdout():
    proc = run(CDM)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["results"][0]["name"] == "SEQ1M Q8T1 read"
    assert proc.stderr == ""


def test_several_files_print_a_list():
    dd_log = SAMPLES / "dd" / "vps-comparison_dd_io.log"
    proc = run(CDM, dd_log)
    assert proc.returncode == 0
    assert [d["source"]["tool"] for d in json.loads(proc.stdout)] == ["crystaldiskmark", "dd"]


def test_bad_json_exits_2_naming_format_and_path(tmp_path):
    raw = json.loads((SAMPLES / "fio_json" / "fioplot_fio-2.18_randread_qd1.json").read_text())
    raw["jobs"][0]["read"]["iops"] = "many"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(raw))
    proc = run(bad)
    assert proc.returncode == 2
    assert proc.stdout == ""
    message = proc.stderr.strip()
    assert len(message.splitlines()) == 1
    assert "fio-json" in message and "$.jobs[0].read.iops" in message


def test_truncated_text_exits_2_naming_the_line(tmp_path):
    text = CDM.read_text().replace("485.163 MB/s", "485.1?? MB/s")
    bad = tmp_path / "cdm.txt"
    bad.write_text(text)
    proc = run(bad)
    assert proc.returncode == 2
    assert "crystaldiskmark" in proc.stderr and "line 16" in proc.stderr


def test_unknown_content_exits_2_saying_none_was_recognised(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("just some notes\n")
    proc = run(junk)
    assert proc.returncode == 2
    assert "recognised no benchmark format" in proc.stderr
    assert "line 1" in proc.stderr


def test_call_command_exits_2(tmp_path):
    junk = tmp_path / "x.bin"
    junk.write_bytes(b"\x00\x01\x02")
    with pytest.raises(SystemExit) as exc:
        call_command("parse_benchmark", str(junk))
    assert exc.value.code == 2
