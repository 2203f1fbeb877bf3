"""Forfeits: an agent that hangs, crashes, talks garbage or plays illegally loses the round.

A forfeit ends the round at once. Nobody wins it; the forfeiting seat scores worse than any
result it could still have reached, and every other seat scores 0:

- when the low score wins (Hungarian), the seat scores its hand's value, but at least the
  flat penalty of a hand that never opened (100);
- when the high score wins (Rommi), the seat scores minus its hand's value.

These are rummykit's own tournament rules, not the rulebooks'.

>>> from rummykit.game import Game
>>> game = Game.new("hungarian", players=3, seed=1)
>>> forfeit_points(game, 1)
(0, 100, 0)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from rummykit.game.scoring import hand_value
from rummykit.game.state import Game
from rummykit.messages import render

__all__ = ["FORFEIT_CODES", "Forfeit", "ForfeitRecord", "forfeit_points"]

FORFEIT_CODES = ("timeout", "crash", "garbage", "illegal", "error", "variant", "start")
"""Why an agent forfeits: no answer in time, the program ended, a line that is not the
protocol, a second illegal action, an error the agent reported (or raised), a variant it
doesn't play, a program that could not be started."""

STDERR_KEPT = 2000  # the last characters of a program's standard error kept for the report


class Forfeit(Exception):
    """An agent lost the round by forfeit: ``code`` says why, ``detail`` in words, and
    ``stderr`` is the end of what the agent's program wrote to its standard error."""

    def __init__(
        self, code: str, detail: str = "", stderr: str = "", template: str | None = None
    ) -> None:
        super().__init__(code, detail, stderr, template)
        self.code = code
        self.detail = detail
        self.stderr = stderr
        self.template = template or f"forfeit_{code}"  # the sentence, when the code has several

    def __str__(self) -> str:
        return render(self.template, detail=self.detail)


@dataclass(frozen=True, slots=True)
class ForfeitRecord:
    """Who forfeited a game, and why (the sentence, and the program's last words)."""

    seat: int
    agent: str
    code: str
    message: str
    stderr: str = ""

    def line(self) -> str:
        """One readable line for the report."""
        return render("forfeit_line", agent=self.agent, seat=self.seat, message=self.message)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return asdict(self)


def forfeit_points(game: Game, seat: int) -> tuple[int, ...]:
    """The points of a round that ``seat`` forfeits, seat by seat (see the module's rules)."""
    rules = game.variant
    value = hand_value(game.hand(seat), rules)
    own = max(value, rules.unopened_penalty) if rules.low_score_wins else -value
    return tuple(own if s == seat else 0 for s in range(game.players))
