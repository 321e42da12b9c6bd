"""The log's metadata in words on the run page (benchmarks/presentation.meta_rows)."""

from __future__ import annotations

from benchmarks.presentation import meta_rows


def test_each_runs_command_is_shown_only_when_it_says_more_than_the_commands():
    one_each = {"commands": ["dd if=/dev/zero of=f bs=1M", "dd if=f of=/dev/null"]}
    one_each["run_commands"] = list(one_each["commands"])
    assert [r.key for r in meta_rows(one_each)] == ["commands"]
    looped = {"commands": ["dd if=/dev/zero of=f bs=1M"], "run_commands": ["dd if=/dev/zero of=f bs=1M"] * 3}
    rows = {r.key: r for r in meta_rows(looped)}
    assert rows["run_commands"].label == "Command of each run" and len(rows["run_commands"].lines) == 3


def test_the_shortest_test_in_seconds_and_io_counts():
    rows = {r.key: r.text for r in meta_rows({"shortest_test_s": 0.039, "fewest_ios": 12345})}
    assert rows == {"shortest_test_s": "0.039 s", "fewest_ios": "12,345"}
