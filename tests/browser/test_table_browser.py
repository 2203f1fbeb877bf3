"""The card table in a real browser: Voilà serves a notebook, Playwright drives Chromium.

Debian's ``/usr/bin/chromium`` is launched through ``executable_path`` (never
``playwright install``). Without it the test is skipped with a message saying how to get it;
with ``RUMMYKIT_REQUIRE_BROWSER=1`` (set by ``.ci/run``) a missing browser is a failure.

Voilà serves this folder's notebooks (one kernel per page): ``table_demo`` (a seeded Rommi
round), ``table_win`` and ``table_loss`` (hand-made positions a move from the end), and
``table_narrow`` (a crowded Hungarian table for the 800 px layout). Screenshots of each step
go to ``test-output/browser/``; ``docs/_static/table.png`` (for the README) is written when
it is missing or when ``RUMMYKIT_UPDATE_SCREENSHOT=1``. Click-to-redraw times are printed
(p50/p90/max), not asserted: the machine is shared.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from rummykit.cards import Card, as_cards
from rummykit.game.legal import candidate_melds
from rummykit.melds import check_meld
from rummykit.variants import variant

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUTPUT = ROOT / "test-output" / "browser"
README_SHOT = ROOT / "docs" / "_static" / "table.png"
RULES = variant("rommi")
CHROMIUM = Path(os.environ.get("RUMMYKIT_CHROMIUM", "/usr/bin/chromium"))  # Debian's
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--disable-default-apps",
    "--mute-audio",
]
SERVER_START = 180  # seconds for Voilà to answer (a shared, slow machine)
PAGE_READY = 180_000  # ms for the kernel to start and the widget to draw
STEP = 60_000  # ms for one round trip to Python (and a computer move at 0.3 s)


def _unavailable(why: str) -> None:
    if os.environ.get("RUMMYKIT_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{why} — and RUMMYKIT_REQUIRE_BROWSER=1 makes this a failure")
    pytest.skip(why)


@pytest.fixture(scope="module")
def playwright_api() -> Any:
    if not CHROMIUM.exists():
        _unavailable(
            f"Debian's Chromium is not installed at {CHROMIUM} "
            "(apt-get install chromium); the browser test needs it"
        )
    try:
        from playwright import sync_api
    except ImportError:
        _unavailable("Playwright is not installed: pip install -e '.[test]'")
    return sync_api


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stop(process: subprocess.Popen[bytes]) -> None:
    """End Voilà and the kernel it started (its own process group), politely, then not."""
    if process.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="module")
def voila_url(playwright_api: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Voilà serving the test notebook on 127.0.0.1 at a free port, for this module."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    runtime = tmp_path_factory.mktemp("jupyter-runtime")
    # rummykit's Voilà template (share/jupyter/voila/templates/rummykit): no CDN style sheets
    jupyter_path = os.pathsep.join(
        p for p in (str(ROOT / "share" / "jupyter"), os.environ.get("JUPYTER_PATH")) if p
    )
    env = {
        **os.environ,
        "JUPYTER_RUNTIME_DIR": str(runtime),
        "JUPYTER_PATH": jupyter_path,
        "PYTHONUNBUFFERED": "1",
    }
    log_path = OUTPUT / "voila.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "voila",
                str(HERE),
                "--no-browser",
                f"--port={port}",
                "--Voila.ip=127.0.0.1",
                "--show_tracebacks=True",
                "--template=rummykit",
            ],
            cwd=HERE,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group, so the kernel is stopped too
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for_voila(process, url, log_path)
        yield url
    finally:
        _stop(process)


def wait_for_voila(process: subprocess.Popen[bytes], url: str, log_path: Path) -> None:
    """Wait until the Voilà at ``url`` answers; fail if it exits or is silent for too long."""
    # any HTTP answer means the server is up (GET / would start a kernel)
    wait_for_server(process, url + "voila/static/", log_path)


def start_server(
    command: list[str], log_path: Path, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """Start a server in its own process group (so what it starts is stopped with it), its
    output going to ``log_path``."""
    with open(log_path, "wb") as log:
        return subprocess.Popen(
            command,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )


def wait_for_server(process: subprocess.Popen[bytes], probe: str, log_path: Path) -> None:
    """Wait until a server answers at ``probe``; fail if it exits or is silent for too long."""
    deadline = time.monotonic() + SERVER_START
    while True:
        if process.poll() is not None:
            pytest.fail(f"{process.args} exited ({process.returncode}):\n{log_path.read_text()}")
        try:
            urllib.request.urlopen(probe, timeout=5).close()
            return
        except urllib.error.HTTPError:
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            pytest.fail(
                f"{process.args} did not answer in {SERVER_START} s:\n{log_path.read_text()}"
            )
        time.sleep(0.5)


@contextmanager
def launch_chromium(playwright_api: Any, *flags: str) -> Iterator[Any]:
    """Debian's Chromium with the network flags closed, and any more ``flags``."""
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *flags], timeout=STEP
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def browser(playwright_api: Any) -> Iterator[Any]:
    """Debian's Chromium, started once for the module, with the network flags closed."""
    with launch_chromium(playwright_api) as chromium:
        yield chromium


