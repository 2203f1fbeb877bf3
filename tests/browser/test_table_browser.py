"""The card table in a real browser: Voilà serves a notebook, Playwright drives Chromium.

Debian's ``/usr/bin/chromium`` is launched through ``executable_path`` (never
``playwright install``). Without it the test is skipped with a message saying how to get it;
with ``RUMMYKIT_REQUIRE_BROWSER=1`` (set by ``.ci/run``) a missing browser is a failure.

Screenshots go to ``test-output/browser/``; ``docs/_static/table.png`` (for the README) is
written when it is missing or when ``RUMMYKIT_UPDATE_SCREENSHOT=1``.
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
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from rummykit.cards import Card, as_cards
from rummykit.game.state import candidate_melds
from rummykit.melds import check_meld
from rummykit.variants import variant

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
NOTEBOOK = HERE / "table_demo.ipynb"
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
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime), "PYTHONUNBUFFERED": "1"}
    log_path = OUTPUT / "voila.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "voila",
                str(NOTEBOOK),
                "--no-browser",
                f"--port={port}",
                "--Voila.ip=127.0.0.1",
                "--show_tracebacks=True",
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
        deadline = time.monotonic() + SERVER_START
        while True:
            if process.poll() is not None:
                pytest.fail(f"Voilà exited ({process.returncode}):\n{log_path.read_text()}")
            try:  # any HTTP answer means the server is up (GET / would start a kernel)
                urllib.request.urlopen(url + "voila/static/", timeout=5).close()
                break
            except urllib.error.HTTPError:
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"Voilà did not answer in {SERVER_START} s:\n{log_path.read_text()}")
            time.sleep(0.5)
        yield url
    finally:
        _stop(process)


@pytest.fixture
def table_page(playwright_api: Any, voila_url: str) -> Iterator[Any]:
    """A fresh Chromium page (Debian's binary, closed network flags) on the served notebook."""
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=STEP)
        try:
            context = browser.new_context(viewport={"width": 1200, "height": 1000})
            page = context.new_page()
            page.set_default_timeout(STEP)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(voila_url, wait_until="domcontentloaded", timeout=PAGE_READY)
            page.wait_for_selector(".rk-table [data-testid=stock]", timeout=PAGE_READY)
            yield page
            assert not [e for e in errors if "rummykit" in e or "table.js" in e], errors
        finally:
            browser.close()


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
    expect(page.get_by_test_id("stock")).to_be_enabled(timeout=STEP)


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


def shot(page: Any, name: str) -> Path:
    path = OUTPUT / name
    page.locator(".rk-table").screenshot(path=str(path))
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
    expect(page.get_by_test_id("stock")).to_be_disabled()
    assert page.get_by_test_id("stock").get_attribute("aria-label") != stock_before
    expect(page.get_by_test_id("announcement")).to_contain_text("drew from the stock")

    # a refusal, explained: three cards that are no meld; the rule is cited, the cards marked
    cards = as_cards(" ".join(hand(page)))
    wrong = no_meld(cards)
    click_cards(page, expect, [str(c) for c in wrong])
    page.get_by_test_id("meld").click()
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_be_visible()
    expect(verdict).to_contain_text("(R3)")
    expect(verdict).to_contain_text("Not allowed: meld")
    assert page.locator(".rk-hand .rk-fault").count() >= 1  # offending cards marked
    assert page.locator("[data-testid^='hand-'][aria-pressed=true]").count() == 3  # kept
    shot(page, "refusal.png")

    # a meld: clear the selection, pick a real meld, press Meld
    page.get_by_test_id("clear").click()
    expect(page.locator("[data-testid^='hand-'][aria-pressed=true]")).to_have_count(0)
    meld = next(m for m in candidate_melds(cards, RULES) if len(m.cards) == 3)
    melds_before = page.locator("[data-testid^='meld-']").count()
    click_cards(page, expect, [str(c) for c in meld.cards])
    page.get_by_test_id("meld").click()
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
    # ... and it stays open while the table redraws
    page.get_by_test_id("stock").click()
    expect(page.get_by_test_id("stock")).to_be_disabled()
    expect(page.locator("[data-testid=ai-log] details").first).to_have_attribute("open", "")

    # one more refusal to show beside the open trace, for the picture
    cards = as_cards(" ".join(hand(page)))
    wrong = no_meld(cards)
    click_cards(page, expect, [str(c) for c in wrong])
    page.get_by_test_id("meld").click()
    expect(page.get_by_test_id("verdict")).to_contain_text("(R3)")
    picture = shot(page, "table.png")
    page.screenshot(path=str(OUTPUT / "page.png"), full_page=True)
    if not README_SHOT.exists() or os.environ.get("RUMMYKIT_UPDATE_SCREENSHOT") == "1":
        README_SHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(picture, README_SHOT)
    print(f"browser test played in {time.monotonic() - started:.1f} s; pictures in {OUTPUT}")
