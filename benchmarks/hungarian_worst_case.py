"""Worst case and p99 of the exact solver on 15-card Hungarian hands with two jokers.

Hands: 13 cards drawn from the two 52-card decks plus 2 jokers (seeded). Each hand is timed
alone with ``best_arrangement`` (the full answer: melds, deadwood, jokers placed) and with
``min_deadwood`` (the number only), in two regimes:

* cold — the solver's cache of meld candidates is emptied before every run, so nothing is
  carried over from one hand to the next: the cost of a hand seen alone;
* warm — the cache kept across hands, as when an agent asks thousands of questions in a row.

Per hand the fastest of ``--repeat`` runs is kept (scheduler noise on a shared machine only
ever adds time; each cold run starts from an empty cache), and the slowest 2% of hands are
then timed ``--recheck`` more times each, keeping the fastest of all their runs: a burst of
load from elsewhere can outlast three runs in a row, but not a dozen spread over a minute.
``--repeat 1 --recheck 0`` gives raw single runs.

A third set is made to be hard: a hill-climbing generator starts from random hands and
keeps swapping one natural card for another from the two decks whenever the swap makes the
solver slower (time measured cold, the fastest of 3 runs), for ``--climb-steps`` steps per
hand; the hardest hands it finds are then timed like the others. The 15-card hand of the
issue (``8♦ 7♥ 7♠ 7♣ 8♠ 6♣ 7♦ 8♥ 6♦ 6♥ 6♠ 5♥ 8♣ 🃏 🃏``) and the hill-climbed hands are also
timed with ``min_deadwood(..., discard=True)``, the least deadwood after the best discard.

Run:  .venv/bin/python benchmarks/hungarian_worst_case.py [--hands 5000] [--repeat 3]
      .venv/bin/python benchmarks/hungarian_worst_case.py --hands 500 --climbs 20  (quicker)
      .venv/bin/python benchmarks/hungarian_worst_case.py --part climbed --clock cpu
      .venv/bin/python benchmarks/hungarian_worst_case.py --part climbed --against /tmp/base
(``--part climbed``: the hill-climbed hands only; ``--clock cpu``: the process's CPU time,
which leaves out the wait for a core on a busy machine; ``--against DIR``: the climbed hands
also timed, cold, with another checkout's code, e.g. an older commit's from ``git archive``,
the two trees alternating hand by hand, and its answers checked equal.)
"""

from __future__ import annotations

import argparse
import gc
import importlib
import platform
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from can_go_out_crowded_table import other_tree

from rummykit import HUNGARIAN
from rummykit.cards import JOKER, Card, make_deck, parse_cards
from rummykit.solver import _rules, best_arrangement, min_deadwood


def hands(seed: int, count: int, dense: bool) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    deck = make_deck(2)
    out = []
    for _ in range(count):
        if dense:  # crowded: 4 consecutive ranks of both decks (32 cards)
            low = rng.randint(1, 10)
            pool = [c for c in deck if low <= c.rank < low + 4]
        else:
            pool = list(deck)
        out.append((*rng.sample(pool, 13), JOKER, JOKER))
    return out


ISSUE_HAND = parse_cards("8♦ 7♥ 7♠ 7♣ 8♠ 6♣ 7♦ 8♥ 6♦ 6♥ 6♠ 5♥ 8♣ 🃏 🃏")


def climb(
    rng: random.Random, fn: Callable[[tuple[Card, ...]], object], steps: int
) -> tuple[Card, ...]:
    """A hard hand: from a random one, swap a natural card for another whenever that makes
    ``fn`` slower (cold, the fastest of 3 runs), ``steps`` times."""
    deck = make_deck(2)
    hand = (*rng.sample(deck, 13), JOKER, JOKER)
    cost = time_hand(fn, hand, True, 3)
    for _ in range(steps):
        i = rng.randrange(13)
        cards = list(hand)
        cards[i] = rng.choice(deck)
        if any(cards.count(c) > 2 for c in cards[:13]):  # two decks: at most two of a card
            continue
        trial = tuple(cards)
        trial_cost = time_hand(fn, trial, True, 3)
        if trial_cost > cost:
            hand, cost = trial, trial_cost
    return hand


CLOCK = [time.perf_counter]
"""The clock timings read: wall time, or with ``--clock cpu`` the process's CPU time
(``time.process_time``), which leaves out the time spent waiting for a core on a busy machine."""


OTHER: list[Any] = []  # with --against: that tree's solver, its HUNGARIAN, its parse_cards


def clear_cache() -> None:
    rules = [_rules(HUNGARIAN)] + [other._rules(hungarian) for other, hungarian, _ in OTHER]
    for rule in rules:
        for cache in (*rule.melds, *rule.near):
            cache.clear()


def time_hand(
    fn: Callable[[tuple[Card, ...]], object], hand: tuple[Card, ...], cold: bool, repeat: int
) -> float:
    best = float("inf")
    clock = CLOCK[0]
    for _ in range(repeat):
        if cold:
            clear_cache()
        start = clock()
        fn(hand)
        best = min(best, clock() - start)
    return best


def measure(
    fn: Callable[[tuple[Card, ...]], object],
    sample: list[tuple[Card, ...]],
    cold: bool,
    repeat: int,
    recheck: int,
) -> list[float]:
    return measure_side_by_side([(fn, sample)], cold, repeat, recheck)[0]


