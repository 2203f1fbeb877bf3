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
    expect(
        deal.locator("svg text[fill='#1a7f37'], svg text[fill='#1f5fbf']").first
    ).to_be_attached()
    axe.check(page, "a Table in its play phase, its settings open")

    # the cut (H3), with the keyboard
    cut.get_by_role("slider", name="Cards to lift").press("Enter")
    expect(cut.get_by_test_id("announcement")).to_contain_text("You cut the deck at")
    axe.check(page, "a Hungarian Table after the cut")

    # round over: a meld and the last discard; then the review of the round in the table
    for card in ("5♥", "6♥", "7♥"):
        win.get_by_role(
            "button", name=re.compile("^" + re.escape(card_name(parse_card(card))))
        ).press("Enter")
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
    puzzle = page.locator(".widget-vbox").filter(has=page.get_by_role("button", name="Export"))
    puzzle.first.get_by_role("textbox").fill("2♣")
    puzzle.first.get_by_role("button", name="Check", exact=True).press("Enter")
    expect(puzzle.first.locator(".rk-feedback, .rk-answer-error").first).to_be_visible()
    slider = page.get_by_role("slider", name="Decision number")
    slider.press("ArrowRight")
    page.get_by_role("button", name="next mistake").press("Enter")
    axe.check(page, "the checker, quiz, puzzle, stepper and review after use")
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


# --- the keyboard and screen-reader path, in three languages ------------------------------------


class Path:
    """One table of the path page, played by role and name in the table's language."""

    def __init__(self, page: Any, index: int, lang: str, expect: Any) -> None:
        self.page, self.index, self.lang, self.expect = page, index, lang, expect
        self.table = page.locator(".rk-table").nth(index)
        with within(lang):
            self.words = labels()
        self.hand = self.table.get_by_role("group", name=self.words["your_hand"], exact=True)
        self.snapshots: list[tuple[str, str]] = []

    def button(self, key: str) -> Any:
        return self.table.get_by_role("button", name=self.words[key], exact=True)

    def card(self, card: Card) -> Any:
        """The learner's card, by its name (an unselected one: two decks hold twins)."""
        with within(self.lang):
            name = card_name(card)
        pattern = re.compile("^" + re.escape(name) + r"( \(.*\))?$")
        return self.hand.get_by_role("button", name=pattern, pressed=False).first

    def cards(self) -> list[Card]:
        shown: list[str] = self.hand.get_by_role("button").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        )
        return as_cards(" ".join(shown)) if shown else []

    def my_turn(self) -> None:
        self.expect(
            self.table.locator("[data-testid=your-turn], [data-testid=result]").first
        ).to_be_visible(timeout=STEP)

    def snap(self, phase: str) -> None:
        self.snapshots.append((phase, self.table.locator(".rk-body").aria_snapshot()))

    def said(self) -> list[str]:
        return said(self.page, self.index)

    def moved(self, key: str, target: Any = None) -> None:
        """Press ``key`` (on ``target``, else where the focus is) to make a move; wait until
        it is in the learner's log and the computer has answered. The learner's own move is
        what the live region says first after it (before any computer move): the newest
        entry of the learner's log, word for word."""
        moves = self.table.locator("[data-testid^=my-move]")
        count, before = moves.count(), len(self.said())
        (target or self.page.keyboard).press(key)
        self.expect(moves).to_have_count(count + 1)
        self.my_turn()
        newest = self.table.get_by_test_id("my-log").locator("div").first
        fresh = [s for s in self.said()[before:] if s.startswith("live: ")]
        assert fresh, f"nothing announced after the learner's move: {self.said()[before:]}"
        assert fresh[0].startswith("live: " + newest.inner_text()), (fresh, newest.inner_text())

    def select(self, cards: tuple[Card, ...]) -> None:
        self.page.keyboard.press("c")  # clear the selection
        self.expect(self.hand.get_by_role("button", pressed=True)).to_have_count(0)
        for n, card in enumerate(cards, 1):
            self.card(card).press("Enter")
            self.expect(self.hand.get_by_role("button", pressed=True)).to_have_count(n)

    def discard_last(self) -> None:
        """Select the last card of the hand (End) and discard it with "x"."""
        self.hand.get_by_role("button").first.press("End")
        self.page.keyboard.press("Enter")
        self.expect(self.hand.get_by_role("button").last).to_have_attribute("aria-pressed", "true")
        self.moved("x")

    def draw(self) -> None:
        stock = re.compile("^" + re.escape(self.words["stock"]) + r": \d+$")
        self.moved("Enter", self.table.get_by_role("button", name=stock))
        self.expect(self.table.locator(".rk-hand .rk-drawn")).to_have_count(1)


