"""Agents in their own process: the agent protocol (JSON lines), ProcessAgent, the sandbox.

An in-process agent is trusted code: it runs inside the referee's Python and could reach
the :class:`~rummykit.game.Game` itself. A :class:`ProcessAgent` runs a separate program that
receives only its seat's observation, as JSON lines — see docs/agents.md for the protocol —
in a sandbox (:mod:`rummykit.agents.sandbox`: bubblewrap where it works, and limits).
"""

from rummykit.agents.forfeit import FORFEIT_CODES, Forfeit, ForfeitRecord, forfeit_points
from rummykit.agents.process import ProcessAgent, level_command, stop_idle
from rummykit.agents.protocol import PROTOCOL_VERSION, ProtocolError
from rummykit.agents.sandbox import Limits, SandboxError, SandboxWarning
from rummykit.agents.serve import serve

__all__ = [
    "FORFEIT_CODES",
    "PROTOCOL_VERSION",
    "Forfeit",
    "ForfeitRecord",
    "Limits",
    "ProcessAgent",
    "ProtocolError",
    "SandboxError",
    "SandboxWarning",
    "forfeit_points",
    "level_command",
    "serve",
    "stop_idle",
]
