"""Seeded tournaments between agents: who is stronger, and how sure can we be?

:func:`run_tournament` plays many deals between agents and reports, for each agent, the mean
score per round with a 95% confidence interval, its win rate, and the difference between
every two agents.

**The unit is the round (one deal).** Every round is scored under the variant's own rules
(R8: Rommi's winner takes what the others hold; H12/H13: Hungarian's −10/−20 for going out,
the hand or a flat 100 for the rest), so a round's points are the natural, fine-grained
measure of strength. Whole matches (``unit="match"``: 7 Hungarian rounds, or Rommi to the
target) can be played instead; they give one, much noisier, number per match.

**Seats rotate.** The ``agents`` are cycled over the seats (``["hard", "normal"]`` with four
players seats two of each). Each deal's seating is a permutation drawn from the seed, and
with ``duplicate=True`` (the default) every deal is played ``players`` times, the seating
rotated one seat each time, so every agent plays every hand from every seat: neither the
seat order nor the luck of the deal favours anyone. The confidence intervals treat the
rotations of one deal as one sample (a cluster), so they are honest about that pairing.

**Deterministic.** Each game is fixed by the seed and its number alone, and results are put
back in order, so the same seed gives the same result with any number of workers.

>>> result = run_tournament("rommi", 2, ["easy", "normal"], games=4, seed=1, workers=1)
>>> [s.agent for s in result.standings] == sorted(["easy", "normal"], key=result.place_of)
True
>>> result == run_tournament("rommi", 2, ["easy", "normal"], games=4, seed=1, workers=1)
True

Standard library only: the progress bar is the caller's (``progress(done, total)``).
"""

from __future__ import annotations

import copy
import math
import multiprocessing
import os
import pickle
import random
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from html import escape
from itertools import combinations
from typing import Any, TypeAlias, Union

from rummykit.agents.files import AgentImportError, import_agent
from rummykit.agents.forfeit import Forfeit, ForfeitRecord, forfeit_points
from rummykit.agents.process import ProcessAgent, stop_idle
from rummykit.ai.agents import Agent
from rummykit.ai.levels import AGENTS, make_agent
from rummykit.errors import RummykitError, Said, sentence_of
from rummykit.game.match import Match
from rummykit.game.state import Game, IllegalAction
from rummykit.messages import decimal, render
from rummykit.runtime import BrowserLimit, in_browser
from rummykit.variants import Variant
from rummykit.variants import variant as get_variant
from rummykit.workers import supervise

__all__ = [
    "AgentSpec",
    "AgentStanding",
    "Comparison",
    "GameRecord",
    "TournamentError",
    "TournamentResult",
    "agent_label",
    "load_agent",
    "run_tournament",
]

AgentSpec: TypeAlias = Union[str, Callable[[], Agent], Agent]  # noqa: UP007 (3.10 at runtime)
"""An agent for a tournament: a level name (``"hard"``), ``"module:Name"`` naming a class or
factory, a class or zero-argument factory returning an agent, or an agent (copied per game)."""

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval
MAX_ACTIONS = 20_000  # per round: an agent that loops is a bug, not a long game


class TournamentError(Said, RuntimeError):
    """A tournament could not be set up, or a game in it failed."""


# --- agents ------------------------------------------------------------------------------------


def load_agent(spec: AgentSpec) -> Callable[[], Agent]:
    """A zero-argument factory for the agent ``spec`` names.

    ``"easy"``, ``"normal"``, ``"hard"``, the baseline ``"greedy"``; ``"package.module:Name"`` (a class or factory,
    looked up in the current directory too); a class or factory; or an agent instance,
    which is copied for every game.

    >>> load_agent("hard")().name
    'hard'
    >>> load_agent("rummykit.ai:EasyAgent")().name
    'easy'
    """
    if isinstance(spec, str):
        text = spec.strip()
        if text.lower() in AGENTS:
            return _Level(text.lower())
        if ":" in text:
            return _imported(text)
        raise TournamentError(
            render("tournament_unknown_agent", spec=spec, levels=", ".join(AGENTS))
        )
    if isinstance(spec, type):
        return spec
    if isinstance(spec, Agent):
        return _Copy(spec)
    if callable(spec):
        return spec
    raise TournamentError(render("tournament_unknown_agent", spec=spec, levels=", ".join(AGENTS)))