@pytest.fixture
def open_table(browser: Any, voila_url: str) -> Iterator[Any]:
    """Open a served notebook in a fresh page: ``open_table("table_win", width=800)``."""
    contexts: list[Any] = []
    errors: list[str] = []
    outside: list[str] = []  # requests leaving this machine (a CDN): there must be none

    def opener(name: str, width: int = 1200, height: int = 1000) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(STEP)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "request",
            lambda request: (
                None
                if request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:"))
                else outside.append(request.url)
            ),
        )
        page.goto(
            f"{voila_url}voila/render/{name}.ipynb",
            wait_until="domcontentloaded",
            timeout=PAGE_READY,
        )
        page.wait_for_selector(".rk-table [data-testid=stock]", timeout=PAGE_READY)
        return page

    try:
        yield opener
        assert not [e for e in errors if "rummykit" in e or "table.js" in e], errors
        assert not outside, f"fetched from outside 127.0.0.1: {outside}"
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def table_page(open_table: Any) -> Any:
    """The seeded Rommi round at 1200 × 1000."""
    return open_table("table_demo")


# --- helpers -----------------------------------------------------------------------------------


def hand(page: Any) -> list[str]:
    cards: list[str] = page.locator("[data-testid^='hand-']").evaluate_all(
        "cards => cards.map(card => card.dataset.card)"
    )
    return cards


def ai_moves(page: Any) -> int:
    count: int = page.locator("[data-testid=ai-log] details").count()
    return count


def wait_for_my_turn(page: Any, expect: Any) -> None:
    """The computer's turn is played by the page's timer; then the stock is ours to click."""
    expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=STEP)


def enabled(locator: Any) -> bool:
    """A control the engine allows now (refused ones stay pressable, marked aria-disabled)."""
    return locator.get_attribute("aria-disabled") != "true"


def focus_in_table(page: Any) -> str:
    """Where the keyboard focus is: it must be on an element inside the table's drawing."""
    where: str | None = page.evaluate(
        """() => { const a = document.activeElement; const body = document.querySelector('.rk-body');
                   return body && body.contains(a) ? (a.dataset.testid || a.className) : null; }"""
    )
    assert where, "keyboard focus left the table"
    return where


def mark_live_region(page: Any) -> None:
    """Tag the live region's node, to tell later whether it was replaced by a redraw."""
    page.evaluate("document.querySelector('[aria-live]').dataset.mark = 'first'")


def live_region_kept(page: Any) -> bool:
    """One live region, the very node marked at the start (screen readers watch that one)."""
    marks: list[str | None] = page.locator("[aria-live]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.mark || null)"
    )
    return marks == ["first"]


