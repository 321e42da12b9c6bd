"""Cutting a paste into the outputs it holds, with or without prompt lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.import_samples import text
from zfsplanner.core.importers.common import UnknownOutput
from zfsplanner.core.importers.sections import split


def test_prompt_lines_name_the_command_and_its_options():
    sections = split(text("linux-2.3-raidz2-special-log-cache-spare.txt"))
    assert [s.command for s in sections] == ["zpool status", "zpool list", "zpool get", "zfs get", "lsblk"]
    listing = sections[1]
    assert listing.flag("v") and listing.flag("p") and not listing.flag("H")
    assert listing.prompt_line == 30


def test_options_with_values():
    [s] = split("$ zfs list -Hpo name,used,avail -r tank\ntank\t1\t2\n")
    assert s.option("o") == "name,used,avail" and s.flag("H") and s.flag("p")
    [s] = split("# zfs list -H -o name,compression tank\ntank\tlz4\n")
    assert s.option("o") == "name,compression" and not s.flag("p")


def test_outputs_without_prompts_are_recognised_by_their_first_lines():
    body = "\n".join(
        t for t in text("linux-2.3-raidz2-special-log-cache-spare.txt").splitlines() if not t.startswith("root@")
    )
    assert [s.command for s in split(body)] == ["zpool status", "zpool list", "get", "get", "lsblk"]


def test_terminal_colours_are_ignored():
    [s] = split("$ zpool status\n  \x1b[1mpool:\x1b[0m tank\n \x1b[1mstate: \x1b[0m\x1b[32mONLINE\x1b[0m\n")
    assert s.lines == [(2, "  pool: tank"), (3, " state: ONLINE")]


def test_sudo_and_bracketed_prompts():
    out = "[root@nas ~]# sudo zpool status\n  pool: t\n"
    assert split(out)[0].command == "zpool status"


def test_a_command_the_import_does_not_read_is_named():
    with pytest.raises(UnknownOutput, match="line 3: .*`zpool iostat` is not one of the outputs"):
        split("$ zfs version\nzfs-2.2.2-1\n$ zpool iostat -v\n")


def test_text_before_any_output_is_named():
    with pytest.raises(UnknownOutput, match="line 2: .*cannot tell which command printed 'hello there'"):
        split("\nhello there\n  pool: tank\n")


def test_another_shell_command_is_named():
    with pytest.raises(UnknownOutput, match="line 1: .*runs a command the import does not read"):
        split("root@nas:~# ls -l /tank\n")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_raises_only_its_own_error(blob):
    try:
        split(blob)
    except UnknownOutput:
        pass