@dataclass(frozen=True)
class _Level:
    """A factory for a built-in level (picklable, unlike a lambda)."""

    level: str

    def __call__(self) -> Agent:
        return make_agent(self.level)


@dataclass(frozen=True)
class _Copy:
    """A factory that hands out a fresh copy of one agent for every game."""

    agent: Agent

    def __call__(self) -> Agent:
        return copy.deepcopy(self.agent)


def _imported(text: str) -> Callable[[], Agent]:
    try:
        return import_agent(text)
    except AgentImportError as exc:
        raise TournamentError(sentence_of(exc)) from exc


def agent_label(spec: AgentSpec) -> str:
    """The name an agent goes by in the standings.

    >>> agent_label("Hard"), agent_label("rummykit.ai:EasyAgent")
    ('hard', 'rummykit.ai:EasyAgent')
    """
    if isinstance(spec, str):
        text = spec.strip()
        return text.lower() if text.lower() in AGENTS else text
    name = getattr(spec, "name", None)
    if isinstance(name, str) and name:
        return name
    return str(getattr(spec, "__name__", type(spec).__name__))


# --- one game -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a tournament: who sat where, what each seat scored, who won."""

    index: int
    deal_seed: int
    seating: tuple[str, ...]  # the agent label at each seat
    points: tuple[int, ...]  # per seat: round points (or match totals)
    winners: tuple[int, ...]  # the winning seat(s); none when a deal ends without a winner
    how: str
    actions: int
    forfeit: ForfeitRecord | None = None  # how = "forfeit": who forfeited, and why
    lost: str = ""  # how = "lost": why the game could not be played (it counts for nobody)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out: dict[str, Any] = {
            "index": self.index,
            "deal_seed": self.deal_seed,
            "seating": list(self.seating),
            "points": list(self.points),
            "winners": list(self.winners),
            "how": self.how,
            "actions": self.actions,
        }
        if self.forfeit is not None:
            out["forfeit"] = self.forfeit.to_dict()
        if self.lost:
            out["lost"] = self.lost
        return out


@dataclass(frozen=True)
class GameTask:
    """One game to play, as sent to a worker: its number, rules, deal and seating."""

    index: int
    variant: Variant
    players: int
    unit: str
    deal_seed: int
    seating: tuple[str, ...]
    factories: tuple[Callable[[], Agent], ...]
    guarded: bool = False  # an in-process agent's error or illegal action is a forfeit too


def _play_task(task: GameTask) -> GameRecord:
    """Play one game (a top-level function, so spawned worker processes can run it)."""
    try:
        return _play(task)
    except TournamentError:
        raise
    except Exception as exc:
        raise TournamentError(
            render(
                "tournament_game_failed",
                index=task.index,
                seed=task.deal_seed,
                seating=", ".join(task.seating),
                error=f"{type(exc).__name__}: {exc}",
            )
        ) from None


