"""tools/collect.sh run under dash with fake zpool/zfs/lsblk printing real OpenZFS outputs (tests/core/data),
against a live test server; with real fio for the benchmark."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks.models import BenchRun
from tests.core.import_samples import SAMPLES
from tests.factories import PoolDesignFactory, design_document
from zfsplanner.accounts.tokens import issue_upload_token
from zfsplanner.imports.models import PoolImport

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "collect.sh"
TEXT_SAMPLE = "linux-2.3-raidz2-special-log-cache-spare.txt"
JSON_SAMPLE = "openzfs-2.3-json-raidz2-special-log-cache-spare.txt"
# What the script may call besides the fakes (everything else is absent from its PATH).
TOOLS = ("sh", "cat", "rm", "mkdir", "mktemp", "sed", "awk", "grep", "tr", "cut", "head", "df", "hostname", "uname",
         "id", "date", "curl", "findmnt", "stat", "ls", "mv")
PROMPT = re.compile(r"^(?:\$ |[\w.-]+@[\w.-]+:\S*# )(.*)$")
LSBLK_COLUMNS = "NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA"

pytestmark = pytest.mark.django_db(transaction=True)


def sample_outputs(name: str) -> dict[str, str]:
    """``{command line: output}`` of a corpus file, in its order."""
    out: dict[str, list[str]] = {}
    current = None
    for line in (SAMPLES / name).read_text().splitlines():
        m = PROMPT.match(line)
        if m:
            current = m.group(1).strip()
            out[current] = []
        elif current is not None:
            out[current].append(line)
    return {k: "\n".join(v).rstrip("\n") + "\n" for k, v in out.items()}


def script_args(command: str, pool: str) -> tuple[str, str] | None:
    """The (tool, arguments) under which collect.sh asks for what a sample command printed; None for the
    forms it does not run (zfs list, -H)."""
    words = command.removeprefix("sudo ").split()
    tool, json = words[0], "-j" in words
    if any(w.startswith("-H") for w in words):
        return None
    sub = " ".join(words[:2])
    if sub == "zpool status":
        return tool, f"status -j -p {pool}" if json else f"status {pool}"
    if sub == "zpool list":
        return tool, f"list -v -j --json-int {pool}" if json else f"list -v -p {pool}"
    if sub == "zpool get":
        return tool, f"get -j -p all {pool}" if json else f"get -p all {pool}"
    if sub == "zfs get":
        return tool, f"get {'-j ' if json else ''}-p -r -t filesystem,volume all {pool}"
    if sub == "zfs version":
        return tool, "version -j" if json else "version"
    if tool == "lsblk":
        return tool, f"-b {'-J ' if '-J' in words else ''}-o {LSBLK_COLUMNS}"
    return None


class Host:
    """A PATH with fake zpool/zfs/lsblk that answer only the commands given (others: exit 2, as a release
    without that option does), and symlinks to the real tools the script may use."""

    def __init__(self, root: Path, *, fio: bool | str = True, http: str = "curl") -> None:
        self.bin = root / "bin"
        self.answers = root / "answers"
        self.bin.mkdir()
        for tool in ("zpool", "zfs", "lsblk"):
            (self.answers / tool).mkdir(parents=True)
            fake = self.bin / tool
            fake.write_text(
                "#!/bin/sh\n"
                f'f="{self.answers / tool}/$(printf "%s" "$*" | tr " /" "_%")"\n'
                'if [ -f "$f" ]; then cat "$f"; exit 0; fi\n'
                f'echo "{tool}: invalid option in \'$*\'" >&2\nexit 2\n'
            )
            fake.chmod(0o755)
        if isinstance(fio, str):  # a stand-in for fio: this shell script
            (self.bin / "fio").write_text(fio)
            (self.bin / "fio").chmod(0o755)
        tools = [t for t in TOOLS if t != "curl"] + [http] + (["fio"] if fio is True else [])
        for tool in tools:
            real = shutil.which(tool)
            assert real, f"{tool} is not installed (apt-get install {tool})"
            (self.bin / tool).symlink_to(real)

    def answer(self, tool: str, args: str, output: str) -> None:
        (self.answers / tool / args.replace(" ", "_").replace("/", "%")).write_text(output)

    def pool(self, sample: str, pool: str = "tank") -> dict[str, str]:
        outputs = {}
        for command, output in sample_outputs(sample).items():
            asked = script_args(command, pool)
            if asked is not None:
                self.answer(*asked, output)
                outputs[command] = output
        self.answer("zpool", "list -H -o name", f"{pool}\n")
        self.answer("zpool", f"list -H -o name {pool}", f"{pool}\n")
        return outputs

    def run(self, *args: str, env: dict[str, str] | None = None, timeout: int = 120, piped: bool = False,
            shell: str = "dash", sigint_ignored: bool = False) -> subprocess.CompletedProcess:
        """dash SCRIPT ARGS, or with ``piped`` as the page says: the script on standard input (sh -s -- ARGS).

        In a session (and process group) of its own, as a terminal runs it: a signal to the group reaches
        the script and what it runs, never the tests. ``sigint_ignored``: started with SIGINT ignored, as
        nohup or a background job of a non-interactive shell starts it (its INT trap then never runs)."""
        sh = shutil.which(shell)
        assert sh, f"{shell} is not installed (apt-get install {shell})"
        environment = {"PATH": str(self.bin), "HOME": str(self.bin.parent), **(env or {})}
        command = [sh, "-s", "--", *args] if piped else [sh, str(SCRIPT), *args]
        if sigint_ignored:  # an ignored signal stays ignored across exec
            command = [sh, "-c", 'trap "" INT; exec "$@"', shell, *command]
        return subprocess.run(command, env=environment, capture_output=True, text=True, timeout=timeout, check=False,
                              input=SCRIPT.read_text() if piped else None, start_new_session=True)


@pytest.fixture
def host(tmp_path):
    return Host(tmp_path)


@pytest.fixture
def key(alice, team):
    return issue_upload_token(alice, team)[1]


def message(result: subprocess.CompletedProcess) -> str:
    """The one-line message a failure ends with (progress lines may come before it)."""
    lines = result.stderr.splitlines()
    assert [line for line in lines if line.startswith("collect.sh: ")] == lines[-1:], result.stderr
    return lines[-1]


def reported_size(outputs: dict[str, str], pool: str = "tank") -> int:
    """SIZE of the pool row of the sample's ``zpool list -v -p``, as the pool printed it."""
    listing = next(v for k, v in outputs.items() if k.startswith("zpool list") and "-j" not in k)
    row = next(line for line in listing.splitlines() if line.split()[:1] == [pool])
    return int(row.split()[1])


