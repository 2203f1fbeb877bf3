"""Leagues: every agent in a folder against the others, ranked with honest intervals.

A league is a set of *entrants* — built-in levels, Python files with an agent class, or
programs that speak the agent protocol — listed in a small manifest, ``league.json``::

    {"variant": "rommi", "players": 2, "games": 8, "memory": 1024,
     "agents": [{"name": "hard", "level": "hard"},
                {"name": "alice", "python": "alice/agent.py:MyAgent"},
                {"name": "bob", "command": ["node", "agent.js"], "folder": "bob"},
                {"name": "teacher", "python": "mine.py:Mine", "process": false}]}

**The schedule.** With a handful of entrants every table of ``players`` entrants meets (a
round robin); with many, a Swiss schedule plays a few rounds in which entrants with similar
results meet, none twice when it can be helped. Every table plays ``games`` games exactly as
:func:`~rummykit.tournament.run_tournament` does: each deal is played once per seat rotation
(``players`` times), so every entrant plays every hand from every seat; all tables of a
round play the same deals.

**Trust.** A ``python`` entry or a ``command`` is a program in its own process, in a
sandbox (:mod:`rummykit.agents.sandbox`: bubblewrap where it works, ``sandbox="auto"``),
that sees its own folder read-only and nothing of the others', within the league's limits
(``memory``, ``cpu``... per entry or for all). Only ``"process": false`` runs a Python file
inside the referee's process — trusted code, which could reach the game: the teacher's own.
Any error, illegal action or silence is a forfeit (docs/agents.md), reported with the
reason, and the league goes on.

**Supervision.** Games with programs are played by worker processes the league watches:
a game gets ``game_limit`` seconds of wall clock; a worker that freezes or dies is replaced
and its game tried again, up to ``tries`` times, then reported lost with the reason. The
league always ends with a table.

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

import contextlib
import hashlib
import importlib
import importlib.util
import json
import math
import os
import pickle
import random
import shlex
import sys
import tempfile
import warnings
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from html import escape
from itertools import combinations
from pathlib import Path
from typing import Any

from rummykit.agents.files import AgentImportError, import_agent
from rummykit.agents.forfeit import Forfeit
from rummykit.agents.process import ProcessAgent, level_command, stop_idle
from rummykit.agents.sandbox import Limits, SandboxError, resolve, sandbox_line, unavailable
from rummykit.ai.agents import LEVELS, Agent
from rummykit.errors import RummykitError, sentence_of
from rummykit.messages import render
from rummykit.tournament import (
    AgentSpec,
    AgentStanding,
    Comparison,
    GameRecord,
    GameTask,
    Ranked,
    agent_label,
    forfeit_lines,
    load_agent,
    options_text,
    run_games,
    seatings_of,
    standing_cells,
    standings_of,
    text_columns,
)
from rummykit.variants import variant as get_variant

__all__ = [
    "MANIFEST",
    "Entrant",
    "LeagueError",
    "LeagueResult",
    "league",
    "read_manifest",
    "write_results",
]

MANIFEST = "league.json"
"""The manifest's file name in a league folder."""

ROUND_ROBIN_TABLES = 28
"""``schedule="auto"`` plays a round robin up to this many tables (8 entrants at 2 players),
a Swiss schedule beyond."""

GAME_LIMIT = 600.0
"""Seconds of wall clock a game may take (``game_limit``) before its worker is replaced — or
:data:`DECISIONS` times the slowest program's time limit, when that is more."""

DECISIONS = 200
"""Decisions of one player a game is allowed at the full time limit, for the default
``game_limit`` (a Hungarian game of four takes about 75 a player)."""

TRIES = 3
"""Times a game is tried (``tries``) before it is reported lost."""


class LeagueError(RummykitError):
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


@dataclass(frozen=True)
class _Defaults:
    """What an entry inherits: the league's limits and sandbox."""

    time_limit: float = 10.0
    start_limit: float = 30.0
    limits: Limits = field(default_factory=Limits)
    sandbox: str = "auto"


_ENTRY_KEYS = frozenset(
    {"name", "level", "python", "command", "process", "folder", "time_limit", "start_limit"}
) | frozenset(Limits().to_dict())


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _own_view(files: Sequence[Path], folder: Path) -> tuple[list[str], Path]:
    """What a program sees of the league folder, and where it runs: the top-level sub-folder
    of the league folder that holds its files (a student's folder), or only its own files
    when they lie at the top of the league folder."""
    view: list[str] = []
    cwd = folder
    for path in files:
        if not _inside(path, folder):
            view.append(str(path))
            continue
        top = folder / path.relative_to(folder).parts[0]
        if top == path:  # a file at the top: that file only
            view.append(str(path))
        else:
            view.append(str(top))
            cwd = top
    return list(dict.fromkeys(view)), cwd


