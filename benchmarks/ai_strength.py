"""How strong each computer opponent is: the whole table of level against level, cumulative.

For every table the variants allow — Rommi and Hungarian, 2, 3 and 4 players, default
options — and every pair of agents (hard − normal, normal − easy, and hard and normal each
against the greedy baseline), seeded tournaments are played with seats rotated (each deal
played from every seat). With 3 or 4 players each pair is played twice: the first agent
holding one seat, then holding all seats but one (the majority). Reported per row: the
rounds played so far, the difference of the mean points per seat and round (first −
second, in each variant's own scoring) with its 95% confidence interval (cluster-robust:
the rotations of one deal are one cluster), and a verdict — higher is better in Rommi,
lower in Hungarian, so "first stronger" means the interval lies wholly on the first agent's
good side.

**Resumable and cumulative.** Rounds are played in blocks of ``BLOCK`` (a whole number of
rotations at every table size), each block a tournament with its own seed, and every game's
seating and points are saved after each block to ``benchmarks/results/ai_strength.json``
under the *code version* — a hash of the files that decide how the agents play
(``CODE_FILES``). A later run with the same code adds blocks (the next seeds) to the same
rows; a change to the agents starts a new version, and rows of other
versions are never reported as this code's.

Run (long; niced, bounded in time; ``--workers 2`` plays two blocks at once):

    nice -n 10 .venv/bin/python benchmarks/ai_strength.py --rounds 600 --minutes 60 --workers 2

``--rounds`` is the target per row, ``--minutes`` stops adding blocks after that long
(the results so far are kept; blocks go to the rows with the fewest rounds first),
``--unclear-first`` plays the rows whose interval still holds zero first, ``--first
"KEY;KEY"`` gives the named rows ``--weight`` (default 4) times the rounds of the others, ``--only rommi`` / ``--players 2`` / ``--pairs hard-normal`` narrow the
table, ``--report`` only prints the table of what is stored for the current code, and
``--margins`` adds, for every table and seating, hard's margin over greedy less normal's,
paired deal by deal (the two rows are played on the same seeds).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import platform
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from ai_habits import interval, per_deal

from rummykit.tournament import GameRecord, run_tournament, standings_of
from rummykit.variants import variant as get_variant

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "ai_strength.json"
CODE_FILES = (
    "rummykit/ai/agents.py",
    "rummykit/ai/planning.py",
    "rummykit/ai/greedy.py",
    "rummykit/ai/levels.py",
)
"""The files whose content decides how the agents play. Left out: ``ai/trace.py`` (the
trace's data and wording; a candidate's score is the sum of terms worked out in
``agents.py``) and ``ai/hint.py`` (hints for a learner), so rewording keeps the rows; and
``solver.py``, whose answers are exact (the least deadwood, the best opening) — its speed
work must not change a decision (issue 14 checks that) — so each block records the hash of
the solver it was played with instead (``SOLVER``), and the report lists them."""
SOLVER = "rummykit/solver.py"
PAIRS = (("hard", "normal"), ("normal", "easy"), ("hard", "greedy"), ("normal", "greedy"))
BLOCK = 12  # rounds per block: whole rotations with 2, 3 and 4 players
FIRST_SEED = 1000  # block k of a row plays seed FIRST_SEED + k


def code_version(files: tuple[str, ...] = CODE_FILES, root: Path = ROOT) -> str:
    """A short hash of ``files``' code: the same code gives the same version.

    What is hashed is each file's syntax tree without its docstrings (``ast``): a comment,
    a docstring or the layout changes nothing the agents do, so it keeps the version and the
    rounds already played count on."""
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode())
        digest.update(_code_only((root / name).read_text(encoding="utf-8")).encode())
    return digest.hexdigest()[:16]


def _code_only(source: str) -> str:
    """The syntax tree of ``source`` without docstrings, as text."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree, include_attributes=False)


@dataclass(frozen=True)
class Row:
    """One line of the table: a pair at a table, in one seating."""

    variant: str
    players: int
    first: str
    second: str
    label: str
    lineup: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"{self.variant}|{self.players}|{self.first}-{self.second}|{self.label}"


def rows(only: str | None, players: int | None, pairs: tuple[tuple[str, str], ...]) -> list[Row]:
    """Every row of the table, narrowed by the filters."""
    out = []
    for variant in ("rommi", "hungarian"):
        for n in (2, 3, 4):
            if (only and variant != only) or (players and n != players):
                continue
            for first, second in pairs:
                if n == 2:
                    out.append(Row(variant, n, first, second, "1 seat each", (first, second)))
                    continue
                out.append(
                    Row(variant, n, first, second, f"{first} 1 seat",
                        (first,) + (second,) * (n - 1))
                )  # fmt: skip
                out.append(
                    Row(variant, n, first, second, f"{first} {n - 1} seats",
                        (first,) * (n - 1) + (second,))
                )  # fmt: skip
    return out


