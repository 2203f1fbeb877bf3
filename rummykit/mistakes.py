"""The mistake review: after a round, the learner's decisions that a computer player would
have made differently, each with its cost in that player's expected points and one plain
sentence of what the better move keeps, gains or avoids.

The round is replayed turn by turn. At each of the learner's turns three decisions are
weighed, each against the computer player (``level``, hard by default) in the learner's
own position:

- the **draw**: the learner's draw and the computer's are both options it scores;
- the **play** (melds, lay-offs, joker exchanges, or keeping melds in hand): the computer
  plays the learner's turn from the same draw; if it ends the turn with the same hand — the
  same moves, in any order — there is nothing to say, otherwise the cost is what its own
  turn is worth less what the learner's turn is worth, both by its score of the best
  discard after them (going out by what going out is worth);
- the **discard**: every legal discard scored as the computer scores them.

A decision is listed when it cost at least :data:`MIN_COST` expected points: a tie, or the
same moves in another order, is never a mistake. The terms of the computer's score that
are its own rules and habits (a draw it never makes, throwing back the card just taken)
rule a move out for it but are worth nothing to the learner, so they are left out of the
cost.

>>> from rummykit.game import Game
>>> from rummykit.ai import make_agent
>>> game = Game.new("rommi", players=2, seed=3)
>>> easy = make_agent("easy")
>>> while not game.is_over:
...     _ = game.play(easy.decide(game.observation(game.current)).action)
>>> result = review(game, seat=0)
>>> result
Review(seat=0, variant='rommi', level='hard', decisions=..., mistakes=...)
>>> all(m.cost >= MIN_COST for m in result.mistakes)
True

It works on a :class:`~rummykit.game.Game`, a saved record (JSON text, a path, or the
parsed data), for any seat and either variant; ``rummykit review FILE`` prints it (the
three costliest mistakes; ``--all`` every one, ``--detail`` the computer's whole
reasoning). ``rummykit.review`` is this module's :func:`review` function; import the
classes with ``from rummykit.mistakes import Review, Mistake``.
"""

from __future__ import annotations

import copy
import json
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from rummykit.ai import Agent, Candidate, Decision, make_agent
from rummykit.ai.planning import Outlook
from rummykit.ai.trace import Note, action_cards, agent_name
from rummykit.cards import Card
from rummykit.display import cards_html
from rummykit.errors import RummykitError
from rummykit.game import Game
from rummykit.game.actions import Action, Discard, Draw, LayOff, PlayMeld
from rummykit.game.observation import Observation
from rummykit.game.record import RecordError, load, loads, record_of
from rummykit.messages import join, render

__all__ = ["LISTED", "MIN_COST", "Mistake", "Review", "cost_of", "review", "same_action"]

MIN_COST = 0.5
"""Expected points a decision must cost to be listed: less is within the computer's own
rounding and sampling, not a lesson."""

LISTED = 3
"""Mistakes a review shows by default (the costliest)."""

RULES = frozenset({"ruled_out", "habit", "just_taken"})
"""Names of score terms that are a level's rules or habits: they rule a move out for it,
they are not worth anything to the learner."""

NAMED = 3
"""Cards a reason names before it says how many more there are."""


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


def worth(option: Candidate) -> float:
    """An option's score without the terms that are the level's rules or habits."""
    if not option.terms:
        return option.score
    return sum(t.value for t in option.terms if t.name not in RULES)


def _candidate(decision: Decision, action: Action) -> Candidate | None:
    """The AI's scored option for ``action``, if it weighed one."""
    return next((c for c in decision.trace.candidates if same_action(c.action, action)), None)


def cost_of(decision: Decision, played: Action) -> float | None:
    """What ``played`` costs against the AI's own choice, in the AI's score (its expected
    points, its rules and habits left out), when the AI weighed both moves; ``None`` when it
    did not score ``played``."""
    chosen = _candidate(decision, decision.action)
    mine = _candidate(decision, played)
    if chosen is None or mine is None:
        return None
    return worth(chosen) - worth(mine)


