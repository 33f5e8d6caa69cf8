"""Markdown for the text GMs write (summaries, notes, handouts).

Pure: no Django. CommonMark through markdown-it-py with raw HTML off, so whatever HTML a
user types is shown as text; the result then goes through nh3, which keeps only the tags
below and http(s) links, so a bug in either library alone cannot let a script through.

A single newline is a line break (GMs write notes line by line), bare http(s) URLs become
links, and headings start at h3 so they sit below the page's own headings.
"""

from __future__ import annotations

import nh3
from markdown_it import MarkdownIt

_LINK_SCHEMES = frozenset({"http", "https"})
_ALLOWED_TAGS = frozenset(
    {"p", "br", "strong", "em", "ul", "ol", "li", "h3", "h4"}
    | {"a", "code", "pre", "blockquote", "hr"}
)
# "*" replaces the default attributes nh3 allows on every tag (lang, title).
_ALLOWED_ATTRIBUTES: dict[str, set[str]] = {"*": set(), "a": {"href"}, "ol": {"start"}}
# Links lead off the site to pages nobody vouched for: no referrer, no opener, no ranking.
_LINK_REL = "noopener noreferrer nofollow"
# The page and its sections use h1 and h2; the styles know h3 and h4 inside text.
_HEADING_TAGS = {"h1": "h3", "h2": "h4", "h3": "h4", "h4": "h4", "h5": "h4", "h6": "h4"}


def _is_web_link(url: str) -> bool:
    scheme, colon, _ = url.strip().partition(":")
    return bool(colon) and scheme.lower() in _LINK_SCHEMES


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "breaks": True, "linkify": True})
    md.enable("linkify")
    # Only text that starts with http:// or https:// is a link, not every word with a dot.
    md.linkify.set({"fuzzy_link": False, "fuzzy_email": False, "fuzzy_ip": False})
    # An image would load a third-party URL in every reader's browser.
    md.disable("image")
    # Written links ([text](url)) and bare ones alike: anything but http(s) stays text.
    md.validateLink = _is_web_link
    return md


_MARKDOWN = _markdown()


def render_markdownish(text: str | None) -> str:
    """Return the HTML for the Markdown `text`, holding only the tags and links allowed."""
    if not text:
        return ""
    tokens = _MARKDOWN.parse(str(text))
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = _HEADING_TAGS[token.tag]
    rendered = _MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {})
    return nh3.clean(
        rendered,
        tags=set(_ALLOWED_TAGS),
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes=set(_LINK_SCHEMES),
        link_rel=_LINK_REL,
    ).strip()
