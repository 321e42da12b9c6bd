"""Compression measured on an uploaded sample: the design page form, "Use this ratio" (the API: tests/compression)."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import SkipFile
from django.test import Client

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.core.compression.measured import measure_compression
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.versions import Version
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services.samples import SampleUploadHandler, compressor_ratio

pytestmark = pytest.mark.django_db

def text_sample(n_bytes=300_000):
    """Repetitive but not trivial text: compresses well, differently per algorithm."""
    lines = [
        f"{i:08d} INFO request id={i * 7919 % 100003} path=/api/designs/{i % 97}/ status=200\n" for i in range(10**5)
    ]
    return "".join(lines).encode()[:n_bytes]


def upload(data, name="sample.log"):
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


@pytest.fixture
def design(team):
    doc = design_document("tank")
    doc["datasets"].append({"name": "tank/vm", "type": "volume", "volsize": "10G"})
    doc["datasets"].append({"name": "tank/logs", "recordsize": "128K", "compression": "zstd"})
    return PoolDesignFactory(team=team, name="tank", document=doc)


# ------------------------------------------------------------------ the upload handler


def test_the_handler_keeps_no_more_than_the_limit():
    handler = SampleUploadHandler(limit=1000)
    handler.new_file("file", "a.bin", "application/octet-stream", None)
    handler.receive_data_chunk(b"a" * 600, 0)
    with pytest.raises(SkipFile):
        handler.receive_data_chunk(b"b" * 600, 600)
    assert handler.too_big
    assert handler.buffer.getbuffer().nbytes == 0


def test_the_handler_skips_a_part_that_declares_a_larger_size():
    handler = SampleUploadHandler(limit=1000)
    with pytest.raises(SkipFile):
        handler.new_file("file", "a.bin", "application/octet-stream", 5000)
    assert handler.too_big


def test_the_handler_ignores_other_file_fields():
    handler = SampleUploadHandler(limit=1000)
    with pytest.raises(SkipFile):
        handler.new_file("other", "a.bin", "application/octet-stream", None)
    assert not handler.too_big


def test_the_handler_returns_the_sample_in_memory():
    handler = SampleUploadHandler(limit=1000)
    handler.new_file("file", "a.bin", "text/plain", None)
    handler.receive_data_chunk(b"hello ", 0)
    handler.receive_data_chunk(b"world", 6)
    f = handler.file_complete(11)
    assert (f.name, f.size, f.read()) == ("a.bin", 11, b"hello world")
    assert isinstance(f.file, io.BytesIO)


# ------------------------------------------------------------------ the design page


def measure(c, design, dataset="tank/logs", data=None, **fields):
    body = {
        "dataset": dataset,
        "file": upload(text_sample() if data is None else data),
        "algorithm": "zstd",
        "recordsize": "128K",
        "ashift": "12",
        "openzfs_version": "2.3",
        **fields,
    }
    return c.post(f"/designs/{design.pk}/measure/", body, HTTP_HX_REQUEST="true")


def test_the_page_has_a_form_per_filesystem_dataset(design, bob, web):
    html = web(bob).get(f"/designs/{design.pk}/").content.decode()
    assert 'data-dataset="tank/data"' in html and 'data-dataset="tank/logs"' in html
    assert 'id="measure-2" data-dataset="tank/vm"' not in html and 'data-dataset="tank/vm">\n      <h3>' not in html
    assert html.count('<div class="sample" id="measure-') == 2  # not for the volume
    logs = html[html.index('data-dataset="tank/logs"') :]
    assert 'name="algorithm" value="zstd"' in logs
    assert 'name="recordsize" value="128K"' in logs
    assert 'name="ashift" value="12"' in logs
    data = html[html.index('data-dataset="tank/data"') :]
    assert 'name="algorithm" value="lz4"' in data and 'name="recordsize" value="1M"' in data


def test_a_child_s_sample_form_starts_from_what_it_inherits(team, bob, web):
    """The form is set up with the block size and compression in force: a child that sets neither
    writes with its parent's recordsize=1M and compression=zstd, not 128K and the default."""
    doc = design_document("tank")
    doc["datasets"] = [{"name": "tank/media", "recordsize": "1M", "compression": "zstd"}, {"name": "tank/media/films"}]
    pool = PoolDesignFactory(team=team, name="tank", document=doc)
    html = web(bob).get(f"/designs/{pool.pk}/").content.decode()
    films = html[html.index('data-dataset="tank/media/films"') :]
    assert 'name="recordsize" value="1M"' in films
    assert 'name="algorithm" value="zstd"' in films


def test_a_viewer_measures_a_sample(design, bob, web):
    response = measure(web(bob), design)
    assert response.status_code == 200
    html = response.content.decode()
    expected = measure_compression(text_sample(), "zstd", 131072, 12, Version.parse("2.3"))
    assert html.lstrip().startswith('<div class="sample" id="measure-2"')
    assert f"{expected.compressratio:.2f}x" in html
    assert "psize-histogram" in html
    assert f"{expected.blocks}: {expected.compressed_blocks} compressed" in html
    assert "use-ratio" not in html  # viewers can't change the design


