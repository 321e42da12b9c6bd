"""OpenZFS's replication check (cmd/zpool/zpool_vdev.c: get_replication, check_replication), ported.

Every expected message is the C format string of the release named, filled in by hand:
``vdev_error()`` calls in ``get_replication()`` (zpool create and the new spec of zpool add)
and ``check_replication()`` (zpool add against the pool).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zfsplanner.core.commands.replication import (
    DISK,
    DRAID,
    MIRROR,
    RAIDZ,
    ZPOOL_FUZZ,
    ReplicationLevel,
    TopLevelVdev,
    add_refusal,
    ashift_refusal,
    class_topology_refusal,
    compare_levels,
    create_refusal,
    pair_refusal,
    top_level_vdevs,
    vdev_error_output,
)
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.versions import Version

V = Version.parse  # a release as a document names it

TB14 = 14_000_519_643_136
SSD = 960_197_124_096


def disk(size: int = TB14) -> TopLevelVdev:
    return TopLevelVdev(DISK, (size,))


def mirror(n: int, size: int = TB14, *, log: bool = False) -> TopLevelVdev:
    return TopLevelVdev(MIRROR, (size,) * n, is_log=log)


def raidz(p: int, n: int, size: int = TB14) -> TopLevelVdev:
    return TopLevelVdev(RAIDZ, (size,) * n, parity=p)


def draid(p: int, n: int, size: int = TB14) -> TopLevelVdev:
    return TopLevelVdev(DRAID, (size,) * n, parity=p)


# --------------------------------------------------------------------------- zpool create (get_replication)


def test_raidz2_with_a_2_way_mirror_is_refused():
    assert create_refusal([raidz(2, 6), mirror(2, SSD)], V("2.3")) == (
        "mismatched replication level: raidz and mirror vdevs with different redundancy, 2 vs. 1 (2-way) are present"
    )


def test_raidz2_with_a_3_way_mirror_is_accepted():
    assert create_refusal([raidz(2, 6), mirror(3, SSD)], V("2.3")) is None


def test_the_mirror_may_come_first():
    assert create_refusal([mirror(2), raidz(1, 5)], V("2.3")) is None
    assert create_refusal([mirror(3), raidz(1, 5)], V("2.3")) == (
        "mismatched replication level: raidz and mirror vdevs with different redundancy, 1 vs. 2 (3-way) are present"
    )


def test_2_way_and_3_way_mirrors_are_refused():
    assert create_refusal([mirror(2), mirror(3)], V("2.3")) == (
        "mismatched replication level: both 2-way and 3-way mirror vdevs are present"
    )


def test_a_single_disk_next_to_a_mirror_is_refused():
    assert create_refusal([mirror(2), disk()], V("2.3")) == (
        "mismatched replication level: both mirror and disk vdevs are present"
    )
    assert create_refusal([disk(), disk(), disk()], V("2.3")) is None


def test_raidz_next_to_draid_compares_parity_only():
    assert create_refusal([raidz(2, 6), draid(2, 24)], V("2.1")) is None
    assert create_refusal([raidz(2, 6), draid(1, 24)], V("2.1")) == (
        "mismatched replication level: raidz and draid vdevs with different redundancy, 2 vs. 1 are present"
    )


def test_draid_next_to_a_mirror_follows_the_raidz_rule():
    assert create_refusal([draid(2, 24), mirror(3)], V("2.2")) is None
    assert create_refusal([draid(2, 24), mirror(2)], V("2.2")) == (
        "mismatched replication level: draid and mirror vdevs with different redundancy, 2 vs. 1 (2-way) are present"
    )


def test_raidz_widths_must_match_before_2_1():
    assert create_refusal([raidz(2, 6), raidz(2, 8)], V("2.0")) == (
        "mismatched replication level: both 6-way and 8-way raidz vdevs are present"
    )


def test_raidz_widths_may_differ_from_2_1():
    # is_raidz_draid() also matches raidz/raidz, which then compares parity only (commit b2255edc)
    assert create_refusal([raidz(2, 6), raidz(2, 8)], V("2.1")) is None


def test_raidz_parity_message_depends_on_the_release():
    assert create_refusal([raidz(1, 5), raidz(2, 5)], V("0.8")) == (
        "mismatched replication level: both 1 and 2 device parity raidz vdevs are present"
    )
    assert create_refusal([raidz(1, 5), raidz(2, 5)], V("2.4")) == (
        "mismatched replication level: raidz and raidz vdevs with different redundancy, 1 vs. 2 are present"
    )


def test_log_vdevs_are_skipped():
    assert create_refusal([raidz(2, 6), mirror(2, SSD, log=True)], V("2.3")) is None
    assert create_refusal([mirror(2), TopLevelVdev(DISK, (SSD,), is_log=True), mirror(2)], V("2.3")) is None
    assert create_refusal([mirror(2, log=True)], V("2.3")) is None


def test_each_vdev_is_compared_with_the_one_before_it():
    # raidz2 (6) and raidz2 (8) never meet: each sits next to an accepted 3-way mirror
    assert create_refusal([raidz(2, 6), mirror(3), raidz(2, 8)], V("2.0")) is None
    assert create_refusal([raidz(2, 6), raidz(2, 8), mirror(3)], V("2.0")) is not None


def test_every_error_is_printed():
    assert create_refusal([mirror(2), mirror(3), disk()], V("2.3")) == (
        "mismatched replication level: both 2-way and 3-way mirror vdevs are present\n"
        "mismatched replication level: both mirror and disk vdevs are present"
    )


def test_members_of_different_sizes_are_refused():
    v = TopLevelVdev(MIRROR, (TB14, 12_000_138_625_024))
    assert create_refusal([v], V("2.3")) == "mirror contains devices of different sizes"
    assert create_refusal([TopLevelVdev(RAIDZ, (TB14, TB14, TB14 - ZPOOL_FUZZ - 1), parity=1)], V("2.3")) == (
        "raidz contains devices of different sizes"
    )


def test_sizes_within_16_mib_are_accepted():
    assert create_refusal([TopLevelVdev(MIRROR, (TB14, TB14 + ZPOOL_FUZZ))], V("2.3")) is None


def test_sizes_are_compared_with_the_member_before():
    # 10 MiB steps: no neighbour differs by more than 16 MiB, though first and last differ by 20 MiB
    step = 10 * 1024**2
    assert create_refusal([TopLevelVdev(MIRROR, (TB14, TB14 + step, TB14 + 2 * step))], V("2.3")) is None


def test_a_size_error_and_a_level_error_are_both_printed():
    assert create_refusal([raidz(2, 6), TopLevelVdev(MIRROR, (SSD, 2 * SSD))], V("2.3")) == (
        "mirror contains devices of different sizes\n"
        "mismatched replication level: raidz and mirror vdevs with different redundancy, 2 vs. 1 (2-way) are present"
    )


def test_the_full_output_has_zpools_header():
    assert vdev_error_output("x") == "invalid vdev specification\nuse '-f' to override the following errors:\nx"


# --------------------------------------------------------------------------- zpool add (check_replication)


def test_adding_a_2_way_mirror_to_a_raidz2_pool_is_refused():
    assert add_refusal([raidz(2, 6)], [mirror(2, SSD)], V("2.3")) == (
        "mismatched replication level: pool and new vdev with different redundancy, raidz and mirror vdevs, "
        "2 vs. 1 (2-way)"
    )
    assert add_refusal([raidz(2, 6)], [mirror(3, SSD)], V("2.3")) is None


def test_add_compares_with_the_pools_last_non_log_vdev():
    pool = [mirror(2), mirror(2), mirror(2, SSD, log=True)]
    refusal = add_refusal(pool, [disk()], V("2.3"))
    assert refusal == "mismatched replication level: pool uses mirror and new vdev is disk"
    assert add_refusal(pool, [mirror(3)], V("2.3")) == (
        "mismatched replication level: pool uses 2-way mirror and new vdev uses 3-way mirror"
    )


def test_add_raidz_parity_and_width():
    assert add_refusal([raidz(1, 5)], [raidz(2, 5)], V("2.3")) == (
        "mismatched replication level: pool uses 1 device parity and new vdev uses 2"
    )
    assert add_refusal([raidz(2, 6)], [raidz(2, 8)], V("2.3")) == (
        "mismatched replication level: pool uses 6-way raidz and new vdev uses 8-way raidz"
    )


def test_add_compares_raidz_with_draid_by_parity_from_2_4():
    assert add_refusal([raidz(2, 6)], [draid(2, 24)], V("2.3")) == (
        "mismatched replication level: pool uses raidz and new vdev is draid"
    )
    assert add_refusal([raidz(2, 6)], [draid(2, 24)], V("2.4")) is None
    assert add_refusal([raidz(2, 6)], [raidz(2, 8)], V("2.4")) is None
    assert add_refusal([raidz(2, 6)], [draid(1, 24)], V("2.4")) == (
        "mismatched replication level: pool and new vdev with different redundancy, raidz and draid vdevs, 2 vs. 1"
    )


def test_add_to_an_inconsistent_pool_is_not_checked():
    forced = [raidz(2, 6), mirror(2, SSD)]  # created with -f
    assert add_refusal(forced, [disk()], V("2.3")) is None
    assert add_refusal(forced, [mirror(2), mirror(3)], V("2.3")) is None


def test_add_reports_a_new_spec_that_is_inconsistent_in_itself():
    assert add_refusal([mirror(2)], [mirror(2), mirror(3)], V("2.3")) == (
        "mismatched replication level: both 2-way and 3-way mirror vdevs are present"
    )


def test_adding_only_logs_or_no_top_level_vdev_is_not_checked():
    assert add_refusal([raidz(2, 6)], [mirror(2, SSD, log=True)], V("2.3")) is None
    assert add_refusal([raidz(2, 6)], [], V("2.3")) is None


# --------------------------------------------------------------------------- the other refusals


def group(layout: str, width: int, role: str = "data", **kw: object):
    doc = {
        "name": "tank",
        "vdevs": [
            {"role": "data", "layout": "mirror", "width": 2, "disk": {"size_bytes": TB14}},
            {"role": role, "layout": layout, "width": width, "disk": {"size_bytes": SSD}, **kw},
        ],
    }
    return parse_design(doc).vdevs[1]


def test_raidz_special_vdevs_need_2_4():
    special = group("raidz1", 3, "special")
    refusal = class_topology_refusal(special, V("2.3"))
    assert refusal == "invalid vdev specification: unsupported 'special' device: raidz"
    assert class_topology_refusal(special, V("2.4")) is None
    # construct_spec() names every non-log class 'special'
    assert class_topology_refusal(group("draid1", 5, "dedup"), V("2.2")) == (
        "invalid vdev specification: unsupported 'special' device: draid"
    )
    assert class_topology_refusal(group("mirror", 2, "special"), V("2.3")) is None
    assert class_topology_refusal(group("raidz1", 3), V("2.3")) is None


def test_ashift_check_on_add_from_2_3_and_2_2_4():
    message = "cannot add to 'tank': adding devices with different physical sector sizes is not allowed"
    assert ashift_refusal("tank", [12, 12], [9], V("2.3")) == message
    assert ashift_refusal("tank", [12], [9], V("2.2.4")) == message
    assert ashift_refusal("tank", [12], [9], V("2.2")) is None  # "2.2" is 2.2.2, before the check
    assert ashift_refusal("tank", [12, 13], [9], V("2.3")) is None  # the pool's data vdevs already differ
    assert ashift_refusal("tank", [12], [12], V("2.3")) is None
    assert ashift_refusal("tank", [12], [], V("2.3")) is None  # cache devices only


def test_top_level_vdevs_of_a_group():
    g = group("raidz2", 6, count=2)
    assert top_level_vdevs(g) == [TopLevelVdev(RAIDZ, (SSD,) * 6, parity=2)] * 2
    assert top_level_vdevs(g, 5)[0].children == 5
    assert top_level_vdevs(group("stripe", 1, "log"))[0] == TopLevelVdev(DISK, (SSD,), is_log=True)


def test_pair_refusal_of_two_groups():
    assert pair_refusal(group("raidz2", 6), group("mirror", 2, "special"), V("2.3")) == (
        "mismatched replication level: raidz and mirror vdevs with different redundancy, 2 vs. 1 (2-way) are present"
    )
    assert pair_refusal(group("raidz2", 6), group("mirror", 3, "special"), V("2.3")) is None


# --------------------------------------------------------------------------- properties

LEVELS = st.builds(
    lambda kind, n, p: ReplicationLevel(kind, 1 if kind == DISK else n, p if kind in (RAIDZ, DRAID) else 0),
    st.sampled_from([DISK, MIRROR, RAIDZ, DRAID]),
    st.integers(2, 12),
    st.integers(1, 3),
)
VERSIONS = st.sampled_from(["0.8", "2.0", "2.1", "2.2", "2.3", "2.4"]).map(Version.parse)


@given(LEVELS, LEVELS, VERSIONS)
def test_acceptance_does_not_depend_on_order(a, b, version):
    assert (compare_levels(a, b, version) is None) == (compare_levels(b, a, version) is None)


@given(LEVELS, VERSIONS)
def test_identical_vdevs_are_always_accepted(a, version):
    assert compare_levels(a, a, version) is None


@given(st.integers(1, 3), st.integers(2, 4), VERSIONS)
def test_raidz_and_mirror_accepted_exactly_when_they_survive_as_many_failures(p, n, version):
    accepted = create_refusal([raidz(p, p + 3), mirror(n)], version) is None
    assert accepted == (p == n - 1)


# --------------------------------------------------------------------------- OpenZFS's own test tables
#
# tests/zfs-tests/tests/functional/cli_root/zpool_create/zpool_create_006_pos.ksh (valid_args must
# succeed, forced_args must fail without -f) and .../zpool_add/zpool_add_warn_create.ksh (matching
# redundancy is added, differing redundancy needs --allow-replication-mismatch), as of OpenZFS 2.4.
# All devices there are files of one size.


def spec(text: str) -> list[TopLevelVdev]:
    """A zpool vdev specification (``raidz v0 v1 special mirror v2 v3 log v4``) as top-level vdevs."""
    out: list[TopLevelVdev] = []
    members: list[int] | None = None
    kind, parity, role = DISK, 0, "data"
    for token in text.split():
        if token in ("special", "dedup", "log", "cache", "spare"):
            if members is not None:
                out.append(TopLevelVdev(kind, tuple(members), parity, role == "log"))
            role, members = token, None
            continue
        m = re.fullmatch(r"(mirror|raidz|draid)(\d?)(:.*)?", token)
        if m:
            if members is not None:
                out.append(TopLevelVdev(kind, tuple(members), parity, role == "log"))
            if role in ("cache", "spare"):  # those lists end at the next keyword; log/special/dedup carry on
                role = "data"
            kind = {"mirror": MIRROR, "raidz": RAIDZ, "draid": DRAID}[m.group(1)]
            parity = 0 if kind == MIRROR else int(m.group(2) or 1)
            members = []
            continue
        if role in ("cache", "spare"):
            continue
        if members is None:
            out.append(TopLevelVdev(DISK, (1 << 30,), 0, role == "log"))
        else:
            members.append(1 << 30)
    if members is not None:
        out.append(TopLevelVdev(kind, tuple(members), parity, role == "log"))
    return out


def test_spec_reader():
    assert spec("v0 mirror v1 v2 spare v3 raidz2 v4 v5 v6 log v7 mirror v8 v9 cache v10") == [
        TopLevelVdev(DISK, (1 << 30,)),
        TopLevelVdev(MIRROR, (1 << 30,) * 2),
        TopLevelVdev(RAIDZ, (1 << 30,) * 3, parity=2),
        TopLevelVdev(DISK, (1 << 30,), is_log=True),
        TopLevelVdev(MIRROR, (1 << 30,) * 2, is_log=True),
    ]


CREATE_VALID = [
    "mirror v0 v1 v2 mirror v3 v4 v5",
    "mirror v0 v1 mirror v2 v3 mirror v4 v5",
    "mirror v0 v1 v2 mirror v3 v4 v5 spare v6",
    "mirror v0 v1 mirror v2 v3 mirror v4 v5 spare v6 v7",
    "mirror v0 v1 spare v2 mirror v3 v4",
    "mirror v0 v1 raidz v2 v3",
    "mirror v0 v1 raidz v2 v3 v4",
    "mirror v0 v1 v2 raidz2 v3 v4 v5",
    "mirror v0 v1 v2 v3 raidz3 v4 v5 v6 v7",
    "raidz v0 v1 v2 mirror v3 v4",
    "raidz v0 v1 v2 raidz1 v3 v4 v5",
    "raidz v0 v1 raidz1 v2 v3 raidz v4 v5",
    "raidz v0 v1 v2 raidz1 v3 v4 v5 spare v6",
    "raidz v0 v1 raidz1 v2 v3 raidz v4 v5 spare v6 v7",
    "raidz v0 v1 spare v2 raidz v3 v4",
    "raidz2 v0 v1 v2 mirror v3 v4 v5",
    "raidz2 v0 v1 v2 raidz2 v3 v4 v5",
    "raidz2 v0 v1 v2 raidz2 v3 v4 v5 raidz2 v6 v7 v8",
    "raidz2 v0 v1 v2 raidz2 v3 v4 v5 spare v6",
    "raidz2 v0 v1 v2 raidz2 v3 v4 v5 raidz2 v6 v7 v8 spare v9",
    "raidz2 v0 v1 v2 spare v3 raidz2 v4 v5 v6",
    "raidz3 v0 v1 v2 v3 mirror v4 v5 v6 v7",
    "draid v0 v1 v2 mirror v3 v4",
    "draid v0 v1 v2 raidz1 v3 v4 v5",
    "draid v0 v1 v2 draid1 v3 v4 v5",
    "draid v0 v1 v2 special mirror v3 v4",
    "draid2 v0 v1 v2 v3 mirror v4 v5 v6",
    "draid2 v0 v1 v2 v3 raidz2 v4 v5 v6",
    "draid2 v0 v1 v2 v3 draid2 v4 v5 v6 v7",
    "draid2 v0 v1 v2 v3 special mirror v4 v5 v6",
    "draid2 v0 v1 v2 v3 special mirror v4 v5 v6 cache v7 log mirror v8 v9",
    "draid v0 v1 v2 draid v4 v5 v6 v7 special mirror v8 v9",
    "spare v0 v1 v2 mirror v3 v4 raidz v5 v6",
]
CREATE_FORCED = [
    "v0 raidz v1 v2 raidz1 v3 v4 v5",
    "v0 raidz2 v1 v2 v3 raidz2 v4 v5 v6",
    "v0 mirror v1 v2 mirror v3 v4",
    "v0 mirror v1 v2 raidz v3 v4 raidz2 v5 v6 v7 spare v8",
    "v0 mirror v1 v2 spare v3 raidz v4 v5",
    "raidz v0 v1 raidz2 v2 v3 v4",
    "raidz v0 v1 raidz2 v2 v3 v4 spare v5",
    "raidz v0 v1 spare v2 raidz2 v3 v4 v5",
    "raidz v0 v1 draid2 v2 v3 v4 v5",
    "raidz v0 v1 draid3 v2 v3 v4 v5 v6",
    "mirror v0 v1 raidz v2 v3 raidz2 v4 v5 v6",
    "mirror v0 v1 raidz v2 v3 raidz2 v4 v5 v6 spare v7",
    "mirror v0 v1 raidz v2 v3 spare v4 raidz2 v5 v6 v7",
    "mirror v0 v1 draid v2 v3 v4 draid2 v5 v6 v7 v8 spare v9",
    "draid v0 v1 v2 v3 draid2 v4 v5 v6 v7 v8",
    "draid v0 v1 v2 draid v4 v5 v6 special mirror v7 v8 v9",
    "spare v0 v1 v2 mirror v3 v4 raidz2 v5 v6 v7",
]


@pytest.mark.parametrize("args", CREATE_VALID)
def test_openzfs_create_valid_args_need_no_f(args):
    assert create_refusal(spec(args), V("2.4")) is None


@pytest.mark.parametrize("args", CREATE_FORCED)
def test_openzfs_create_forced_args_need_f(args):
    assert create_refusal(spec(args), V("2.4")) is not None


POOLS = {
    0: ["v0"],
    1: ["mirror v0 v1", "raidz1 v0 v1", "draid1:1s v0 v1 v9"],
    2: ["mirror v0 v1 v2", "raidz2 v0 v1 v2", "draid2:1s v0 v1 v2 v9"],
    3: ["mirror v0 v1 v2 v3", "raidz3 v0 v1 v2 v3", "draid3:1s v0 v1 v2 v3 v9"],
}
ADDS = {
    0: ["v5", "v5 v6"],
    1: [
        "mirror v5 v6",
        "raidz1 v5 v6",
        "raidz1 v5 v6 mirror v7 v8",
        "mirror v5 v6 raidz1 v7 v8",
        "draid1 v5 v6 mirror v7 v8",
        "mirror v5 v6 draid1 v7 v8",
    ],
    2: ["mirror v5 v6 v7", "raidz2 v5 v6 v7", "draid2 v5 v6 v7"],
    3: ["mirror v5 v6 v7 v8", "raidz3 v5 v6 v7 v8", "draid3 v5 v6 v7 v8"],
}
ADD_CASES = [
    (pool, add, pool_level == add_level)
    for pool_level, pools in POOLS.items()
    for add_level, adds in ADDS.items()
    for pool in pools
    for add in adds
]


@pytest.mark.parametrize(("pool", "add", "accepted"), ADD_CASES)
def test_openzfs_add_warns_exactly_for_differing_redundancy(pool, add, accepted):
    assert (add_refusal(spec(pool), spec(add), V("2.4")) is None) is accepted