REDRAW = """async (testid) => {
  const root = document.querySelector('.rk-table');
  const before = Number(root.dataset.seq);
  const t0 = performance.now();
  root.querySelector(`[data-testid="${testid}"]`).click();
  await new Promise((done) => {
    const watch = new MutationObserver(() => {
      if (Number(root.dataset.seq) > before) { watch.disconnect(); done(); }
    });
    watch.observe(root, { attributes: true, attributeFilter: ['data-seq'] });
  });
  return Number(root.dataset.drawnAt) - t0;
}"""


def timed_click(page: Any, testid: str) -> float:
    """Click in the page and wait for the redraw: milliseconds from click to drawn view."""
    return float(page.evaluate(REDRAW, testid))


def click_cards(page: Any, expect: Any, cards: list[str]) -> None:
    """Select cards by clicking them (each click is a round trip that redraws the hand)."""
    taken: list[int] = []
    for card in cards:
        shown = hand(page)
        i = next(i for i, c in enumerate(shown) if c == card and i not in taken)
        taken.append(i)
        page.get_by_test_id(f"hand-{i}").click()
        expect(page.get_by_test_id(f"hand-{i}")).to_have_attribute("aria-pressed", "true")


def no_meld(cards: list[Card]) -> list[Card]:
    """Three cards that are no meld, with as few reasons against them as can be found."""
    trios = [list(t) for t in combinations(cards, 3)]
    refused = [(len(check_meld(t, RULES).failures), t) for t in trios]
    return min((r for r in refused if r[0]), key=lambda r: r[0])[1]


LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")
"""Where a page may fetch from: this machine's loopback address, and what needs no network."""


def keep_local(context: Any, outside: list[str]) -> None:
    """Abort every request of a browser ``context`` that isn't to 127.0.0.1 (or a ``data:``/
    ``blob:`` URL), and log each in ``outside``: the offline tests require it to stay empty."""

    def route(route: Any) -> None:
        if route.request.url.startswith(LOCAL):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", route)


def shot(page: Any, name: str) -> Path:
    path = OUTPUT / name
    page.locator(".rk-table").screenshot(path=str(path), animations="disabled")
    return path


# --- the test ----------------------------------------------------------------------------------


