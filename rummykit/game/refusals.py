"""The referee's answers: a reason citing a rule, a help citing none, and the verdict and error
that carry a refusal.

A refusal cites the rule id of its topic in the variant's rulebook (``"opening"`` is H8 in
Hungarian, R5 in Rommi); the software's own helps ("there is no meld 4") cite none.

>>> from rummykit.variants import HUNGARIAN, ROMMI
>>> rule_reason(HUNGARIAN, "cut_card_gone", "cut_card").rule
'H10'
>>> help_reason("nothing_to_undo").rule is None
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from rummykit.cards import Card
from rummykit.explain import Reason, Verdict, VerdictError
from rummykit.game.actions import Action
from rummykit.variants import Variant

__all__ = ["IllegalAction", "help_reason", "ok_reason", "refusal", "rule_reason"]


class IllegalAction(VerdictError):
    """The referee refused an action; ``verdict`` says why. The game is unchanged."""


def rule_reason(
    v: Variant, code: str, topic: str, cards: Iterable[Card] = (), /, **params: Any
) -> Reason:
    """A refusal that a rule says: it cites the variant's rule id for ``topic``."""
    return Reason(code, v.rule(topic), tuple(cards), params)


def help_reason(
    code: str, cards: Iterable[Card] = (), template: str | None = None, /, **params: Any
) -> Reason:
    """A refusal that is the software's own help, not a rule: it cites no rule id."""
    return Reason(code, None, tuple(cards), params, True, template)


def refusal(v: Variant, action: Action, failures: list[Reason]) -> Verdict:
    """The verdict refusing ``action``: a head line, then every reason, each card shown once."""
    head = Reason("action_refused", None, (), {"action": action}, failing=False)
    shown: Counter[Card] = Counter()
    for r in failures:  # each card once, as many times as one reason names it
        shown |= Counter(r.cards)
    cards = tuple(shown.elements())
    return Verdict((head, *failures), cards, variant=v.name)


def ok_reason(action: Action) -> Reason:
    """The reason of a verdict that allows ``action``."""
    return Reason("action_ok", None, (), {"action": action}, failing=False)
