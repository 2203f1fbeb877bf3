"""Exercises drawn from a seed: every kind a variant can pose, and the random melds and tables
they are made from.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from rummykit.cards import JOKER, Card, format_cards
from rummykit.errors import RummykitError
from rummykit.exercises.base import Exercise, as_variant
from rummykit.exercises.hands import DeadwoodValue
from rummykit.exercises.layoffs import LayoffTarget
from rummykit.exercises.melds import MeldKind, MeldReason
from rummykit.exercises.opening import OpeningValue
from rummykit.exercises.referee import TurnCanEnd
from rummykit.exercises.scoring import MatchWinner, RoundScore
from rummykit.melds import check_layoff
from rummykit.messages import render
from rummykit.variants import HUNGARIAN, Variant

__all__ = ["KINDS", "available", "kinds_for", "make_exercises", "random_meld", "random_table"]

# --- seeded exercises -----------------------------------------------------------------------

KINDS = (
    "meld_kind",
    "meld_reason",
    "opening_value",
    "layoff_target",
    "round_score",
    "match_winner",
    "turn_can_end",
    "deadwood_value",
)
"""What :func:`make_exercises` can make."""


#: The kinds a variant can only pose with an opening threshold (H8): there is no opening total
#: to count, nor an opening to reach before a turn may end, in Rommi.
_NEEDS_OPENING = ("opening_value", "turn_can_end")


def kinds_for(variant: Variant | str) -> tuple[str, ...]:
    """The kinds of :data:`KINDS` that ``variant`` can pose.

    >>> kinds_for("rommi")
    ('meld_kind', 'meld_reason', 'layoff_target', 'round_score', 'match_winner', 'deadwood_value')
    """
    rules = as_variant(variant)
    return tuple(k for k in KINDS if rules.opening_threshold or k not in _NEEDS_OPENING)


def make_exercises(
    seed: int,
    count: int = 10,
    kinds: Sequence[str] | None = None,
    variant: Variant | str = HUNGARIAN,
) -> list[Exercise]:
    """``count`` exercises drawn from ``seed``, cycling through ``kinds`` (default: every
    kind the variant can pose, :func:`kinds_for`). Every exercise is posed under ``variant``.

    >>> [e.kind for e in make_exercises(3, 4)]
    ['meld_kind', 'meld_reason', 'opening_value', 'layoff_target']
    >>> make_exercises(3, 4) == make_exercises(3, 4)
    True
    >>> {e.variant.name for e in make_exercises(3, 16, variant="rommi")}
    {'rommi'}
    """
    rules = as_variant(variant)
    chosen = kinds_for(rules) if kinds is None else tuple(kinds)
    unknown = [k for k in chosen if k not in KINDS]
    if unknown or not chosen:
        raise RummykitError(
            render(
                "exercise_unknown_kind",
                kind=unknown[0] if unknown else "",
                choices=", ".join(KINDS),
            )
        )
    impossible = [k for k in chosen if k not in kinds_for(rules)]
    if impossible:
        raise RummykitError(
            render(
                "exercise_kind_needs_opening",
                kind=impossible[0],
                variant=rules.title,
                choices=", ".join(kinds_for(rules)),
            )
        )
    rng = random.Random(seed)
    return [_MAKERS[chosen[i % len(chosen)]](rng, rules) for i in range(count)]


def random_meld(rng: random.Random, variant: Variant, joker: bool = False) -> tuple[Card, ...]:
    """A valid meld drawn from ``rng``: a run of 3–5 or a set of 3–4, a joker in it when
    ``joker`` (and the variant has jokers).

    >>> from rummykit.melds import check_meld
    >>> rng = random.Random(1)
    >>> all(check_meld(random_meld(rng, HUNGARIAN, True)).ok for _ in range(50))
    True
    """
    from rummykit.cards import SUITS

    if rng.random() < 0.5:
        rank = rng.randint(1, 13)
        cards = [Card(rank, s) for s in rng.sample(SUITS, rng.choice((3, 3, 4)))]
    else:
        low = 1 if variant.ace_low else 2
        high = 14 if variant.ace_above_king else 13
        size = rng.choice((3, 3, 4, 5))
        start = rng.randint(low, high - size + 1)
        suit = rng.choice(SUITS)
        cards = [Card(1 if p == 14 else p, suit) for p in range(start, start + size)]
    if joker and variant.jokers and variant.jokers_per_meld:
        cards[rng.randrange(len(cards))] = JOKER
    return tuple(cards)


def _spoil(rng: random.Random, cards: tuple[Card, ...], variant: Variant) -> tuple[Card, ...]:
    deck = [c for c in variant.deck() if not c.is_joker]
    out = list(cards)
    out[rng.randrange(len(out))] = rng.choice(deck)
    return tuple(out)


def _make_meld_cards(rng: random.Random, rules: Variant) -> tuple[Card, ...]:
    cards = random_meld(rng, rules, joker=rng.random() < 0.25)
    return _spoil(rng, cards, rules) if rng.random() < 0.5 else cards


def _make_kind(rng: random.Random, rules: Variant) -> Exercise:
    return MeldKind(_make_meld_cards(rng, rules), rules)


def _make_reason(rng: random.Random, rules: Variant) -> Exercise:
    return MeldReason(_make_meld_cards(rng, rules), rules)


def _make_opening(rng: random.Random, rules: Variant) -> Exercise:
    melds = [
        random_meld(rng, rules, joker=i == 0 and rng.random() < 0.4)
        for i in range(rng.choice((2, 3)))
    ]
    return OpeningValue(melds, rules)


def random_table(
    rng: random.Random, variant: Variant, count: int, jokers: int = 0
) -> list[tuple[Card, ...]]:
    """``count`` valid melds that the variant's deck can hold at once (``jokers`` of them
    with a joker).

    >>> from rummykit import ROMMI
    >>> table = random_table(random.Random(2), ROMMI, 4)
    >>> len(table), max(Counter(c for m in table for c in m).values())
    (4, 1)
    """
    for _ in range(1000):
        table = [random_meld(rng, variant, joker=i < jokers) for i in range(count)]
        used = Counter(c for m in table for c in m)
        if all(n <= variant.copies(c) for c, n in used.items()):
            return table
    raise RuntimeError("no table found")  # pragma: no cover


def available(variant: Variant, used: Iterable[Card]) -> list[Card]:
    """The natural cards of the deck not all used up by ``used``, once each, in deck order."""
    count = Counter(used)
    return [
        c for c in dict.fromkeys(variant.deck()) if not c.is_joker and count[c] < variant.copies(c)
    ]


def _make_layoff(rng: random.Random, rules: Variant) -> Exercise:
    table = random_table(rng, rules, rng.choice((2, 3)))
    free = available(rules, (c for m in table for c in m))
    fitting = [c for c in free if any(check_layoff(m, (c,), rules).ok for m in table)]
    card = rng.choice(fitting) if fitting and rng.random() < 0.8 else rng.choice(free)
    return LayoffTarget((card,), table, rules)


def _make_score(rng: random.Random, rules: Variant) -> Exercise:
    players = rng.choice((2, 3))
    deck = list(rules.deck())
    rng.shuffle(deck)
    hands = [[deck.pop()]] + [
        [deck.pop() for _ in range(rng.randint(2, 5))] for _ in range(players - 1)
    ]
    opened = [True] + [
        rng.random() < 0.6 or not rules.opening_threshold for _ in range(players - 1)
    ]
    seat = rng.randrange(players) if rules.low_score_wins else 0
    return RoundScore(
        [format_cards(h) for h in hands], winner=0, seat=seat, opened=opened, variant=rules
    )


def _make_match(rng: random.Random, rules: Variant) -> Exercise:
    """A whole match: all of its rounds (H14), or rounds until a seat reaches the target
    (R9) — never a question of who wins a match that isn't over."""
    players = rng.choice((2, 3))
    rounds: list[list[int]] = []
    totals = [0] * players
    while True:
        winner = rng.randrange(players)
        if rules.low_score_wins:
            row = [
                rng.choice((rules.go_out_points, rules.go_out_hand_points))
                if s == winner
                else rules.unopened_penalty
                if rules.unopened_penalty and rng.random() < 0.15
                else rng.randint(2, 60)
                for s in range(players)
            ]
        else:
            row = [rng.randint(5, 60) if s == winner else 0 for s in range(players)]
        rounds.append(row)
        totals = [t + p for t, p in zip(totals, row)]
        if rules.rounds and len(rounds) == rules.rounds:
            break
        if not rules.rounds and max(totals) >= (rules.target or 100):
            break
    return MatchWinner(rounds, rules)


