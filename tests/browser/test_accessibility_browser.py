"""Accessibility as a gate: axe-core on every widget in every phase, the keyboard and
screen-reader path in three languages, the four-colour deck and high-contrast styles.

Voilà serves ``a11y_widgets.ipynb`` (three Tables — a Rommi hand one move from a win, a
Hungarian deal the learner cuts, a seeded Rommi deal — a MeldChecker, an AIStepper, a
ReviewWidget, a PuzzleWidget and a QuizWidget on one page) and ``a11y_path.ipynb`` (a
Hungarian table the learner cuts and opens, a whole Rommi round, in the language the address
asks for). axe-core (pinned, :mod:`tests.browser.axe`) checks the page in every phase the test
reaches, with WCAG 2.0/2.1 A and AA rules: no violation at any impact, no ``duplicate-id*``
to review.

The path test plays with the keyboard alone, finding every control by its role and its name
in the table's language (``get_by_role``), as a screen reader user would; it records what the
live region and the alert region say, in order, and takes a snapshot of the Table's
accessibility tree (Playwright's ``aria_snapshot``) after each phase. Both are compared with
``tests/browser/a11y/<lang>.txt``: a change in what a screen reader hears is a change the
diff shows (``RUMMYKIT_UPDATE_A11Y=1`` writes the files anew). Chromium, Playwright and Voilà
as in ``test_table_browser``.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

from rummykit.cards import Card, as_cards, parse_card
from rummykit.game.legal import candidate_melds
from rummykit.language import within
from rummykit.variants import variant
from rummykit.widgets.view import card_name, labels
from tests.browser import axe
from tests.browser import test_table_browser as table_test
from tests.browser.test_table_browser import OUTPUT, PAGE_READY, STEP

playwright_api = table_test.playwright_api
voila_url = table_test.voila_url
browser = table_test.browser

SNAPSHOTS = table_test.HERE / "a11y"
LANGUAGES = ("en", "pt", "fi")

# What the live region (aria-live) and the alert region (role=alert) of each table say, in
# order, recorded from the first moment of the page (an init script, before any widget).
RECORD = """(() => {
  window.rkSaid = [];
  const watch = new MutationObserver((records) => {
    for (const record of records) {
      const node = record.target;
      if (!(node instanceof Element)) continue;
      const kind = node.matches('[aria-live]') ? 'live' : node.matches('[role=alert]') ? 'alert' : null;
      if (!kind) continue;
      const text = [...record.addedNodes].map((n) => n.textContent).join('');
      if (!text) continue;
      const table = [...document.querySelectorAll('.rk-table')].indexOf(node.closest('.rk-table'));
      window.rkSaid.push({ table, kind, text });
    }
  });
  const start = () => watch.observe(document.documentElement, { childList: true, subtree: true });
  if (document.documentElement) start(); else document.addEventListener('readystatechange', start, { once: true });
})();"""


@pytest.fixture
def open_page(browser: Any, voila_url: str) -> Iterator[Any]:
    """Open a served notebook (``open_page("a11y_path", "lang=pt")``) in a fresh page that
    records the tables' announcements; no request may leave 127.0.0.1."""
    contexts: list[Any] = []
    errors: list[str] = []
    outside: list[str] = []

    def opener(name: str, query: str = "") -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        contexts.append(context)
        table_test.keep_local(context, outside)
        context.add_init_script(RECORD)
        page = context.new_page()
        page.set_default_timeout(STEP)
        page.on("pageerror", lambda error: errors.append(str(error)))
        address = f"{voila_url}voila/render/{name}.ipynb" + (f"?{query}" if query else "")
        page.goto(address, wait_until="domcontentloaded", timeout=PAGE_READY)
        page.wait_for_selector(".rk-table [data-testid=stock]", timeout=PAGE_READY)
        return page

    try:
        yield opener
        assert not [e for e in errors if "rummykit" in e or "table.js" in e], errors
        assert not outside, f"fetched from outside 127.0.0.1: {outside}"
    finally:
        for context in contexts:
            context.close()


def said(page: Any, table: int) -> list[str]:
    """What table number ``table`` of the page announced so far, in order."""
    found: list[dict[str, Any]] = page.evaluate("() => window.rkSaid")
    return [f"{s['kind']}: {s['text']}" for s in found if s["table"] == table]


def ids_unique(page: Any) -> None:
    ids: list[str] = page.locator("[id]").evaluate_all("nodes => nodes.map(n => n.id)")
    twice = sorted({i for i in ids if ids.count(i) > 1})
    assert not twice, f"ids used twice on the page: {twice}"


# --- every widget, every phase ------------------------------------------------------------------