def _python_program(spec: str, folder: Path) -> tuple[str, list[Path], Path | None]:
    """What ``rummykit agent --agent`` is given for a ``python`` entry, the files its sandbox
    must show, and the folder it imports a module from — found without running a line of
    the entrant's code in the referee (a module-level monkeypatch would land here).

    ``FILE.py:Name``: the file, which must exist. ``package.module:Name``: the top package's
    folder or the module's file, located without importing it.
    """
    where, sep, attr = spec.strip().rpartition(":")
    if not sep or not where or not attr.isidentifier():
        raise LeagueError(render("agent_spec_form", spec=spec))
    if where.endswith(".py"):
        path = (folder / where).resolve()
        if not path.is_file():
            error = render("agent_no_file", path=path)
            raise LeagueError(render("tournament_import_failed", spec=spec, error=error))
        return f"{path}:{attr}", [path], None
    top = where.split(".")[0]
    try:
        found = importlib.util.find_spec(top)  # the top name only: nothing is executed
    except (ImportError, ValueError):
        found = None
    if found is None:
        local = folder / top
        place = local if local.is_dir() else local.with_suffix(".py")
        if not place.exists():
            error = render("tournament_no_module", module=top)
            raise LeagueError(render("tournament_import_failed", spec=spec, error=error))
        return spec.strip(), [place.resolve()], folder
    if found.submodule_search_locations:
        place = Path(next(iter(found.submodule_search_locations)))
    elif found.origin and found.has_location:
        place = Path(found.origin)
    else:  # a built-in module: nothing to show
        return spec.strip(), [], None
    return spec.strip(), [place.resolve()], place.resolve().parent


def _entrant(entry: object, folder: Path, defaults: _Defaults) -> Entrant:
    """An entrant from a manifest entry (a dict) or an agent spec."""
    if not isinstance(entry, dict):
        try:
            spec: AgentSpec = entry  # type: ignore[assignment]
            return Entrant(agent_label(spec), "python", str(entry), load_agent(spec))
        except (ValueError, TypeError) as exc:
            raise LeagueError(sentence_of(exc)) from exc
    keys = [k for k in ("level", "python", "command") if k in entry]
    if len(keys) != 1:
        raise LeagueError(render("league_bad_entry", entry=json.dumps(entry)))
    unknown = sorted(set(entry) - _ENTRY_KEYS)
    if unknown:
        raise LeagueError(
            render(
                "league_unknown_entry_key",
                names=", ".join(unknown),
                choices=", ".join(sorted(_ENTRY_KEYS)),
            )
        )
    kind = keys[0]
    value = entry[kind]
    isolated = bool(entry.get("process", kind != "level"))
    name = entry.get("name")
    try:
        limit = float(entry.get("time_limit", defaults.time_limit))
        start = float(entry.get("start_limit", defaults.start_limit))
        limits = Limits.of(entry, defaults.limits)
    except (TypeError, ValueError) as exc:
        raise LeagueError(render("league_bad_limit", name=name or value, error=exc)) from exc
    own: Path | None = None
    if "folder" in entry:
        own = (folder / str(entry["folder"])).resolve()
        if not _inside(own, folder) or not own.is_dir():
            raise LeagueError(render("league_bad_folder", folder=entry["folder"], league=folder))
    files: list[Path] = []
    root: Path | None = None  # where a module named in "python" is imported from
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
        elif kind == "python" and not isolated:  # trusted: imported here, run here
            made = import_agent(str(value), own or folder)
            name = name or str(getattr(made, "name", None) or agent_label(made))
            return Entrant(name, kind, str(value), made)
        elif kind == "python":  # never imported here: its code runs in its sandbox only
            where, files[:], root = _python_program(str(value), own or folder)
            name = name or where.rpartition(":")[2]
            argv = [sys.executable, "-m", "rummykit", "agent", "--agent", where]
        else:
            argv = shlex.split(value) if isinstance(value, str) else [str(a) for a in value]
            if not argv:
                raise LeagueError(render("agent_no_command"))
            name = name or Path(argv[0]).stem
            for arg in argv[1:]:
                path = ((own or folder) / arg).resolve()
                if path.exists() and not arg.startswith("-"):
                    files.append(path)
    except AgentImportError as exc:
        raise LeagueError(sentence_of(exc)) from exc
    if own is not None:
        visible, cwd = [str(own)], own
    else:
        visible, cwd = _own_view(files, folder)
    if root is not None:
        cwd = root  # `rummykit agent --agent module:Name` imports from its folder
    agent = ProcessAgent(
        argv,
        name=str(name),
        time_limit=limit,
        start_limit=start,
        cwd=cwd,
        sandbox=defaults.sandbox,
        limits=limits,
        visible=visible,
    )
    return Entrant(str(name), kind, shlex.join(argv), load_agent(agent), process=True)


