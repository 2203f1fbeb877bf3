"""``rummykit classroom`` end to end: the command serves the class page with Voilà on a free
127.0.0.1 port, Chromium opens it, a click on the stock goes through Python and the hand
grows; the menus deal a new game; nothing is fetched from outside 127.0.0.1 and no code shows.
(Chromium and Playwright as in ``test_table_browser``: skipped without them, unless
``RUMMYKIT_REQUIRE_BROWSER=1``.)"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from . import axe
from .test_table_browser import (  # noqa: F401 (fixtures)
    OUTPUT,
    PAGE_READY,
    ROOT,
    STEP,
    _free_port,
    _stop,
    browser,
    playwright_api,
    start_server,
    wait_for_voila,
)

CODE = "rommi-7b"
LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")
STRETCHED = """() => new Promise((done) => {
  const signal = AbortSignal.timeout(2000);
  setTimeout(() => done(signal.aborted), 2500);
})"""
QUIET_LOADING = """() => {  // the loading screen's styles (gone from the page once loaded)
  const styles = (html) => {
    const element = document.createElement('div');
    element.innerHTML = html;
    document.body.appendChild(element);
    const found = getComputedStyle(element.querySelector('[class]:not(.voila-skeleton-post)'));
    const style = { timing: found.animationTimingFunction, name: found.animationName };
    element.remove();
    return style;
  };
  return {
    spinner: styles('<svg class="spinner"></svg>').timing,
    placeholders: styles('<div class="voila-skeleton-post"><div class="voila-skeleton-line">'
      + '</div></div>').name,
  };
}"""


@pytest.fixture(scope="module")
def classroom_url(playwright_api: Any) -> Iterator[str]:  # noqa: F811
    """``rummykit classroom`` (Rommi against easy) on a free 127.0.0.1 port."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    log_path = OUTPUT / "classroom.log"
    command = [sys.executable, "-m", "rummykit", "classroom", f"--port={port}"]
    command += ["--variant=rommi", "--level=easy", "--cull-timeout=120", "--cull-interval=30"]
    command += [f"--code={CODE}"]
    process = start_server(command, log_path, env)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for_voila(process, url, log_path)
        assert f"Students open: {url}" in log_path.read_text(encoding="utf-8")
        yield url
    finally:
        _stop(process)


def test_a_student_opens_the_class_page_and_plays(
    browser: Any,  # noqa: F811
    classroom_url: str,
    playwright_api: Any,  # noqa: F811
) -> None:
    expect = playwright_api.expect
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    outside: list[str] = []
    try:
        page = context.new_page()
        page.set_default_timeout(STEP)
        page.on("request", lambda r: None if r.url.startswith(LOCAL) else outside.append(r.url))
        started = time.monotonic()
        page.goto(classroom_url, wait_until="domcontentloaded", timeout=PAGE_READY)
        page.get_by_label("Class code").fill(CODE.upper())
        page.get_by_role("button", name="Start my table").click()
        page.wait_for_selector(".rk-table [data-testid=stock]", timeout=PAGE_READY)
        drawn = time.monotonic() - started
        assert page.locator(".jp-InputArea, .cm-editor").count() == 0  # no code shown
        # the loading screen turns in steps and doesn't shimmer (no 60-frame redraws)
        animations = page.evaluate(QUIET_LOADING)
        assert animations["spinner"].startswith("steps(8"), animations
        assert animations["placeholders"] == "none", animations
        # a widget model's 2-second load limit (anywidget's) is stretched for loaded machines
        assert page.evaluate(STRETCHED) is False
        expect(page.get_by_test_id("status")).to_contain_text("Rommi")
        expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=STEP)
        cards = page.locator("[data-testid^='hand-']").count()
        page.get_by_test_id("stock").click()
        expect(page.locator("[data-testid^='hand-']")).to_have_count(cards + 1)
        expect(page.get_by_test_id("announcement")).to_have_text("You drew from the stock.")
        axe.check(page, "the class page (rummykit classroom)")

        # the four-colour deck from the table's settings (green clubs) ...
        page.get_by_text("Settings", exact=True).click()
        page.get_by_role("checkbox", name="Four-colour deck: diamonds blue, clubs green").check()
        four_inks = page.locator(".rk-table svg text[fill='#1f5fbf'], svg text[fill='#1a7f37']")

        # the menus: another variant, New game, a fresh Hungarian table
        page.get_by_label("Variant").select_option(label="Hungarian Rummy")
        page.get_by_role("button", name="New game").click()
        expect(page.get_by_test_id("status")).to_contain_text("Hungarian Rummy")
        axe.check(page, "the class page after New game")
        # ... is kept for the new game
        page.get_by_text("Settings", exact=True).click()
        expect(page.get_by_role("checkbox", name=re.compile("^Four-colour deck"))).to_be_checked()
        expect(four_inks.first).to_be_attached()  # 15 cards and the pile: some ♦ or ♣
        page.screenshot(path=str(OUTPUT / "classroom.png"), full_page=True)
        print(f"class page: table drawn {drawn:.1f} s after the request")
    finally:
        context.close()
    assert not outside, f"fetched from outside 127.0.0.1: {outside}"
