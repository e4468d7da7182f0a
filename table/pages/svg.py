"""A server-rendered bar chart of a distribution, readable without JavaScript or sight.

`odds_chart()` returns SVG markup (already escaped, safe to insert) with
role="img", a <title> and a <desc> that say in words what the bars show; the
page puts a plain-text summary beside it as well. Bars that succeed are filled
solid and the others hatched, and the target is a labelled line, so the chart
does not rely on colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from html import escape

from django.utils.safestring import SafeString, mark_safe

from rules.kit.odds_queries import Bar, percent

__all__ = ["Bar", "odds_chart", "percent"]

WIDTH = 320
HEIGHT = 150
PLOT_TOP = 22
PLOT_BOTTOM = 122
PLOT_LEFT = 8
PLOT_RIGHT = WIDTH - 8
MAX_BARS = 60


def _trim(bars: Sequence[Bar]) -> list[Bar]:
    """Keep the chart readable: drop empty ends, and merge very long tails into the last bar."""
    bars = [b for b in bars]
    while bars and bars[0].chance == 0:
        bars.pop(0)
    while bars and bars[-1].chance == 0:
        bars.pop()
    if len(bars) <= MAX_BARS:
        return bars
    # Keep the most likely window of MAX_BARS values; what lies outside is tiny.
    best_start, best_mass = 0, Fraction(-1)
    for start in range(len(bars) - MAX_BARS + 1):
        mass = sum((b.chance for b in bars[start : start + MAX_BARS]), Fraction(0))
        if mass > best_mass:
            best_start, best_mass = start, mass
    return bars[best_start : best_start + MAX_BARS]


def odds_chart(
    bars: Sequence[Bar],
    *,
    title: str,
    summary: str,
    target_label: str = "",
    target_index: float | None = None,
    chart_id: str = "odds",
) -> SafeString:
    """The chart as SVG markup.

    `target_index` is where the target line goes, in bar positions (0 = left edge
    of the first bar as given); the caller computes it from its own rule (beat,
    reach, tie...). `summary` is the sentence a screen reader hears first.
    """
    shown = _trim(bars)
    offset = 0
    if shown and bars:
        offset = next(i for i, b in enumerate(bars) if b is shown[0])
    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    parts = [
        f'<svg class="odds-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{title_id} {desc_id}" xmlns="http://www.w3.org/2000/svg" '
        'preserveAspectRatio="xMidYMid meet" focusable="false">',
        f'<title id="{title_id}">{escape(title)}</title>',
        f'<desc id="{desc_id}">{escape(_describe(shown, summary))}</desc>',
        "<defs>"
        f'<pattern id="{chart_id}-hatch" width="4" height="4" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="4" height="4" class="bar-miss-bg"/>'
        '<line x1="0" y1="0" x2="0" y2="4" class="bar-miss-line"/></pattern></defs>',
    ]
    if not shown:
        parts.append(
            f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle" class="axis">'
            "No roll to chart</text></svg>"
        )
        return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped
    top = max(b.chance for b in shown) or Fraction(1)
    slot = (PLOT_RIGHT - PLOT_LEFT) / len(shown)
    gap = min(2.0, slot * 0.15)
    label_every = max(1, round(len(shown) / 12))
    for i, bar in enumerate(shown):
        height = float(bar.chance / top) * (PLOT_BOTTOM - PLOT_TOP)
        x = PLOT_LEFT + i * slot
        fill = "bar-hit" if bar.success else "bar-miss"
        style = "" if bar.success else f' fill="url(#{chart_id}-hatch)"'
        parts.append(
            f'<rect class="{fill}"{style} x="{x + gap / 2:.2f}" y="{PLOT_BOTTOM - height:.2f}" '
            f'width="{slot - gap:.2f}" height="{max(height, 0.5):.2f}">'
            f"<title>{bar.value}: {percent(bar.chance)}</title></rect>"
        )
        if i % label_every == 0 or i == len(shown) - 1:
            parts.append(
                f'<text class="axis" x="{x + slot / 2:.2f}" y="{PLOT_BOTTOM + 12}" '
                f'text-anchor="middle">{bar.value}</text>'
            )
    parts.append(
        f'<line class="baseline" x1="{PLOT_LEFT}" y1="{PLOT_BOTTOM}" x2="{PLOT_RIGHT}" '
        f'y2="{PLOT_BOTTOM}"/>'
    )
    if target_index is not None:
        position = min(max(target_index - offset, 0), len(shown))
        x = PLOT_LEFT + position * slot
        anchor = "start" if position < len(shown) / 2 else "end"
        shift = 3 if anchor == "start" else -3
        parts.append(
            f'<line class="target" x1="{x:.2f}" y1="{PLOT_TOP - 6}" x2="{x:.2f}" '
            f'y2="{PLOT_BOTTOM + 2}"/>'
            f'<text class="target-label" x="{x + shift:.2f}" y="{PLOT_TOP - 10}" '
            f'text-anchor="{anchor}">{escape(target_label)}</text>'
        )
    parts.append(
        f'<text class="axis" x="{PLOT_LEFT}" y="{HEIGHT - 4}">solid: succeeds · hatched: fails'
        "</text></svg>"
    )
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped


def _describe(bars: Sequence[Bar], summary: str) -> str:
    if not bars:
        return summary
    likely = max(bars, key=lambda b: b.chance)
    return (
        f"{summary} Values from {bars[0].value} to {bars[-1].value}; "
        f"the most likely is {likely.value} ({percent(likely.chance)})."
    )
