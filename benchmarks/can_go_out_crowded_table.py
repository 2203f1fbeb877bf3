"""``can_go_out`` with a crowded table: 20 melds on the table and 15 cards in hand (Hungarian).

Positions (seeded): 20 melds — runs of 3 to 6 cards and sets of 3 or 4, some with a joker —
dealt from the two decks and four jokers of Hungarian Rummy, then 15 cards for the hand from
what is left (a joker among them in a third of the positions). Every position is timed alone,
the fastest of ``--repeat`` runs, with the solver's caches emptied before each run (cold) and
kept (warm); the worst and the median over all positions are printed, with how many could go
out.

Run:  .venv/bin/python benchmarks/can_go_out_crowded_table.py [--positions 80] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import time

from rummykit import HUNGARIAN
from rummykit.cards import JOKER, SUITS, Card
from rummykit.melds import IllegalMeld, Meld, make_meld
from rummykit.solver import _rules, can_go_out


def clear_cache() -> None:
    """Empty the solver's caches of meld candidates (every position then starts cold)."""
    rules = _rules(HUNGARIAN)
    for cache in (*rules.melds, *rules.near):
        cache.clear()


def position(rng: random.Random, melds: int = 20, hand: int = 15) -> tuple[list[Meld], list[Card]]:
    """A table of ``melds`` melds dealt from the Hungarian deck, and a hand from the rest."""
    pool = list(HUNGARIAN.deck())
    rng.shuffle(pool)
    table: list[Meld] = []
    while len(table) < melds:
        naturals = [c for c in pool if not c.is_joker]
        start = rng.choice(naturals)
        joker = JOKER in pool and rng.random() < 0.25
        if rng.random() < 0.5:  # a run of 3 to 6 cards from this card up
            length = rng.randint(3, 6)
            ranks = [start.rank + i for i in range(length)]
            if ranks[-1] > 13:
                continue
            cards = [Card(r, start.suit) for r in ranks]
        else:  # a set of 3 or 4
            suits = rng.sample(SUITS, rng.choice((3, 4)))
            cards = [Card(start.rank, s) for s in suits]
        if joker:
            cards[rng.randrange(len(cards))] = JOKER
        if any(pool.count(c) < cards.count(c) for c in set(cards)):
            continue
        try:
            meld = make_meld(cards, HUNGARIAN)
        except IllegalMeld:
            continue
        for c in cards:
            pool.remove(c)
        table.append(meld)
    naturals = [c for c in pool if not c.is_joker]
    dealt = rng.sample(naturals, hand)
    if rng.random() < 1 / 3 and JOKER in pool:
        dealt[-1] = JOKER
    return table, dealt


def time_position(table: list[Meld], hand: list[Card], cold: bool, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        if cold:
            clear_cache()
        start = time.perf_counter()
        can_go_out(hand, HUNGARIAN, table)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    positions = [position(rng) for _ in range(args.positions)]
    out = sum(can_go_out(hand, HUNGARIAN, table).ok for table, hand in positions)
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print(
        f"{len(positions)} positions: 20 table melds, 15 cards in hand; {out} can go out;"
        f" per position the fastest of {args.repeat} runs"
    )
    gc.collect()
    for regime, cold in (("cold", True), ("warm", False)):
        times = [time_position(t, h, cold, args.repeat) for t, h in positions]
        slowest = max(range(len(times)), key=times.__getitem__)
        print(
            f"  can_go_out {regime}: median {statistics.median(times) * 1e3:7.2f} ms"
            f"   worst {times[slowest] * 1e3:7.2f} ms (position {slowest})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