def _play(task: GameTask) -> GameRecord:
    agents = [factory() for factory in task.factories]
    try:
        if task.unit == "match":
            match = Match(task.variant, task.players, seed=task.deal_seed)
            actions = 0
            while not match.is_over:
                game = match.new_round()
                played, forfeit = _play_round(game, agents, task.guarded)
                actions += played
                if forfeit is not None:  # a forfeit ends the match: no winner
                    points = tuple(
                        a + b for a, b in zip(match.totals, forfeit_points(game, forfeit[0]))
                    )
                    return _forfeited(task, points, actions, forfeit)
            totals = match.totals
            winners = tuple(s.seat for s in match.standings() if s.place == 1)
            return GameRecord(
                task.index, task.deal_seed, task.seating, totals, winners, "match", actions
            )
        game = Game.new(task.variant, task.players, seed=task.deal_seed)
        actions, forfeit = _play_round(game, agents, task.guarded)
        if forfeit is not None:
            return _forfeited(task, forfeit_points(game, forfeit[0]), actions, forfeit)
        result = game.result
        assert result is not None
        winners = () if result.winner is None else (result.winner,)
        return GameRecord(
            task.index, task.deal_seed, task.seating, result.points, winners, result.how, actions
        )
    finally:
        for agent in agents:
            close = getattr(agent, "close", None)
            if callable(close):
                close()


def _forfeited(
    task: GameTask, points: tuple[int, ...], actions: int, forfeit: tuple[int, Forfeit]
) -> GameRecord:
    seat, why = forfeit
    note = ForfeitRecord(seat, task.seating[seat], why.code, str(why), why.stderr)
    return GameRecord(
        task.index, task.deal_seed, task.seating, points, (), "forfeit", actions, note
    )


def _play_round(
    game: Game, agents: Sequence[Agent], guarded: bool = False
) -> tuple[int, tuple[int, Forfeit] | None]:
    """Play a round out; the actions played, and the seat that forfeited it (with why)."""
    actions = 0
    while not game.is_over:
        seat = game.current
        try:
            _turn(game, agents[seat], seat, guarded)
        except Forfeit as why:
            return actions, (seat, why)
        actions += 1
        if actions > MAX_ACTIONS:
            raise TournamentError(render("match_too_long", count=MAX_ACTIONS))
    return actions, None


def _turn(game: Game, agent: Agent, seat: int, guarded: bool) -> None:
    """One action of ``seat``. An agent that can be told why its action was refused
    (``retry(verdict)``: a process agent) gets the verdict once; a second refusal is a
    forfeit. A guarded in-process agent forfeits at its first refusal or error."""
    try:
        action = agent.decide(game.observation(seat)).action
        try:
            game.play(action, seat)
            return
        except IllegalAction as refused:
            retry = getattr(agent, "retry", None)
            if retry is None:
                if guarded:
                    raise Forfeit("illegal", str(refused.verdict)) from None
                raise
            again = retry(refused.verdict).action
        try:
            game.play(again, seat)
        except IllegalAction as refused:
            stop = getattr(agent, "forfeit", None)
            verdict = str(refused.verdict)
            raise (
                stop("illegal", verdict) if callable(stop) else Forfeit("illegal", verdict)
            ) from None
    except (Forfeit, TournamentError):
        raise
    except Exception as exc:
        if not guarded or isinstance(exc, IllegalAction) or isinstance(agent, ProcessAgent):
            raise  # a program's own errors are forfeits already: this one is the referee's
        lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
        raise Forfeit("error", f"{type(exc).__name__}: {exc}", "".join(lines)[-2000:]) from None


# --- the schedule ---------------------------------------------------------------------------


def seatings_of(
    lineup: tuple[int, ...], games: int, seed: int, players: int, duplicate: bool
) -> Iterator[tuple[int, int, tuple[int, ...], int]]:
    """(game number, deal seed, agent index per seat, cluster) for every game."""
    block = players if duplicate else 1
    for start in range(0, games, block):
        cluster = start // block
        rng = random.Random(f"rummykit-tournament:{seed}:{cluster}")
        deal_seed = rng.randrange(2**31)
        base = list(lineup)
        rng.shuffle(base)
        for k in range(min(block, games - start)):
            seating = tuple(base[(s + k) % players] for s in range(players))
            yield start + k, deal_seed, seating, cluster


# --- statistics -----------------------------------------------------------------------------


