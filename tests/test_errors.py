"""Every error rummykit raises for bad input carries a code a program can switch on, the field
at fault where one applies, and its sentence in any language.

Each case below is bad input a learner or a program could give; the error must be a
:class:`RummykitError` whose code names its sentence, whose ``render(lang)`` is that sentence
in the language (the same code and parameters), and whose ``str`` is what it said when raised.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

import rummykit
from rummykit.ai import make_agent
from rummykit.errors import RummykitError
from rummykit.explain import CATALOGUE, VerdictError
from rummykit.game import Game
from rummykit.game.observation import Observation
from rummykit.game.record import RecordError, loads
from rummykit.language import speaking
from rummykit.messages import TEMPLATES, render

GOOD = json.loads(Game.new("rommi", players=2, seed=3).to_json())
DISCARD = rummykit.Discard(rummykit.parse_card("A♠")).to_dict()  # before drawing: refused


def _waiting_seat() -> Observation:
    """The observation of a seat whose turn it is not (it has no legal actions)."""
    game = Game.new("rommi", players=3, seed=4)
    return game.observation((game.current + 1) % 3)


def _tampered(**changes: object) -> str:
    return json.dumps({**GOOD, **changes})


CASES: dict[str, tuple[Callable[[], object], type[RummykitError], str, str | None]] = {
    # name: (what raises, its class, its code, its field)
    "card": (
        lambda: rummykit.parse_cards("7h 11x"),
        rummykit.CardParseError,
        "card_parse_error",
        None,
    ),
    "variant": (
        lambda: rummykit.variant("canasta"),
        rummykit.VariantError,
        "unknown_variant",
        None,
    ),
    "option": (
        lambda: rummykit.variant("rommi", jokers=4),
        rummykit.VariantError,
        "unknown_option",
        None,
    ),
    "action text": (
        lambda: rummykit.parse_action("fold"),
        rummykit.ActionParseError,
        "bad_action_text",
        None,
    ),
    "action card": (
        lambda: rummykit.parse_action("discard 11x"),
        rummykit.ActionParseError,
        "card_parse_error",
        None,
    ),
    "record json": (lambda: loads("{not json"), RecordError, "record_not_json", None),
    "record version": (
        lambda: loads(_tampered(version=99)),
        RecordError,
        "record_bad_version",
        None,
    ),
    "record field": (
        lambda: loads(_tampered(players="two")),
        RecordError,
        "record_bad_field",
        "players",
    ),
    "record action": (
        lambda: loads(_tampered(actions=[{"seat": 1, **DISCARD}])),
        RecordError,
        "record_illegal_action",
        "actions[0]",
    ),
    "dealer": (
        lambda: Game.new("rommi", players=2, dealer=5),
        RummykitError,
        "bad_dealer",
        "dealer",
    ),
    "seat": (
        lambda: Game.new("rommi", players=2, seed=1).observation(4),
        RummykitError,
        "bad_seat",
        "seat",
    ),
    "level": (lambda: make_agent("expert"), RummykitError, "unknown_level", "level"),
    "agent off turn": (
        lambda: make_agent("hard").decide(_waiting_seat()),
        RummykitError,
        "agent_not_its_turn",
        "obs",
    ),
    "meld": (lambda: rummykit.make_meld("K♠ A♠ 2♠"), rummykit.IllegalMeld, "run_wraps", None),
    "move": (
        lambda: Game.new("rommi", players=2, seed=7).play("discard 9s"),
        rummykit.IllegalAction,
        "draw_first",
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_error_carries_its_code_field_and_sentence(name: str) -> None:
    raises, kind, code, field = CASES[name]
    with pytest.raises(kind) as caught:
        raises()
    error = caught.value
    assert isinstance(error, RummykitError) and isinstance(error, ValueError)
    assert error.code == code
    assert error.field == field
    assert code in TEMPLATES or code in CATALOGUE
    assert str(error) == error.render("en")
    said = {lang: error.render(lang) for lang in ("en", "pt", "fi")}
    assert len(set(said.values())) == 3, said  # three languages, three sentences
    if not isinstance(error, VerdictError):  # the sentence of its code, with its parameters
        for lang, text in said.items():
            assert text == render(code, error.params, lang)


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_error_raised_in_a_language_is_said_in_it(name: str) -> None:
    raises, kind, _, _ = CASES[name]
    with speaking("fi"), pytest.raises(kind) as caught:
        raises()
    assert str(caught.value) == caught.value.render("fi") != caught.value.render("en")


def test_a_program_can_switch_on_the_code() -> None:
    def why(text: str) -> str:
        try:
            loads(text)
        except RecordError as error:
            return {"record_not_json": "broken file", "record_bad_version": "too new"}.get(
                error.code, "other"
            )
        return "loaded"

    assert why("{") == "broken file"
    assert why(_tampered(version=2)) == "too new"
    assert why(json.dumps(GOOD)) == "loaded"


def test_a_refused_saved_action_says_its_move_and_reasons_in_the_language() -> None:
    with pytest.raises(RecordError) as caught:
        loads(_tampered(actions=[{"seat": 1, **DISCARD}]))
    error = caught.value
    for lang in ("en", "pt", "fi"):
        text = error.render(lang)
        move = rummykit.Discard(rummykit.parse_card("A♠"))
        with speaking(lang):
            assert str(move) in text
            assert str(render("draw_first")) in text, (lang, text)


# errors that can't or needn't be said from a template, and why
NOT_SAID = {
    "rummykit.language.UnknownLanguage": "below the sentences; its message is a Text",
    "rummykit.pofiles.PoError": "the translators' tooling, about a .po file's syntax",
    "rummykit.agents.protocol._Refused": "inside the JSON decoder; raised again as ProtocolError",
    "rummykit.agents.forfeit.Forfeit": "a forfeit's own code and sentence, said in the results",
}


def test_every_error_class_of_rummykit_is_said() -> None:
    import importlib
    import inspect
    import pkgutil

    from rummykit.errors import Said

    found = {}
    for info in pkgutil.walk_packages(rummykit.__path__, "rummykit."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, Exception)
                and not issubclass(cls, Warning)
                and cls.__module__.startswith("rummykit.")
            ):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    assert len(found) >= 15
    unsaid = sorted(
        name for name, cls in found.items() if not issubclass(cls, Said) and name not in NOT_SAID
    )
    assert unsaid == []
    assert set(NOT_SAID) <= set(found)  # the list stays true
