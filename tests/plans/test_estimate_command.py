"""manage.py estimate FILE [FILE ...]: JSON on stdout, exit 2 and stderr for bad input."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.factories import design_document
from zfsplanner.core.estimate import estimate_document

pytestmark = pytest.mark.django_db

DESIGNS = Path(__file__).parent / "designs"


def run(*args):
    out, err = StringIO(), StringIO()
    code = 0
    try:
        call_command("estimate", *map(str, args), stdout=out, stderr=err)
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def design_file(tmp_path):
    def write(doc, name="design.json"):
        path = tmp_path / name
        path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
        return path

    return write


def test_it_prints_the_estimate(design_file):
    code, out, err = run(design_file(design_document()))
    assert code == 0
    assert err == ""
    assert json.loads(out) == estimate_document(design_document())


def test_several_files_give_an_array_in_order(design_file):
    a = design_file(design_document("alpha"), "a.json")
    b = design_file(design_document("beta"), "b.json")
    code, out, _ = run(b, a, DESIGNS / "photos-special.json")
    assert code == 0
    result = json.loads(out)
    assert [r["design"]["name"] for r in result] == ["beta", "alpha", "tank"]


def test_catalog_references_are_resolved(design_file):
    doc = {
        "name": "tank",
        "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "disk": {"catalog": "ST14000NM001G"}}],
    }
    code, out, _ = run(design_file(doc))
    assert code == 0
    assert json.loads(out)["pool"]["raw_bytes"] == 6 * 14_000_519_643_136


def test_invalid_design_exits_2_naming_file_and_field(design_file):
    doc = design_document()
    doc["vdevs"][0]["ashift"] = 20
    path = design_file(doc, "bad.json")
    code, out, err = run(path)
    assert code == 2
    assert out == ""
    assert str(path) in err
    assert "vdevs[0].ashift" in err
    assert "at most 16" in err


def test_one_bad_file_among_several_prints_nothing(design_file):
    good = design_file(design_document(), "good.json")
    bad = design_file({"name": "tank"}, "bad.json")
    code, out, err = run(good, bad)
    assert code == 2
    assert out == ""
    assert "bad.json: vdevs: is required" in err
    assert "good.json" not in err


def test_missing_file_exits_2(tmp_path):
    code, out, err = run(tmp_path / "nope.json")
    assert code == 2
    assert out == ""
    assert "nope.json" in err
    assert "cannot read" in err


def test_invalid_json_exits_2(design_file):
    code, out, err = run(design_file('{"name": "tank",\n  "vdevs": [}', "broken.json"))
    assert code == 2
    assert out == ""
    assert "broken.json: invalid JSON at line 2" in err


def test_unknown_catalog_model_exits_2(design_file):
    doc = {"name": "tank", "vdevs": [{"role": "data", "layout": "stripe", "width": 1, "disk": {"catalog": "ZZ9"}}]}
    code, out, err = run(design_file(doc))
    assert code == 2
    assert out == ""
    assert "vdevs[0].disk.catalog: 'ZZ9' is not a disk in the catalog" in err


def test_it_runs_as_a_real_process(design_file):
    """The exit status and streams as a shell sees them."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    bad = design_file({"name": "tank", "vdevs": "x"}, "bad.json")
    proc = subprocess.run(
        [sys.executable, "manage.py", "estimate", str(bad)], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "vdevs: must be a list" in proc.stderr
