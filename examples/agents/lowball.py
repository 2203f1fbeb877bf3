"""A Python agent for a league: the whole turn logic of BaseAgent, its own draw and discard.

It never takes the discard and throws away its lowest card, keeping the high ones (the
example of docs/ai.md). In league.json: {"python": "lowball.py:LowBall"} plays it in the
referee's process; add "process": true to play it in a process of its own.
"""

from rummykit.ai import BaseAgent, Candidate, Note


class LowBall(BaseAgent):
    """Never takes the discard; throws away its lowest card."""

    name = "lowball"

    def judge_discard_take(self, obs, top):
        return False, Note("ai_say", {"text": "I never take the discard."})

    def score_discards(self, obs, discards):
        value = obs.variant.card_value
        return [
            Candidate(d, -value(d.card), (Note("ai_say", {"text": f"worth {value(d.card)}"}),))
            for d in discards
        ]
