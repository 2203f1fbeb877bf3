"""Charts of a tournament drawn as SVG in plain HTML, with no plotting library.

Two pictures answer the classroom's question "is hard really stronger than normal?":
:func:`standings_chart` draws each agent's mean points with its 95% confidence interval, and
:func:`narrowing_chart` draws the difference between two agents as the rounds add up, its
interval narrowing until it leaves zero out. Like the cards (:mod:`rummykit.display`), a
chart shows itself in a notebook (``_repr_html_``), says the same in words (``lines()``, and
an ``aria-label`` on the picture) and never relies on colour alone. Its ``repr`` is short and
stable, so notebooks compare it under nbval.

>>> from rummykit.tournament import run_tournament
>>> result = run_tournament("rommi", 2, ["easy", "normal"], games=8, seed=1, workers=1)
>>> chart = narrowing_chart(result, "normal", "easy", steps=4)
>>> chart
NarrowingChart('normal', 'easy', games=(4, 6, 8))
>>> chart._repr_html_().startswith("<figure") and "<svg" in chart._repr_html_()
True
>>> standings_chart(result)  # doctest: +ELLIPSIS
IntervalChart(rows=(...))
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from rummykit.errors import RummykitError
from rummykit.messages import render
from rummykit.tournament import Comparison, TournamentResult
from rummykit.variants import variant as get_variant

__all__ = [
    "IntervalChart",
    "IntervalRow",
    "NarrowingChart",
    "NarrowingPoint",
    "narrowing",
    "narrowing_chart",
    "standings_chart",
]

_INK = "#1a1a1a"
_GRID = "#d0d0d0"
_BAND = "#2f6f4f"
_MARK = "#d9480f"
_FONT = 'font-family="sans-serif"'


@dataclass(frozen=True, slots=True)
class IntervalRow:
    """One estimate and its 95% confidence interval (None when one sample can't give one)."""

    label: str
    estimate: float
    ci: tuple[float, float] | None


@dataclass(frozen=True, slots=True)
class NarrowingPoint:
    """``first`` − ``second`` after the first ``games`` games, with its 95% interval."""

    games: int
    difference: float
    ci: tuple[float, float] | None
    better: str | None


def _number(value: float) -> str:
    return f"{value:+.2f}"


def _ci_text(ci: tuple[float, float] | None) -> str:
    """An interval in a sentence, its numbers with the language's decimal mark."""
    return "—" if ci is None else render("interval", low=_number(ci[0]), high=_number(ci[1]))


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2 or 5 × a power of ten apart) covering ``low``..``high``."""
    if high <= low:
        high = low + 1.0
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 10))
    return ticks


def _tick_text(value: float) -> str:
    return f"{value:g}"


def _text(
    x: float, y: float, body: str, *, size: int = 12, anchor: str = "middle", **more: str
) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in more.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" {_FONT} text-anchor="{anchor}" '
        f'fill="{_INK}"{extra}>{escape(body)}</text>'
    )


def _title(title: str, width: int) -> tuple[str, int]:
    """The title in bold, wrapped to the chart's width; and the height it takes."""
    rows = textwrap.wrap(title, width // 7)
    body = "".join(
        _text(width / 2, 20 + 17 * i, row, size=13, font_weight="bold")
        for i, row in enumerate(rows)
    )
    return body, 17 * len(rows)


def _figure(svg: str, lines: Sequence[str], width: int, height: int) -> str:
    label = " ".join(lines)
    return (
        '<figure class="rk-chart" style="margin:0">'
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(label)}">'
        f"<title>{escape(lines[0])}</title>"
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>'
        f"{svg}</svg></figure>"
    )


# --- each agent's mean with its interval ----------------------------------------------------


