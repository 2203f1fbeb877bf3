"""docs/actions.md shows real output: its examples run, and its turn diagram is there."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "actions.md"
_FENCE = re.compile(r"^```(\w+)\n(.*?)^```", flags=re.MULTILINE | re.DOTALL)


def _blocks(language: str) -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    return [body for lang, body in _FENCE.findall(text) if lang == language]


def test_actions_page_examples_print_what_the_page_says() -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {}  # the page is one session: names carry from block to block
    blocks = _blocks("python")
    assert len(blocks) >= 8
    for number, body in enumerate(blocks):
        test = parser.get_doctest(body, globs, f"actions.md[{number}]", str(PAGE), 0)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)
    assert runner.failures == 0, f"actions.md: {runner.failures} example(s) print something else"


def test_actions_page_has_the_turn_diagram_twice() -> None:
    (mermaid,) = _blocks("mermaid")
    assert mermaid.startswith("stateDiagram-v2\n")
    for phase in ("cut", "draw", "play", "over"):
        assert f"--> {phase}" in mermaid
    plain = "\n".join(_blocks("text"))
    for phase in ("cut", "draw", "play", "over"):
        assert phase in plain


def test_actions_page_names_every_action_and_turn_end_check() -> None:
    from rummykit.game import actions

    text = PAGE.read_text(encoding="utf-8")
    for name in actions.__all__:
        kind = getattr(actions, name)
        if (
            isinstance(kind, type)
            and issubclass(kind, actions.Action)
            and kind is not actions.Action
        ):
            assert f"`{name}(" in text, name
    for code in (
        "turn_opening_short",
        "discard_take_unplayed",
        "discard_take_not_in_opening",
        "joker_replay",
        "cut_card_must_go_out",
    ):
        assert f"`{code}`" in text, code