@dataclass(frozen=True, repr=False)
class Mistake:
    """One decision the computer player would have made differently, and what it cost.

    ``kind`` is ``"draw"``, ``"play"`` (the melds, lay-offs and exchanges of a turn) or
    ``"discard"``; ``reason`` is the plain sentence; ``decision`` is the computer's decision
    at that moment, whose trace is the whole reasoning (:attr:`detail`). For a play,
    ``yours`` and ``theirs`` are the two turns' moves.

    Its repr is one short line (a notebook shows it, not the whole observation):

    >>> from rummykit.game import Discard, from_position
    >>> from rummykit import Card
    >>> game = from_position("rommi", hands=["9♠ K♦ 2♣", "3♣"], discard="5♥", phase="play")
    >>> decision = make_agent("hard").decide(game.observation(0))
    >>> m = Mistake(7, 0, "discard", game.observation(0), Discard(Card("9♠")), decision, 3.24,
    ...             Note("review_reason_score", {"theirs": "discard K♦", "yours": "discard 9♠"}))
    >>> m
    Mistake(move=7, seat=0, kind='discard', played='discard 9♠', suggested=..., cost=3.2)
    """

    number: int  # the move's number in the round's record (from 1)
    seat: int
    kind: str
    observation: Observation
    played: Action
    decision: Decision
    cost: float
    reason: Note
    level: str = "hard"
    yours: tuple[Action, ...] = ()
    theirs: tuple[Action, ...] = ()

    @property
    def suggested(self) -> Action:
        """What the computer player would have done."""
        return self.theirs[0] if self.theirs else self.decision.action

    @property
    def sentence(self) -> str:
        """The mistake in one line: the move, the better one, why, and the cost. For a play,
        the moves of the two turns that differ."""
        code = "review_line"
        if self.kind == "play":
            yours = [a for a in self.yours if not any(same_action(a, b) for b in self.theirs)]
            theirs = [a for a in self.theirs if not any(same_action(a, b) for b in self.yours)]
            played, suggested = (
                join([str(a) for a in yours], "and"),
                join([str(a) for a in theirs], "and"),
            )
            if not yours:
                code = "review_line_nothing"
            elif not theirs:
                code = "review_line_kept"
        else:
            played, suggested = str(self.played), str(self.suggested)
        return render(
            code,
            number=self.number,
            played=played,
            suggested=suggested,
            level=agent_name(self.level),
            reason=str(self.reason),
            cost=f"{self.cost:.1f}",
        )

    @property
    def detail(self) -> tuple[str, ...]:
        """The computer player's whole reasoning at that moment."""
        return tuple(self.decision.trace.lines())

    @property
    def sentences(self) -> tuple[str, ...]:
        """The sentence, then the reasoning behind it."""
        return (self.sentence, *self.detail)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards the two moves name (to draw beside the sentence)."""
        moves = (*(self.yours or (self.played,)), *(self.theirs or (self.suggested,)))
        return tuple(c for a in moves for c in action_cards(a))

    def __str__(self) -> str:
        return self.sentence

    def __repr__(self) -> str:
        return (
            f"Mistake(move={self.number}, seat={self.seat}, kind={self.kind!r}, "
            f"played={str(self.played)!r}, suggested={str(self.suggested)!r}, "
            f"cost={self.cost:.1f})"
        )

    def _repr_html_(self) -> str:
        obs = self.observation
        return (
            '<div class="rk-mistake">'
            f"<p>{escape(self.sentence)}</p>"
            f"<div>{escape(render('review_hand'))}</div>{cards_html(obs.hand, self.cards)}"
            f"<details><summary>{escape(render('review_why_more'))}</summary>"
            f"{self.decision.trace._repr_html_()}</details></div>"
        )


@dataclass
class Review:
    """A round's mistakes for one seat, costliest first, with a cursor for "next mistake"
    navigation. ``str()`` is the summary and the :data:`LISTED` costliest;
    :meth:`text` says more on request."""

    seat: int
    variant: str
    decisions: int
    mistakes: list[Mistake]
    position: int = 0
    level: str = "hard"
    language: str | None = field(default=None, repr=False)
    weighed: list[tuple[int, str]] = field(default_factory=list, repr=False)
    """Every decision weighed, mistake or not: its action number and kind (the class
    report counts each)."""

    def __repr__(self) -> str:
        return (
            f"Review(seat={self.seat}, variant={self.variant!r}, level={self.level!r}, "
            f"decisions={self.decisions}, mistakes={len(self.mistakes)})"
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
    def total_cost(self) -> float:
        """What the listed decisions cost together, in the computer's expected points."""
        return sum(m.cost for m in self.mistakes)

    @property
    def headline(self) -> str:
        """One sentence: how many decisions were weighed, how many cost something."""
        level = agent_name(self.level)
        if not self.decisions:
            return render("review_no_decisions", seat=self.seat)
        if not self.mistakes:
            return render("review_none", decisions=self.decisions, level=level)
        code = "review_headline_one" if len(self.mistakes) == 1 else "review_headline"
        return render(
            code,
            decisions=self.decisions,
            count=len(self.mistakes),
            level=level,
            cost=f"{self.total_cost:.1f}",
        )

    def text(self, *, every: bool = False, detail: bool = False) -> str:
        """The review as text: the headline and the costliest mistakes (every one with
        ``every``), each with the computer's whole reasoning below it with ``detail``."""
        lines = [self.headline]
        shown = self.mistakes if every else self.mistakes[:LISTED]
        if len(self.mistakes) > 1 and not every:
            lines[0] += " " + render("review_costliest", shown=len(shown))
        for i, mistake in enumerate(shown, 1):
            lines.append(f"{i}. {mistake.sentence}")
            if detail:
                lines += [f"     {line}" for line in mistake.detail]
        if not every and len(self.mistakes) > LISTED:
            lines.append(render("review_more", count=len(self.mistakes) - LISTED))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``rummykit review --json``): every mistake, with its trace."""
        return {
            "seat": self.seat,
            "variant": self.variant,
            "level": self.level,
            "decisions": self.decisions,
            "headline": self.headline,
            "mistakes": [
                {
                    "number": m.number,
                    "kind": m.kind,
                    "played": [a.to_dict() for a in (m.yours or (m.played,))],
                    "suggested": [a.to_dict() for a in (m.theirs or (m.suggested,))],
                    "cost": round(m.cost, 3),
                    "reason": m.reason.to_dict(),
                    "sentence": m.sentence,
                    "trace": m.decision.trace.to_dict(),
                }
                for m in self.mistakes
            ],
        }

    def _repr_html_(self) -> str:
        parts = [f"<p><b>{escape(self.headline)}</b></p>"]
        parts += [m._repr_html_() for m in self.mistakes[:LISTED]]
        if len(self.mistakes) > LISTED:
            rest = "".join(m._repr_html_() for m in self.mistakes[LISTED:])
            more = escape(render("review_more", count=len(self.mistakes) - LISTED))
            parts.append(f"<details><summary>{more}</summary>{rest}</details>")
        return '<div class="rk-review">' + "".join(parts) + "</div>"


# --- reading the round -------------------------------------------------------------------


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
    """Review ``seat``'s decisions in a round against the ``level`` computer player.

    ``source`` is a :class:`~rummykit.game.Game`, a saved game as JSON text or a path, or
    the parsed record. A bad file raises :class:`~rummykit.game.RecordError`.
    """
    data = _record(source)
    game = load({**data, "actions": []})
    if not 0 <= seat < game.players:
        raise RummykitError(render("bad_seat", seat=seat, last=game.players - 1), field="seat")
    agent = make_agent(level) if isinstance(level, str) else level
    actions = [
        (number, item["seat"], Action.from_dict({k: v for k, v in item.items() if k != "seat"}))
        for number, item in enumerate(data.get("actions", []), 1)
    ]
    reviewer = _Reviewer(game, seat, agent)
    reviewer.run(actions)
    found = sorted(reviewer.found, key=lambda m: (-m.cost, m.number))
    name = agent.name
    variant_name = game.variant.base or game.variant.name
    return Review(
        seat, variant_name, reviewer.checked, found, 0, name, weighed=list(reviewer.weighed)
    )


class _Reviewer:
    """Replays a round and weighs one seat's draws, plays and discards."""

    def __init__(self, game: Game, seat: int, agent: Agent) -> None:
        self.game = game
        self.seat = seat
        self.agent = agent
        self.checked = 0
        self.weighed: list[tuple[int, str]] = []  # (action number, kind) of each decision
        self.found: list[Mistake] = []

    def run(self, actions: Sequence[tuple[int, int, Action]]) -> None:
        i = 0
        while i < len(actions):
            number, who, action = actions[i]
            game = self.game
            if who != self.seat or game.phase not in ("draw", "play"):
                game.play(action, who)
                i += 1
            elif game.phase == "draw":
                self._draw(number, action)
                game.play(action, who)
                i += 1
            else:
                i = self._turn(actions, i)

    def _add(self, mistake: Mistake | None) -> None:
        if mistake is not None and mistake.cost >= MIN_COST:
            self.found.append(mistake)

    # --- the draw ----------------------------------------------------------------------

    def _draw(self, number: int, action: Action) -> None:
        obs = self.game.observation(self.seat)
        self._weigh(number, "draw", obs, self.agent.decide(obs), action)

    def _weigh(
        self, number: int, kind: str, obs: Observation, decision: Decision | None, action: Action
    ) -> None:
        """One draw or discard of the learner's against the computer's ``decision``."""
        self.checked += 1
        self.weighed.append((number, kind))
        if decision is None or same_action(decision.action, action):
            return
        cost = cost_of(decision, action)
        if cost is None:
            return
        why = _draw_reason if kind == "draw" else _discard_reason
        reason = why(obs, decision, action)
        self._add(
            Mistake(number, self.seat, kind, obs, action, decision, cost, reason, self.agent.name)
        )

    # --- the play and the discard -----------------------------------------------------

    def _turn(self, actions: Sequence[tuple[int, int, Action]], i: int) -> int:
        """Weigh the learner's play from ``actions[i]`` on and its discard; the index of the
        first action after them."""
        game, seat = self.game, self.seat
        start = copy.deepcopy(game)
        first = actions[i][0]
        yours: list[Action] = []
        while i < len(actions) and actions[i][1] == seat and game.phase == "play":
            action = actions[i][2]
            if isinstance(action, Discard):
                break
            game.play(action, seat)
            yours.append(action)
            i += 1
        if game.phase == "draw" and game.current == seat:  # a take undone, a cut card given back
            return i
        self.checked += 1
        at_discard = not game.is_over and i < len(actions) and actions[i][1] == seat
        out = (game.is_over and game.result is not None and game.result.winner == seat) or (
            at_discard and len(game.hand(seat)) == 1  # the last card goes by the discard
        )
        final = (
            actions[i] if at_discard else (first, seat, yours[-1] if yours else actions[i - 1][2])
        )
        number = final[0] if not yours else first
        self.weighed.append((number, "play"))
        self._play(start, number, yours, out, final[2])
        if at_discard:
            number, _, action = actions[i]
            self._discard(number, action)
            game.play(action, seat)
            i += 1
        return i

    def _play(self, start: Game, number: int, yours: list[Action], out: bool, last: Action) -> None:
        """The learner's play (``yours``, from the position ``start``) against the
        computer's from the same position."""
        seat, agent = self.seat, self.agent
        sim = copy.deepcopy(start)
        theirs: list[Action] = []
        steps: list[Note] = []
        first: Decision | None = None
        for _ in range(60):
            if sim.is_over or sim.current != seat or sim.phase != "play":
                break
            decision = agent.decide(sim.observation(seat))
            first = first or decision
            steps += decision.trace.steps
            if isinstance(decision.action, Discard):
                if len(sim.hand(seat)) == 1:  # its last card: it goes out
                    theirs.append(decision.action)
                    sim.play(decision.action, seat)
                break
            sim.play(decision.action, seat)
            theirs.append(decision.action)
        if sim.phase == "draw" and not sim.is_over:
            return  # it would take its draw back: no play to compare
        ai_out = sim.is_over and sim.result is not None and sim.result.winner == seat
        if ai_out == out and (out or Counter(sim.hand(seat)) == Counter(self.game.hand(seat))):
            return  # the same hand: the same moves, in any order
        if out:
            return  # the learner went out and the computer would not: no mistake
        obs = self.game.observation(seat)
        mine = _value(agent, obs)
        ai_obs = sim.observation(seat)
        if ai_out:
            theirs_value = _out_value(agent, start.observation(seat))
        else:
            theirs_value = _value(agent, ai_obs)
            if obs.variant.opening_threshold and ai_obs.opened[seat] and not obs.opened[seat]:
                opened = _opened_value(agent, obs)
                if opened is None or mine is None:
                    return
                # the learner's chances to open count only if the round goes on
                theirs_value, mine = opened, mine * (1.0 - _end_chance(agent, obs))
            elif obs.variant.opening_threshold and obs.opened[seat] and not ai_obs.opened[seat]:
                return  # the learner opened and the computer would not: units differ
        if mine is None or theirs_value is None or first is None:
            return
        reason = _play_reason(start, sim, self.game, seat, theirs, yours, ai_out, steps)
        played = yours[0] if yours else last
        self._add(
            Mistake(
                number,
                seat,
                "play",
                start.observation(seat),
                played,
                first,
                theirs_value - mine,
                reason,
                agent.name,
                tuple(yours),
                tuple(theirs) if theirs or not ai_out else (first.action,),
            )
        )

    def _discard(self, number: int, action: Action) -> None:
        obs = self.game.observation(self.seat)
        weigh = getattr(self.agent, "weigh_discards", None)
        self._weigh(
            number,
            "discard",
            obs,
            weigh(obs) if callable(weigh) else self.agent.decide(obs),
            action,
        )


