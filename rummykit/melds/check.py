"""The verdict on a meld: what it is, what its jokers stand for and what it is worth, or every
reason it is no meld (H4, H5, H8).
"""

from __future__ import annotations

from collections import Counter

from rummykit.cards import HIGH_ACE, Card, CardsLike, Rank, as_cards
from rummykit.explain import Reason, Verdict
from rummykit.melds.faults import general_failures, without_joker_talk
from rummykit.melds.meld import IllegalMeld, Meld
from rummykit.melds.readings import (
    JokerAs,
    joker_meanings,
    meld_readings,
    readings_of,
    readings_with,
)
from rummykit.melds.runs import run_failures
from rummykit.melds.sets import set_failures
from rummykit.melds.wording import (
    JOKER_OPTIONS,
    VALUE_OPTIONS,
    explanation,
    failure,
    joker_reps,
    jokers_phrase,
    rank_phrase,
    reading_phrase,
    suit_name,
    the_cards,
    variant_words,
    word_for_set,
)
from rummykit.messages import join, number_word, render
from rummykit.variants import HUNGARIAN, Variant
from rummykit.variants import variant as named_variant

__all__ = ["check_meld", "make_meld"]


def make_meld(cards: CardsLike, variant: Variant = HUNGARIAN, joker_as: JokerAs = None) -> Meld:
    """The meld these cards form, or :class:`IllegalMeld` saying why not.

    When a joker's place is open (``🃏 2♥ 3♥``), say which card it is with ``joker_as``:
    one card, or one card per joker (``joker_as=("J♥", "Q♥")``); without it the
    highest-valued reading is taken.

    >>> make_meld("🃏 2♥ 3♥", joker_as="4♥")
    make_meld('2♥ 3♥ 🃏', joker_as='4♥')
    >>> make_meld("K♥ 🃏 🃏", HUNGARIAN.derive(jokers_per_meld=2), joker_as=("J♥", "Q♥"))
    make_meld('🃏 🃏 K♥', joker_as=('J♥', 'Q♥'))
    """
    cards = as_cards(cards)
    readings = meld_readings(cards, variant)
    chosen = readings_with(readings, joker_as)
    if chosen:
        return chosen[0]
    if not readings:
        raise IllegalMeld(check_meld(cards, variant))
    wanted = joker_meanings(joker_as)
    if not any(c.is_joker for c in cards):
        mismatch = failure(variant, "joker_as_no_joker", wanted, cards=cards, card=wanted[0])
    else:
        mismatch = failure(
            variant,
            "joker_as_mismatch",
            wanted,
            cards=cards,
            wanted=jokers_phrase(wanted),
            choices=join([reading_phrase(m) for m in readings]),
        )
    raise IllegalMeld(Verdict((mismatch,), cards, variant=variant.name))


def check_meld(cards: CardsLike, variant: Variant | str = HUNGARIAN) -> Verdict:
    """Is this a valid meld, and why (or why not)?

    Accepts ``"K♠ A♠ 2♠"``, ``"Ks As 2s"`` or cards; order does not matter.

    >>> verdict = check_meld("9♠ 9♠ 9♥")
    >>> verdict.ok, verdict.codes
    (False, ('identical_cards',))
    >>> check_meld("5♥ 🃏 🃏").codes
    ('too_many_jokers',)
    >>> check_meld("Q♥ K♥ A♥", HUNGARIAN.derive(ace_above_king=False)).codes
    ('ace_high_not_allowed',)
    """
    if isinstance(variant, str):  # a name such as "rommi" is accepted too
        variant = named_variant(variant)
    cards = as_cards(cards)
    general = general_failures(cards, variant)
    readings = () if general else readings_of(cards, variant)
    if readings:
        return _valid_verdict(cards, readings, variant)
    naturals = [c for c in cards if not c.is_joker]
    one_rank = len({c.rank for c in naturals}) == 1 and len(naturals) >= 2
    one_suit = len({c.suit for c in naturals}) == 1
    specific: list[Reason] = []
    if one_rank:
        specific = set_failures(cards, variant)
    elif one_suit:
        specific = run_failures(cards, variant)
    else:
        specific = _both_sides(cards, naturals, variant)
    if not general and not specific:  # shape is fine but the checks above disagree: explain
        specific = set_failures(cards, variant) or run_failures(cards, variant)
    specific = without_joker_talk(specific, variant)
    head = [explanation(variant, "meld_invalid", cards=cards, variant=variant_words(variant))]
    reasons = [*(head if cards else []), *general, *specific]
    return Verdict(tuple(reasons), cards, None, None, (), variant.name)


def _both_sides(usable: tuple[Card, ...], naturals: list[Card], variant: Variant) -> list[Reason]:
    """Why neither a set nor a run — the likelier reading first, a hopeless one left out.

    A reading is hopeless when no two cards agree on what it needs (no rank twice for a set)
    while the other reading has two that do.
    """
    by_rank = max(Counter(c.rank for c in naturals).values(), default=0)
    by_suit = max(Counter(c.suit for c in naturals).values(), default=0)
    as_set, as_run = set_failures(usable, variant), run_failures(usable, variant)
    if by_rank < 2 <= by_suit:
        return as_run
    if by_suit < 2 <= by_rank:
        return as_set
    return as_run + as_set if by_suit > by_rank else as_set + as_run