def read_manifest(
    folder: str | Path, overrides: Mapping[str, object] | None = None
) -> tuple[list[Entrant], dict[str, Any]]:
    """The entrants a league folder's manifest lists, and its other settings; ``overrides``
    (the command line's, the function's arguments) win over the manifest's settings."""
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
    settings.update({k: v for k, v in (overrides or {}).items() if v is not None})
    defaults = _defaults(settings)
    return [_entrant(e, root.resolve(), defaults) for e in data["agents"]], settings


def _defaults(settings: Mapping[str, Any]) -> _Defaults:
    """The entries' defaults from the league's settings (a bad limit named)."""
    try:
        return _Defaults(
            float(settings.get("time_limit", 10.0)),
            float(settings.get("start_limit", 30.0)),
            Limits.of(settings),
            _sandbox(settings.get("sandbox", "auto")),
        )
    except (TypeError, ValueError) as exc:
        raise LeagueError(render("league_bad_setting", error=exc)) from exc


def _sandbox(requested: object) -> str:
    """The sandbox the league's programs run in: ``"bwrap"`` or ``"none"`` (``"auto"`` is
    decided here, once; ``"bwrap"`` where it can't be had is refused)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the league says it in its own line
            return resolve(str(requested))
    except SandboxError as exc:
        raise LeagueError(sentence_of(exc)) from None


_SETTINGS = (
    "variant",
    "options",
    "players",
    "games",
    "seed",
    "schedule",
    "rounds",
    "time_limit",
    "start_limit",
    "game_limit",
    "tries",
    "sandbox",
    *Limits().to_dict(),
)


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
    sandbox: str = ""  # where its programs ran: bwrap | none ("" when it had none)
    sandbox_note: str = ""  # why there was no sandbox, when one was wanted
    limits: dict[str, int] = field(default_factory=dict)  # the league's default limits
    as_root: bool = False  # run by root: no process limit (the kernel exempts root)

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

    @property
    def lost(self) -> tuple[GameRecord, ...]:
        """The games that could not be played (their workers froze or died every time)."""
        return tuple(r for r in self.records if r.how == "lost")

    def sandbox_line(self) -> str:
        """Where the programs ran and with which limits, in one line ('' without programs)."""
        if not self.sandbox:
            return ""
        limits = Limits(**self.limits)
        if self.sandbox == "none" and self.sandbox_note:
            return render("sandbox_line_missing", why=self.sandbox_note, **limits.to_dict())
        return sandbox_line(self.sandbox, limits, self.as_root)

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
            "options": options_text(self.options),
            "players": self.players,
            "entrants": len(self.entrants),
            "count": len(self.records),
            "seed": self.seed,
        }
        better = "tournament_better_low" if self.low_score_wins else "tournament_better_high"
        out = [
            render("league_title", setting),
            render(f"league_schedule_{self.schedule}", rounds=self.rounds, games=self.games),
            *([self.sandbox_line()] if self.sandbox else []),
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
        if self.lost:
            out += ["", render("league_lost_heading", count=len(self.lost))]
            out += ["  " + _lost_line(r) for r in self.lost]
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
        lost = "".join(f"<li>{escape(_lost_line(r))}</li>" for r in self.lost)
        head_lines = lines[: lines.index("")]
        return (
            "<div class='rk-league'>"
            f"<p>{'<br>'.join(escape(line) for line in head_lines)}</p>"
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
            + (
                f"<p>{escape(render('league_lost_heading', count=len(self.lost)))}</p>"
                f"<ul>{lost}</ul>"
                if lost
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
            "sandbox": {
                "mode": self.sandbox,
                "note": self.sandbox_note,
                "limits": self.limits,
                "as_root": self.as_root,
            },
        }

    def to_json(self) -> str:
        """The JSON form as text."""
        return json.dumps(self.to_dict(), ensure_ascii=False)


_COLUMNS = ("place", "agent", "samples", "mean", "ci", "win", "win_ci", "forfeits")


def _lost_line(record: GameRecord) -> str:
    return render(
        "league_lost_game",
        index=record.index,
        seed=record.deal_seed,
        seating=", ".join(record.seating),
        reason=record.lost,
    )


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
    start_limit: float | None = None,
    sandbox: str | None = None,
    limits: Mapping[str, int] | None = None,
    game_limit: float | None = None,
    tries: int | None = None,
) -> LeagueResult:
    """Play a league and rank its entrants.

    ``agents`` is a folder with a ``league.json`` manifest (whose settings are defaults for
    the arguments here), or a list of manifest entries (``{"name": ..., "level"|"python"|
    "command": ...}``) and agent specs as :func:`~rummykit.tournament.run_tournament` takes.
    ``schedule`` is ``"round_robin"``, ``"swiss"`` or ``"auto"``; ``rounds`` the Swiss rounds
    (default: enough to sort the field, log2 of the entrants plus one). ``games`` per table,
    best a multiple of ``players`` (each deal is played from every seat). ``progress``: a bar
    (tqdm, in the terminal or the notebook), ``False``, or ``progress(done, total)``.

    The programs' defaults: ``time_limit`` (seconds per decision), ``start_limit`` (for the
    hello), ``sandbox`` (``"auto"``, ``"bwrap"``, ``"none"``), ``limits`` (``memory``,
    ``cpu``, ``processes``, ``file_size``, ``open_files``; an entry may set its own). Each
    game gets ``game_limit`` seconds of wall clock and ``tries`` tries before it is lost.
    """
    overrides: dict[str, Any] = {
        "time_limit": time_limit,
        "start_limit": start_limit,
        "sandbox": sandbox,
        "game_limit": game_limit,
        "tries": tries,
        **(limits or {}),
    }
    settings: dict[str, Any] = {}
    if isinstance(agents, (str, Path)):
        entrants, settings = read_manifest(agents, overrides)
    else:
        settings = {k: v for k, v in overrides.items() if v is not None}
        defaults = _defaults(settings)
        entrants = [_entrant(a, Path.cwd(), defaults) for a in agents]
    slowest = max(
        [
            a.time_limit
            for e in entrants
            if isinstance(a := getattr(e.factory, "agent", None), ProcessAgent)
        ]
        + [0.0]
    )
    try:
        limit_per_game = float(settings.get("game_limit", max(GAME_LIMIT, DECISIONS * slowest)))
        tries = int(settings.get("tries", TRIES))
        if limit_per_game <= 0 or tries < 1:
            raise ValueError(f"game_limit={limit_per_game:g}, tries={tries}")
    except (TypeError, ValueError) as exc:
        raise LeagueError(render("league_bad_setting", error=exc)) from None
    rules = get_variant(
        variant or settings.get("variant", "rommi"), **(options or settings.get("options", {}))
    )
    players = int(players or settings.get("players", 2))
    games = int(games or settings.get("games", 2 * players))
    seed = int(seed if seed is not None else settings.get("seed", 0))
    schedule = schedule or settings.get("schedule", "auto")
    rules.check_players(players)
    programs = any(e.process for e in entrants)
    mode = _sandbox(settings.get("sandbox", "auto")) if programs else ""
    why_none = ""
    if mode == "none" and str(settings.get("sandbox", "auto")) == "auto":
        why_none = unavailable()
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
            tasks: list[GameTask] = []
            stage_seed = _round_seed(seed, stage)
            for table in tables:
                for _, deal_seed, seating, cluster in seatings_of(
                    table, games, stage_seed, players, True
                ):
                    tasks.append(
                        GameTask(
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

            played_now = run_games(
                tasks,
                workers,
                note,
                executor,
                limit=limit_per_game,
                tries=tries,
                apart=programs,
            )
            for record in played_now:
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
        comparisons=comparisons, sandbox=mode, sandbox_note=why_none,
        limits=Limits.of(settings).to_dict() if programs else {},
        as_root=hasattr(os, "geteuid") and os.geteuid() == 0,
    )  # fmt: skip


def _ranking(
    order: list[int], records: list[GameRecord], names: list[str], low_wins: bool
) -> list[int]:
    """The entrants best first by mean points per round so far (ties: the seeded order)."""
    points: dict[str, list[int]] = {n: [] for n in names}
    for record in records:
        if record.how == "lost":
            continue
        for seat, name in enumerate(record.seating):
            points[name].append(record.points[seat])
    sign = 1.0 if low_wins else -1.0

    def key(i: int) -> tuple[float, int]:
        got = points[names[i]]
        return (sign * (sum(got) / len(got)) if got else 0.0, order.index(i))

    return sorted(order, key=key)


def _check_programs(entrants: list[Entrant], variant: str) -> None:
    """Start each program once (a few at a time): one that can't say hello, or doesn't play
    the variant, is refused before the league starts (rather than forfeiting every game)."""
    probes = []
    for entrant in entrants:
        agent = getattr(entrant.factory, "agent", None)
        if isinstance(agent, ProcessAgent):
            probes.append((entrant, _probe(agent)))
    if not probes:
        return

    def ask(probe: ProcessAgent) -> tuple[str, ...] | Exception:
        try:
            return probe.variants
        except (Forfeit, SandboxError) as why:
            return why
        finally:
            probe.stop()  # told bye: the games start their own

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(ask, [probe for _, probe in probes]))
    for (entrant, _), plays in zip(probes, answers):
        if isinstance(plays, SandboxError):
            raise LeagueError(sentence_of(plays))
        if isinstance(plays, Forfeit):
            said = plays.stderr.strip()[-300:] or render("league_no_stderr")
            raise LeagueError(
                render("league_program_failed", name=entrant.name, why=str(plays), stderr=said)
            )
        if isinstance(plays, Exception):
            raise plays
        if variant not in plays:
            raise LeagueError(
                render(
                    "league_wrong_variant",
                    name=entrant.name,
                    variant=variant,
                    plays=", ".join(plays),
                )
            )


def _probe(agent: ProcessAgent) -> ProcessAgent:
    """A copy of ``agent`` not yet started (its program's hello is the check)."""
    copy: ProcessAgent = pickle.loads(pickle.dumps(agent))
    return copy


def write_results(result: LeagueResult, paths: Mapping[str, str | Path]) -> dict[str, str]:
    """Write the result as ``"json"`` and/or ``"html"`` to the paths given, each atomically
    (a new file in the same folder, flushed to disk, then renamed over the old one); the
    SHA-256 of each file, by path, for the report.

    Call it when the league is over: every program has been stopped by then, so none can
    touch the files, and the checksums tell if anything did later.
    """
    sums: dict[str, str] = {}
    for kind, where in paths.items():
        text = result.to_json() if kind == "json" else result._repr_html_()
        data = text.encode("utf-8")
        path = Path(where)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(temporary, 0o644)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        sums[str(path)] = hashlib.sha256(data).hexdigest()
    return sums


def run_league_command(args: Any) -> int:
    """``rummykit league DIR``: the standings as text (or JSON); 2 on a bad setup. The
    files asked for (``--html``, ``--save``) are written when every program has stopped,
    and the report ends with their SHA-256 checksums (``sha256sum -c`` reads those lines)."""
    executor: Executor | None = None
    client: Any = None
    workers = args.workers
    try:
        if args.scheduler:
            try:
                distributed = importlib.import_module("distributed")
            except ImportError:
                raise LeagueError(render("cli_league_no_dask")) from None
            client = distributed.Client(args.scheduler)
            executor = client.get_executor()
            workers = max(1, sum(client.nthreads().values()))  # games in flight at once
        result = league(
            args.folder,
            args.variant,
            args.players,
            args.games,
            args.seed,
            schedule=args.schedule,
            rounds=args.rounds,
            executor=executor,
            workers=workers,
            progress=not args.quiet,
            time_limit=args.time_limit,
            start_limit=args.start_limit,
            sandbox=args.sandbox,
            game_limit=args.game_limit,
        )
        if client is not None:
            client.run(stop_idle)  # the programs still waiting on the workers
    except (ValueError, OSError) as error:  # LeagueError, VariantError
        print(render("cli_error", command="league", message=str(error)), file=sys.stderr)
        return 2
    finally:
        if client is not None:
            client.close()
    print(result.to_json() if args.json else result)
    outputs = {k: v for k, v in (("json", args.save), ("html", args.html)) if v}
    try:
        sums = write_results(result, outputs)
    except OSError as error:  # the table is printed above: only the file is missing
        print(render("cli_error", command="league", message=str(error)), file=sys.stderr)
        return 2
    if sums:
        out = sys.stderr if args.json else sys.stdout
        print("" if args.json else "\n" + render("league_checksums"), file=out)
        for path, digest in sums.items():
            print(f"{digest}  {path}", file=out)
    return 0