def test_play_a_turn_in_the_browser(table_page: Any, playwright_api: Any) -> None:
    page = table_page
    expect = playwright_api.expect
    started = time.monotonic()

    # the computer (seat 1) starts; its moves appear one by one, then it is our turn
    wait_for_my_turn(page, expect)
    assert ai_moves(page) >= 1
    expect(page.get_by_test_id("status")).to_contain_text("Rommi")
    assert len(hand(page)) == 7

    # click the stock: one more card in the hand
    stock_before = page.get_by_test_id("stock").get_attribute("aria-label")
    page.get_by_test_id("stock").click()
    expect(page.locator("[data-testid^='hand-']")).to_have_count(8)
    expect(page.get_by_test_id("stock")).to_have_attribute("aria-disabled", "true")
    assert page.get_by_test_id("stock").get_attribute("aria-label") != stock_before
    expect(page.get_by_test_id("announcement")).to_have_text("You drew from the stock.")
    expect(page.locator(".rk-hand .rk-drawn")).to_have_count(1)  # the card just drawn
    shot(page, "01-drew.png")

    # a refusal, explained: three cards that are no meld; the rule is cited, the cards marked
    cards = as_cards(" ".join(hand(page)))
    wrong = no_meld(cards)
    click_cards(page, expect, [str(c) for c in wrong])
    page.get_by_test_id("meld").click(force=True)  # refused ones stay pressable
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_be_visible()
    expect(verdict).to_contain_text("(R3)")
    expect(verdict).to_contain_text("Not allowed: meld")
    assert page.locator(".rk-hand .rk-fault").count() >= 1  # offending cards marked
    assert page.locator("[data-testid^='hand-'][aria-pressed=true]").count() == 3  # kept
    shot(page, "02-refusal.png")
    expect(page.get_by_test_id("alert")).to_contain_text("(R3)")  # announced as an alert

    # a meld: clear the selection, pick a real meld, press Meld
    page.get_by_test_id("clear").click()
    expect(page.locator("[data-testid^='hand-'][aria-pressed=true]")).to_have_count(0)
    meld = next(m for m in candidate_melds(cards, RULES) if len(m.cards) == 3)
    melds_before = page.locator("[data-testid^='meld-']").count()
    click_cards(page, expect, [str(c) for c in meld.cards])
    page.get_by_test_id("meld").click(force=True)  # refused ones stay pressable
    expect(page.locator("[data-testid^='meld-']")).to_have_count(melds_before + 1)
    expect(page.get_by_test_id("verdict")).to_have_count(0)
    expect(page.locator("[data-testid^='hand-']")).to_have_count(5)

    # keyboard: Enter on a focused card selects it and the focus stays for the next key
    page.get_by_test_id("hand-0").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("hand-0")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("hand-0")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("hand-0")).to_have_attribute("aria-pressed", "false")

    # drag a card onto the discard pile (HTML5 drag and drop): the turn ends
    dragged = hand(page)[0]
    moves_before = ai_moves(page)
    page.get_by_test_id("hand-0").drag_to(page.get_by_test_id("discard-pile"))
    expect(page.get_by_test_id("announcement")).to_contain_text(f"discarded {dragged}")
    # watch the computer's turn happen, move by move, until it is ours again
    expect(page.locator("[data-testid=ai-log] details")).not_to_have_count(moves_before)
    wait_for_my_turn(page, expect)
    assert ai_moves(page) > moves_before

    # expand the computer's last move: its reasoning trace
    latest = page.locator("[data-testid=ai-log] details").first
    latest.locator("summary").click()
    expect(latest).to_have_attribute("open", "")
    expect(latest.locator(".rk-trace")).to_be_visible()
    expect(latest.locator(".rk-trace")).to_contain_text("easy")
    # the table says that this reasoning shows the computer's cards
    expect(page.get_by_test_id("reasoning-note")).to_contain_text(
        "The computer's reasoning shows its cards: open-cards teaching."
    )
    # ... and it stays open while the table redraws
    page.get_by_test_id("stock").click()
    expect(page.get_by_test_id("stock")).to_have_attribute("aria-disabled", "true")
    expect(page.locator("[data-testid=ai-log] details").first).to_have_attribute("open", "")
    expect(page.get_by_test_id("my-log")).to_contain_text("You drew from the stock.")

    # one more refusal to show beside the open trace, for the picture
    cards = as_cards(" ".join(hand(page)))
    wrong = no_meld(cards)
    click_cards(page, expect, [str(c) for c in wrong])
    page.get_by_test_id("meld").click(force=True)  # refused ones stay pressable
    expect(page.get_by_test_id("verdict")).to_contain_text("(R3)")
    page.mouse.move(0, 0)  # no tooltip in the picture
    picture = shot(page, "03-table.png")
    page.screenshot(path=str(OUTPUT / "page.png"), full_page=True)
    if not README_SHOT.exists() or os.environ.get("RUMMYKIT_UPDATE_SCREENSHOT") == "1":
        README_SHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(picture, README_SHOT)
    print(f"browser test played in {time.monotonic() - started:.1f} s; pictures in {OUTPUT}")


