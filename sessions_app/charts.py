"""Charts drawn on the server as inline SVG: no script, no chart library, no inline style.

The CSP allows styles from this origin only, so colours come from classes in app.css
(which use the site's custom properties) and sizes from presentation attributes. Every
piece of text is escaped here; callers pass it already translated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import count

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# Narrow on purpose: at 390 px the chart is drawn about 300 px wide, and 14-unit text
# still reads at roughly 10 px there.
WIDTH = 420
SERIES_CLASSES = 8

_ids = count(1)


def _number(value: float) -> str:
    """Write a coordinate compactly; SVG wants a dot as the decimal separator in any language."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _tick_step(top: float, ticks: int = 5) -> float:
    """Pick a round step (1, 2 or 5 times a power of ten) giving about `ticks` gridlines."""
    if top <= 0:
        return 1
    raw = top / ticks
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1
    for factor in (1, 2, 5, 10):
        step = factor * magnitude
        if step >= raw:
            return max(step, 1)
    return 10 * magnitude


def _label(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _frame(chart_id: str, height: int, title: str, desc: str, body: list[str]) -> SafeString:
    # Safe because every caller-supplied string was passed through escape() on the way in.
    return mark_safe(  # noqa: S308
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}"'
        f' width="100%" role="img" aria-labelledby="{chart_id}-title {chart_id}-desc">'
        f'<title id="{chart_id}-title">{escape(title)}</title>'
        f'<desc id="{chart_id}-desc">{escape(desc)}</desc>' + "".join(body) + "</svg>"
    )


def _y_axis(body: list[str], *, top: float, left: int, right: int, y) -> None:
    step = _tick_step(top)
    tick = 0.0
    while tick <= top + 1e-9:
        position = _number(y(tick))
        body.append(
            f'<line class="chart-grid" x1="{left}" x2="{right}" y1="{position}" y2="{position}"/>'
            f'<text class="chart-tick" x="{left - 6}" y="{position}" text-anchor="end"'
            f' dominant-baseline="middle">{escape(_label(tick))}</text>'
        )
        tick += step


