"""``can_go_out`` with a crowded table: 20 melds on the table and 15 cards in hand (Hungarian).

Positions (seeded): 20 melds — runs of 3 to 6 cards and sets of 3 or 4, some with a joker —
dealt from the two decks and four jokers of Hungarian Rummy, then 15 cards for the hand from
what is left (a joker among them in a third of the positions). Every position is timed alone,
the fastest of ``--repeat`` runs, with the solver's caches emptied before each run (cold) and
kept (warm); the worst and the median over all positions are printed, with how many could go
out.

With ``--against DIR`` (another checkout, e.g. an older commit's tree from ``git archive``),
that tree's ``rummykit`` is loaded beside ours under another name, and every position is also
timed with it, cold, right after ours: the ratios per position are printed (load from
elsewhere falls on both alike), and the two answers are checked equal (whether the hand goes
out; if not, how many cards stay).

With ``--clock cpu`` the times are the process's CPU time (``time.process_time``): on a
machine whose cores are all busy, wall time mostly measures the wait for a core.

Run:  .venv/bin/python benchmarks/can_go_out_crowded_table.py [--positions 80] [--repeat 3]
      .venv/bin/python benchmarks/can_go_out_crowded_table.py --against /tmp/base
"""

from __future__ import annotations

import argparse
import gc
import importlib
import platform
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rummykit import HUNGARIAN
from rummykit.cards import JOKER, SUITS, Card
from rummykit.melds import IllegalMeld, Meld, make_meld
from rummykit.solver import _rules, can_go_out

CLOCK = [time.perf_counter]
"""The clock timings read: wall time, or with ``--clock cpu`` the process's CPU time
(``time.process_time``), which leaves out the time spent waiting for a core on a busy machine."""


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
        start = CLOCK[0]()
        can_go_out(hand, HUNGARIAN, table)
        best = min(best, CLOCK[0]() - start)
    return best


def other_tree(tree: Path) -> Any:
    """The ``rummykit`` of another checkout, copied under the name ``rummykit_other`` so
    that it loads beside ours."""
    where = Path(tempfile.mkdtemp())
    shutil.copytree(tree / "rummykit", where / "rummykit_other")
    for path in (where / "rummykit_other").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"\brummykit\b", "rummykit_other", text), encoding="utf-8")
    sys.path.insert(0, str(where))
    return importlib.import_module("rummykit_other")


def side_by_side(positions: list[tuple[list[Meld], list[Card]]], tree: Path, repeat: int) -> None:
    """Each position cold with ours, then with the other tree's code, ``repeat`` times each."""
    other = other_tree(tree)
    solver = importlib.import_module("rummykit_other.solver")
    melds = importlib.import_module("rummykit_other.melds")
    cards = importlib.import_module("rummykit_other.cards")
    theirs_rules = solver._rules(other.HUNGARIAN)
    ours_times, theirs_times = [], []
    for table, hand in positions:
        their_table = [
            eval(repr(m), {"make_meld": lambda t, **k: melds.make_meld(t, other.HUNGARIAN, **k)})
            for m in table
        ]
        their_hand = cards.parse_cards(" ".join(map(str, hand)))
        best_ours = best_theirs = float("inf")
        for _ in range(repeat):
            clear_cache()
            start = CLOCK[0]()
            mine = can_go_out(hand, HUNGARIAN, table)
            best_ours = min(best_ours, CLOCK[0]() - start)
            for cache in (*theirs_rules.melds, *theirs_rules.near):
                cache.clear()
            start = CLOCK[0]()
            theirs = solver.can_go_out(their_hand, other.HUNGARIAN, their_table)
            best_theirs = min(best_theirs, CLOCK[0]() - start)
            # the same answer: whether the hand goes out, and how many cards stay if not
            assert (mine.ok, len(mine.left)) == (theirs.ok, len(theirs.left)), (hand, table)
        ours_times.append(best_ours)
        theirs_times.append(best_theirs)
    ratios = [t / o for t, o in zip(theirs_times, ours_times)]
    print(f"  against {tree}, cold, the same positions one after the other:")
    print(
        f"    theirs: median {statistics.median(theirs_times) * 1e3:7.2f} ms"
        f"   worst {max(theirs_times) * 1e3:7.2f} ms"
    )
    print(
        f"    ours:   median {statistics.median(ours_times) * 1e3:7.2f} ms"
        f"   worst {max(ours_times) * 1e3:7.2f} ms"
    )
    print(
        f"    ratio theirs / ours: median over positions {statistics.median(ratios):.1f}×,"
        f" of the worst positions {max(theirs_times) / max(ours_times):.1f}×"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--against", type=Path, metavar="DIR", help="another checkout")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args(argv)
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    rng = random.Random(args.seed)
    positions = [position(rng) for _ in range(args.positions)]
    out = sum(can_go_out(hand, HUNGARIAN, table).ok for table, hand in positions)
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print(
        f"{len(positions)} positions: 20 table melds, 15 cards in hand; {out} can go out;"
        f" per position the fastest of {args.repeat} runs ({args.clock} clock)"
    )
    gc.collect()
    for regime, cold in (("cold", True), ("warm", False)):
        times = [time_position(t, h, cold, args.repeat) for t, h in positions]
        slowest = max(range(len(times)), key=times.__getitem__)
        print(
            f"  can_go_out {regime}: median {statistics.median(times) * 1e3:7.2f} ms"
            f"   worst {times[slowest] * 1e3:7.2f} ms (position {slowest})"
        )
    if args.against:
        side_by_side(positions, args.against, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
