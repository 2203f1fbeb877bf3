"""Leagues: every agent in a folder against the others, ranked with honest intervals.

A league is a set of *entrants* — built-in levels, Python files with an agent class, or
programs that speak the agent protocol — listed in a small manifest, ``league.json``::

    {"variant": "rommi", "players": 2, "games": 8,
     "agents": [{"name": "hard", "level": "hard"},
                {"name": "mine", "python": "my_agent.py:MyAgent"},
                {"name": "sandboxed", "python": "my_agent.py:MyAgent", "process": true},
                {"name": "first-legal", "command": ["sh", "first_legal.sh"]}]}

**The schedule.** With a handful of entrants every table of ``players`` entrants meets (a
round robin); with many, a Swiss schedule plays a few rounds in which entrants with similar
results meet, none twice when it can be helped. Every table plays ``games`` games exactly as
:func:`~rummykit.tournament.run_tournament` does: each deal is played once per seat rotation
(``players`` times), so every entrant plays every hand from every seat; all tables of a
round play the same deals.

**Trust.** A Python file runs inside the referee's process (trusted code: it could reach the
game); ``"process": true`` runs it in its own process over the protocol instead, like a
``command``. Any error, illegal action or silence is a forfeit (docs/agents.md), reported
with the reason, and the league goes on.

**Where it runs.** ``executor`` takes any :class:`concurrent.futures.Executor` — by default
games are shared by ``workers`` local processes; ``distributed.Client(...).get_executor()``
runs them on a Dask cluster. The same seed gives the same result wherever it runs.

>>> result = league(["easy", "normal"], variant="rommi", games=2, seed=1, workers=1,
...                 progress=False)
>>> [s.agent for s in result.standings] == sorted(["easy", "normal"], key=result.place_of)
True
>>> result.schedule, len(result.records)
('round_robin', 2)
"""

from __future__ import annotations

import importlib
import json
import math
import random
import shlex
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from html import escape
from itertools import combinations
from pathlib import Path
from typing import Any

from rummykit.agents.files import AgentImportError, FileAgent, import_agent
from rummykit.agents.forfeit import Forfeit
from rummykit.agents.process import ProcessAgent, level_command, stop_idle
from rummykit.ai.agents import LEVELS, Agent
from rummykit.messages import render
from rummykit.tournament import (
    AgentSpec,
    AgentStanding,
    Comparison,
    GameRecord,
    Ranked,
    _options_text,
    _schedule,
    _Task,
    agent_label,
    forfeit_lines,
    load_agent,
    run_games,
    standing_cells,
    standings_of,
    text_columns,
)
from rummykit.variants import variant as get_variant

__all__ = ["MANIFEST", "Entrant", "LeagueError", "LeagueResult", "league", "read_manifest"]

MANIFEST = "league.json"
"""The manifest's file name in a league folder."""

ROUND_ROBIN_TABLES = 28
"""``schedule="auto"`` plays a round robin up to this many tables (8 entrants at 2 players),
a Swiss schedule beyond."""


class LeagueError(ValueError):
    """A league could not be set up: a bad manifest, an agent that can't be loaded."""


# --- entrants -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    """One agent of a league: its name, what it is, and how to make one for a game."""

    name: str
    kind: str  # level | python | command
    source: str
    factory: Callable[[], Agent] = field(compare=False, repr=False)
    process: bool = False  # plays in its own process, over the protocol


def _entrant(entry: object, folder: Path, time_limit: float) -> Entrant:
    """An entrant from a manifest entry (a dict) or an agent spec."""
    if not isinstance(entry, dict):
        try:
            spec: AgentSpec = entry  # type: ignore[assignment]
            return Entrant(agent_label(spec), "python", str(entry), load_agent(spec))
        except (ValueError, TypeError) as exc:
            raise LeagueError(str(exc)) from exc
    keys = [k for k in ("level", "python", "command") if k in entry]
    if len(keys) != 1:
        raise LeagueError(render("league_bad_entry", entry=json.dumps(entry)))
    kind = keys[0]
    value = entry[kind]
    isolated = bool(entry.get("process", kind == "command"))
    name = entry.get("name")
    limit = float(entry.get("time_limit", time_limit))
    try:
        if kind == "level":
            level = str(value).strip().lower()
            if level not in LEVELS:
                raise LeagueError(
                    render("tournament_unknown_agent", spec=value, levels=", ".join(LEVELS))
                )
            name = name or level
            argv = level_command(level)
            if not isolated:
                return Entrant(name, kind, level, load_agent(level))
        elif kind == "python":
            made = import_agent(str(value), folder)
            name = name or str(getattr(made, "name", None) or agent_label(made))
            if not isolated:
                return Entrant(name, kind, str(value), made)
            where = str(made.path) + ":" + made.attr if isinstance(made, FileAgent) else value
            argv = [sys.executable, "-m", "rummykit", "agent", "--agent", where]
        else:
            argv = shlex.split(value) if isinstance(value, str) else [str(a) for a in value]
            if not argv:
                raise LeagueError(render("agent_no_command"))
            name = name or Path(argv[0]).stem
    except AgentImportError as exc:
        raise LeagueError(str(exc)) from exc
    agent = ProcessAgent(argv, name=str(name), time_limit=limit, cwd=folder)
    return Entrant(str(name), kind, shlex.join(argv), load_agent(agent), process=True)