def load() -> dict[str, object]:
    """The stored results, each row's blocks once per seed (:func:`once_per_seed`)."""
    if RESULTS.exists():
        data: dict[str, object] = json.loads(RESULTS.read_text())
        versions = data["versions"]
        assert isinstance(versions, dict)
        for entry in versions.values():
            for key, blocks in entry["rows"].items():
                entry["rows"][key] = once_per_seed(blocks)
        return data
    return {"about": __doc__.splitlines()[0], "block": BLOCK, "versions": {}}


def once_per_seed(blocks: list[dict[str, object]]) -> list[dict[str, object]]:
    """``blocks`` with the first block of each seed only: a seed plays the same games every
    time, so a second block of it (an interrupted run's, or two workers' race before
    :func:`next_block` chose the first free seed) would count the same deals twice.

    >>> [b["seed"] for b in once_per_seed([{"seed": 1000}, {"seed": 1001}, {"seed": 1000}])]
    [1000, 1001]
    """
    seen: set[object] = set()
    kept = []
    for block in blocks:
        if block["seed"] not in seen:
            seen.add(block["seed"])
            kept.append(block)
    return kept


def save(data: dict[str, object]) -> None:
    versions = data["versions"]
    assert isinstance(versions, dict)
    for entry in versions.values():  # every game in its one-line form
        for blocks in entry["rows"].values():
            for block in blocks:
                block["games"] = [
                    g if isinstance(g, str) else game_text(game_record(g)) for g in block["games"]
                ]
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    tmp = RESULTS.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    tmp.replace(RESULTS)


def blocks_of(data: dict[str, object], version: str, row: Row) -> list[dict[str, object]]:
    """The stored blocks of one row for one code version (created empty if missing)."""
    versions = data["versions"]
    assert isinstance(versions, dict)
    entry = versions.setdefault(version, {"files": list(CODE_FILES), "rows": {}})
    found: list[dict[str, object]] = entry["rows"].setdefault(row.key, [])
    return found


def play_block(row: Row, seed: int) -> dict[str, object]:
    """Play one block of a row: ``BLOCK`` rounds with seed ``seed``, every game kept."""
    start = time.perf_counter()
    result = run_tournament(row.variant, row.players, list(row.lineup), games=BLOCK,
                            seed=seed, workers=1)  # fmt: skip
    games = [game_text(r) for r in result.records]
    return {"seed": seed, "rounds": BLOCK, "seconds": round(time.perf_counter() - start, 1),
            "solver": code_version((SOLVER,)), "games": games}  # fmt: skip


def game_text(record: GameRecord) -> str:
    """One game in one line: ``index deal-seed seating points winners`` (``/``-separated;
    ``-`` for no winner), e.g. ``3 405911962 normal/hard 0/21 1``."""
    winners = "/".join(map(str, record.winners)) or "-"
    return (
        f"{record.index} {record.deal_seed} {'/'.join(record.seating)} "
        f"{'/'.join(map(str, record.points))} {winners}"
    )


def game_record(game: str | list[object]) -> GameRecord:
    """The record of a stored game (a line, or the older list form)."""
    if isinstance(game, list):
        index, deal_seed, seating, points, winners = game
        assert isinstance(seating, list) and isinstance(points, list)
        assert isinstance(winners, list)
        return GameRecord(
            int(str(index)), int(str(deal_seed)), tuple(map(str, seating)),
            tuple(int(str(p)) for p in points), tuple(int(str(w)) for w in winners), "", 0,
        )  # fmt: skip
    index, deal_seed, seating, points, winners = game.split()
    return GameRecord(
        int(index), int(deal_seed), tuple(seating.split("/")),
        tuple(int(p) for p in points.split("/")),
        () if winners == "-" else tuple(int(w) for w in winners.split("/")), "", 0,
    )  # fmt: skip


@dataclass(frozen=True)
class Summary:
    rounds: int
    seeds: tuple[int, ...]
    difference: float
    ci: tuple[float, float]
    verdict: str
    seconds: float


