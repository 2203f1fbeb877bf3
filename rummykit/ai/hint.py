"""Hints: a suggested move for a learner, explained in words.

The hint is the hard agent's decision for the learner's own observation (so it sees only
what the learner sees), told as advice:

>>> from rummykit.game import Game
>>> game = Game.new("rommi", players=2, seed=4)
>>> print(hint(game.observation(game.current)))  # doctest: +ELLIPSIS
Suggestion: ...
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.ai.agents import HardAgent
from rummykit.ai.trace import Decision
from rummykit.game.observation import Observation
from rummykit.messages import render

__all__ = ["Hint", "hint"]


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move and the reasoning behind it."""

    decision: Decision

    def __str__(self) -> str:
        trace = self.decision.trace
        lines = [render("hint_suggest", action=str(self.decision.action), why=str(trace.why))]
        lines += [str(step) for step in trace.steps]
        return " ".join(lines)

    def _repr_html_(self) -> str:
        return self.decision.trace._repr_html_()


def hint(obs: Observation) -> Hint:
    """Suggest a move for the seat whose observation this is (it must be their turn)."""
    if not obs.legal_actions:
        raise ValueError(render("hint_not_your_turn", seat=obs.seat))
    return Hint(HardAgent().decide(obs))