def _value(agent: Agent, obs: Observation) -> float | None:
    """What a position at its discard is worth to the computer: its best discard's score."""
    weigh = getattr(agent, "weigh_discards", None)
    if not callable(weigh):
        return None
    decision = weigh(obs)
    if decision is None:
        return None
    return max(worth(c) for c in decision.trace.candidates)


def _out_value(agent: Agent, obs: Observation) -> float | None:
    value = getattr(agent, "out_value", None)
    return float(value(obs)) if callable(value) else None


def _end_chance(agent: Agent, obs: Observation) -> float:
    value = getattr(agent, "round_end_chance", None)
    return float(value(obs)) if callable(value) else 0.0


def _opened_value(agent: Agent, obs: Observation) -> float | None:
    value = getattr(agent, "opened_value", None)
    return value(obs) if callable(value) else None


# --- the reasons, in plain words -------------------------------------------------------------


def _cards(cards: Sequence[Card]) -> str:
    """Up to :data:`NAMED` cards by name, then how many more."""
    names = sorted(set(cards), key=Card.sort_key)
    if len(names) <= NAMED + 1:
        return join([str(c) for c in names], "or")
    return render("review_cards_more", cards=names[:NAMED], count=len(names) - NAMED)


def _term(option: Candidate | None, *names: str) -> Note | None:
    if option is None:
        return None
    return next((t.note for t in option.terms if t.name in names), None)