def summarise(row: Row, blocks: list[dict[str, object]]) -> Summary | None:
    """The row's difference and interval over every stored block (each deal one cluster)."""
    records: list[GameRecord] = []
    clusters: list[int] = []
    for number, block in enumerate(blocks):
        games = block["games"]
        assert isinstance(games, list)
        for game in games:
            record = game_record(game)
            records.append(record)
            clusters.append(number * BLOCK + record.index // row.players)
    if len({c for c in clusters}) < 2:
        return None
    low = get_variant(row.variant).low_score_wins
    _, comparisons = standings_of(records, [row.first, row.second], clusters, low)
    cmp = comparisons[0]
    sign = 1.0 if cmp.first == row.first else -1.0
    assert cmp.ci is not None
    lo, hi = sorted((sign * cmp.ci[0], sign * cmp.ci[1]))
    good = (lambda x: x < 0) if low else (lambda x: x > 0)
    if good(lo) and good(hi):
        verdict = f"{row.first} stronger"
    elif not good(lo) and not good(hi) and lo != 0 and hi != 0:
        verdict = f"**{row.second} stronger**"
    else:
        verdict = "**no clear difference**"
    seeds = tuple(int(str(b["seed"])) for b in blocks)
    seconds = sum(float(str(b["seconds"])) for b in blocks)
    return Summary(len(records), seeds, sign * cmp.difference, (lo, hi), verdict, seconds)


def seed_range(seeds: tuple[int, ...]) -> str:
    """Seeds as ranges: ``1000–1004, 1007``."""
    parts: list[str] = []
    ordered = sorted(seeds)
    start = prev = ordered[0]
    for s in [*ordered[1:], None]:
        if s is not None and s == prev + 1:
            prev = s
            continue
        parts.append(f"{start}" if start == prev else f"{start}–{prev}")
        if s is not None:
            start = prev = s
    return ", ".join(parts)


def deal_margins(row: Row, blocks: list[dict[str, object]]) -> dict[tuple[int, int], float]:
    """For each deal of a row (block seed, deal number), the first agent's mean points per
    seat less the others' over the deal's rotations (``ai_habits.per_deal``, block by block)."""
    out: dict[tuple[int, int], float] = {}
    for block in blocks:
        games = block["games"]
        assert isinstance(games, list)
        deals = per_deal([game_record(g) for g in games], row.first, row.players)
        out.update({(int(str(block["seed"])), deal): v for deal, v in deals.items()})
    return out


def margins(data: dict[str, object], version: str, selected: list[Row]) -> Iterator[str]:
    """Hard's margin over greedy less normal's, deal by deal: the two rows of a table and
    seating are played on the same seeds, so the same deals and seatings."""
    yield "| variant | players | seats | deals | (hard − greedy) − (normal − greedy) (95% CI) |"
    yield "|---|---|---|---|---|"
    for row in selected:
        if (row.first, row.second) != ("hard", "greedy"):
            continue
        label = row.label.replace("hard", "normal")
        other = Row(row.variant, row.players, "normal", "greedy", label, row.lineup)
        hard = deal_margins(row, blocks_of(data, version, row))
        normal = deal_margins(other, blocks_of(data, version, other))
        diffs = [hard[d] - normal[d] for d in hard if d in normal]
        if len(diffs) < 2:
            continue
        lo, mean, hi = interval(diffs)
        yield (
            f"| {row.variant} | {row.players} | {row.label.replace('hard ', '')} | {len(diffs)} "
            f"| {mean:+.2f} [{lo:+.2f}, {hi:+.2f}] |"
        )


def report(data: dict[str, object], version: str, selected: list[Row]) -> Iterator[str]:
    """The markdown table for ``version``: every selected row, measured or not."""
    solvers = sorted(
        {str(b.get("solver", "?")) for row in selected for b in blocks_of(data, version, row)}
    )
    yield (
        f"<!-- code version {version}, solver {', '.join(solvers) or '-'}, {BLOCK} rounds per "
        f"block, Python {platform.python_version()} -->"
    )
    yield "| variant | players | seats | pair | rounds | difference (95% CI) | verdict | seeds |"
    yield "|---|---|---|---|---|---|---|---|"
    for row in selected:
        s = summarise(row, blocks_of(data, version, row))
        head = f"| {row.variant} | {row.players} | {row.label} | {row.first} − {row.second} |"
        if s is None:
            yield f"{head} 0 | not measured for this code | | |"
            continue
        yield (
            f"{head} {s.rounds} | {s.difference:+.2f} [{s.ci[0]:+.2f}, {s.ci[1]:+.2f}] | "
            f"{s.verdict} | {seed_range(s.seeds)} |"
        )


def next_block(
    data: dict[str, object],
    version: str,
    selected: list[Row],
    running: dict[Future[dict[str, object]], tuple[Row, int]],
    args: argparse.Namespace,
    favoured: set[str],
) -> tuple[Row, int] | None:
    """The row to play next and its seed, counting the blocks still being played as played,
    or ``None`` when every row has its rounds. The seed is the first from ``FIRST_SEED`` that
    the row has neither stored nor being played: two workers never play the same seed, and
    a block that finishes before an earlier one leaves no gap (a block lost to an interrupted
    run is played again first)."""
    todo = []
    for row in selected:
        blocks = blocks_of(data, version, row)
        flying = sum(1 for r, _ in running.values() if r == row)
        played = sum(int(str(b["rounds"])) for b in blocks) + flying * BLOCK
        if played >= args.rounds:
            continue
        s = summarise(row, blocks)
        unclear = s is None or not s.verdict.startswith(row.first)
        weight = args.weight if row.key in favoured else 1.0
        todo.append(((not unclear) if args.unclear_first else False, played / weight, row))
    if not todo:
        return None
    todo.sort(key=lambda t: (t[0], t[1]))  # stable: the table's order among equals
    row = todo[0][2]
    taken = {int(str(b["seed"])) for b in blocks_of(data, version, row)}
    taken |= {seed for r, seed in running.values() if r == row}
    seed = FIRST_SEED
    while seed in taken:
        seed += 1
    return row, seed


class _InProcess:
    """A one-worker stand-in for a process pool: each block is played when submitted."""

    def __enter__(self) -> _InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(
        self, fn: Callable[[Row, int], dict[str, object]], row: Row, seed: int
    ) -> Future[dict[str, object]]:
        future: Future[dict[str, object]] = Future()
        future.set_result(fn(row, seed))
        return future


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=600, help="target rounds per row")
    parser.add_argument("--minutes", type=float, default=None, help="stop adding blocks after")
    parser.add_argument("--only", choices=("rommi", "hungarian"), default=None)
    parser.add_argument("--players", type=int, default=None, choices=(2, 3, 4))
    parser.add_argument("--pairs", default=None, help="e.g. hard-normal,normal-easy")
    parser.add_argument("--unclear-first", action="store_true", help="rows holding 0 first")
    parser.add_argument(
        "--first",
        default="",
        help="row keys (variant|players|first-second|seats) to favour, ;-separated",
    )
    parser.add_argument(
        "--weight",
        type=float,
        default=4.0,
        help="rounds a --first row gets per round of the others",
    )
    parser.add_argument("--workers", type=int, default=1, help="blocks played at once")
    parser.add_argument("--report", action="store_true", help="only print what is stored")
    parser.add_argument("--compact", action="store_true", help="rewrite the stored games compactly")
    parser.add_argument(
        "--margins", action="store_true", help="hard's margin over greedy less normal's, paired"
    )
    args = parser.parse_args()
    pairs = PAIRS
    if args.pairs:
        pairs = tuple((a, b) for a, b in (p.split("-") for p in args.pairs.split(",")))
    selected = rows(args.only, args.players, pairs)
    favoured = {k.strip() for k in args.first.split(";") if k.strip()}
    unknown = favoured - {r.key for r in selected}
    if unknown:
        parser.error(f"no such row: {'; '.join(sorted(unknown))}")
    version = code_version()
    data = load()
    deadline = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    with ProcessPoolExecutor(args.workers) if args.workers > 1 else _InProcess() as pool:
        running: dict[Future[dict[str, object]], tuple[Row, int]] = {}
        while not args.report:
            open_ = deadline is None or time.monotonic() <= deadline
            while open_ and len(running) < args.workers:
                chosen = next_block(data, version, selected, running, args, favoured)
                if chosen is None:
                    break
                row, seed = chosen
                running[pool.submit(play_block, row, seed)] = (row, seed)
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                row, _ = running.pop(future)
                blocks = blocks_of(data, version, row)
                blocks.append(future.result())
                save(data)
                s = summarise(row, blocks)
                if s is not None:
                    print(
                        f"{row.key}: {s.rounds} rounds, {s.difference:+.2f} "
                        f"[{s.ci[0]:+.2f}, {s.ci[1]:+.2f}] ({s.seconds:.0f} s)",
                        flush=True,
                    )
    if args.compact:
        save(data)
    for line in report(data, version, selected):
        print(line)
    if args.margins:
        print()
        for line in margins(data, version, rows(args.only, args.players, PAIRS)):
            print(line)


if __name__ == "__main__":
    main()
