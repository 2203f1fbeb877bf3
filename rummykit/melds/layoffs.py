"""Lay-offs: what a meld on the table becomes with cards added, and whether they may go onto
it (R6, H8).
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.cards import Card, CardsLike, as_cards, format_cards
from rummykit.explain import Reason, Verdict
from rummykit.melds.check import check_meld
from rummykit.melds.faults import general_failures, without_joker_talk
from rummykit.melds.meld import Meld
from rummykit.melds.readings import MeldLike, readings_of, shown_and_readings
from rummykit.melds.runs import run_failures
from rummykit.melds.sets import set_failures
from rummykit.melds.wording import explanation, failure, joker_reps, reading_phrase, word_for_kind
from rummykit.messages import join, render
from rummykit.variants import HUNGARIAN, Variant
from rummykit.variants import variant as named_variant

__all__ = ["check_layoff", "laid_off_jokers", "layoff_readings"]


def layoff_readings(meld: Meld, cards: CardsLike, variant: Variant = HUNGARIAN) -> tuple[Meld, ...]:
    """Every meld that ``meld`` becomes with ``cards`` added, keeping its kind and its jokers.

    >>> from rummykit.melds import make_meld
    >>> layoff_readings(make_meld("4♥ 5♥ 6♥"), "7♥")
    (make_meld('4♥ 5♥ 6♥ 7♥'),)
    """
    added = as_cards(cards)
    combined = (*meld.cards, *added)
    if not added or general_failures(combined, variant):
        return ()
    readings = readings_of(combined, variant, every_layout=True)
    return tuple(m for m in readings if _extends(meld, m))


def _extends(old: Meld, new: Meld) -> bool:
    """Whether ``new`` keeps ``old``'s kind and what each of its jokers stands for."""
    if old.kind != new.kind:
        return False
    if old.kind == "run":
        old_jokers = [
            rep for card, rep in zip(old.cards, old.represents, strict=False) if card.is_joker
        ]
        new_jokers = {
            rep for card, rep in zip(new.cards, new.represents, strict=False) if card.is_joker
        }
        return all(rep in new_jokers for rep in old_jokers) and (
            old.start >= new.start and old.end <= new.end
        )
    # a set: a joker whose suit was fixed stays fixed
    fixed = [
        rep for card, rep in zip(old.cards, old.represents, strict=False) if card.is_joker and rep
    ]
    naturals = {c for c in new.cards if not c.is_joker}
    return not any(rep in naturals for rep in fixed)


def check_layoff(meld: MeldLike, cards: CardsLike, variant: Variant | str = HUNGARIAN) -> Verdict:
    """May these cards go onto this meld on the table (R6, H8)?

    A meld given as cards whose jokers may stand for different cards is checked in every
    reading, and the verdict says in which the cards fit.

    >>> print(check_layoff("4♥ 5♥ 6♥", "7♥"))
    7♥ fits onto 4♥ 5♥ 6♥, making 4♥ 5♥ 6♥ 7♥. (H4)
    >>> check_layoff("9♠ 9♥ 9♦", "10♦").codes
    ('set_rank_mismatch',)
    >>> print(check_layoff("🃏 2♥ 3♥", "4♥"))
    4♥ fits onto 🃏 2♥ 3♥ if the joker is the A♥, making 🃏 2♥ 3♥ 4♥. (H5) If the joker is the 4♥, 4♥ can't go onto 🃏 2♥ 3♥. (H5)
    """
    if isinstance(variant, str):  # a name such as "rommi" is accepted too
        variant = named_variant(variant)
    shown, bases = shown_and_readings(meld, variant)
    if not bases:
        bad = check_meld(shown, variant)
        head = explanation(variant, "layoff_not_a_meld", meld=shown)
        return Verdict((head, *bad.failures), shown, variant=variant.name)
    if len(bases) == 1:
        shown = bases[0].cards
    added = as_cards(cards)
    if not added:
        none = failure(variant, "layoff_no_cards", (), meld=shown)
        return Verdict((none,), (), None, None, (), variant.name)
    grown = [(base, layoff_readings(base, added, variant)) for base in bases]
    fitting = [(base, found) for base, found in grown if found]
    fit = render("layoff_verb_one" if len(added) == 1 else "layoff_verb_many")
    if fitting:
        result = fitting[0][1][0]
        if len(bases) == 1:
            reasons = [_layoff_ok(bases[0], fitting[0][1], added, fit, variant)]
        else:  # the meld's jokers are open: say in which reading the cards fit
            reasons = []
            for base, found in sorted(grown, key=lambda pair: not pair[1]):
                jokers = reading_phrase(base)
                if found:
                    reasons.append(
                        explanation(
                            variant,
                            "layoff_ok_if",
                            cards=added,
                            fit=fit,
                            meld=shown,
                            jokers=jokers,
                            result=found[0].cards,
                        )
                    )
                else:
                    reasons.append(
                        explanation(
                            variant, "layoff_fails_if", cards=added, meld=shown, jokers=jokers
                        )
                    )
        return Verdict(
            tuple(reasons),
            result.cards,
            result.kind,
            result.points(variant),
            result.joker_choices,
            variant.name,
            {"readings": tuple(m for _, found in fitting for m in found)},
        )
    return _layoff_refused(shown, bases, added, variant)


