"""Which reading of a meld the player means when its jokers could stand for different cards.

A joker stands for one card (H5); when the cards allow several readings, the player names
the joker's card (``joker_as``), and the referee refuses a move whose meaning is left open.

>>> from rummykit.variants import HUNGARIAN
>>> from rummykit.cards import as_cards
>>> from rummykit.melds import meld_readings
>>> cards = as_cards("5♥ 6♥ 🃏")
>>> choice = joker_choice(HUNGARIAN, meld_readings(cards, HUNGARIAN), None, cards)
>>> choice.meld is None, [(r.code, r.rule) for r in choice.failures]
(True, [('joker_ambiguous', 'H5')])
>>> choice = joker_choice(HUNGARIAN, meld_readings(cards, HUNGARIAN), Card("4♥"), cards)
>>> [str(c) for c in choice.meld.represents], choice.failures
(['4♥', '5♥', '6♥'], ())
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.cards import Card
from rummykit.explain import Reason
from rummykit.game.actions import JokerMeaning
from rummykit.game.refusals import rule_reason
from rummykit.melds import Meld, reading_phrase, readings_with
from rummykit.messages import join, render
from rummykit.variants import Variant

__all__ = ["JokerChoice", "joker_cards", "joker_choice", "named_meaning", "reading_key"]


@dataclass(frozen=True)
class JokerChoice:
    """What a move's jokers stand for: the reading chosen (``None`` when refused), why not,
    and — when several jokers' meaning was left open — each whole reading the player may
    name (a ``joker_as`` for each), for the legal moves to offer one by one."""

    meld: Meld | None
    failures: tuple[Reason, ...] = ()
    open_readings: tuple[JokerMeaning, ...] = ()


def joker_choice(
    v: Variant, readings: tuple[Meld, ...], joker_as: JokerMeaning, cards: tuple[Card, ...]
) -> JokerChoice:
    """Pick the reading the player meant; refuse when a joker's meaning is open (H5).

    ``joker_as`` names one card, or one card per joker (house rule ``jokers_per_meld``);
    naming fewer cards than there are jokers leaves the others open.
    """
    chosen = readings_with(readings, joker_as) if joker_as is not None else readings
    if not chosen:
        options = sorted(
            {c for m in readings for c in joker_cards(m)},
            key=lambda c: (c.rank, c.sort_key()),
        )
        code = "joker_as_impossible" if options else "joker_as_no_joker"
        return JokerChoice(
            None,
            (
                rule_reason(
                    v,
                    code,
                    "joker",
                    cards,
                    cards=cards,
                    card=joker_as,
                    choices=join([render("the_card", card=c) for c in options]),
                ),
            ),
        )
    distinct = list({reading_key(m): m for m in chosen}.values())
    if len(distinct) == 1:
        return JokerChoice(chosen[0])
    if max(len(m.joker_choices) for m in distinct) > 1:  # several jokers: whole readings
        meanings = tuple(named_meaning(m) for m in distinct)
        reason = Reason(
            "joker_ambiguous",
            v.rule("joker"),
            cards,
            {
                "choices": meanings,
                "readings": tuple(reading_phrase(m) for m in distinct),
                "choices_text": join([reading_phrase(m) for m in distinct]),
            },
            True,
            "jokers_ambiguous",
        )
        return JokerChoice(None, (reason,), meanings)
    options = sorted(
        {c for m in distinct for c in joker_cards(m)}, key=lambda c: (c.rank, c.sort_key())
    )
    return JokerChoice(
        None,
        (
            rule_reason(
                v,
                "joker_ambiguous",
                "joker",
                cards,
                choices=tuple(options),
                choices_text=join([render("the_card", card=c) for c in options]),
            ),
        ),
    )


def reading_key(meld: Meld) -> tuple[object, ...]:
    """What a reading says about its jokers: its kind and what each joker stands for.

    Two readings that differ only in where a natural ace stands (A-2-…-K or 2-…-K-A) say
    the same: the ace's two places are not joker meanings (H4).
    """
    reps = sorted(str(rep) for c, rep in zip(meld.cards, meld.represents) if c.is_joker)
    return (meld.kind, *reps)


def named_meaning(meld: Meld) -> JokerMeaning:
    """The ``joker_as`` that names this reading (H5): a card per joker (a set's open joker
    named by one of its missing suits).

    >>> from rummykit import HUNGARIAN
    >>> from rummykit.melds import make_meld
    >>> named_meaning(make_meld("K♥ 🃏 🃏", HUNGARIAN.derive(jokers_per_meld=2), ("J♥", "Q♥")))
    (Card('J♥'), Card('Q♥'))
    """
    named: list[Card] = []
    for options in meld.joker_choices:
        free = [c for c in options if c not in named]
        if free:
            named.append(free[0])
    if not named:
        return None
    if len(named) == 1:
        return named[0]
    return tuple(sorted(named, key=Card.sort_key))


def joker_cards(meld: Meld) -> set[Card]:
    """Every card a joker of this reading may stand for."""
    return {c for options in meld.joker_choices for c in options}
