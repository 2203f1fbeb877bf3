"""The docs' static pictures of widgets (``docs/widget_fallback.py``): every widget output of
every notebook gets one, drawn from the notebook's saved widget state, beside the view script
the live widget is drawn from. (The pages in a browser, with and without JavaScript, are in
``tests/browser/test_docs_widgets_browser.py``.)"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.language import get_language

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))

import widget_assets  # noqa: E402
import widget_fallback  # noqa: E402
from widget_fallback import STATE, VIEW, static_html, with_fallbacks  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SCRIPT = re.compile(r'<script type="application/vnd\.jupyter\.widget-view\+json">(.*?)</script>')


def load(path: Path) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return notebook


def widget_outputs(notebook: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        output
        for cell in notebook["cells"]
        for output in cell.get("outputs", [])
        if VIEW in output.get("data", {})
    ]


def saved_state(notebook: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = notebook["metadata"]["widgets"][STATE]["state"]
    return state


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_widget_output_gets_a_picture_beside_its_view(path: Path) -> None:
    notebook = load(path)
    before = widget_outputs(notebook)
    changed = copy.deepcopy(notebook)
    assert with_fallbacks(changed) == len(before)
    assert widget_outputs(changed) == []
    pictures = [
        output["data"]["text/html"]
        for cell in changed["cells"]
        for output in cell.get("outputs", [])
        if "rk-static" in output.get("data", {}).get("text/html", "")
    ]
    assert len(pictures) == len(before)
    for picture, output in zip(pictures, before):
        (script,) = SCRIPT.findall(picture)
        assert json.loads(script) == output["data"][VIEW]  # the live widget is still drawn
        assert picture.index('class="rk-static"') < picture.index("<script")
        assert widget_fallback.NOTE in picture
    assert changed["metadata"] == notebook["metadata"]  # the saved state stays for the manager


def test_the_table_is_drawn_with_its_sentence_and_its_cards() -> None:
    notebook = load(ROOT / "notebooks" / "04_play.ipynb")
    state = saved_state(notebook)
    (table_id,) = [
        i for i, m in state.items() if m["state"].get("_anywidget_id", "").endswith(".Table")
    ]
    traits = copy.deepcopy(state[table_id]["state"])
    picture = static_html(table_id, state)
    assert traits["view"]["status"] in picture
    # a hand-made moment: two cards in hand, a meld on the table, a discard on the pile (the
    # hand and the melds are traits of their own, as the widget syncs them)
    deck = traits["deck"]
    assert {"hand", "melds"} <= set(traits["view"]["apart"])
    traits["view_hand"] = [{"text": "7♥"}, {"text": "K♠"}]
    traits["view_melds"] = [{"label": "Meld 1", "cards": ["5♣", "6♣", "7♣"]}]
    traits["view"].update(discard_top={"text": "2♦"}, status="Your turn: draw from the stock.")
    drawn = static_html(table_id, {table_id: {**state[table_id], "state": traits}})
    assert "Your turn: draw from the stock." in drawn
    hand = drawn[drawn.index("rk-static-hand") :]
    assert hand.index(deck["7♥"]) < hand.index(deck["K♠"])
    for card in ("5♣", "6♣", "7♣", "2♦"):
        assert deck[card] in drawn
    assert deck["back"] in drawn  # the stock


@pytest.mark.parametrize("path", ["04_play.ipynb", "pt/04_jogar.ipynb", "fi/04_pelaa.ipynb"])
def test_the_docs_show_the_table_dealt_not_before_the_deal(path: str) -> None:
    """The lesson stores its table before the computer's cut (the page asks for that move);
    the docs show it dealt: the learner's hand (14 cards or more), their turn, in the lesson's
    language, every card drawn; nothing but the game's moment changed."""
    notebook = load(ROOT / "notebooks" / path)
    state = saved_state(notebook)
    (table_id,) = [
        i for i, m in state.items() if m["state"].get("_anywidget_id", "").endswith(".Table")
    ]
    stored = copy.deepcopy(state[table_id]["state"])
    assert stored["view"]["phase"] == "cut" and stored["view_hand"] == []  # what the file holds
    before = get_language()
    assert widget_fallback.dealt_tables(notebook) == 1
    assert get_language() == before  # the cell's set_language("pt") doesn't outlive it
    dealt = state[table_id]["state"]
    assert dealt["view"]["phase"] != "cut" and dealt["view"]["my_turn"]
    assert dealt["view"]["language"] == stored["view"]["language"]
    hand = [card["text"] for card in dealt["view_hand"]]
    assert len(hand) >= 14
    for trait in ("deck", "labels", "layout", "_esm", "ai_delay"):
        assert dealt[trait] == stored[trait], trait  # only the game's moment changed
    picture = static_html(table_id, state)
    assert dealt["view"]["status"] in picture
    drawn = picture[picture.index("rk-static-hand") :]
    assert drawn.count("<svg") == len(hand)
    assert widget_fallback.dealt_tables(notebook) == 0  # dealt already: left as it is


def test_the_meld_checker_is_drawn_with_its_buttons_and_verdict() -> None:
    notebook = load(ROOT / "notebooks" / "01_melds.ipynb")
    state = saved_state(notebook)
    (output,) = widget_outputs(notebook)
    picture = static_html(output["data"][VIEW]["model_id"], state)
    assert picture.count("<button") >= 53  # 52 cards and the joker, as disabled buttons
    assert picture.count("disabled") == picture.count("<button")
    verdicts = [m["state"]["value"] for m in state.values() if m["model_name"] == "HTMLModel"]
    assert any(v and v in picture for v in verdicts)


def test_unknown_models_and_missing_ids_draw_nothing_rather_than_fail() -> None:
    state = {
        "box": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_x", "IPY_MODEL_y"]}},
        "x": {"model_name": "SomethingNewModel", "state": {}},
    }
    assert static_html("box", state) == '<div class="rk-static-column"></div>'
    assert static_html("nowhere", state) == ""


def test_text_is_escaped_and_html_values_are_kept() -> None:
    state = {
        "t": {"model_name": "TextModel", "state": {"description": "Cards", "value": "<K♠>"}},
        "h": {"model_name": "HTMLModel", "state": {"value": "<b>bold</b>"}},
        "b": {"model_name": "ButtonModel", "state": {"description": "A&B"}},
    }
    assert "&lt;K♠&gt;" in static_html("t", state) and "Cards" in static_html("t", state)
    assert "<b>bold</b>" in static_html("h", state)
    assert "A&amp;B" in static_html("b", state)


def test_the_pages_load_the_widgets_from_the_site_only() -> None:
    config = widget_assets.CONFIG_JS
    assert "http" not in config and "anywidget" in config
    for spec, (url, integrity) in widget_assets.PACKAGES.items():
        assert url.startswith("https://registry.npmjs.org/") and integrity.startswith("sha512-")
        assert spec.rsplit("@", 1)[1] in url  # pinned: the version in the name is the one fetched
    assert not widget_assets.NOT_SHIPPED.startswith(("http", "//"))
