"""A small, safe subset of Markdown for the text GMs write (summaries, notes, handouts).

Pure: no Django. Everything the user typed is escaped before any markup is added, and the
only markup added is the fixed set of tags below, so no HTML from a user is ever executed.

Supported: paragraphs (separated by a blank line), line breaks, ``**bold**``, ``*italic*``,
``- `` bullet lists, ``# `` and ``## `` headings (as h3 and h4, below any page heading) and
bare http(s) links.
"""

from __future__ import annotations

import html
import re

# Stops at whitespace, quotes and angle brackets, so a URL can never carry markup or leave
# the attribute it is written into (it is escaped as well).
_URL = re.compile(r"https?://[^\s<>\"'`\x00]+", re.IGNORECASE)
_TRAILING_PUNCTUATION = ".,;:!?"
_PLACEHOLDER = re.compile(r"\x00(\d+)\x00")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])")


def _split_url(candidate: str) -> tuple[str, str]:
    """Return (url, trailing text): sentence punctuation and an unmatched ')' stay outside."""
    url = candidate
    while url and (
        url[-1] in _TRAILING_PUNCTUATION or (url[-1] == ")" and url.count(")") > url.count("("))
    ):
        url = url[:-1]
    return url, candidate[len(url) :]


def _link(url: str) -> str:
    escaped = html.escape(url, quote=True)
    return f'<a href="{escaped}" rel="nofollow noopener">{escaped}</a>'


def _inline(raw: str) -> str:
    """Escape one line of text, then add emphasis and links."""
    links: list[str] = []

    def keep_link(match: re.Match) -> str:
        url, rest = _split_url(match.group(0))
        if not re.match(r"https?://\S", url, re.IGNORECASE):
            return match.group(0)
        links.append(_link(url))
        return f"\x00{len(links) - 1}\x00{rest}"

    # Links are set aside before escaping so that an asterisk in a URL is not emphasis.
    text = _URL.sub(keep_link, raw.replace("\x00", ""))
    text = html.escape(text, quote=True)
    text = _BOLD.sub(r"<strong>\1</strong>", text)
    text = _ITALIC.sub(r"<em>\1</em>", text)
    return _PLACEHOLDER.sub(lambda match: links[int(match.group(1))], text)


def _block(lines: list[str]) -> list[str]:
    """Render the lines between two blank lines: headings, bullet lists, paragraphs."""
    out: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if paragraph:
            out.append("<p>" + "<br>\n".join(_inline(line) for line in paragraph) + "</p>")
            paragraph.clear()
        if items:
            rows = "\n".join(f"<li>{_inline(item)}</li>" for item in items)
            out.append(f"<ul>\n{rows}\n</ul>")
            items.clear()

    for line in lines:
        stripped = line.strip()
        if stripped.startswith("## "):
            flush()
            out.append(f"<h4>{_inline(stripped[3:].strip())}</h4>")
        elif stripped.startswith("# "):
            flush()
            out.append(f"<h3>{_inline(stripped[2:].strip())}</h3>")
        elif stripped.startswith("- "):
            if paragraph:
                flush()
            items.append(stripped[2:].strip())
        else:
            if items:
                flush()
            paragraph.append(stripped)
    flush()
    return out


def render_markdownish(text: str | None) -> str:
    """Return the HTML for `text`: escaped first, then the small supported markup."""
    if not text:
        return ""
    lines = str(text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    out: list[str] = []
    for block in blocks:
        if block:
            out.extend(_block(block))
    return "\n".join(out)
