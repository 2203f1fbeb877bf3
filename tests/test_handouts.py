"""The rules on one page (rummykit.handouts) and the printed worksheets, in every language: every
rule of the variant once, the moves typed the language's way, the page in its language."""

from __future__ import annotations

import re
from html import unescape

import pytest

from rummykit import set_language
from rummykit.exercises import MeldKind, Worksheet
from rummykit.game import parse_action
from rummykit.handouts import GROUPS, handout
from rummykit.language import speaking
from rummykit.messages import render
from rummykit.puzzles import make_puzzles, worksheet
from rummykit.variants import variant as get_variant

LANGS = ("en", "pt", "fi")


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield
    set_language(None)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["hungarian", "rommi"])
def test_a_handout_states_every_rule_of_its_variant_once_in_its_language(
    lang: str, name: str
) -> None:
    page = handout(name, lang).html()
    rules = get_variant(name)
    expected = [f"{rules.rulebook}{n}" for n in range(1, 16 if rules.rulebook == "H" else 13)]
    grouped = [r for _, ids in GROUPS[rules.rulebook] for r in ids]
    assert sorted(grouped) == sorted(expected)  # every rule, each under one heading
    text = unescape(re.sub(r"<[^>]+>", " ", page))
    for rule in expected:
        sentence = render(f"rule_{rule}", language=lang)
        assert text.count(sentence) == 1, (rule, sentence)
    assert f'<html lang="{lang}">' in page
    assert render("handout_title", variant=rules.title, language=lang) in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_moves_a_handout_shows_are_typed_back_in_its_language(lang: str) -> None:
    page = handout("hungarian", lang).html()
    typed = [unescape(m) for m in re.findall(r"<code>(.*?)</code>", page)]
    assert len(typed) == 7  # draw, take, cut, meld, lay off, discard, undo
    for text in typed:
        parse_action(text, lang)  # reads back, in the language
    if lang == "pt":
        assert "comprar" in typed and "pegar o descarte" in typed
    if lang == "fi":
        assert "nosta" in typed and "ota poisto" in typed
    rommi = [m for m in re.findall(r"<code>(.*?)</code>", handout("rommi", lang).html())]
    assert len(rommi) == len(typed) - 1  # Rommi has no cut card


def test_a_worksheet_page_is_in_the_language_it_was_made_in() -> None:
    for lang in LANGS:
        with speaking(lang):
            sheet = Worksheet([MeldKind("9♠ 9♠ 9♥")])
            page = sheet.html()
            puzzles = worksheet(make_puzzles(count=2, seed=1, grade=1)).html()
        assert f'<html lang="{lang}">' in page and f'<html lang="{lang}">' in puzzles
        assert render("exercise_worksheet_title", language=lang) in page
