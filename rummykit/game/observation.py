"""What one seat may know: its own hand and everything public — nothing hidden.

Agents and widgets for a seat see only an :class:`Observation`. Two games that differ only
in cards the seat cannot see (other hands, the order of the stock) give equal observations.

>>> from rummykit.game import Game
>>> game = Game.new("rommi", players=2, seed=3)
>>> obs = game.observation(0)
>>> len(obs.hand), obs.hand_sizes, obs.stock_size, obs.legal_actions
(7, (7, 7), 37, ())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from rummykit.cards import Card
from rummykit.game.actions import Action
from rummykit.game.facts import Event, Phase, TableMeld, TurnInfo, TurnStatus
from rummykit.variants import Variant

__all__ = ["Observation", "observe"]


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a game, at one moment."""

    seat: int
    variant: Variant
    players: int
    dealer: int
    phase: Phase
    current: int
    hand: tuple[Card, ...]
    table: tuple[TableMeld, ...]
    discard_pile: tuple[Card, ...]
    cut_card: Card | None
    hand_sizes: tuple[int, ...]
    stock_size: int
    opened: tuple[bool, ...]
    turns: tuple[int, ...]
    scores: tuple[int, ...]
    history: tuple[Event, ...]
    legal_actions: tuple[Action, ...]
    status: TurnStatus | None
    turn: TurnInfo

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to act."""
        return self.current == self.seat and self.phase != "over"

    @property
    def discard_top(self) -> Card | None:
        """The visible card of the discard pile."""
        return self.discard_pile[-1] if self.discard_pile else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "seat": self.seat,
            "variant": self.variant.name,
            "players": self.players,
            "dealer": self.dealer,
            "phase": self.phase,
            "current": self.current,
            "hand": [str(c) for c in self.hand],
            "table": [tm.to_dict() for tm in self.table],
            "discard_pile": [str(c) for c in self.discard_pile],
            "cut_card": str(self.cut_card) if self.cut_card else None,
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "opened": list(self.opened),
            "turns": list(self.turns),
            "scores": list(self.scores),
            "history": [e.to_dict() for e in self.history],
            "legal_actions": [a.to_dict() for a in self.legal_actions],
            "status": str(self.status) if self.status else None,
        }


def observe(game: Observable, seat: int) -> Observation:
    """``seat``'s observation of ``game`` (the same as ``game.observation(seat)``)."""
    return game.observation(seat)


class Observable(Protocol):
    """A game a seat can observe (:class:`~rummykit.game.state.Game`)."""

    def observation(self, seat: int) -> Observation: ...
