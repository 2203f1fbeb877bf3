"""rummykit's least-deadwood solver against OpenSpiel (C++) and RLCard (Python), side by side.

Same seeded hands for everyone, one process, implementations alternating round by round (the
machine is shared and noisy, so each figure is the best of several rounds, and the median is
printed beside it). Gin-style hands: one deck, the ace low only and worth 1, faces worth 10.

What each one computes, and how they are compared like with like:

* 10-card hands — the least deadwood of the hand.
  - rummykit: ``deadwood_counter(gin)(hand)``, the function an agent holds, from a tuple of
    ``Card`` and from a ``hand_mask`` int (the form an agent can keep its hand in); and the
    one-off call ``min_deadwood(hand, gin)`` from a tuple of ``Card``.
  - OpenSpiel: ``GinRummyUtils(13, 4, 10).min_deadwood(ints)``, cards as ``suit * 13 + rank``
    with suits in the order s c d h and ranks A=0 … K=12 (``gin_rummy_utils.cc``), given
    its own list of ints; and, on a second line, from the same ``Card`` tuples as ours, the
    conversion to its ints timed as ours is.
  - RLCard: ``melding.get_best_meld_clusters(hand)`` (it only accepts 10 cards), then
    ``utils.get_deadwood_count`` of the first best cluster (the whole hand when there is none).
* 11-card hands — the least deadwood after one discard (a gin player holding 11 cards).
  - rummykit: ``deadwood_counter(gin, discard=True)`` (and ``min_deadwood(hand, gin,
    discard=True)``): exact, the minimum over every discard of the 10 cards left.
  - OpenSpiel: ``min_deadwood`` of 11 cards. Its C++ takes the best meld group of all 11
    cards and then drops the highest-ranked deadwood card. That is not always the best
    discard: another arrangement with a costlier loose card can end lower. Every hand where
    it differs is printed, with ours checked against OpenSpiel's *own* 10-card answer after
    our discard, and against the minimum of its 10-card answers over all 11 discards.
  - RLCard: no 11-card call; we time the 11 calls of its 10-card solver that the exact
    answer needs (its own ``GinRummyProgramError`` refuses any other size).

Run:  .venv/bin/python benchmarks/solver_vs_peers.py            (about two minutes)
      .venv/bin/python benchmarks/solver_vs_peers.py --quick    (a smoke run)
      .venv/bin/python benchmarks/solver_vs_peers.py --clock cpu (CPU time, for a busy machine)
Peers: pip install -e '.[bench]'   (open-spiel 2.0.2, rlcard 1.2.0)
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from rummykit import variant
from rummykit.cards import Card, make_deck
from rummykit.solver import (
    _rules,
    best_arrangement,
    deadwood_counter,
    hand_mask,
    min_deadwood,
    min_deadwood_many,
)

GIN = variant("rommi", ace_low=True, ace_above_king=False)
DECK = make_deck(1)

# --- the peers, if they are installed -----------------------------------------------------

PEERS_MISSING: dict[str, str] = {}
try:
    import pyspiel

    OPEN_SPIEL: Any = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
except Exception as error:  # the reason is printed with the results
    OPEN_SPIEL = None
    PEERS_MISSING["OpenSpiel"] = f"{type(error).__name__}: {error}"
try:
    from rlcard.games.base import Card as RLCardCard
    from rlcard.games.gin_rummy.utils import melding as rl_melding
    from rlcard.games.gin_rummy.utils import utils as rl_utils
except Exception as error:
    RLCardCard = None
    PEERS_MISSING["RLCard"] = f"{type(error).__name__}: {error}"

_OS_SUIT = {"♠": 0, "♣": 1, "♦": 2, "♥": 3}  # OpenSpiel's "scdh"
_RL_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_RL_RANK = "A23456789TJQK"


def to_open_spiel(hand: Sequence[Card]) -> list[int]:
    return [_OS_SUIT[c.suit] * 13 + c.rank - 1 for c in hand]


_OS_INDEX = {c: _OS_SUIT[c.suit] * 13 + c.rank - 1 for c in DECK}


def open_spiel_from_cards(hand: Sequence[Card]) -> int:
    """OpenSpiel's answer from our ``Card`` objects, converting as fast as Python can."""
    return int(OPEN_SPIEL.min_deadwood(list(map(_OS_INDEX.__getitem__, hand))))


