"""Charts of tournaments: honest numbers, drawn as SVG without matplotlib, stable for nbval."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.charts import (
    IntervalChart,
    IntervalRow,
    NarrowingChart,
    NarrowingPoint,
    _ticks,
    narrowing,
    narrowing_chart,
    standings_chart,
)
from rummykit.tournament import TournamentResult, run_tournament

SVG = "{http://www.w3.org/2000/svg}"


@cache
def _tournament(players: int = 2, games: int = 8, duplicate: bool = True) -> TournamentResult:
    return run_tournament(
        "rommi", players, ["easy", "normal"], games=games, seed=3, workers=1, duplicate=duplicate
    )


def _svg(html: str) -> ET.Element:
    assert html.startswith('<figure class="rk-chart"') and html.endswith("</figure>")
    root = ET.fromstring(html)  # well-formed XML, or this raises
    svg = root.find(f"{SVG}svg")
    assert svg is not None
    return svg


# --- a tournament cut short is the tournament that stopped there ----------------------------


@pytest.mark.parametrize(("players", "duplicate"), [(2, True), (3, True), (2, False)])
def test_upto_equals_the_shorter_tournament(players: int, duplicate: bool) -> None:
    full = _tournament(players, 8, duplicate)
    assert full.upto(8) == full
    short = run_tournament(  # 5 games: cut in the middle of a deal for two players
        "rommi", players, ["easy", "normal"], games=5, seed=3, workers=1, duplicate=duplicate
    )
    assert full.upto(5) == short


@pytest.mark.parametrize("games", [0, -1, 9])
def test_upto_refuses_a_length_outside_the_tournament(games: int) -> None:
    with pytest.raises(ValueError, match=f"1 to 8 games, not {games}"):
        _tournament().upto(games)


# --- the narrowing -------------------------------------------------------------------------


def test_narrowing_points_are_the_comparisons_of_shorter_tournaments() -> None:
    result = _tournament()
    points = narrowing(result, "normal", "easy", steps=5)
    games = [p.games for p in points]
    assert games == sorted(set(games)) and games[-1] == 8
    assert all(n % 2 == 0 and n >= 4 for n in games)  # whole deals, at least two of them
    for point in points:
        expected = result.upto(point.games).comparison("normal", "easy")
        assert (point.difference, point.ci, point.better) == (
            expected.difference,
            expected.ci,
            expected.better,
        )
        assert point.ci is not None and point.ci[0] <= point.difference <= point.ci[1]


def test_narrowing_turned_round_mirrors_the_difference() -> None:
    result = _tournament()
    ahead = narrowing(result, "normal", "easy", steps=3)
    behind = narrowing(result, "easy", "normal", steps=3)
    for a, b in zip(ahead, behind, strict=True):
        assert a.games == b.games and a.difference == pytest.approx(-b.difference)


def test_narrowing_refuses_unknown_agents_and_bad_steps() -> None:
    with pytest.raises(ValueError, match=r"'hard' did not play in this tournament.*easy, normal"):
        narrowing(_tournament(), "hard", "easy")
    with pytest.raises(ValueError, match="at least one step, not 0"):
        narrowing(_tournament(), "normal", "easy", steps=0)


def test_one_deal_gives_a_point_without_an_interval_and_still_draws() -> None:
    result = _tournament(2, 2)
    chart = narrowing_chart(result, "normal", "easy")
    assert [p.games for p in chart.points] == [2] and chart.points[0].ci is None
    assert "—" in chart.lines()[1]
    svg = _svg(chart._repr_html_())
    assert svg.find(f"{SVG}polygon") is None  # no band to draw
    assert "still holds zero" in chart.lines()[-1]


def _point(games: int, better: str | None) -> NarrowingPoint:
    return NarrowingPoint(games, 1.0, (0.5, 1.5) if better else (-1.0, 3.0), better)


@pytest.mark.parametrize(
    ("pattern", "settled"),
    [
        ([None, None, "a", "a"], 3),
        (["a", None, "a", "a"], 3),
        (["a", "a", "a", "a"], 1),
        ([None, "a", "a", None], None),
        ([None, None, None, None], None),
    ],
)
def test_settled_is_the_first_point_from_which_zero_stays_out(
    pattern: list[str | None], settled: int | None
) -> None:
    chart = NarrowingChart(
        "a", "b", "round", False, tuple(_point(n, b) for n, b in enumerate(pattern, start=1))
    )
    assert (chart.settled_at.games if chart.settled_at else None) == settled
    last = chart.lines()[-1]
    marks = [
        t.text
        for t in _svg(chart._repr_html_()).iter(f"{SVG}text")
        if "zero is out" in (t.text or "")
    ]
    if settled is None:
        assert last.startswith("Even after 4 rounds, the interval still holds zero")
        assert not marks
    else:
        rounds = "1 round" if settled == 1 else f"{settled} rounds"
        assert last.startswith(f"From {rounds} on, the interval leaves zero out: a is stronger")
        assert marks == [f"from {rounds} on, zero is out"]


def test_narrowing_svg_places_every_point_where_its_value_says() -> None:
    chart = narrowing_chart(_tournament(), "normal", "easy", steps=5)
    svg = _svg(chart._repr_html_())
    assert svg.get("role") == "img"
    assert svg.get("aria-label") == " ".join(chart.lines())  # the picture says it in words
    circles = svg.findall(f"{SVG}circle")
    assert len(circles) == len(chart.points)
    xs = [float(c.get("cx", "nan")) for c in circles]
    ys = [float(c.get("cy", "nan")) for c in circles]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)  # more games, further right
    width, height = (float(v) for v in svg.get("viewBox", "").split()[2:])
    assert all(0 <= x <= width for x in xs) and all(0 <= y <= height for y in ys)
    by_value = sorted(range(len(ys)), key=lambda i: chart.points[i].difference)
    by_height = sorted(range(len(ys)), key=lambda i: -ys[i])  # higher value, higher up
    assert [chart.points[i].difference for i in by_value] == [
        chart.points[i].difference for i in by_height
    ]
    band = svg.find(f"{SVG}polygon")
    assert band is not None
    corners = [tuple(map(float, p.split(","))) for p in band.get("points", "").split()]
    assert len(corners) == 2 * len(chart.points)
    for i, (x, y) in enumerate(corners[: len(chart.points)]):  # the upper edge
        assert x == xs[i] and y <= ys[i]
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert "no difference" in texts and "rounds played" in texts


def test_narrowing_chart_in_matches_says_matches() -> None:
    chart = NarrowingChart("a", "b", "match", True, (_point(4, None), _point(6, "a")))
    assert chart.lines()[1].startswith("after 4 matches:")
    assert chart.lines()[0].startswith("a − b: the difference in points per match")
    assert "matches played" in [t.text for t in _svg(chart._repr_html_()).iter(f"{SVG}text")]


# --- the standings --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["rommi", "hungarian"])
def test_standings_chart_rows_follow_the_standings(variant: str) -> None:
    result = run_tournament(variant, 2, ["easy", "normal"], games=4, seed=2, workers=1)
    chart = standings_chart(result)
    better = "lower is better" if variant == "hungarian" else "higher is better"
    assert chart.title.endswith(f"({better})")
    assert [r.label for r in chart.rows] == [s.agent for s in result.standings]
    assert [(r.estimate, r.ci) for r in chart.rows] == [(s.mean, s.ci) for s in result.standings]
    svg = _svg(chart._repr_html_())
    dots = [float(c.get("cx", "nan")) for c in svg.findall(f"{SVG}circle")]
    order = sorted(range(len(dots)), key=lambda i: dots[i])
    assert [chart.rows[i].estimate for i in order] == sorted(r.estimate for r in chart.rows)
    for row, line in zip(chart.rows, chart.lines()[1:], strict=True):
        assert line.startswith(f"{row.label}: {row.estimate:+.2f} [")


def test_interval_chart_draws_zero_inside_its_axis() -> None:
    chart = IntervalChart("t", "points", (IntervalRow("a", 3.0, (2.0, 4.0)),))
    svg = _svg(chart._repr_html_())
    ticks = [t.text for t in svg.iter(f"{SVG}text")]
    assert "0" in ticks and "4" in ticks  # the axis reaches zero even when no row does


# --- stable and light -----------------------------------------------------------------------


def test_repr_is_short_stable_and_free_of_numbers_that_move() -> None:
    a = narrowing_chart(_tournament(), "normal", "easy", steps=3)
    b = narrowing_chart(_tournament(), "normal", "easy", steps=3)
    assert repr(a) == repr(b) == "NarrowingChart('normal', 'easy', games=(4, 6, 8))"
    assert a._repr_html_() == b._repr_html_()
    assert " at 0x" not in repr(standings_chart(_tournament()))


def test_charts_need_no_matplotlib() -> None:
    code = (
        "import sys; import rummykit.charts; "
        "bad = [m for m in ('matplotlib', 'ipywidgets', 'IPython') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@settings(max_examples=200, deadline=None)
@given(
    st.floats(-1e4, 1e4, allow_nan=False),
    st.floats(1e-3, 1e4, allow_nan=False),
)
def test_ticks_are_round_and_cover_the_range(low: float, span: float) -> None:
    high = low + span
    ticks = _ticks(low, high)
    assert ticks[0] <= low + 1e-9 and ticks[-1] >= high - 1e-9
    steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1
    (step,) = steps
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 6) in (1, 2, 5, 10)
    assert 2 <= len(ticks) <= 12