def _cluster_mean(samples: Sequence[tuple[int, float, int]]) -> tuple[float, float | None]:
    """The mean of ``(cluster, value, weight)`` samples and its cluster-robust standard error.

    Samples in one cluster (the rotations of one deal) are not independent; the standard
    error of the ratio estimator sums their residuals per cluster first.
    """
    total_w = sum(w for _, _, w in samples)
    mean = sum(v * w for _, v, w in samples) / total_w
    residual: dict[int, float] = {}
    for cluster, value, weight in samples:
        residual[cluster] = residual.get(cluster, 0.0) + (value - mean) * weight
    k = len(residual)
    if k < 2:
        return mean, None
    var = k / (k - 1) * sum(r * r for r in residual.values()) / (total_w * total_w)
    return mean, math.sqrt(var)


def _interval(mean: float, se: float | None) -> tuple[float, float] | None:
    return None if se is None else (mean - Z95 * se, mean + Z95 * se)


def _clipped(ci: tuple[float, float] | None, low: float, high: float) -> tuple[float, float] | None:
    """An interval kept inside the range its value can take (a win rate: 0 to 1).

    >>> _clipped((0.719, 1.031), 0.0, 1.0)
    (0.719, 1.0)
    """
    return None if ci is None else (max(low, ci[0]), min(high, ci[1]))


@dataclass(frozen=True, slots=True)
class AgentStanding:
    """One agent's results: mean points per seat and round (or match), its spread, a 95%
    confidence interval, and how often one of its seats won."""

    place: int
    agent: str
    seats: int  # seats per game
    samples: int  # seat-games played
    mean: float
    std: float
    ci: tuple[float, float] | None
    win_rate: float
    win_ci: tuple[float, float] | None
    forfeits: int = 0  # games this agent lost by forfeit

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "place": self.place,
            "agent": self.agent,
            "seats": self.seats,
            "samples": self.samples,
            "mean": self.mean,
            "std": self.std,
            "ci": list(self.ci) if self.ci else None,
            "win_rate": self.win_rate,
            "win_ci": list(self.win_ci) if self.win_ci else None,
            "forfeits": self.forfeits,
        }


@dataclass(frozen=True, slots=True)
class Comparison:
    """``first`` − ``second``: the mean difference in points per seat and game, paired by game,
    with its 95% confidence interval; ``better`` names the stronger agent when the interval
    leaves out zero (None: no clear difference)."""

    first: str
    second: str
    difference: float
    ci: tuple[float, float] | None
    better: str | None

    @property
    def verdict(self) -> str:
        """In words: who is stronger, or that there is no clear difference."""
        if self.better is None:
            return render("tournament_no_clear", first=self.first, second=self.second)
        return render("tournament_clear", better=self.better)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "first": self.first,
            "second": self.second,
            "difference": self.difference,
            "ci": list(self.ci) if self.ci else None,
            "better": self.better,
        }


