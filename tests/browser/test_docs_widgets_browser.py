"""The docs site's notebook pages draw their widgets offline, and show a static picture of each
widget when JavaScript doesn't run.

The built site (``docs/_build/html``, built here with ``make docs``'s command when missing or
older than the notebooks and the docs' widget code) is served on a free 127.0.0.1 port;
Chromium opens the notebook pages with every request that isn't 127.0.0.1 aborted and logged.
(Chromium and Playwright as in ``test_table_browser``.)"""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from . import axe
from .test_table_browser import (  # noqa: F401
    OUTPUT,
    ROOT,
    STEP,
    browser,
    keep_local,
    playwright_api,
)

DOCS = ROOT / "docs"
SITE = DOCS / "_build" / "html"
SOURCES = [
    *(ROOT / "notebooks").glob("*.ipynb"),
    DOCS / "conf.py",
    DOCS / "widget_assets.py",
    DOCS / "widget_fallback.py",
    DOCS / "_static" / "widgets.css",
]
WIDGET_PAGES = {  # page: what the live widget draws
    "04_play": ".widget-subarea .rk-table",
    "01_melds": ".widget-subarea .widget-vbox button",
    "05_inside_the_ai": ".widget-subarea .rk-named-slider, .widget-subarea input[type=range]",
    "06_classroom": ".widget-subarea .widget-vbox",
}


def _stale() -> bool:
    page = SITE / "notebooks" / "04_play.html"
    if not page.is_file():
        return True
    built = page.stat().st_mtime
    return any(source.stat().st_mtime > built for source in SOURCES)


@pytest.fixture(scope="module")
def site(playwright_api: Any) -> Iterator[str]:  # noqa: F811
    """The built docs, served on 127.0.0.1."""
    if _stale():
        command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
        built = subprocess.run(
            [*command, str(DOCS), str(SITE)], capture_output=True, text=True, timeout=1200
        )
        assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def offline(browser: Any) -> Iterator[tuple[Any, list[str]]]:  # noqa: F811
    """A browser context in which every request that isn't to 127.0.0.1 is aborted, and logged."""
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    outside: list[str] = []
    keep_local(context, outside)
    try:
        yield context, outside
    finally:
        context.close()


@pytest.mark.parametrize("name", list(WIDGET_PAGES))
def test_notebook_pages_draw_their_widgets_with_nothing_from_outside(
    site: str,
    offline: tuple[Any, list[str]],
    playwright_api: Any,  # noqa: F811
    name: str,
) -> None:
    context, outside = offline
    page = context.new_page()
    page.set_default_timeout(STEP)
    errors: list[str] = []
    failed: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.goto(f"{site}notebooks/{name}.html")
    expect = playwright_api.expect
    expect(page.locator(WIDGET_PAGES[name]).first).to_be_visible(timeout=STEP)
    drawn = page.locator(".widget-subarea")
    views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
    expect(drawn).to_have_count(views)
    for i in range(views):  # every widget drawn, its static picture hidden
        expect(drawn.nth(i)).not_to_be_empty(timeout=STEP)
    expect(page.locator(".rk-static:visible")).to_have_count(0, timeout=STEP)
    axe.check(page, f"the docs page notebooks/{name}.html")
    page.screenshot(path=str(OUTPUT / f"docs-{name}.png"))
    assert not outside, f"requests left 127.0.0.1: {outside}"
    assert not failed, f"files the page asked for and did not get: {failed}"
    assert not errors, errors


def test_without_javascript_each_widget_is_a_picture_and_a_sentence(
    site: str,
    browser: Any,  # noqa: F811
    playwright_api: Any,  # noqa: F811
) -> None:
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1200, "height": 1000}
    )
    expect = playwright_api.expect
    try:
        page = context.new_page()
        page.set_default_timeout(STEP)
        page.goto(f"{site}notebooks/04_play.html")
        pictures = page.locator(".rk-static")
        views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
        expect(pictures).to_have_count(views)
        assert views >= 1
        for i in range(views):
            expect(pictures.nth(i)).to_be_visible()
            expect(pictures.nth(i).locator(".rk-static-note")).to_contain_text("JupyterLab")
        table = pictures.first  # the card table: its status sentence and cards
        expect(table.locator(".rk-static-status")).not_to_be_empty()
        assert table.locator("svg").count() >= 1  # the cards, or the stock's back before the deal
        expect(page.locator(".widget-subarea")).to_have_count(0)
        page.screenshot(path=str(OUTPUT / "docs-04_play-no-js.png"), full_page=True)
        page.goto(f"{site}notebooks/01_melds.html")  # the meld checker: buttons and a verdict
        checker = page.locator(".rk-static").first
        expect(checker).to_be_visible()
        assert checker.locator("button[disabled]").count() >= 52
    finally:
        context.close()


MERMAID_PAGES = sorted(
    path.relative_to(DOCS).with_suffix(".html").as_posix()
    for path in DOCS.rglob("*.md")
    if not path.relative_to(DOCS).parts[0].startswith("_")
    and "```mermaid" in path.read_text(encoding="utf-8")
)


def test_there_are_diagrams_to_check() -> None:
    assert MERMAID_PAGES, "no page has a diagram: the test below would check nothing"


@pytest.mark.parametrize("name", MERMAID_PAGES)
def test_diagrams_draw_from_the_site_s_own_mermaid(
    site: str,
    offline: tuple[Any, list[str]],
    playwright_api: Any,  # noqa: F811
    name: str,
) -> None:
    context, outside = offline
    page = context.new_page()
    page.set_default_timeout(STEP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site}{name}")
    diagrams = page.locator("pre.mermaid, div.mermaid")
    assert diagrams.count() >= 1
    for i in range(diagrams.count()):  # drawn: an SVG, not the diagram's text
        playwright_api.expect(diagrams.nth(i).locator("svg")).to_have_count(1, timeout=STEP)
    assert not outside, f"requests left 127.0.0.1: {outside}"
    assert not errors, errors


def test_no_page_of_the_site_loads_a_script_or_style_from_another_host(site: str) -> None:
    import re

    remote = re.compile(r"""<(?:script|link)\b[^>]*\b(?:src|href)=["'](?:https?:)?//""")
    loads_remote = re.compile(r"""["'](?:https?:)?//[^"'\s]+\.(?:m?js|css)["']""")
    pages = sorted(SITE.rglob("*.html"))
    assert len(pages) > 20
    found = [
        page.relative_to(SITE).as_posix()
        for page in pages
        if remote.search(text := page.read_text(encoding="utf-8")) or loads_remote.search(text)
    ]
    assert not found, f"pages that load from another host: {found}"
