"""manage.py import_pool and manage.py histogram."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from tests.core.import_samples import SAMPLES

pytestmark = pytest.mark.django_db


def test_import_pool_prints_the_design(capsys):
    call_command("import_pool", str(SAMPLES / "linux-2.3-raidz2-special-log-cache-spare.txt"))
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["name"] == "tank" and doc["vdevs"][0]["disk"]["catalog"] == "ST16000NM001G"
    assert "note: OpenZFS 2.3" in err


def test_import_pool_reads_several_files(capsys, tmp_path):
    text = (SAMPLES / "calibration-2.3.2-2x-raidz2-6-files.txt").read_text()
    status, rest = text.split("$ zpool list", 1)
    (tmp_path / "status.txt").write_text(status)
    (tmp_path / "list.txt").write_text("$ zpool list" + rest)
    call_command("import_pool", str(tmp_path / "list.txt"), str(tmp_path / "status.txt"), "--indent", "0")
    doc = json.loads(capsys.readouterr().out)
    assert doc["imported"]["reported"]["zpool_size_bytes"] == 1279900254208


def test_import_pool_asks_the_sizes_zpool_status_alone_does_not_give(capsys):
    path = SAMPLES / "manpage-zpool8-example15.txt"
    with pytest.raises(SystemExit) as exc:
        call_command("import_pool", str(path))
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert f"{path}: the size of each data device (sda, sdb, sdc, sdd) is not in the outputs: give it with " \
           "--size q1=SIZE" in err
    call_command("import_pool", str(path), "--size", "q1=4TB", "--size", "q2=16GB")
    doc = json.loads(capsys.readouterr().out)
    assert doc["vdevs"][0]["disk"] == {"size_bytes": 4 * 10**12} and "questions" not in doc["imported"]


def test_import_pool_asks_an_ashift_the_outputs_leave_open(capsys):
    path = SAMPLES / "openzfs-2.3.2-files-mirror-list-H-o.txt"
    with pytest.raises(SystemExit) as exc:
        call_command("import_pool", str(path))
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert f"{path}: the ashift of mirror-0 is not in the outputs and 9, 10, 11, 12, 13, 14, 15, 16 all give the " \
           "sizes they report: give it with --size q1=ASHIFT" in err
    call_command("import_pool", str(path), "--size", "q1=9")
    doc = json.loads(capsys.readouterr().out)
    assert doc["vdevs"][0]["ashift"] == 9 and "questions" not in doc["imported"]


@pytest.mark.parametrize(
    ("size", "message"),
    [("q1=4XB", "Size of each data disk: '4XB' is not a size"),
     ("q9=4TB", "import: no open question 'q9' (the preview asks q1, q2)")],
    ids=["not-a-size", "unknown-question"],
)
def test_import_pool_refuses_an_answer_as_the_page_and_the_api_do(capsys, size, message):
    with pytest.raises(SystemExit) as exc:
        call_command("import_pool", str(SAMPLES / "manpage-zpool8-example15.txt"), "--size", size)
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == "" and message in err


def test_import_pool_exits_2_naming_the_line(capsys, tmp_path):
    path = tmp_path / "status.txt"
    path.write_text((SAMPLES / "manpage-zpool8-example15.txt").read_text().replace("sdc     ONLINE", "sdc  BROKEN"))
    with pytest.raises(SystemExit) as exc:
        call_command("import_pool", str(path))
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert err.startswith(f"{path}: line 12: zpool status: expected a vdev row")


@pytest.mark.parametrize(
    ("data", "problem"),
    [(b"zpool list\n  NAME\x00\n", "line 2: contains a NUL byte"),
     ("zpool list\n".encode("utf-16"), "line 1: is saved as UTF-16")],
    ids=["nul", "utf-16"],
)
def test_import_pool_refuses_a_file_the_upload_would_refuse(data, problem, capsys, tmp_path):
    path = tmp_path / "list.txt"
    path.write_bytes(data)
    with pytest.raises(SystemExit) as exc:
        call_command("import_pool", str(path))
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert err.startswith(f"'{path}', {problem}")


def test_import_pool_names_a_missing_file(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        call_command("import_pool", str(tmp_path / "nope.txt"))
    assert exc.value.code == 2 and "cannot read the file" in capsys.readouterr().err


def test_histogram_prints_the_document(capsys, tmp_path):
    listing = tmp_path / "du.txt"
    listing.write_text("4096\t./a/x\n100\t./a/y\n4196\t./a\n")
    call_command("histogram", str(listing))
    doc = json.loads(capsys.readouterr().out)
    assert doc["file_count"] == 2 and doc["logical_bytes"] == 4196 and doc["files_per_directory"] == 2
    assert doc["file_size_histogram"] == [[100, 1], [4096, 1]] and doc["block_size_histogram"] is None


def test_histogram_reads_zdb(capsys):
    call_command("histogram", str(SAMPLES / "zdb-2.2-LbbbsP.txt"), "--format", "zdb")
    doc = json.loads(capsys.readouterr().out)
    assert doc["file_count"] is None and doc["compressibility"]["ratio"] == pytest.approx(1.5617, abs=1e-4)


def test_histogram_exits_2_naming_the_line(capsys, tmp_path):
    listing = tmp_path / "sizes.txt"
    listing.write_text("1\n2\n3.5\n")
    with pytest.raises(SystemExit) as exc:
        call_command("histogram", str(listing), "--format", "sizes")
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert err.strip() == f"{listing}: line 3: sizes: '3.5' is not a size in bytes"
