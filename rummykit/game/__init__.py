"""The referee: games of Hungarian Rummy and Rommi, with every refusal explained."""

from rummykit.game.actions import (
    Action,
    ActionParseError,
    Cut,
    Discard,
    Draw,
    ExchangeJoker,
    LayOff,
    PlayMeld,
    ReturnCutCard,
    Undo,
    parse_action,
)
from rummykit.game.match import Match, Standing
from rummykit.game.observation import Observation
from rummykit.game.record import RecordError, from_position
from rummykit.game.state import Event, Game, IllegalAction, RoundResult, TableMeld, TurnStatus

__all__ = [
    "Action",
    "ActionParseError",
    "Cut",
    "Discard",
    "Draw",
    "Event",
    "ExchangeJoker",
    "Game",
    "IllegalAction",
    "LayOff",
    "Match",
    "Observation",
    "PlayMeld",
    "RecordError",
    "ReturnCutCard",
    "RoundResult",
    "Standing",
    "TableMeld",
    "TurnStatus",
    "Undo",
    "from_position",
    "parse_action",
]
