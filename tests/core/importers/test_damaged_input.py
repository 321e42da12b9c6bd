"""Every reader of pasted output, fed real samples damaged every way a paste gets damaged.

Truncated (at a line or inside one), lines dropped or doubled, bytes flipped (decoded as a browser
would, bad sequences replaced), characters replaced by any Unicode or by the characters outputs
are made of: the only outcomes are a result or the reader's own :class:`UnreadableOutput`
subclass naming a line of what it was given. No other exception, whatever the damage.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.import_samples import section, text
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.importers import (
    import_pool,
    json_outputs,
    lsblk,
    props,
    vdev_props,
    zdb,
    zdb_config,
    zfs_list,
    zpool_list,
    zpool_status,
)
from zfsplanner.core.importers.answers import answer_sizes
from zfsplanner.core.importers.common import Lines, UnreadableOutput
from zfsplanner.core.importers.members import CatalogEntry
from zfsplanner.core.importers.pool_import import ImportProblem
from zfsplanner.core.importers.sections import Section

TEXT = "linux-2.3-raidz2-special-log-cache-spare.txt"
JSON = "openzfs-2.3-json-raidz2-special-log-cache-spare.txt"
CATALOG = (
    CatalogEntry("ST16000NM001G-2KK103", 16000900661248),
    CatalogEntry("INTEL SSDPEL1K100GA", 100030242816),
)


def columns(s: Section) -> tuple[str, ...] | None:
    """``-o name,size`` of the command line, as the import reads it."""
    option = s.option("o")
    return tuple(c.strip() for c in option.split(",")) if option else None


@dataclass(frozen=True)
class Reader:
    """One reader, one real sample of what it reads, and the error it alone may raise."""

    name: str
    sample: Section
    read: Callable[[Section, Lines], object]
    error: type[UnreadableOutput]
    examples: int


READERS = [
    Reader("zpool status", section(TEXT, "zpool status"), lambda s, ls: zpool_status.parse(ls),
           zpool_status.ZpoolStatusError, 150),
    Reader("zpool status (0.8, resilvering)", section("linux-0.8-raidz2-degraded-replacing.txt", "zpool status"),
           lambda s, ls: zpool_status.parse(ls), zpool_status.ZpoolStatusError, 50),
    Reader("zpool import", section("manpage-zpool-import.txt", "zpool import"), lambda s, ls: zpool_status.parse(ls),
           zpool_status.ZpoolStatusError, 30),
    Reader("zpool list -v -p", section(TEXT, "zpool list"),
           lambda s, ls: zpool_list.parse(ls, columns=None, scripted=s.flag("H")), zpool_list.ZpoolListError, 100),
    Reader("zpool list -v -p -H -o", section("openzfs-2.3.2-files-mirror-list-H-o.txt", "zpool list"),
           lambda s, ls: zpool_list.parse(ls, columns=zpool_list.columns_from_option(s.option("o") or ""),
                                          scripted=True),
           zpool_list.ZpoolListError, 100),
    Reader("zpool get", section(TEXT, "zpool get"), lambda s, ls: props.parse(ls, zpool=True, columns=columns(s)),
           props.ZpoolGetError, 75),
    Reader("zpool get -H", section("freebsd-2.2-raidz1-gptid.txt", "zpool get"),
           lambda s, ls: props.parse(ls, zpool=True, scripted=True), props.ZpoolGetError, 50),
    Reader("zfs get", section(TEXT, "zfs get"), lambda s, ls: props.parse(ls, zpool=False, columns=columns(s)),
           props.ZfsGetError, 75),
    Reader("zfs list", section("linux-0.8-raidz2-degraded-replacing.txt", "zfs list"),
           lambda s, ls: zfs_list.parse(ls), zfs_list.ZfsListError, 50),
    Reader("zfs list -H -o", section("freebsd-2.2-raidz1-gptid.txt", "zfs list"),
           lambda s, ls: zfs_list.parse(ls, columns=zfs_list.columns_from_option(s.option("o") or ""),
                                        scripted=True),
           zfs_list.ZfsListError, 50),
    Reader("lsblk", section(TEXT, "lsblk"), lambda s, ls: lsblk.parse(ls), lsblk.LsblkError, 100),
    Reader("zdb -Lbbbs", section("zdb-2.2-Lbbbs.txt", "zdb"), lambda s, ls: zdb.parse(ls), zdb.ZdbError, 100),
    Reader("zdb -C", section("zdb-2.2-C-raidz2-special.txt", "zdb"), lambda s, ls: zdb_config.parse(ls),
           zdb_config.ZdbConfigError, 50),
    Reader("zpool get all-vdevs", section("openzfs-2.3-get-ashift-all-vdevs-raidz3-special.txt", "zpool get"),
           lambda s, ls: vdev_props.parse(ls, pool="tank", columns=columns(s)), props.ZpoolGetError, 50),
    Reader("zpool status -j (jq)", section("manpage-2.3-zpool-status-j.txt", "zpool status"),
           lambda s, ls: json_outputs.parse(ls, expected="zpool status"), json_outputs.JsonOutputError, 50),
    Reader("zpool list -j (jq)", section("manpage-2.3-zpool-list-j.txt", "zpool list"),
           lambda s, ls: json_outputs.parse(ls, expected="zpool list"), json_outputs.JsonOutputError, 50),
    Reader("zfs get -j", section(JSON, "zfs get"), lambda s, ls: json_outputs.parse(ls, expected="zfs get"),
           json_outputs.JsonOutputError, 50),
    Reader("zpool list -j --json-int", section(JSON, "zpool list"),
           lambda s, ls: json_outputs.parse(ls, expected="zpool list"), json_outputs.JsonOutputError, 30),
]

# --------------------------------------------------------------------------- the damage

# any Unicode, or the characters outputs are made of (which get deeper into a reader than noise does)
JUNK = st.text(max_size=5) | st.text(alphabet='\t -0123456789.KMGTPx%ONLINE{}[]":,', max_size=5)


@st.composite
def damaged(draw: st.DrawFn, body: Sequence[str]) -> list[str]:
    """``body`` (lines) truncated, then with up to five lines dropped, doubled, flipped or rewritten."""
    cut = draw(st.just(len(body)) | st.integers(0, len(body)))  # whole half of the time
    out = list(body[:cut])
    if out and cut < len(body) and draw(st.booleans()):  # cut inside the last line
        out[-1] = out[-1][: draw(st.integers(0, len(out[-1])))]
    for _ in range(draw(st.integers(0, 5))):
        if not out:
            break
        i = draw(st.integers(0, len(out) - 1))
        line = out[i]
        match draw(st.sampled_from(["drop", "double", "flip", "replace", "cut"])):
            case "drop":
                del out[i]
            case "double":
                out.insert(i, line)
            case "flip":  # one bit of one byte, read back as a browser decodes a form
                raw = bytearray(line.encode())
                if raw:
                    raw[draw(st.integers(0, len(raw) - 1))] ^= 1 << draw(st.integers(0, 7))
                out[i] = raw.decode(errors="replace")
            case "replace":
                pos = draw(st.integers(0, len(line)))
                out[i] = line[:pos] + draw(JUNK) + line[pos + 1 :]
            case "cut":
                out[i] = line[: draw(st.integers(0, len(line)))]
    return out


def assert_names_a_line(exc: UnreadableOutput, given: Lines) -> None:
    numbers = {n for n, _ in given}
    assert exc.line in numbers or (exc.line is None and not numbers), (exc.line, str(exc))


# --------------------------------------------------------------------------- each reader


@pytest.mark.parametrize("reader", READERS, ids=[r.name for r in READERS])
def test_damaged_output_gives_a_result_or_the_reader_s_own_error(reader: Reader) -> None:
    first = reader.sample.lines[0][0]

    @settings(max_examples=reader.examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(damaged([t for _, t in reader.sample.lines]))
    def check(body: list[str]) -> None:
        given_lines = [(first + i, t) for i, t in enumerate(body)]
        try:
            reader.read(reader.sample, given_lines)
        except UnreadableOutput as exc:
            assert type(exc) is reader.error, repr(exc)
            assert_names_a_line(exc, given_lines)

    check()


# --------------------------------------------------------------------------- the whole import

PASTES = (TEXT, "linux-0.8-raidz2-degraded-replacing.txt", "linux-2.2-draid2-spare-in-use.txt",
          "freebsd-2.2-raidz1-gptid.txt", JSON, "zdb-2.2-C-raidz2-special.txt")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), name=st.sampled_from(PASTES))
def test_a_damaged_paste_imports_or_is_refused_naming_its_line(data: st.DataObject, name: str) -> None:
    body = data.draw(damaged(text(name).splitlines()))
    try:
        result = import_pool([("paste", "\n".join(body))], catalog=CATALOG)
    except UnreadableOutput as exc:
        # a problem of the whole pool (no vdev tree, nothing to import) may name no line
        assert exc.line is not None or isinstance(exc, ImportProblem), str(exc)
        assert exc.line is None or 1 <= exc.line <= len(body), str(exc)
        return
    # sizes (and an ashift) no output gave are asked; once answered the design is whole
    answers = {q["id"]: q["choices"][0] if q.get("kind") == "ashift" else 4 * 10**12 for q in result.questions}
    parse_design(answer_sizes(result.document, answers))
