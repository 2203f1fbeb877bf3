"""A static picture of every widget in a notebook, for readers whose browser runs no JavaScript.

A widget output in a notebook is only a reference to a model in the notebook's saved widget
state. For the docs, each such output becomes one HTML output: a ``div.rk-static`` drawn here
from that saved state (the cards as SVG, the sentences the widget showed, its buttons as
disabled buttons), followed by the widget's own view script, which the widget manager turns
into the live widget. ``widgets.css`` hides the picture once the live widget has drawn; when
JavaScript doesn't run, the picture is what the reader sees.

>>> state = {"a": {"model_name": "HTMLModel", "state": {"value": "<b>9♠ 9♥ 9♦</b> is a set."}}}
>>> static_html("a", state)
'<div class="rk-static-html"><b>9♠ 9♥ 9♦</b> is a set.</div>'
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
NOTE = (
    "A picture of the widget as the notebook saved it: open the notebook in JupyterLab to use it."
)

State = dict[str, dict[str, Any]]


def _children(model: dict[str, Any], state: State) -> str:
    ids = [child.removeprefix("IPY_MODEL_") for child in model["state"].get("children", [])]
    return "".join(static_html(i, state) for i in ids)


def _box(direction: str) -> Callable[[dict[str, Any], State], str]:
    return lambda model, state: (
        f'<div class="rk-static-{direction}">{_children(model, state)}</div>'
    )


def _described(model: dict[str, Any], body: str) -> str:
    label = model["state"].get("description", "")
    if not label:
        return body
    return f'<span class="rk-static-label">{html.escape(label)}</span> {body}'


def _button(model: dict[str, Any], state: State) -> str:
    words = html.escape(model["state"].get("description", ""))
    return f'<button type="button" disabled class="rk-static-button">{words}</button>'


def _text(model: dict[str, Any], state: State) -> str:
    value = html.escape(str(model["state"].get("value", "")))
    return _described(model, f'<code class="rk-static-text">{value}</code>')


def _dropdown(model: dict[str, Any], state: State) -> str:
    labels, index = model["state"].get("_options_labels", []), model["state"].get("index")
    chosen = labels[index] if isinstance(index, int) and 0 <= index < len(labels) else ""
    return _described(model, f'<code class="rk-static-text">{html.escape(chosen)}</code>')


def _html(model: dict[str, Any], state: State) -> str:
    value = model["state"].get("value", "")
    return _described(model, "") + f'<div class="rk-static-html">{value}</div>' if value else ""


def _label(model: dict[str, Any], state: State) -> str:
    return (
        f'<span class="rk-static-text">{html.escape(str(model["state"].get("value", "")))}</span>'
    )


def _cards(texts: list[str], deck: dict[str, str]) -> str:
    return "".join(deck.get(text, html.escape(text)) for text in texts)


def _table(model: dict[str, Any], state: State) -> str:
    """The card table: its status sentence, the piles, the melds and the learner's hand."""
    traits = model["state"]
    view, deck = dict(traits.get("view", {})), traits.get("deck", {})
    # the entries the widget syncs apart (``view_hand``…), put back as its page does
    view.update({k: traits[f"view_{k}"] for k in view.get("apart", []) if f"view_{k}" in traits})
    parts = [f'<p class="rk-static-status">{html.escape(view.get("status", ""))}</p>']
    piles = [deck.get("back", "")] if view.get("stock_count") else []
    top = view.get("discard_top")
    piles += [_cards([top["text"]], deck)] if top else []
    parts.append(f'<div class="rk-static-cards">{"".join(piles)}</div>')
    for meld in view.get("melds", []):
        label = html.escape(meld.get("label", ""))
        cards = _cards(meld.get("cards", []), deck)
        parts.append(f'<div class="rk-static-cards" title="{label}">{cards}</div>')
    hand = [card["text"] for card in view.get("hand", [])]
    if hand:
        parts.append(f'<div class="rk-static-cards rk-static-hand">{_cards(hand, deck)}</div>')
    parts += [
        f"<p>{html.escape(line)}</p>" for line in view.get("result", []) if isinstance(line, str)
    ]
    return "".join(parts)