def test_dry_run_prints_every_output_and_sends_nothing(host, live_server, key):
    text = host.pool(TEXT_SAMPLE)
    result = host.run("--server", live_server.url, "--dry-run", "--include-serials", env={"ZFSPLANNER_TOKEN": key})
    assert result.returncode == 0, result.stderr
    for command, output in text.items():
        assert output in result.stdout, command
    assert "=== files: zpool status tank" in result.stdout
    assert "=== files: zpool status -j" not in result.stdout  # this release has no -j: not sent
    assert PoolImport.objects.count() == 0


def test_piped_into_sh_as_the_page_shows_it(host, live_server, key):
    """curl … | sh -s -- …: the commands it runs cannot eat the rest of the script from standard input
    (this fake zpool reads everything there is on its standard input)."""
    host.pool(TEXT_SAMPLE)
    greedy = host.bin / "zpool"
    greedy.write_text(greedy.read_text().replace("#!/bin/sh\n", "#!/bin/sh\ncat >/dev/null\n", 1))
    from_file = host.run("--dry-run")
    piped = host.run("--dry-run", piped=True)
    assert piped.returncode == 0 and piped.stdout == from_file.stdout != ""
    sent = host.run("--server", live_server.url, "--token", key, piped=True)
    assert sent.returncode == 0, sent.stderr
    assert PoolImport.objects.count() == 1


def test_dry_run_adds_the_json_forms_where_the_release_has_them(host):
    host.pool(TEXT_SAMPLE)
    json_outputs = {k: v for k, v in sample_outputs(JSON_SAMPLE).items()}
    for command, output in json_outputs.items():
        host.answer(*script_args(command, "tank"), output)  # type: ignore[misc]
    result = host.run("--dry-run", "--include-serials")
    assert result.returncode == 0, result.stderr
    for command, output in json_outputs.items():
        assert output in result.stdout, command
    assert result.stdout.index("=== files: zpool status tank") < result.stdout.index("=== files: zpool status -j -p")