def read_manifest(folder: str | Path) -> tuple[list[Entrant], dict[str, Any]]:
    """The entrants a league folder's manifest lists, and its other settings."""
    root = Path(folder)
    path = root / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LeagueError(render("league_no_manifest", path=path, error=exc.strerror)) from exc
    except ValueError as exc:
        raise LeagueError(render("league_bad_manifest", path=path, error=exc)) from exc
    if not isinstance(data, dict) or not isinstance(data.get("agents"), list):
        raise LeagueError(render("league_bad_manifest", path=path, error=render("league_no_list")))
    settings = {k: v for k, v in data.items() if k != "agents"}
    unknown = sorted(set(settings) - set(_SETTINGS))
    if unknown:
        raise LeagueError(
            render(
                "league_unknown_setting",
                names=", ".join(unknown),
                choices=", ".join(sorted(_SETTINGS)),
            )
        )
    limit = float(settings.get("time_limit", 10.0))
    return [_entrant(e, root.resolve(), limit) for e in data["agents"]], settings


_SETTINGS = ("variant", "options", "players", "games", "seed", "schedule", "rounds", "time_limit")


# --- the schedule ---------------------------------------------------------------------------


def _round_seed(seed: int, stage: int) -> int:
    """The deals of one Swiss round (a round robin plays all its tables on round 0's)."""
    return seed if stage == 0 else random.Random(f"rummykit-league:{seed}:{stage}").randrange(2**31)


