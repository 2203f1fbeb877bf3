"""What the sandbox costs: a program's start, a decision, and a 30-entrant class league.

1. **Start, per program.** A program is started and its hello read (the referee's welcome
   sent) ``--starts`` times, each way: in bubblewrap (``sandbox="bwrap"``) and with the
   limits only (``sandbox="none"``). Programs: the built-in level served by
   ``python -m rummykit agent --level easy``, ``sh first_legal.sh`` and, where Node is
   installed, ``node meld_first.js``. Reported: the median start in each, and the difference
   — the sandbox's start cost.
2. **Per decision.** Seeded rounds (Rommi 2 players, Hungarian 4 players) are played, and
   every observation goes to the same level in a sandboxed program and in a limits-only one
   (fastest of ``--repeat`` each); the difference per decision is what the sandbox adds to a
   decision (both are frozen between decisions, so the SIGSTOP/SIGCONT pair is in both).
3. **A class league.** ``--entrants`` programs (30 by default), each in a folder of its own
   — a third ``python lowball.py`` in its own process, a third ``sh first_legal.sh``, a
   third ``node meld_first.js`` (``sh`` again without Node) — play a sandboxed round robin
   of Rommi, 2 players, ``--games`` games a table, on ``--workers`` supervised workers.
   Reported: its wall-clock time, its games and decisions, and that no game was forfeited
   or lost; with ``--compare`` the same league with the limits only, and the ratio.

Run:  .venv/bin/python benchmarks/sandbox_cost.py [--part all|start|decision|league]
      [--starts 15] [--rounds 4] [--repeat 3] [--entrants 30] [--games 2] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rummykit.agents import ProcessAgent, stop_idle
from rummykit.agents.sandbox import resolve
from rummykit.game import Game
from rummykit.leagues import league

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "agents"
NODE = shutil.which("node")
MS = 1000.0


def programs() -> dict[str, list[str]]:
    found = {
        "python -m rummykit agent --level easy": [sys.executable, "-m", "rummykit", "agent",
                                                  "--level", "easy"],
        "sh first_legal.sh": ["sh", str(EXAMPLES / "first_legal.sh")],
    }  # fmt: skip
    if NODE:
        found["node meld_first.js"] = [NODE, str(EXAMPLES / "meld_first.js")]
    return found


def start_cost(starts: int) -> None:
    print(f"\n1. Start, per program (median of {starts}: started, hello read, welcome sent)")
    print(f"   {'program':40} {'bwrap ms':>9} {'limits ms':>10} {'sandbox adds':>13}")
    for label, argv in programs().items():
        medians = {}
        for sandbox in ("bwrap", "none"):
            times = []
            for _ in range(starts):
                agent = ProcessAgent(argv, sandbox=sandbox)
                began = time.perf_counter()
                assert agent.program_name  # the hello, read; the welcome, sent
                times.append(time.perf_counter() - began)
                agent.stop()
            medians[sandbox] = statistics.median(times) * MS
        extra = medians["bwrap"] - medians["none"]
        print(f"   {label:40} {medians['bwrap']:9.1f} {medians['none']:10.1f} {extra:+13.1f}")


def decision_cost(rounds: int, repeat: int, seed: int) -> None:
    clock = time.perf_counter
    diffs: list[float] = []
    boxed_times: list[float] = []
    argv = programs()["python -m rummykit agent --level easy"]
    with ProcessAgent(argv, sandbox="bwrap") as boxed, ProcessAgent(argv, sandbox="none") as bare:
        assert boxed.program_name and bare.program_name  # started before the clock runs
        for number in range(rounds):
            for variant, players in (("rommi", 2), ("hungarian", 4)):
                game = Game.new(variant, players, seed=seed * 1000 + number)
                while not game.is_over:
                    obs = game.observation(game.current)
                    best_boxed = best_bare = float("inf")
                    for _ in range(repeat):
                        began = clock()
                        here = boxed.decide(obs)
                        best_boxed = min(best_boxed, clock() - began)
                        began = clock()
                        there = bare.decide(obs)
                        best_bare = min(best_bare, clock() - began)
                    assert here.action == there.action
                    diffs.append(best_boxed - best_bare)
                    boxed_times.append(best_boxed)
                    game.play(here.action)
    diffs.sort()

    def at(q: float) -> float:
        return diffs[min(len(diffs) - 1, int(q * len(diffs)))] * MS

    print(
        f"\n2. Per decision (easy, {len(diffs)} decisions of Rommi 2p and Hungarian 4p, fastest"
        f" of {repeat}): the sandbox adds a median {statistics.median(diffs) * MS:+.3f} ms, p90"
        f" {at(0.9):+.3f} ms, p99 {at(0.99):+.3f} ms (a sandboxed decision: median"
        f" {statistics.median(boxed_times) * MS:.3f} ms)"
    )


def class_folder(entrants: int) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="rummykit-class-"))
    kinds = ["python", "sh", "node" if NODE else "sh"]
    agents = []
    for number in range(entrants):
        name = f"student{number + 1:02d}"
        (folder / name).mkdir()
        kind = kinds[number % 3]
        if kind == "python":
            shutil.copy(EXAMPLES / "lowball.py", folder / name)
            agents.append({"name": name, "python": f"{name}/lowball.py:LowBall"})
        elif kind == "sh":
            shutil.copy(EXAMPLES / "first_legal.sh", folder / name)
            agents.append({"name": name, "command": ["sh", "first_legal.sh"], "folder": name})
        else:
            shutil.copy(EXAMPLES / "meld_first.js", folder / name)
            agents.append({"name": name, "command": [NODE, "meld_first.js"], "folder": name})
    (folder / "league.json").write_text(json.dumps({"agents": agents}))
    return folder


def class_league(entrants: int, games: int, workers: int, compare: bool, seed: int) -> None:
    folder = class_folder(entrants)
    runs = {}
    try:
        for sandbox in ("bwrap", "none") if compare else ("bwrap",):
            began = time.perf_counter()
            result = league(folder, "rommi", 2, games=games, seed=seed, workers=workers,
                            schedule="round_robin", sandbox=sandbox, progress=False)  # fmt: skip
            runs[sandbox] = (time.perf_counter() - began, result)
            stop_idle()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"\n3. A class league: {entrants} entrants, a round robin of Rommi 2p, {games} games "
          f"a table, {workers} supervised workers")  # fmt: skip
    for sandbox, (seconds, result) in runs.items():
        decisions = sum(r.actions for r in result.records)
        print(
            f"   {sandbox:6}: {seconds:7.1f} s for {len(result.records)} games"
            f" ({decisions} decisions; {len(result.records) / seconds:.2f} games/s);"
            f" forfeits {len(result.forfeits)}, lost {len(result.lost)}"
        )
        assert not result.lost
    if compare:
        print(f"   the sandboxed league took {runs['bwrap'][0] / runs['none'][0]:.2f}× as long")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--part", choices=["all", "start", "decision", "league"], default="all")
    parser.add_argument("--starts", type=int, default=15, help="program starts timed, each way")
    parser.add_argument("--rounds", type=int, default=4, help="rounds per variant, per decision")
    parser.add_argument("--repeat", type=int, default=3, help="timings per decision (fastest)")
    parser.add_argument("--entrants", type=int, default=30, help="programs in the class league")
    parser.add_argument("--games", type=int, default=2, help="games a table of the league")
    parser.add_argument("--workers", type=int, default=2, help="the league's worker processes")
    parser.add_argument("--compare", action="store_true", help="the league with limits only too")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if resolve("auto") != "bwrap":
        sys.exit("no bubblewrap here: nothing to measure (apt install bubblewrap)")
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs,"
          f" {'root' if os.geteuid() == 0 else 'not root'}; node: {NODE or 'absent'}")  # fmt: skip
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.part in ("all", "start"):
        start_cost(args.starts)
    if args.part in ("all", "decision"):
        decision_cost(args.rounds, args.repeat, args.seed)
    if args.part in ("all", "league"):
        class_league(args.entrants, args.games, args.workers, args.compare, args.seed)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
