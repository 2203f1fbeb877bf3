"""The mistake review: after a round, the learner's decisions where the hard AI disagrees.

Every decision of the learner's seat is replayed on the observation that seat had at that
moment, and the hard agent is asked what it would do. Where it would have chosen
differently, the review says so — with the AI's reason in words and, where the AI weighed
both moves, the cost of the learner's move in the AI's own score (its expected points) —
sorted by cost, largest first:

>>> from rummykit.game import Game
>>> from rummykit.ai import make_agent
>>> game = Game.new("rommi", players=2, seed=3)
>>> easy = make_agent("easy")
>>> while not game.is_over:
...     game.play(easy.decide(game.observation(game.current)).action)
>>> result = review(game, seat=0)
>>> result
Review(seat=0, variant='rommi', decisions=..., mistakes=...)
>>> all(m.cost is None or m.cost >= 0 for m in result.mistakes)
True

It works on a :class:`~rummykit.game.Game`, a saved record (JSON text, a path, or the
parsed data), for any seat and either variant; ``rummykit review FILE`` prints it.
``rummykit.review`` is this module's :func:`review` function; import the classes with
``from rummykit.mistakes import Review, Mistake``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from rummykit.ai import Agent, Candidate, Decision, make_agent
from rummykit.ai.trace import action_cards
from rummykit.display import cards_html
from rummykit.game.actions import Action
from rummykit.game.observation import Observation
from rummykit.game.record import RecordError, load, loads, record_of
from rummykit.messages import render

__all__ = ["Mistake", "Review", "cost_of", "review", "same_action"]


def same_action(a: Action, b: Action) -> bool:
    """Whether two actions are the same move (cards in any order).

    >>> from rummykit.game import PlayMeld
    >>> from rummykit import parse_cards
    >>> same_action(PlayMeld(parse_cards("7♥ 8♥ 9♥")), PlayMeld(parse_cards("9♥ 7♥ 8♥")))
    True
    """
    if type(a) is not type(b):
        return False
    da, db = a.to_dict(), b.to_dict()
    for d in (da, db):
        if isinstance(d.get("cards"), list):
            d["cards"] = sorted(d["cards"])
    return da == db


def _candidate(decision: Decision, action: Action) -> Candidate | None:
    """The AI's scored option for ``action``, if it weighed one."""
    return next((c for c in decision.trace.candidates if same_action(c.action, action)), None)


def _reasons(option: Candidate) -> str:
    """The AI's reasons for one option's score, in one line: its named terms when it has
    them (each with its value in expected points), else its notes."""
    why = getattr(option, "why", None)
    if callable(why):
        return str(why())
    return "; ".join(str(n) for n in option.notes)


def cost_of(decision: Decision, played: Action) -> float | None:
    """What ``played`` costs against the AI's own choice, in the AI's score (its expected
    points), when the AI weighed both moves; ``None`` when it did not score ``played``.

    This, :func:`_candidate` and :func:`_reasons` are the only places that read the AI's
    candidates.
    """
    chosen = _candidate(decision, decision.action)
    mine = _candidate(decision, played)
    if chosen is None or mine is None:
        return None
    return chosen.score - mine.score


@dataclass(frozen=True, repr=False)
class Mistake:
    """One decision where the AI would have chosen differently.

    Its repr is one short line (a notebook shows it, not the whole observation):

    >>> from rummykit.game import Discard, from_position
    >>> from rummykit import Card
    >>> game = from_position("rommi", hands=["9♠ K♦ 2♣", "3♣"], discard="5♥", phase="play")
    >>> decision = make_agent("hard").decide(game.observation(0))
    >>> m = Mistake(7, 0, game.observation(0), Discard(Card("9♠")), decision, 3.24)
    >>> m
    Mistake(move=7, seat=0, played='discard 9♠', suggested=..., cost=3.2)
    >>> repr(m) == repr(Mistake(7, 0, m.observation, m.played, m.decision, 3.2400001))
    True
    """

    number: int  # the action's number in the round's record (from 1)
    seat: int
    observation: Observation
    played: Action
    decision: Decision
    cost: float | None

    @property
    def suggested(self) -> Action:
        """What the AI would have done."""
        return self.decision.action

    @property
    def sentences(self) -> tuple[str, ...]:
        """The mistake in words: what was played, what the AI would do and why, the cost."""
        trace = self.decision.trace
        lines = [
            render(
                "review_mistake",
                number=self.number,
                played=str(self.played),
                suggested=str(self.suggested),
            ),
            render("review_why", why=str(trace.why)),
        ]
        lines += [str(step) for step in trace.steps]
        for code, action in (("review_ai_view", self.suggested), ("review_your_view", self.played)):
            option = _candidate(self.decision, action)
            notes = _reasons(option) if option is not None else ""
            if notes:
                lines.append(render(code, action=str(action), notes=notes))
        if self.cost is None:
            lines.append(render("review_cost_unknown"))
        else:
            lines.append(render("review_cost", cost=f"{self.cost:.1f}"))
        return tuple(lines)

    @property
    def cards(self) -> tuple[Any, ...]:
        """The cards the two moves name (to draw beside the sentences)."""
        return (*action_cards(self.played), *action_cards(self.suggested))

    def __str__(self) -> str:
        return " ".join(self.sentences)

    def __repr__(self) -> str:
        cost = "None" if self.cost is None else f"{self.cost:.1f}"
        return (
            f"Mistake(move={self.number}, seat={self.seat}, played={str(self.played)!r}, "
            f"suggested={str(self.suggested)!r}, cost={cost})"
        )

    def _repr_html_(self) -> str:
        obs = self.observation
        items = "".join(f"<li>{escape(s)}</li>" for s in self.sentences[1:])
        return (
            '<div class="rk-mistake">'
            f"<p><b>{escape(self.sentences[0])}</b></p>"
            f"<div>{escape(render('review_hand'))}</div>{cards_html(obs.hand, self.cards)}"
            f"<ul>{items}</ul></div>"
        )