def _slider(model: dict[str, Any], state: State) -> str:
    traits = model["state"]
    label = html.escape(str(traits.get("label") or traits.get("description", "")))
    return f'<p class="rk-static-text">{label}: {traits.get("value")} / {traits.get("max")}</p>'


def _palette(model: dict[str, Any], state: State) -> str:
    rows = model["state"].get("rows", [])
    return "".join(
        '<div class="rk-static-row">'
        + "".join(
            f'<button type="button" disabled class="rk-static-button" '
            f'aria-label="{html.escape(card["name"])}">{html.escape(card["text"])}</button>'
            for card in row
        )
        + "</div>"
        for row in rows
    )


def _anywidget(model: dict[str, Any], state: State) -> str:
    kind = model["state"].get("_anywidget_id", "")
    if kind.endswith(".Table"):
        return _table(model, state)
    if kind.endswith(".NamedSlider"):
        return _slider(model, state)
    if kind.endswith(".CardPalette"):
        return _palette(model, state)
    return ""


DRAW: dict[str, Callable[[dict[str, Any], State], str]] = {
    "VBoxModel": _box("column"),
    "BoxModel": _box("column"),
    "HBoxModel": _box("row"),
    "GridBoxModel": _box("row"),
    "ButtonModel": _button,
    "TextModel": _text,
    "TextareaModel": _text,
    "IntTextModel": _text,
    "DropdownModel": _dropdown,
    "HTMLModel": _html,
    "HTMLMathModel": _html,
    "LabelModel": _label,
    "AnyModel": _anywidget,
}
"""How each kind of model is drawn without JavaScript (others are left out)."""


def static_html(model_id: str, state: State) -> str:
    """The model ``model_id`` (and its children) drawn as static HTML from the saved state."""
    model = state.get(model_id)
    if model is None:
        return ""
    draw = DRAW.get(model.get("model_name", ""))
    return draw(model, state) if draw else ""


def dealt_tables(notebook: dict[str, Any]) -> int:
    """Show each card table that ``notebook`` stored before its first deal as it is dealt
    (in place); return how many.

    A ``Table`` whose computer player cuts first (H3) waits for its page to ask for that move
    (``ai_delay``): a notebook run without a page (``make notebooks``) stores it before the
    deal, with empty hands, which a reader of the docs would see. Here the cell that made the
    table runs again (seeded: the same game) and the computer plays until it is the learner's
    turn, as the page does a second after it draws; the stored ``view`` traits become that
    moment's. Other tables are left as stored."""
    from rummykit import language
    from rummykit.widgets.table import Table

    state = notebook.get("metadata", {}).get("widgets", {}).get(STATE, {}).get("state", {})
    count = 0
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(VIEW)
            model = state.get(view["model_id"]) if view else None
            if model is None or not model["state"].get("_anywidget_id", "").endswith(".Table"):
                continue
            stored = model["state"]["view"]
            if stored.get("phase") != "cut" or stored.get("my_turn"):
                continue
            # a translated lesson's cell sets its language for the process: set back after
            spoken = (language._chosen, language._local)
            namespace: dict[str, Any] = {}
            try:
                exec(compile("".join(cell["source"]), "<a notebook cell>", "exec"), namespace)
                (table,) = [v for v in namespace.values() if isinstance(v, Table)]
                table.run_ai()
                fresh = table.get_state()
            finally:
                language.set_language(spoken[0], local_letters=spoken[1])
            model["state"].update({k: v for k, v in fresh.items() if k.startswith("view")})
            table.close()
            count += 1
    return count


def with_fallbacks(notebook: dict[str, Any]) -> int:
    """Give each widget output of ``notebook`` its static picture (in place); return how many."""
    state = notebook.get("metadata", {}).get("widgets", {}).get(STATE, {}).get("state", {})
    count = 0
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(VIEW)
            if view is None:
                continue
            picture = static_html(view["model_id"], state)
            script = json.dumps(view).replace("</", "<\\/")
            output["data"] = {
                "text/html": (
                    f'<div class="rk-static"><p class="rk-static-note">{html.escape(NOTE)}</p>'
                    f"{picture}</div>"
                    f'<script type="{VIEW}">{script}</script>'
                ),
            }
            count += 1
    return count