VDEV_PROPS = ("NAME    PROPERTY  VALUE  SOURCE\n"
              "root-0  ashift    0      -\n"
              "raidz2-0  ashift    12     -\n")
NONE = {"type": "NONE", "data": "-"}
VDEV_PROPS_JSON = json.dumps({
    "output_version": {"command": "zpool get", "vers_major": 0, "vers_minor": 1},
    "pool": {"name": "tank", "state": "ONLINE"},
    "vdevs": {name: {"name": name, "type": "VDEV", "properties": {"ashift": {"value": value, "source": NONE}}}
              for name, value in (("root-0", "0"), ("raidz2-0", "12"))}}) + "\n"


def test_each_vdev_s_properties_are_sent_where_the_release_prints_them(host):
    host.pool(TEXT_SAMPLE)
    # before 2.2 zpool refuses all-vdevs (here: an unknown option), or reads it as a pool name and prints
    # only the pool's properties: nothing more is sent, and nothing fails
    older = host.run("--dry-run")
    assert older.returncode == 0, older.stderr
    assert "all-vdevs" not in older.stdout
    host.answer("zpool", "get -p all tank all-vdevs", "NAME  PROPERTY  VALUE  SOURCE\ntank  size      1000   -\n")
    misread = host.run("--dry-run")
    assert misread.returncode == 0 and "all-vdevs" not in misread.stdout
    host.answer("zpool", "get -p all tank all-vdevs", VDEV_PROPS)
    host.answer("zpool", "get -j -p all tank all-vdevs", VDEV_PROPS_JSON)
    result = host.run("--dry-run")
    assert result.returncode == 0, result.stderr
    sent = "=== files: zpool get -p all tank all-vdevs\n$ zpool get -p all tank all-vdevs\n"
    assert sent + VDEV_PROPS in result.stdout
    assert f"$ zpool get -j -p all tank all-vdevs\n{VDEV_PROPS_JSON}" in result.stdout


def test_it_creates_the_import_whose_size_is_the_pools(host, live_server, key, team, alice, web):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    outputs = host.pool(TEXT_SAMPLE)
    result = host.run("--server", live_server.url, "--design", str(design.pk), env={"ZFSPLANNER_TOKEN": key})
    assert result.returncode == 0, result.stderr
    record = PoolImport.objects.get()
    assert result.stdout == f"{live_server.url}/imports/pool/{record.pk}/\n"
    assert record.created_by == alice and record.pool == "tank" and record.design == design
    assert record.document["imported"]["reported"]["zpool_size_bytes"] == reported_size(outputs) == 96954591739904
    assert [s["name"] for s in record.sources] == [
        "zpool status tank", "zpool list -v -p tank", "zpool get -p all tank",
        "zfs get -p -r -t filesystem,volume all tank", "lsblk -b"]
    # the design page sets the pool's SIZE against its own model
    page = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert "Model against pool tank" in page and 'id="attached-size"' in page


def test_one_import_per_pool(host, live_server, key):
    host.pool(TEXT_SAMPLE)
    host.pool("freebsd-2.2-raidz1-gptid.txt", pool="backup")
    host.answer("zpool", "list -H -o name", "tank\nbackup\n")
    result = host.run("--server", live_server.url, "--token", key)
    assert result.returncode == 0, result.stderr
    assert sorted(PoolImport.objects.values_list("pool", flat=True)) == ["backup", "tank"]
    assert len(result.stdout.splitlines()) == 2
    only = host.run("--server", live_server.url, "--token", key, "--pool", "backup")
    assert only.returncode == 0, only.stderr
    assert PoolImport.objects.filter(pool="backup").count() == 2 and PoolImport.objects.count() == 3


