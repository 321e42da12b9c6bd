"""A listing whose lines are not sizes and counts changes nothing: the upload fails naming the
line, and the design keeps its revision and its dataset's contents. (A NUL byte is refused
before anything is stored: tests/uploads/test_hostile_files.py.)"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from zfsplanner.imports.models import HistogramStatus, HistogramUpload
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("listing", "fmt", "line", "message"),
    [
        ("-4096,10\n", "csv", 1, "'-4096' is not a size"),
        (f"4096,{2**63}\n", "csv", 1, "more than a dataset can hold"),
        ("size,count\n", "csv", None, "no file sizes in 1 line(s)"),
        ("\n\n\n", "sizes", None, "no file sizes in 3 line(s)"),
    ],
    ids=["negative-size", "count-2^63", "header-only", "blank"],
)
def test_a_listing_with_a_bad_line_fails_and_changes_no_design(
    listing, fmt, line, message, alice, client_for, design, django_capture_on_commit_callbacks
):
    before = design.datasets.get(name="tank/data").contents
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(alice).post(
            "/api/histogram-uploads/",
            {"design": design.pk, "dataset": "tank/data", "format": fmt,
             "file": SimpleUploadedFile("listing.txt", listing.encode())},
            format="multipart",
        )
    assert r.status_code == 202, r.content
    upload = HistogramUpload.objects.get()
    assert upload.status == HistogramStatus.FAILED, upload.result
    assert upload.error_line == line and message in upload.error
    assert upload.applied_revision is None
    design = PoolDesign.objects.get(pk=design.pk)
    assert design.revision == 1 and design.datasets.get(name="tank/data").contents == before
    status = client_for(alice).get(f"/api/histogram-uploads/{upload.pk}/").json()
    assert status["status"] == "failed" and status["error_line"] == line