def hungarian_opening(path: Path) -> None:
    """Seat 1 cuts (H3), tries to open on its first turn (refused: H9), discards; on its
    second turn it draws and opens with 10♠ 10♦ 10♣ and Q♠ Q♦ Q♣ (60 of 51), and discards."""
    expect, rules = path.expect, variant("hungarian")
    slider = path.table.get_by_role("slider", name=path.words["cut_slider"], exact=True)
    expect(slider).to_be_visible()
    path.snap("cut")
    path.moved("Enter", slider)
    path.snap("first turn")
    first = next(iter(candidate_melds(path.cards(), rules)))
    path.select(first.cards)
    path.page.keyboard.press("m")
    expect(path.table.get_by_test_id("alert")).to_contain_text("(H9)")
    path.snap("refusal")
    path.button("sort_rank").press("Enter")
    path.page.keyboard.press("c")
    path.discard_last()
    path.snap("draw")
    path.draw()
    for meld in ("10♠ 10♦ 10♣", "Q♠ Q♦ Q♣"):
        path.select(tuple(as_cards(meld)))
        path.moved("m")
        expect(path.hand.get_by_role("button", pressed=True)).to_have_count(0)
    table = path.table.get_by_role("group", name=path.words["table"], exact=True)
    expect(table.get_by_role("button")).to_have_count(2)
    path.snap("opened")
    path.discard_last()
    expect(path.table.get_by_test_id("opened-1")).to_be_visible()


FOCUSED = """(table) => {
  const a = document.activeElement;
  return table.contains(a) ? a.getAttribute('aria-label') || a.textContent.trim() : null;
}"""


def tab_walk(path: Path) -> list[str]:
    """Tab from the table's start to its end: the name of every control on the way."""
    path.table.focus()
    names: list[str] = []
    for _ in range(100):
        path.page.keyboard.press("Tab")
        name = path.table.evaluate(FOCUSED)
        if name is None:
            return names
        names.append(name)
    raise AssertionError(f"Tab never left the table: {names}")


def rommi_round(path: Path) -> None:
    """Tab reaches every control; then a whole Rommi round: "x" before drawing (draw
    first), then each turn a draw, every meld the hand holds, and the highest card
    discarded, until the round is over."""
    expect, rules = path.expect, variant("rommi")
    path.my_turn()
    reached = tab_walk(path)
    with within(path.lang):
        cards = [card_name(c) for c in path.cards()]
    wanted = [path.words[k] for k in ("draw_button", "meld_button", "discard_button", "settings")]
    assert set(cards + wanted) <= set(reached), (cards, wanted, reached)
    assert any(re.fullmatch(re.escape(path.words["stock"]) + r": \d+", n) for n in reached)
    assert reached.index(path.words["draw_button"]) > reached.index(cards[-1])  # in reading order
    path.snap("draw")
    path.hand.get_by_role("button").first.press("x")
    expect(path.table.get_by_test_id("alert")).not_to_have_text("")
    path.snap("refusal")
    path.button("sort_rank").press("Enter")
    for turn in range(12):
        path.draw()
        if turn == 0:
            path.snap("play")
        while True:
            cards = path.cards()
            found = next(iter(candidate_melds(cards, rules)), None)
            if found is None or len(found.cards) == len(cards):
                break
            path.select(found.cards)
            path.moved("m")
            expect(path.hand.get_by_role("button")).to_have_count(len(cards) - len(found.cards))
        path.page.keyboard.press("c")
        path.discard_last()
        if path.table.get_by_test_id("result").count():
            break
    expect(path.table.get_by_test_id("result")).to_be_visible()
    path.snap("round over")


