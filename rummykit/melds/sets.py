"""Sets (groups in Rommi): how cards read as one, and why they fail as one (H4, R3)."""

from __future__ import annotations

from collections import Counter

from rummykit.cards import JOKER, SUITS, Card
from rummykit.explain import Reason
from rummykit.melds.faults import repeats
from rummykit.melds.meld import Meld
from rummykit.melds.wording import failure, rank_phrase, word_for_set
from rummykit.messages import number_word
from rummykit.variants import Variant

__all__: list[str] = []  # its names serve the package's other modules; none is public API


def set_readings(naturals: list[Card], jokers: int) -> list[Meld]:
    ordered = sorted(naturals, key=Card.sort_key)
    rank = ordered[0].rank
    missing = [Card(rank, s) for s in SUITS if s not in {c.suit for c in ordered}]
    represents: list[Card | None] = list(ordered)
    if jokers == 0:
        return [Meld("set", tuple(ordered), tuple(represents))]
    if len(missing) == jokers:  # a full set: the jokers stand for the missing suits exactly
        return [Meld("set", (*ordered, *[JOKER] * jokers), (*represents, *missing))]
    return [Meld("set", (*ordered, *[JOKER] * jokers), (*represents, *[None] * jokers))]


def set_failures(cards: tuple[Card, ...], variant: Variant) -> list[Reason]:
    naturals = [c for c in cards if not c.is_joker]
    out: list[Reason] = []
    if not naturals:
        return out
    set_word = word_for_set(variant)
    counts = Counter(c.rank for c in naturals)
    # the rank the set is read as: most cards, then most suits, then the lower rank — never
    # the input order, so the explanation does not change when the cards are reordered
    rank = max(
        counts, key=lambda r: (counts[r], len({c.suit for c in naturals if c.rank == r}), -r)
    )
    wrong = tuple(c for c in naturals if c.rank != rank)
    if wrong:
        many = len(wrong) > 1
        out.append(
            failure(
                variant,
                "set_rank_mismatch",
                wrong,
                template="set_rank_mismatch_many" if many else None,
                cards=wrong,
                rank_phrase=rank_phrase(rank, many),
                set_word=set_word,
            )
        )
    same = [c for c in naturals if c.rank == rank]
    out += repeats(same, variant, "identical_cards", "identical_cards_many", set_word=set_word)
    if len(cards) > 4:
        out.append(
            failure(
                variant,
                "set_too_large",
                cards,
                cards=cards,
                count_word=number_word(len(cards)),
                set_word=set_word,
            )
        )
    return out