def test_benchmark_with_real_fio_arrives_parsed_and_leaves_the_directory_empty(host, live_server, key, team,
                                                                                tmp_path):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    host.pool(TEXT_SAMPLE)
    bench = tmp_path / "bench"
    bench.mkdir()
    host.answer("zfs", f"list -H -o name {bench}", "tank/bench\n")
    host.answer("zfs", "get -H -p -o property,value recordsize,compression,sync,primarycache tank/bench",
                "recordsize\t1048576\ncompression\tlz4\nsync\tstandard\nprimarycache\tmetadata\n")
    result = host.run("--server", live_server.url, "--token", key, "--design", str(design.pk),
                      "--benchmark", str(bench), "--size", "64M", "--runtime", "2", timeout=300)
    assert result.returncode == 0, result.stderr
    run = BenchRun.objects.get()
    assert result.stdout.splitlines()[-1] == f"{live_server.url}/benchmarks/{run.pk}/"
    assert os.listdir(bench) == []
    assert run.upload.status == "done", run.upload.error
    assert run.results.count() == 8
    assert sorted(run.results.values_list("name", flat=True)) == sorted(
        f"{t} {d}" for t in ("SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1") for d in ("read", "write"))
    assert run.team == team and run.design == design
    # the host's name is not sent without --include-serials
    assert run.label == "this host: pool tank, dataset tank/bench"
    assert run.settings["extra"]["host"] == "this host" and "on this host:" in run.notes
    assert run.settings["recordsize_bytes"] == 1048576 and run.settings["compression"] == "lz4"
    assert run.settings["sync"] == "standard"
    assert run.settings["extra"]["primarycache"] == "metadata" and run.settings["extra"]["pool"] == "tank"


def test_benchmark_repeated_arrives_as_repeats_of_one_measurement(host, live_server, key, tmp_path):
    from benchmarks.repeats import repeats_of

    host.pool(TEXT_SAMPLE)
    bench = tmp_path / "bench"
    bench.mkdir()
    result = host.run("--server", live_server.url, "--token", key, "--benchmark", str(bench), "--size", "16M",
                      "--runtime", "1", "--repeat", "2", timeout=300)
    assert result.returncode == 0, result.stderr
    runs = list(BenchRun.objects.order_by("pk"))
    assert len(runs) == 2 and os.listdir(bench) == []
    assert result.stdout.splitlines()[-2:] == [f"{live_server.url}/benchmarks/{r.pk}/" for r in runs]
    assert [r.pk for r in repeats_of(runs[1])] == [r.pk for r in runs]
    assert runs[1].notes.endswith("run 2 of 2")


def test_benchmark_dry_run_says_where_and_writes_nothing(host, tmp_path):
    host.pool(TEXT_SAMPLE)
    bench = tmp_path / "bench"
    bench.mkdir()
    result = host.run("--dry-run", "--benchmark", str(bench), "--size", "64M", "--runtime", "2")
    assert result.returncode == 0, result.stderr
    assert "(not ZFS)" in result.stdout and "not run with --dry-run" in result.stdout
    assert "size=67108864" in result.stdout and "runtime=2" in result.stdout
    assert os.listdir(bench) == []


def test_a_refused_token_exits_2(host, live_server):
    host.pool(TEXT_SAMPLE)
    result = host.run("--server", live_server.url, "--token", "not-a-token")
    assert result.returncode == 2
    assert "refused the token" in message(result)
    assert PoolImport.objects.count() == 0


def test_missing_fio_exits_2_before_sending_anything(tmp_path, live_server, key):
    host = Host(tmp_path, fio=False)
    host.pool(TEXT_SAMPLE)
    result = host.run("--server", live_server.url, "--benchmark", str(tmp_path), env={"ZFSPLANNER_TOKEN": key})
    assert (result.returncode, result.stderr.startswith("collect.sh: fio not found")) == (2, True), result.stderr
    assert PoolImport.objects.count() == 0


def test_an_unreachable_server_exits_2(host, key):
    host.pool(TEXT_SAMPLE)
    result = host.run("--server", "http://127.0.0.1:9", "--token", key)
    assert result.returncode == 2 and "cannot reach http://127.0.0.1:9" in result.stderr


