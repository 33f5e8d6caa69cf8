"""Server-drawn SVG charts: well-formed, labelled for screen readers, hostile text escaped."""

import xml.etree.ElementTree as ET
from fractions import Fraction

from sessions_app import charts

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script> & "quotes"'


def _parse(svg) -> ET.Element:
    return ET.fromstring(str(svg))  # noqa: S314 - our own output, not untrusted input


def _histogram(**overrides):
    arguments = {
        "observed": {2: 1, 3: 0, 7: 4},
        "expected": {2: Fraction(1, 6), 3: Fraction(1, 3), 7: Fraction(1)},
        "title": "2D6 totals",
        "desc": "Bars show the totals rolled.",
        "observed_label": "Rolled",
        "expected_label": "Fair dice",
        "x_label": "2D6 total",
        "chart_id": "dice-all",
    }
    arguments.update(overrides)
    return charts.histogram_svg(**arguments)


def _line_chart(**overrides):
    arguments = {
        "series": [
            ("Aki", [("Session 1", 10), ("Session 2", 25)]),
            ("Ren", [("Session 1", 5), ("Session 3", 12)]),
        ],
        "title": "Experience",
        "desc": "Each member's balance after each session.",
        "chart_id": "xp",
    }
    arguments.update(overrides)
    return charts.line_chart_svg(**arguments)


def test_histogram_svg_is_well_formed_xml():
    root = _parse(_histogram())

    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox").startswith("0 0 ")
    assert root.get("width") == "100%"


def test_histogram_svg_has_title_and_desc_for_screen_readers():
    root = _parse(_histogram())

    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "dice-all-title dice-all-desc"
    assert root.find(f"{SVG}title").text == "2D6 totals"
    assert root.find(f"{SVG}title").get("id") == "dice-all-title"
    assert root.find(f"{SVG}desc").text == "Bars show the totals rolled."


def test_histogram_svg_draws_one_bar_and_one_expected_point_per_total():
    root = _parse(_histogram())

    bars = [rect for rect in root.iter(f"{SVG}rect") if rect.find(f"{SVG}title") is not None]
    points = [c for c in root.iter(f"{SVG}circle") if c.get("r") == "3.5"]
    assert [bar.find(f"{SVG}title").text for bar in bars] == ["2: 1", "3: 0", "7: 4"]
    assert len(points) == 3


def test_histogram_svg_escapes_hostile_labels():
    svg = str(_histogram(title=HOSTILE, desc=HOSTILE, observed_label=HOSTILE, x_label=HOSTILE))
    root = _parse(svg)

    assert "<script" not in svg
    assert root.find(f"{SVG}title").text == HOSTILE
    assert not list(root.iter(f"{SVG}script"))


def test_histogram_svg_uses_no_inline_style_or_handlers():
    svg = str(_histogram())

    assert "style=" not in svg
    assert " on" not in svg.replace("polyline", "")


def test_histogram_svg_escapes_hostile_chart_id():
    root = _parse(_histogram(chart_id='x" onload="alert(1)'))

    assert root.get("onload") is None


def test_line_chart_svg_is_well_formed_with_title_and_desc():
    root = _parse(_line_chart())

    assert root.get("aria-labelledby") == "xp-title xp-desc"
    assert root.find(f"{SVG}title").text == "Experience"
    assert root.find(f"{SVG}desc").text == "Each member's balance after each session."


def test_line_chart_svg_draws_one_line_per_series_and_a_legend():
    root = _parse(_line_chart())

    lines = [p.get("class") for p in root.iter(f"{SVG}polyline")]
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "chart-legend"]
    assert lines == ["chart-line chart-series-0", "chart-line chart-series-1"]
    assert legend == ["Aki", "Ren"]


def test_line_chart_svg_places_shared_x_labels_in_first_seen_order():
    root = _parse(_line_chart())

    ticks = [t.find(f"{SVG}title").text for t in root.iter(f"{SVG}text") if len(t)]
    assert ticks == ["Session 1", "Session 2", "Session 3"]


def test_line_chart_svg_numbers_long_x_labels():
    names = ["The Akashic Library", "The Library Burns", "Ashes"]
    series = [("Aki", [(name, number) for number, name in enumerate(names)])]
    root = _parse(_line_chart(series=series))

    ticks = [t for t in root.iter(f"{SVG}text") if len(t)]
    assert [(tick.text, tick.find(f"{SVG}title").text) for tick in ticks] == [
        ("1", names[0]), ("2", names[1]), ("3", names[2])
    ]  # fmt: skip


def test_line_chart_svg_writes_short_x_labels_out():
    root = _parse(_line_chart(series=[("Aki", [("#1", 1), ("#2", 3)])]))

    ticks = [t.text for t in root.iter(f"{SVG}text") if t.find(f"{SVG}title") is not None]
    assert ticks == ["#1", "#2"]


def test_line_chart_svg_point_tooltips_name_member_session_and_value():
    root = _parse(_line_chart())

    tooltips = [c.find(f"{SVG}title").text for c in root.iter(f"{SVG}circle") if len(c)]
    assert tooltips == ["Aki · Session 1: 10", "Aki · Session 2: 25", "Ren · Session 1: 5",
                        "Ren · Session 3: 12"]  # fmt: skip


def test_line_chart_svg_escapes_hostile_names():
    svg = str(_line_chart(series=[(HOSTILE, [(HOSTILE, 3)])], title=HOSTILE))
    root = _parse(svg)

    assert "<script" not in svg
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "chart-legend"]
    assert legend == [HOSTILE]


def test_line_chart_svg_handles_no_series():
    root = _parse(_line_chart(series=[]))

    assert not list(root.iter(f"{SVG}polyline"))


def test_line_chart_svg_handles_negative_values():
    root = _parse(_line_chart(series=[("Aki", [("S1", -3), ("S2", 4)])]))

    ys = [float(c.get("cy")) for c in root.iter(f"{SVG}circle") if len(c)]
    assert ys[0] > ys[1]