def test_keyboard_alone_plays_a_whole_round(table_page: Any, playwright_api: Any) -> None:
    """Shortcuts, Enter and the arrow keys only; after every action the focus is in the table."""
    page, expect = table_page, playwright_api.expect
    started = time.monotonic()
    mark_live_region(page)
    page.locator(".rk-table").focus()
    turns = 0
    while True:
        expect(page.locator("[data-testid=your-turn], [data-testid=result]").first).to_be_visible(
            timeout=STEP
        )
        if page.get_by_test_id("result").count():
            break
        turns += 1
        assert turns <= 40
        page.get_by_test_id("hand-0").focus()
        page.keyboard.press("s")  # draw from the stock
        expect(page.locator(".rk-hand .rk-drawn")).to_have_count(1)
        assert focus_in_table(page).startswith("hand-")  # on the card just drawn
        # every meld the hand holds: walk to its cards with the arrows, Enter, then "m"
        while True:
            cards = as_cards(" ".join(hand(page)))
            found = next(iter(candidate_melds(cards, RULES)), None)
            if found is None:
                break
            before = len(cards)
            page.keyboard.press("c")  # clear the selection
            expect(page.locator("[aria-pressed=true]")).to_have_count(0)
            taken: list[int] = []
            for card in found.cards:
                shown = hand(page)
                i = next(i for i, c in enumerate(shown) if c == str(card) and i not in taken)
                taken.append(i)
                page.get_by_test_id("hand-0").focus()
                page.keyboard.press("Home")
                for _ in range(i):
                    page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
                expect(page.get_by_test_id(f"hand-{i}")).to_have_attribute("aria-pressed", "true")
                assert focus_in_table(page) == f"hand-{i}"
            page.keyboard.press("m")
            expect(page.locator("[data-testid^='hand-']")).not_to_have_count(before)
            if not hand(page):
                break
            focus_in_table(page)
        if page.get_by_test_id("result").count():
            break
        # discard the last card (the highest after sorting by rank) with "x"
        page.keyboard.press("c")
        expect(page.locator("[aria-pressed=true]")).to_have_count(0)
        page.keyboard.press("End")
        last = len(hand(page)) - 1
        assert focus_in_table(page) == f"hand-{last}"
        page.keyboard.press("Enter")
        expect(page.get_by_test_id(f"hand-{last}")).to_have_attribute("aria-pressed", "true")
        discards = page.locator("[data-testid^=my-move]").filter(has_text="You discarded").count()
        page.keyboard.press("x")
        expect(
            page.locator("[data-testid^=my-move]").filter(has_text="You discarded")
        ).to_have_count(discards + 1)
        focus_in_table(page)
    expect(page.get_by_test_id("status")).to_contain_text("won the round")
    assert live_region_kept(page)
    shot(page, "04-keyboard-round-over.png")
    print(f"keyboard round: {turns} turns in {time.monotonic() - started:.1f} s")


def test_round_over_after_a_win(open_table: Any, playwright_api: Any) -> None:
    page, expect = open_table("table_win"), playwright_api.expect
    click_cards(page, expect, ["5♥", "6♥", "7♥"])
    page.get_by_test_id("meld").click(force=True)  # refused ones stay pressable
    expect(page.get_by_test_id("meld-0")).to_contain_text("1")  # numbered from 1
    page.get_by_test_id("hand-0").drag_to(page.get_by_test_id("discard-pile"))
    expect(page.get_by_test_id("status")).to_contain_text("You went out and won the round!")
    expect(page.get_by_test_id("status")).not_to_contain_text("Seat 0")
    expect(page.get_by_test_id("result")).to_contain_text("You went out.")
    # the score bar is up to date, with names, the round it ended in
    scores = page.get_by_test_id("scores").inner_text()
    assert scores.startswith("Scores: You ") and "Seat 1 (easy AI) 0" in scores
    assert "You 0" not in scores  # the winner took the points of the hand left
    expect(page.get_by_test_id("score-sheet")).to_be_visible()
    shot(page, "05-won.png")
    # the AI stepper below: its slider has a name, counts from 1, and moves the text
    slider = page.get_by_role("slider", name="Decision number")
    expect(slider).to_have_count(1)
    expect(slider).to_have_attribute("min", "1")
    expect(page.get_by_text("Decision 1 of 4")).to_be_visible()
    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_text("Decision 2 of 4")).to_be_visible()


def test_round_over_after_a_loss(open_table: Any, playwright_api: Any) -> None:
    page, expect = open_table("table_loss"), playwright_api.expect
    page.get_by_test_id("hand-0").drag_to(page.get_by_test_id("discard-pile"))
    expect(page.get_by_test_id("status")).to_contain_text(
        "Seat 1 (easy AI) went out and won the round.", timeout=STEP
    )
    expect(page.get_by_test_id("result")).to_be_visible()
    scores = page.get_by_test_id("scores").inner_text()
    assert "You 0" in scores and "Seat 1 (easy AI) 0" not in scores
    shot(page, "06-lost.png")


