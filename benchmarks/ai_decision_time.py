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

Beside the slowest decision, ``gc ms`` is the time the garbage collector ran inside it
(its collections are timed through ``gc.callbacks`` on the same clock), and ``max-gc ms`` the
slowest decision with that taken out: which of the two a pause comes from.

Run:  .venv/bin/python benchmarks/ai_decision_time.py [--rounds 20] [--seed 1] [--repeat 2]
      [--clock cpu]
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import time
from collections.abc import Callable

from rummykit.ai import LEVELS, make_agent
from rummykit.game import Game

SETUPS = tuple((v, n) for v in ("rommi", "hungarian") for n in (2, 3, 4))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Collections:
    """The garbage collector's time, summed while :attr:`on` (a ``gc.callbacks`` entry)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock, self.spent, self.started = clock, 0.0, 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = self.clock()
        else:
            self.spent += self.clock() - self.started


def time_level(
    variant: str, players: int, level: str, rounds: int, seed: int, repeat: int, cpu: bool = False
) -> list[tuple[float, float]]:
    """Each decision's (time, the collector's time inside it), the fastest of ``repeat``."""
    times: list[tuple[float, float]] = []
    clock = time.process_time if cpu else time.perf_counter
    collections = Collections(clock)
    gc.callbacks.append(collections)
    try:
        for number in range(rounds):
            play_round(
                variant, players, level, seed * 1000 + number, repeat, clock, collections, times
            )
    finally:
        gc.callbacks.remove(collections)
    return times


def play_round(
    variant: str,
    players: int,
    level: str,
    seed: int,
    repeat: int,
    clock: Callable[[], float],
    collections: Collections,
    times: list[tuple[float, float]],
) -> None:
    game = Game.new(variant, players=players, seed=seed)
    agents = [make_agent(level) for _ in range(players)]
    while not game.is_over:
        seat = game.current
        obs = game.observation(seat)
        best = (float("inf"), 0.0)
        decision = None
        for _ in range(repeat):
            collections.spent = 0.0
            start = clock()
            decision = agents[seat].decide(obs)
            best = min(best, (clock() - start, collections.spent))
        assert decision is not None
        times.append(best)
        game.play(decision.action, seat)


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
        f"{'median ms':>9} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} {'gc ms':>6} "
        f"{'max-gc ms':>9}"
    )
    for variant, players in SETUPS:
        if args.only and variant != args.only:
            continue
        for level in args.levels.split(","):
            times = time_level(
                variant, players, level, args.rounds, args.seed, args.repeat, args.clock == "cpu"
            )
            ms = [1000 * t for t, _ in times]
            in_gc = max(times)[1]
            without = max(t - g for t, g in times)
            print(
                f"{variant:<10} {players:>7} {level:<7} {len(ms):>9} "
                f"{statistics.median(ms):>9.2f} {percentile(ms, 0.90):>8.2f} "
                f"{percentile(ms, 0.99):>8.2f} {max(ms):>8.2f} {1000 * in_gc:>6.2f} "
                f"{1000 * without:>9.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