def _swiss_tables(
    order: list[int], players: int, met: Counter[frozenset[int]], byes: Counter[int]
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Tables for one Swiss round: down the ranking, each table's first entrant joined by
    the next ones it hasn't met (searched, so the last tables work out too; when no such
    seating exists, the next ones it has met least); when the number doesn't divide, the
    lowest-ranked entrants with the fewest byes sit out."""
    spare = len(order) % players
    resting = sorted(order[::-1], key=lambda a: byes[a])[:spare]
    rest = [a for a in order if a not in resting]
    budget = [SWISS_SEARCH]

    def fresh(table: tuple[int, ...]) -> bool:
        return not any(met[frozenset(pair)] for pair in combinations(table, 2))

    def search(rest: list[int]) -> list[tuple[int, ...]] | None:
        if not rest:
            return []
        head, others = rest[0], rest[1:]
        for partners in combinations(others, players - 1):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            table = (head, *partners)
            if fresh(table):
                found = search([a for a in others if a not in partners])
                if found is not None:
                    return [table, *found]
        return None

    tables = search(rest)
    if tables is None:  # no seating without a rematch (or too many to try): the least
        tables = []
        while rest:
            table = [rest.pop(0)]
            while len(table) < players:
                pick = min(
                    rest,
                    key=lambda x: (sum(met[frozenset((x, y))] for y in table), rest.index(x)),
                )
                rest.remove(pick)
                table.append(pick)
            tables.append(tuple(table))
    return tables, resting


SWISS_SEARCH = 20_000  # seatings tried for a Swiss round before settling for rematches


# --- the result -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LeagueResult(Ranked):
    """A league's standings, every pair's difference, and every game."""

    variant: str
    options: dict[str, object]
    players: int
    games: int  # per table
    seed: int
    schedule: str  # round_robin | swiss
    rounds: int
    entrants: tuple[str, ...]
    tables: tuple[tuple[tuple[str, ...], ...], ...]  # per round: the tables that played
    low_score_wins: bool
    records: tuple[GameRecord, ...]
    standings: tuple[AgentStanding, ...]
    comparisons: tuple[Comparison, ...]

    def advantage(self, row: str, column: str) -> tuple[float, bool] | None:
        """How many points per round ``row`` did better than ``column`` in the games both
        played (negative: worse), and whether that is clear at 95%; None if they never met."""
        for c in self.comparisons:
            if {c.first, c.second} == {row, column}:
                diff = c.difference if c.first == row else -c.difference
                return (-diff if self.low_score_wins else diff), c.better is not None
        return None

    @property
    def forfeits(self) -> tuple[GameRecord, ...]:
        """The games lost by forfeit."""
        return tuple(r for r in self.records if r.forfeit is not None)

    def _table(self) -> tuple[list[str], list[list[str]]]:
        head = [render(f"league_col_{k}") for k in _COLUMNS]
        body = [standing_cells(s, _COLUMNS) for s in self.standings]
        return head, body

    def _pairwise(self) -> list[list[str]]:
        ranked = [s.agent for s in self.standings]
        rows = []
        for row in ranked:
            cells = []
            for column in ranked:
                found = None if row == column else self.advantage(row, column)
                if row == column:
                    cells.append("·")
                elif found is None:
                    cells.append("—")
                else:
                    cells.append(f"{found[0]:+.1f}{'*' if found[1] else ''}")
            rows.append(cells)
        return rows

    def lines(self) -> list[str]:
        """The report, line by line."""
        setting = {
            "variant": get_variant(self.variant).title,
            "options": _options_text(self.options),
            "players": self.players,
            "entrants": len(self.entrants),
            "count": len(self.records),
            "seed": self.seed,
        }
        better = "tournament_better_low" if self.low_score_wins else "tournament_better_high"
        out = [
            render("league_title", setting),
            render(f"league_schedule_{self.schedule}", rounds=self.rounds, games=self.games),
            render(better, unit=render("tournament_unit_round")),
            "",
        ]
        head, body = self._table()
        out += text_columns([head, *body], left=(1, 4, 6))
        ranked = [s.agent for s in self.standings]
        out += ["", render("league_pairwise")]
        numbered = [f"{i + 1}" for i in range(len(ranked))]
        grid = [["", *numbered]] + [
            [f"{i + 1} {name}", *cells]
            for i, (name, cells) in enumerate(zip(ranked, self._pairwise()))
        ]
        out += ["  " + line for line in text_columns(grid, left=(0,))]
        if self.forfeits:
            out += ["", render("forfeit_heading", count=len(self.forfeits))]
            out += [forfeit_lines(r) for r in self.forfeits]
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        lines = self.lines()
        head, body = self._table()
        standings = "".join(
            "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in body
        )
        ranked = [s.agent for s in self.standings]
        pairwise = "".join(
            f"<tr><th>{escape(name)}</th>"
            + "".join(f"<td>{escape(cell)}</td>" for cell in cells)
            + "</tr>"
            for name, cells in zip(ranked, self._pairwise())
        )
        forfeits = "".join(f"<li>{escape(forfeit_lines(r))}</li>" for r in self.forfeits)
        return (
            "<div class='rk-league'>"
            f"<p>{escape(lines[0])}<br>{escape(lines[1])}<br>{escape(lines[2])}</p>"
            "<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>"
            f"{standings}</table>"
            f"<p>{escape(render('league_pairwise'))}</p>"
            "<table><tr><th></th>" + "".join(f"<th>{escape(n)}</th>" for n in ranked) + "</tr>"
            f"{pairwise}</table>"
            + (
                f"<p>{escape(render('forfeit_heading', count=len(self.forfeits)))}</p>"
                f"<ul>{forfeits}</ul>"
                if forfeits
                else ""
            )
            + "</div>"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, every game included."""
        ranked = [s.agent for s in self.standings]
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "schedule": self.schedule,
            "rounds": self.rounds,
            "entrants": list(self.entrants),
            "tables": [[list(t) for t in stage] for stage in self.tables],
            "low_score_wins": self.low_score_wins,
            "standings": [s.to_dict() for s in self.standings],
            "pairwise": {
                row: {
                    column: (None if found is None else {"advantage": found[0], "clear": found[1]})
                    for column in ranked
                    if column != row
                    for found in [self.advantage(row, column)]
                }
                for row in ranked
            },
            "comparisons": [c.to_dict() for c in self.comparisons],
            "records": [r.to_dict() for r in self.records],
        }

    def to_json(self) -> str:
        """The JSON form as text."""
        return json.dumps(self.to_dict(), ensure_ascii=False)


