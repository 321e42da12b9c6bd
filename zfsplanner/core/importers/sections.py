"""Cut pasted text into the outputs of the commands it holds.

A paste may hold several outputs in any order, each with or without the shell prompt
line that ran it (``$ zpool status tank``, ``root@nas:~# zfs get -Hp all``). A prompt line
names the command and its options (``-p``, ``-H``, ``-o name,used``); without one the
output is recognised by its first lines (``  pool:``, a ``NAME SIZE ALLOC`` header, ...; a
``{`` starts the JSON of ``-j``, whose ``output_version`` names its command).
A line that belongs to no output the importer reads is an error naming that line.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from .common import UnknownOutput
from .json_outputs import depth_change

READ_COMMANDS = ("zpool status", "zpool import", "zpool list", "zpool get", "zfs list", "zfs get", "lsblk", "zdb",
                 "version", "json")
_PROMPT_RE = re.compile(
    r"^\s*(?:\([^)]*\)\s*)?(?:\[[^\]]*\]|[\w.@:~/+-]*)\s?[$#%>]\s*"
    r"(?:(?:sudo|doas)\s+(?:-\S+\s+)*)?(?P<cmd>(?:/\S*/)?(?:zpool|zfs|lsblk|zdb))(?P<args>(?:\s.*)?)$"
)
_BARE_RE = re.compile(r"^\s*(?:(?:sudo|doas)\s+)?(?P<cmd>(?:/\S*/)?(?:zpool|zfs|lsblk|zdb))(?P<args>(?:\s.*)?)$")
_OTHER_PROMPT_RE = re.compile(r"^\s*(?:\[[^\]]*\]|[\w.@:~/+-]*@[\w.-]+[\w.:~/+-]*)\s?[$#%]\s*\S")
_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # colours (ZFS_COLOR) and cursor codes from a terminal log
_VERSION_RE = re.compile(r"^\s*zfs-(?:kmod-)?[0-9]+\.[0-9]+(?:\.[0-9]+)?\S*\s*$")
_ZDB_MARKERS = ("Block Size Histogram", "Traversing all blocks", "bp count:", "Dataset mos [META]",
                "loading concrete vdev", "Blocks  LSIZE   PSIZE", "leaked space:", "No leaks (block sum matches",
                "MOS Configuration:", "Cached configuration:")
ZPOOL_SUBCOMMANDS = {"status": "zpool status", "import": "zpool import", "list": "zpool list", "get": "zpool get",
                     "version": "version"}
ZFS_SUBCOMMANDS = {"list": "zfs list", "get": "zfs get", "version": "version"}


@dataclass
class Section:
    command: str  # one of READ_COMMANDS
    lines: list[tuple[int, str]] = field(default_factory=list)
    args: tuple[str, ...] = ()
    prompt_line: int | None = None

    def flag(self, letter: str) -> bool:
        """Whether a single-letter option (``-p``, ``-H``, ``-v``) was on the command line."""
        for a in self.args:
            if a.startswith("-") and not a.startswith("--") and letter in a[1:] and "=" not in a:
                if "o" in a[1:] and a[1:].index("o") < a[1:].index(letter):
                    continue
                return True
        return False

    def option(self, letter: str) -> str | None:
        """The value of ``-o name,used`` (or ``-Ho name,used``)."""
        for i, a in enumerate(self.args):
            if a.startswith("-") and not a.startswith("--") and letter in a[1:]:
                rest = a[a.index(letter) + 1 :]
                if rest:
                    return rest
                if i + 1 < len(self.args):
                    return self.args[i + 1]
        return None


def _command(n: int, cmd: str, args: str) -> tuple[str, tuple[str, ...]]:
    try:
        words = tuple(shlex.split(args))
    except ValueError:
        words = tuple(args.split())
    tool = cmd.rsplit("/", 1)[-1]
    if tool in ("lsblk", "zdb"):
        return tool, words
    sub = next((w for w in words if not w.startswith("-")), "")
    known = ZPOOL_SUBCOMMANDS if tool == "zpool" else ZFS_SUBCOMMANDS
    if sub not in known:
        readable = ", ".join(c for c in READ_COMMANDS if c not in ("version", "json"))
        raise UnknownOutput(n, f"`{tool} {sub}` is not one of the outputs the import reads ({readable}, zfs version)")
    rest = list(words)
    rest.remove(sub)
    return known[sub], tuple(rest)


def _prompt(n: int, text: str) -> tuple[str, tuple[str, ...]] | None:
    m = _PROMPT_RE.match(text)
    if m and (m.group("args") == "" or m.group("args")[0].isspace()):
        return _command(n, m.group("cmd"), m.group("args"))
    m = _BARE_RE.match(text)
    if m and m.group("args").strip() and not re.match(r"^\s+[0-9]", m.group("args")):
        words = m.group("args").split()
        tool = m.group("cmd").rsplit("/", 1)[-1]
        subs = ZPOOL_SUBCOMMANDS if tool == "zpool" else ZFS_SUBCOMMANDS if tool == "zfs" else None
        if subs is None or (words and words[0] in subs) or any(w.startswith("-") for w in words[:1]):
            return _command(n, m.group("cmd"), m.group("args"))
    return None


def _sniff(text: str) -> str | None:
    """The command whose output starts with this line, if it is recognisable on its own."""
    s = text.strip()
    words = s.split()
    if re.match(r"^\s*pool:\s*\S", text):
        return "zpool status"
    if _VERSION_RE.match(text):
        return "version"
    if any(s.startswith(m) for m in _ZDB_MARKERS):
        return "zdb"
    if s.startswith('NAME="') or s.startswith('{') and "blockdevices" in s:
        return "lsblk"
    if s.startswith("{"):
        return "json"  # zpool/zfs ... -j (or lsblk -J, told apart once the object is read)
    if words[:1] == ["NAME"]:
        rest = set(words[1:])
        if rest & {"MAJ:MIN", "LOG-SEC", "PHY-SEC", "ROTA", "MODEL", "SERIAL", "RM", "RO", "TRAN", "WWN"}:
            return "lsblk"
        if "PROPERTY" in rest and "VALUE" in rest:
            return "get"
        if "SIZE" in rest and ("ALLOC" in rest or "FREE" in rest or "HEALTH" in rest):
            return "zpool list"
        if rest & {"USED", "AVAIL", "REFER", "RECSIZE", "COMPRESS", "VOLSIZE", "LUSED", "LREFER", "MOUNTPOINT"}:
            return "zfs list"
    if "\t" in text and len(text.split("\t")) == 4:
        return "get"
    return None


def split(text: str, first_line: int = 1) -> list[Section]:
    """The outputs in ``text``, in order. Raises :class:`UnknownOutput` for a line no reader takes."""
    sections: list[Section] = []
    current: Section | None = None
    json_depth = 0
    for i, raw in enumerate(text.splitlines()):
        n = first_line + i
        line = _ANSI_RE.sub("", raw.rstrip("\r\n"))
        if current is not None and current.command in ("lsblk", "json") and json_depth > 0:
            current.lines.append((n, line))
            json_depth += depth_change(line)[0]
            if json_depth <= 0 and current.command == "json" and any('"blockdevices"' in t for _, t in current.lines):
                current.command = "lsblk"
            continue
        prompt = _prompt(n, line)
        if prompt is not None:
            current = Section(prompt[0], [], prompt[1], n)
            sections.append(current)
            continue
        if current is not None and current.prompt_line is not None:
            current.lines.append((n, line))  # a prompt's output runs to the next prompt
            continue
        if not line.strip():
            if current is not None:
                current.lines.append((n, line))
            continue
        kind = _sniff(line)
        if kind is not None and (current is None or _starts_new(current, kind, line)):
            current = Section(kind, [(n, line)])
            sections.append(current)
            if kind in ("lsblk", "json") and line.lstrip().startswith("{"):
                json_depth = depth_change(line)[0]
            continue
        if current is None:
            if _OTHER_PROMPT_RE.match(line):
                raise UnknownOutput(n, f"{line.strip()!r} runs a command the import does not read")
            raise UnknownOutput(
                n,
                f"cannot tell which command printed {line.strip()[:60]!r}; paste whole outputs, ideally with the "
                "'$ command' line before each",
            )
        current.lines.append((n, line))
    return [s for s in sections if any(t.strip() for _, t in s.lines) or s.command == "version"]


def _starts_new(current: Section, kind: str, line: str) -> bool:
    header = line.strip().startswith("NAME")
    if kind == "json":
        return True  # each -j output is one object
    if kind == current.command:
        # another pool inside the same zpool status output; another get line inside a get output
        return kind in ("zfs list", "zpool list", "lsblk", "get") and header
    if current.command == "zdb" and kind not in ("zpool status", "zpool list", "zfs list", "lsblk", "version"):
        return False
    if current.command in ("zpool get", "zfs get") and kind == "get":
        return header
    return True
