"""Saved games as versioned JSON — never pickle — validated when loaded: save a game, load it
back, or set a table up by hand for a lesson.

Two forms. A **game record** is the setup (variant, options, players, seed, dealer, cut) and
the actions played; replaying them reproduces every state. A **position** is a table set up
by hand for a lesson (hands, stock, discard pile, melds, whose turn, phase), optionally
followed by actions. The form itself, field by field, is :mod:`rummykit.game.saved`.

>>> from rummykit.game import Game, Draw
>>> game = Game.new("rommi", players=2, seed=5)
>>> game.play(Draw("stock"))
(Event(seat=1, code='draw_stock'),)
>>> text = dumps(game)
>>> again = loads(text)
>>> again.snapshot() == game.snapshot()
True
>>> loads('{"format": "rummykit-game", "version": 99}')
Traceback (most recent call last):
...
rummykit.game.record.RecordError: this file is version 99 of the game format; rummykit reads version 1
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.game.saved import FORMAT_VERSION, Position, RecordError, dumps, record_of, save
from rummykit.game.state import Game
from rummykit.variants import Variant

if TYPE_CHECKING:  # typing_extensions: Unpack for keywords on Python 3.10
    from typing_extensions import Unpack

__all__ = [
    "FORMAT_VERSION",
    "RecordError",
    "dumps",
    "from_position",
    "load",
    "loads",
    "record_of",
    "save",
]


def load(data: object) -> Game:
    """Rebuild a game from record data (as from ``json.load``), replaying its actions.

    Everything is checked before the game is built: an unknown or missing field, a value of
    the wrong type or out of range, and a position that could not happen under the rules
    are each a :class:`RecordError` naming the field; an action the referee refuses on
    replay, too. The caller's data is copied, never kept.
    """
    return Game.from_record(data)


def loads(text: str) -> Game:
    """Read a game record or position from JSON text, validating everything."""
    return Game.load(text)


def from_position(variant: str | Variant = "hungarian", **position: Unpack[Position]) -> Game:
    """A game set up by hand for a lesson — validated like a loaded file.

    ``stock`` (top card last) defaults to every card not placed elsewhere, shuffled with
    ``seed``; ``table`` holds ``(owner, cards)`` or ``(owner, cards, joker_as)``. In
    Hungarian, ``turns`` says how many turns each seat has had (H9 forbids opening on the
    first), and ``opened`` who has opened.

    >>> game = from_position("rommi", hands=["5♥ 6♥ 7♥ K♠", "2♣ 3♣ 9♦"], discard="8♥")
    >>> game.current, game.phase, game.stock_size
    (0, 'draw', 44)
    """
    return Game.from_position(variant, **position)