def histogram_svg(
    observed: Mapping[int, int],
    expected: Mapping[int, Fraction | float],
    *,
    title: str,
    desc: str,
    observed_label: str,
    expected_label: str,
    x_label: str,
    chart_id: str | None = None,
) -> SafeString:
    """Draw observed counts as bars and the expected counts as a dotted line with markers.

    Keys are the categories along the x axis (the 2D6 totals), in the order given.
    """
    chart_id = escape(chart_id or f"chart-{next(_ids)}")
    keys = list(observed)
    height, left, right, top_margin, bottom = 290, 40, WIDTH - 8, 44, 240
    top = max([*observed.values(), *(float(value) for value in expected.values()), 1])
    top = _tick_step(top) * -(-top // _tick_step(top))

    def y(value: float) -> float:
        return bottom - (bottom - top_margin) * float(value) / top

    slot = (right - left) / max(len(keys), 1)
    body = [
        # The legend sits above the plot so it never collides with the axis labels.
        f'<rect class="chart-bar" x="{left}" y="8" width="14" height="14"/>'
        f'<text class="chart-legend" x="{left + 20}" y="20">{escape(observed_label)}</text>'
        f'<line class="chart-expected" x1="{WIDTH / 2 + 10:.0f}" x2="{WIDTH / 2 + 34:.0f}"'
        f' y1="15" y2="15"/><circle class="chart-expected-point" cx="{WIDTH / 2 + 22:.0f}"'
        f' cy="15" r="4"/>'
        f'<text class="chart-legend" x="{WIDTH / 2 + 40:.0f}" y="20">'
        f"{escape(expected_label)}</text>"
    ]
    _y_axis(body, top=top, left=left, right=right, y=y)
    points = []
    for index, key in enumerate(keys):
        centre = left + slot * (index + 0.5)
        count_here = observed[key]
        bar_top = y(count_here)
        body.append(
            f'<rect class="chart-bar" x="{_number(centre - slot * 0.35)}" y="{_number(bar_top)}"'
            f' width="{_number(slot * 0.7)}" height="{_number(bottom - bar_top)}">'
            f"<title>{escape(key)}: {escape(count_here)}</title></rect>"
            f'<text class="chart-tick" x="{_number(centre)}" y="{bottom + 18}"'
            f' text-anchor="middle">{escape(key)}</text>'
        )
        points.append((centre, y(expected.get(key, 0))))
    if points:
        body.append(
            '<polyline class="chart-expected" points="'
            + " ".join(f"{_number(x)},{_number(y_)}" for x, y_ in points)
            + '"/>'
        )
        body.extend(
            f'<circle class="chart-expected-point" cx="{_number(x)}" cy="{_number(y_)}" r="3.5"/>'
            for x, y_ in points
        )
    body.append(
        f'<line class="chart-axis" x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}"/>'
        f'<text class="chart-axis-label" x="{(left + right) / 2:.0f}" y="{height - 8}"'
        f' text-anchor="middle">{escape(x_label)}</text>'
    )
    return _frame(chart_id, height, title, desc, body)


def line_chart_svg(
    series: Sequence[tuple[str, Sequence[tuple[str, float]]]],
    *,
    title: str,
    desc: str,
    chart_id: str | None = None,
) -> SafeString:
    """Draw one line per named series over shared x labels (e.g. sessions), with a legend.

    X labels are placed in the order they first appear across the series; a series that
    lacks a label simply has no point there.
    """
    chart_id = escape(chart_id or f"chart-{next(_ids)}")
    labels: list[str] = []
    for _name, points in series:
        for label, _value in points:
            if label not in labels:
                labels.append(label)
    values = [float(value) for _name, points in series for _label_, value in points]
    low = min([0.0, *values])
    high = max([1.0, *values])
    step = _tick_step(high - low)
    low = step * (low // step)
    high = step * -(-high // step)
    legend_rows = -(-len(series) // 2)
    left, right, top_margin, bottom = 44, WIDTH - 16, 16, 216
    height = bottom + 44 + 22 * legend_rows

    def y(value: float) -> float:
        return bottom - (bottom - top_margin) * (float(value) - low) / (high - low)

    def x(label: str) -> float:
        if len(labels) == 1:
            return (left + right) / 2
        return left + (right - left) * labels.index(label) / (len(labels) - 1)

    body: list[str] = []
    tick = low
    while tick <= high + 1e-9:
        position = _number(y(tick))
        body.append(
            f'<line class="chart-grid" x1="{left}" x2="{right}" y1="{position}" y2="{position}"/>'
            f'<text class="chart-tick" x="{left - 6}" y="{position}" text-anchor="end"'
            f' dominant-baseline="middle">{escape(_label(tick))}</text>'
        )
        tick += step
    # Long session names would collide at 390 px: unless every label fits its slot (each
    # character counted as wide as a kanji), number the x axis and let the tooltips and the
    # caller's description carry the names.
    slot = (right - left) / max(len(labels) - 1, 1)
    fits = all(len(label) * 17 <= slot for label in labels)
    for index, label in enumerate(labels, start=1):
        shown = escape(label) if fits else index
        body.append(
            f'<text class="chart-tick" x="{_number(x(label))}" y="{bottom + 18}"'
            f' text-anchor="middle">{shown}<title>{escape(label)}</title></text>'
        )
    body.append(f'<line class="chart-axis" x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}"/>')
    for index, (name, points) in enumerate(series):
        css = f"chart-series-{index % SERIES_CLASSES}"
        coordinates = [(x(label), y(value), label, value) for label, value in points]
        if len(coordinates) > 1:
            body.append(
                f'<polyline class="chart-line {css}" points="'
                + " ".join(f"{_number(px)},{_number(py)}" for px, py, _l, _v in coordinates)
                + '"/>'
            )
        body.extend(
            f'<circle class="chart-point {css}" cx="{_number(px)}" cy="{_number(py)}" r="4">'
            f"<title>{escape(name)} · {escape(label)}: {escape(_label(value))}</title></circle>"
            for px, py, label, value in coordinates
        )
        row, column = divmod(index, 2)
        legend_x = left + column * (right - left) / 2
        legend_y = bottom + 40 + 22 * row
        body.append(
            f'<circle class="chart-point {css}" cx="{_number(legend_x + 6)}"'
            f' cy="{legend_y - 5}" r="5"/>'
            f'<text class="chart-legend" x="{_number(legend_x + 16)}" y="{legend_y}">'
            f"{escape(name)}</text>"
        )
    return _frame(chart_id, height, title, desc, body)
