"""An agent that cheats: it searches the garbage collector for the referee's Game and reads
the other hands. In the referee's own process it finds the game; in a process of its own
(`rummykit agent --agent tests/agents/cheater.py:Cheater`) there is none to find."""

import gc

from rummykit.ai import Decision, Note, Trace
from rummykit.game import Game


class Cheater:
    name = "cheater"

    def decide(self, obs):
        games = [o for o in gc.get_objects() if isinstance(o, Game)]
        seen = []
        for game in games:
            for seat in range(game.players):
                if seat != obs.seat:
                    seen.extend(str(c) for c in game.hand(seat))
        text = f"games found: {len(games)}; other players' cards seen: {len(seen)}"
        action = obs.legal_actions[0]
        steps = (Note("ai_say", {"text": text}),)
        return Decision(action, Trace(self.name, obs.seat, steps, (), action, Note("ai_fallback")))
