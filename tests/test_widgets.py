"""The widgets without a browser: the card table gets the messages its page would send.

The page (``table.js``) turns every click, drop and key into a small message; Python asks the
referee and publishes a new ``view``. These tests send those same messages through
:meth:`Table.handle` (and once through the widget's comm handler) and check, after every
message, that the engine state and the synced ``view`` agree. Full rounds are played this way
against computer seats in both variants, with refusals provoked on purpose along the way.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from functools import partial
from types import SimpleNamespace
from typing import Any

import pytest
from referee_helpers import REFEREE_HELPS

from rummykit import variant
from rummykit.ai import make_agent
from rummykit.cards import Card, as_cards
from rummykit.game import (
    Action,
    Cut,
    Discard,
    Draw,
    ExchangeJoker,
    Game,
    LayOff,
    PlayMeld,
    ReturnCutCard,
    Undo,
    from_position,
    parse_action,
)
from rummykit.game.record import dumps
from rummykit.widgets import AIStepper, MeldChecker, Table
from rummykit.widgets.view import sorted_hand

# --- helpers ---------------------------------------------------------------------------------


def capture(table: Table) -> list[dict[str, Any]]:
    """Every message the widget sends to the page from now on (state updates and custom)."""
    sent: list[dict[str, Any]] = []
    original = table._send

    def record(msg: dict[str, Any], buffers: Any = None) -> None:
        sent.append(json.loads(json.dumps(msg)))
        original(msg, buffers)

    table._send = record  # type: ignore[method-assign]
    return sent


def page_log(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The move log as the page assembles it from the custom messages (its last round)."""
    log: list[dict[str, Any]] = []
    current = None
    for msg in sent:
        content = msg.get("content", {})
        if msg.get("method") != "custom" or content.get("type") != "log":
            continue
        if content["round"] != current:
            current, log = content["round"], []
        assert content["start"] <= len(log)  # no gap
        log = log[: content["start"]] + content["entries"]
    return log


def hand_texts(table: Table) -> list[str]:
    return [c["text"] for c in table.view["hand"]]


def index_of(table: Table, card: str, taken: list[int] | None = None) -> int:
    """Where a card is in the hand as shown (skipping indices already used)."""
    taken = taken or []
    wanted = as_cards(card)[0]
    return next(i for i, c in enumerate(table.hand_order) if c == wanted and i not in taken)


def select(table: Table, *cards: str) -> list[int]:
    """Clear the selection and click these cards, as a learner would."""
    table.handle({"type": "clear"})
    chosen: list[int] = []
    for card in cards:
        i = index_of(table, card, chosen)
        chosen.append(i)
        table.handle({"type": "select", "index": i})
    check_view(table)
    return chosen


def failing(table: Table) -> list[dict[str, Any]]:
    verdict = table.view["verdict"]
    assert verdict is not None and not verdict["ok"]
    return [r for r in verdict["reasons"] if r["failing"]]


def codes(table: Table) -> list[str]:
    return [r["code"] for r in failing(table)]


def highlighted(table: Table) -> list[str]:
    return [c["text"] for c in table.view["hand"] if c["highlight"]]


def check_view(table: Table) -> None:
    """The synced view says exactly what the engine says, for the learner's seat."""
    game, v, seat = table.game, table.view, table.seat
    assert json.loads(json.dumps(v)) == v  # JSON-ready: it crosses to the browser as is
    # and it is what the synced traits say, put together as the page does: the view, its
    # larger entries each from a trait of its own
    state = table.get_state()
    synced = dict(state["view"])
    apart = synced.pop("apart")
    assert set(apart) < set(v) and not set(apart) & set(synced)
    assert synced | {name: state[f"view_{name}"] for name in apart} == v
    # the hand, in the order shown, with the selection marked
    assert hand_texts(table) == [str(c) for c in sorted_hand(game.hand(seat), table.sort_by)]
    assert Counter(hand_texts(table)) == Counter(str(c) for c in game.hand(seat))
    assert [i for i, c in enumerate(v["hand"]) if c["selected"]] == sorted(table.selected)
    assert all(picture(table, c).startswith("<svg") and c["label"] for c in v["hand"])
    # piles, table, opponents
    assert v["stock_count"] == game.stock_size
    assert v["discard_count"] == len(game.discard_pile)
    top = game.discard_pile[-1] if game.discard_pile else None
    assert (v["discard_top"] or {}).get("text") == (str(top) if top else None)
    assert (v["cut_card"] or {}).get("text") == (str(game.cut_card) if game.cut_card else None)
    assert [m["cards"] for m in v["melds"]] == [
        [str(c) for c in tm.meld.cards] for tm in game.table
    ]
    assert [m["owner"] for m in v["melds"]] == [tm.owner for tm in game.table]
    assert {p["seat"]: p["count"] for p in v["players"]} == {
        s: len(game.hand(s)) for s in range(game.players)
    }
    threshold = game.variant.opening_threshold
    assert [p["opened"] for p in v["players"]] == [
        bool(threshold) and game.opened(s) for s in range(game.players)
    ]
    assert v["phase"] == game.phase
    assert v["current"] == game.current
    assert v["my_turn"] == (game.current == seat and not game.is_over)
    assert v["scores"] == expected_scores(table)
    # what the learner may do is what the referee allows
    legal = game.legal_actions() if v["my_turn"] else []
    assert v["can"]["draw"] == (Draw("stock") in legal)
    assert v["can"]["take_discard"] == (Draw("discard") in legal)
    assert v["can"]["undo"] == (Undo() in legal)
    assert v["can"]["return_cut"] == (ReturnCutCard() in legal)
    # the opening status, always visible in Hungarian until the seat has opened
    threshold = game.variant.opening_threshold
    if threshold and not game.opened(seat) and not game.is_over:
        points = game.turn_info().meld_points if v["my_turn"] else 0
        assert v["opening"] == f"Opening: {points} of {threshold}"
    else:
        assert v["opening"] == ""
    # the verdict panel shows the referee's own verdict; its cards are marked in the hand
    if table.verdict is None:
        assert v["verdict"] is None
        assert highlighted(table) == []
    else:
        reasons = v["verdict"]["reasons"]
        assert [r["code"] for r in reasons] == [r.code for r in table.verdict.reasons]
        assert v["verdict"]["text"] == " ".join(
            r["message"] + (f" ({r['rule']})" if r["rule"] else "") for r in reasons
        )
        marked = table.verdict.highlighted if not table.verdict.ok else frozenset()
        assert highlighted(table) == [str(c) for c in table.hand_order if c in marked]
        for c in v["hand"]:
            assert ("(at fault)" in picture(table, c)) == c["highlight"]  # not colour alone
    # every word on the page comes from Python
    assert all(isinstance(text, str) and text for text in table.labels.values())
    # the learner is "You" everywhere, never "Seat N"
    said = " ".join([v["status"], v["announcement"], v["alert"], *v["result"]])
    assert f"Seat {seat} " not in said and f"seat {seat}'s" not in said, said
    # every control a learner can press answers: a refused one says why (the engine's words)
    for name, enabled in v["can"].items():
        assert enabled or v["why"][name], name
    for m in v["melds"]:
        assert m["layoff"]["enabled"] or m["layoff"]["why"]
        assert m["number"] == m["index"] + 1 and m["label"].startswith(f"Meld {m['number']} ")
    if len(table.selected) == 1 and v["my_turn"]:
        card = table.hand_order[table.selected[0]]
        assert v["can"]["discard"] == game.check(Discard(card), seat).ok


def picture(table: Table, card: dict[str, Any]) -> str:
    """A card's SVG as the page draws it: its own when at fault, else the deck sheet's."""
    return str(card.get("svg") or table.deck[card["text"]])


def expected_scores(table: Table) -> list[int]:
    """The score bar: the match totals, the round just finished included."""
    game = table.game
    if table.match is not None:
        totals = [0] * game.players
        for g in table.match.rounds:
            for s, points in enumerate(g.result.points if g.result else ()):
                totals[s] += points
        return totals
    points = game.result.points if game.result else (0,) * game.players
    return [a + b for a, b in zip(game.match_scores, points)]


def assert_hint_is_a_move_to_type_back(table: Table) -> None:
    """A hint is one sentence naming a legal move as the learner would type it, with the
    reasoning folded away beside it."""
    sentence = table.view["hint"]
    assert "\n" not in sentence and sentence.startswith("Play “"), sentence
    command = sentence[len("Play “") : sentence.index("”")]
    assert parse_action(command) in table.game.legal_actions(), command
    assert "<" in table.view["hint_detail"]  # the trace, as HTML, in a <details>


def assert_refused(table: Table, *expected: str, rule: str | None = None) -> None:
    """A refusal: shown with the reasons, each citing its rule, and nothing else changed."""
    assert table.verdict is not None and not table.verdict.ok
    got = codes(table)
    for code in expected:
        assert code in got, (code, got)
    for reason in failing(table):
        # the rule is cited, unless the refusal is one of the software's own helps
        assert reason["rule"] or reason["code"] in REFEREE_HELPS, reason
        assert reason["message"]
    if rule is not None:
        assert rule in [r["rule"] for r in failing(table)]
    assert table.view["alert"] == " ".join(
        r["message"] + (f" ({r['rule']})" if r["rule"] else "") for r in failing(table)
    )
    check_view(table)


def assert_played(table: Table) -> None:
    """A success: no verdict left, selection cleared, the events announced."""
    assert table.verdict is None
    assert table.selected == []
    assert table.view["announcement"]
    check_view(table)


