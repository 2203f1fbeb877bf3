"""The positions exercises are set in: melds made from cards, a game set up by hand, a hand
and the table drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from rummykit.cards import Card, CardsLike, as_cards, format_cards
from rummykit.display import cards_html
from rummykit.exercises.base import Exercise, as_variant, variant_repr
from rummykit.melds import IllegalMeld, Meld, make_meld
from rummykit.messages import render
from rummykit.variants import HUNGARIAN, Variant

__all__: list[str] = []  # its names serve the package's other modules; none is public API


def melds_of(melds: Iterable[Meld | CardsLike], variant: Variant) -> tuple[Meld, ...]:
    out = []
    for item in melds:
        if isinstance(item, Meld):
            out.append(item)
            continue
        try:
            out.append(make_meld(item, variant))
        except IllegalMeld as bad:
            raise ValueError(str(bad)) from None
    return tuple(out)


def set_up_game(variant: Variant, **position: Any) -> Any:
    from rummykit.game.record import from_position

    return from_position(variant, **position)


# --- choices in a position: discard, lay-off, going out, opening, joker -------------------------


def table_melds(table: Iterable[Meld | CardsLike], variant: Variant) -> tuple[Meld, ...]:
    return melds_of(table, variant)


def table_html(table: Sequence[Meld]) -> str:
    parts = []
    for i, meld in enumerate(table):
        label = render("exercise_meld_label", number=i + 1, cards=meld.cards)
        parts.append(f"<div><span>{escape(label)}</span>{cards_html(meld.cards)}</div>")
    return "".join(parts)


def hand_html(hand: Sequence[Card], extra: str = "") -> str:
    return f"<div><b>{escape(render('exercise_hand'))}</b>{cards_html(hand)}</div>{extra}"


def hand_without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """The hand without one copy of ``card``."""
    rest = list(hand)
    rest.remove(card)
    return tuple(rest)


@dataclass(frozen=True, repr=False)
class HandAndTable(Exercise):
    """An exercise on a hand and the melds on the table."""

    hand: tuple[Card, ...]
    table: tuple[Meld, ...]
    variant: Variant = HUNGARIAN

    def __init__(
        self,
        hand: CardsLike,
        table: Iterable[Meld | CardsLike] = (),
        variant: Variant | str = HUNGARIAN,
    ) -> None:
        rules = as_variant(variant)
        self._allow(rules)
        object.__setattr__(self, "hand", as_cards(hand))
        object.__setattr__(self, "table", table_melds(table, rules))
        object.__setattr__(self, "variant", rules)

    def _allow(self, rules: Variant) -> None:
        """Raise ``ValueError`` when the variant can't pose this exercise."""

    def __repr__(self) -> str:
        table = ", ".join(repr(str(m)) for m in self.table)
        hand = format_cards(self.hand)
        return f"{type(self).__name__}('{hand}', [{table}], {variant_repr(self.variant)})"

    def figure_html(self) -> str:
        return hand_html(self.hand, table_html(self.table))
