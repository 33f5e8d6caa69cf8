from django.template import Context, Template
from django.utils.safestring import SafeString

from sessions_app.text import render_markdownish


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
        '<p>See <a href="https://example.org/a?b=1&amp;c=2" rel="nofollow noopener">'
        "https://example.org/a?b=1&amp;c=2</a>.</p>"
    )


def test_render_markdownish_link_in_parentheses_keeps_parenthesis_outside():
    html = render_markdownish("(http://example.org/x)")

    assert '<a href="http://example.org/x" rel="nofollow noopener">' in html
    assert html.endswith("</a>)</p>")


def test_render_markdownish_asterisks_in_link_are_not_emphasis():
    html = render_markdownish("http://example.org/*a*")

    assert "<em>" not in html
    assert 'href="http://example.org/*a*"' in html


def test_render_markdownish_escapes_script_tag():
    html = render_markdownish("<script>alert(1)</script>")

    assert "<script" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_render_markdownish_escapes_img_onerror():
    html = render_markdownish('<img src=x onerror="alert(1)">')

    assert "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html


def test_render_markdownish_javascript_url_is_not_a_link():
    html = render_markdownish("javascript:alert(1) [x](javascript:alert(1))")

    assert "<a" not in html


def test_render_markdownish_quote_in_url_cannot_leave_attribute():
    html = render_markdownish('http://example.org/"onmouseover="alert(1)')

    assert html.count('"') == 4  # the quotes around href and rel, no others
    assert 'href="http://example.org/"' in html
    assert "&quot;onmouseover=&quot;alert(1)" in html


def test_render_markdownish_single_quote_in_url_is_escaped():
    html = render_markdownish("http://example.org/'onclick='x")

    assert "'" not in html
    assert 'href="http://example.org/"' in html


def test_render_markdownish_markup_inside_emphasis_is_escaped():
    html = render_markdownish("**<b onclick=x>hi</b>**")

    assert html == "<p><strong>&lt;b onclick=x&gt;hi&lt;/b&gt;</strong></p>"


def test_render_markdownish_placeholder_characters_cannot_smuggle_links():
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
