"""The engine's sentences worded for the learner's own seat: "You drew 8♣", "Your turn: draw
from the stock or the discard pile", "You went out" — in the Table and in the terminal game
alike, with the ``widget_you_…`` templates.

>>> from rummykit.explain import Reason
>>> in_second_person(Reason("score_out", "R7", (), {"seat": 0}), 0).message
'You went out.'
>>> in_second_person(Reason("score_out", "R7", (), {"seat": 1}), 0).message
'Seat 1 went out.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rummykit.explain import Reason
from rummykit.game.facts import Event, TurnStatus
from rummykit.messages import TEMPLATES

__all__ = ["YOU", "event_text", "in_second_person", "status_text"]

YOU = "widget_you_"
"""Templates that word an engine sentence about the learner: ``widget_you_<code>``."""


def in_second_person(reason: Reason, seat: int, names: Sequence[str] = ()) -> Reason:
    """The same reason, worded for the learner when it is about ``seat`` ("You went out").

    A refusal that names the seat to act gets that seat's name (``current_name``).
    """
    code = reason.template or reason.code
    if reason.params.get("seat") != seat or YOU + code not in TEMPLATES:
        return reason
    params = dict(reason.params)
    current = params.get("current")
    if isinstance(current, int) and 0 <= current < len(names):
        params["current_name"] = names[current]
    return replace(reason, template=YOU + code, params=params)


def event_text(event: Event, seat: int) -> str:
    """What happened, in words; the learner's own moves as "You …"."""
    code = event.template
    if event.seat == seat and YOU + code in TEMPLATES:
        return event.words(YOU + code)
    return str(event)


def status_text(status: TurnStatus) -> str:
    """Where the learner's turn stands ("Your turn: …"), with what is still missing."""
    return status.words(YOU, lambda r: in_second_person(r, status.seat).message)