def _number(note: Note | None, key: str = "value") -> float | None:
    if note is None or key not in note.params:
        return None
    try:
        return float(str(note.params[key]))
    except ValueError:
        return None


def _draw_reason(obs: Observation, decision: Decision, played: Action) -> Note:
    """Why the computer's draw is better than the learner's, in cards and points."""
    mine, theirs = _candidate(decision, played), _candidate(decision, decision.action)
    top = obs.discard_top
    out = _term(theirs, "deadwood_after")
    if out is not None and out.code == "ai_term_draw_out":
        return Note("review_reason_draw_out", {"card": out.params["card"]})
    gain = _term(theirs, "opening_gain") or _term(mine, "opening_gain")
    if gain is not None and "after" in gain.params:
        before, after = gain.params["before"], gain.params["after"]
        if decision.action == Draw("discard") and after > before:
            return Note("review_reason_take_opening", dict(gain.params))
        if decision.action == Draw("stock") and after <= before:
            return Note("review_reason_leave_opening", dict(gain.params))
        return _score_reason(decision, played)
    take = _term(theirs if decision.action == Draw("discard") else mine, "deadwood_after")
    stock = _term(
        mine if decision.action == Draw("discard") else theirs, "next_draw", "deadwood_now"
    )
    if top is not None and take is not None and stock is not None and "value" in take.params:
        params = {"card": top, "take": take.params["value"], "stock": stock.params["value"]}
        if decision.action == Draw("discard"):
            return Note("review_reason_take", params)
        return Note("review_reason_stock", params)
    return _score_reason(decision, played)


