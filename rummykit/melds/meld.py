"""A valid meld as it lies on the table: its kind, its cards in table order and what each joker
stands for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rummykit.cards import SUITS, Card, format_cards
from rummykit.explain import VerdictError
from rummykit.variants import HUNGARIAN, Variant

__all__ = ["MELD_KINDS", "IllegalMeld", "Meld", "MeldKind"]


class IllegalMeld(VerdictError):
    """Cards that do not form a valid meld (the :class:`Verdict` says why)."""


IllegalMeld.__module__ = "rummykit.melds"  # its public home, where it is imported from


MeldKind = Literal["set", "run"]
"""A meld's kind: a set (same rank, different suits) or a run (same suit, in sequence)."""
MELD_KINDS: tuple[MeldKind, ...] = ("set", "run")


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld as it lies on the table.

    ``cards`` are in table order (a run from low to high, a set in suit order, jokers in
    place); ``represents`` says, position by position, which card each stands for — for a
    joker the card it represents, or ``None`` for a joker in a set of three, which stands
    for "one of the missing suits" (H5).

    >>> from rummykit.melds import make_meld
    >>> meld = make_meld("7♥ 5♥ 🃏")
    >>> meld
    make_meld('5♥ 🃏 7♥')
    >>> meld.kind, meld.represents[1], meld.points(HUNGARIAN)
    ('run', Card('6♥'), 18)
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    represents: tuple[Card | None, ...]
    start: int = 0  # runs: position of the first card (1 = low ace, 14 = high ace)

    @property
    def suit(self) -> str:
        """A run's suit ('' for a set)."""
        return next((c.suit for c in self.represents if c is not None), "") if self.is_run else ""

    @property
    def rank(self) -> int:
        """A set's rank (0 for a run)."""
        return next(c.rank for c in self.cards if not c.is_joker) if not self.is_run else 0

    @property
    def is_run(self) -> bool:
        """Whether this meld is a run."""
        return self.kind == "run"

    @property
    def end(self) -> int:
        """A run's last position (0 for a set)."""
        return self.start + len(self.cards) - 1 if self.is_run else 0

    @property
    def joker_choices(self) -> tuple[tuple[Card, ...], ...]:
        """For each joker, every card it may stand for (one, unless a set's suit is open)."""
        out = []
        for card, rep in zip(self.cards, self.represents, strict=False):
            if card.is_joker:
                out.append((rep,) if rep is not None else self.missing_suits())
        return tuple(out)

    def missing_suits(self) -> tuple[Card, ...]:
        """A set's missing cards: the suits of its rank not yet in it."""
        present = {c.suit for c in self.cards if not c.is_joker}
        present |= {c.suit for c in self.represents if c is not None}
        return tuple(Card(self.rank, s) for s in SUITS if s not in present)

    def points(self, variant: Variant = HUNGARIAN) -> int:
        """Value toward the opening: each card, a joker as the card it stands for (H8)."""
        total = 0
        for card, rep in zip(self.cards, self.represents, strict=False):
            if rep is None:  # set joker: worth the set's rank
                rep = Card(self.rank, SUITS[0])
            total += variant.card_value(rep if card.is_joker else card)
        return total

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        """A call that makes this meld again: ``make_meld('2♥ 3♥ 🃏', joker_as='4♥')``."""
        reps = [r for c, r in zip(self.cards, self.represents, strict=False) if c.is_joker]
        named: list[Card] = []
        if self.is_run and (len(reps) > 1 or self.cards[0].is_joker or self.cards[-1].is_joker):
            named = [r for r in reps if r is not None]
        elif not self.is_run and len(reps) > 1:  # name the suits, or a run may be meant
            named = [r for r in reps if r is not None] or list(self.missing_suits()[: len(reps)])
        if not named:
            return f"make_meld('{self}')"
        if len(named) == 1:
            return f"make_meld('{self}', joker_as='{named[0]}')"
        return f"make_meld('{self}', joker_as=({', '.join(repr(str(c)) for c in named)}))"

    def _repr_html_(self) -> str:
        from rummykit.display import cards_html

        return cards_html(self.cards)
