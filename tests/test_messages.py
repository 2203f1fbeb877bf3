"""Every sentence template is well formed, and numbers come with the right noun."""

from __future__ import annotations

import string

import pytest

from rummykit.messages import TEMPLATES, render


def fields(template: str) -> list[tuple[str, str]]:
    """The (name, format spec) of every placeholder of a template."""
    return [(name, spec) for _, name, spec, _ in string.Formatter().parse(template) if name]


COUNTED = sorted(
    (code, name, spec)
    for code, template in TEMPLATES.items()
    for name, spec in fields(template)
    if spec.isidentifier()
)


def test_some_templates_count_things() -> None:
    assert {spec for _, _, spec in COUNTED} >= {"cards", "points"}


@pytest.mark.parametrize(("code", "name", "spec"), COUNTED)
def test_a_counted_number_is_singular_for_one_and_plural_otherwise(
    code: str, name: str, spec: str
) -> None:
    one = TEMPLATES[f"count_{spec}_one"].format(n=1)
    many = TEMPLATES[f"count_{spec}_other"].format(n=2)
    # the other counted numbers of the sentence (a stock and a pile, say): a number, not 1
    params = {f: 5 if s.isidentifier() else "x" for f, s in fields(TEMPLATES[code])}
    assert one in render(code, {**params, name: 1})
    assert many in render(code, {**params, name: 2})
    assert render(code, {**params, name: 1}) != render(code, {**params, name: 2})


def test_counted_words() -> None:
    assert render("widget_opponent_label", name="Seat 2", count=1) == "Seat 2: 1 card"
    assert render("widget_opponent_label", name="Seat 2", count=0) == "Seat 2: 0 cards"
    assert render("ai_note_value", value=1) == "1 point of deadwood"
    assert render("ai_note_value", value=10) == "10 points of deadwood"
