"""Serving an in-process agent over the protocol: what ``rummykit agent`` runs.

:func:`serve` reads decide messages on standard input, rebuilds each observation from its
JSON form, asks the agent and writes the action and its trace; it says hello first and
stops at ``bye`` or at the end of its input.

>>> import io, json
>>> from rummykit.ai import make_agent
>>> from rummykit.game import Game
>>> from rummykit.agents.protocol import decide_message, encode
>>> game = Game.new("rommi", players=2, seed=3)
>>> question = encode(decide_message(game.observation(game.current), 1))
>>> out = io.BytesIO()
>>> serve(make_agent("easy"), stdin=io.BytesIO(question + b'{"type":"bye"}\\n'), stdout=out)
0
>>> hello, answer = [json.loads(line) for line in out.getvalue().splitlines()]
>>> hello["name"], answer["type"], answer["id"], answer["action"]
('easy', 'action', 1, {'type': 'draw', 'source': 'stock'})
"""

from __future__ import annotations

import sys
import traceback
from typing import IO, Any

from rummykit.agents.protocol import (
    MAX_LINE,
    ProtocolError,
    action_message,
    decode,
    encode,
    hello_message,
    read_observation,
    variant_names,
)
from rummykit.ai.agents import Agent
from rummykit.game.observation import Observation
from rummykit.messages import render

__all__ = ["serve"]


def serve(
    agent: Agent,
    variants: list[str] | None = None,
    *,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    """Play ``agent`` over the protocol until ``bye`` or the end of the input; 0 when done.

    A refused action (a verdict line) is answered by deciding again; a decision that fails
    is an error line (and its traceback goes to standard error), and serving goes on. The
    referee's welcome needs no answer; its error lines are written to standard error.
    """
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    err = stderr if stderr is not None else sys.stderr
    plays = variants if variants is not None else list(getattr(agent, "variants", variant_names()))

    def send(message: dict[str, Any]) -> None:
        out.write(encode(message))
        out.flush()

    send(hello_message(agent.name, plays))
    last: tuple[int, Observation] | None = None
    while True:
        line = inp.readline(MAX_LINE + 1)
        if not line:
            return 0
        if not line.strip():
            continue
        try:
            message = decode(line)
        except ProtocolError as exc:
            send({"type": "error", "message": str(exc)})
            continue
        kind = message["type"]
        if kind == "bye":
            return 0
        if kind == "error":
            print(render("agent_referee_error", message=message.get("message")), file=err)
            err.flush()
            continue
        if kind not in ("decide", "verdict"):
            continue  # the welcome, or a later protocol's message: not ours to answer
        ident = message.get("id")
        try:
            if kind == "decide":
                last = (ident, read_observation(message)) if isinstance(ident, int) else None
            if last is None or last[0] != ident:
                raise ProtocolError(render("protocol_unknown_question", ident=ident))
            send(action_message(last[0], agent.decide(last[1])))
        except Exception as exc:
            traceback.print_exc(file=err)
            err.flush()
            send({"type": "error", "id": ident, "message": f"{type(exc).__name__}: {exc}"})


def serve_command(level: str | None, spec: str | None, name: str | None = None) -> int:
    """``rummykit agent``: serve a built-in level, or the agent ``FILE.py:Name`` or
    ``module:Name`` names, on standard input and output (2 when it can't be loaded)."""
    from rummykit.agents.files import AgentImportError, import_agent
    from rummykit.ai.levels import make_agent

    try:
        agent: Agent = import_agent(spec)() if spec else make_agent(level or "normal")
    except (AgentImportError, ValueError) as exc:
        print(render("cli_error", command="agent", message=str(exc)), file=sys.stderr)
        return 2
    if name:
        agent.name = name
    return serve(agent)