def measure_side_by_side(
    calls: list[tuple[Callable[[Any], object], list[Any]]],
    cold: bool,
    repeat: int,
    recheck: int,
) -> list[list[float]]:
    """Each hand timed with each (function, its hands) in turn, hand by hand, so that a burst
    of load from elsewhere falls on all of them alike; then each one's slowest 2% rechecked,
    also in turn."""
    clear_cache()
    gc.collect()
    gc.disable()
    try:
        count = len(calls[0][1])
        times: list[list[float]] = [[] for _ in calls]
        for i in range(count):
            for (fn, sample), mine in zip(calls, times):
                mine.append(time_hand(fn, sample[i], cold, repeat))
        slowest = [sorted(range(count), key=lambda i: -mine[i])[: count // 50] for mine in times]
        for _ in range(recheck):
            for (fn, sample), mine, worst in zip(calls, times, slowest):
                for i in worst:
                    if not cold:  # warm: with the cache as another hand leaves it
                        fn(sample[(i + 1) % count])
                    mine[i] = min(mine[i], time_hand(fn, sample[i], cold, 1))
    finally:
        gc.enable()
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    n = len(ordered)

    def pick(q: float) -> float:
        return ordered[min(n - 1, int(q * n))] * 1e3

    return (
        f"p50 {pick(0.5):6.3f} ms   p99 {pick(0.99):6.3f} ms   worst {ordered[-1] * 1e3:6.3f} ms"
        f"   mean {sum(ordered) / n * 1e3:6.3f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--recheck", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--climbs", type=int, default=100, help="hill-climbed hands")
    parser.add_argument("--climb-steps", type=int, default=60, help="swaps tried per hand")
    parser.add_argument(
        "--part", choices=("all", "climbed"), default="all", help="climbed: the hill-climbed only"
    )
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--against", type=Path, metavar="DIR", help="another checkout")
    args = parser.parse_args(argv)
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    if args.against:  # its solver, loaded beside ours (see can_go_out_crowded_table.py)
        other = other_tree(args.against)
        solver = importlib.import_module("rummykit_other.solver")
        cards = importlib.import_module("rummykit_other.cards")
        OTHER.append((solver, other.HUNGARIAN, cards.parse_cards))
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print(
        f"{args.hands} hands of 13 cards + 2 jokers; per hand the fastest of {args.repeat} runs,"
        f" the slowest 2% rechecked {args.recheck} more times ({args.clock} clock)"
    )
    best_arrangement(hands(0, 1, False)[0], HUNGARIAN)  # build the variant's tables once

    def arrangement(hand: tuple[Card, ...]) -> object:
        return best_arrangement(hand, HUNGARIAN)

    def number(hand: tuple[Card, ...]) -> object:
        return min_deadwood(hand, HUNGARIAN)

    def after_discard(hand: tuple[Card, ...]) -> object:
        return min_deadwood(hand, HUNGARIAN, discard=True)

    parts = (("random", False), ("dense (4 ranks, both decks)", True))
    for label, dense in parts if args.part == "all" else ():
        sample = hands(args.seed, args.hands if not dense else args.hands // 5, dense)
        print(f"\n{label}: {len(sample)} hands")
        for name, fn in (("best_arrangement", arrangement), ("min_deadwood", number)):
            for regime, cold in (("cold", True), ("warm", False)):
                times = measure(fn, sample, cold, args.repeat, args.recheck)
                print(f"  {name:<17} {regime}: {summary(times)}")

    rng = random.Random(args.seed)
    print(f"\nhill-climbed: {args.climbs} hands, {args.climb_steps} swaps tried each")
    for name, fn in (("min_deadwood", number), ("min_deadwood discard", after_discard)):
        if not args.climbs:
            break
        climbed = [climb(rng, fn, args.climb_steps) for _ in range(args.climbs)]
        hardest = max(climbed, key=lambda h: time_hand(fn, h, True, args.repeat))
        print(f"  hardest for {name}: {' '.join(map(str, hardest))}")
        times = measure(fn, climbed, False, args.repeat, args.recheck)
        warm = f"  {name:<21} warm: {summary(times)}"
        if not OTHER:
            times = measure(fn, climbed, True, args.repeat, args.recheck)
            print(f"  {name:<21} cold: {summary(times)}")
            print(warm)
            continue
        # the same hands with the other tree's code too, cold, the two trees hand by hand
        other, hungarian, parse = OTHER[0]
        discard = name.endswith("discard")
        theirs = [parse(" ".join(map(str, hand))) for hand in climbed]
        for hand, their_hand in zip(climbed, theirs):
            mine = min_deadwood(hand, HUNGARIAN, discard=discard)
            assert mine == other.min_deadwood(their_hand, hungarian, discard=discard), hand

        def their_fn(
            hand: Any, discard: bool = discard, other: Any = other, hungarian: Any = hungarian
        ) -> object:
            return other.min_deadwood(hand, hungarian, discard=discard)

        ours, before = measure_side_by_side(
            [(fn, climbed), (their_fn, theirs)], True, args.repeat, args.recheck
        )
        print(f"  {name:<21} cold: {summary(ours)}")
        print(warm)
        print(f"  {name:<21} cold, {args.against}: {summary(before)} (same answers)")
        ratios = sorted(a / b for a, b in zip(ours, before))
        print(
            f"  {name:<21} per hand, this tree's time / {args.against}'s: median"
            f" {ratios[len(ratios) // 2]:.2f}, on this tree's slowest hand"
            f" {ours[ours.index(max(ours))] / before[ours.index(max(ours))]:.2f}"
        )
    issue = [time_hand(after_discard, ISSUE_HAND, True, 1) for _ in range(args.repeat * 5)]
    print(
        f"\nthe issue's hand, min_deadwood discard=True, cold: fastest {min(issue) * 1e3:.3f} ms,"
        f" median {sorted(issue)[len(issue) // 2] * 1e3:.3f} ms, slowest {max(issue) * 1e3:.3f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
