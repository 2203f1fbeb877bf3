"""The card table: play a hand against computer opponents in a notebook.

>>> from rummykit.widgets import Table
>>> table = Table("rommi", players=2, ai="easy", seed=3, ai_delay=0)
>>> table
Table('rommi', players=2, seat=0, ai=['easy'], seed=3)

Everything the table decides, the referee decides: a click becomes an action, the engine
plays it or refuses it with a Verdict, and the view shows that Verdict. The front end sends
small messages (``{"type": "draw"}``, ``{"type": "discard", "index": 3}``, …); tests and
scripts can send the same messages with :meth:`Table.handle`.
"""

from __future__ import annotations

import pathlib
from typing import Any

import anywidget
import traitlets

from rummykit import display
from rummykit.ai import Agent, make_agent
from rummykit.ai.hint import hint
from rummykit.cards import Card, parse_card
from rummykit.explain import Reason, Verdict
from rummykit.game import Game, IllegalAction, Match
from rummykit.game.actions import (
    Action,
    Discard,
    Draw,
    ExchangeJoker,
    LayOff,
    PlayMeld,
    ReturnCutCard,
    Undo,
)
from rummykit.game.record import from_position, loads
from rummykit.messages import render
from rummykit.widgets.view import sorted_hand, table_view

__all__ = ["Table"]

_HERE = pathlib.Path(__file__).parent


