"""The card table in Portuguese and in Finnish, in a real browser: a refusal is read in the
table's language, word for word what the engine says in that language.

Voilà serves ``table_pt.ipynb`` (Hungarian Rummy, the Portuguese source's game, with
``language="pt"``) and ``table_fi.ipynb`` (Rommi, the Finnish source's, ``language="fi"``);
the fixtures (Voilà on 127.0.0.1, Debian's Chromium, no request leaving the machine) are the
card table's browser test's. The learner tries to discard before drawing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from rummykit import pofiles
from tests.browser import test_table_browser as table_test
from tests.browser.test_table_browser import shot, wait_for_my_turn

# the card table's browser fixtures, for this module: Voilà, Chromium, a page per notebook
playwright_api = table_test.playwright_api
voila_url = table_test.voila_url
browser = table_test.browser
open_table = table_test.open_table

TABLES = {"pt": ("hungarian", 5), "fi": ("rommi", 17)}


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    """The catalogues compiled as ``make mo`` does, before the kernel reads them."""
    pofiles.compile_all()


def refusal(lang: str) -> tuple[list[str], list[str], str]:
    """What the engine says, in ``lang`` and in English, when the learner of the notebook's
    table selects their first card and discards before drawing — and the stock's label."""
    from rummykit.widgets.table import Table

    variant, seed = TABLES[lang]
    said = []
    stock = ""
    for language in (lang, "en"):
        table = Table(variant, players=2, ai="easy", seed=seed, ai_delay=0, language=language)
        table.handle({"type": "select", "index": 0})
        table.handle({"type": "discard"})
        assert table.verdict is not None and not table.verdict.ok
        said.append([r["message"] for r in table.view["verdict"]["reasons"]])
        stock = stock or table.labels["stock"]
    return said[0], said[1], stock


@pytest.mark.parametrize("lang", sorted(TABLES))
def test_a_refusal_is_read_in_the_tables_language(
    lang: str, open_table: Any, playwright_api: Any
) -> None:
    expect = playwright_api.expect
    expected, english, stock = refusal(lang)
    assert len(expected) == len(english) >= 2  # "Not allowed: discard …" and the reason why
    assert not set(expected) & set(english)
    page = open_table(f"table_{lang}")
    wait_for_my_turn(page, expect)
    label = re.compile("^" + re.escape(f"{stock}: ") + r"\d+$")
    expect(page.get_by_test_id("stock")).to_have_attribute("aria-label", label)
    page.get_by_test_id("hand-0").click()
    expect(page.get_by_test_id("hand-0")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("discard").click(force=True)  # refused controls stay pressable
    verdict = page.get_by_test_id("verdict")
    for sentence in expected:
        expect(verdict).to_contain_text(sentence)
    expect(page.get_by_test_id("alert")).to_contain_text(expected[-1])
    shown = page.locator(".rk-table").inner_text()
    assert not [sentence for sentence in english if sentence in shown]
    shot(page, f"language-{lang}-refusal.png")