def laid_off_jokers(base: Meld, grown: Meld) -> list[Card | None]:
    """What each joker laid off onto ``base`` stands for in ``grown`` (``None``: a set's
    joker whose suit is open), leaving out the jokers ``base`` already held.

    >>> from rummykit.melds import make_meld
    >>> laid_off_jokers(make_meld("3♠ 4♠ 5♠"), make_meld("3♠ 4♠ 5♠ 🃏", joker_as="6♠"))
    [Card('6♠')]
    """
    before = list(joker_reps(base))
    new: list[Card | None] = []
    for rep in joker_reps(grown):
        if rep in before:
            before.remove(rep)
        else:
            new.append(rep)
    return new


def _layoff_ok(
    base: Meld, found: Sequence[Meld], added: tuple[Card, ...], fit: str, variant: Variant
) -> Reason:
    """``… fits onto …, making …`` — with what a laid-off joker stands for, where known."""
    fields = {"cards": added, "fit": fit, "meld": base.cards}
    readings = [(m, laid_off_jokers(base, m)) for m in found]
    if not readings[0][1] or any(None in reps for _, reps in readings):
        return explanation(variant, "layoff_ok", fields, result=readings[0][0].cards)
    code = "layoff_ok_joker" if len(readings[0][1]) == 1 else "layoff_ok_jokers"
    if len(readings) == 1:
        stands = join([render("the_card", card=c) for c in readings[0][1]], "and")
        return explanation(variant, code, fields, result=readings[0][0].cards, stands_for=stands)
    each = [
        render(
            f"{code}_reading",
            result=format_cards(m.cards),
            stands_for=join([render("the_card", card=c) for c in reps], "and"),
        )
        for m, reps in readings
    ]
    return explanation(variant, "layoff_ok_joker_open", fields, readings=join(each))


def _layoff_refused(
    shown: tuple[Card, ...], bases: Sequence[Meld], added: tuple[Card, ...], variant: Variant
) -> Verdict:
    """Why ``added`` fits onto none of the readings of a table meld."""
    combined = (*shown, *added)
    plain = check_meld(combined, variant)
    failures: list[Reason]
    if plain.ok:  # valid as cards, but not as this meld grown
        same_kind = [b for b in bases if b.kind == plain.kind]
        if not same_kind:
            failures = [
                failure(
                    variant,
                    "layoff_changes_kind",
                    added,
                    cards=added,
                    meld=shown,
                    kind=word_for_kind(bases[0].kind, variant),
                )
            ]
        else:
            stands = dict.fromkeys(
                render("the_card", card=rep)
                for b in same_kind
                for rep in joker_reps(b)
                if rep is not None
            )
            failures = [
                failure(
                    variant,
                    "layoff_moves_joker",
                    added,
                    cards=added,
                    meld=shown,
                    stands_for=join(list(stands)),
                )
            ]
    else:
        kind_failures = set_failures if bases[0].kind == "set" else run_failures
        failures = general_failures(combined, variant) + kind_failures(combined, variant)
        failures = without_joker_talk(failures, variant)
        failures = failures or list(plain.failures)
    head = explanation(variant, "layoff_invalid", cards=added, meld=shown)
    return Verdict((head, *failures), combined, None, None, (), variant.name)