def standings_of(
    records: Sequence[GameRecord],
    labels: Sequence[str],
    clusters: Sequence[int],
    low_wins: bool,
) -> tuple[tuple[AgentStanding, ...], tuple[Comparison, ...]]:
    """Rank ``labels`` by their mean points per seat and game in ``records`` (``clusters``:
    the deal each game belongs to), and compare every two over the games both played."""
    sign = 1.0 if low_wins else -1.0
    per_game: dict[str, dict[int, tuple[int, float, float, int]]] = {a: {} for a in labels}
    scores: dict[str, list[int]] = {a: [] for a in labels}
    for i, (record, cluster) in enumerate(zip(records, clusters)):
        if record.how == "lost":  # never played: it counts for nobody
            continue
        share = 1.0 / len(record.winners) if record.winners else 0.0
        for agent in labels:
            seats = [s for s, name in enumerate(record.seating) if name == agent]
            if not seats:
                continue
            pts = [record.points[s] for s in seats]
            scores[agent].extend(pts)
            wins = sum(share for s in seats if s in record.winners)
            per_game[agent][i] = (cluster, sum(pts) / len(pts), wins / len(seats), len(seats))
    rows = []
    for agent in labels:
        games = list(per_game[agent].values())
        if not games:
            continue
        mean, se = _cluster_mean([(c, m, 1) for c, m, _, _ in games])
        win, win_se = _cluster_mean([(c, w, 1) for c, _, w, _ in games])
        pts = scores[agent]
        avg = sum(pts) / len(pts)
        std = math.sqrt(sum((p - avg) ** 2 for p in pts) / (len(pts) - 1)) if len(pts) > 1 else 0.0
        rows.append((agent, games[0][3], len(pts), mean, std, se, win, win_se))
    order = sorted(range(len(rows)), key=lambda i: (sign * rows[i][3], i))
    forfeits = Counter(r.forfeit.agent for r in records if r.forfeit is not None)
    standings = tuple(
        AgentStanding(
            place + 1,
            rows[i][0],
            rows[i][1],
            rows[i][2],
            rows[i][3],
            rows[i][4],
            _interval(rows[i][3], rows[i][5]),
            rows[i][6],
            _clipped(_interval(rows[i][6], rows[i][7]), 0.0, 1.0),
            forfeits[rows[i][0]],
        )
        for place, i in enumerate(order)
    )
    comparisons = []
    ranked = [s.agent for s in standings]
    for first, second in combinations(ranked, 2):
        a, b = per_game[first], per_game[second]
        shared = [i for i in a if i in b]
        if not shared:
            continue
        diff, se = _cluster_mean([(a[i][0], a[i][1] - b[i][1], 1) for i in shared])
        ci = _interval(diff, se)
        better = None
        if ci is not None and (ci[0] > 0 or ci[1] < 0):
            better = first if sign * diff < 0 else second
        comparisons.append(Comparison(first, second, diff, ci, better))
    return standings, tuple(comparisons)


# --- the result -----------------------------------------------------------------------------


class Ranked:
    """What a ranking answers: an agent's place, and its standing."""

    standings: tuple[AgentStanding, ...]

    def place_of(self, agent: str) -> int:
        """The place (1 is best) of an agent in the standings."""
        return next(s.place for s in self.standings if s.agent == agent)

    def standing(self, agent: str) -> AgentStanding:
        """The standing of one agent."""
        return next(s for s in self.standings if s.agent == agent)


