"""The generated zpool/zfs commands: on the design page and at /api/designs/{id}/commands/."""

import pytest
from django.test import Client

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.core.commands.create import all_commands, zpool_create_command
from zfsplanner.core.commands.datasets import zfs_create_commands

pytestmark = pytest.mark.django_db

ZPOOL_CREATE = (
    "zpool create -o ashift=12 tank raidz2 /dev/disk/by-id/ST14000NM001G-1 /dev/disk/by-id/ST14000NM001G-2 "
    "/dev/disk/by-id/ST14000NM001G-3 /dev/disk/by-id/ST14000NM001G-4 /dev/disk/by-id/ST14000NM001G-5 "
    "/dev/disk/by-id/ST14000NM001G-6"
)


def shown(line: str) -> str:
    """A command line as the commands block shows it: its indent, then each word in its span (a device
    path is not broken at a hyphen), one space apart."""
    body = line.lstrip(" ")
    words = " ".join(f'<span class="w">{w}</span>' for w in body.split(" "))
    return f'<span class="line">{line[: len(line) - len(body)]}{words}</span>'


ZPOOL_CREATE_LINES = shown("zpool create -o ashift=12 tank \\") + shown("  raidz2 " + ZPOOL_CREATE.split(" raidz2 ")[1])
ZFS_CREATE = "zfs create -o recordsize=1M -o compression=lz4 tank/data"


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank"))


def url(design, suffix=""):
    return f"/api/designs/{design.pk}/commands/{suffix}"


def test_it_returns_the_commands_as_json(design, bob, client_for):
    response = client_for(bob).get(url(design))
    assert response.status_code == 200
    body = response.json()
    assert body["zpool_create"] == ZPOOL_CREATE
    assert body["zfs_create"] == [ZFS_CREATE]
    assert body["commands"] == [ZPOOL_CREATE, ZFS_CREATE]
    assert body["zpool_add"] == [] and body["zpool_attach"] == []


def test_it_matches_the_core_for_a_design_with_a_special_vdev_and_a_volume(team, alice, client_for):
    doc = design_document("tank")
    doc["vdevs"].append(
        {
            "role": "special",
            "layout": "mirror",
            "width": 2,
            "ashift": 13,
            "disk": {
                "size_bytes": 960197124096,
                "model": "MZ7L3960HCJR",
                "physical_sector_bytes": 4096,
                "media": "ssd",
            },
        }
    )
    doc["datasets"].append({"name": "tank/vm", "type": "volume", "volsize": "100G", "volblocksize": "16K"})
    design = PoolDesignFactory(team=team, name="tank", document=doc)
    body = client_for(alice).get(url(design)).json()
    spec = design.to_spec()
    assert body["commands"] == all_commands(spec)
    assert body["zpool_create"] == zpool_create_command(spec)
    assert body["zfs_create"] == zfs_create_commands(spec)
    # raidz2 pool + a 2-way mirror special of another ashift: OpenZFS 2.3 wants both narrow overrides
    assert body["zpool_add"][0].startswith(
        "zpool add --allow-replication-mismatch --allow-ashift-mismatch -o ashift=13 tank special mirror"
    )
    assert "# zpool add needs --allow-replication-mismatch: without it OpenZFS 2.3 stops with" in body["commands"]
    assert "zfs create -V 100G -o volblocksize=16K tank/vm" in body["zfs_create"]


def test_it_serves_a_shell_script_with_format_txt(design, alice, client_for):
    response = client_for(alice).get(url(design), {"format": "txt"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    lines = text.splitlines()
    assert lines[0] == "#!/bin/sh"
    assert "set -e" in lines
    assert lines[-2:] == [ZPOOL_CREATE, ZFS_CREATE]
    assert "placeholders" in text
    assert text.endswith("\n")


def test_outsiders_get_404(design, charlie, client_for):
    assert client_for(charlie).get(url(design)).status_code == 404
    assert client_for(charlie).get(url(design), {"format": "txt"}).status_code == 404


def test_it_needs_a_login(design, api_client):
    assert api_client.get(url(design)).status_code in (401, 403)


def test_it_is_read_only(design, alice, client_for):
    assert client_for(alice).post(url(design), {}).status_code == 405


def test_the_design_page_shows_the_commands_card(design, bob):
    web = Client()
    web.force_login(bob)
    html = web.get(f"/designs/{design.pk}/").content.decode()
    assert 'id="commands"' in html
    assert ZPOOL_CREATE_LINES in html  # one line per top-level vdev, as the copy button copies them
    assert shown(ZFS_CREATE) in html
    assert '<pre class="commands-text" id="commands-text" data-commands' in html
    assert 'data-copy-target="#commands-text"' in html
    assert "/dev/disk/by-id/..." in html  # the note that the paths are placeholders
