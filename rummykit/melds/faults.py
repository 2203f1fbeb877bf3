"""What can be wrong with a meld's cards whatever they were meant to be: too few, more copies
than the deck holds, jokers not allowed or too many, a card repeated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rummykit.cards import JOKER, Card
from rummykit.explain import Reason
from rummykit.melds.wording import JOKER_OPTIONS, failure, times_word
from rummykit.messages import join, number_word, render
from rummykit.variants import Variant

__all__: list[str] = []  # its names serve the package's other modules; none is public API


def _jokers_usable(variant: Variant) -> bool:
    return variant.jokers > 0 and variant.jokers_per_meld > 0


def without_joker_talk(reasons: list[Reason], variant: Variant) -> list[Reason]:
    """Where no joker may be used, no reason says what a joker would stand for."""
    if _jokers_usable(variant):
        return reasons
    return [r for r in reasons if not (r.template or "").endswith("_joker")]


def general_failures(cards: tuple[Card, ...], variant: Variant) -> list[Reason]:
    """Faults whatever the cards were meant to be: size, deck, jokers."""
    out: list[Reason] = []
    jokers = tuple(c for c in cards if c.is_joker)
    if not cards:
        out.append(failure(variant, "too_few_cards", (), template="too_few_cards_none"))
    elif len(cards) < 3:
        out.append(
            failure(
                variant, "too_few_cards", cards, cards=cards, count_word=number_word(len(cards))
            )
        )
    counts = Counter(c for c in cards if not c.is_joker)
    over = [(card, n) for card, n in counts.items() if n > variant.copies(card)]
    deck = {
        "variant": variant.title,
        "decks_word": variant.decks_word,
        "is_are": render("there_is" if variant.decks == 1 else "there_are"),
        "copies_word": number_word(variant.decks),
    }
    if len(over) == 1:
        card, count = over[0]
        out.append(
            failure(
                variant,
                "not_in_deck",
                (card,) * count,
                card=card,
                count_word=number_word(count),
                **deck,
            )
        )
    elif over:
        counts_text = [render("card_times", count_word=number_word(n), card=c) for c, n in over]
        out.append(
            failure(
                variant,
                "not_in_deck",
                tuple(c for c, n in over for _ in range(n)),
                template="not_in_deck_many",
                counts=join(counts_text, "and"),
                **deck,
            )
        )
    if jokers and variant.jokers == 0:
        out.append(
            failure(variant, "jokers_not_allowed", jokers, variant=variant.title, cards=jokers)
        )
    elif jokers and variant.jokers_per_meld == 0:
        out.append(
            failure(
                variant,
                "jokers_not_allowed",
                jokers,
                template="jokers_not_allowed_house",
                house=JOKER_OPTIONS,
                cards=jokers,
            )
        )
    elif len(jokers) > variant.jokers:
        out.append(
            failure(
                variant,
                "not_in_deck",
                jokers,
                template="not_in_deck_joker",
                variant=variant.title,
                copies_word=number_word(variant.jokers),
                count_word=number_word(len(jokers)),
                card=JOKER,
            )
        )
    if jokers and _jokers_usable(variant) and len(jokers) > variant.jokers_per_meld:
        out.append(
            failure(
                variant,
                "too_many_jokers",
                jokers,
                house=JOKER_OPTIONS,
                cards=cards,
                count_word=number_word(len(jokers)),
                limit_word=number_word(variant.jokers_per_meld),
            )
        )
    return out


def repeats(
    cards: Iterable[Card],
    variant: Variant,
    code: str,
    many: str,
    ace: str | None = None,
    **params: object,
) -> list[Reason]:
    """One reason per distinct count of repeated cards: ``9♠ and 9♥ each appear twice``."""
    by_count: dict[int, list[Card]] = {}
    for card, count in Counter(cards).items():
        if count > 1:
            by_count.setdefault(count, []).append(card)
    out = []
    for count, repeated in sorted(by_count.items()):
        names = join(repeated, "and")
        template = many if len(repeated) > 1 else (ace or None)
        out.append(
            failure(
                variant,
                code,
                tuple(c for c in repeated for _ in range(count)),
                {**params, "cards": names, "times": times_word(count)},
                template=template,
            )
        )
    return out
