"""The card table: play a hand against computer opponents in a notebook.

>>> from rummykit.widgets import Table
>>> table = Table("rommi", players=2, ai="easy", seed=3, ai_delay=0)
>>> table
Table('rommi', players=2, seat=0, ai=['easy'], seed=3)
>>> table.handle({"type": "take_cut"}); table.view["alert"]
'Rommi has no cut card. (R4)'

Everything the table decides, the referee decides: a click becomes an action, the engine
plays it or refuses it with a Verdict, and the view shows that Verdict. Every control says
what pressing it would do now, in the engine's words (``view["why"]``), so a learner can
always ask "why not?". The front end sends small messages (``{"type": "draw"}``,
``{"type": "discard", "index": 3}``, …); tests and scripts can send the same messages with
:meth:`Table.handle`.

What goes to the browser is split so that a click sends little: the card pictures once
(``deck``), the words of the page once (``labels``), the view on every change (no pictures,
no log; its larger entries — the hand, the table's melds, the reasons — each only when it
changed), and the move log as new entries only (custom ``{"type": "log"}`` messages).

Open-cards teaching: the computer's reasoning in the move log (each move's "why" and its
trace, the moves it weighed) names the cards that computer holds, so a learner who opens it
sees the computer's hand. That is on by default, for learning how the AI thinks, and the
table says so beside the computer's moves. To play with the computer's cards hidden, make
the table with ``show_reasoning=False``: the log then keeps only what every player saw.

>>> secret = Table("rommi", players=2, ai="easy", seed=3, ai_delay=0, show_reasoning=False)
>>> sorted(secret.ai_log[0])
['action', 'mine', 'name', 'number', 'seat', 'text']
"""

from __future__ import annotations

import pathlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anywidget
import traitlets

from rummykit import display
from rummykit.ai import Agent, make_agent
from rummykit.ai.hint import hint
from rummykit.ai.trace import agent_name
from rummykit.cards import Card, parse_card
from rummykit.errors import RummykitError
from rummykit.explain import Reason, Verdict
from rummykit.game import Game, IllegalAction, Match
from rummykit.game.actions import (
    Action,
    Cut,
    Discard,
    Draw,
    ExchangeJoker,
    LayOff,
    PlayMeld,
    ReturnCutCard,
    Undo,
)
from rummykit.game.observation import Observation
from rummykit.game.record import from_position, loads
from rummykit.game.scoring import RoundResult
from rummykit.language import check_language, get_language, speaks_own_language
from rummykit.messages import render
from rummykit.mistakes import Review, review
from rummykit.widgets.view import (
    Control,
    Scores,
    deck_view,
    event_text,
    in_second_person,
    labels,
    sorted_hand,
    status_text,
    table_view,
)

__all__ = ["Table", "Tool"]

_HERE = pathlib.Path(__file__).parent

_TURN_CODES = frozenset({"round_over", "not_your_turn", "cut_first", "draw_first"})
"""Refusals about the moment, not the cards: shown before asking the learner to select."""

_DRAWS = frozenset({"draw", "take_discard", "take_cut", "pile"})


def _joker_as(named: Any) -> Card | tuple[Card, ...] | None:
    """The ``joker_as`` of a message: a card's text, or a list of them (a card per joker).

    >>> _joker_as("4♥"), _joker_as(["6♥", "7♥"]), _joker_as(None)
    (Card('4♥'), (Card('6♥'), Card('7♥')), None)
    """
    if isinstance(named, list):
        return tuple(parse_card(str(text)) for text in named) or None
    return parse_card(named) if named else None


@dataclass(frozen=True)
class Tool:
    """A button beside the controls that runs Python rather than a move (e.g. a review).

    ``label`` is a message code; ``run`` returns a text to show in the panel (or None);
    ``shown`` says when the button is on the page.
    """

    label: str
    run: Callable[[], str | None]
    shown: Callable[[], bool] = lambda: True


# Entries of the view synced as traits of their own (``view_<name>``), so that a click sends
# only those that changed; the rest of the view goes whole on every update (it is small).
_APART = ("hand", "players", "melds", "why", "can", "hint_detail", "review", "score_sheet")


def _view_json(view: dict[str, Any], _widget: Any) -> dict[str, Any]:
    """The view as the ``view`` trait sends it: without the entries sent apart."""
    return {k: v for k, v in view.items() if k not in _APART} | {"apart": list(_APART)}