def text_columns(rows: list[list[str]], left: tuple[int, ...]) -> list[str]:
    """Rows of cells as aligned text: the ``left`` columns flush left, the others right."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(w) if i in left else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths))
        ).rstrip()
        for row in rows
    ]


@dataclass(frozen=True)
class TournamentResult(Ranked):
    """What a tournament found: the standings, the pairwise differences and every game."""

    variant: str
    options: dict[str, object]
    players: int
    lineup: tuple[str, ...]
    games: int
    seed: int
    unit: str
    duplicate: bool
    low_score_wins: bool
    records: tuple[GameRecord, ...]
    standings: tuple[AgentStanding, ...]
    comparisons: tuple[Comparison, ...]

    def comparison(self, first: str, second: str) -> Comparison:
        """``first`` − ``second`` (in whichever order it was computed, turned round if needed)."""
        for c in self.comparisons:
            if (c.first, c.second) == (first, second):
                return c
            if (c.first, c.second) == (second, first):
                ci = (-c.ci[1], -c.ci[0]) if c.ci else None
                return Comparison(first, second, -c.difference, ci, c.better)
        raise KeyError((first, second))

    def upto(self, games: int) -> TournamentResult:
        """The same tournament as if it had stopped after its first ``games`` games.

        Statistics are computed afresh from those games alone, the rotations of one deal still
        one cluster, so a table of ``upto(n)`` for growing ``n`` shows the intervals narrowing.

        >>> result = run_tournament("rommi", 2, ["easy", "normal"], games=6, seed=1, workers=1)
        >>> result.upto(4).games, len(result.upto(4).records)
        (4, 4)
        >>> result.upto(6) == result
        True
        """
        if not 1 <= games <= self.games:
            raise RummykitError(render("tournament_upto_range", games=games, total=self.games))
        records = self.records[:games]
        block = self.players if self.duplicate else 1
        clusters = [r.index // block for r in records]
        labels = list(dict.fromkeys(self.lineup))
        standings, comparisons = standings_of(records, labels, clusters, self.low_score_wins)
        return replace(
            self, games=games, records=records, standings=standings, comparisons=comparisons
        )

    def lines(self) -> list[str]:
        """The report, line by line."""
        title = get_variant(self.variant).title
        unit = render(f"tournament_unit_{self.unit}")
        out = [
            render(
                "tournament_title",
                variant=title,
                options=options_text(self.options),
                players=self.players,
                games=self.games,
                unit=unit,
                seed=self.seed,
                lineup=", ".join(self.lineup),
            ),
            render("tournament_seating_duplicate" if self.duplicate else "tournament_seating"),
            render(
                "tournament_better_low" if self.low_score_wins else "tournament_better_high",
                unit=unit,
            ),
            "",
        ]
        head = [render(f"tournament_col_{k}") for k in _COLUMNS]
        forfeits = [r for r in self.records if r.forfeit is not None]
        if forfeits:
            head.append(render("league_col_forfeits"))
        columns = (*_COLUMNS, "forfeits") if forfeits else _COLUMNS
        body = [standing_cells(s, columns) for s in self.standings]
        out += text_columns([head, *body], left=(1, 4, 7))
        if self.comparisons:
            out += ["", render("tournament_differences", unit=unit)]
            for c in self.comparisons:
                out.append(
                    "  "
                    + render(
                        "tournament_difference",
                        first=c.first,
                        second=c.second,
                        difference=f"{c.difference:+.2f}",
                        ci=_ci_sentence(c.ci),
                        verdict=c.verdict,
                    )
                )
        if forfeits:
            out += ["", render("forfeit_heading", count=len(forfeits))]
            out += [forfeit_lines(r) for r in forfeits]
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        lines = self.lines()
        return f"<pre class='rk-tournament'>{escape(chr(10).join(lines))}</pre>"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, every game included."""
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "players": self.players,
            "lineup": list(self.lineup),
            "games": self.games,
            "seed": self.seed,
            "unit": self.unit,
            "duplicate": self.duplicate,
            "low_score_wins": self.low_score_wins,
            "standings": [s.to_dict() for s in self.standings],
            "comparisons": [c.to_dict() for c in self.comparisons],
            "records": [r.to_dict() for r in self.records],
        }


_COLUMNS = ("place", "agent", "seats", "mean", "ci", "std", "win", "win_ci")


def standing_cells(s: AgentStanding, columns: Sequence[str]) -> list[str]:
    """A standing's cells for a report, column by column (see ``_COLUMNS``)."""
    cells = {
        "place": str(s.place),
        "agent": s.agent,
        "seats": str(s.seats),
        "samples": str(s.samples),
        "mean": decimal(s.mean),
        "ci": _ci_sentence(s.ci),
        "std": decimal(s.std, ".1f"),
        "win": _percent(s.win_rate),
        "win_ci": (
            "—"
            if s.win_ci is None
            else render("interval", low=_percent(s.win_ci[0]), high=_percent(s.win_ci[1]))
        ),
        "forfeits": str(s.forfeits),
    }
    return [cells[c] for c in columns]


def forfeit_lines(record: GameRecord) -> str:
    """A forfeited game in the report: which game, who, why, and the program's last words."""
    assert record.forfeit is not None
    line = "  " + render(
        "forfeit_game", index=record.index, seed=record.deal_seed, line=record.forfeit.line()
    )
    said = record.forfeit.stderr.strip().splitlines()[-3:]
    return "\n".join([line, *(render("forfeit_stderr", line=text) for text in said)])


