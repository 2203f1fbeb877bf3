"""Learners play each other in real browsers: ``rummykit classroom --tables`` serves the class
page, each learner's headless Chromium page (a browser context of its own: its own seat
cookie, kernel and seat token) types the table code and a name into the page's boxes and
clicks *Join the table*, and then plays a whole round through the page's own controls — clicks
on the stock, the discard pile's button, the cards of the hand, *Meld*, a meld's number (lay
off), a joker's exchange button and *Discard*, as a learner would.

The moves are chosen by a seeded agent per seat (``make_agent``) from **that seat's
observation**: the referee's ``observation(seat)`` of the game the table server holds, rebuilt
from the table's record (the teacher's API, ``GET /api/tables/CODE/record``) — exactly the
observation the server sends that seat in its ``decide`` message, which holds only the seat's
own hand and what is public, so the agent knows nothing the learner doesn't. Before each move
the test also checks that the seat's page shows that hand, card for card (so the page, not
the test, is what the move is made in).

At every learner's turn, with the table waiting for that learner (nothing moves), every page is
compared with the server's open view (``?open=1``): no card held in another seat's hand that
this seat has no way to know of (not in its own hand, on the table, in the discard pile or
named by the public history) appears anywhere in the page's HTML, as text (``7♥``) or in words
(``seven of hearts``). Jokers are left out of that check (the word is on every page).

Each case ends with the round over in the server's record and on every page: the status
line and the verdict say so, no "your turn", and the page shows the table as it ended (the
seat's last hand, every meld, the discard pile's top). Seeds are chosen for rounds of moderate
length with every kind of move among them (the easy agent's rounds with them: Hungarian with
2 learners 40 moves, a joker exchanged, cards laid off and a joker's meaning asked by the page;
with 4 learners 52 moves; Rommi 23 moves, 13 of them the learner's). A deadline bounds each
test (:data:`DEADLINE`), and every wait in a page is bounded (:data:`STEP`). The classroom's
terminal must show no warning (a page's kernel connection once dropped 30 s after it opened).

(Chromium and Playwright as in ``test_table_browser``: skipped without them, unless
``RUMMYKIT_REQUIRE_BROWSER=1``.)
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rummykit.ai import make_agent
from rummykit.cards import Card
from rummykit.game import Game
from rummykit.game import actions as moves
from rummykit.melds import Meld

from .test_table_browser import (  # noqa: F401 (fixtures)
    OUTPUT,
    PAGE_READY,
    ROOT,
    _stop,
    browser,
    playwright_api,
    wait_for_voila,
)

pytest.importorskip("tornado")
pytest.importorskip("sqlalchemy")

CLASS_CODE = "tables-32"
STEP = 60_000  # ms for one click's round trip (page → kernel → table server → page)
DEADLINE = 600.0  # seconds a whole round may take, joining included
LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")


def _two_free_ports() -> int:
    """A port whose next one is free too: the class page's, and the table server's beside it."""
    for _ in range(50):
        with socket.socket() as first:
            first.bind(("127.0.0.1", 0))
            port = int(first.getsockname()[1])
            with socket.socket() as second:
                try:
                    second.bind(("127.0.0.1", port + 1))
                except OSError:
                    continue
                return port
    raise AssertionError("no two free ports side by side")


@dataclass
class Classroom:
    """``rummykit classroom --tables``: the class page's address, the table server's, the
    teacher code the command printed, and where its output goes."""

    url: str
    tables: str
    teacher: str
    log: Path

    def api(self, path: str, body: object = None, *, teacher: bool = True) -> Any:
        request = urllib.request.Request(
            self.tables + path,
            data=None if body is None else json.dumps(body).encode(),
            method="GET" if body is None else "POST",
        )
        if teacher:
            request.add_header("Authorization", f"Bearer {self.teacher}")
        with urllib.request.urlopen(request, timeout=20) as answer:
            return json.loads(answer.read())


@pytest.fixture(scope="module")
def classroom(playwright_api: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Classroom]:  # noqa: F811
    """``rummykit classroom --tables`` on free 127.0.0.1 ports, in a folder of its own (the
    table server's database is made where it runs)."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    port = _two_free_ports()
    folder = tmp_path_factory.mktemp("classroom-tables")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    env.pop("RUMMYKIT_TEACHER_CODE", None)  # the command makes one and prints it
    log_path = OUTPUT / "classroom-tables.log"
    command = [sys.executable, "-m", "rummykit", "classroom", f"--port={port}", "--tables"]
    command += [f"--code={CLASS_CODE}", "--cull-timeout=900", "--cull-interval=60"]
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            command,
            cwd=folder,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: Voilà, kernels, table server
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for_voila(process, url, log_path)
        said = re.search(r"Teacher code: (\S+)", log_path.read_text(encoding="utf-8"))
        assert said, log_path.read_text(encoding="utf-8")
        room = Classroom(url, f"http://127.0.0.1:{port + 1}", said.group(1), log_path)
        assert room.api("/health", teacher=False)["ok"]
        assert (folder / "rummykit-tables.db").exists()  # where the command runs, not elsewhere
        yield room
    finally:
        _stop(process)


# --- a learner's page ------------------------------------------------------------------------


@dataclass
class Learner:
    """One learner: their browser context and page, and the seat the page says they got."""

    name: str
    context: Any
    page: Any
    seat: int = -1


def _open(
    chromium: Any, room: Classroom, name: str, outside: list[str], errors: list[str]
) -> Learner:
    context = chromium.new_context(viewport={"width": 1200, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(STEP)
    page.on("request", lambda r: None if r.url.startswith(LOCAL) else outside.append(r.url))
    page.on("pageerror", lambda error: errors.append(f"{name}: {error}"))
    page.goto(room.url, wait_until="domcontentloaded", timeout=PAGE_READY)
    page.get_by_label("Class code").fill(CLASS_CODE)
    page.get_by_role("button", name="Start my table").click()
    page.wait_for_selector(".rk-table [data-testid=stock]", timeout=PAGE_READY)
    return Learner(name, context, page)


def _join(learner: Learner, code: str, expect: Any) -> None:
    """Type the table code and the name into the page's boxes and click *Join the table*."""
    page = learner.page
    page.get_by_label("Table code").fill(code.lower())  # as a learner may type it
    page.get_by_label("Your name").fill(learner.name)
    page.get_by_role("button", name="Join the table").click()
    said = page.get_by_text(re.compile(rf"You play at table {code}, in seat \d\."))
    expect(said).to_be_visible(timeout=STEP)
    learner.seat = int(re.search(r"in seat (\d)", said.inner_text()).group(1))  # type: ignore[union-attr]


def _hand(page: Any) -> list[str]:
    cards: list[str] = page.locator("[data-testid^='hand-']").evaluate_all(
        "cards => cards.map(card => card.dataset.card)"
    )
    return cards


def _select(page: Any, expect: Any, cards: tuple[Card, ...]) -> None:
    """Click the cards in the hand, one by one, each click's selection shown before the next."""
    pressed = page.locator("[data-testid^='hand-'][aria-pressed='true']")
    expect(pressed).to_have_count(0)
    for n, card in enumerate(cards, 1):
        page.locator(
            f"[data-testid^='hand-'][data-card='{card}'][aria-pressed='false']"
        ).first.click()
        expect(pressed).to_have_count(n)


def _joker_id(joker_as: object) -> str:
    chosen = joker_as if isinstance(joker_as, tuple) else (joker_as,)
    return "joker-as-" + "-".join(str(c) for c in chosen)


def _click(page: Any, action: moves.Action, api: Any) -> bool:
    """Make ``action`` through the page's controls, as a learner would; whether the page
    asked what a joker stands for (and the answer was clicked)."""
    expect = api.expect
    if isinstance(action, moves.Draw):
        target = {"stock": "stock", "discard": "take-discard", "cut_card": "take-cut"}
        page.get_by_test_id(target[action.source]).click()
    elif isinstance(action, moves.Discard):
        _select(page, expect, (action.card,))
        page.get_by_test_id("discard").click()
    elif isinstance(action, (moves.PlayMeld, moves.LayOff)):
        _select(page, expect, action.cards)
        button = "meld" if isinstance(action, moves.PlayMeld) else f"lay-off-{action.meld}"
        page.get_by_test_id(button).click()
        if action.joker_as is not None:  # the page asks what the joker stands for when it may
            choice = page.get_by_test_id(_joker_id(action.joker_as))
            asked = page.locator("[data-testid^='joker-as-']")
            try:
                asked.first.wait_for(timeout=3_000)
            except api.TimeoutError:  # one reading: nothing asked, the move went
                return False
            choice.click()
            return True
    elif isinstance(action, moves.ExchangeJoker):
        _select(page, expect, (action.card,))
        page.get_by_test_id(f"exchange-{action.meld}").click()
    elif isinstance(action, moves.Undo):
        page.get_by_test_id("undo").click()
    elif isinstance(action, moves.ReturnCutCard):
        page.get_by_test_id("return-cut").click()
    elif isinstance(action, moves.Cut):  # the slider, by keyboard, then the button
        slider = page.get_by_test_id("cut-slider")
        slider.focus()
        slider.press("Home")
        for _ in range(action.height - int(slider.get_attribute("min"))):
            slider.press("ArrowRight")
        expect(page.get_by_test_id("cut-height")).to_have_text(str(action.height))
        page.get_by_test_id("cut-button").click()
    else:  # pragma: no cover - every kind of move is above
        raise AssertionError(f"no control for {action!r}")
    return False


# --- what a page may show ----------------------------------------------------------------------


def _mentions(html: str, card: Card) -> bool:
    """Whether the page's HTML names ``card``: as text (``7♥``) or in words (``seven of hearts``)."""
    return str(card) in html or card.label in html


def _known(view: dict[str, Any], seat: int) -> Counter[Card]:
    """Every card ``seat`` may know of: its hand, the table (and what its jokers stand for),
    the discard pile, the cut card and every card the public history names."""
    game = view["game"]
    known = Counter(Card(c) for c in view["hands"][seat])
    known.update(Card(c) for meld in game["table"] for c in meld["cards"])
    # what a meld's jokers stand for is named on the table ("🃏 = 10♥", "🃏 = 6♠/6♦" in a set
    # of sixes), whoever holds a 10♥ or a 6♠
    for placed in game["table"]:
        meld = Meld(
            placed["kind"],
            tuple(Card(c) for c in placed["cards"]),
            tuple(Card(c) if c else None for c in placed["represents"]),
            placed["start"],
        )
        known.update(c for c in meld.represents if c is not None)
        if meld.kind == "set" and any(c.is_joker for c in meld.cards):
            known.update(meld.missing_suits())
    known.update(Card(c) for c in game["discard_pile"])
    if game.get("cut_card"):
        known[Card(game["cut_card"])] += 1
    for event in game["history"]:
        for value in event["params"].values():
            for text in value if isinstance(value, list) else [value]:
                try:
                    known[Card(str(text))] += 1
                except ValueError:  # a parameter that is no card
                    continue
    return known


def _no_leak(learners: dict[int, Learner], view: dict[str, Any]) -> int:
    """No page shows a card of another seat's hand that its seat can't know of (the open view
    ``view``, taken while the table waits). The number of hidden cards checked."""
    checked = 0
    for seat, learner in learners.items():
        html = learner.page.content()
        own = [Card(c) for c in view["hands"][seat]]
        # the check sees cards at all: each card of the seat's own hand is found on its page
        assert all(_mentions(html, card) for card in own if not card.is_joker), learner.name
        known = _known(view, seat)
        hidden = {
            Card(c)
            for other, hand in enumerate(view["hands"])
            if other != seat
            for c in hand
            if not Card(c).is_joker and Card(c) not in known
        }
        shown = sorted(str(card) for card in hidden if _mentions(html, card))
        where = [html[max(0, html.find(c) - 300) : html.find(c) + 100] for c in shown]
        assert not shown, (
            f"{learner.name}'s page shows another seat's hidden cards: {shown} {where}"
        )
        checked += len(hidden)
    return checked


# --- a whole round ------------------------------------------------------------------------------


def _play(
    browser: Any,  # noqa: F811
    playwright_api: Any,  # noqa: F811
    room: Classroom,
    settings: dict[str, Any],
    level: str,
    name: str,
) -> None:
    expect = playwright_api.expect
    started = time.monotonic()
    deadline = started + DEADLINE
    settings = {**settings, "absent_after": None}  # a learner's seat is never played for them
    code = room.api("/api/tables", settings)["tables"][0]["code"]
    humans = [n for n, kind in enumerate(settings["seats"]) if kind == "human"]
    outside: list[str] = []
    errors: list[str] = []
    learners: dict[int, Learner] = {}
    opened: list[Learner] = []
    names = ["Ana", "Ben", "Cy", "Dee"]
    try:
        for n in range(len(humans)):
            opened.append(_open(browser, room, names[n], outside, errors))
        ready = time.monotonic() - started
        for learner in opened:
            _join(learner, code, expect)
            learners[learner.seat] = learner
        assert sorted(learners) == humans
        view = room.api(f"/api/tables/{code}", teacher=False)
        assert [s["name"] for s in view["seats"] if s["kind"] == "human"] == names[: len(humans)]
        agents = {seat: make_agent(level) for seat in humans}
        made = checked = 0
        kinds: Counter[str] = Counter()
        clicks = time.monotonic()
        while True:
            assert time.monotonic() < deadline, f"the round took over {DEADLINE} s"
            game = Game.load(json.dumps(room.api(f"/api/tables/{code}/record")))
            if game.is_over:
                break
            seat = game.current
            if seat not in learners:  # a computer seat: the server plays it
                time.sleep(0.2)
                continue
            page = learners[seat].page
            observation = game.observation(seat)
            # the page shows the seat's turn and the hand the agent decides from
            expect(page.get_by_test_id("your-turn")).to_be_visible()
            wanted = sorted(str(c) for c in observation.hand)
            for _ in range(200):
                if sorted(_hand(page)) == wanted:
                    break
                time.sleep(0.05)
            assert sorted(_hand(page)) == wanted, (learners[seat].name, _hand(page), wanted)
            open_view = room.api(f"/api/tables/{code}?open=1")
            assert open_view["position"] == len(game.actions) + 1  # the table waits for the learner
            checked += _no_leak(learners, open_view)
            action = agents[seat].decide(observation).action
            before = open_view["position"]
            if _click(page, action, playwright_api):
                kinds["joker asked"] += 1
            for _ in range(STEP // 50):  # the server took the move
                if room.api(f"/api/tables/{code}", teacher=False)["position"] > before:
                    break
                time.sleep(0.05)
            else:
                page.screenshot(path=str(OUTPUT / f"tables-{name}-stuck.png"), full_page=True)
                said = page.locator(".rk-table").inner_text()
                raise AssertionError(
                    f"{action} was not taken; {learners[seat].name}'s page: {said}"
                )
            made += 1
            kinds[action.kind] += 1
        played = time.monotonic() - clicks
        # the round is over: in the server's record, and on every page
        view = room.api(f"/api/tables/{code}", teacher=False)
        assert view["game"]["phase"] == "over" and view["status"] == "over"
        record = room.api(f"/api/tables/{code}/record")
        assert Game.load(json.dumps(record)).is_over
        assert {a["seat"] for a in record["actions"]} == set(range(len(settings["seats"])))
        final = room.api(f"/api/tables/{code}?open=1")
        ended = Game.load(json.dumps(record)).result
        assert ended is not None
        for learner in learners.values():
            page = learner.page
            # who won, in the learner's own person, and every seat's points (H12, H13, R8)
            status = page.get_by_test_id("status")
            if ended.winner is None:
                expect(status).to_contain_text("No one")
            elif ended.winner == learner.seat:
                expect(status).to_contain_text("You ")
            else:  # another learner by the name they gave, a computer by its level
                kind = settings["seats"][ended.winner]
                expect(status).to_contain_text(
                    f"Seat {ended.winner} ({learners[ended.winner].name}) "
                    if kind == "human"
                    else f"Seat {ended.winner} ({kind} AI) "
                )
            expect(status).to_contain_text("ask your teacher for the next table")
            lines = page.get_by_test_id("result").get_by_role("listitem")
            expect(lines).to_have_count(len(ended.lines))
            for n, reason in enumerate(ended.lines):
                if "points" in reason.params:
                    expect(lines.nth(n)).to_contain_text(str(reason.params["points"]))
            expect(page.get_by_test_id("verdict")).to_contain_text("The round is over.")
            expect(page.get_by_test_id("your-turn")).to_have_count(0)
            # the table as it ended: the seat's last hand, every meld, the discard pile's top
            assert sorted(_hand(page)) == sorted(final["hands"][learner.seat])
            expect(page.locator("[data-testid^='meld-']")).to_have_count(
                len(final["game"]["table"])
            )
            top = final["game"]["discard_pile"][-1]
            expect(page.get_by_test_id("discard-pile")).to_have_attribute(
                "aria-label", re.compile(re.escape(Card(top).label))
            )
            assert "undefined" not in page.inner_text("body")
            page.screenshot(path=str(OUTPUT / f"tables-{name}-{learner.seat}.png"), full_page=True)
        assert checked > 0
        # no page lost its kernel's connection (jupyter_server closed each at its first ping,
        # 30 s after it opened, when the classroom set a ping timeout as short as the interval)
        terminal = room.log.read_text(encoding="utf-8")
        assert "WebSocket ping timeout" not in terminal and "WARNING" not in terminal
        # no computer played for a learner (no clock, no absence, no takeover in the log)
        assert not [n for n in view["log"] if n["code"] != "tables_notice_back"], view["log"]
        print(
            f"{name}: {len(humans)} pages ready in {ready:.1f} s; {made} moves by clicks, "
            f"{len(record['actions'])} in all, in {played:.1f} s; "
            f"{checked} hidden cards checked; whole test {time.monotonic() - started:.1f} s; "
            f"moves clicked: {dict(kinds)}"
        )
    finally:
        for learner in opened:
            learner.context.close()
    assert not outside, f"fetched from outside 127.0.0.1: {outside}"
    assert not errors, errors


CASES = [
    pytest.param({"variant": "hungarian", "seats": ["human"] * 2, "seed": 20}, id="hungarian-2"),
    pytest.param({"variant": "hungarian", "seats": ["human"] * 4, "seed": 0}, id="hungarian-4"),
    pytest.param({"variant": "rommi", "seats": ["human", "easy"], "seed": 28}, id="rommi-1"),
]
"""Hungarian with two learners, with four, and Rommi with a learner and the easy computer."""


@pytest.mark.parametrize("settings", CASES)
def test_learners_play_a_whole_round_in_their_pages(
    browser: Any,  # noqa: F811
    playwright_api: Any,  # noqa: F811
    classroom: Classroom,
    settings: dict[str, Any],
    request: pytest.FixtureRequest,
) -> None:
    _play(browser, playwright_api, classroom, settings, "easy", request.node.callspec.id)