@dataclass(frozen=True)
class IntervalChart:
    """Estimates with their 95% confidence intervals, one row each, drawn as SVG."""

    title: str
    axis: str
    rows: tuple[IntervalRow, ...]

    def lines(self) -> list[str]:
        """The chart in words: the title, then one line per row."""
        return [
            self.title,
            *(
                render("chart_row", label=r.label, estimate=_number(r.estimate), ci=_ci_text(r.ci))
                for r in self.rows
            ),
        ]

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        return f"IntervalChart(rows={tuple(r.label for r in self.rows)!r})"

    def svg(self) -> tuple[str, int, int]:
        """The picture (SVG body, width, height): a dot for each estimate, a bar with end caps
        for its interval, zero dashed."""
        width, left, right, row_h = 600, 110, 30, 34
        title, title_h = _title(self.title, width)
        top = 27 + title_h
        height = top + row_h * len(self.rows) + 50
        values = [v for r in self.rows for v in (r.estimate, *(r.ci or ()))] + [0.0]
        ticks = _ticks(min(values), max(values))
        lo, hi = ticks[0], ticks[-1]

        def x(value: float) -> float:
            return left + (value - lo) / (hi - lo) * (width - left - right)

        bottom = top + row_h * len(self.rows)
        parts = [title]
        for t in ticks:
            parts.append(
                f'<line x1="{x(t):.1f}" y1="{top - 6}" x2="{x(t):.1f}" y2="{bottom}" '
                f'stroke="{_GRID}" stroke-width="1"/>'
            )
            parts.append(_text(x(t), bottom + 16, _tick_text(t), size=11))
        parts.append(
            f'<line x1="{x(0):.1f}" y1="{top - 6}" x2="{x(0):.1f}" y2="{bottom}" '
            f'stroke="{_INK}" stroke-width="1.5" stroke-dasharray="5 3"/>'
        )
        parts.append(_text((left + width - right) / 2, bottom + 36, self.axis, size=12))
        for i, row in enumerate(self.rows):
            y = top + row_h * i + row_h / 2
            parts.append(_text(left - 10, y + 4, row.label, size=13, anchor="end"))
            if row.ci is not None:
                a, b = x(row.ci[0]), x(row.ci[1])
                parts.append(
                    f'<line x1="{a:.1f}" y1="{y:.1f}" x2="{b:.1f}" y2="{y:.1f}" '
                    f'stroke="{_BAND}" stroke-width="3"/>'
                )
                for end in (a, b):
                    parts.append(
                        f'<line x1="{end:.1f}" y1="{y - 7:.1f}" x2="{end:.1f}" y2="{y + 7:.1f}" '
                        f'stroke="{_BAND}" stroke-width="3"/>'
                    )
            parts.append(f'<circle cx="{x(row.estimate):.1f}" cy="{y:.1f}" r="5" fill="{_INK}"/>')
        return "".join(parts), width, height

    def _repr_html_(self) -> str:
        body, width, height = self.svg()
        return _figure(body, self.lines(), width, height)


def standings_chart(result: TournamentResult) -> IntervalChart:
    """Each agent's mean points per seat and round (or match), with its 95% interval.

    >>> from rummykit.tournament import run_tournament
    >>> result = run_tournament("rommi", 2, ["easy", "normal"], games=8, seed=1, workers=1)
    >>> print(standings_chart(result))  # doctest: +ELLIPSIS
    Rommi: points per seat and round, with 95% confidence intervals (higher is better)
    ...: ... [..., ...]
    ...: ... [..., ...]
    """
    unit = render(f"tournament_unit_{result.unit}")
    better = render("chart_better_low" if result.low_score_wins else "chart_better_high")
    title = render(
        "chart_standings_title",
        variant=get_variant(result.variant).title,
        unit=unit,
        better=better,
    )
    rows = tuple(IntervalRow(s.agent, s.mean, s.ci) for s in result.standings)
    return IntervalChart(title, render("chart_axis_points", unit=unit), rows)


# --- the difference as the games add up -------------------------------------------------------