@dataclass
class Review:
    """A round's mistakes for one seat, sorted by cost (largest first; unscored last), with
    a cursor for "next mistake" navigation."""

    seat: int
    variant: str
    decisions: int
    mistakes: list[Mistake]
    position: int = 0

    def __repr__(self) -> str:
        return (
            f"Review(seat={self.seat}, variant={self.variant!r}, decisions={self.decisions}, "
            f"mistakes={len(self.mistakes)})"
        )

    def __len__(self) -> int:
        return len(self.mistakes)

    def __iter__(self) -> Iterator[Mistake]:
        return iter(self.mistakes)

    @property
    def current(self) -> Mistake | None:
        """The mistake the cursor is on (None when there is none)."""
        return self.mistakes[self.position] if self.mistakes else None

    def next(self) -> Mistake | None:
        """Move to the next mistake (it stays on the last) and return it."""
        self.position = min(self.position + 1, max(0, len(self.mistakes) - 1))
        return self.current

    def previous(self) -> Mistake | None:
        """Move to the previous mistake (it stays on the first) and return it."""
        self.position = max(self.position - 1, 0)
        return self.current

    @property
    def headline(self) -> str:
        """One sentence: how many decisions differ from the AI's."""
        if not self.decisions:
            return render("review_no_decisions", seat=self.seat)
        if not self.mistakes:
            return render("review_none", seat=self.seat, decisions=self.decisions)
        return render(
            "review_headline", seat=self.seat, count=len(self.mistakes), decisions=self.decisions
        )

    def __str__(self) -> str:
        lines = [self.headline]
        for i, mistake in enumerate(self.mistakes, 1):
            lines.append(f"{i}. {mistake.sentences[0]}")
            lines += [f"   {s}" for s in mistake.sentences[1:]]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``rummykit review --json``)."""
        return {
            "seat": self.seat,
            "variant": self.variant,
            "decisions": self.decisions,
            "mistakes": [
                {
                    "number": m.number,
                    "played": m.played.to_dict(),
                    "suggested": m.suggested.to_dict(),
                    "cost": None if m.cost is None else round(m.cost, 3),
                    "sentences": list(m.sentences),
                    "trace": m.decision.trace.to_dict(),
                }
                for m in self.mistakes
            ],
        }

    def _repr_html_(self) -> str:
        parts = [f"<p><b>{escape(self.headline)}</b></p>"]
        parts += [m._repr_html_() for m in self.mistakes]
        return '<div class="rk-review">' + "".join(parts) + "</div>"


def _record(source: Any) -> dict[str, Any]:
    """The record data of a game, JSON text, a path to a saved game, or parsed data."""
    if isinstance(source, dict):
        return source
    if isinstance(source, Path) or (
        isinstance(source, str) and not source.lstrip().startswith("{")
    ):
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(
                render("review_unreadable", path=str(source), error=exc.strerror)
            ) from exc
        return record_of(loads(text))
    if isinstance(source, str):
        return record_of(loads(source))
    if hasattr(source, "actions") and hasattr(source, "setup"):
        return record_of(source)
    raise RecordError(render("review_bad_source", source=type(source).__name__))


def review(source: Any, seat: int = 0, level: str | Agent = "hard") -> Review:
    """Review ``seat``'s decisions in a round against the ``level`` AI (default: hard).

    ``source`` is a :class:`~rummykit.game.Game`, a saved game as JSON text or a path, or
    the parsed record. A bad file raises :class:`~rummykit.game.RecordError`.
    """
    data = _record(source)
    game = load({**data, "actions": []})
    if not 0 <= seat < game.players:
        raise ValueError(render("widget_bad_seat", seat=seat, last=game.players - 1))
    agent = make_agent(level) if isinstance(level, str) else level
    checked = 0
    found: list[Mistake] = []
    for number, item in enumerate(data.get("actions", []), 1):
        who = item["seat"]
        action = Action.from_dict({k: v for k, v in item.items() if k != "seat"})
        if who == seat and game.phase in ("draw", "play"):
            obs = game.observation(seat)
            decision = agent.decide(obs)
            checked += 1
            if not same_action(decision.action, action):
                cost = cost_of(decision, action)
                found.append(Mistake(number, seat, obs, action, decision, cost))
        game.play(action, who)
    found.sort(key=lambda m: (m.cost is None, -(m.cost or 0.0), m.number))
    return Review(seat, game.variant.base or game.variant.name, checked, found)


def review_command(path: str, seat: int = 0, level: str = "hard", as_json: bool = False) -> int:
    """``rummykit review FILE``: print the review; 0 when done, 2 on a bad file or seat."""
    try:
        result = review(path, seat, level)
    except (RecordError, ValueError) as error:
        print(render("cli_error", command="review", message=str(error)), file=sys.stderr)
        return 2
    out = sys.stdout
    if as_json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=1), file=out)
    else:
        print(str(result), file=out)
    return 0