def test_refused_click_on_the_discard_pile_says_why(table_page: Any, playwright_api: Any) -> None:
    """After drawing, a click on the pile is refused by the engine, and the page says why;
    Clear selection takes the refusal away. Also: a double click on the stock draws once."""
    page, expect = table_page, playwright_api.expect
    wait_for_my_turn(page, expect)
    mark_live_region(page)
    page.get_by_test_id("stock").dblclick()
    expect(page.locator("[data-testid^='hand-']")).to_have_count(8)
    page.wait_for_timeout(300)
    expect(page.get_by_test_id("verdict")).to_have_count(0)  # no "already drawn" on top
    expect(page.locator(".rk-hand .rk-drawn")).to_have_count(1)
    page.get_by_test_id("discard-pile").click(force=True)
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_contain_text("You have already drawn this turn")
    expect(page.get_by_test_id("alert")).to_contain_text("You have already drawn this turn")
    assert live_region_kept(page)
    # a refused control says why on hover and on focus
    page.get_by_test_id("draw").focus()
    expect(page.locator(".rk-ctl:focus-within .rk-tip")).to_contain_text("already drawn")
    shot(page, "07-pile-refused.png")
    expect(page.get_by_test_id("clear")).not_to_have_attribute("aria-disabled", "true")
    page.get_by_test_id("clear").click()
    expect(page.get_by_test_id("verdict")).to_have_count(0)
    expect(page.get_by_test_id("alert")).to_have_text("")

    # click to redraw, measured on every run and printed (target p90 ≤ 100 ms, max ≤ 150 ms)
    times = sorted(timed_click(page, f"hand-{i % 7}") for i in range(24))
    p50, p90 = times[len(times) // 2], times[int(len(times) * 0.9)]
    print(
        f"click to redraw over {len(times)} clicks: "
        f"p50 {p50:.0f} ms, p90 {p90:.0f} ms, max {times[-1]:.0f} ms"
    )


def test_layout_at_800_px_keeps_melds_on_one_line(open_table: Any, playwright_api: Any) -> None:
    page, expect = open_table("table_narrow", width=800, height=900), playwright_api.expect
    expect(page.get_by_test_id("meld-0")).to_be_visible()
    expect(page.get_by_test_id("opened-0")).to_be_visible()  # Hungarian: who has opened
    check_one_line(page)
    shot(page, "08-800px.png")
    # JupyterLab at 800 px with its file browser open leaves the table ~353 px: cards fan
    page.add_style_tag(content=".rk-table { max-width: 353px; }")
    page.wait_for_timeout(100)
    check_one_line(page)
    shot(page, "09-353px.png")


def check_one_line(page: Any) -> None:
    """A 4-card meld on one line, the hand on one line, ranks readable (≥ 12 px high)."""
    meld = page.get_by_test_id("meld-0")
    tops = meld.locator(".rk-fan > .rk-card").evaluate_all(
        "cards => cards.map(c => Math.round(c.getBoundingClientRect().top))"
    )
    assert len(tops) == 4 and len(set(tops)) == 1, tops  # one line, no wrap
    hand_tops = page.locator(".rk-hand-card").evaluate_all(
        "cards => cards.map(c => Math.round(c.getBoundingClientRect().top))"
    )
    assert len(set(hand_tops)) == 1, hand_tops  # the hand fans out, it does not wrap
    height = meld.locator(".rk-fan svg text").first.evaluate(
        "t => t.getBoundingClientRect().height"
    )
    assert height >= 12, height
    outside = page.locator(".rk-hand-card svg, .rk-fan svg").evaluate_all(
        "cards => cards.filter(c => c.getBoundingClientRect().right > "
        "c.closest('.rk-table').getBoundingClientRect().right + 1).map(c => c.textContent)"
    )
    assert not outside, f"cards stick out of the table: {outside}"
