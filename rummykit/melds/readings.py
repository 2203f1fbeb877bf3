"""Every way cards read as a meld, and the readings in which the jokers stand for the cards a
player names (H5).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import permutations
from typing import TypeAlias

from rummykit.cards import JOKER, Card, CardsLike, as_cards, card_at
from rummykit.melds.faults import general_failures
from rummykit.melds.meld import Meld
from rummykit.melds.runs import run_windows
from rummykit.melds.sets import set_readings
from rummykit.variants import HUNGARIAN, Variant

__all__ = [
    "JokerAs",
    "MeldLike",
    "joker_meanings",
    "meld_layouts",
    "meld_readings",
    "readings_with",
]


def meld_readings(cards: CardsLike, variant: Variant = HUNGARIAN) -> tuple[Meld, ...]:
    """Every way these cards form a valid meld (one per joker meaning), best value first.

    >>> meld_readings("🃏 2♥ 3♥")
    (make_meld('🃏 2♥ 3♥', joker_as='A♥'), make_meld('2♥ 3♥ 🃏', joker_as='4♥'))
    >>> meld_readings("K♠ A♠ 2♠")
    ()
    """
    cards = as_cards(cards)
    if general_failures(cards, variant):
        return ()
    return readings_of(cards, variant)


def meld_layouts(cards: CardsLike, variant: Variant = HUNGARIAN) -> tuple[Meld, ...]:
    """Like :func:`meld_readings`, but A-2-…-K and 2-…-K-A count as two layouts.

    >>> [m.start for m in meld_layouts("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥")]
    [1, 2]
    """
    cards = as_cards(cards)
    if general_failures(cards, variant):
        return ()
    return readings_of(cards, variant, every_layout=True)


def readings_of(
    cards: tuple[Card, ...], variant: Variant | None, *, every_layout: bool = False
) -> tuple[Meld, ...]:
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    out: list[Meld] = []
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    # a set: one rank, distinct suits, at most four cards
    if len(ranks) == 1 and len(suits) == len(naturals) and len(cards) <= 4 and naturals:
        out.extend(set_readings(naturals, jokers))
    # a run: one suit, distinct ranks
    if len(suits) == 1 and len(ranks) == len(naturals) and naturals:
        suit = naturals[0].suit
        for start, *placed in run_windows(sorted(ranks), jokers, variant):
            n = len(cards)
            slots = [card_at(p, suit) for p in range(start, start + n)]
            by_pos = set(placed)
            laid = tuple(
                s if p in by_pos else JOKER
                for p, s in zip(range(start, start + n), slots, strict=False)
            )
            out.append(Meld("run", laid, tuple(slots), start))
    value = variant or HUNGARIAN
    out.sort(key=lambda m: -m.points(value))
    unique: dict[tuple[str, ...], Meld] = {}
    for meld in out:  # A-2-…-K and 2-…-K-A are one meld (a lay-off may need either)
        key = (meld.kind, *sorted(str(c) for c in meld.represents))
        if every_layout:
            key = (*key, str(meld.start))
        unique.setdefault(key, meld)
    return tuple(unique.values())


JokerAs: TypeAlias = "Card | str | Sequence[Card | str] | None"
"""What a player says the jokers stand for: one card, or one card per joker."""


def joker_meanings(joker_as: JokerAs) -> tuple[Card, ...]:
    """The cards named in a ``joker_as``: one card, a text of cards, or a sequence of them.

    >>> joker_meanings("4♥"), joker_meanings(("6♥", "7♥"))
    ((Card('4♥'),), (Card('6♥'), Card('7♥')))
    """
    if joker_as is None:
        return ()
    if isinstance(joker_as, (Card, str)):
        return as_cards(joker_as)
    return tuple(card for item in joker_as for card in as_cards(item))


def readings_with(readings: Iterable[Meld], joker_as: JokerAs) -> tuple[Meld, ...]:
    """The readings in which the jokers can stand for the cards named, one joker each.

    Jokers are alike, so the order of the names does not matter; naming fewer cards than
    there are jokers leaves the other jokers open.

    >>> readings = meld_readings("K♥ 🃏 🃏", HUNGARIAN.derive(jokers_per_meld=2))
    >>> [m.kind for m in readings_with(readings, ("J♥", "Q♥"))]
    ['run']
    >>> [m.kind for m in readings_with(readings, "K♠")]
    ['set']
    """
    readings = tuple(readings)
    wanted = joker_meanings(joker_as)
    if not wanted:
        return readings
    return tuple(m for m in readings if _can_mean(m, wanted))


def _can_mean(meld: Meld, wanted: tuple[Card, ...]) -> bool:
    options = meld.joker_choices
    if len(wanted) > len(options) or len(set(wanted)) < len(wanted):
        return False
    return any(
        all(card in options[j] for card, j in zip(wanted, chosen, strict=True))
        for chosen in permutations(range(len(options)), len(wanted))
    )


# --- lay-offs --------------------------------------------------------------------------

MeldLike: TypeAlias = "Meld | CardsLike"


def shown_and_readings(
    meld: MeldLike, variant: Variant
) -> tuple[tuple[Card, ...], tuple[Meld, ...]]:
    """The cards as given, and the readings they may be: a :class:`Meld` is its one reading."""
    if isinstance(meld, Meld):
        return meld.cards, (meld,)
    cards = as_cards(meld)
    return cards, meld_readings(cards, variant)