def _make_turn(rng: random.Random, rules: Variant) -> Exercise:
    for _ in range(100):
        melds = [random_meld(rng, rules) for _ in range(rng.choice((1, 2)))]
        cards = [c for m in melds for c in m]
        if any(n > rules.copies(c) for c, n in Counter(cards).items()):
            continue
        spare = [c for c in rules.deck() if not c.is_joker and Counter(cards)[c] < rules.copies(c)]
        extra = rng.sample(spare, 3)
        take = rng.random() < 0.4
        hand = cards[1:] + extra if take else cards + extra
        discard = format_cards((extra[0], cards[0])) if take else format_cards((extra[0],))
        moves = [f"meld {format_cards(m)}" for m in melds]
        if take and rng.random() < 0.5:
            moves = moves[1:]
        try:
            return TurnCanEnd.after(
                format_cards(hand), moves=moves, draw="discard" if take else "stock",
                discard=discard, turns=2, variant=rules,
            )  # fmt: skip
        except ValueError:
            continue
    raise RuntimeError("no position found")  # pragma: no cover


def _make_deadwood(rng: random.Random, rules: Variant) -> Exercise:
    table = random_table(rng, rules, rng.choice((1, 2)))
    cards = [c for m in table for c in m]
    extra = [c for c in available(rules, cards) if rng.random() < 0.5]
    rng.shuffle(extra)
    hand = cards + extra[: rng.randint(2, 4)]
    rng.shuffle(hand)
    return DeadwoodValue(hand, rules)


_MAKERS = {
    "meld_kind": _make_kind,
    "meld_reason": _make_reason,
    "opening_value": _make_opening,
    "layoff_target": _make_layoff,
    "round_score": _make_score,
    "match_winner": _make_match,
    "turn_can_end": _make_turn,
    "deadwood_value": _make_deadwood,
}
