"""Explanations as data: :class:`Reason` and :class:`Verdict`, and the reason-code catalogue.

A check never returns a bare ``True``/``False``. It returns a :class:`Verdict` whose reasons
say what was found, name the cards and cite the rule:

>>> from rummykit import check_meld
>>> verdict = check_meld("K♠ A♠ 2♠")
>>> bool(verdict), verdict.codes
(False, ('run_wraps',))
>>> print(verdict.failures[0])
K♠ A♠ 2♠ wraps around the ace: in a run the ace goes below the 2 (A-2-3) or above the king (Q-K-A), never between them. (H4)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rummykit.cards import Card
from rummykit.drawing import verdict_html
from rummykit.messages import render

__all__ = ["CATALOGUE", "Reason", "Verdict"]


@dataclass(frozen=True, slots=True)
class Reason:
    """One finding of a check: a stable ``code``, the ``rule`` it cites, the ``cards`` at fault.

    ``failing`` reasons make a verdict fail; the others explain (what a valid meld is, what a
    joker stands for, how many points it is worth).
    """

    code: str
    rule: str | None = None
    cards: tuple[Card, ...] = ()
    params: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)
    failing: bool = True
    template: str | None = field(default=None, compare=False)

    @property
    def message(self) -> str:
        """The sentence for this reason, without the rule citation."""
        return render(self.template or self.code, self.params)

    def __str__(self) -> str:
        if self.rule:
            return f"{self.message} ({self.rule})"
        return self.message

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: code, rule, message, cards (as text)."""
        return {
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
            "cards": [str(c) for c in self.cards],
            "failing": self.failing,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to a check: ``ok`` or not, and every reason why.

    ``bool(verdict)`` is ``verdict.ok``. ``kind`` is ``"run"``, ``"set"`` or ``None``;
    ``points`` is the value toward the opening (``None`` when it is not a meld); ``jokers``
    lists, for each joker, every card it may stand for.
    """

    reasons: tuple[Reason, ...] = ()
    cards: tuple[Card, ...] = ()
    kind: str | None = None
    points: int | None = None
    jokers: tuple[tuple[Card, ...], ...] = ()
    variant: str = ""
    details: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)

    @property
    def ok(self) -> bool:
        """True when no reason fails."""
        return not any(r.failing for r in self.reasons)

    def __bool__(self) -> bool:
        return self.ok

    @property
    def failures(self) -> tuple[Reason, ...]:
        """The reasons that make this verdict fail."""
        return tuple(r for r in self.reasons if r.failing)

    @property
    def codes(self) -> tuple[str, ...]:
        """The codes of the failing reasons, in order."""
        return tuple(r.code for r in self.failures)

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule id cited, once each, in order."""
        seen: dict[str, None] = {}
        for r in self.reasons:
            if r.rule:
                seen.setdefault(r.rule, None)
        return tuple(seen)

    @property
    def highlighted(self) -> frozenset[Card]:
        """The cards any failing reason names."""
        return frozenset(c for r in self.failures for c in r.cards)

    @property
    def message(self) -> str:
        """The explanation as one readable paragraph (same as ``str(verdict)``)."""
        return str(self)

    def __str__(self) -> str:
        return " ".join(str(r) for r in self.reasons)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form of the verdict."""
        return {
            "ok": self.ok,
            "kind": self.kind,
            "points": self.points,
            "variant": self.variant,
            "cards": [str(c) for c in self.cards],
            "jokers": [[str(c) for c in options] for options in self.jokers],
            "reasons": [r.to_dict() for r in self.reasons],
        }

    def _repr_html_(self) -> str:
        return verdict_html(self)

    @classmethod
    def of(cls, reasons: Iterable[Reason], **fields: Any) -> Verdict:
        """Build a verdict from reasons (a convenience for checks)."""
        return cls(reasons=tuple(reasons), **fields)


#: Every reason code a meld check may give: the rule topic it cites and what it means.
CATALOGUE: dict[str, tuple[str, str, str]] = {
    # code: (topic, meaning, example)
    "too_few_cards": ("meld", "a meld has fewer than three cards", "9♠ 9♥"),
    "identical_cards": ("meld", "a set holds two identical cards", "9♠ 9♠ 9♥"),
    "set_rank_mismatch": ("meld", "a set holds cards of different ranks", "9♠ 9♥ 10♥"),
    "set_too_large": ("meld", "a set holds more than four cards", "9♠ 9♥ 9♦ 9♣ 🃏"),
    "run_suit_mismatch": ("meld", "a run holds cards of different suits", "8♠ 9♠ 10♥"),
    "run_gap": ("meld", "a run skips a card that no joker fills", "5♥ 6♥ 8♥"),
    "run_duplicate_rank": ("meld", "a run holds one rank twice", "5♥ 6♥ 7♥ 7♥"),
    "run_too_long": ("meld", "a run would need more than 13 cards", "A♥ 2♥ … K♥ 🃏"),
    "run_wraps": ("meld", "a run turns the corner at the ace (K-A-2)", "K♠ A♠ 2♠"),
    "ace_low_not_allowed": ("meld", "the ace stands below the 2 where it may not", "A♥ 2♥ 3♥"),
    "ace_high_not_allowed": ("meld", "the ace stands above the king where it may not", "Q♥ K♥ A♥"),
    "too_many_jokers": ("joker", "a meld holds more jokers than allowed", "5♥ 🃏 🃏"),
    "jokers_not_allowed": ("joker", "the variant is played without jokers", "5♥ 🃏 7♥"),
    "not_in_deck": ("deck", "the meld holds more copies of a card than the deck", "9♠ 9♠ 9♠"),
}
