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
    "PlayMeld",
    "ReturnCutCard",
    "RoundResult",
    "TableMeld",
    "TurnStatus",
    "Undo",
    "parse_action",
]