def transcript(paths: dict[str, Path]) -> str:
    parts = []
    for name, path in paths.items():
        for phase, tree in path.snapshots:
            parts.append(f"## {name}: {phase}\n{tree.rstrip()}\n")
        parts.append(f"## {name}: announced\n" + "\n".join(path.said()) + "\n")
    return "\n".join(parts)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_keyboard_and_screen_reader_path(lang: str, open_page: Any, playwright_api: Any) -> None:
    expect = playwright_api.expect
    page = open_page("a11y_path", f"lang={lang}")
    expect(page.locator(".rk-table")).to_have_count(2)
    paths = {"hungarian": Path(page, 0, lang, expect), "rommi": Path(page, 1, lang, expect)}
    for path in paths.values():
        expect(path.table).to_have_attribute("lang", lang)
    hungarian_opening(paths["hungarian"])
    rommi_round(paths["rommi"])
    axe.check(page, f"the path page in {lang}, both rounds played")
    page.screenshot(path=str(OUTPUT / f"a11y-path-{lang}.png"), full_page=True)

    text = transcript(paths)
    stored = SNAPSHOTS / f"{lang}.txt"
    if os.environ.get("RUMMYKIT_UPDATE_A11Y") == "1" or not stored.exists():
        stored.parent.mkdir(parents=True, exist_ok=True)
        stored.write_text(text, encoding="utf-8")
    (OUTPUT / f"a11y-{lang}.txt").write_text(text, encoding="utf-8")
    expected = stored.read_text(encoding="utf-8")
    diff = "\n".join(
        difflib.unified_diff(
            expected.splitlines(), text.splitlines(), str(stored), "this run", lineterm="", n=2
        )
    )
    assert text == expected, (
        f"what a screen reader meets changed (RUMMYKIT_UPDATE_A11Y=1 to accept):\n{diff[:6000]}"
    )
    if lang != "en" and (SNAPSHOTS / "en.txt").exists():
        english = (SNAPSHOTS / "en.txt").read_text(encoding="utf-8")
        heard = [line for line in text.splitlines() if line.startswith(("live: ", "alert: "))]
        assert not set(heard) & set(english.splitlines()), "an announcement left in English"


# --- the axe helper itself (no browser needed) --------------------------------------------------


def test_axe_failure_names_the_rule_the_element_and_the_fix() -> None:
    found = {
        "violations": [
            {
                "id": "label-content-name-mismatch",
                "impact": "serious",
                "help": "Elements must have their visible text as part of their accessible name",
                "url": "https://dequeuniversity.com/rules/axe/4.14/label-content-name-mismatch",
                "nodes": [
                    {
                        "target": "button[data-card='Q♠']",
                        "html": '<button aria-label="queen of spades">',
                        "fix": "Fix any of the following:\n  Text inside the element is not included",
                    }
                ],
            }
        ],
        "incomplete": [],
    }
    said = axe.report(found)
    assert "label-content-name-mismatch (serious, violations)" in said
    assert "at button[data-card='Q♠']: <button aria-label=\"queen of spades\">" in said
    assert "fix: Fix any of the following: Text inside the element is not included" in said


def test_axe_refuses_a_tarball_that_is_not_the_pinned_one(tmp_path: Any) -> None:
    import io
    import tarfile

    tarball = tmp_path / f"axe-core-{axe.AXE_VERSION}.tgz"
    with tarfile.open(tarball, "w:gz") as tar:
        body = b"window.axe = {version: 'tampered'};"
        member = tarfile.TarInfo("package/axe.min.js")
        member.size = len(body)
        tar.addfile(member, io.BytesIO(body))
    with pytest.raises(SystemExit, match="is not the axe-core"):
        axe.fetch(tmp_path)
    assert not (tmp_path / f"axe-{axe.AXE_VERSION}.min.js").exists()