# --- a learner who plays whole rounds through the page's messages -------------------------------


class Learner:
    """Plays the learner's seat with the normal agent's choices, sent as page messages.

    Each action is sent one of the ways the page offers (button, drop, click on a meld,
    sorted differently), picked by a seeded random choice, and refusals are provoked on purpose.
    """

    def __init__(self, table: Table, seed: int) -> None:
        self.table = table
        self.rng = random.Random(seed)
        self.agent = make_agent("normal")
        self.sent: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()

    def send(self, message: dict[str, Any]) -> None:
        self.sent[message["type"]] += 1
        self.table.handle(message)
        check_view(self.table)

    def choose(self) -> Action:
        return self.agent.decide(self.table.game.observation(self.table.seat)).action

    def select(self, cards: tuple[Card, ...]) -> None:
        self.send({"type": "clear"})
        if self.rng.random() < 0.3:  # re-sort first: the selection must follow the cards
            self.send({"type": "sort", "by": self.rng.choice(["rank", "suit"])})
        chosen: list[int] = []
        for card in cards:
            i = index_of(self.table, str(card), chosen)
            chosen.append(i)
            self.send({"type": "select", "index": i})
        if self.rng.random() < 0.3:
            by = "rank" if self.table.sort_by == "suit" else "suit"
            self.send({"type": "sort", "by": by})
            assert sorted(str(self.table.hand_order[i]) for i in self.table.selected) == sorted(
                str(c) for c in cards
            )

    def play(self, action: Action) -> None:
        """Send the messages for one action and check the referee played exactly it."""
        table, game = self.table, self.table.game
        count = len(game.actions)
        if isinstance(action, Cut):  # the learner cuts (H3): the slider's height
            self.send({"type": "cut", "height": action.height})
        elif isinstance(action, Draw):
            kind = {"stock": "draw", "discard": "take_discard", "cut_card": "take_cut"}
            if action.source == "discard" and self.rng.random() < 0.5:
                kind["discard"] = "pile"  # a click on the discard pile
            self.send({"type": kind[action.source]})
        elif isinstance(action, Discard):
            if self.rng.random() < 0.5:  # dragged onto the discard pile
                self.send({"type": "discard", "index": index_of(table, str(action.card))})
            else:  # selected, then the Discard button (or a click on the pile, or "x")
                self.select((action.card,))
                self.send({"type": "discard"})
        elif isinstance(action, (PlayMeld, LayOff)):
            message: dict[str, Any] = {"type": action.kind}
            if isinstance(action, LayOff):
                message["meld"] = action.meld
            if isinstance(action, LayOff) and len(action.cards) == 1 and self.rng.random() < 0.5:
                message["index"] = index_of(table, str(action.cards[0]))  # dropped on the meld
            else:
                self.select(action.cards)
            if action.joker_as is not None:
                self.send(message)  # first without saying what the joker is
                if table.verdict is not None and not table.verdict.ok:
                    assert codes(table) == ["joker_ambiguous"]
                    named = action.joker_as
                    wanted = str(named) if isinstance(named, Card) else [str(c) for c in named]
                    offered = [c["joker_as"] for c in table.view["joker_choices"]]
                    assert wanted in offered, (wanted, offered)
                    assert table.view["pending"] == message
                    self.refusals["joker_ambiguous"] += 1
                    # the page's choice button repeats the pending message with the choice
                    self.send({**table.view["pending"], "joker_as": wanted})
            else:
                self.send(message)
        elif isinstance(action, ExchangeJoker):
            self.select((action.card,))
            self.send({"type": "exchange", "meld": action.meld})
        else:
            self.send({"type": action.kind})
        assert_played(table)
        mine = game.actions[count]
        assert mine[0] == table.seat
        assert type(mine[1]) is type(action)
        # the cards go in the order shown; the referee arranges the meld
        assert Counter(getattr(mine[1], "cards", ())) == Counter(getattr(action, "cards", ()))
        assert getattr(mine[1], "card", None) == getattr(action, "card", None)

    def provoke_refusal(self) -> None:
        """Send a move the referee refuses; the selection and the state must stay."""
        table, game = self.table, self.table.game
        before = game.snapshot()
        self.send({"type": "clear"})
        if game.phase == "cut":  # no cards yet: anything but the cut is refused
            self.send({"type": "draw"})
            assert_refused(table, "cut_first", rule="H3")
            assert table.view["alert"].startswith("Cut the deck first")
            assert game.snapshot() == before
            self.refusals["cut_first"] += 1
            return
        self.send({"type": "select", "index": self.rng.randrange(len(table.hand_order))})
        kept = list(table.selected)
        if game.phase == "draw":
            self.send({"type": "discard"})  # discard before drawing
            expected = "draw_first"
        elif self.rng.random() < 0.5:
            self.send({"type": "draw"})  # draw twice
            expected = "starter_discards" if game.turn_info().drew == "start" else "already_drew"
        elif not game.turn_info().provisional:
            self.send({"type": "undo"})  # nothing to undo yet
            expected = "nothing_to_undo"
        else:
            self.send({"type": "take_discard"})  # a second draw
            expected = "already_drew"
        assert_refused(table, expected)
        assert table.selected == kept  # the selection survives a refusal
        assert game.snapshot() == before
        self.refusals[expected] += 1
        self.send({"type": "clear"})

    def play_round(self) -> None:
        table = self.table
        moves = 0
        while not table.game.is_over:
            # the computer seats played on their own (ai_delay=0) until it was our turn
            assert table.game.current == table.seat
            if moves % 4 == 0:
                self.provoke_refusal()
            if moves == 1:
                self.send({"type": "hint"})
                assert_hint_is_a_move_to_type_back(table)
            self.play(self.choose())
            moves += 1
            assert moves < 1000


FULL_ROUNDS = [
    ("rommi", 2, "normal", 1),
    ("rommi", 3, ["easy", "hard"], 2),
    ("rommi", 4, "easy", 3),
    ("hungarian", 2, "normal", 4),
    ("hungarian", 3, [None, "hard", "easy"], 5),
    ("hungarian", 4, "normal", 6),
    ("hungarian", 2, "hard", 13),
]


@pytest.mark.parametrize(("variant", "players", "ai", "seed"), FULL_ROUNDS)
def test_full_round_through_messages(variant: str, players: int, ai: Any, seed: int) -> None:
    table = Table(variant, players=players, ai=ai, seed=seed, ai_delay=0)
    sent = capture(table)
    table.handle({"type": "log", "since": 0})  # what a page asks for when it first draws
    check_view(table)
    learner = Learner(table, seed)
    learner.play_round()
    game, match = table.game, table.match
    assert match is not None
    assert learner.sent["draw"] + learner.sent["take_discard"] > 0
    assert learner.sent["select"] > 0
    assert sum(learner.refusals.values()) > 0

    # every card is still somewhere
    assert sum(game.all_cards().values()) == len(game.variant.deck())

    # the whole round's moves are logged (the computer's with their reasoning), in order,
    # and the page rebuilds the log from the new entries it was sent
    ai_moves = [str(a) for seat, a in game.actions if seat != table.seat]
    assert [entry["action"] for entry in table.ai_log] == ai_moves
    for entry in table.ai_log:
        assert entry["seat"] != table.seat
        assert entry["why"] and entry["trace_html"].strip().startswith("<")
    mine = [e for e in table.moves if e["mine"]]
    assert len(mine) == sum(1 for seat, _ in game.actions if seat == table.seat)
    assert all(e["text"].startswith("You ") for e in mine)
    assert page_log(sent) == table.moves
    assert [e["number"] for e in table.moves] == list(range(1, len(table.moves) + 1))

    # the scoring, line by line ("You" for the learner), then the match totals with names
    assert game.result is not None
    lines = table.view["result"]
    assert len(lines) >= len(game.result.lines)
    for line, reason in zip(lines, game.result.lines):
        if reason.params.get("seat") == table.seat:
            assert line.startswith("You ") and line.endswith(f"({reason.rule})")
        else:
            assert line == str(reason)
    totals = ", ".join(f"{table.names[s]} {t}" for s, t in enumerate(match.totals))
    assert lines[len(game.result.lines)] == f"Match totals: {totals}"
    # the status says who won and what to press next; the score bar is up to date
    status = table.view["status"]
    winner = game.result.winner
    if winner == table.seat:
        assert status.startswith("You ") and "won the round" in status
    elif winner is not None:
        assert status.startswith(table.names[winner])
    assert status.endswith("Press Next round to deal round 2.")
    assert table.view["scores"] == list(match.totals)
    assert table.view["score_sheet"] == [list(game.result.points)]
    assert table.view["phase"] == "over" and not table.view["my_turn"]
    assert table.view["can"]["next_round"]
    assert not any(table.view["can"][k] for k in ("draw", "discard", "meld", "undo"))

    # the next round: a new deal, the dealer moved one seat, the totals carried
    dealer, first = game.dealer, game
    table.handle({"type": "next_round"})
    assert table.game is not first and match.round_number == 2
    assert table.game.dealer == (dealer + 1) % players
    assert table.view["result"] == [] and table.verdict is None
    assert table.view["scores"] == list(match.totals)
    assert table.game.current == table.seat  # computer seats that start have played
    ai_moves = [str(a) for seat, a in table.game.actions if seat != table.seat]
    assert [entry["action"] for entry in table.ai_log] == ai_moves
    assert page_log(sent) == table.moves  # the page started the new round's log afresh
    if not ai_moves:
        assert table.view["announcement"] == "Round 2 is dealt."
    check_view(table)
    # and it can be played through as well
    Learner(table, seed + 100).play_round()
    assert match.round_number == 2 and table.view["result"]