def _ci_sentence(ci: tuple[float, float] | None) -> str:
    """An interval in a sentence, its numbers with the language's decimal mark."""
    if ci is None:
        return "—"
    return render("interval", low=f"{ci[0]:+.2f}", high=f"{ci[1]:+.2f}")


def _percent(share: float) -> str:
    """A share as a table writes it, the language's way: ``51.7%``, ``51,7%``, ``51,7 %``."""
    return render("percent", value=decimal(100 * share, ".1f"))


def options_text(options: dict[str, object]) -> str:
    """House rules as they follow a variant's name in a report: ``" (target=50)"``.

    >>> options_text({"target": 50, "ace_high": True}), options_text({})
    (' (target=50, ace_high=True)', '')
    """
    if not options:
        return ""
    return " (" + ", ".join(f"{k}={v}" for k, v in options.items()) + ")"


# --- running it ------------------------------------------------------------------------------


def run_tournament(
    variant: str | Variant,
    players: int,
    agents: Sequence[AgentSpec],
    games: int,
    seed: int = 0,
    workers: int = 2,
    progress: Callable[[int, int], None] | None = None,
    *,
    unit: str = "round",
    duplicate: bool = True,
    options: dict[str, object] | None = None,
    executor: Executor | None = None,
) -> TournamentResult:
    """Play ``games`` rounds (or matches) between ``agents`` and rank them.

    ``agents`` are cycled over the ``players`` seats; the same name twice is one agent with
    two seats. ``workers`` processes share the games (1 plays them here; more fall back to
    1 when the agents can't be sent to another process, e.g. a class defined in a notebook).
    Any :class:`concurrent.futures.Executor` can play them instead (``executor``, e.g. a
    Dask ``Client(...).get_executor()``); the result is the same. ``progress(done, total)``
    is called after every game.
    """
    rules = get_variant(variant, **(options or {}))
    rules.check_players(players)
    if unit not in ("round", "match"):
        raise TournamentError(render("tournament_bad_unit", unit=unit))
    if games < 1:
        raise TournamentError(render("tournament_no_games"))
    if not agents or len(agents) > players:
        raise TournamentError(render("tournament_bad_lineup", count=len(agents), players=players))
    labels: list[str] = []
    factories: dict[str, Callable[[], Agent]] = {}
    specs: dict[str, object] = {}
    lineup: list[int] = []
    for spec in agents:
        label = agent_label(spec)
        key = spec.strip().lower() if isinstance(spec, str) else spec
        if label in specs and specs[label] != key:
            n = 2
            while f"{label}#{n}" in specs and specs[f"{label}#{n}"] != key:
                n += 1
            label = f"{label}#{n}"
        if label not in specs:
            specs[label] = key
            factories[label] = load_agent(spec)
            labels.append(label)
        lineup.append(labels.index(label))
    seats = tuple(lineup[i % len(lineup)] for i in range(players))
    tasks: list[GameTask] = []
    clusters: list[int] = []
    for index, deal_seed, seating, cluster in seatings_of(seats, games, seed, players, duplicate):
        names = tuple(labels[i] for i in seating)
        tasks.append(
            GameTask(
                index,
                rules,
                players,
                unit,
                deal_seed,
                names,
                tuple(factories[n] for n in names),
            )
        )
        clusters.append(cluster)
    records = run_games(tasks, workers, progress, executor)
    standings, comparisons = standings_of(records, labels, clusters, rules.low_score_wins)
    return TournamentResult(
        variant=rules.base or rules.name,
        options=rules.changes(),
        players=players,
        lineup=tuple(labels[i] for i in seats),
        games=games,
        seed=seed,
        unit=unit,
        duplicate=duplicate,
        low_score_wins=rules.low_score_wins,
        records=tuple(records),
        standings=standings,
        comparisons=comparisons,
    )