class Table(anywidget.AnyWidget):  # type: ignore[misc]
    """A playable card table: one human seat, the others played by the AI."""

    _esm = _HERE / "table.js"
    _css = _HERE / "table.css"

    view = traitlets.Dict().tag(sync=True)
    ai_delay = traitlets.Float(0.8).tag(sync=True)

    def __init__(
        self,
        variant: str = "hungarian",
        players: int = 2,
        *,
        ai: str | list[str | Agent | None] | Agent = "normal",
        seat: int = 0,
        seed: int | None = 0,
        game: Game | None = None,
        record: str | None = None,
        position: dict[str, Any] | None = None,
        ai_delay: float = 0.8,
        four_colour: bool | None = None,
        names: list[str] | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.match: Match | None = None
        if game is not None:
            self.game = game
        elif record is not None:
            self.game = loads(record)
        elif position is not None:
            self.game = from_position(variant, **position)
        else:
            self.match = Match(variant, players, seed, **options)
            self.game = self.match.new_round()
        self.players = self.game.players
        if not 0 <= seat < self.players:
            raise ValueError(render("widget_bad_seat", seat=seat, last=self.players - 1))
        self.seat = seat
        self.seed = seed if self.match is not None else self.game.seed
        self.variant_name = self.game.variant.name
        self.agents = self._agents(ai)
        self.names = names or [
            render("widget_you")
            if s == seat
            else render("widget_ai_name", seat=s, level=self.agents[s].name)  # type: ignore[union-attr]
            for s in range(self.players)
        ]
        self.four_colour = display.options.four_colour if four_colour is None else four_colour
        self.sort_by = "suit"
        self.selected: list[int] = []
        self.verdict: Verdict | None = None
        self.announcement = ""
        self.hint_text = ""
        self.ai_log: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None
        self.review: Any = None  # the mistake review, once asked for (rummykit.review)
        self.ai_delay = ai_delay
        self.on_msg(self._on_msg)
        self._refresh()
        if self.ai_delay == 0:
            self.run_ai()

    # --- set-up ----------------------------------------------------------------------------

    def _agents(self, ai: str | list[str | Agent | None] | Agent) -> list[Agent | None]:
        """One agent per computer seat: ``ai`` is one level for all, one per seat (the
        learner's entry ignored), or one per computer seat in seat order (as ``repr`` shows)."""
        others = [s for s in range(self.players) if s != self.seat]
        if isinstance(ai, (list, tuple)):
            if len(ai) == self.players:
                choices = {s: ai[s] for s in others}
            elif len(ai) == len(others):
                choices = dict(zip(others, ai))
            else:
                raise ValueError(
                    render(
                        "widget_ai_count", count=len(ai), players=self.players, others=len(others)
                    )
                )
        else:
            choices = dict.fromkeys(others, ai)
        out: list[Agent | None] = [None] * self.players
        for s in others:
            choice = choices[s]
            if choice is None:
                raise ValueError(render("widget_one_human"))
            out[s] = make_agent(choice) if isinstance(choice, str) else choice
        return out

    def __repr__(self) -> str:
        levels = [a.name for a in self.agents if a is not None]
        return (
            f"Table('{self.variant_name}', players={self.players}, seat={self.seat}, "
            f"ai={levels}, seed={self.seed})"
        )

    # --- what the learner sees -------------------------------------------------------------

    @property
    def hand_order(self) -> list[Card]:
        """The learner's hand in the order shown (sorted by suit or by rank)."""
        return sorted_hand(self.game.hand(self.seat), self.sort_by)

    def _refresh(self) -> None:
        obs = self.game.observation(self.seat)
        result = self.game.result
        lines = [str(r) for r in result.lines] if result is not None else []
        if result is not None and self.match is not None:
            lines.append(render("widget_totals", totals=", ".join(map(str, self.match.totals))))
            if self.match.is_over:
                lines.extend(str(s) for s in self.match.standings())
        view = table_view(
            obs,
            hand_order=self.hand_order,
            selected=self.selected,
            verdict=self.verdict,
            names=self.names,
            announcement=self.announcement,
            ai_log=self.ai_log[-12:],
            result_lines=lines,
            hint=self.hint_text,
            match_over=self.match.is_over if self.match is not None else True,
            four_colour=self.four_colour,
            pending=self.pending,
        )
        view["review"] = self._review_view() if result is not None else None
        self.view = view

    # --- messages from the front end ---------------------------------------------------------

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        try:
            self.handle(content)
        except IllegalAction:
            raise  # a computer seat's move refused: a bug in the agent, not in the page
        except (KeyError, TypeError, ValueError):
            # a malformed message from the page: say so rather than fail silently
            self._guide("widget_unknown_message")
            self._refresh()

    def handle(self, message: dict[str, Any]) -> None:
        """Act on one message from the front end (the same ones a click sends)."""
        kind = message.get("type")
        self.hint_text = ""
        if kind == "select":
            self._toggle(int(message["index"]))
        elif kind == "clear":
            self.selected = []
        elif kind == "sort":
            self._sort("rank" if message.get("by") == "rank" else "suit")
        elif kind == "hint":
            self._hint()
        elif kind == "ai_step":
            self.step_ai()
        elif kind == "next_round":
            self.next_round()
            return
        elif kind == "review":
            self.show_review(int(message.get("step", 0)))
        else:
            action = self._action(message)
            if action is not None:
                pending = None
                if kind in ("meld", "layoff"):  # repeated with joker_as after joker_ambiguous
                    pending = {k: v for k, v in message.items() if k != "joker_as"}
                self.act(action, pending=pending)
                return
        self._refresh()

    def _toggle(self, index: int) -> None:
        if not 0 <= index < len(self.hand_order):
            return
        if index in self.selected:
            self.selected.remove(index)
        else:
            self.selected.append(index)

    def _sort(self, by: str) -> None:
        """Re-sort the hand, keeping the same cards selected."""
        chosen = [self.hand_order[i] for i in self.selected if 0 <= i < len(self.hand_order)]
        self.sort_by = by
        order = self.hand_order
        self.selected = []
        for card in chosen:
            i = next(i for i, c in enumerate(order) if c == card and i not in self.selected)
            self.selected.append(i)

    def _chosen(self, message: dict[str, Any]) -> list[Card]:
        order = self.hand_order
        if "index" in message and message["index"] is not None:
            i = int(message["index"])
            return [order[i]] if 0 <= i < len(order) else []
        return [order[i] for i in sorted(self.selected) if 0 <= i < len(order)]

    def _action(self, message: dict[str, Any]) -> Action | None:
        kind = message.get("type")
        joker_text = message.get("joker_as")
        joker_as = parse_card(joker_text) if joker_text else None
        simple: dict[str, Action] = {
            "draw": Draw("stock"),
            "take_discard": Draw("discard"),
            "take_cut": Draw("cut_card"),
            "undo": Undo(),
            "return_cut": ReturnCutCard(),
        }
        if kind in simple:
            return simple[kind]
        cards = self._chosen(message)
        if kind == "discard":
            if len(cards) != 1:
                self._guide("widget_select_one_discard")
                return None
            return Discard(cards[0])
        if kind == "meld":
            if not cards:
                self._guide("widget_select_meld")
                return None
            return PlayMeld(tuple(cards), joker_as)
        if kind == "layoff":
            if not cards:
                self._guide("widget_select_layoff")
                return None
            return LayOff(tuple(cards), int(message["meld"]), joker_as)
        if kind == "exchange":
            if len(cards) != 1:
                self._guide("widget_select_exchange")
                return None
            return ExchangeJoker(cards[0], int(message["meld"]))
        self._guide("widget_unknown_message")
        return None

    def _guide(self, code: str) -> None:
        self.verdict = Verdict((Reason(code, None, ()),))
        self.announcement = self.verdict.reasons[0].message

    # --- acting ----------------------------------------------------------------------------

    def act(self, action: Action, *, pending: dict[str, Any] | None = None) -> bool:
        """Play the learner's action; a refusal is shown with the referee's explanation.

        ``pending`` is the message to repeat, with ``joker_as`` added, when the referee asks
        what a joker stands for (default: the selected cards, as from the Meld button).
        """
        before = len(self.game.events)
        self.pending = pending
        if pending is None and isinstance(action, (PlayMeld, LayOff)):
            self.pending = {"type": "meld" if isinstance(action, PlayMeld) else "layoff"}
            if isinstance(action, LayOff):
                self.pending["meld"] = action.meld
        try:
            self.game.play(action, self.seat)
        except IllegalAction as refusal:
            self.verdict = refusal.verdict
            self.announcement = " ".join(r.message for r in refusal.verdict.failures)
            self._refresh()
            return False
        self.verdict = None
        self.selected = []
        self.announcement = " ".join(str(e) for e in self.game.events[before:])
        self._refresh()
        if self.ai_delay == 0:
            self.run_ai()
        return True

    def step_ai(self) -> bool:
        """Let the AI seat to act make one move; False when it is not an AI's turn."""
        game = self.game
        if game.is_over:
            return False
        agent = self.agents[game.current]
        if agent is None:
            return False
        seat = game.current
        before = len(game.events)
        decision = agent.decide(game.observation(seat))
        game.play(decision.action, seat)
        self.ai_log.append(
            {
                "number": len(self.ai_log),
                "seat": seat,
                "name": self.names[seat],
                "action": str(decision.action),
                "why": str(decision.trace.why),
                "trace": str(decision.trace),
                "trace_html": decision.trace._repr_html_(),
            }
        )
        self.announcement = " ".join(str(e) for e in game.events[before:])
        self._refresh()
        return True

    def run_ai(self, limit: int = 2000) -> int:
        """Play AI moves until it is the learner's turn or the round ends; how many."""
        moves = 0
        while moves < limit and self.step_ai():
            moves += 1
        return moves

    # --- the mistake review (rummykit.review), when the round is over ------------------------

    def show_review(self, step: int = 0) -> None:
        """Review the learner's round against the hard AI; ``step`` moves to the next (+1) or
        previous (-1) mistake."""
        if not self.game.is_over:
            return
        if self.review is None:
            from rummykit.review import review

            self.review = review(self.game, seat=self.seat)
        elif step > 0:
            self.review.next()
        elif step < 0:
            self.review.previous()

    def _review_view(self) -> dict[str, Any]:
        """The review panel: the button's label, then the current mistake and its place."""
        out: dict[str, Any] = {"button": render("review_button")}
        if self.review is not None:
            mistake = self.review.current
            total = len(self.review.mistakes)
            out.update(
                headline=self.review.headline,
                html=mistake._repr_html_() if mistake is not None else "",
                title=render("review_position", number=self.review.position + 1, total=total)
                if total
                else "",
                position=self.review.position,
                total=total,
                next=render("review_next"),
                previous=render("review_previous"),
            )
        return out

    def _hint(self) -> None:
        if self.game.current != self.seat or self.game.is_over:
            self.hint_text = render("widget_hint_not_your_turn")
            return
        self.hint_text = str(hint(self.game.observation(self.seat)))

    def next_round(self) -> None:
        """Deal the next round of the match (after the scoring is shown)."""
        if self.match is None or not self.game.is_over or self.match.is_over:
            self._guide("widget_no_next_round")
            self._refresh()
            return
        self.game = self.match.new_round()
        self.review = None
        self.selected = []
        self.verdict = None
        self.ai_log = []
        self.announcement = render("widget_new_round", number=self.match.round_number)
        self._refresh()
        if self.ai_delay == 0:
            self.run_ai()
