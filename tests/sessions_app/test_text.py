from html.parser import HTMLParser

from django.template import Context, Template
from django.utils.safestring import SafeString

from sessions_app.text import render_markdownish

_REL = "noopener noreferrer nofollow"


def _elements(html: str) -> list[tuple[str, dict[str, str | None]]]:
    """Return each start tag in `html` with its attributes, as a browser would parse them."""
    found: list[tuple[str, dict[str, str | None]]] = []

    class Collector(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, dict(attrs)))

    Collector().feed(html)
    return found


def test_render_markdownish_empty_gives_empty():
    assert render_markdownish("") == ""
    assert render_markdownish(None) == ""


def test_render_markdownish_blank_line_splits_paragraphs():
    assert render_markdownish("one\n\ntwo") == "<p>one</p>\n<p>two</p>"


def test_render_markdownish_single_newline_is_line_break():
    assert render_markdownish("one\ntwo") == "<p>one<br>\ntwo</p>"


def test_render_markdownish_windows_newlines_split_paragraphs():
    assert render_markdownish("one\r\n\r\ntwo") == "<p>one</p>\n<p>two</p>"


def test_render_markdownish_bold_and_italic():
    assert render_markdownish("a **b** *c*") == "<p>a <strong>b</strong> <em>c</em></p>"


def test_render_markdownish_lone_asterisks_stay_text():
    assert render_markdownish("2 * 3 * 4") == "<p>2 * 3 * 4</p>"


def test_render_markdownish_bullet_list():
    assert render_markdownish("- one\n- **two**") == (
        "<ul>\n<li>one</li>\n<li><strong>two</strong></li>\n</ul>"
    )


def test_render_markdownish_paragraph_then_list_in_one_block():
    assert render_markdownish("Clues:\n- a") == "<p>Clues:</p>\n<ul>\n<li>a</li>\n</ul>"


def test_render_markdownish_headings_are_h3_and_h4():
    assert render_markdownish("# Big\n## Small\ntext") == (
        "<h3>Big</h3>\n<h4>Small</h4>\n<p>text</p>"
    )


def test_render_markdownish_hash_without_space_is_text():
    assert render_markdownish("#hashtag") == "<p>#hashtag</p>"


def test_render_markdownish_bare_link():
    html = render_markdownish("See https://example.org/a?b=1&c=2.")

    assert html == (
        '<p>See <a href="https://example.org/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">'
        "https://example.org/a?b=1&amp;c=2</a>.</p>"
    )


def test_render_markdownish_written_link():
    html = render_markdownish("[the map](http://example.org/map)")

    assert html == (
        '<p><a href="http://example.org/map" rel="noopener noreferrer nofollow">the map</a></p>'
    )


def test_render_markdownish_link_title_is_dropped():
    html = render_markdownish('[map](https://example.org/ "a title")')

    assert _elements(html) == [("p", {}), ("a", {"href": "https://example.org/", "rel": _REL})]


def test_render_markdownish_bare_word_with_dot_is_not_a_link():
    assert render_markdownish("example.org gm@example.org") == ("<p>example.org gm@example.org</p>")


def test_render_markdownish_link_in_parentheses_keeps_parenthesis_outside():
    html = render_markdownish("(http://example.org/x)")

    assert '<a href="http://example.org/x" rel="noopener noreferrer nofollow">' in html
    assert html.endswith("</a>)</p>")


def test_render_markdownish_asterisks_in_link_are_not_emphasis():
    html = render_markdownish("http://example.org/*a*b")

    assert "<em>" not in html
    assert 'href="http://example.org/*a*b"' in html


def test_render_markdownish_bold_link():
    html = render_markdownish("**https://example.org/**")

    assert html.startswith('<p><strong><a href="https://example.org/" ')
    assert html.endswith("</a></strong></p>")


def test_render_markdownish_ordered_list():
    assert render_markdownish("1. one\n2. two") == "<ol>\n<li>one</li>\n<li>two</li>\n</ol>"


def test_render_markdownish_deeper_headings_stay_h4():
    assert render_markdownish("### Deep") == "<h4>Deep</h4>"


def test_render_markdownish_escapes_script_tag():
    html = render_markdownish("<script>alert(1)</script>")

    assert "<script" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_render_markdownish_escapes_script_block():
    html = render_markdownish("<script>\nalert(1)\n</script>\n\n- <script>x</script>")

    assert "<script" not in html
    assert {tag for tag, _ in _elements(html)} <= {"p", "br", "ul", "li"}


def test_render_markdownish_escapes_img_onerror():
    html = render_markdownish('<img src=x onerror="alert(1)">')

    assert "<img" not in html
    assert html == '<p>&lt;img src=x onerror="alert(1)"&gt;</p>'


def test_render_markdownish_raw_link_with_javascript_is_text():
    html = render_markdownish('<a href="javascript:alert(1)">x</a>')

    assert _elements(html) == [("p", {})]


def test_render_markdownish_javascript_url_is_not_a_link():
    html = render_markdownish("javascript:alert(1) [x](javascript:alert(1))")

    assert "<a" not in html


def test_render_markdownish_disguised_javascript_urls_are_not_links():
    html = render_markdownish(
        "[a](JaVaScRiPt:alert(1)) [b](&#106;avascript:alert(1)) [c]( javascript:alert(1))"
        " <javascript:alert(1)> [d](vbscript:x) [e](/relative)"
    )

    assert "<a" not in html


def test_render_markdownish_data_urls_are_not_links_or_images():
    html = render_markdownish(
        "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"
        " data:text/html,<script>alert(1)</script>"
        " ![y](data:image/svg+xml,<svg/onload=alert(1)>)"
    )

    assert "<a" not in html
    assert "<img" not in html
    assert "<script" not in html
    assert "<svg" not in html


def test_render_markdownish_images_are_not_loaded():
    html = render_markdownish("![map](https://example.org/map.png)")

    assert "<img" not in html


def test_render_markdownish_quote_in_url_cannot_leave_attribute():
    html = render_markdownish('http://example.org/"onmouseover="alert(1)')

    assert _elements(html) == [
        ("p", {}),
        ("a", {"href": "http://example.org/%22onmouseover=%22alert(1)", "rel": _REL}),
    ]


def test_render_markdownish_single_quote_in_url_cannot_leave_attribute():
    html = render_markdownish("http://example.org/'onclick='x")

    assert _elements(html) == [
        ("p", {}),
        ("a", {"href": "http://example.org/'onclick='x", "rel": _REL}),
    ]


def test_render_markdownish_markup_inside_emphasis_is_escaped():
    html = render_markdownish("**<b onclick=x>hi</b>**")

    assert html == "<p><strong>&lt;b onclick=x&gt;hi&lt;/b&gt;</strong></p>"


def test_render_markdownish_nul_characters_cannot_smuggle_links():
    html = render_markdownish("\x000\x00 http://example.org/")

    assert html.count("<a ") == 1
    assert "\x00" not in html


def test_markdownish_filter_marks_only_its_output_safe():
    rendered = Template("{% load text_tags %}{{ text|markdownish }}").render(
        Context({"text": SafeString("<b>trusted?</b>")})
    )

    assert rendered == "<p>&lt;b&gt;trusted?&lt;/b&gt;</p>"


def test_markdownish_filter_none_gives_empty():
    rendered = Template("{% load text_tags %}{{ text|markdownish }}").render(
        Context({"text": None})
    )

    assert rendered == ""