def to_rlcard(hand: Sequence[Card]) -> list[Any]:
    return [RLCardCard(_RL_SUIT[c.suit], _RL_RANK[c.rank - 1]) for c in hand]


def rlcard_deadwood(hand: list[Any]) -> int:
    clusters = rl_melding.get_best_meld_clusters(hand=hand)
    return int(rl_utils.get_deadwood_count(hand=hand, meld_cluster=clusters[0] if clusters else []))


def rlcard_deadwood_after_discard(hand: list[Any]) -> int:
    return min(rlcard_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))


# --- hands -----------------------------------------------------------------------------------


def random_hands(rng: random.Random, count: int, size: int) -> list[tuple[Card, ...]]:
    return [tuple(rng.sample(DECK, size)) for _ in range(count)]


def dense_hands(rng: random.Random, count: int, size: int) -> list[tuple[Card, ...]]:
    """Cards from 4 consecutive ranks (16 cards, all four suits)."""
    out = []
    for _ in range(count):
        low = rng.randint(1, 10)
        pool = [c for c in DECK if low <= c.rank < low + 4]
        out.append(tuple(rng.sample(pool, size)))
    return out


# --- timing ----------------------------------------------------------------------------------

Impl = tuple[str, Callable[..., Any], list[Any]]
"""(name, function, its inputs): each input is the tuple of arguments of one call, made
before the clock starts, so that every implementation is called as its users call it
(``min_deadwood(hand, gin)``, ``utils.min_deadwood(ints)``) with nothing wrapped around it;
the batch call's inputs are hands, cut into slices."""
CLOCK = [time.perf_counter]
"""Wall time, or with ``--clock cpu`` the process's CPU time (``time.process_time``)."""
BATCH = "rummykit min_deadwood_many (Card tuples)"
"""The one implementation given a whole slice of hands at once (per hand: slice / count)."""