def _discard_reason(obs: Observation, decision: Decision, played: Action) -> Note:
    """Why throwing the computer's card is better than the learner's, in cards and points:
    by the term of the score where the two differ most."""
    mine, theirs = _candidate(decision, played), _candidate(decision, decision.action)
    assert mine is not None and theirs is not None
    assert isinstance(played, Discard) and isinstance(decision.action, Discard)
    yours, better = played.card, decision.action.card
    gap: dict[str, float] = {}
    for sign, option in ((1.0, theirs), (-1.0, mine)):
        for t in option.terms:
            if t.name not in RULES:
                gap[t.name] = gap.get(t.name, 0.0) + sign * t.value
    look = Outlook(obs)
    hand = list(obs.hand)
    rest_mine, rest_theirs = list(hand), list(hand)
    rest_mine.remove(yours)
    rest_theirs.remove(better)
    for name, value in sorted(gap.items(), key=lambda kv: -kv[1]):
        if value <= 0:
            break
        if name == "joker":
            return Note("review_reason_joker", {"card": yours})
        if name in ("threat", "feed"):
            note = _term(mine, name)
            if note is not None and f"review_reason_{note.code}" in _REASONS:
                return Note(f"review_reason_{note.code}", {**note.params, "card": yours})
        if name == "lowest_hand":
            a, b = _number(_term(theirs, name), "chance"), _number(_term(mine, name), "chance")
            if a is not None and b is not None and a > b:
                return Note(
                    "review_reason_lowest",
                    {"card": better, "yours": yours, "a": f"{a:.0f}", "b": f"{b:.0f}"},
                )
        if name in ("open_chance", "opening_points"):
            a, b = (
                _number(_term(theirs, "open_chance"), "count"),
                _number(_term(mine, "open_chance"), "count"),
            )
            if a is not None and b is not None and a > b:
                return Note(
                    "review_reason_opening",
                    {"card": better, "yours": yours, "a": int(a), "b": int(b)},
                )
        if name in ("later_draws", "go_out", "later_out", "outs", "next_draw"):
            kept = Counter(look.melders(rest_theirs)) - Counter(look.melders(rest_mine))
            if kept:
                cards = list(kept.elements())
                return Note(
                    "review_reason_waits",
                    {"card": yours, "cards": _cards(cards), "count": len(cards)},
                )
        if name in ("deadwood_after", "deadwood_now", "round_ends", "next_draw", "card_value"):
            a, b = look.deadwood(rest_theirs), look.deadwood(rest_mine)
            if a < b:
                return Note(
                    "review_reason_deadwood", {"card": better, "yours": yours, "a": a, "b": b}
                )
    return _score_reason(decision, played)