_COLUMNS = ("place", "agent", "samples", "mean", "ci", "win", "win_ci", "forfeits")


# --- running it ------------------------------------------------------------------------------


def _progress_bar(
    progress: bool | Callable[[int, int], None] | None, total: int
) -> tuple[Any, Callable[[int, int], None] | None]:
    if callable(progress):
        return None, progress
    if not progress:
        return None, None
    try:
        tqdm = importlib.import_module("tqdm.auto").tqdm  # a widget in a notebook
    except ImportError:
        return None, None
    bar = tqdm(total=total, unit=render("tournament_unit_round"), file=sys.stderr)
    return bar, None


def league(
    agents: str | Path | Sequence[AgentSpec | dict[str, Any]],
    variant: str | None = None,
    players: int | None = None,
    games: int | None = None,
    seed: int | None = None,
    *,
    schedule: str | None = None,
    rounds: int | None = None,
    executor: Executor | None = None,
    workers: int = 2,
    progress: bool | Callable[[int, int], None] | None = True,
    options: dict[str, object] | None = None,
    time_limit: float | None = None,
) -> LeagueResult:
    """Play a league and rank its entrants.

    ``agents`` is a folder with a ``league.json`` manifest (whose settings are defaults for
    the arguments here), or a list of manifest entries (``{"name": ..., "level"|"python"|
    "command": ...}``) and agent specs as :func:`~rummykit.tournament.run_tournament` takes.
    ``schedule`` is ``"round_robin"``, ``"swiss"`` or ``"auto"``; ``rounds`` the Swiss rounds
    (default: enough to sort the field, log2 of the entrants plus one). ``games`` per table,
    best a multiple of ``players`` (each deal is played from every seat). ``progress``: a bar
    (tqdm, in the terminal or the notebook), ``False``, or ``progress(done, total)``.
    """
    settings: dict[str, Any] = {}
    if isinstance(agents, (str, Path)):
        entrants, settings = read_manifest(agents)
        limit = float(time_limit if time_limit is not None else settings.get("time_limit", 10.0))
        if time_limit is not None:
            entrants = [_with_limit(e, limit) for e in entrants]
    else:
        limit = 10.0 if time_limit is None else float(time_limit)
        entrants = [_entrant(a, Path.cwd(), limit) for a in agents]
    rules = get_variant(
        variant or settings.get("variant", "rommi"), **(options or settings.get("options", {}))
    )
    players = int(players or settings.get("players", 2))
    games = int(games or settings.get("games", 2 * players))
    seed = int(seed if seed is not None else settings.get("seed", 0))
    schedule = schedule or settings.get("schedule", "auto")
    rules.check_players(players)
    names = [e.name for e in entrants]
    twice = sorted(n for n, k in Counter(names).items() if k > 1)
    if twice:
        raise LeagueError(render("league_same_name", names=", ".join(twice)))
    if len(entrants) < players:
        raise LeagueError(render("league_too_few", count=len(entrants), players=players))
    if games < 1:
        raise LeagueError(render("tournament_no_games"))
    _check_programs(entrants, rules.base or rules.name)
    tables_all = math.comb(len(entrants), players)
    if schedule == "auto":
        schedule = "round_robin" if tables_all <= ROUND_ROBIN_TABLES else "swiss"
    if schedule not in ("round_robin", "swiss"):
        raise LeagueError(render("league_bad_schedule", schedule=schedule))
    if schedule == "swiss":
        rounds = int(rounds or settings.get("rounds") or math.ceil(math.log2(len(entrants))) + 1)
    else:
        rounds = 1
    per_round = (
        math.comb(len(entrants), players) if schedule == "round_robin" else len(entrants) // players
    )
    bar, callback = _progress_bar(progress, rounds * per_round * games)
    order = list(range(len(entrants)))
    random.Random(f"rummykit-league-order:{seed}").shuffle(order)
    records: list[GameRecord] = []
    clusters: list[int] = []
    deal_clusters: dict[tuple[int, int], int] = {}
    played: list[tuple[tuple[str, ...], ...]] = []
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    try:
        for stage in range(rounds):
            if schedule == "round_robin":
                tables = list(combinations(range(len(entrants)), players))
            else:
                tables, resting = _swiss_tables(
                    _ranking(order, records, names, rules.low_score_wins), players, met, byes
                )
                byes.update(resting)
            for table in tables:
                met.update(frozenset(p) for p in combinations(table, 2))
            played.append(tuple(tuple(names[i] for i in t) for t in tables))
            tasks: list[_Task] = []
            stage_seed = _round_seed(seed, stage)
            for table in tables:
                for _, deal_seed, seating, cluster in _schedule(
                    table, games, stage_seed, players, True
                ):
                    tasks.append(
                        _Task(
                            len(tasks),
                            rules,
                            players,
                            "round",
                            deal_seed,
                            tuple(names[i] for i in seating),
                            tuple(entrants[i].factory for i in seating),
                            guarded=True,
                        )
                    )
                    clusters.append(deal_clusters.setdefault((stage, cluster), len(deal_clusters)))
            base = len(records)

            def note(done: int, total: int, base: int = base) -> None:
                if bar is not None:
                    bar.update(base + done - bar.n)
                if callback is not None:
                    callback(base + done, base + total)

            for record in run_games(tasks, workers, note, executor):
                records.append(replace(record, index=record.index + base))
    finally:
        if bar is not None:
            bar.close()
        stop_idle()
    standings, comparisons = standings_of(records, names, clusters, rules.low_score_wins)
    variant_name, changes = rules.base or rules.name, rules.changes()
    return LeagueResult(
        variant_name, changes, players, games, seed, schedule, rounds, tuple(names),
        tuple(played), rules.low_score_wins, records=tuple(records), standings=standings,
        comparisons=comparisons,
    )  # fmt: skip