def test_an_editor_gets_the_use_this_ratio_button(design, erin, web):
    html = measure(web(erin), design).content.decode()
    expected = compressor_ratio(measure_compression(text_sample(), "zstd", 131072, 12, Version.parse("2.3")))
    assert 'class="use-ratio"' in html
    assert f'name="ratio" value="{expected}"' in html


def test_an_invalid_measurement_is_422_naming_the_field(design, alice, web):
    response = measure(web(alice), design, algorithm="snappy")
    assert response.status_code == 422
    assert "algorithm: " in response.content.decode()
    response = measure(web(alice), design, data=b"")
    assert response.status_code == 422
    assert "file: " in response.content.decode()


def test_a_sample_over_the_limit_is_422(design, alice, web, settings):
    settings.COMPRESSION_SAMPLE_MAX_BYTES = 50_000
    response = measure(web(alice), design, data=text_sample(60_000))
    assert response.status_code == 422
    assert "larger than 48.83 KiB" in response.content.decode()


def test_an_unknown_or_volume_dataset_is_404(design, alice, web):
    assert measure(web(alice), design, dataset="tank/nope").status_code == 404
    assert measure(web(alice), design, dataset="tank/vm").status_code == 404


def test_an_outsider_cannot_measure_on_the_design(design, charlie, web):
    assert measure(web(charlie), design).status_code == 404


def test_use_this_ratio_saves_a_new_revision(design, erin, web):
    response = web(erin).post(
        f"/designs/{design.pk}/use-ratio/",
        {"dataset": "tank/logs", "ratio": "3.41", "algorithm": "zstd-3", "recordsize": "131072"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert 'id="revision">revision 2<' in response.content.decode()
    fresh = PoolDesign.objects.get(pk=design.pk)
    assert fresh.revision == 2
    logs = fresh.datasets.get(name="tank/logs")
    assert logs.contents == {"compressibility": {"ratio": 3.41, "algorithm": "zstd-3", "recordsize": "128K"}}
    assert fresh.datasets.get(name="tank/data").contents == {"logical_bytes": 10**12}
    assert parse_design(fresh.to_document()).datasets[2].contents.compressibility.ratio == 3.41


def test_use_this_ratio_keeps_the_other_contents(design, alice, web):
    web(alice).post(
        f"/designs/{design.pk}/use-ratio/",
        {"dataset": "tank/data", "ratio": "2.5", "algorithm": "lz4", "recordsize": "1048576"},
    )
    data = PoolDesign.objects.get(pk=design.pk).datasets.get(name="tank/data")
    assert data.contents == {
        "logical_bytes": 10**12,
        "compressibility": {"ratio": 2.5, "algorithm": "lz4", "recordsize": "1M"},
    }


def test_a_viewer_cannot_use_a_ratio(design, bob, web):
    response = web(bob).post(
        f"/designs/{design.pk}/use-ratio/",
        {"dataset": "tank/logs", "ratio": "3.0", "algorithm": "zstd-3", "recordsize": "131072"},
    )
    assert response.status_code == 403
    assert PoolDesign.objects.get(pk=design.pk).revision == 1


def test_use_this_ratio_rejects_a_ratio_below_one_or_an_unknown_dataset(design, alice, web):
    c = web(alice)
    bad = {"dataset": "tank/logs", "ratio": "0.5", "algorithm": "zstd-3", "recordsize": "131072"}
    assert c.post(f"/designs/{design.pk}/use-ratio/", bad).status_code == 400
    assert c.post(f"/designs/{design.pk}/use-ratio/", {**bad, "ratio": "2", "dataset": "tank/x"}).status_code == 404
    assert PoolDesign.objects.get(pk=design.pk).revision == 1


def test_the_limit_holds_when_csrf_is_checked_from_the_body(design, alice, settings):
    """The sample handler is installed before the CSRF check reads the form fields."""
    settings.COMPRESSION_SAMPLE_MAX_BYTES = 50_000
    c = Client(enforce_csrf_checks=True)
    c.force_login(alice)
    c.get(f"/designs/{design.pk}/")
    token = c.cookies["csrftoken"].value
    body = {
        "csrfmiddlewaretoken": token,
        "dataset": "tank/logs",
        "algorithm": "zstd",
        "recordsize": "128K",
        "ashift": "12",
        "openzfs_version": "2.3",
    }
    too_big = c.post(f"/designs/{design.pk}/measure/", {**body, "file": upload(text_sample(60_000))})
    assert too_big.status_code == 422
    assert "larger than" in too_big.content.decode()
    ok = c.post(f"/designs/{design.pk}/measure/", {**body, "file": upload(text_sample(40_000))})
    assert ok.status_code == 200
    assert c.post(f"/designs/{design.pk}/measure/", {**body, "csrfmiddlewaretoken": "x" * 64}).status_code == 403