def narrowing(
    result: TournamentResult, first: str, second: str, steps: int = 8
) -> tuple[NarrowingPoint, ...]:
    """``first`` − ``second`` after growing prefixes of the tournament, with 95% intervals.

    The prefixes end after whole deals (each deal played from every seat), about ``steps``
    of them evenly spaced, the last one the whole tournament.

    >>> from rummykit.tournament import run_tournament
    >>> result = run_tournament("rommi", 2, ["easy", "normal"], games=8, seed=1, workers=1)
    >>> [p.games for p in narrowing(result, "normal", "easy", steps=3)]
    [4, 6, 8]
    """
    if steps < 1:
        raise RummykitError(render("chart_bad_steps", steps=steps))
    labels = {s.agent for s in result.standings}
    for name in (first, second):
        if name not in labels:
            raise RummykitError(
                render("chart_unknown_agent", agent=name, agents=", ".join(sorted(labels)))
            )
    block = result.players if result.duplicate else 1
    deals = math.ceil(result.games / block)
    counts = sorted(
        {min(result.games, block * math.ceil(deals * k / steps)) for k in range(1, steps + 1)}
    )
    counts = [n for n in counts if n >= 2 * block] or [result.games]
    points = []
    for n in counts:
        comparison = result.upto(n).comparison(first, second)
        points.append(NarrowingPoint(n, comparison.difference, comparison.ci, comparison.better))
    return tuple(points)


