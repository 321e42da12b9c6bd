"""The report's Markdown as HTML for the page: the small subset the report writes (headings,
tables, lists, paragraphs)."""

from __future__ import annotations

import html
import re

# --------------------------------------------------------------------------- HTML


def _inline(text: str) -> str:
    """Escape, then ``code`` and **bold** (the only inline Markdown the report writes)."""
    out = []
    for i, part in enumerate(text.split("`")):
        escaped = html.escape(part, quote=False).replace("\\|", "|")
        if i % 2:
            out.append(f"<code>{escaped}</code>")
        else:
            out.append(re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escaped))
    return "".join(out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def markdown_to_html(md: str) -> str:
    """The report's Markdown as HTML: headings, paragraphs, lists, tables (in a scrolling box) and code.

    Only the subset :func:`markdown` writes; every text is escaped first, so names and
    descriptions from the design cannot inject markup.
    """
    out: list[str] = []
    lines = md.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(html.escape(lines[i], quote=False))
                i += 1
            out.append("<pre><code>" + "\n".join(body) + "</code></pre>")
        elif m := re.match(r"^(#{1,4}) (.*)$", line):
            level = len(m.group(1))
            out.append(f"<h{level}>{_inline(m.group(2))}</h{level}>")
        elif line.startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            head = _cells(line)
            i += 2
            rows = []
            while i < len(lines) and lines[i].startswith("| "):
                rows.append(_cells(lines[i]))
                i += 1
            i -= 1
            thead = "".join(f'<th scope="col">{_inline(c)}</th>' for c in head)
            tbody = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in rows)
            # tabindex: a table wider than a phone scrolls in its box, and keyboards must reach it
            out.append(f'<div class="overflow-auto" tabindex="0"><table><thead><tr>{thead}</tr></thead>'
                       f"<tbody>{tbody}</tbody></table></div>")
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{_inline(lines[i][2:])}</li>")
                i += 1
            i -= 1
            out.append("<ul>" + "".join(items) + "</ul>")
        elif line.strip():
            para = [line]
            while i + 1 < len(lines) and lines[i + 1].strip() and not re.match(r"^(#|- |\| |```)", lines[i + 1]):
                i += 1
                para.append(lines[i])
            out.append("<p>" + _inline(" ".join(para)) + "</p>")
        i += 1
    return "\n".join(out)