def test_no_pool_exits_2(host, key):
    host.answer("zpool", "list -H -o name", "")
    result = host.run("--server", "http://127.0.0.1:9", "--token", key)
    assert result.returncode == 2 and "no pool" in result.stderr
    named = host.run("--server", "http://127.0.0.1:9", "--token", key, "--pool", "nope")
    assert named.returncode == 2 and "no imported pool named 'nope'" in named.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--bogus"], "unknown option '--bogus'"),
    (["--size", "lots"], "--size takes a size"),
    (["--runtime", "0"], "--runtime takes whole seconds"),
    (["--repeat", "0"], "--repeat takes how many times"),
    (["--repeat", "two"], "--repeat takes how many times"),
    (["--design", "x"], "--design takes a design id"),
    (["--server"], "--server needs a value"),
    (["--token", "t"], "give the planner's address"),
    (["--server", "ftp://x", "--token", "t"], "must start with http"),
])
def test_bad_usage_exits_2_with_one_line(host, args, message):
    result = host.run(*args)
    assert result.returncode == 2 and message in result.stderr and len(result.stderr.splitlines()) == 1


def test_too_little_free_space_is_refused_before_writing(host, tmp_path, key):
    host.pool(TEXT_SAMPLE)
    free = shutil.disk_usage(tmp_path).free
    size_g = free // 2**30 // 2 + 2  # twice this is more than the free space
    result = host.run("--server", "http://127.0.0.1:9", "--token", key, "--benchmark", str(tmp_path),
                      "--size", f"{size_g}G")
    assert result.returncode == 2 and "needs twice that" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answers", "bin"]


def test_help_and_version(host):
    result = host.run("--help")
    assert result.returncode == 0 and "--benchmark DIR" in result.stdout
    version = re.search(r'^COLLECT_VERSION="(.+)"$', SCRIPT.read_text(), re.MULTILINE).group(1)
    assert host.run("--version").stdout == f"collect.sh {version}\n"


