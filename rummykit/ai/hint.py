"""Hints: the hard agent's view of the learner's own position, told to the learner.

A hint is one sentence in the second person — the move, written as the learner can type
it back, and why — with the hard agent's whole reasoning behind it as the detail (shown
on request: ``hint.details``, or the expandable part of the HTML). It is the hard agent's
decision for the learner's own observation, so it sees only what the learner sees, obeys
the referee's rules (its move is one of the legal actions) and gives one answer.

>>> from rummykit.game import from_position
>>> game = from_position("hungarian", hands=["5♣ 🃏", "3♦ 4♠ 7♣"], table=[(1, "4♥ 5♥ 6♥")],
...                      discard="K♣", current=0, phase="play", opened=[True, True],
...                      turns=[5, 5])
>>> tip = hint(game.observation(0))
>>> print(tip.summary)  # doctest: +ELLIPSIS
Play “lay off 🃏 onto ... as 7♥”: it is the next step of going out this turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from rummykit.ai.agents import HardAgent
from rummykit.ai.trace import Decision
from rummykit.errors import RummykitError
from rummykit.game.observation import Observation
from rummykit.messages import TEMPLATES, render

__all__ = ["Hint", "hint"]


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move: one sentence (``summary``), the move as text to type back
    (``command``), and the reasoning behind it (``details``, the hard agent's trace)."""

    decision: Decision

    @property
    def command(self) -> str:
        """The suggested move in the action's own text form."""
        return self.decision.action.command

    @property
    def summary(self) -> str:
        """The move and why, in one sentence addressed to the learner."""
        trace = self.decision.trace
        why = trace.why
        chosen = next((c for c in trace.candidates if c.action == trace.chosen), None)
        code = f"hint_{why.code}"
        if code not in TEMPLATES:
            code = "hint_generic"
        if chosen is not None and chosen.plan is not None and "diff" in why.params:
            code = "hint_plan_tie" if why.code == "ai_why_discard_tie" else "hint_plan"
            reason = render(code, why.params, plan=str(chosen.plan))
        else:
            reason = render(code, why.params)
        return render("hint_summary", command=self.command, why=reason)

    @property
    def details(self) -> tuple[str, ...]:
        """The reasoning behind it: the hard agent's trace, line by line, as if it held
        these cards."""
        return (render("hint_details_header"), *self.decision.trace.lines()[1:])

    def __str__(self) -> str:
        return "\n".join([self.summary, *(f"  {line}" for line in self.details)])

    def _repr_html_(self) -> str:
        return (
            f"<details class='rk-hint'><summary>{escape(self.summary)}</summary>"
            f"{self.decision.trace._repr_html_()}</details>"
        )


def hint(obs: Observation) -> Hint:
    """Suggest a move for the seat whose observation this is (it must be their turn)."""
    if not obs.legal_actions:
        raise RummykitError(render("hint_not_your_turn", seat=obs.seat))
    return Hint(HardAgent().decide(obs))
