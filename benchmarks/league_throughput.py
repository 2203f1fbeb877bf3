"""League throughput (one process, a local process pool, a 2-worker Dask cluster) and the
agent protocol's overhead per decision.

1. **Throughput.** The same seeded league (Rommi, 2 players, the three built-in levels in a
   round robin) is played three ways: in this process (``workers=1``), by the local process
   pool (``workers=2``) and on a ``distributed.LocalCluster`` of 2 worker processes on
   127.0.0.1 (``executor=client.get_executor()``). Reported: rounds per second for each, as
   ratios to the single process — and a check that all three results are equal. The
   cluster's start-up is not counted (a cluster is started once for many leagues).
2. **Protocol overhead.** Seeded rounds are played and, at every decision, the same
   observation goes once to an in-process agent and once to a :class:`ProcessAgent` serving
   the same level (``rummykit agent --level easy``); both decide the same move. The overhead
   of a decision is the process agent's time less the in-process agent's (each the fastest
   of ``--repeat`` runs): encoding the observation, the pipe both ways, rebuilding the
   observation in the program, and reading the answer and its trace back. Target: a median
   of 1 ms or less.

Run:  .venv/bin/python benchmarks/league_throughput.py [--games 6] [--rounds 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from rummykit.agents import ProcessAgent
from rummykit.ai import make_agent
from rummykit.game import Game
from rummykit.leagues import LeagueResult, league

LEVELS = ["easy", "normal", "hard"]


def play_league(games: int, seed: int, **how: object) -> tuple[LeagueResult, float]:
    start = time.perf_counter()
    result = league(LEVELS, "rommi", 2, games=games, seed=seed, progress=False, **how)  # type: ignore[arg-type]
    return result, time.perf_counter() - start


def throughput(games: int, seed: int) -> None:
    import distributed

    runs: list[tuple[str, LeagueResult, float]] = []
    result, seconds = play_league(games, seed, workers=1)
    runs.append(("one process (workers=1)", result, seconds))
    result, seconds = play_league(games, seed, workers=2)
    runs.append(("local process pool (workers=2)", result, seconds))
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=40,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        executor = client.get_executor()
        play_league(1 * 2, seed + 1, executor=executor)  # warm the workers' imports
        result, seconds = play_league(games, seed, executor=executor)
        runs.append(("Dask LocalCluster, 2 workers", result, seconds))
    rounds = len(runs[0][1].records)
    base = rounds / runs[0][2]
    print(f"League: Rommi, 2 players, {' / '.join(LEVELS)}, {games} games a table: {rounds} rounds")
    print(f"{'where':34} {'seconds':>8} {'rounds/s':>9} {'ratio':>6}")
    for where, _, seconds in runs:
        rate = rounds / seconds
        print(f"{where:34} {seconds:8.2f} {rate:9.2f} {rate / base:6.2f}")
    same = all(result == runs[0][1] for _, result, _ in runs)
    print(f"all three results equal: {same}")
    assert same


def overhead(rounds: int, seed: int, repeat: int, level: str) -> None:
    clock = time.perf_counter
    local = make_agent(level)
    diffs: list[float] = []
    inside: list[float] = []
    with ProcessAgent.level(level) as remote:
        assert remote.program_name == level  # started before the clock runs
        for number in range(rounds):
            for variant, players in (("rommi", 2), ("hungarian", 4)):
                game = Game.new(variant, players, seed=seed * 1000 + number)
                while not game.is_over:
                    obs = game.observation(game.current)
                    best_here = best_there = float("inf")
                    for _ in range(repeat):
                        start = clock()
                        here = local.decide(obs)
                        best_here = min(best_here, clock() - start)
                        start = clock()
                        there = remote.decide(obs)
                        best_there = min(best_there, clock() - start)
                    assert there.action == here.action
                    diffs.append(best_there - best_here)
                    inside.append(best_here)
                    game.play(here.action)
    diffs.sort()
    ms = 1000.0

    def at(q: float) -> float:
        return diffs[min(len(diffs) - 1, int(q * len(diffs)))] * ms

    print(
        f"\nProtocol overhead per decision ({level}, {len(diffs)} decisions of Rommi 2p and "
        f"Hungarian 4p): median {statistics.median(diffs) * ms:.3f} ms, p90 {at(0.9):.3f} ms, "
        f"p99 {at(0.99):.3f} ms (in-process decision: median "
        f"{statistics.median(inside) * ms:.3f} ms); target: median <= 1 ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per table of the league")
    parser.add_argument("--rounds", type=int, default=10, help="rounds per variant, overhead")
    parser.add_argument("--repeat", type=int, default=3, help="timings per decision (fastest kept)")
    parser.add_argument("--level", default="easy", help="the level served for the overhead")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    throughput(args.games, args.seed)
    overhead(args.rounds, args.seed, args.repeat, args.level)


if __name__ == "__main__":
    main()