def test_shellcheck_finds_nothing():
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is not installed (apt-get install shellcheck)"
    result = subprocess.run([shellcheck, str(SCRIPT)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout


def test_wget_when_there_is_no_curl(tmp_path, live_server, key):
    host = Host(tmp_path, http="wget")
    outputs = host.pool(TEXT_SAMPLE)
    result = host.run("--server", live_server.url, "--token", key)
    assert result.returncode == 0, result.stderr
    record = PoolImport.objects.get()
    assert result.stdout == f"{live_server.url}/imports/pool/{record.pk}/\n"
    assert record.document["imported"]["reported"]["zpool_size_bytes"] == reported_size(outputs)
    refused = host.run("--server", live_server.url, "--token", "not-a-token")
    assert refused.returncode == 2 and "refused the token" in message(refused)


# fio's stand-in: lays out the test file named in the job file, then what the case says.
FIO_LAYOUT = '''#!/bin/sh
[ "$1" = --version ] && { echo fio-3.33; exit 0; }
for a in "$@"; do job=$a; done
file=$(sed -n 's/^filename=//p' "$job")
echo layout > "$file"
'''


# Ctrl-C: the terminal signals its foreground process group, the script and fio at once; `kill -INT 0` from fio
# does the same (the script runs in a process group of its own). kill() delivers the signal to its sender before
# it returns, so fio ends by the signal, after the script was sent it: no race. Whether the script then sees its
# INT trap or fio's exit status (130) first is the kernel's choice; both must give the same answer.
@pytest.mark.parametrize("shell", ["dash", "bash"])
@pytest.mark.parametrize(("then", "status", "said", "sigint_ignored"), [
    ("kill -INT 0\nexit 130\n", 130, "", False),  # Ctrl-C while fio runs
    # the same when the script started with SIGINT ignored (nohup, a background job): no trap, fio (real fio
    # handles SIGINT) exits 130
    ("kill -INT 0\nexit 130\n", 130, "", True),
    ("kill -TERM 0\nexit 143\n", 143, "", False),  # the session is stopped
    ("kill -KILL $$\n", 137, "", False),  # fio alone killed (kill -9, the OOM killer): the script has no signal
    ("echo 'fio: pid=1, err=28/file:io_u.c:1889, func=io_u error, error=No space left on device' >&2\nexit 1\n", 1,
     "No space left on device", False),
], ids=["ctrl-c", "ctrl-c-sigint-ignored", "term", "fio-killed", "fio-error"])
def test_the_test_file_is_removed_whatever_happens(tmp_path, live_server, key, then, status, said, sigint_ignored,
                                                    shell):
    host = Host(tmp_path, fio=FIO_LAYOUT + then)
    host.pool(TEXT_SAMPLE)
    bench = tmp_path / "bench"
    bench.mkdir()
    result = host.run("--server", live_server.url, "--token", key, "--benchmark", str(bench), "--size", "64M",
                      shell=shell, sigint_ignored=sigint_ignored)
    assert result.returncode == status, result.stderr
    assert said in result.stderr
    if status > 128:  # interrupted, not a failure of fio's
        assert "fio failed" not in result.stderr and "fio ended with an error" not in result.stderr
    assert os.listdir(bench) == []
    assert not BenchRun.objects.exists()


# ------------------------------------------------------------------ what is sent: serial numbers, host name, token

SERIALS = ("ZL2A1B01", "ZL2A1B07", "S664NE0R901234", "PHKM0123004A100A")


def devices(record: PoolImport) -> list[tuple[str, int, str, str]]:
    """(role, size, where the size came from, model) of each imported member, in order."""
    return [(d["role"], d["size_bytes"], d["size_source"], d["model"]) for d in record.document["imported"]["devices"]]


def test_serial_numbers_are_replaced_and_the_import_still_matches_lsblk(host, live_server, key):
    host.pool(TEXT_SAMPLE)
    dry = host.run("--dry-run")
    assert dry.returncode == 0, dry.stderr
    for serial in SERIALS:
        assert serial not in dry.stdout, serial
    # the same stand-in wherever a serial appears, of the same length (the lsblk table keeps its columns)
    assert "ata-ST16000NM001G-2KK103_S0000001 " in dry.stdout
    assert "ST16000NM001G-2KK103       S0000001            1\n" in dry.stdout
    assert "nvme-INTEL_SSDPEL1K100GA_S000000000000010-part1" in dry.stdout
    assert "disk serial numbers or host names replaced by stand-ins" in dry.stdout
    hidden = host.run("--server", live_server.url, env={"ZFSPLANNER_TOKEN": key})
    shown = host.run("--server", live_server.url, "--include-serials", env={"ZFSPLANNER_TOKEN": key})
    assert hidden.returncode == shown.returncode == 0, hidden.stderr + shown.stderr
    without, with_serials = PoolImport.objects.order_by("pk")
    assert not any(s in str(without.sources) for s in SERIALS)
    assert all(s in str(with_serials.sources) for s in SERIALS)
    # every member's size, model and where its size came from are the same (lsblk's rows matched)
    assert devices(without) == devices(with_serials)
    assert {d[2] for d in devices(without) if d[0] == "data"} == {"lsblk"}
    def figures(record: PoolImport) -> dict:
        reported = record.document["imported"]["reported"]
        return reported | {"vdevs": [{k: v for k, v in d.items() if k != "name"} for d in reported["vdevs"]]}

    assert figures(without) == figures(with_serials)
    assert without.document["vdevs"] == with_serials.document["vdevs"]


def fake_hostname(host: Host, name: str) -> None:
    (host.bin / "hostname").unlink()
    (host.bin / "hostname").write_text(f"#!/bin/sh\necho {name}\n")
    (host.bin / "hostname").chmod(0o755)


def test_the_host_name_is_replaced_in_every_output(host):
    outputs = host.pool(TEXT_SAMPLE)
    fake_hostname(host, "storage-07.example.net")
    status = next(v for k, v in outputs.items() if k == "zpool status tank")
    host.answer("zpool", "status tank", status.replace("errors: No known data errors",
                                                       "status: last imported on storage-07.example.net"))
    dry = host.run("--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "storage-07" not in dry.stdout
    assert "last imported on H000000000000000000001" in dry.stdout
    shown = host.run("--dry-run", "--include-serials")
    assert "last imported on storage-07.example.net" in shown.stdout and "ZL2A1B01" in shown.stdout


def test_benchmark_label_names_the_host_only_with_include_serials(host, tmp_path):
    host.pool(TEXT_SAMPLE)
    fake_hostname(host, "storage-07")
    bench = tmp_path / "bench"
    bench.mkdir()
    hidden = host.run("--dry-run", "--benchmark", str(bench))
    assert "label: this host: " in hidden.stdout and "storage-07" not in hidden.stdout
    shown = host.run("--dry-run", "--benchmark", str(bench), "--include-serials")
    assert "label: storage-07: " in shown.stdout


def recording(host: Host, tool: str) -> Path:
    """Put a wrapper in front of ``tool`` that writes each of its arguments to a file, then runs it."""
    real = (host.bin / tool).resolve()
    log = host.bin.parent / f"{tool}.argv"
    (host.bin / tool).unlink()
    (host.bin / tool).write_text(f'#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a" >>{log}; done\nexec {real} "$@"\n')
    (host.bin / tool).chmod(0o755)
    return log


@pytest.mark.parametrize("http", ["curl", "wget"])
def test_the_token_is_never_an_argument(tmp_path, live_server, key, http):
    host = Host(tmp_path, http=http)
    host.pool(TEXT_SAMPLE)
    log = recording(host, http)
    token_file = tmp_path / "token"
    token_file.write_text(key + "\n")
    token_file.chmod(0o600)
    result = host.run("--server", live_server.url, "--token-file", str(token_file))
    assert result.returncode == 0, result.stderr
    assert PoolImport.objects.count() == 1
    arguments = log.read_text()
    assert live_server.url in arguments and key not in arguments and key[:8] not in arguments


def test_a_token_file_others_may_read_is_refused(host, live_server, key, tmp_path):
    host.pool(TEXT_SAMPLE)
    token_file = tmp_path / "token"
    token_file.write_text(key)
    token_file.chmod(0o644)
    result = host.run("--server", live_server.url, "--token-file", str(token_file))
    assert result.returncode == 2
    assert message(result) == (f"collect.sh: --token-file {token_file}: other users may read or change it "
                               f"(-rw-r--r--): chmod 600 {token_file}")
    assert PoolImport.objects.count() == 0
    missing = host.run("--server", live_server.url, "--token-file", str(tmp_path / "nope"))
    assert missing.returncode == 2 and "no such file" in message(missing)


def test_a_token_on_the_command_line_works_with_a_warning(host, live_server, key):
    host.pool(TEXT_SAMPLE)
    result = host.run("--server", live_server.url, "--token", key)
    assert result.returncode == 0, result.stderr
    assert "note: a token given with --token is shown to other users by ps" in result.stderr
    from_env = host.run("--server", live_server.url, env={"ZFSPLANNER_TOKEN": key})
    assert from_env.returncode == 0 and "note:" not in from_env.stderr


def test_dry_run_needs_no_token_and_says_what_it_runs(host):
    host.pool(TEXT_SAMPLE)
    result = host.run("--server", "https://planner.example", "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "=== POST https://planner.example/api/pool-imports/" in result.stdout
    assert "$ zpool status tank\n" in result.stdout and "$ lsblk -b -o NAME,SIZE" in result.stdout


def test_wwn_names_are_replaced_too(host):
    outputs = host.pool(TEXT_SAMPLE)
    status = outputs["zpool status tank"].replace("ata-ST16000NM001G-2KK103_ZL2A1B01", "wwn-0x5000c500a1b2c3d4")
    host.answer("zpool", "status tank", status)
    dry = host.run("--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "5000c500a1b2c3d4" not in dry.stdout
    assert re.search(r" wwn-S0+\d+ +ONLINE", dry.stdout) and len("wwn-0x5000c500a1b2c3d4") == len(
        re.search(r"wwn-S0+\d+", dry.stdout).group(0))


def test_serials_in_lsblk_json_are_replaced_as_in_the_names(host):
    host.pool(TEXT_SAMPLE)
    disks = [{"name": f"sd{c}", "size": 16000900661248, "log-sec": 512, "phy-sec": 4096,
              "model": "ST16000NM001G-2KK103", "serial": f"ZL2A1B0{i}", "rota": True}
             for i, c in enumerate("abcdef", start=1)]
    host.answer("lsblk", f"-b -J -o {LSBLK_COLUMNS}", json.dumps({"blockdevices": disks}, indent=3) + "\n")
    dry = host.run("--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "ZL2A1B0" not in dry.stdout and "=== files: lsblk -b -J" in dry.stdout
    sent = json.loads(dry.stdout.split("$ lsblk -b -J -o " + LSBLK_COLUMNS + "\n", 1)[1].split("=== files:", 1)[0])
    assert [d["serial"] for d in sent["blockdevices"]] == [f"S000000{i}" for i in range(1, 7)]
    assert "ata-ST16000NM001G-2KK103_S0000001 " in dry.stdout