def _score_reason(decision: Decision, played: Action) -> Note:
    """The last resort: the two scores, when no term says more plainly why."""
    mine, theirs = _candidate(decision, played), _candidate(decision, decision.action)
    a = worth(theirs) if theirs is not None else decision.trace.candidates[0].score
    b = worth(mine) if mine is not None else a
    return Note(
        "review_reason_score",
        {"theirs": str(decision.action), "yours": str(played), "a": f"{a:.1f}", "b": f"{b:.1f}"},
    )


def _play_reason(
    start: Game,
    sim: Game,
    played: Game,
    seat: int,
    theirs: list[Action],
    yours: list[Action],
    ai_out: bool,
    steps: list[Note],
) -> Note:
    """Why the computer's play of the turn is better than the learner's."""
    if ai_out:
        return Note("review_reason_go_out", {})
    v = start.variant
    begin = Counter(start.hand(seat))
    placed_theirs = begin - Counter(sim.hand(seat))
    placed_yours = begin - Counter(played.hand(seat))
    obs, ai_obs = played.observation(seat), sim.observation(seat)
    if v.opening_threshold and ai_obs.opened[seat] and not obs.opened[seat]:
        melds = [a for a in theirs if isinstance(a, PlayMeld)]
        cards = [c for a in melds for c in a.cards]
        return Note(
            "review_reason_open",
            {"cards": cards, "points": ai_obs.turn.meld_points, "threshold": v.opening_threshold},
        )
    held = any(n.code.startswith("ai_hold_melds") for n in steps)
    extra = placed_yours - placed_theirs
    if held and extra:
        return Note("review_reason_hold", {"cards": sorted(extra.elements(), key=Card.sort_key)})
    more = placed_theirs - placed_yours
    a = sum(v.card_value(c) for c in sim.hand(seat))
    b = sum(v.card_value(c) for c in played.hand(seat))
    if more and not extra and a < b:
        lays = all(isinstance(m, LayOff) for m in theirs)
        cards = sorted(more.elements(), key=Card.sort_key)
        return Note(
            f"review_reason_{'layoff' if lays else 'meld'}", {"cards": cards, "a": a, "b": b}
        )
    if a < b:
        return Note("review_reason_other", {"a": a, "b": b})
    return Note("review_reason_other_score", {})


_REASONS = frozenset(
    {
        "review_reason_ai_term_threat",
        "review_reason_ai_term_threat_opening",
        "review_reason_ai_term_feed_took",
        "review_reason_ai_term_feed_layoff",
        "review_reason_ai_term_feed_joker",
    }
)


def review_command(
    path: str,
    seat: int = 0,
    level: str = "hard",
    as_json: bool = False,
    *,
    every: bool = False,
    detail: bool = False,
) -> int:
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
        print(result.text(every=every, detail=detail), file=out)
    return 0