def throughput(
    impls: list[Impl],
    rounds: int,
    chunks: int = 25,
    batches: frozenset[str] | set[str] = frozenset(),
) -> dict[str, list[float]]:
    """Hands per second of each implementation, one figure per round.

    Within a round the hands are cut into ``chunks`` slices and every implementation runs
    each slice in turn (the order rotating), so a burst of load from elsewhere on the machine
    falls on all of them alike rather than on whoever happened to be running."""
    rates: dict[str, list[float]] = {name: [] for name, _, _ in impls}
    clock = CLOCK[0]
    for r in range(rounds):
        spent = dict.fromkeys(rates, 0.0)
        gc.collect()
        for k in range(chunks):
            turn = (r + k) % len(impls)
            for name, fn, inputs in impls[turn:] + impls[:turn]:
                size = len(inputs)
                part = inputs[k * size // chunks : (k + 1) * size // chunks]
                start = clock()
                if name == BATCH or name in batches:
                    fn(part)
                else:
                    for args in part:
                        fn(*args)
                spent[name] += clock() - start
        for name, _, inputs in impls:
            rates[name].append(len(inputs) / spent[name])
    return rates


def single_hand_times(impls: list[Impl], repeat: int) -> dict[str, list[float]]:
    """Each hand timed alone, implementations alternating hand by hand; per hand the
    fastest of ``repeat`` runs (scheduler noise only ever adds time)."""
    times: dict[str, list[float]] = {name: [] for name, _, _ in impls}
    count = max(len(inputs) for _, _, inputs in impls)
    clock = CLOCK[0]
    for i in range(count):
        for name, fn, inputs in impls:
            if i >= len(inputs):
                continue
            args = inputs[i]
            best = float("inf")
            for _ in range(repeat):
                start = clock()
                fn(*args)
                best = min(best, clock() - start)
            times[name].append(best)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- comparing answers -----------------------------------------------------------------------


def explain_eleven(hand: tuple[Card, ...], theirs: int) -> list[str]:
    ours = best_arrangement(hand, GIN, discard=True)
    assert ours.discard is not None
    left = list(hand)
    left.remove(ours.discard)
    lines = [
        f"    ours: {ours}",
    ]
    if OPEN_SPIEL is not None:
        own10 = OPEN_SPIEL.min_deadwood(to_open_spiel(left))
        every = min(
            OPEN_SPIEL.min_deadwood(to_open_spiel(hand[:i] + hand[i + 1 :]))
            for i in range(len(hand))
        )
        best_group = OPEN_SPIEL.best_meld_group(to_open_spiel(hand))
        melds = " + ".join(
            " ".join(OPEN_SPIEL.card_string(c) for c in sorted(meld)) for meld in best_group
        )
        lines.append(
            f"    OpenSpiel's own 10-card min_deadwood after our discard: {own10}; "
            f"its minimum over all 11 discards: {every}; its 11-card call melds "
            f"[{melds}] and drops the highest-ranked loose card: {theirs}"
        )
    return lines


def compare(
    label: str,
    hands: list[tuple[Card, ...]],
    discard: bool,
) -> list[str]:
    """Every hand on which the answers differ, explained."""
    out = []
    for hand in hands:
        ours = min_deadwood(hand, GIN, discard=discard)
        answers = {"rummykit": ours}
        if OPEN_SPIEL is not None:
            answers["OpenSpiel"] = OPEN_SPIEL.min_deadwood(to_open_spiel(hand))
        if RLCardCard is not None:
            rl_hand = to_rlcard(hand)
            answers["RLCard"] = (
                rlcard_deadwood_after_discard(rl_hand) if discard else rlcard_deadwood(rl_hand)
            )
        if len(set(answers.values())) > 1:
            text = ", ".join(f"{k} {v}" for k, v in answers.items())
            out.append(f"  {label}: {' '.join(map(str, hand))}: {text}")
            if discard:
                out.extend(explain_eleven(hand, answers.get("OpenSpiel", -1)))
    return out


# --- main ------------------------------------------------------------------------------------


def floor_part(hands: list[tuple[Card, ...]], rounds: int) -> None:
    """How fast anything can go from ``Card`` objects: the cheapest ways to read ten cards
    per hand, beside the solve of a hand already made an int and OpenSpiel's whole call, in
    one process, interleaved as the throughput table is. The ratio targets of issue 14
    (1.2× OpenSpiel from ``Card`` tuples, 3× in a batch) can only be met if reading the
    cards and solving the int take less than OpenSpiel's call divided by that ratio."""
    from functools import reduce
    from itertools import repeat
    from operator import attrgetter, or_

    bits = {c: hand_mask((c,)) for c in DECK}
    get_bit = bits.__getitem__
    rank = attrgetter("rank")
    counter = deadwood_counter(GIN)
    masks = [hand_mask(h) for h in hands]
    alone = [(h,) for h in hands]

    def nothing(hand: tuple[Card, ...]) -> None:
        return None

    def mask_of(hand: tuple[Card, ...]) -> int:
        return sum(map(get_bit, hand))

    def ranks(hand: tuple[Card, ...]) -> int:
        return sum(map(rank, hand))

    def ids(hand: tuple[Card, ...]) -> int:
        return sum(map(id, hand))

    def or_bits(hand: tuple[Card, ...]) -> int:
        return reduce(or_, map(get_bit, hand))

    def listed(hand: tuple[Card, ...]) -> int:
        return sum([bits[c] for c in hand])

    suit_bits = [{c: b if c.suit == suit else 0 for c, b in bits.items()} for suit in "♠♥♦♣"]
    suit_gets = [d.__getitem__ for d in suit_bits]

    def per_suit(hand: tuple[Card, ...]) -> list[int]:
        return [sum(map(get, hand)) for get in suit_gets]

    def masks_in_c(part: list[tuple[Card, ...]]) -> list[int]:
        return list(map(sum, map(map, repeat(get_bit), part)))

    def solve_masks(part: list[int]) -> list[int]:
        return list(map(counter, part))

    dw = _rules(GIN).tables()  # the per-suit run tables the fast path reads

    def easy_hands_only(hand: tuple[Card, ...], gin: Any = GIN) -> int | None:
        """The least any exact function from ``Card`` tuples can do: read the cards, check
        them (no joker, no twin), split the suits, and answer a hand with no rank in three
        suits by four table lookups — giving up (None) on the hands that have one, and
        with no variant to look up (``gin`` is taken and not read)."""
        mask = sum(map(get_bit, hand))
        if mask.bit_count() != len(hand):
            return None
        a, b, c, d = mask & 32767, mask >> 15 & 32767, mask >> 30 & 32767, mask >> 45
        if (a & b | c & d) & (a | b) & (c | d):
            return None
        return dw[a] + dw[b] + dw[c] + dw[d]

    for hand in hands[:1000]:  # it is right where it answers
        got = easy_hands_only(hand)
        assert got is None or got == min_deadwood(hand, GIN)

    impls: list[Impl] = [
        ("a call that does nothing", nothing, alone),
        ("list(hand): copy the ten references", list, alone),
        ("sum(map(bits.__getitem__, hand))", mask_of, alone),
        ("sum(map(attrgetter('rank'), hand))", ranks, alone),
        ("sum(map(id, hand)): a builtin per card, no lookup", ids, alone),
        ("reduce(or_, map(bits.__getitem__, hand))", or_bits, alone),
        ("sum([bits[c] for c in hand])", listed, alone),
        ("per suit: four sum(map(...)) over four dicts", per_suit, alone),
        ("rummykit counter (hand_mask ints)", counter, [(m,) for m in masks]),
        ("rummykit min_deadwood (Card tuples)", min_deadwood, [(h, GIN) for h in hands]),
        (
            "floor: hands with no rank in three suits only",
            easy_hands_only,
            [(h, GIN) for h in hands],
        ),
        ("batch: masks of every hand, inside C", masks_in_c, hands),
        ("batch: counter mapped over masks", solve_masks, masks),
        (BATCH, lambda part: min_deadwood_many(part, GIN), hands),
    ]
    if OPEN_SPIEL is not None:
        impls.append(
            (
                "OpenSpiel C++ min_deadwood",
                OPEN_SPIEL.min_deadwood,
                [(to_open_spiel(h),) for h in hands],
            )
        )
    batches = {"batch: masks of every hand, inside C", "batch: counter mapped over masks", BATCH}
    rates = throughput(impls, rounds, batches=batches)
    print(f"{'per hand, random 10-card hands':<52} {'µs best':>8} {'µs median':>10}")
    for name, _, _ in impls:
        best = 1e6 / max(rates[name])
        typical = 1e6 / statistics.median(rates[name])
        print(f"{name:<52} {best:>8.3f} {typical:>10.3f}")
    if OPEN_SPIEL is None:
        return
    us = {name: 1e6 / max(r) for name, r in rates.items()}
    theirs = us["OpenSpiel C++ min_deadwood"]
    one = us["sum(map(bits.__getitem__, hand))"] + us["rummykit counter (hand_mask ints)"]
    one -= us["a call that does nothing"]  # both include the call of one function
    many = us["batch: masks of every hand, inside C"] + us["batch: counter mapped over masks"]
    print(
        f"one hand from Card tuples, at best: the cards read + the int solved = {one:.3f} µs;"
        f" OpenSpiel {theirs:.3f} µs: at most {theirs / one:.2f}× (target 1.2×)"
    )
    print(
        f"a batch, per hand, at best: masks made inside C + the ints solved = {many:.3f} µs:"
        f" at most {theirs / many:.2f}× (target 3×)"
    )
    easy = us["floor: hands with no rank in three suits only"]
    share = sum(easy_hands_only(h) is not None for h in hands) / len(hands)
    print(
        f"the fast path alone, answering only the {share:.0%} of hands with no rank in three"
        f" suits: {easy:.3f} µs, {theirs / easy:.2f}× OpenSpiel"
    )
    reads = [name for name, _, _ in impls if name.startswith(("sum(", "reduce(", "per suit"))]
    reads.append("batch: masks of every hand, inside C")
    cheapest = min(reads, key=us.__getitem__)
    print(
        f"3× OpenSpiel leaves {theirs / 3:.3f} µs a hand for everything; the cheapest reading of"
        f" ten cards above alone takes {us[cheapest]:.3f} µs ({cheapest}), before any solving"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--random", type=int, default=20000, help="random hands per size")
    parser.add_argument("--dense", type=int, default=4000, help="dense hands per size")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--single", type=int, default=2000, help="hands timed one by one")
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument(
        "--part", choices=("all", "floor"), default="all", help="floor: the floor from Card objects"
    )
    args = parser.parse_args(argv)
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    if args.quick:
        args.random, args.dense, args.rounds, args.single = 2000, 400, 2, 200

    print(f"Python {platform.python_version()} on {platform.machine()}, {sys.platform}")
    for name, why in PEERS_MISSING.items():
        print(f"{name} is not measured: it could not be imported here ({why}).")
    rng = random.Random(args.seed)
    sets = [
        ("random 10", random_hands(rng, args.random, 10), False),
        ("random 11", random_hands(rng, args.random, 11), True),
        ("dense 10", dense_hands(rng, args.dense, 10), False),
        ("dense 11", dense_hands(rng, args.dense, 11), True),
    ]
    min_deadwood(sets[0][1][0], GIN, discard=True)  # build the per-variant tables once
    if args.part == "floor":
        floor_part(sets[0][1], args.rounds)
        return 0

    disagreements: list[str] = []
    print()
    header = f"{'hands':<10} {'implementation':<42} {'hands/s best':>13} {'median':>10}"
    header += f" {'worst ms':>9} {'p99 ms':>8}"
    print(header)
    print("-" * len(header))
    for label, hands, discard in sets:
        counter = deadwood_counter(GIN, discard=discard)
        one_off = partial(min_deadwood, discard=True) if discard else min_deadwood

        def batch(part: list[Any], discard: bool = discard) -> list[int]:
            return min_deadwood_many(part, GIN, discard=discard)

        alone = [(h,) for h in hands]
        impls: list[Impl] = [
            ("rummykit counter (Card tuples)", counter, alone),
            ("rummykit counter (hand_mask ints)", counter, [(hand_mask(h),) for h in hands]),
            ("rummykit min_deadwood (Card tuples)", one_off, [(h, GIN) for h in hands]),
            (BATCH, batch, hands),
        ]
        if OPEN_SPIEL is not None:
            os_inputs = [(to_open_spiel(h),) for h in hands]
            impls.append(("OpenSpiel C++ min_deadwood", OPEN_SPIEL.min_deadwood, os_inputs))
            impls.append(("OpenSpiel (from Card tuples)", open_spiel_from_cards, alone))
        if RLCardCard is not None:
            rl_fn = rlcard_deadwood_after_discard if discard else rlcard_deadwood
            rl_name = "RLCard 11 × 10-card solves" if discard else "RLCard best_meld_clusters"
            rl_count = max(1, len(hands) // 20)  # RLCard is slow: a twentieth of the hands
            impls.append((rl_name, rl_fn, [(to_rlcard(h),) for h in hands[:rl_count]]))
        rates = throughput(impls, args.rounds)
        single = single_hand_times(
            [
                (name, fn, inputs[: args.single // (10 if name.startswith("RLCard") else 1)])
                for name, fn, inputs in impls
                if name != BATCH
            ],
            repeat=3,
        )
        for name, _, _ in impls:
            worst = f"{max(single[name]) * 1e3:>9.3f}" if name in single else f"{'—':>9}"
            p99 = f"{percentile(single[name], 0.99) * 1e3:>8.3f}" if name in single else f"{'—':>8}"
            print(
                f"{label:<10} {name:<42} {max(rates[name]):>13,.0f}"
                f" {statistics.median(rates[name]):>10,.0f} {worst} {p99}"
            )
        peers = [name for name, _, _ in impls if not name.startswith("rummykit")]
        for ours_name in [name for name, _, _ in impls if name.startswith("rummykit")]:
            parts = []
            for peer in peers:
                best = max(rates[ours_name]) / max(rates[peer])
                typical = statistics.median(
                    [ours / theirs for ours, theirs in zip(rates[ours_name], rates[peer])]
                )
                parts.append(f"{typical:.2f}× {peer} (best rounds {best:.2f}×)")
            if parts:
                print(f"{'':<10} {ours_name} vs " + "; ".join(parts))
        disagreements += compare(label, hands, discard)
        print()
    print(
        "ratios: rummykit's hands/s divided by the peer's, the median over rounds of the"
        " ratio within a round (the ratio of the best rounds beside it)."
    )
    print("worst / p99: single hands, the fastest of 3 runs each, implementations alternating.")
    print()
    print(f"Disagreements: {len([d for d in disagreements if not d.startswith('    ')])}")
    for line in disagreements:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