class Table(anywidget.AnyWidget):
    """A playable card table: one human seat, the others played by the AI.

    ``show_reasoning`` (default True) puts each computer move's reasoning in the move log;
    the reasoning shows that computer's cards (open-cards teaching). False hides it.
    ``language`` (``"en"``, ``"pt"``, ``"fi"``; default: the current language) is the
    language of every word on the table: labels, buttons, refusals, the log.
    ``four_colour`` (default: ``rummykit.display.options``) draws diamonds blue and clubs
    green; the learner can switch it in the table's Settings, and the page keeps the choice
    for the tables it draws next.
    """

    _esm = _HERE / "table.js"
    _css = _HERE / "table.css"

    view = traitlets.Dict().tag(sync=True, to_json=_view_json)
    # the view's larger entries, each synced on its own: sent only when it changes (the page
    # puts them back into the view, by the names the view lists under "apart")
    view_hand = traitlets.Any().tag(sync=True)
    view_players = traitlets.Any().tag(sync=True)
    view_melds = traitlets.Any().tag(sync=True)
    view_why = traitlets.Any().tag(sync=True)
    view_can = traitlets.Any().tag(sync=True)
    view_hint_detail = traitlets.Any().tag(sync=True)
    view_review = traitlets.Any().tag(sync=True)
    view_score_sheet = traitlets.Any().tag(sync=True)
    deck = traitlets.Dict().tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)
    ai_delay = traitlets.Float(0.8).tag(sync=True)

    @speaks_own_language
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
        show_reasoning: bool = True,
        language: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.language = None if language is None else check_language(language)
        """The table's language (None: the current language)."""
        self.match: Match | None = None
        if game is not None:
            self.game = game
        elif record is not None:
            self.game = loads(record)
        elif position is not None:
            self.game = from_position(variant, **position)
        else:
            self.match = Match(variant, players, seed, **options)
            self.game = self._deal()
        self.players = self.game.players
        if not 0 <= seat < self.players:
            raise RummykitError(render("bad_seat", seat=seat, last=self.players - 1), field="seat")
        self.seat = seat
        self.seed = seed if self.match is not None else self.game.seed
        self.variant_name = self.game.variant.name
        self.agents = self._agents(ai)
        self.names = names or [self._name(s) for s in range(self.players)]
        self.four_colour = display.options.four_colour if four_colour is None else four_colour
        self.sort_by = "suit"
        self.selected: list[int] = []
        self.verdict: Verdict | None = None
        self.announcement = ""
        self.alert = ""
        self.hint_text = ""
        self.hint_detail = ""  # the reasoning behind a hint, as HTML the page folds away
        self.moves: list[dict[str, Any]] = []
        self.drawn: Card | None = None
        self.pending: dict[str, Any] | None = None
        self.review: Review | None = None  # the mistake review, once asked for
        self._said: list[str] | None = None  # with ai_delay=0: the learner's move, then the AI's
        self.tools: dict[str, Tool] = {
            "review": Tool("review_button", self._review_start, self._review_offered),
            "review_previous": Tool("review_previous", self._review_previous, self._reviewing),
            "review_next": Tool("review_next", self._review_next, self._reviewing),
        }
        """Buttons that run Python rather than a move, by message type (the mistake review's
        are built in); add one with ``table.tools["mine"] = Tool(…)``."""
        self.ai_delay = ai_delay
        self.show_reasoning = show_reasoning
        """Whether the move log carries each computer move's reasoning. The reasoning names
        the cards that computer holds (open-cards teaching); False keeps them hidden."""
        self._seq = 0
        self._acted = -1
        self._log_sent = 0
        self.deck = deck_view(self.game.variant, self.four_colour)
        self.labels = labels()
        self.on_msg(self._on_msg)  # type: ignore[no-untyped-call]  # ipywidgets' is unannotated
        self._refresh()
        if self.ai_delay == 0:
            self.run_ai()

    # --- set-up ----------------------------------------------------------------------------

    def _deal(self) -> Game:
        """The match's next round; when the variant has a cut card, its cutter chooses (H3)."""
        assert self.match is not None
        return self.match.new_round(choose_cut=self.match.variant.cut_card)

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
                raise RummykitError(
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
                raise RummykitError(render("widget_one_human"))
            out[s] = make_agent(choice) if isinstance(choice, str) else choice
        return out

    def _name(self, seat: int) -> str:
        agent = self.agents[seat]
        if agent is None:
            return render("widget_you")
        return render("widget_ai_name", seat=seat, level=agent_name(agent.name))

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

    @property
    def ai_log(self) -> list[dict[str, Any]]:
        """The computer seats' moves this round, each with its reasoning (``why``,
        ``trace_html``) unless the table was made with ``show_reasoning=False``."""
        return [entry for entry in self.moves if not entry["mine"]]

    def _seen(self) -> Observation:
        """What the learner's seat sees now: the page is drawn from it."""
        return self.game.observation(self.seat)

    @speaks_own_language
    def _refresh(self) -> None:
        game = self.game
        obs = self._seen()
        order = self.hand_order
        chosen = [order[i] for i in sorted(self.selected) if 0 <= i < len(order)]
        if self.drawn is not None and (not obs.my_turn or self.drawn not in order):
            self.drawn = None
        self._seq += 1
        view = table_view(
            obs,
            hand_order=order,
            selected=self.selected,
            drawn=order.index(self.drawn) if self.drawn is not None else None,
            verdict=self.verdict,
            names=self.names,
            status=self._status(),
            announcement=self.announcement,
            alert=self.alert,
            result_lines=self._result_lines(),
            scores=self._scores(),
            controls=self._controls(chosen),
            melds=[self._meld_controls(chosen, i) for i in range(len(obs.table))],
            hint=self.hint_text,
            match_over=self.match.is_over if self.match is not None else game.is_over,
            cut=self._cut_range(),
            pending=self.pending,
            log_count=len(self.moves),
            seq=self._seq,
        ) | {
            "tools": self._tools(),
            "round": self._round(),
            "review": self._review_html(),
            "hint_detail": self.hint_detail,
            "show_reasoning": self.show_reasoning,
            "four_colour": self.four_colour,
            "language": get_language(),  # the page reads the table in this language's voice
        }
        with self.hold_sync():  # one message: the entries that changed, then the view
            for name in _APART:
                setattr(self, f"view_{name}", view[name])
            self.view = view
        self._send_log(self._log_sent)

    # --- the mistake review (rummykit.review), when the round is over ------------------------

    def _review_offered(self) -> bool:
        return self.game.is_over and self.review is None

    def _reviewing(self) -> bool:
        return self.review is not None and len(self.review) > 1

    def _review_start(self) -> str:
        """Review the learner's round against the hard AI: the headline and the costliest."""
        self.review = review(self.game, seat=self.seat)
        return self._review_text()

    def _review_next(self) -> str:
        assert self.review is not None
        self.review.next()
        return self._review_text()

    def _review_previous(self) -> str:
        assert self.review is not None
        self.review.previous()
        return self._review_text()

    def _review_text(self) -> str:
        assert self.review is not None
        mistake = self.review.current
        return self.review.headline if mistake is None else f"{self.review.headline} {mistake}"

    def _review_html(self) -> str:
        """The position at the current mistake, drawn (empty when no review is open)."""
        mistake = self.review.current if self.review is not None else None
        return mistake._repr_html_() if mistake is not None else ""

    @speaks_own_language
    def set_four_colour(self, on: bool) -> None:
        """Draw the cards in four colours (♦ blue, ♣ green) or in two: the table's setting,
        also on its page (Settings)."""
        if on != self.four_colour:
            self.four_colour = on
            self.deck = deck_view(self.game.variant, on)

    def _round(self) -> int:
        return self.match.round_number if self.match is not None else 1

    def _status(self) -> str:
        game = self.game
        if game.is_over:
            return self._round_over()
        if game.current == self.seat:
            return status_text(game.turn_status())
        return render("widget_waiting", seat=game.current, name=self.names[game.current])

    def _result(self) -> RoundResult | None:
        """How the round ended (None while it is played)."""
        return self.game.result

    def _round_winner(self, result: RoundResult) -> str:
        """Who won the round and how."""
        how = "out" if result.how == "went_out" else "lowest"
        if result.winner is None:
            return render("widget_round_no_winner")
        if result.winner == self.seat:
            return render(f"widget_round_you_won_{how}")
        return render(f"widget_round_won_{how}", name=self.names[result.winner])

    def _round_over(self) -> str:
        """Who won the round and how, and what to press next."""
        result = self._result()
        assert result is not None
        parts = [self._round_winner(result)]
        if self.match is None:
            parts.append(render("widget_round_single"))
        elif not self.match.is_over:
            parts.append(render("widget_next_round_prompt", number=self.match.round_number + 1))
        else:
            first = [s.seat for s in self.match.standings() if s.place == 1]
            if first == [self.seat]:
                parts.append(render("widget_match_you_won"))
            else:
                names = [self.names[s] for s in first]
                parts.append(render("widget_match_won", names=", ".join(names)))
        return " ".join(parts)

    def _scores(self) -> Scores:
        if self.match is not None:
            rounds = tuple(g.result.points for g in self.match.rounds if g.result is not None)
            return Scores(self.match.totals, rounds)
        base, result = self.game.match_scores, self._result()
        if result is None:
            return Scores(base, ())
        return Scores(tuple(a + b for a, b in zip(base, result.points)), (result.points,))

    def _result_lines(self) -> list[str]:
        result = self._result()
        if result is None:
            return []
        lines = [str(in_second_person(r, self.seat, self.names)) for r in result.lines]
        if self.match is not None:
            totals = ", ".join(
                render("widget_score_entry", name=self.names[s], points=points)
                for s, points in enumerate(self.match.totals)
            )
            lines.append(render("widget_totals", totals=totals))
            if self.match.is_over:
                lines.extend(
                    render("widget_standing", place=s.place, name=self.names[s.seat], total=s.total)
                    for s in self.match.standings()
                )
        return lines

    def _cut_range(self) -> dict[str, int] | None:
        """Where the learner may cut, when it is theirs to cut (H3): the engine's heights."""
        game = self.game
        if game.phase != "cut" or game.current != self.seat:
            return None
        heights = [a.height for a in game.legal_actions() if isinstance(a, Cut)]
        return {"min": min(heights), "max": max(heights), "value": game.default_cut()}

    def _tools(self) -> list[dict[str, str]]:
        return [
            {"type": kind, "label": render(tool.label)}
            for kind, tool in self.tools.items()
            if tool.shown()
        ]

    # --- what each control would do now -------------------------------------------------------

    def _why(self, reasons: tuple[Reason, ...] | list[Reason]) -> str:
        return " ".join(in_second_person(r, self.seat, self.names).message for r in reasons)

    def _answer(self, action: Action) -> Control:
        """The engine's answer to ``action`` now: allowed (a joker to name counts), or why not."""
        verdict = self.game.check(action, self.seat)
        if verdict.ok or verdict.codes == ("joker_ambiguous",):
            return Control(True)
        return Control(False, self._why(verdict.failures))

    def _moment(self, kind: str, meld: int = 0) -> list[Reason]:
        """The engine's refusals about the moment (not your turn, draw first, …) of a move of
        this ``kind`` made now with any card: they come before asking to select cards."""
        hand = self.hand_order
        probes: dict[str, Action] = {"undo": Undo()}
        if hand:
            one = (hand[0],)
            probes |= {
                "discard": Discard(hand[0]),
                "meld": PlayMeld(one),
                "layoff": LayOff(one, meld),
                "exchange": ExchangeJoker(hand[0], meld),
            }
        probe = probes.get(kind, probes["undo"])
        return [r for r in self.game.check(probe, self.seat).failures if r.code in _TURN_CODES]

    def _select_first(self, guide: str, kind: str, meld: int = 0) -> Control:
        """A control that needs cards selected: the moment's refusal, or what to select."""
        moment = self._moment(kind, meld)
        return Control(False, self._why(moment) if moment else render(guide))

    def _controls(self, chosen: list[Card]) -> dict[str, Control]:
        game, hand = self.game, self.hand_order
        out = {
            "draw": self._answer(Draw("stock")),
            "take_discard": self._answer(Draw("discard")),
            "take_cut": self._answer(Draw("cut_card")),
            "undo": self._answer(Undo()),
            "return_cut": self._answer(ReturnCutCard()),
        }
        if len(chosen) == 1:
            out["discard"] = self._answer(Discard(chosen[0]))
        elif hand and not chosen:  # what stands in the way of any discard, else "select one"
            any_card = self._answer(Discard(hand[0]))
            out["discard"] = (
                any_card
                if not any_card.enabled
                else Control(False, render("widget_select_one_discard"))
            )
        else:
            out["discard"] = self._select_first("widget_select_one_discard", "discard")
        out["meld"] = (
            self._answer(PlayMeld(tuple(chosen)))
            if chosen
            else self._select_first("widget_select_meld", "meld")
        )
        mine = game.current == self.seat and not game.is_over
        out["hint"] = Control(mine, "" if mine else render("widget_hint_not_your_turn"))
        clears = bool(chosen) or (self.verdict is not None and not self.verdict.ok)
        out["clear"] = Control(clears, "" if clears else render("widget_nothing_selected"))
        deal = self.match is not None and game.is_over and not self.match.is_over
        out["next_round"] = Control(deal, "" if deal else render("widget_no_next_round"))
        return out

    def _meld_controls(self, chosen: list[Card], index: int) -> dict[str, Control]:
        """Laying off onto meld ``index``, and (when it holds a joker) exchanging it."""
        game = self.game
        out = {
            "layoff": self._answer(LayOff(tuple(chosen), index))
            if chosen
            else self._select_first("widget_select_layoff", "layoff", index)
        }
        if any(c.is_joker for c in game.table[index].meld.cards):
            if len(chosen) == 1:
                out["exchange"] = self._answer(ExchangeJoker(chosen[0], index))
            else:
                hand = self.hand_order
                probe = ExchangeJoker(hand[0], index) if hand else Undo()
                refused = [
                    r
                    for r in game.check(probe, self.seat).failures
                    if r.code not in ("joker_wrong_card", "card_not_in_hand")
                ]
                out["exchange"] = Control(
                    False, self._why(refused) if refused else render("widget_select_exchange")
                )
        return out

    # --- the move log, sent as new entries only ------------------------------------------------

    def _send_log(self, start: int, *, new_round: bool = False) -> None:
        if start < len(self.moves) or new_round:
            entries = self.moves[start:]
            message = {"type": "log", "round": self._round(), "start": start, "entries": entries}
            self.send(message)  # type: ignore[no-untyped-call]  # ipywidgets' is unannotated
        self._log_sent = len(self.moves)

    def _logged(self, seat: int, text: str, **more: str) -> None:
        entry = {"number": len(self.moves) + 1, "seat": seat, "name": self.names[seat]}
        self.moves.append({**entry, "mine": seat == self.seat, "text": text, **more})

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

    @speaks_own_language
    def handle(self, message: dict[str, Any]) -> None:
        """Act on one message from the front end (the same ones a click sends).

        A draw clicked on a page that had not yet shown the learner's previous move (a
        double click on the stock) is dropped: the first click drew.
        """
        kind = message.get("type")
        seen = message.get("seen")
        if kind in _DRAWS and isinstance(seen, int) and seen < self._acted:
            return
        if kind == "log":  # a page (re)drawn asks for the log from where it is
            self._send_log(int(message.get("since", 0)))
            return
        self.hint_text = ""
        self.hint_detail = ""
        self.alert = ""
        if kind == "select":
            self._toggle(int(message["index"]))
        elif kind == "clear":
            self.selected = []
            if self.verdict is not None and not self.verdict.ok:
                self.verdict = None
                self.pending = None
        elif kind == "sort":
            self._sort("rank" if message.get("by") == "rank" else "suit")
        elif kind == "hint":
            self._hint()
        elif kind == "settings":
            on = message.get("four_colour")
            if isinstance(on, bool):
                self.set_four_colour(on)
            else:  # only true or false: anything else is said, not guessed
                self._guide("widget_unknown_message")
        elif kind == "ai_step":
            self.step_ai()
            return
        elif kind == "next_round":
            self.next_round()
            return
        elif isinstance(kind, str) and kind in self.tools:
            self.hint_text = self.tools[kind].run() or ""
        else:
            action = self._action(message)
            if action is not None:
                pending = None
                if kind in ("meld", "layoff"):  # repeated with joker_as after joker_ambiguous
                    pending = {k: v for k, v in message.items() if k not in ("joker_as", "seen")}
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
        joker_as = _joker_as(message.get("joker_as"))
        simple: dict[str, Action] = {
            "draw": Draw("stock"),
            "take_discard": Draw("discard"),
            "take_cut": Draw("cut_card"),
            "undo": Undo(),
            "return_cut": ReturnCutCard(),
        }
        if kind in simple:
            return simple[kind]
        if kind == "cut":
            return Cut(int(message["height"]))
        cards = self._chosen(message)
        if kind == "pile":  # a click on the discard pile: discard the card chosen, else take it
            if not cards or self.game.phase != "play":
                return Draw("discard")  # the engine answers (e.g. "already drawn", H7)
            kind = "discard"
        if kind == "discard":
            if len(cards) != 1:
                self._guide("widget_select_one_discard", self._moment("discard"))
                return None
            return Discard(cards[0])
        if kind == "meld":
            if not cards:
                self._guide("widget_select_meld", self._moment("meld"))
                return None
            return PlayMeld(tuple(cards), joker_as)
        if kind == "layoff":
            if not cards:
                self._guide("widget_select_layoff", self._moment("layoff", int(message["meld"])))
                return None
            return LayOff(tuple(cards), int(message["meld"]), joker_as)
        if kind == "exchange":
            if len(cards) != 1:
                self._guide(
                    "widget_select_exchange", self._moment("exchange", int(message["meld"]))
                )
                return None
            return ExchangeJoker(cards[0], int(message["meld"]))
        self._guide("widget_unknown_message")
        return None

    def _guide(self, code: str, moment: list[Reason] | None = None) -> None:
        """Say what to select — unless the ``moment`` refuses any such move (not your turn,
        draw first, …): then the engine's refusal, as the control's own tip says it."""
        self.verdict = Verdict(tuple(moment) if moment else (Reason(code, None, ()),))
        self.alert = " ".join(
            str(in_second_person(r, self.seat, self.names)) for r in self.verdict.reasons
        )
        self.announcement = ""

    # --- acting ----------------------------------------------------------------------------

    @speaks_own_language
    def act(self, action: Action, *, pending: dict[str, Any] | None = None) -> bool:
        """Play the learner's action; a refusal is shown with the referee's explanation.

        ``pending`` is the message to repeat, with ``joker_as`` added, when the referee asks
        what a joker stands for (default: the selected cards, as from the Meld button).
        """
        before = len(self.game.events)
        hand_before = Counter(self.game.hand(self.seat))
        self.pending = pending
        if pending is None and isinstance(action, (PlayMeld, LayOff)):
            self.pending = {"type": "meld" if isinstance(action, PlayMeld) else "layoff"}
            if isinstance(action, LayOff):
                self.pending["meld"] = action.meld
        try:
            self.game.play(action, self.seat)
        except IllegalAction as refusal:
            self.verdict = refusal.verdict
            self.alert = " ".join(
                str(in_second_person(r, self.seat, self.names)) for r in refusal.verdict.failures
            )
            self.announcement = ""
            self._refresh()
            return False
        self.verdict = None
        self.pending = None
        self.selected = []
        if isinstance(action, Draw):
            new = Counter(self.game.hand(self.seat)) - hand_before
            self.drawn = next(iter(new), None)
        said = [event_text(e, self.seat) for e in self.game.events[before:]]
        self.announcement = " ".join(said)
        self._logged(self.seat, self.announcement)
        self._refresh()
        self._acted = self._seq
        if self.ai_delay == 0:
            self._run_ai_after_mine()
        return True

    def _run_ai_after_mine(self) -> None:
        """The computer's moves at once (``ai_delay=0``), announced after what the learner
        just did, in one announcement: the page never replaces the learner's own move with
        the computer's before a screen reader has read it."""
        self._said = [self.announcement] if self.announcement else []
        try:
            self.run_ai()
        finally:
            self._said = None

    @speaks_own_language
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
        said = " ".join(event_text(e, self.seat) for e in game.events[before:])
        self.announcement = said
        if self._said is not None:
            self._said.append(said)
            self.announcement = " ".join(self._said)
        reasoning = {"why": str(decision.trace.why), "trace_html": decision.trace._repr_html_()}
        self._logged(
            seat,
            said,
            action=str(decision.action),
            **(reasoning if self.show_reasoning else {}),
        )
        self._refresh()
        return True

    @speaks_own_language
    def run_ai(self, limit: int = 2000) -> int:
        """Play AI moves until it is the learner's turn or the round ends; how many."""
        moves = 0
        while moves < limit and self.step_ai():
            moves += 1
        return moves

    def _hint(self) -> None:
        if self.game.current != self.seat or self.game.is_over:
            self.hint_text = render("widget_hint_not_your_turn")
            return
        suggestion = hint(self.game.observation(self.seat))
        self.hint_text = suggestion.summary  # one sentence first, the reasoning folded away
        self.hint_detail = suggestion.decision.trace._repr_html_()

    @speaks_own_language
    def next_round(self) -> None:
        """Deal the next round of the match (after the scoring is shown)."""
        if self.match is None or not self.game.is_over or self.match.is_over:
            self._guide("widget_no_next_round")
            self._refresh()
            return
        self.game = self._deal()
        self.review = None
        self.selected = []
        self.verdict = None
        self.pending = None
        self.drawn = None
        self.moves = []
        self._send_log(0, new_round=True)  # the page starts the new round's log afresh
        self.announcement = render("widget_new_round", number=self.match.round_number)
        self._refresh()
        if self.ai_delay == 0:
            self._run_ai_after_mine()
