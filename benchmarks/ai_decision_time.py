"""How long the computer opponents think: decision time per level, in both variants.

Seeded rounds are played with every seat at the same level (both variants, 2, 3 and 4
players); every call to ``decide(observation)`` is timed. Each decision is timed ``--repeat``
times on the same observation and the fastest run kept (default 1: the solver's shared
opening memo makes a second timing of the same observation cheaper than the first). Reported per level and variant:
the number of decisions, the median, p90, p99 and the slowest.

Target (issue 14): hard's slowest decision at most 50 ms for every variant and player count.

``--clock cpu`` times each decision by the CPU time this process spent on it
(``time.process_time``) instead of the wall clock: on a shared machine the wall clock also
counts the time the process waited for a core, which says nothing about the agent.

Run:  .venv/bin/python benchmarks/ai_decision_time.py [--rounds 20] [--seed 1] [--repeat 2]
      [--clock cpu]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from rummykit.ai import LEVELS, make_agent
from rummykit.game import Game

SETUPS = tuple((v, n) for v in ("rommi", "hungarian") for n in (2, 3, 4))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_level(
    variant: str, players: int, level: str, rounds: int, seed: int, repeat: int, cpu: bool = False
) -> list[float]:
    times: list[float] = []
    clock = time.process_time if cpu else time.perf_counter
    for number in range(rounds):
        game = Game.new(variant, players=players, seed=seed * 1000 + number)
        agents = [make_agent(level) for _ in range(players)]
        while not game.is_over:
            seat = game.current
            obs = game.observation(seat)
            best = float("inf")
            decision = None
            for _ in range(repeat):
                start = clock()
                decision = agents[seat].decide(obs)
                best = min(best, clock() - start)
            assert decision is not None
            times.append(best)
            game.play(decision.action, seat)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="rounds per level and variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="timings per decision (fastest kept)")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--only", choices=("rommi", "hungarian"), default=None)
    args = parser.parse_args()
    print(
        f"# Python {platform.python_version()} on {platform.machine()}, "
        f"{args.rounds} rounds per row, seed {args.seed}, fastest of {args.repeat}, "
        f"{args.clock} clock"
    )
    print(
        f"{'variant':<10} {'players':>7} {'level':<7} {'decisions':>9} "
        f"{'median ms':>9} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}"
    )
    for variant, players in SETUPS:
        if args.only and variant != args.only:
            continue
        for level in args.levels.split(","):
            times = time_level(
                variant, players, level, args.rounds, args.seed, args.repeat, args.clock == "cpu"
            )
            ms = [1000 * t for t in times]
            print(
                f"{variant:<10} {players:>7} {level:<7} {len(ms):>9} "
                f"{statistics.median(ms):>9.2f} {percentile(ms, 0.90):>8.2f} "
                f"{percentile(ms, 0.99):>8.2f} {max(ms):>8.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
