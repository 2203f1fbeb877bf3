"""The greedy baseline: the agent a student writes first, and the yardstick for the levels.

It always draws from the stock (unless the discard lets it go out at once), melds whenever
it may, lays off whatever fits, and throws away its highest loose card. It is built on
:class:`~rummykit.ai.agents.BaseAgent` exactly as ``docs/ai.md`` shows, so it gets the
shared turn logic (going out, the opening, H7–H11) and decides only what to take and what
to throw:

>>> from rummykit.game import from_position
>>> game = from_position("rommi", hands=["5♥ 6♥ 7♥ K♠ 2♣", "2♠ 3♠ 4♦ 8♣ 9♣"], current=0,
...                      phase="play")
>>> GreedyAgent().decide(game.observation(0)).action
PlayMeld(cards=(Card('5♥'), Card('6♥'), Card('7♥')), joker_as=None)
"""

from __future__ import annotations

from rummykit.ai.agents import BaseAgent
from rummykit.ai.trace import Candidate, Note, Term
from rummykit.cards import Card
from rummykit.game.actions import Discard
from rummykit.game.observation import Observation
from rummykit.solver import best_arrangement

__all__ = ["GreedyAgent"]


class GreedyAgent(BaseAgent):
    """Stock only; melds and lays off at once; throws its highest loose card."""

    name = "greedy"
    keep_melds = 100.0  # points that keep a card of a meld in hand

    def judge_discard_take(self, obs: Observation, top: Card) -> tuple[bool, Note]:
        """Never: greedy always draws from the stock."""
        self._rules["discard"] = Note("ai_term_rule_greedy")
        return False, Note("ai_why_greedy_stock")

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        """The higher a loose card's value, the better to throw; meld cards stay."""
        v = obs.variant
        loose = set(best_arrangement(list(obs.hand), v).deadwood)
        out = []
        for d in discards:
            value = v.card_value(d.card)
            terms = [
                Term("card_value", float(value), Note("ai_term_greedy_value", {"value": value}))
            ]
            if d.card not in loose:
                terms.append(Term("habit", -self.keep_melds, Note("ai_term_greedy_meld")))
            out.append(Candidate.of(d, terms))
        return out