def test_whole_match_to_the_end() -> None:
    """Hungarian: seven rounds (H14), the standings shown, no next round offered."""
    table = Table("hungarian", players=2, ai="normal", seed=21, ai_delay=0)
    agent = make_agent("normal")
    match = table.match
    assert match is not None
    while True:
        while not table.game.is_over:
            table.act(agent.decide(table.game.observation(0)).action)
        if match.is_over:
            break
        table.handle({"type": "next_round"})
    assert match.round_number == 7
    view = table.view
    assert view["match_over"] and not view["can"]["next_round"]
    standings = [f"{s.place}. {table.names[s.seat]}: {s.total}" for s in match.standings()]
    assert view["result"][-len(standings) :] == standings
    assert table.labels["match_over_title"] == "Match over"
    assert "The match is over" in view["status"]
    assert view["score_sheet"] == [list(g.result.points) for g in match.rounds if g.result]
    assert view["scores"] == list(match.totals)
    table.handle({"type": "next_round"})
    assert table.game is match.rounds[-1]
    assert table.view["verdict"]["reasons"][0]["code"] == "widget_no_next_round"
    assert table.view["alert"] == "There is no next round to deal yet."


# --- every message, one at a time ------------------------------------------------------------


def test_draw_from_stock_and_take_discard() -> None:
    table = Table("rommi", players=2, ai="easy", seed=3, ai_delay=0)
    game = table.game
    assert game.current == 0 and game.phase == "draw"
    stock, hand, count = game.stock_size, len(game.hand(0)), len(game.actions)
    table.handle({"type": "draw"})
    assert_played(table)
    assert game.stock_size == stock - 1 and len(game.hand(0)) == hand + 1
    assert table.view["announcement"] == "You drew from the stock."
    assert not table.view["can"]["draw"]
    assert (
        table.view["why"]["draw"]
        == "You have already drawn this turn: lay down, lay off, or discard."
    )
    # nothing selected: the Discard button says what to do rather than staying silent
    assert not table.view["can"]["discard"]
    assert table.view["why"]["discard"].startswith("Select exactly one card to discard")
    table.handle({"type": "select", "index": 2})
    assert table.view["can"]["discard"]
    table.handle({"type": "clear"})
    # discard by drop: the page sends the index of the dragged card
    card = table.hand_order[2]
    table.handle({"type": "discard", "index": 2})
    assert game.actions[count : count + 2] == [(0, Draw("stock")), (0, Discard(card))]
    check_view(table)
    # next turn (after the computer's): take the discard pile's top
    top = game.discard_pile[-1]
    table.handle({"type": "take_discard"})
    assert_played(table)
    assert game.actions[-1] == (0, Draw("discard"))
    assert top in game.hand(0)


def test_sort_keeps_the_selection_and_selects_by_position() -> None:
    table = Table(
        position={"hands": ["9♠ 2♥ K♦ 2♣ 9♦ 5♠", "3♦ 4♦ 5♦ 7♣"], "discard": "8♥"},
        variant="rommi",
        ai="easy",
        ai_delay=0,
    )
    assert hand_texts(table) == ["5♠", "9♠", "2♥", "9♦", "K♦", "2♣"]
    select(table, "9♠", "2♣")
    table.handle({"type": "sort", "by": "rank"})
    assert hand_texts(table) == ["2♥", "2♣", "5♠", "9♠", "9♦", "K♦"]
    assert sorted(str(table.hand_order[i]) for i in table.selected) == ["2♣", "9♠"]
    check_view(table)
    table.handle({"type": "select", "index": 1})  # clicking a selected card unselects it
    assert [str(table.hand_order[i]) for i in table.selected] == ["9♠"]
    table.handle({"type": "select", "index": 99})  # out of range: ignored
    assert len(table.selected) == 1
    table.handle({"type": "sort", "by": "suit"})
    assert [str(table.hand_order[i]) for i in table.selected] == ["9♠"]
    table.handle({"type": "clear"})
    assert table.selected == []
    check_view(table)


def test_refused_meld_highlights_the_cards_and_keeps_the_selection() -> None:
    table = Table(
        position={"hands": ["A♥ 2♥ 3♥ 4♥ 9♠ K♦ 5♣", "2♦ 3♦ 9♦"], "discard": "8♣", "phase": "play"},
        variant="rommi",
        ai="easy",
        ai_delay=0,
    )
    before = table.game.snapshot()
    chosen = select(table, "A♥", "2♥", "3♥")
    table.handle({"type": "meld"})
    assert_refused(table, "ace_low_not_allowed", rule="R3")
    assert highlighted(table) == ["A♥"]
    assert sorted(table.selected) == sorted(chosen)  # kept, so the learner can fix it
    assert table.game.snapshot() == before
    assert "(R3)" in table.view["verdict"]["text"]
    assert [c["text"] for c in table.view["verdict"]["cards"]] == ["A♥"]
    assert [c["highlight"] for c in table.view["verdict"]["cards"]] == [True]
    # both sides explained: not a set, not a run
    select(table, "9♠", "K♦")
    table.handle({"type": "meld"})
    assert_refused(table, "too_few_cards", "set_rank_mismatch", "run_suit_mismatch")
    assert highlighted(table) == ["9♠", "K♦"]
    # four reasons name the same two cards: the panel shows them once
    assert len(table.verdict.cards) == 2
    assert [c["text"] for c in table.view["verdict"]["cards"]] == ["9♠", "K♦"]
    # fixed: unselect A♥, add 4♥; success clears the selection and the verdict
    select(table, "2♥", "3♥", "4♥")
    table.handle({"type": "meld"})
    assert_played(table)
    assert [str(c) for c in table.game.table[0].meld.cards] == ["2♥", "3♥", "4♥"]
    assert table.view["announcement"] == "You laid down 2♥ 3♥ 4♥ (meld 1)."
    assert table.view["melds"][0]["label"] == "Meld 1 (You): 2♥ 3♥ 4♥"


