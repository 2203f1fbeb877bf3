"""What everyone at the table sees of a round, as data: the melds laid down, what happened,
and the turn in progress with what it still needs.

These are the values a :class:`~rummykit.game.state.Game` hands out (``game.table``,
``game.events``, ``game.turn_info()``, ``game.turn_status()``); they are read-only, so a
seat's observation that holds them can't change the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from rummykit.cards import Card, CardParseError, parse_card
from rummykit.explain import Reason
from rummykit.melds import Meld
from rummykit.messages import TEMPLATES, join, render

__all__ = ["DiscardOnly", "Drew", "Event", "Phase", "TableMeld", "TurnInfo", "TurnStatus"]

Phase = Literal["cut", "draw", "play", "over"]
"""Where a round stands: the cut (H3), the draw, the play after it, or the round is over."""

Drew = Literal["stock", "discard", "cut_card", "start"]
"""Where this turn's card came from; ``"start"``: the starter's first turn, no draw (H3)."""

DiscardOnly = Literal["start", "first_turn"]
"""Why a turn may only discard: the starter's extra card (H3), or the first turn (H9)."""


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table and the seat that laid it down."""

    owner: int
    meld: Meld

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: owner, kind, cards, and what each card stands for."""
        return {
            "owner": self.owner,
            "kind": self.meld.kind,
            "cards": [str(c) for c in self.meld.cards],
            "represents": [str(c) if c else None for c in self.meld.represents],
            "start": self.meld.start,
        }


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as every seat saw it (hidden cards left out).

    An event is read-only all the way down — its ``params`` are a read-only mapping of
    plain values and tuples — so a seat's observation that holds it can't rewrite the public
    history another seat sees.

    >>> event = Event(0, "meld", {"cards": ["5♥", "6♥", "7♥"], "index": 0})
    >>> event.params["cards"]
    ('5♥', '6♥', '7♥')
    >>> event.params["index"] = 3
    Traceback (most recent call last):
    ...
    TypeError: 'mappingproxy' object does not support item assignment
    """

    seat: int
    code: str
    params: Mapping[str, Any] = field(default_factory=dict, compare=True, hash=False)

    def __post_init__(self) -> None:
        frozen = {k: tuple(v) if isinstance(v, list) else v for k, v in self.params.items()}
        object.__setattr__(self, "params", MappingProxyType(frozen))

    def __deepcopy__(self, memo: object) -> Event:
        return self  # read-only all the way down: a copy would be the same

    def __repr__(self) -> str:
        if not self.params:
            return f"Event(seat={self.seat}, code={self.code!r})"
        return f"Event(seat={self.seat}, code={self.code!r}, params={dict(self.params)!r})"

    def __reduce__(self) -> tuple[type[Event], tuple[int, str, dict[str, Any]]]:
        return (Event, (self.seat, self.code, dict(self.params)))

    def __str__(self) -> str:
        return self.words()

    def words(self, template: str | None = None) -> str:
        """The event as a sentence: its own template, or ``template`` filled with the same
        parameters (a view's "You laid down …"). Melds get ``number``, counted from 1."""
        params = {"seat": self.seat, **{k: _as_cards(k, v) for k, v in self.params.items()}}
        if isinstance(params.get("index"), int):  # people count melds from 1
            params["number"] = params["index"] + 1
        if params.get("joker_as"):  # what a laid-off joker stands for
            params["stands_for"] = join(
                [render("the_card", card=c) for c in params["joker_as"]], "and"
            )
        return render(template or self.template, params)

    @property
    def template(self) -> str:
        """The code of this event's sentence (``event_layoff_joker`` names the joker's card).

        >>> Event(0, "layoff", {"cards": ["🃏"], "index": 1, "joker_as": ["6♠"]}).template
        'event_layoff_joker'
        >>> str(Event(0, "layoff", {"cards": ["🃏"], "index": 1, "joker_as": ["6♠"]}))
        'Seat 0 laid off 🃏 onto meld 2, the joker as the 6♠.'
        """
        jokers = self.params.get("joker_as") or ()
        return f"event_{self.code}" + (
            "" if not jokers else "_joker" if len(jokers) == 1 else "_jokers"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        params = {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()}
        return {"seat": self.seat, "code": self.code, "params": params}


_CARD_PARAMS = frozenset({"card", "cards", "joker_as"})


def _as_cards(key: str, value: Any) -> Any:
    """A card parameter, kept as English text (saved records stay stable), read back as
    cards for the sentence, so that they are written in the language's own rank letters.

    >>> _as_cards("cards", ("Q♠", "Q♥")), _as_cards("card", "🃏"), _as_cards("index", 2)
    ((Card('Q♠'), Card('Q♥')), Card('🃏'), 2)
    """
    if key not in _CARD_PARAMS:
        return value
    try:
        if isinstance(value, str):
            return parse_card(value)
        if isinstance(value, tuple):
            return tuple(parse_card(v) if isinstance(v, str) else v for v in value)
    except CardParseError:  # not a card after all: said as it is
        pass
    return value


@dataclass(frozen=True, slots=True)
class TurnStatus:
    """Where the player to act stands in the current turn, in data and in words."""

    seat: int
    phase: Phase
    opened: bool
    meld_points: int
    threshold: int
    obligations: tuple[Reason, ...]
    can_end_turn: bool
    can_take_cut: bool = False
    discard_only: DiscardOnly | None = None  # why only a discard is allowed

    @property
    def code(self) -> str:
        """The template of the status line: what the player to act may do now."""
        if self.phase == "draw" and self.can_take_cut:
            return "status_draw_cut"
        if self.phase == "play" and self.discard_only:
            return f"status_play_{self.discard_only}"
        return f"status_{self.phase}"

    def __str__(self) -> str:
        return self.words()

    def words(self, prefix: str = "", reason: Callable[[Reason], str] = lambda r: r.message) -> str:
        """The status in words; a view may word it its own way: ``prefix + code`` where
        such a template exists (the table's "Your turn: …"), and each obligation by
        ``reason``."""
        code = prefix + self.code if prefix + self.code in TEMPLATES else self.code
        parts = [render(code, seat=self.seat)]
        short = any(r.code == "turn_opening_short" for r in self.obligations)
        if (
            self.threshold
            and not self.opened
            and self.phase == "play"
            and not short
            and not self.discard_only
        ):
            parts.append(
                render("status_opening", points=self.meld_points, threshold=self.threshold)
            )
        parts.extend(reason(r) for r in self.obligations)
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """The public facts of the turn in progress (everyone at the table sees them)."""

    seat: int
    drew: Drew | None
    taken: Card | None  # a discard-pile card that must be played this turn (H7)
    cut_taken: Card | None
    meld_points: int
    new_melds: tuple[int, ...]
    laid_off: bool
    exchanged: int
    provisional: int  # moves that Undo can take back