def _with_limit(entrant: Entrant, limit: float) -> Entrant:
    factory = entrant.factory
    agent = getattr(factory, "agent", None)
    if isinstance(agent, ProcessAgent):
        agent.time_limit = limit
    return entrant


def _ranking(
    order: list[int], records: list[GameRecord], names: list[str], low_wins: bool
) -> list[int]:
    """The entrants best first by mean points per round so far (ties: the seeded order)."""
    points: dict[str, list[int]] = {n: [] for n in names}
    for record in records:
        for seat, name in enumerate(record.seating):
            points[name].append(record.points[seat])
    sign = 1.0 if low_wins else -1.0

    def key(i: int) -> tuple[float, int]:
        got = points[names[i]]
        return (sign * (sum(got) / len(got)) if got else 0.0, order.index(i))

    return sorted(order, key=key)


def _check_programs(entrants: list[Entrant], variant: str) -> None:
    """Start each program once: one that can't say hello, or doesn't play the variant, is
    refused before the league starts (rather than forfeiting every game)."""
    for entrant in entrants:
        agent = getattr(entrant.factory, "agent", None)
        if not isinstance(agent, ProcessAgent):
            continue
        probe = ProcessAgent(agent.argv, name=agent.name, cwd=agent.cwd, env=agent.env)
        try:
            plays = probe.variants
        except Forfeit as why:
            said = why.stderr.strip()[-300:] or render("league_no_stderr")
            raise LeagueError(
                render("league_program_failed", name=entrant.name, why=str(why), stderr=said)
            ) from None
        finally:
            probe.close()
        if variant not in plays:
            raise LeagueError(
                render(
                    "league_wrong_variant",
                    name=entrant.name,
                    variant=variant,
                    plays=", ".join(plays),
                )
            )


def run_league_command(args: Any) -> int:
    """``rummykit league DIR``: the standings as text (or JSON); 2 on a bad setup."""
    executor: Executor | None = None
    client: Any = None
    try:
        if args.scheduler:
            try:
                distributed = importlib.import_module("distributed")
            except ImportError:
                raise LeagueError(render("cli_league_no_dask")) from None
            client = distributed.Client(args.scheduler)
            executor = client.get_executor()
        result = league(
            args.folder,
            args.variant,
            args.players,
            args.games,
            args.seed,
            schedule=args.schedule,
            rounds=args.rounds,
            executor=executor,
            workers=args.workers,
            progress=not args.quiet,
            time_limit=args.time_limit,
        )
    except (ValueError, OSError) as error:  # LeagueError, VariantError
        print(render("cli_error", command="league", message=str(error)), file=sys.stderr)
        return 2
    finally:
        if client is not None:
            client.close()
    if args.html:
        Path(args.html).write_text(result._repr_html_(), encoding="utf-8")
    print(result.to_json() if args.json else result)
    return 0
