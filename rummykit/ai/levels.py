"""The built-in agents by name: the three levels (R12) and the greedy baseline.

>>> sorted(AGENTS)
['easy', 'greedy', 'hard', 'normal']
>>> make_agent("Hard").name
'hard'
"""

from __future__ import annotations

from rummykit.ai.agents import LEVELS, BaseAgent
from rummykit.ai.greedy import GreedyAgent
from rummykit.errors import RummykitError
from rummykit.messages import render

__all__ = ["AGENTS", "make_agent"]

AGENTS: dict[str, type[BaseAgent]] = {**LEVELS, "greedy": GreedyAgent}
"""Every built-in agent by the name tools accept (``rummykit simulate --agents``)."""


def make_agent(level: str) -> BaseAgent:
    """A built-in agent by name: a level (``easy``, ``normal``, ``hard``) or the reference
    baseline ``greedy``."""
    try:
        return AGENTS[level.strip().lower()]()
    except KeyError:
        said = render("unknown_level", name=level, choices=", ".join(AGENTS))
        raise RummykitError(said, field="level") from None