def _kind_reason(meld: Meld, shown: tuple[Card, ...], variant: Variant) -> Reason:
    """``5♥ 🃏 7♥ is a run of hearts from 5 to 7`` / ``9♠ 9♥ 9♦ is a set of 9s``."""
    if not meld.is_run:
        return explanation(
            variant,
            "valid_set",
            cards=shown,
            rank_plural=rank_phrase(meld.rank, True),
            set_word=word_for_set(variant),
        )
    low, high = meld.represents[0], meld.represents[-1]
    return explanation(
        variant,
        "valid_run",
        house=_ace_options(meld),
        cards=shown,
        suit_name=suit_name(meld.suit),
        low=Rank(low.rank) if low else "",
        high=Rank(high.rank) if high else "",
    )


def _ace_options(meld: Meld) -> tuple[str, ...]:
    """The ace house rules a run's validity rests on (an ace at one of its ends)."""
    if not meld.is_run:
        return ()
    return (("ace_low",) if meld.start == 1 else ()) + (
        ("ace_above_king",) if meld.end == HIGH_ACE else ()
    )


def _value_house(meld: Meld) -> tuple[str, ...]:
    """The house rules a meld's value and its jokers' meanings rest on."""
    jokers = sum(1 for c in meld.cards if c.is_joker)
    return (*VALUE_OPTIONS, *(JOKER_OPTIONS if jokers > 1 else ()))


def _joker_reasons(meld: Meld, variant: Variant) -> list[Reason]:
    """What the jokers of a single reading stand for."""
    reps = joker_reps(meld)
    if not reps:
        return []
    house = JOKER_OPTIONS if len(reps) > 1 else ()
    fixed = [rep for rep in reps if rep is not None]
    if len(fixed) == len(reps):
        if len(reps) > 1:
            names = the_cards(fixed)
            return [explanation(variant, "jokers_are", house=house, stands_for=names)]
        code = "joker_in_set" if not meld.is_run else "joker_is"
        key = "choices" if code == "joker_in_set" else "stands_for"
        return [explanation(variant, code, {key: fixed[0]}, house=house)]
    options = the_cards(meld.missing_suits(), "or")
    if len(reps) == 1:
        return [explanation(variant, "joker_in_set_one_of", choices=options)]
    return [
        explanation(
            variant,
            "joker_in_set_one_of",
            template="jokers_in_set_some_of",
            house=house,
            count_word=number_word(len(reps)),
            choices=the_cards(meld.missing_suits()),
        )
    ]


def _valid_verdict(
    cards: tuple[Card, ...], readings: tuple[Meld, ...], variant: Variant
) -> Verdict:
    first = readings[0]
    joker_count = sum(1 for c in cards if c.is_joker)
    choices: list[tuple[Card, ...]] = []
    for i in range(joker_count):
        seen: dict[Card, None] = {}
        for m in readings:
            for c in m.joker_choices[i]:
                seen.setdefault(c, None)
        choices.append(tuple(seen))
    reasons: list[Reason] = []
    counts = variant.opening_threshold > 0
    if len(readings) == 1:
        reasons.append(_kind_reason(first, first.cards, variant))
        reasons += _joker_reasons(first, variant)
        if counts:
            points = first.points(variant)
            reasons.append(
                explanation(variant, "meld_value", house=_value_house(first), points=points)
            )
        shown = first.cards
    elif joker_count == 1 and len({m.kind for m in readings}) == 1:
        # one joker, several places in one run: name each place, then say which
        shown = cards
        reasons.append(
            explanation(
                variant,
                "valid_run_open",
                house=tuple({o for m in readings for o in _ace_options(m)}),
                cards=shown,
                suit_name=suit_name(first.suit),
            )
        )
        worth = [
            render("card_worth", card=c, points=variant.card_value(c))
            for c in (m.joker_choices[0][0] for m in readings)
        ]
        reasons.append(explanation(variant, "joker_is_one_of", choices=join(worth)))
        if counts:
            parts = [
                render("value_as", points=m.points(variant), cards=m.represents) for m in readings
            ]
            reasons.append(
                explanation(
                    variant, "meld_value_readings", house=VALUE_OPTIONS, choices=join(parts)
                )
            )
    else:
        # several jokers or several kinds: every reading as a whole, the best first
        shown = cards
        reasons.append(
            explanation(
                variant,
                "meld_readings",
                house=JOKER_OPTIONS,
                cards=cards,
                count_word=number_word(len(readings)),
            )
        )
        for m in readings:
            reasons.append(_reading_reason(m, variant, counts))
    return Verdict(
        tuple(reasons),
        shown,
        first.kind,
        first.points(variant),
        tuple(choices),
        variant.name,
        {"readings": readings},
    )


def _reading_reason(meld: Meld, variant: Variant, counts: bool) -> Reason:
    """One reading as a whole: its kind, what each joker stands for, its value."""
    params: dict[str, object] = {"jokers": reading_phrase(meld)}
    if counts:
        params["points"] = meld.points(variant)
    suffix = "" if counts else "_free"
    if meld.is_run:
        low, high = meld.represents[0], meld.represents[-1]
        code = "reading_run"
        params |= {
            "suit_name": suit_name(meld.suit),
            "low": Rank(low.rank) if low else "",
            "high": Rank(high.rank) if high else "",
        }
    else:
        code = "reading_set"
        params |= {"rank_plural": rank_phrase(meld.rank, True), "set_word": word_for_set(variant)}
    house = (*_ace_options(meld), *_value_house(meld))
    return explanation(variant, code, params, template=code + suffix, house=house)
