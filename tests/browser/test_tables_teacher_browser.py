"""The teacher's page of ``rummykit tables`` in Chromium: the code, new tables, every table
live, open cards with the code only, closing a table — with axe-core (WCAG 2.0/2.1 A and AA)
finding nothing on the page in each state, in English and Finnish, and the page's script
running under its own Content-Security-Policy. (Chromium and Playwright as in
``test_table_browser``; the server as in ``tests/tables``.)"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from rummykit.messages import render
from rummykit.server.client import TableClient
from tests.browser import axe
from tests.browser import test_table_browser as table_test
from tests.tables.conftest import TEACHER, Served

pytest.importorskip("tornado")
pytest.importorskip("sqlalchemy")

playwright_api = table_test.playwright_api
browser = table_test.browser
STEP = 20_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(str(tmp_path_factory.mktemp("teacher") / "tables.db"))
    yield served
    served.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    # axe-core is injected as a script: the context lets it past the page's policy (the
    # policy itself is checked in test_the_page_s_script_runs_under_its_own_policy)
    context = browser.new_context(viewport={"width": 1100, "height": 900}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(STEP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield page
    context.close()
    # the wrong code's 403 and the refused house rule's 400 are the page's to say, not errors
    expected = re.compile(r"Failed to load resource: .* status of (400|403) ")
    assert not [e for e in errors if not expected.match(e)], errors


def _sit(server: Served, code: str, name: str) -> tuple[int, list[str]]:
    async def sit() -> tuple[int, list[str]]:
        client = TableClient(server.ws, code, name=name)
        await client.connect()
        while client.last is None:
            await client.receive(10)
        hand = list(client.last["observation"]["hand"])
        await client.close()
        assert client.seat is not None
        return client.seat, hand

    with ThreadPoolExecutor(1) as thread:  # Playwright's own loop runs in this thread
        return thread.submit(asyncio.run, sit()).result(30)


def test_the_teacher_creates_tables_and_watches_them(server: Served, page: Any) -> None:
    page.goto(f"http://{server.http}/teacher")
    axe.check(page, "the teacher's page before the code")
    assert page.locator("#rk-new-section").is_hidden()
    # a wrong code: said, nothing shown
    page.get_by_role("textbox", name="Teacher code").fill("not-the-code")
    page.get_by_role("button", name="Use this code").click()
    page.get_by_role("alert").filter(has_text="the teacher code is missing or wrong").wait_for()
    assert page.locator("#rk-tables-section").is_hidden()
    page.get_by_role("textbox", name="Teacher code").fill(TEACHER)
    page.get_by_role("button", name="Use this code").click()
    page.get_by_role("heading", name="New tables").wait_for()
    axe.check(page, "the teacher's page with the code, no table")
    # a house rule that is no KEY=VALUE, then one the variant refuses: both said
    page.get_by_label("Variant").select_option("rommi")
    page.get_by_label("House rules").fill("target")
    page.get_by_role("button", name="Create").click()
    page.get_by_role("alert").filter(has_text="'target' is not a house rule").wait_for()
    page.get_by_label("House rules").fill("nonsense=1")
    page.get_by_role("button", name="Create").click()
    page.get_by_role("alert").filter(has_text="nonsense").wait_for()
    # Rommi, a learner and the hard computer, a move clock, house rule target=200
    page.get_by_label("House rules").fill("target=200")
    page.get_by_label("Seat 1").select_option("hard")
    page.get_by_label("Move clock in seconds (empty: none)").fill("90")
    page.get_by_role("button", name="Create").click()
    status = page.get_by_role("status").filter(has_text="New tables:")
    status.wait_for()
    code = re.search(r"New tables: (\w+)", status.inner_text()).group(1)  # type: ignore[union-attr]
    view = server.api(f"/api/tables/{code}")[1]
    assert view["settings"]["options"] == {"target": 200} and view["settings"]["clock"] == 90
    assert [s["kind"] for s in view["seats"]] == ["human", "hard"]
    article = page.locator(f'article[data-table="{code}"]')
    article.get_by_role("heading", name=f"Table {code}").wait_for()
    assert "Rommi · playing" in article.inner_text()
    assert article.get_by_role("cell", name="computer: hard").count() == 1
    # a learner sits down: the page shows them within its two seconds, hands hidden
    seat, hand = _sit(server, code, "Ana")
    row = article.get_by_role("row").filter(has=page.get_by_role("rowheader", name=str(seat)))
    row.get_by_role("cell", name="Ana").wait_for()
    assert "hidden" in row.inner_text() and hand[0] not in row.inner_text().split()
    # open cards: every hand, as the server holds it
    page.get_by_label("Show every hand (open cards)").check()
    opened = server.api(f"/api/tables/{code}?open=1")[1]["hands"][seat]
    row.get_by_role("cell", name=" ".join(opened)).wait_for()
    axe.check(page, "the teacher's page with a table and open cards")
    # the record, then closing the table
    with page.expect_download() as download:
        article.get_by_role("button", name="Save the record").click()
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    from rummykit.game import Game

    assert Game.load(saved).variant.name == "rommi"
    article.get_by_role("button", name="Close the table").click()
    page.get_by_role("status").filter(has_text=f"Table {code} is closed").wait_for()
    article.wait_for(state="detached")
    assert server.api(f"/api/tables/{code}")[0] == 404


def test_the_page_in_finnish_passes_axe(server: Served, page: Any) -> None:
    page.goto(f"http://{server.http}/teacher?lang=fi")
    label = render("tables_page_code_heading", None, "fi")
    page.get_by_role("textbox", name=label).fill(TEACHER)
    page.get_by_role("button", name=render("tables_page_code_use", None, "fi")).click()
    page.get_by_role("heading", name=render("tables_page_new_heading", None, "fi")).wait_for()
    server.create(variant="hungarian", seats=["human", "easy", "normal"])
    page.locator("article.rk-table").first.wait_for()
    assert page.evaluate("document.documentElement.lang") == "fi"
    axe.check(page, "the teacher's page in Finnish with a table")


def test_the_page_s_script_runs_under_its_own_policy(server: Served, browser: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(STEP)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"http://{server.http}/teacher")
    page.get_by_role("textbox", name="Teacher code").fill(TEACHER)
    page.get_by_role("button", name="Use this code").click()
    page.get_by_role("heading", name="New tables").wait_for()  # the script ran
    context.close()
    assert not errors, errors


def test_a_table_another_server_plays_is_watched_not_closed(server: Served, page: Any) -> None:
    """A second server on the same database: its table is on this server's page too, said
    to be played there (who is connected is that server's to know), with no Close button;
    a move made there shows here."""
    other = Served(server.db)
    try:
        code = other.create(variant="rommi", seats=["human", "human"])
        page.goto(f"http://{server.http}/teacher")
        page.get_by_role("textbox", name="Teacher code").fill(TEACHER)
        page.get_by_role("button", name="Use this code").click()
        article = page.locator(f'article[data-table="{code}"]')
        article.get_by_text("played by another server of the school: watched from here").wait_for()
        assert article.get_by_role("button", name="Close the table").is_hidden()
        assert article.get_by_role("button", name="Save the record").is_visible()
        seat, _hand = _sit(other, code, "Ana")
        row = article.get_by_role("row").filter(has=page.get_by_role("rowheader", name=str(seat)))
        row.get_by_role("cell", name="Ana").wait_for()
        assert "not connected" not in row.inner_text()  # not this server's to say
        axe.check(page, "the teacher's page watching another server's table")
    finally:
        other.stop()