def test_buttons_without_a_selection_guide_the_learner() -> None:
    table = Table(
        position={"hands": ["A♥ 2♥ 3♥ 9♠", "2♦ 3♦ 9♦"], "discard": "8♣", "phase": "play"},
        variant="rommi",
        ai="easy",
        ai_delay=0,
    )
    before = table.game.snapshot()
    for message, code in [
        ({"type": "meld"}, "widget_select_meld"),
        ({"type": "discard"}, "widget_select_one_discard"),
        ({"type": "layoff", "meld": 0}, "widget_select_layoff"),
        ({"type": "exchange", "meld": 0}, "widget_select_exchange"),
        ({"type": "shuffle"}, "widget_unknown_message"),
    ]:
        table.handle(message)
        assert [r["code"] for r in table.view["verdict"]["reasons"]] == [code]
        assert table.view["alert"] == table.view["verdict"]["reasons"][0]["message"]
        check_view(table)
    select(table, "A♥", "9♠")
    table.handle({"type": "discard"})  # two selected: which one?
    assert table.view["verdict"]["reasons"][0]["code"] == "widget_select_one_discard"
    assert len(table.selected) == 2
    assert table.game.snapshot() == before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_buttons_before_drawing_say_draw_first(players: int) -> None:
    """ "x", Meld, a lay-off or an exchange pressed before drawing, cards selected or not:
    the engine's "draw first" (R4), not "select a card" — the refused control's own tip."""
    table = Table("rommi", players=players, ai="easy", seed=4, ai_delay=0)
    assert table.game.phase == "draw" and table.game.current == table.seat
    before = table.game.snapshot()
    for message in ({"type": "discard"}, {"type": "meld"}, {"type": "discard", "index": 0}):
        for chosen in ([], [0], [0, 1]):
            table.handle({"type": "clear"})
            for i in chosen:
                table.handle({"type": "select", "index": i})
            table.handle(message)
            codes = [r["code"] for r in table.view["verdict"]["reasons"]]
            assert "draw_first" in codes, (message, chosen, codes)
            if not chosen and "index" not in message:
                assert codes == ["draw_first"], (message, chosen, codes)
                assert table.view["alert"].startswith("Draw first")
    assert table.view["why"]["discard"].startswith("Draw first")
    assert table.view["why"]["meld"].startswith("Draw first")  # its tip says the same
    assert table.game.snapshot() == before
    # on the computer's turn: "not your turn", whatever is selected
    table.ai_delay = 1
    table.handle({"type": "draw"})
    table.handle({"type": "select", "index": 0})
    table.handle({"type": "discard"})
    assert table.game.current != table.seat
    table.handle({"type": "discard"})
    assert [r["code"] for r in table.view["verdict"]["reasons"]] == ["not_your_turn"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_with_no_delay_the_learners_move_is_announced_before_the_computers(players: int) -> None:
    table = Table("rommi", players=players, ai="easy", seed=4, ai_delay=0)
    table.handle({"type": "draw"})
    assert table.view["announcement"] == "You drew from the stock."
    table.handle({"type": "select", "index": 0})
    card = table.hand_order[0]
    moves = len(table.moves)
    table.handle({"type": "discard"})
    said = table.view["announcement"]
    assert said.startswith(f"You discarded {card}. ")
    theirs = [m for m in table.moves[moves:] if not m["mine"]]
    assert {m["seat"] for m in theirs} == set(range(1, players))  # every computer seat moved
    # then each computer move, in the order played; the log keeps each move to itself
    assert said == " ".join([f"You discarded {card}."] + [m["text"] for m in theirs])
    assert table.moves[moves]["text"] == f"You discarded {card}."
    assert all(not m["text"].startswith("You ") for m in theirs)
    # a computer's step on its own (ai_delay > 0) says only its move
    slow = Table("rommi", players=players, ai="easy", seed=4, ai_delay=0.5)
    slow.run_ai()
    slow.handle({"type": "draw"})
    slow.handle({"type": "select", "index": 0})
    slow.handle({"type": "discard"})
    assert slow.view["announcement"].startswith("You discarded")
    slow.handle({"type": "ai_step"})
    assert slow.view["announcement"] == slow.moves[-1]["text"]


def test_four_colour_deck_from_the_tables_settings() -> None:
    table = Table("hungarian", players=2, ai="easy", seed=5, ai_delay=0, four_colour=False)
    assert table.view["four_colour"] is False and "#c8102e" in table.deck["Q♦"]
    assert table.labels["settings"] == "Settings" and "four" in table.labels["four_colour"].lower()
    table.handle({"type": "settings", "four_colour": True})
    assert table.view["four_colour"] is True
    assert "#1f5fbf" in table.deck["Q♦"] and "#1a7f37" in table.deck["7♣"]
    assert "#c8102e" in table.deck["Q♥"]  # hearts stay red, spades black
    for bad in ("no", 0, None):  # only true or false: anything else is said, not guessed
        table.handle({"type": "settings", "four_colour": bad})
        assert table.view["four_colour"] is True
        assert table.view["verdict"]["reasons"][0]["code"] == "widget_unknown_message"
    table.handle({"type": "settings", "four_colour": False})
    assert "#c8102e" in table.deck["Q♦"]


def test_the_class_page_keeps_the_four_colour_deck_for_a_new_game() -> None:
    from rummykit.widgets.class_table import ClassTable

    page = ClassTable("rommi", "easy", seed=5)
    page.table.handle({"type": "settings", "four_colour": True})
    page.choose("hungarian", "easy", seed=6)
    assert page.table.four_colour and "#1f5fbf" in page.table.deck["Q♦"]


@pytest.mark.parametrize("language", ["en", "pt", "fi"])
def test_every_card_is_named_by_what_it_shows_then_in_words(language: str) -> None:
    """WCAG 2.5.3: a name starts with the rank the picture shows ("Q, queen of spades");
    words that start with it stay as they are ("10 of hearts")."""
    from rummykit.language import within
    from rummykit.widgets.view import card_name

    rules = variant("hungarian")
    with within(language):
        for card in set(rules.deck()):
            name, corner = card_name(card), ("JOKER" if card.is_joker else card.rank_letter)
            assert name.casefold().split()[0].rstrip(",") == corner.casefold().rstrip("i") or (
                card.is_joker and name.casefold() == card.label.casefold()
            ), name
            assert name.endswith(card.label)
    table = Table("hungarian", players=2, ai="easy", seed=5, ai_delay=0, language=language)
    for c in table.view["hand"]:
        assert c["name"].endswith(c["label"]) and c["name"].startswith(c["text"][:-1])


def test_a_meld_is_named_with_its_cards_in_words() -> None:
    table = Table(
        position={"hands": ["A♥ 9♠", "2♦ 3♦ 9♦"], "table": [(0, "Q♠ K♠ A♠")], "phase": "play"},
        variant="rommi",
        ai="easy",
        ai_delay=0,
    )
    (meld,) = table.view["melds"]
    assert meld["name"] == "Meld 1 (You): queen of spades, king of spades, ace of spades"
    assert meld["label"] == "Meld 1 (You): Q♠ K♠ A♠"


def test_messages_arrive_through_the_widget_comm() -> None:
    """The page's ``model.send`` lands in ``handle``; a malformed message is explained."""
    table = Table("rommi", players=2, ai="easy", seed=3, ai_delay=0)
    table._handle_custom_msg({"type": "draw"}, [])
    assert table.game.actions[-1] == (0, Draw("stock"))
    table._handle_custom_msg({"type": "select"}, [])  # no index
    assert table.view["verdict"]["reasons"][0]["code"] == "widget_unknown_message"
    table._handle_custom_msg({"type": "discard", "index": "x"}, [])
    assert table.view["verdict"]["reasons"][0]["code"] == "widget_unknown_message"
    table._handle_custom_msg({"type": "meld", "joker_as": "Z9"}, [])
    assert table.view["verdict"]["reasons"][0]["code"] == "widget_unknown_message"
    table._handle_custom_msg("not a dict", [])
    assert table.game.phase == "play"
    check_view(table)


def test_a_click_sends_the_larger_view_entries_only_when_they_change() -> None:
    """The hand, the melds, the reasons… are traits of their own: a click that leaves one as
    it was doesn't send it again, and what is sent always rebuilds the whole view."""
    table = Table("hungarian", players=2, ai="easy", seed=5, ai_delay=0)
    sent: list[str] = []
    table.observe(lambda change: sent.append(change["name"]), names=list(table.keys))
    table.handle({"type": "hint"})
    assert "view" in sent and "view_hint_detail" in sent
    assert "view_hand" not in sent and "view_melds" not in sent and "view_players" not in sent
    sent.clear()
    table.handle({"type": "select", "index": 2})
    assert {"view", "view_hand", "view_hint_detail"} <= set(sent)  # the hint is cleared
    assert "view_players" not in sent
    check_view(table)


HUNGARIAN_OPENING = {
    "hands": [
        "3♣ 4♣ 5♣ 9♠ 9♦ 9♣ Q♠ Q♦ Q♣ 7♥ 2♦",
        "2♠ 3♠ 4♠ 8♦ 8♣ K♥ K♠ J♦ 6♠ 10♦ 10♥",
    ],
    "discard": "6♦",
    "phase": "play",
    "turns": [1, 1],
}


def test_H8_opening_status_always_visible_and_undo() -> None:
    table = Table(position=HUNGARIAN_OPENING, variant="hungarian", ai="normal", ai_delay=0)
    assert table.view["opening"] == "Opening: 0 of 51"
    assert "Opening: 0 of 51 points so far." in table.view["status"]
    select(table, "3♣", "4♣", "5♣")
    table.handle({"type": "meld"})
    assert_played(table)
    assert table.view["opening"] == "Opening: 12 of 51"
    assert table.view["can"]["undo"]
    # ending the turn short of 51 is refused (H8); the drop does not change anything
    before = table.game.snapshot()
    table.handle({"type": "discard", "index": index_of(table, "2♦")})
    assert_refused(table, "turn_opening_short", rule="H8")
    assert table.game.snapshot() == before
    # undo takes the meld back into the hand
    table.handle({"type": "undo"})
    assert_played(table)
    assert table.game.table == () and "3♣" in hand_texts(table)
    assert table.view["opening"] == "Opening: 0 of 51"
    assert table.view["announcement"] == "You took back a move."
    table.handle({"type": "undo"})
    assert_refused(table, "nothing_to_undo")
    # 12 + 27 + 30 = 69: opened; the status goes once the turn can end
    for cards in (["3♣", "4♣", "5♣"], ["9♠", "9♦", "9♣"]):
        select(table, *cards)
        table.handle({"type": "meld"})
        assert_played(table)
    assert table.view["opening"] == "Opening: 39 of 51"
    select(table, "Q♠", "Q♦", "Q♣")
    table.handle({"type": "meld"})
    assert_played(table)
    assert table.view["opening"] == ""
    table.handle({"type": "discard", "index": index_of(table, "2♦")})
    assert_played(table)
    assert table.game.opened(0) and table.game.current == 0  # the AI played its turn


def test_identical_cards_refused_and_both_shown() -> None:
    """Hungarian plays with two decks: the panel keeps both copies of the offending card."""
    position = {**HUNGARIAN_OPENING, "hands": ["5♥ 5♥ 5♠ 9♣ 2♦", "2♠ 3♠ 4♠ 8♦ 8♣"]}
    table = Table(position=position, variant="hungarian", ai="normal", ai_delay=0)
    select(table, "5♥", "5♥", "5♠")
    table.handle({"type": "meld"})
    assert_refused(table, "identical_cards", rule="H4")
    assert [c["text"] for c in table.view["verdict"]["cards"]] == ["5♥", "5♥"]
    assert highlighted(table) == ["5♥", "5♥"]


def test_H9_no_opening_on_the_first_turn_is_explained() -> None:
    position = {**HUNGARIAN_OPENING, "turns": [0, 0]}
    table = Table(position=position, variant="hungarian", ai="normal", ai_delay=0)
    select(table, "9♠", "9♦", "9♣")
    table.handle({"type": "meld"})
    assert_refused(table, "first_turn_no_opening", rule="H9")
    assert len(table.selected) == 3


def test_layoff_by_clicking_a_meld_and_by_dropping_on_it() -> None:
    table = Table(
        position={
            "hands": ["8♠ 4♠ K♦ 2♣ 3♣", "2♦ 3♦ 9♦ 5♥"],
            "table": [(1, "5♠ 6♠ 7♠")],
            "discard": "8♣",
            "phase": "play",
        },
        variant="rommi",
        ai="easy",
        ai_delay=0,
    )
    # select + click on the meld
    select(table, "8♠")
    table.handle({"type": "layoff", "meld": 0})
    assert_played(table)
    assert [str(c) for c in table.game.table[0].meld.cards] == ["5♠", "6♠", "7♠", "8♠"]
    assert table.view["announcement"] == "You laid off 8♠ onto meld 1."
    # a refused drop: the card is marked and the rule cited; nothing changes
    before = table.game.snapshot()
    table.handle({"type": "layoff", "meld": 0, "index": index_of(table, "K♦")})
    assert_refused(table)
    assert highlighted(table) == ["K♦"]
    assert table.game.snapshot() == before
    table.handle({"type": "layoff", "meld": 5, "index": 0})
    assert_refused(table, "no_such_meld")
    # a drop onto the meld: the index of the dragged card, no selection needed
    select(table, "2♣")  # a selection the drop must not use
    table.handle({"type": "layoff", "meld": 0, "index": index_of(table, "4♠")})
    assert_played(table)
    assert [str(c) for c in table.game.table[0].meld.cards] == ["4♠", "5♠", "6♠", "7♠", "8♠"]


def test_H5_joker_as_chosen_after_joker_ambiguous_meld() -> None:
    table = Table(
        position={
            "hands": ["5♥ 6♥ 🃏 9♠ 9♦ 9♣ K♠ 2♣", "2♦ 3♦ 9♦ 9♣ 4♠"],
            "discard": "8♣",
            "phase": "play",
            "turns": [1, 1],
        },
        variant="hungarian",
        ai="easy",
        ai_delay=0,
    )
    select(table, "5♥", "6♥", "🃏")
    table.handle({"type": "meld"})
    assert_refused(table, "joker_ambiguous", rule="H5")
    assert sorted(c["joker_as"] for c in table.view["joker_choices"]) == ["4♥", "7♥"]
    assert [c["label"] for c in table.view["joker_choices"]] == ["🃏 = 4♥", "🃏 = 7♥"]
    assert table.view["pending"] == {"type": "meld"}
    assert highlighted(table) == ["5♥", "6♥", "🃏"]
    # the page's "🃏 = 4♥" button
    table.handle({**table.view["pending"], "joker_as": "4♥"})
    assert_played(table)
    meld = table.game.table[0].meld
    assert [str(r) for c, r in zip(meld.cards, meld.represents) if c.is_joker] == ["4♥"]
    assert table.view["melds"][0]["jokers"] == ["🃏 = 4♥"]
    assert table.view["joker_choices"] == []
    assert table.view["opening"] == "Opening: 15 of 51"


def _two_jokers_table(hand: str, table: tuple[tuple[int, str], ...] = ()) -> Table:
    """A table under the house rule ``jokers_per_meld=2``, both seats opened, seat 0 to play."""
    game = from_position(
        variant("hungarian", jokers_per_meld=2),
        hands=[hand, "2♦ 3♦ 9♦ 9♣ 4♠"],
        table=table,
        discard="8♣",
        phase="play",
        turns=[3, 3],
        opened=[True, True],
    )
    return Table(game=game, ai="easy", ai_delay=0)


def _joker_meanings(table: Table, index: int) -> list[str]:
    meld = table.game.table[index].meld
    return sorted(str(r) for c, r in zip(meld.cards, meld.represents) if c.is_joker)


@pytest.mark.parametrize(
    ("wanted", "kind"), [(["J♥", "Q♥"], "run"), (["Q♥", "A♥"], "run"), (None, "set")]
)
def test_H5_two_jokers_offered_as_whole_readings_in_words(wanted: Any, kind: str) -> None:
    table = _two_jokers_table("K♥ 🃏 🃏 2♦ 5♣")
    select(table, "K♥", "🃏", "🃏")
    table.handle({"type": "meld"})
    assert_refused(table, "joker_ambiguous", rule="H5")
    choices = table.view["joker_choices"]
    assert len(choices) == 3
    labels = [c["label"] for c in choices]
    # each button a whole reading, in the words of the refusal, never a printed tuple
    assert "the jokers are the J♥ and the Q♥" in labels
    assert "the jokers are the Q♥ and the A♥" in labels
    assert "the jokers are two of the missing K♠, K♦ and K♣" in labels
    for label in labels:
        assert "(" not in label and "Card" not in label and label in failing(table)[0]["message"]
    assert all(isinstance(c["joker_as"], list) and len(c["joker_as"]) == 2 for c in choices)
    if wanted is None:
        (choice,) = [c for c in choices if "missing" in c["label"]]
    else:
        (choice,) = [c for c in choices if sorted(c["joker_as"]) == sorted(wanted)]
    table.handle({**table.view["pending"], "joker_as": choice["joker_as"]})  # the button
    assert_played(table)
    meld = table.game.table[0].meld
    assert meld.kind == kind
    if wanted is not None:
        assert _joker_meanings(table, 0) == sorted(wanted)
    assert Counter(str(c) for c in meld.cards) == Counter(["K♥", "🃏", "🃏"])
    assert table.view["joker_choices"] == []


def test_H5_two_jokers_laid_off_at_once_with_the_reading_chosen() -> None:
    table = _two_jokers_table("🃏 🃏 2♣ 7♦", ((1, "5♥ 6♥ 7♥"),))
    select(table, "🃏", "🃏")
    before = table.game.snapshot()
    table.handle({"type": "layoff", "meld": 0})
    assert_refused(table, "joker_ambiguous", rule="H5")
    assert table.game.snapshot() == before
    offered = {tuple(c["joker_as"]): c["label"] for c in table.view["joker_choices"]}
    assert offered[("8♥", "9♥")] == "the jokers are the 8♥ and the 9♥"
    assert offered[("3♥", "4♥")] == "the jokers are the 3♥ and the 4♥"
    table.handle({**table.view["pending"], "joker_as": ["8♥", "9♥"]})
    assert_played(table)
    assert [str(c) for c in table.game.table[0].meld.cards] == ["5♥", "6♥", "7♥", "🃏", "🃏"]
    assert _joker_meanings(table, 0) == ["8♥", "9♥"]


def test_H5_joker_as_after_dropping_a_joker_on_a_meld() -> None:
    table = Table(
        position={
            "hands": ["🃏 K♠ 2♣ 7♦", "2♦ 3♦ 9♦ 9♣ 4♠"],
            "table": [(1, "5♥ 6♥ 7♥")],
            "discard": "8♣",
            "phase": "play",
            "turns": [3, 3],
            "opened": [True, True],
        },
        variant="hungarian",
        ai="easy",
        ai_delay=0,
    )
    select(table, "K♠")  # unrelated selection: the choice must repeat the drop, not use it
    table.handle({"type": "layoff", "meld": 0, "index": index_of(table, "🃏")})
    assert_refused(table, "joker_ambiguous")
    assert sorted(c["joker_as"] for c in table.view["joker_choices"]) == ["4♥", "8♥"]
    pending = table.view["pending"]
    assert pending == {"type": "layoff", "meld": 0, "index": index_of(table, "🃏")}
    table.handle({**pending, "joker_as": "8♥"})
    assert_played(table)
    assert [str(c) for c in table.game.table[0].meld.cards] == ["5♥", "6♥", "7♥", "🃏"]
    assert table.view["melds"][0]["jokers"] == ["🃏 = 8♥"]
    assert "K♠" in hand_texts(table)


def test_H11_exchange_a_joker_then_play_it_again() -> None:
    table = Table(
        position={
            "hands": ["6♥ K♠ 2♣ 9♠ 3♣ 4♣", "2♦ 3♦ 9♦ 9♣ 4♠"],
            "table": [(1, "5♥ 🃏 7♥")],
            "discard": "8♣",
            "phase": "play",
            "turns": [2, 2],
            "opened": [True, True],
        },
        variant="hungarian",
        ai="easy",
        ai_delay=0,
    )
    assert table.view["melds"][0]["jokers"] == ["🃏 = 6♥"]
    assert table.view["melds"][0]["exchange"] == {
        "enabled": False,
        "why": "Select the one card the joker stands for, then click Exchange on that meld.",
    }
    select(table, "K♠")
    table.handle({"type": "exchange", "meld": 0})
    assert_refused(table, "joker_wrong_card", rule="H11")
    assert highlighted(table) == ["K♠"]
    select(table, "6♥")
    table.handle({"type": "exchange", "meld": 0})
    assert_played(table)
    assert [str(c) for c in table.game.table[0].meld.cards] == ["5♥", "6♥", "7♥"]
    assert "🃏" in hand_texts(table)
    assert table.view["announcement"] == "You exchanged 6♥ for the joker in meld 1."
    # the joker must go back on the table before the turn ends
    table.handle({"type": "discard", "index": index_of(table, "9♠")})
    assert_refused(table, "joker_replay", rule="H11")
    select(table, "3♣", "4♣", "🃏")
    table.handle({"type": "meld"})
    assert_refused(table, "joker_ambiguous")
    table.handle({**table.view["pending"], "joker_as": "5♣"})
    assert_played(table)
    count = len(table.game.actions)
    table.handle({"type": "discard", "index": index_of(table, "9♠")})
    assert_played(table)
    assert table.game.actions[count] == (0, Discard(as_cards("9♠")[0]))


CUT_POSITION = {
    "hands": ["6♥ 7♥ 8♥ K♠ K♦ K♣ 2♣ 3♣ 4♣ 9♦", "2♦ 3♦ 9♦ 9♣ 4♠"],
    "cut_card": "5♣",
    "discard": "8♣",
    "phase": "draw",
    "turns": [2, 2],
    "opened": [True, True],
}


def test_H10_cut_card_returned_when_not_going_out() -> None:
    game = Game.from_position("hungarian", **CUT_POSITION)
    table = Table(game=game, ai="easy", ai_delay=0)
    assert table.game is game
    assert table.view["cut_card"]["text"] == "5♣" and table.view["can"]["take_cut"]
    table.handle({"type": "take_cut"})
    assert_played(table)
    assert table.view["cut_card"] is None and table.view["can"]["return_cut"]
    assert "5♣" in hand_texts(table)
    select(table, "6♥", "7♥", "8♥")
    table.handle({"type": "meld"})
    assert_played(table)
    # a discard that does not go out is refused: the cut card is marked
    table.handle({"type": "discard", "index": index_of(table, "K♠")})
    assert_refused(table, "cut_card_must_go_out", rule="H10")
    assert highlighted(table) == ["5♣"]
    # give it back: everything done with it is undone
    table.handle({"type": "return_cut"})
    assert_played(table)
    assert table.game.table == () and table.game.phase == "draw"
    assert table.view["cut_card"]["text"] == "5♣" and "5♣" not in hand_texts(table)
    assert table.view["announcement"] == "You gave back the cut card 5♣."
    table.handle({"type": "take_cut"})
    assert_refused(table, "cut_card_second_attempt", rule="H10")
    table.handle({"type": "return_cut"})
    assert_refused(table, "cut_not_taken")
    table.handle({"type": "draw"})
    assert_played(table)


def test_H10_going_out_with_the_cut_card_ends_the_round() -> None:
    table = Table(position=CUT_POSITION, variant="hungarian", ai="easy", ai_delay=0)
    assert table.match is None
    table.handle({"type": "take_cut"})
    for cards in (["6♥", "7♥", "8♥"], ["K♠", "K♦", "K♣"], ["2♣", "3♣", "4♣", "5♣"]):
        select(table, *cards)
        table.handle({"type": "meld"})
        assert_played(table)
    table.handle({"type": "discard", "index": 0})
    assert_played(table)
    game = table.game
    assert game.is_over and game.result is not None and game.result.winner == 0
    lines = table.view["result"]
    assert len(lines) == len(game.result.lines)  # no match: no totals line
    assert lines[0] == "You went out: -10. (H12)"
    assert table.view["status"].startswith("You went out and won the round!")
    assert table.view["scores"] == list(game.result.points)
    assert any("(H13)" in line for line in lines[1:])
    assert not table.view["can"]["next_round"]
    table.handle({"type": "next_round"})
    assert table.view["verdict"]["reasons"][0]["code"] == "widget_no_next_round"
    table.handle({"type": "draw"})
    assert_refused(table, "round_over")


def test_hint_on_my_turn_only_and_ai_steps_one_at_a_time() -> None:
    table = Table("hungarian", players=3, ai=["easy", "normal"], seed=8, ai_delay=0.5)
    game = table.game
    assert game.phase == "cut" and game.current == 2  # the dealer's right cuts (H3)
    assert table.ai_log == [] and not table.view["my_turn"] and table.view["cut"] is None
    table.handle({"type": "hint"})
    assert table.view["hint"] == "Hints are for your own turn."
    # the page asks for one AI move at a time (after ai_delay seconds)
    steps = 0
    while game.current != 0:
        logged = len(table.ai_log)
        table.handle({"type": "ai_step"})
        assert len(table.ai_log) == logged + 1
        entry = table.ai_log[-1]
        assert entry["action"] == str(game.actions[-1][1])
        assert entry["name"] == table.names[entry["seat"]]
        check_view(table)
        steps += 1
    assert steps >= 2
    assert table.view["hint"] == ""  # a hint is cleared by the next message
    table.handle({"type": "ai_step"})  # the learner's turn: nothing happens
    assert len(table.ai_log) == steps
    table.handle({"type": "hint"})
    assert_hint_is_a_move_to_type_back(table)
    # the learner's move does not make the computer play (the page's timer does)
    table.handle({"type": "draw"})
    table.handle({"type": "discard", "index": 0})
    assert game.current == 1 and len(table.ai_log) == steps
    assert table.view["opening"] == "Opening: 0 of 51"  # shown during the others' turns too


# --- setting up a table ----------------------------------------------------------------------


def test_table_from_a_game_a_saved_record_and_a_position() -> None:
    game = Game.new("rommi", players=3, seed=9)
    agent = make_agent("easy")
    while game.current != 0 or game.phase != "draw":
        game.play(agent.decide(game.observation(game.current)).action)
    from_game = Table(game=game, ai="easy", ai_delay=0)
    assert from_game.game is game and from_game.match is None
    assert repr(from_game) == "Table('rommi', players=3, seat=0, ai=['easy', 'easy'], seed=9)"
    check_view(from_game)

    text = dumps(game)
    from_record = Table(record=text, ai=["normal", "hard"], ai_delay=0)
    assert from_record.game.snapshot() == game.snapshot()
    assert repr(from_record) == "Table('rommi', players=3, seat=0, ai=['normal', 'hard'], seed=9)"
    check_view(from_record)
    from_record.handle({"type": "draw"})
    assert_played(from_record)

    position = {"hands": ["5♥ 6♥ 7♥ K♠", "2♣ 3♣ 9♦"], "discard": "8♥"}
    from_position = Table(position=position, variant="rommi", ai="hard", ai_delay=0)
    assert hand_texts(from_position) == ["K♠", "5♥", "6♥", "7♥"]
    assert from_position.view["discard_top"]["text"] == "8♥"
    assert repr(from_position) == "Table('rommi', players=2, seat=0, ai=['hard'], seed=0)"
    check_view(from_position)


def test_table_seat_and_ai_choices() -> None:
    table = Table("rommi", players=3, seat=1, ai=["hard", None, "easy"], seed=2, ai_delay=0)
    assert [a.name if a else None for a in table.agents] == ["hard", None, "easy"]
    assert table.names == ["Seat 0 (hard AI)", "You", "Seat 2 (easy AI)"]
    assert table.game.current == 1 and table.view["seat"] == 1
    check_view(table)
    assert [a.name if a else None for a in Table(players=3, ai=["easy", "hard"]).agents] == [
        None,
        "easy",
        "hard",
    ]
    with pytest.raises(ValueError, match="not 1"):
        Table("rommi", players=3, ai=["easy"])
    with pytest.raises(ValueError, match="exactly one seat is yours"):
        Table("rommi", players=3, ai=[None, None, "easy"])
    with pytest.raises(ValueError, match="seat must be from 0 to 1"):
        Table("rommi", players=2, seat=2)


def test_four_colour_deck() -> None:
    from rummykit import display

    position = {"hands": ["5♦ 6♣ 7♥ K♠", "2♣ 3♣ 9♦"], "discard": "8♥"}
    four = Table(position=position, variant="rommi", ai="easy", four_colour=True)
    two = Table(position=position, variant="rommi", ai="easy")
    assert "#1f5fbf" in four.deck["5♦"]  # blue diamonds
    assert "#1f5fbf" not in json.dumps(two.deck)
    assert display.options.four_colour is False  # the global setting is left alone


def test_reprs_are_stable() -> None:
    """nbval compares text output: no widget ids, no memory addresses."""
    table = Table("hungarian", players=3, ai=["easy", "hard"], seed=4, ai_delay=0)
    stepper = AIStepper(table.game, agents="easy")
    checker = MeldChecker("rommi", cards="A♥ 2♥ 3♥")
    assert repr(table) == "Table('hungarian', players=3, seat=0, ai=['easy', 'hard'], seed=4)"
    assert re.fullmatch(
        r"AIStepper\('hungarian', decisions=\d+, seats=\[0, 1, 2\]\)", repr(stepper)
    )
    assert repr(checker) == "MeldChecker('rommi', cards='A♥ 2♥ 3♥')"
    again = Table("hungarian", players=3, ai=["easy", "hard"], seed=4, ai_delay=0)
    assert repr(again) == repr(table) and again.model_id != table.model_id
    for text in (repr(table), repr(stepper), repr(checker)):
        assert table.model_id not in text and "0x" not in text and " at " not in text


# --- the AI stepper --------------------------------------------------------------------------


def test_ai_stepper_steps_forward_and_back() -> None:
    game = Game.new("rommi", players=2, seed=2)
    easy = make_agent("easy")
    for _ in range(10):
        game.play(easy.decide(game.observation(game.current)).action)
    stepper = AIStepper(game, agents={0: "easy", 1: "hard"})
    assert repr(stepper) == "AIStepper('rommi', decisions=10, seats=[0, 1])"
    assert stepper.position == 0
    first = stepper._html.value
    step = stepper.steps[0]
    assert "Decision 1 of 10 — seat " in first
    assert "Its hand:" in first
    for card in step.observation.hand:  # the observation it had
        assert f"<title>{card}</title>" in first
    assert step.decision.trace._repr_html_() in first  # its reasoning
    assert step.played == game.actions[step.number][1] or step.number == 0
    assert stepper._slider.value == 1  # counted from 1, as "Decision 1" is
    stepper._next.click()
    assert stepper.position == 1 and stepper._slider.value == 2
    assert "Decision 2 of 10" in stepper._html.value
    stepper._prev.click()
    stepper._prev.click()  # clamped at the start
    assert stepper.position == 0 and stepper._html.value == first
    stepper._slider.value = 10  # the scrubber
    assert stepper.position == 9 and "Decision 10 of 10" in stepper._html.value
    stepper._next.click()
    assert stepper.position == 9
    # the hard agent replayed on the easy agent's moves: where they differ it says so
    others = [s for s in stepper.steps if s.played != s.decision.action]
    for s in others:
        stepper.go(s.number)
        assert f"In the game, this seat played instead: {s.played}." in stepper._html.value


def test_ai_stepper_from_a_saved_record_and_for_chosen_seats() -> None:
    table = Table("hungarian", players=3, ai="normal", seed=6, ai_delay=0)
    agent = make_agent("normal")
    for _ in range(3):
        table.act(agent.decide(table.game.observation(0)).action)
    text = dumps(table.game)
    stepper = AIStepper(text, agents="normal", seats=[1, 2])
    assert stepper.seats == [1, 2] and {s.seat for s in stepper.steps} == {1, 2}
    # the normal agent replayed on its own observations chooses what it chose in the game
    assert all(s.played == s.decision.action for s in stepper.steps)
    assert "What it remembers:" in stepper._html.value
    empty = AIStepper(Game.new("rommi", players=2, seed=1), agents="easy")
    assert empty.steps == [] and "No AI decisions in this game yet." in empty._html.value


# --- the meld checker ------------------------------------------------------------------------


def _palette(checker: MeldChecker) -> dict[str, Any]:
    """Every button under the variant and the cards, by the text it shows: the palette's
    cards (a click is the message the page sends) and the Undo and Clear buttons."""
    buttons: dict[str, Any] = {}
    for row in checker.palette.rows:
        for card in row:
            message = {"type": "add", "card": card["text"]}
            buttons[card["text"]] = SimpleNamespace(
                click=partial(checker.palette._message, None, message, None), **card
            )
    for button in checker.children[2].children:
        buttons[button.description] = button
    return buttons


def test_meld_checker_live_verdict_while_typing() -> None:
    checker = MeldChecker("hungarian")
    assert checker.verdict is None and "Type cards or click them" in checker._out.value
    checker._text.value = "K♠ A♠ 2♠"
    assert checker.verdict is not None and checker.verdict.codes == ("run_wraps",)
    assert "(H4)" in checker._out.value and "(at fault)" in checker._out.value
    checker._text.value = "5♥ 🃏 7♥"
    assert (
        checker.verdict.ok
        and "6♥" in checker._out.value
        and "(at fault)" not in (checker._out.value)
    )
    checker._text.value = "5♥ X"
    assert checker.verdict is None and "<b>" in checker._out.value  # the parse error, shown
    checker._text.value = "A♥ 2♥ 3♥"
    assert checker.verdict.ok
    checker._variant.value = "rommi"  # switching the variant re-checks
    assert checker.verdict.codes == ("ace_low_not_allowed",)
    assert "(R3)" in checker._out.value
    assert repr(checker) == "MeldChecker('rommi', cards='A♥ 2♥ 3♥')"


def test_meld_checker_palette_add_undo_clear() -> None:
    checker = MeldChecker("hungarian")
    palette = _palette(checker)
    assert len(palette) == 52 + 3  # every card, the joker, undo, clear
    for card in ("K♠", "A♠", "2♠"):
        palette[card].click()
    assert checker.cards == "K♠ A♠ 2♠"
    assert checker.verdict.codes == ("run_wraps",)
    assert checker._out.value.count("(at fault)") == 3
    palette["⌫ Undo"].click()
    assert checker.cards == "K♠ A♠"
    assert "too_few_cards" in checker.verdict.codes
    palette["Q♠"].click()
    palette["🃏"].click()
    assert checker.cards == "K♠ A♠ Q♠ 🃏"
    palette["Clear"].click()
    assert checker.cards == "" and checker.verdict is None


# --- the layers ------------------------------------------------------------------------------


def test_import_rummykit_does_not_import_widget_libraries() -> None:
    code = (
        "import sys, rummykit, rummykit.game, rummykit.ai, rummykit.melds; "
        "bad = [m for m in ('ipywidgets', 'anywidget', 'traitlets', 'IPython') "
        "if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- what a click sends, the cut, and the answers of every control ---------------------------


@pytest.mark.parametrize(("variant", "players"), [("hungarian", 4), ("rommi", 3)])
def test_a_learners_click_sends_at_most_10_kb(variant: str, players: int) -> None:
    """Pictures go once; a click sends the changed view (and its own log line), not the log."""
    table = Table(variant, players=players, ai="hard", seed=5, ai_delay=0.8)
    while table.game.current != table.seat:  # the page's timer asks for each computer move
        table.handle({"type": "ai_step"})
    table.handle({"type": "draw"})
    for _ in range(8):  # a long log to not resend: play on until the hand is large
        table.handle({"type": "discard", "index": 0})
        while table.game.current != table.seat and not table.game.is_over:
            table.handle({"type": "ai_step"})
        table.handle({"type": "draw"})
    assert len(table.ai_log) >= 8 and len(table.hand_order) >= 8
    log_bytes = len(json.dumps(table.ai_log))
    assert log_bytes > 10_000  # what used to be resent with every click
    sent = capture(table)
    for message in (
        {"type": "select", "index": 0},
        {"type": "select", "index": 1},
        {"type": "meld"},
        {"type": "clear"},
        {"type": "sort", "by": "rank"},
        {"type": "select", "index": 2},
        {"type": "discard"},
    ):
        before = len(sent)
        table.handle(message)
        size = sum(len(json.dumps(m)) for m in sent[before:])
        assert 0 < size <= 10_000, (message, size)
    assert all("svg" not in json.dumps(m) or "(at fault)" in json.dumps(m) for m in sent)


def test_you_templates_keep_the_engines_fields() -> None:
    """Each "You" sentence words the same facts as the engine's: no field lost or invented."""
    from string import Formatter

    from rummykit.messages import TEMPLATES

    def fields(code: str) -> set[str]:
        return {name for _, name, _, _ in Formatter().parse(TEMPLATES[code]) if name}

    mine = [code for code in TEMPLATES if code.startswith("widget_you_")]
    assert len(mine) >= 20
    for code in mine:
        engine = code.removeprefix("widget_you_")
        assert engine in TEMPLATES, code
        assert fields(code) <= fields(engine) | {"current_name"}, code
        assert fields(engine) - {"seat", "current"} <= fields(code), code


def test_H3_the_learner_cuts_with_the_slider() -> None:
    # two players, dealer 1 in round 2: the learner (seat 0) is to the dealer's right
    table = Table("hungarian", players=2, ai="easy", seed=3, ai_delay=0)
    assert table.game.phase != "cut"  # round 1: the computer cut (logged), then dealt
    assert table.ai_log[0]["action"].startswith("cut the deck at")
    agent = make_agent("easy")
    while not table.game.is_over:
        table.act(agent.decide(table.game.observation(0)).action)
    table.handle({"type": "next_round"})
    game = table.game
    assert game.phase == "cut" and game.current == 0 and table.view["my_turn"]
    cut = table.view["cut"]
    assert cut == {"min": 1, "max": 107, "value": 54}
    assert table.view["status"] == "Your cut: choose where to cut the deck."
    assert table.view["hand"] == []
    table.handle({"type": "draw"})
    assert_refused(table, "cut_first", rule="H3")
    table.handle({"type": "cut", "height": 200})
    assert_refused(table, "cut_bad_height")
    table.handle({"type": "cut", "height": 20})
    assert_played(table)
    assert table.view["cut"] is None and table.view["cut_card"] is not None
    assert table.view["announcement"].startswith("You cut the deck at 20; the cut card is ")
    assert game.actions[0] == (0, Cut(20))


def test_pile_click_double_draw_and_clear() -> None:
    table = Table("rommi", players=2, ai="easy", seed=3, ai_delay=0.5)
    while table.game.current != table.seat:
        table.handle({"type": "ai_step"})
    seen = table.view["seq"]
    table.handle({"type": "draw", "seen": seen})
    drawn = [c["text"] for c in table.view["hand"] if c.get("drawn")]
    assert len(drawn) == 1 and table.drawn is not None and drawn == [str(table.drawn)]
    count = len(table.game.actions)
    # the second click of a double click, sent before the page saw the first: dropped
    table.handle({"type": "draw", "seen": seen})
    assert len(table.game.actions) == count and table.verdict is None
    # the discard pile clicked with nothing selected: the engine's answer, not silence
    table.handle({"type": "pile", "seen": table.view["seq"]})
    assert_refused(table, "already_drew")
    assert table.view["alert"].startswith("You have already drawn this turn")
    # Clear selection takes the refusal (and its marks) away
    table.handle({"type": "clear"})
    assert table.view["verdict"] is None and table.view["alert"] == ""
    # a card selected, then the pile: that card is discarded
    card = table.hand_order[1]
    table.handle({"type": "select", "index": 1})
    table.handle({"type": "pile"})
    assert table.game.actions[-1] == (0, Discard(card))
    assert table.view["announcement"] == f"You discarded {card}."


def test_hungarian_opening_refusals_on_hover() -> None:
    """Discard is refused below 51 and says so before it is pressed (H8)."""
    table = Table(position=HUNGARIAN_OPENING, variant="hungarian", ai="normal", ai_delay=0)
    select(table, "3♣", "4♣", "5♣")
    table.handle({"type": "meld"})
    assert not table.view["can"]["discard"]
    assert table.view["why"]["discard"].startswith("Your melds total 12; opening needs 51")
    select(table, "9♠", "9♦", "9♣")
    assert table.view["can"]["meld"]  # the engine would allow this meld
    select(table, "9♠", "2♦")
    assert not table.view["can"]["meld"] and "at least three cards" in table.view["why"]["meld"]
    assert [p["opened"] for p in table.view["players"]] == [False, False]


def test_tools_add_buttons_that_run_python() -> None:
    from rummykit.widgets.table import Tool

    table = Table("rommi", players=2, ai="easy", seed=3, ai_delay=0)
    table.tools["mine"] = Tool("widget_round_over", lambda: "reviewed")
    table.handle({"type": "clear"})
    # the built-in review buttons wait for the end of the round
    assert table.view["tools"] == [{"type": "mine", "label": "Round over"}]
    table.handle({"type": "mine"})
    assert table.view["hint"] == "reviewed"


def test_meld_checker_names_its_buttons_in_its_help() -> None:
    checker = MeldChecker("hungarian")
    palette = _palette(checker)
    assert "⌫ Undo" in checker._out.value and "Clear" in checker._out.value
    assert palette["⌫ Undo"].description in checker.help
    # each card is named in words that start with what it shows (WCAG 2.5.3)
    assert palette["10♥"].name == "10 of hearts" and palette["A♠"].name == "A, ace of spades"
    assert palette["🃏"].name == "joker" and palette["Q♦"].red and not palette["Q♠"].red
    checker.palette._message(None, {"type": "add", "card": "X♠"}, None)  # not a card: nothing
    assert checker.cards == ""


@pytest.mark.parametrize("language", ["en", "pt", "fi"])
def test_quiz_puzzle_and_review_buttons_are_words_without_icons(language: str) -> None:
    """An icon needs a font the page may not load (Voilà's template doesn't): a button is
    named by its words alone, in the learner's language."""
    from rummykit.exercises import MeldKind, Quiz
    from rummykit.widgets import PuzzleWidget, QuizWidget, ReviewWidget

    game = Game.new("rommi", players=2, seed=3)
    game.play(parse_action("draw"))
    boxes = [
        QuizWidget(Quiz([MeldKind("K♠ A♠ 2♠")]), language=language),
        PuzzleWidget("discard", seed=4, language=language),
        ReviewWidget(game, seat=game.current, language=language),
    ]
    buttons = [b for box in boxes for b in _buttons(box)]
    assert len(buttons) >= 2 * 3 + 2
    for button in buttons:
        assert button.icon == "" and button.description.strip() == button.description
        assert re.search(r"\w{3}", button.description), button.description
    if language != "en":
        english = {
            b.description
            for box in (QuizWidget(Quiz([MeldKind("K♠ A♠ 2♠")])),)
            for b in _buttons(box)
        }
        assert not english & {b.description for b in _buttons(boxes[0])}


def _buttons(box: Any) -> list[Any]:
    import ipywidgets

    found = []
    for child in getattr(box, "children", ()):
        if isinstance(child, ipywidgets.Button):
            found.append(child)
        found += _buttons(child)
    return found


@pytest.mark.parametrize(
    ("language", "queen", "joker"),
    [("pt", "Q, dama de espadas", "joker"), ("fi", "Q, pata kuningatar", "jokeri")],
)
def test_meld_checker_names_its_cards_in_the_learners_language(
    language: str, queen: str, joker: str
) -> None:
    palette = _palette(MeldChecker("hungarian", language=language))
    assert palette["Q♠"].name == queen and palette["🃏"].name == joker
    assert MeldChecker("rommi", language=language).palette.label != "Cards to add"


def test_ai_stepper_names_what_it_remembers() -> None:
    game = Game.new("rommi", players=2, seed=2)
    easy = make_agent("easy")
    for _ in range(4):
        game.play(easy.decide(game.observation(game.current)).action)
    stepper = AIStepper(game, agents="easy")
    assert "has taken nothing from the discard pile" in stepper._html.value
    assert "—" not in stepper._html.value.split("What it remembers")[1][:80]
    assert stepper._slider.description and stepper._slider.label == "Decision number"
    assert (stepper._slider.min, stepper._slider.max, stepper._slider.value) == (1, 4, 1)


def test_H5_the_learners_laid_off_joker_is_named_in_the_second_person() -> None:
    from rummykit.game import Event
    from rummykit.widgets.view import event_text

    joker = Event(0, "layoff", {"cards": ["🃏"], "index": 1, "joker_as": ["6♠"]})
    assert event_text(joker, 0) == "You laid off 🃏 onto meld 2, the joker as the 6♠."
    assert event_text(joker, 1) == "Seat 0 laid off 🃏 onto meld 2, the joker as the 6♠."
    plain = Event(0, "layoff", {"cards": ["6♠"], "index": 1})
    assert event_text(plain, 0) == "You laid off 6♠ onto meld 2."


@pytest.mark.parametrize(
    ("code", "what"),
    [
        ("stock_empty_no_reshuffle", "the stock is empty and the discard pile holds nothing under"),
        ("stock_empty_no_pile", "the stock and the discard pile are both empty"),
        ("stock_empty_again", "the stock ran out a second time"),
    ],
)
def test_H15_the_learner_reads_how_the_empty_stock_ended_the_round(code: str, what: str) -> None:
    from rummykit.game import Event
    from rummykit.widgets.view import event_text

    mine, theirs = event_text(Event(0, code, {}), 0), event_text(Event(0, code, {}), 1)
    assert mine.startswith(f"You asked for a card, but {what}")
    assert theirs.startswith(f"Seat 0 asked for a card, but {what}")
    assert mine.endswith("the round ends with no winner.") and theirs.endswith(mine[-30:])


# --- open-cards teaching: the computer's reasoning shows its cards, unless turned off -----------

CARD_TEXT = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|🃏")


def _public_cards(table: Table) -> set[str]:
    """Every card text the learner's seat may know: its hand, the table, the piles, history."""
    obs = table.game.observation(table.seat)
    cards = {str(c) for c in obs.hand} | {str(c) for c in obs.discard_pile}
    cards |= {str(c) for tm in obs.table for c in tm.meld.cards}
    cards |= {str(r) for tm in obs.table for r in tm.meld.represents if r is not None}
    cards |= {str(c) for tm in obs.table if not tm.meld.is_run for c in tm.meld.missing_suits()}
    if obs.cut_card is not None:
        cards.add(str(obs.cut_card))
    for event in obs.history:
        for value in event.params.values():
            cards |= set(CARD_TEXT.findall(str(value)))
    return cards


def _hidden_cards_shown(variant_name: str, players: int, seed: int, show: bool) -> set[str]:
    """Play a round at the table; the computer seats' hidden cards found in what it showed."""
    table = Table(
        variant_name, players=players, ai="normal", seed=seed, ai_delay=0, show_reasoning=show
    )
    sent = capture(table)
    agent = make_agent("normal")
    found: set[str] = set()
    while not table.game.is_over:
        game = table.game
        hidden: set[str] = set()
        for s in range(players):
            if s != table.seat:
                hidden |= {str(c) for c in game.hand(s)}
        hidden -= _public_cards(table)
        shown = json.dumps([table.view, table.moves, sent], ensure_ascii=False)
        found |= hidden & set(CARD_TEXT.findall(shown))
        assert table.view["show_reasoning"] is show
        table.act(agent.decide(game.observation(table.seat)).action)
    if not show:
        assert all("why" not in e and "trace_html" not in e for e in table.ai_log)
        assert table.ai_log and all(e["action"] and e["text"] for e in table.ai_log)
    return found


@pytest.mark.parametrize(
    ("variant_name", "players", "seed"), [("hungarian", 2, 3), ("rommi", 3, 4), ("hungarian", 4, 2)]
)
def test_show_reasoning_false_never_shows_a_computers_hidden_card(
    variant_name: str, players: int, seed: int
) -> None:
    # the default: the reasoning names cards the computer holds (what the note says)
    assert _hidden_cards_shown(variant_name, players, seed, True)
    assert _hidden_cards_shown(variant_name, players, seed, False) == set()


def test_the_table_says_when_the_computers_cards_are_shown() -> None:
    table = Table("rommi", players=2, ai="easy", seed=3, ai_delay=0)
    assert table.labels["reasoning_note"].startswith("The computer's reasoning shows its cards")
    assert "open-cards teaching" in table.labels["reasoning_note"]
    assert table.view["show_reasoning"] is True
    assert all(e["why"] and e["trace_html"] for e in table.ai_log)
    hidden = Table("rommi", players=2, ai="easy", seed=3, ai_delay=0, show_reasoning=False)
    assert hidden.view["show_reasoning"] is False
    assert "hidden" in hidden.labels["reasoning_hidden"]
    assert "why" not in hidden.labels["ai_moves_plain"]


def test_the_learners_first_turn_says_discard_only_in_the_second_person() -> None:
    # the starter in Hungarian (H3), the seat to the dealer's left, may only discard: the
    # table says so to "you" (with three players and seat 0 dealing, seat 1 starts)
    table = Table("hungarian", players=3, seat=1, ai="easy", seed=2, ai_delay=0)
    assert table.game.current == table.seat and table.game.phase == "play"
    assert table.view["status"] == (
        "Your first turn: discard only — you start with one card more, so you don't draw."
    )