def _portable(tasks: Sequence[GameTask]) -> bool:
    """Whether the agents can be rebuilt in a spawned process (importable, picklable)."""
    seen = {id(f): f for t in tasks for f in t.factories}
    for factory in seen.values():
        origin: object = type(factory.agent) if isinstance(factory, _Copy) else factory
        if not isinstance(factory, _Level) and getattr(origin, "__module__", None) in (
            None,
            "__main__",
        ):
            return False
        try:
            pickle.dumps(factory)
        except Exception:
            return False
    return True


def _play_chunk(tasks: list[GameTask]) -> list[GameRecord]:
    """Play a few games in a worker process."""
    return [_play_task(task) for task in tasks]


def run_games(
    tasks: list[GameTask],
    workers: int,
    progress: Callable[[int, int], None] | None,
    executor: Executor | None = None,
    *,
    limit: float | None = None,
    tries: int = 3,
    apart: bool = False,
) -> list[GameRecord]:
    """Play the games, in worker processes (or on ``executor``) when the agents can travel;
    the records come back in game order whoever played them.

    With ``limit`` (seconds per game, wall clock) the games are supervised
    (:func:`rummykit.workers.supervise`): a game whose worker freezes or dies is tried
    again, up to ``tries`` times, then recorded as lost (``how="lost"``) with the reason.
    ``apart``: play in a worker process even with one worker (agents that are programs:
    the referee that waits for them is not the process that must finish the league).
    """
    if limit is not None:
        return _supervised(tasks, workers, progress, executor, limit, tries, apart)
    total = len(tasks)
    records: dict[int, GameRecord] = {}

    def note(done: list[GameRecord]) -> None:
        for record in done:
            records[record.index] = record
        if progress is not None and done:
            progress(len(records), total)

    def share(pool: Executor, workers: int) -> None:
        size = max(1, min(8, total // (workers * 8)))
        chunks = [tasks[i : i + size] for i in range(0, total, size)]
        futures = [pool.submit(_play_chunk, chunk) for chunk in chunks]
        for future in as_completed(futures):
            note(future.result())

    portable = total > 0 and _portable(tasks)
    if executor is not None and portable:
        share(executor, max(2, getattr(executor, "_max_workers", 2)))
    if executor is None and workers > 1 and in_browser():
        warnings.warn(render("browser_no_workers", workers=workers), BrowserLimit, stacklevel=3)
        workers = 1
    workers = max(1, min(workers, os.cpu_count() or 1, total))
    if executor is None and workers > 1 and portable:
        try:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(workers, mp_context=context) as pool:
                share(pool, workers)
        except (BrokenProcessPool, OSError, ImportError, NotImplementedError):
            pass  # no worker processes here (or a script without a __main__ guard): play on
    for task in tasks:
        if task.index not in records:
            note([_play_task(task)])
    return [records[i] for i in range(total)]


def _supervised(
    tasks: list[GameTask],
    workers: int,
    progress: Callable[[int, int], None] | None,
    executor: Executor | None,
    limit: float,
    tries: int,
    apart: bool,
) -> list[GameRecord]:
    total = len(tasks)
    records: dict[int, GameRecord] = {}

    def done(position: int, record: GameRecord) -> None:
        records[position] = record
        if progress is not None:
            progress(len(records), total)

    portable = total > 0 and _portable(tasks)
    if executor is None and in_browser():
        workers = 1
    count = max(1, min(workers, os.cpu_count() or 1, total))
    if not portable or (executor is None and count == 1 and not apart):
        count = 0  # this process plays them: trusted agents only
    lost = supervise(
        tasks,
        _play_task,
        limit=limit,
        tries=tries,
        done=done,
        workers=max(1, workers) if executor is not None and portable else count,
        executor=executor if portable else None,
        cleanup=stop_idle,
    )
    for position, why in lost.items():
        task = tasks[position]
        reason = render("workers_lost", reason=why.reason, tries=why.tries)
        empty = (0,) * task.players
        records[position] = GameRecord(
            task.index, task.deal_seed, task.seating, empty, (), "lost", 0, lost=reason
        )
        if progress is not None:
            progress(len(records), total)
    return [records[i] for i in range(total)]
