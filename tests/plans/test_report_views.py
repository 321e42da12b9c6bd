"""The design report: page, share link, API downloads and content negotiation, estimate --format."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.core.management import call_command

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.plans.models import ShareLink

pytestmark = pytest.mark.django_db


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank", description="<b>main</b> pool"))


def test_the_report_page_prints_the_whole_report(client, bob, design):
    client.force_login(bob)
    r = client.get(f"/designs/{design.pk}/report/")
    assert r.status_code == 200
    page = r.content.decode()
    assert "<h1>ZFS pool design: tank</h1>" in page
    assert "&lt;b&gt;main&lt;/b&gt; pool" in page and "<b>main</b>" not in page  # the description is escaped
    assert '<div class="overflow-auto" tabindex="0"><table>' in page and "<h2>Risks</h2>" in page
    assert f'href="/api/designs/{design.pk}/report.md"' in page and "imports/report.css" in page
    assert 'id="print-report"' in page and 'id="copy-link"' not in page


def test_outsiders_get_a_404(client, charlie, design):
    client.force_login(charlie)
    assert client.get(f"/designs/{design.pk}/report/").status_code == 404


def test_a_share_link_reads_the_report_without_login(client, design):
    link = ShareLink.objects.create(design=design)
    r = client.get(f"/share/{link.token}/report/")
    assert r.status_code == 200 and r["X-Robots-Tag"] == "noindex, nofollow"
    page = r.content.decode()
    assert "<h1>ZFS pool design: tank</h1>" in page and 'id="copy-link"' in page
    assert f'value="http://testserver/share/{link.token}/report/"' in page
    md = client.get(f"/share/{link.token}/report.md")
    assert md["Content-Type"] == "text/markdown; charset=utf-8"
    assert md["Content-Disposition"] == 'attachment; filename="tank-r1-report.md"'
    assert md.content.decode().startswith("# ZFS pool design: tank")
    rows = list(csv.DictReader(io.StringIO(client.get(f"/share/{link.token}/estimate.csv").content.decode())))
    assert rows[0]["kind"] == "pool" and rows[-1]["name"] == "tank/data"
    assert rows[0]["label"] == "pool tank" and rows[-1]["label"] == "dataset tank/data"
    link.revoked = True
    link.save()
    assert client.get(f"/share/{link.token}/report/").status_code == 404
    assert client.get(f"/share/{link.token}/report.md").status_code == 404


def test_the_api_serves_markdown_and_csv(client_for, bob, design):
    c = client_for(bob)
    md = c.get(f"/api/designs/{design.pk}/report.md")
    assert md.status_code == 200 and md["Content-Type"] == "text/markdown; charset=utf-8"
    assert md["Content-Disposition"] == 'attachment; filename="tank-r1-report.md"'
    assert "## Vdevs" in md.content.decode()
    text = c.get(f"/api/designs/{design.pk}/estimate.csv").content.decode()
    assert text.splitlines()[0].startswith("kind,name,role,layout")


@pytest.mark.parametrize(("accept", "start"), [
    ("text/markdown", "# ZFS pool design"),
    ("text/csv", "kind,name"),
    ("text/html", "<h1>ZFS pool design"),
])
def test_the_report_negotiates_by_accept(client_for, bob, design, accept, start):
    r = client_for(bob).get(f"/api/designs/{design.pk}/report/", HTTP_ACCEPT=accept)
    assert r.status_code == 200 and r["Content-Type"].startswith(accept)
    assert r.content.decode().startswith(start)


def test_the_report_as_json_and_by_query(client_for, bob, design):
    body = client_for(bob).get(f"/api/designs/{design.pk}/report/").json()
    assert set(body) == {"markdown", "csv"}
    r = client_for(bob).get(f"/api/designs/{design.pk}/report/?format=csv")
    assert r.content.decode().startswith("kind,name")


def test_the_api_needs_membership(client_for, charlie, api_client, design):
    assert client_for(charlie).get(f"/api/designs/{design.pk}/report.md").status_code == 404
    assert api_client.get(f"/api/designs/{design.pk}/estimate.csv").status_code in (401, 403)


def test_estimate_command_formats(capsys, tmp_path):
    path = tmp_path / "d.json"
    path.write_text(json.dumps(design_document("tank")))
    call_command("estimate", str(path), "--format", "markdown")
    assert capsys.readouterr().out.startswith("# ZFS pool design: tank")
    call_command("estimate", str(path), str(path), "--format", "csv")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("kind,name") and sum(1 for line in lines if line.startswith("pool,")) == 2
    call_command("estimate", str(path), "--format", "json")
    assert json.loads(capsys.readouterr().out)["format"] == "zfsplanner.estimate/1"


def _visible_raw_keys(html: str) -> list[str]:
    """Field names of the estimate in the text a person reads (tags and attributes left out);
    OpenZFS module parameters (zfs_…) are names a reader looks up, and stay."""
    text = re.sub(r"<[^>]+>", " ", html)
    return [t for t in re.findall(r"\b\w+_(?:bytes|pct|fraction)\w*", text) if not t.startswith("zfs_")]


def test_the_report_page_and_the_design_page_show_no_field_names(client, alice, design):
    client.force_login(alice)
    report_page = client.get(f"/designs/{design.pk}/report/").content.decode()
    assert _visible_raw_keys(report_page) == []
    for words in ("reserve pct", "fill fraction by vdev", "ure per bit"):
        assert words not in report_page.lower()
    assert "<h2>How likely is losing data</h2>" in report_page and "<h3>Assumptions</h3>" in report_page
    page = client.get(f"/designs/{design.pk}/").content.decode()
    details = page.split('id="details"', 1)[1].split("</section>", 1)[0]
    assert _visible_raw_keys(details) == []
    assert "Every other estimate figure" not in page and "fill fraction by vdev" not in page
    assert "Compared with Linux md RAID" in details
