"""A Python entrant that monkeypatches the referee's scoring and standings as it is imported
— what, run inside a Dask worker, moved its author from 3rd place to 1st — then plays the
first legal action. A league runs it in a sandboxed process of its own, where the patches
reach nothing but that process."""

import rummykit.agents.forfeit
import rummykit.game.scoring
import rummykit.tournament
from rummykit.ai import Decision, Note, Trace

rummykit.game.scoring.hand_value = lambda *args, **kwargs: 0
rummykit.agents.forfeit.forfeit_points = lambda game, seat: (0,) * game.players
rummykit.tournament.forfeit_points = rummykit.agents.forfeit.forfeit_points
original = rummykit.tournament.standings_of


def favoured(records, labels, clusters, low_wins):
    standings, comparisons = original(records, labels, clusters, low_wins)
    return tuple(sorted(standings, key=lambda s: s.agent != "attacker")), comparisons


rummykit.tournament.standings_of = favoured


class Patcher:
    name = "attacker"

    def decide(self, obs):
        action = obs.legal_actions[0]
        return Decision(action, Trace(self.name, obs.seat, (), (), action, Note("ai_fallback")))
