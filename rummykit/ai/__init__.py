"""Computer opponents that show their reasoning: easy, normal and hard (R12).

>>> from rummykit.game import Game
>>> from rummykit.ai import make_agent
>>> game = Game.new("rommi", players=2, seed=4)
>>> decision = make_agent("easy").decide(game.observation(game.current))
>>> decision.action in game.legal_actions()
True
"""

from rummykit.ai.agents import (
    LEVELS,
    Agent,
    BaseAgent,
    EasyAgent,
    HardAgent,
    NormalAgent,
)
from rummykit.ai.greedy import GreedyAgent
from rummykit.ai.levels import AGENTS, make_agent
from rummykit.ai.trace import Candidate, Decision, Note, Term, Trace

__all__ = [
    "AGENTS",
    "LEVELS",
    "Agent",
    "BaseAgent",
    "Candidate",
    "Decision",
    "EasyAgent",
    "GreedyAgent",
    "HardAgent",
    "NormalAgent",
    "Note",
    "Term",
    "Trace",
    "make_agent",
]