@dataclass(frozen=True)
class NarrowingChart:
    """The difference between two agents as the games add up: the estimate and the band of its
    95% confidence interval, with zero (no difference) marked."""

    first: str
    second: str
    unit: str
    low_score_wins: bool
    points: tuple[NarrowingPoint, ...]

    @property
    def settled_at(self) -> NarrowingPoint | None:
        """The first point from which every interval leaves zero out (None: not yet)."""
        settled = None
        for point in self.points:
            if point.better is None:
                settled = None
            elif settled is None:
                settled = point
        return settled

    def _games_text(self, n: int) -> str:
        return render(f"chart_games_{self.unit}", games=n)

    def lines(self) -> list[str]:
        """The chart in words: the title, one line per point, and what it shows."""
        unit = render(f"tournament_unit_{self.unit}")
        out = [render("chart_narrowing_title", first=self.first, second=self.second, unit=unit)]
        for p in self.points:
            verdict = Comparison(self.first, self.second, p.difference, p.ci, p.better).verdict
            out.append(
                render(
                    "chart_step",
                    games=self._games_text(p.games),
                    difference=_number(p.difference),
                    ci=_ci_text(p.ci),
                    verdict=verdict,
                )
            )
        settled = self.settled_at
        if settled is None:
            out.append(render("chart_not_settled", games=self._games_text(self.points[-1].games)))
        else:
            out.append(
                render(
                    "chart_settled",
                    games=self._games_text(settled.games),
                    better=settled.better,
                )
            )
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        games = tuple(p.games for p in self.points)
        return f"NarrowingChart({self.first!r}, {self.second!r}, games={games!r})"

    def svg(self) -> tuple[str, int, int]:
        """The picture (SVG body, width, height): the band of the interval, the estimate on it,
        zero dashed, and a mark where the interval leaves zero out for good."""
        width, left, right, bottom = 600, 64, 24, 56
        unit = render(f"tournament_unit_{self.unit}")
        title = render("chart_narrowing_title", first=self.first, second=self.second, unit=unit)
        heading, title_h = _title(title, width)
        top = 23 + title_h
        height = top + 224 + bottom
        values = [v for p in self.points for v in (p.difference, *(p.ci or ()))] + [0.0]
        yticks = _ticks(min(values), max(values))
        xticks = _ticks(0, self.points[-1].games, 6)
        y_lo, y_hi, x_hi = yticks[0], yticks[-1], xticks[-1]
        plot_w, plot_h = width - left - right, height - top - bottom

        def x(games: float) -> float:
            return left + games / x_hi * plot_w

        def y(value: float) -> float:
            return top + (y_hi - value) / (y_hi - y_lo) * plot_h

        parts = [heading]
        for t in yticks:
            parts.append(
                f'<line x1="{left}" y1="{y(t):.1f}" x2="{width - right}" y2="{y(t):.1f}" '
                f'stroke="{_GRID}" stroke-width="1"/>'
            )
            parts.append(_text(left - 6, y(t) + 4, _tick_text(t), size=11, anchor="end"))
        for t in xticks:
            parts.append(_text(x(t), top + plot_h + 16, _tick_text(t), size=11))
        parts.append(
            f'<line x1="{left}" y1="{top + plot_h}" x2="{width - right}" y2="{top + plot_h}" '
            f'stroke="{_INK}" stroke-width="1"/>'
        )
        banded = [p for p in self.points if p.ci is not None]
        if banded:
            outline = [f"{x(p.games):.1f},{y(p.ci[1]):.1f}" for p in banded if p.ci]
            outline += [f"{x(p.games):.1f},{y(p.ci[0]):.1f}" for p in reversed(banded) if p.ci]
            parts.append(
                f'<polygon points="{" ".join(outline)}" fill="{_BAND}" fill-opacity="0.2" '
                f'stroke="{_BAND}" stroke-width="1" stroke-dasharray="3 2"/>'
            )
        parts.append(
            f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" '
            f'stroke="{_INK}" stroke-width="1.5" stroke-dasharray="6 4"/>'
        )
        parts.append(
            _text(width - right - 4, y(0) - 5, render("chart_zero"), size=11, anchor="end")
        )
        line = " ".join(f"{x(p.games):.1f},{y(p.difference):.1f}" for p in self.points)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{_INK}" stroke-width="2"/>')
        for p in self.points:
            parts.append(
                f'<circle cx="{x(p.games):.1f}" cy="{y(p.difference):.1f}" r="3.5" fill="{_INK}"/>'
            )
        settled = self.settled_at
        if settled is not None:
            parts.append(
                f'<line x1="{x(settled.games):.1f}" y1="{top}" x2="{x(settled.games):.1f}" '
                f'y2="{top + plot_h}" stroke="{_MARK}" stroke-width="2" stroke-dasharray="2 3"/>'
            )
            mark = render("chart_settled_mark", games=self._games_text(settled.games))
            parts.append(_text(x(settled.games) + 5, top + 12, mark, size=11, anchor="start"))
        axis_x = render(f"chart_axis_games_{self.unit}")
        parts.append(_text(left + plot_w / 2, height - 14, axis_x, size=12))
        axis_y = render("chart_axis_difference", first=self.first, second=self.second, unit=unit)
        parts.append(
            _text(
                16,
                top + plot_h / 2,
                axis_y,
                size=12,
                transform=f"rotate(-90 16 {top + plot_h / 2:.1f})",
            )
        )
        return "".join(parts), width, height

    def _repr_html_(self) -> str:
        body, width, height = self.svg()
        return _figure(body, self.lines(), width, height)


def narrowing_chart(
    result: TournamentResult, first: str, second: str, steps: int = 8
) -> NarrowingChart:
    """The chart of :func:`narrowing`: how sure can we be that ``first`` and ``second`` differ?

    >>> from rummykit.tournament import run_tournament
    >>> result = run_tournament("rommi", 2, ["easy", "normal"], games=8, seed=1, workers=1)
    >>> print(narrowing_chart(result, "normal", "easy", steps=2))  # doctest: +ELLIPSIS
    normal − easy: the difference in points per round as games are added, with its 95% confidence interval
    after 4 rounds: ... [..., ...] — ...
    after 8 rounds: ... [..., ...] — ...
    ...
    """
    points = narrowing(result, first, second, steps)
    return NarrowingChart(first, second, result.unit, result.low_score_wins, points)