def test_every_widget_passes_axe_in_every_phase(open_page: Any, playwright_api: Any) -> None:
    expect = playwright_api.expect
    page = open_page("a11y_widgets")
    tables = page.locator(".rk-table")
    expect(tables).to_have_count(3)
    win, cut, deal = tables.nth(0), tables.nth(1), tables.nth(2)
    expect(page.locator(".rk-palette")).to_be_visible()
    expect(page.get_by_role("slider", name="Decision number")).to_be_visible()
    expect(deal.get_by_test_id("your-turn")).to_be_visible()
    expect(cut.get_by_role("slider", name="Cards to lift")).to_be_visible()
    ids_unique(page)
    axe.check(page, "the widget page as loaded (a Table in play, one at the cut, one to draw)")

    # a refusal: "x" before drawing says to draw first, read as an alert
    deal.get_by_test_id("hand-0").press("x")
    expect(deal.get_by_test_id("alert")).to_have_text(re.compile("^Draw first"))
    expect(deal.get_by_test_id("verdict")).to_be_visible()
    axe.check(page, "a Table showing a refusal")

    # draw: the play phase; the settings open, the four-colour deck on
    deal.get_by_role("button", name=re.compile(r"^Stock: \d+$")).press("Enter")
    expect(deal.locator(".rk-hand .rk-drawn")).to_have_count(1)
    deal.get_by_text("Settings", exact=True).press("Enter")
    four = deal.get_by_role("checkbox", name="Four-colour deck: diamonds blue, clubs green")
    four.press("Space")
    expect(four).to_be_checked()
    expect(deal.locator("svg text[fill='#1a7f37'], svg text[fill='#1f5fbf']").first).to_be_attached()
    axe.check(page, "a Table in its play phase, its settings open")

    # the cut (H3), with the keyboard
    cut.get_by_role("slider", name="Cards to lift").press("Enter")
    expect(cut.get_by_test_id("announcement")).to_contain_text("You cut the deck at")
    axe.check(page, "a Hungarian Table after the cut")

    # round over: a meld and the last discard; then the review of the round in the table
    for card in ("5♥", "6♥", "7♥"):
        win.get_by_role("button", name=re.compile("^" + re.escape(card_name(parse_card(card))))).press(
            "Enter"
        )
    win.get_by_role("button", name="Meld", exact=True).press("Enter")
    expect(win.get_by_role("button", name=re.compile(r"^Meld 1 \(You\)"))).to_be_visible()
    win.get_by_role("button", name=re.compile("^9 of spades")).press("Enter")
    win.get_by_role("button", name="Discard", exact=True).press("Enter")
    expect(win.get_by_test_id("result")).to_be_visible()
    axe.check(page, "a Table with the round over")
    win.get_by_test_id("tool-review").press("Enter")
    expect(win.get_by_test_id("hint-text")).to_be_visible()
    axe.check(page, "a Table reviewing the round")

    # the checker, the quiz, the puzzle, the stepper and the review widget, used
    palette = page.get_by_role("group", name="Cards to add")
    for name in ("K, king of spades", "A, ace of spades", "2 of spades"):
        palette.get_by_role("button", name=name, exact=True).press("Enter")
    expect(page.get_by_text("wraps around the ace").first).to_be_visible()
    quiz = page.locator(".widget-vbox").filter(has=page.get_by_role("button", name="Export")).last
    expect(quiz.get_by_text("Question 1 of 2")).to_be_visible()
    quiz.get_by_role("textbox").fill("no")
    quiz.get_by_role("button", name="Check", exact=True).press("Enter")
    quiz.get_by_role("button", name="next", exact=True).press("Enter")
    expect(quiz.get_by_text("Question 2 of 2")).to_be_visible()
    slider = page.get_by_role("slider", name="Decision number")
    slider.press("ArrowRight")
    page.get_by_role("button", name="next mistake").press("Enter")
    axe.check(page, "the checker, quiz, stepper and review after use")
    ids_unique(page)
    page.screenshot(path=str(OUTPUT / "a11y-widgets.png"), full_page=True)


def test_high_contrast_and_forced_colours(open_page: Any, playwright_api: Any) -> None:
    """When the browser asks for more contrast or forces its colours, the table's styles
    follow: every panel bordered, the felt gone under forced colours, nothing faded — and axe
    still finds nothing."""
    expect = playwright_api.expect
    page = open_page("a11y_widgets")
    deal = page.locator(".rk-table").nth(2)
    expect(deal.get_by_test_id("your-turn")).to_be_visible()
    style = """(el) => { const s = getComputedStyle(el); return {
        background: s.backgroundImage + ' ' + s.backgroundColor, border: s.borderTopStyle,
        opacity: s.opacity, outline: s.outlineStyle }; }"""
    plain = deal.get_by_test_id("status").evaluate(style)
    assert plain["border"] == "none"
    page.emulate_media(contrast="more")
    more = deal.get_by_test_id("status").evaluate(style)
    assert more["border"] == "solid", more
    refused = deal.get_by_test_id("discard").evaluate(style)
    assert refused["opacity"] == "1", refused  # a refused control is not faded
    axe.check(page, "the widget page with prefers-contrast: more")
    page.screenshot(path=str(OUTPUT / "a11y-contrast-more.png"))
    page.emulate_media(contrast="no-preference", forced_colors="active")
    forced = deal.evaluate(style)
    assert "gradient" not in forced["background"], forced  # the system's colours, no felt
    assert deal.get_by_test_id("status").evaluate(style)["border"] == "solid"
    deal.get_by_test_id("hand-0").press("Enter")
    expect(deal.get_by_test_id("hand-0")).to_have_attribute("aria-pressed", "true")
    selected = deal.get_by_test_id("hand-0").evaluate(style)
    assert selected["outline"] == "solid", selected  # selection drawn, not only coloured
    axe.check(page, "the widget page with forced colours")
    page.screenshot(path=str(OUTPUT / "a11y-forced-colours.png"))
