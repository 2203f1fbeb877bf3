"""rummykit speaks English, Portuguese and Finnish: the catalogues hold every sentence with
the same placeholders, plurals follow each language's Plural-Forms, a verdict is rendered
again in any language from the same data, and the language is chosen by ``set_language``,
``--lang``, a widget's ``language=`` or the locale."""

from __future__ import annotations

import contextlib
import gettext
import io
import string
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import rummykit
from rummykit import language, pofiles
from rummykit.cards import Card, CardParseError, card_text, parse_card, parse_cards
from rummykit.cli import build_parser, main
from rummykit.language import UnknownLanguage, language_from_environment, set_language
from rummykit.melds import check_meld
from rummykit.messages import TEMPLATES, Text, TranslationWarning, _forms, render
from rummykit.variants import ROMMI

LANGUAGES = ("pt", "fi")
LOCALE = pofiles.LOCALE_DIR


@pytest.fixture(autouse=True, scope="module")
def compiled() -> Iterator[None]:
    """The .mo files of the source tree, made from the .po files as they are now (as
    ``make mo`` and the build hook do)."""
    pofiles.compile_all()
    for lang in LANGUAGES:
        language.register(lang, None)  # forget any catalogue read before compiling
    yield


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    set_language(None, local_letters=False)


def catalogue(lang: str) -> dict[str, pofiles.Entry]:
    path = LOCALE / lang / "LC_MESSAGES" / "rummykit.po"
    assert path.exists(), f"no {lang} catalogue at {path}"
    _, entries = pofiles.read_po(path)
    return {e.context: e for e in entries}


POT = {e.context: e for e in pofiles.pot_entries()}


# --- the catalogues -------------------------------------------------------------------------


def test_the_pot_is_the_templates_as_they_are_now() -> None:
    """`make pot` was run after the last change of an English template."""
    _, stored = pofiles.read_po(LOCALE / "rummykit.pot")
    assert [(e.context, e.msgid, e.plural) for e in stored] == [
        (e.context, e.msgid, e.plural) for e in POT.values()
    ]


def test_the_pot_holds_every_template_once_and_pairs_counts_as_plurals() -> None:
    codes = set()
    for entry in POT.values():
        if entry.plural is None:
            codes.add(entry.context)
            assert TEMPLATES[entry.context] == entry.msgid
        else:
            codes |= {f"{entry.context}_one", f"{entry.context}_other"}
            assert TEMPLATES[f"{entry.context}_one"] == entry.msgid
            assert TEMPLATES[f"{entry.context}_other"] == entry.plural
    assert codes == set(TEMPLATES)
    assert {"count_cards", "count_points", "count_files"} <= {
        e.context for e in POT.values() if e.plural
    }


def test_no_template_takes_a_parameter_named_language() -> None:
    """``render(..., language=...)`` is the language, never a template's parameter."""
    assert not [c for c, t in TEMPLATES.items() if "language" in pofiles.placeholders(t)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_is_translated_with_the_same_placeholders(lang: str) -> None:
    entries = catalogue(lang)
    missing = sorted(set(POT) - set(entries))
    assert not missing, f"{lang}: {len(missing)} codes missing, e.g. {missing[:5]}"
    untranslated = sorted(c for c in POT if not entries[c].translated)
    assert not untranslated, f"{lang}: untranslated or fuzzy: {untranslated[:10]}"
    wrong = []
    for code, source in POT.items():
        wanted = pofiles.placeholders(source.msgid) | pofiles.placeholders(source.plural or "")
        for text in entries[code].strings:
            for form in _forms(text).values():  # a form of a word: hertat||gen=herttojen
                got = pofiles.placeholders(form)
                if got != wanted:
                    wrong.append((code, sorted(wanted), sorted(got)))
    assert not wrong, f"{lang}: placeholders differ: {wrong[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_entries_with_grammar_forms_are_left_to_our_check_and_the_rest_to_msgfmt(
    lang: str,
) -> None:
    """``msgfmt -c`` (and Poedit) check ``python-brace-format`` entries; an entry using
    rummykit's grammar forms, which they don't know, is ``no-python-brace-format``."""
    entries = catalogue(lang)
    wrong = [
        code for code, entry in entries.items() if pofiles.format_flag(entry) not in entry.flags
    ]
    assert not wrong, f"{lang}: run make po-update; flags out of date: {wrong[:5]}"
    forms = [e for e in entries.values() if "no-python-brace-format" in e.flags]
    assert all(any(":" in t for t in e.strings) for e in forms)


def _sample(name: str, spec: str) -> object:
    """A value of the kind the code passes for a placeholder written ``{name:spec}`` in
    English: a count for a noun spec, a card for a card, a phrase otherwise."""
    if spec.isidentifier():
        return 2
    if "card" in name and not name.endswith("s"):
        return Card("Q♥")
    return render("suit_hearts", None, "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_translation_renders_without_falling_back_to_english(lang: str) -> None:
    failed = []
    for code, template in TEMPLATES.items():
        fields = [f for f in string.Formatter().parse(template) if f[1]]
        params = {name: _sample(name, spec or "") for _, name, spec, _ in fields}
        with warnings.catch_warnings():
            warnings.simplefilter("error", TranslationWarning)
            try:
                render(code, params, lang)
            except TranslationWarning as warning:
                failed.append(str(warning))
    assert not failed, f"{len(failed)} {lang} sentences don't fit: {failed[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plural_forms_header_is_the_languages(lang: str) -> None:
    head, _ = pofiles.read_po(LOCALE / lang / "LC_MESSAGES" / "rummykit.po")
    assert f"Plural-Forms: {pofiles.PLURAL_FORMS[lang]}" in head


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("base", ["count_cards", "count_points", "count_rounds"])
def test_plurals_take_the_catalogues_forms_for_one_and_for_many(lang: str, base: str) -> None:
    """1 takes msgstr[0] and 2, 3, 14 take msgstr[1]; 0 is singular in Brazilian Portuguese
    (plural=(n > 1)) and plural in Finnish (n != 1)."""
    one, many = catalogue(lang)[base].strings
    noun = base.removeprefix("count_")
    for n, form in [(1, one), (2, many), (3, many), (14, many)]:
        assert f"{n:d}" in form.format(n=n)
        assert format(_count(n, lang), noun) == form.format(n=n)
        if base == "count_cards":  # in a sentence: "Seat 2: 1 card."
            said = render("play_other", {"seat": 2, "count": n}, lang)
            assert said.count(form.format(n=n)) == 1
    zero = one if lang == "pt" else many
    assert format(_count(0, lang), noun) == zero.format(n=0)
    assert one.format(n=1) != many.format(n=2)


def _count(n: int, lang: str) -> object:
    from rummykit.messages import _value

    return _value(n, lang)


# --- the same verdict in three languages ----------------------------------------------------


def test_a_verdict_is_rendered_again_in_each_language_from_the_same_data() -> None:
    verdict = check_meld("K♠ A♠ 2♠")
    english = verdict.render("en")
    texts = {lang: verdict.render(lang) for lang in ("en", "pt", "fi")}
    assert texts["en"] == english == str(verdict)
    assert len(set(texts.values())) == 3
    for lang in LANGUAGES:
        reason = verdict.reasons[-1]
        template = catalogue(lang)[reason.code].strings[0]
        head = template.split("{", 1)[0] or template.rsplit("}", 1)[-1]
        assert head.strip() in texts[lang]
        assert "K♠ A♠ 2♠" in texts[lang] and "(H4)" in texts[lang]
    assert verdict.render("en") == english  # nothing in the verdict changed


def test_str_of_a_verdict_follows_the_language_set() -> None:
    verdict = check_meld("9♠ 9♥")
    set_language("pt")
    assert str(verdict) == verdict.render("pt") != verdict.render("en")
    set_language("fi")
    assert str(verdict) == verdict.render("fi")
    message = verdict.to_dict()["reasons"][-1]["message"]
    assert message == verdict.failures[0].message
    assert verdict.failures[0].render("fi") == f"{message} (H4)"


def test_a_text_keeps_its_code_and_data() -> None:
    text = render("play_other", {"seat": 2, "count": 3}, "en")
    assert isinstance(text, Text) and text == "Seat 2: 3 cards."
    assert text.code == "play_other" and dict(text.params) == {"seat": 2, "count": 3}
    assert text.render("pt") == render("play_other", {"seat": 2, "count": 3}, "pt")


def test_nested_phrases_are_rendered_in_the_outer_language() -> None:
    from rummykit.messages import _Phrase

    """A phrase built in English (the card, the joker's card) is said again in Finnish when
    the sentence holding it is."""
    set_language("en")
    verdict = check_meld("K♥ 🃏 2♥")
    finnish = verdict.render("fi")
    nested = 0
    for reason in verdict.reasons:
        said = pofiles.placeholders(TEMPLATES[reason.template or reason.code])
        for name, value in reason.params.items():
            if isinstance(value, Text) and name in said:
                # said in Finnish, in the form the sentence asks (a variant in its case)
                forms = {format(_Phrase(value, "fi"), f) for f in ("", "iness", "gen", "par")}
                assert any(form in finnish for form in forms), (forms, finnish)
                nested += 1
    assert nested


# --- choosing the language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "pt_BR.UTF-8"}, "pt"),
        ({"LANG": "fi_FI.UTF-8"}, "fi"),
        ({"LC_MESSAGES": "fi_FI", "LANG": "pt_BR"}, "fi"),
        ({"LC_ALL": "pt_PT", "LC_MESSAGES": "fi_FI", "LANG": "en_GB"}, "pt"),
        ({"LC_ALL": "C", "LANG": "fi_FI"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
        ({"LC_ALL": "", "LANG": "fi"}, "fi"),
    ],
)
def test_the_locale_gives_the_default_language(environ: dict[str, str], expected: str) -> None:
    assert language_from_environment(environ) == expected


def test_the_locale_decides_until_a_language_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in language.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    set_language(None)
    assert rummykit.get_language() == "fi"
    assert render("label_valid") == render("label_valid", None, "fi") != "✔ valid"
    rummykit.set_language("pt")
    assert rummykit.get_language() == "pt"
    set_language(None)
    monkeypatch.setenv("LC_ALL", "C")
    assert render("label_valid") == "✔ valid"


@pytest.mark.parametrize("bad", ["de", "english", "", "pt-XX-"])
def test_an_unknown_language_is_refused_naming_the_accepted_ones(bad: str) -> None:
    set_language("fi")
    if bad == "pt-XX-":
        set_language(bad)  # a region or an encoding after the language is fine
        assert rummykit.get_language() == "pt"
        return
    with pytest.raises(UnknownLanguage) as refused:
        set_language(bad)
    assert f"'{bad}'" in str(refused.value)
    for code in ("en", "pt", "fi"):
        assert code in str(refused.value)
    assert rummykit.get_language() == "fi"  # nothing changed
    with pytest.raises(UnknownLanguage):
        render("label_valid", None, bad)


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_command_line_speaks_the_language_given(lang: str) -> None:
    status, out, _ = _cli("check", "--lang", lang, "K♠ A♠ 2♠")
    verdict = check_meld("K♠ A♠ 2♠")
    assert status == 1
    assert out.splitlines()[1].strip() == verdict.failures[0].render(lang)
    assert out != _cli("check", "K♠ A♠ 2♠")[1]
    status, out, _ = _cli("check", f"--lang={lang}", "--variant", "rommi", "Q♥ K♥ A♥")
    assert status == 0 and out.strip() == check_meld("Q♥ K♥ A♥", ROMMI).render(lang)
    status, help_text, _ = _cli("check", "--help", "--lang", lang)
    assert status == 0 and render("cli_check_description", None, lang)[:30] in help_text
    assert rummykit.get_language() == "en"  # --lang is for that command only


def test_the_command_line_follows_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "pt_BR.UTF-8")
    set_language(None)
    _, out, _ = _cli("check", "9♠ 9♥")
    assert out.strip().endswith(check_meld("9♠ 9♥").failures[0].render("pt"))
    assert _cli("check", "--lang", "en", "9♠ 9♥")[1].strip().endswith("(H4)")


def test_an_unknown_lang_on_the_command_line_exits_2_naming_the_accepted_ones() -> None:
    status, out, err = _cli("check", "--lang", "klingon", "9♠ 9♥")
    assert status == 2 and out == ""
    assert "'klingon'" in err and "en, fi, pt" in err


# --- cards the local way --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "card"),
    [("Dh", "Q♥"), ("D♥", "Q♥"), ("Rs", "K♠"), ("r♠", "K♠"), ("Vd", "J♦"), ("Dd", "Q♦")],
)
def test_the_sources_rank_letters_are_read_in_every_language(typed: str, card: str) -> None:
    for lang in ("en", "pt", "fi"):
        set_language(lang)
        assert parse_card(typed) is Card(card)


def test_the_finnish_source_writes_q_k_a_as_d_r_a() -> None:
    assert parse_cards("D♥ R♥ A♥") == parse_cards("Q♥ K♥ A♥")
    assert check_meld("D♥ R♥ A♥", ROMMI).ok


def test_cards_are_written_in_english_letters_unless_asked() -> None:
    queen, jack, king = Card("Q♥"), Card("J♠"), Card("K♦")
    set_language("pt")
    assert [card_text(c) for c in (queen, jack, king)] == ["Q♥", "J♠", "K♦"]
    set_language("pt", local_letters=True)
    assert [card_text(c) for c in (queen, jack, king)] == ["D♥", "V♠", "R♦"]
    assert "D♥ R♥ A♥" in check_meld("Q♥ K♥ A♥").render("pt")
    set_language("fi", local_letters=True)
    assert [card_text(c) for c in (queen, jack, king)] == ["D♥", "J♠", "R♦"]
    assert str(queen) == "Q♥"  # the card itself (saved games, repr) keeps English letters
    status, out, _ = _cli("check", "--lang", "fi", "--local-letters", "Q♥ K♥ A♥", "-v", "rommi")
    assert status == 0 and "D♥ R♥ A♥" in out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_parse_error_is_in_the_language_and_names_the_local_letters(lang: str) -> None:
    set_language(lang)
    with pytest.raises(CardParseError) as refused:
        parse_card("1x")
    message = str(refused.value)
    assert "'1x'" in message and message == render("card_parse_error", {"token": "1x"}, lang)
    assert message != render("card_parse_error", {"token": "1x"}, "en")
    assert "D" in message and "R" in message


# --- the .po tools --------------------------------------------------------------------------


def test_a_po_file_reads_back_what_was_written() -> None:
    entries = [
        pofiles.Entry("a", 'Say "hi"\\ {name}\n  twice\ttabbed', strings=["Diga\n{name}"]),
        pofiles.Entry("count_x", "{n} x", "{n} xs", ["{n} ä", "{n} äs"], ["python-brace-format"]),
        pofiles.Entry("c", "C.", strings=["Cê."], flags=["fuzzy"], previous="Old C."),
    ]
    text = pofiles.write_po(entries, pofiles.header("pt"))
    head, back = pofiles.read_po_text(text)
    assert "nplurals=2; plural=(n > 1);" in head
    assert [(e.context, e.msgid, e.plural, e.strings, e.fuzzy, e.previous) for e in back] == [
        (e.context, e.msgid, e.plural, e.strings, e.fuzzy, e.previous) for e in entries
    ]


def test_po_update_keeps_translations_marks_changed_english_fuzzy_and_drops_removed(
    tmp_path: Path,
) -> None:
    old_pot = [pofiles.Entry("a", "A {x}."), pofiles.Entry("b", "B."), pofiles.Entry("gone", "G.")]
    (tmp_path / "rummykit.pot").write_text(pofiles.write_po(old_pot), "utf-8")
    po = pofiles.init("pt", tmp_path)
    head, entries = pofiles.read_po(po)
    for e in entries:
        e.strings = [f"PT {e.msgid}"]
    po.write_text(pofiles.write_po(entries, head), "utf-8")
    new_pot = [pofiles.Entry("a", "A {x}!"), pofiles.Entry("b", "B."), pofiles.Entry("new", "N.")]
    (tmp_path / "rummykit.pot").write_text(pofiles.write_po(new_pot), "utf-8")
    assert pofiles.update(tmp_path) == [po]
    _, merged = pofiles.read_po(po)
    got = {e.context: (e.strings, e.fuzzy, e.previous) for e in merged}
    assert got == {
        "a": (["PT A {x}."], True, "A {x}."),
        "b": (["PT B."], False, None),
        "new": ([""], False, None),
    }
    mo = pofiles.compile_all(tmp_path)[0]
    import gettext

    with mo.open("rb") as f:
        found = gettext.GNUTranslations(f)
    assert found.pgettext("b", "B.") == "PT B."
    assert found.pgettext("a", "A {x}!") == "A {x}!"  # fuzzy: English stands in
    assert found.pgettext("new", "N.") == "N."


def test_the_pseudo_locale_wraps_and_accents_every_template_keeping_placeholders() -> None:
    def fields(text: str) -> list[tuple[str | None, str | None, str | None]]:
        return [f[1:] for f in string.Formatter().parse(text) if f[1] is not None]

    for code, template in TEMPLATES.items():
        fake = pofiles.pseudo(template)
        assert fake.startswith("⟦") and fake.endswith("⟧"), code
        assert fields(fake) == fields(template), code
        words = "".join(literal for literal, *_ in string.Formatter().parse(template))
        assert not any(v in words for v in "aeiou") or fake != f"⟦{template}⟧", code


def test_exercises_read_the_answer_words_of_the_language() -> None:
    """A learner answers in their language (the catalogue's ``exercise_words_*``), or in
    English."""
    from rummykit.exercises import MeldKind

    words = {"exercise_words_run": "sequência|sequencia", "exercise_words_no": "não|nenhuma"}
    language.register("xx", _catalogue_of(words))
    try:
        set_language("xx")
        assert MeldKind("5♥ 6♥ 7♥").check("Sequência").correct
        assert MeldKind("5♥ 6♥ 7♥").check("run").correct
        assert MeldKind("5♥ 6♥ 8♥").check("nenhuma").correct
        assert not MeldKind("5♥ 6♥ 8♥").check("sequencia").correct
        set_language("en")
        with pytest.raises(ValueError, match="sequência"):
            MeldKind("5♥ 6♥ 7♥").check("sequência")
    finally:
        language.register("xx", None)


def _catalogue_of(translations: dict[str, str]) -> gettext.GNUTranslations:
    """A catalogue holding just these translations (by code), the rest English."""
    entries = [
        pofiles.Entry(e.context, e.msgid, e.plural, [translations[e.context]])
        for e in POT.values()
        if e.context in translations
    ]
    head = pofiles.header("fi").replace("Language: fi", "Language: xx")
    return gettext.GNUTranslations(io.BytesIO(pofiles.compile_mo(head, entries)))


def test_a_template_picks_a_word_by_the_gender_of_a_cards_rank() -> None:
    """Portuguese articles agree with the rank: o ás, o rei, a dama, o valete, o 7."""
    language.register(
        "xx",
        _catalogue_of(
            {
                "rank_gender": "A=m 2=m 3=m 4=m 5=m 6=m 7=m 8=m 9=m 10=m J=m Q=f K=m joker=m",
                "the_card": "{card:m=o|f=a} {card}",
            }
        ),
    )
    try:
        said = [render("the_card", {"card": Card(c)}, "xx") for c in ("A♥", "Q♥", "K♠", "7♦")]
        assert said == ["o A♥", "a Q♥", "o K♠", "o 7♦"]
        assert render("the_card", {"card": "Q♣"}, "xx") == "a Q♣"  # a card given as text
        assert render("the_card", {"card": Card("Q♣")}, "en") == "the Q♣"
    finally:
        language.register("xx", None)


def test_a_template_asks_a_phrase_for_one_of_its_forms() -> None:
    """Finnish cases: a translation holds forms after ||, a sentence asks for one by name."""
    language.register(
        "xx",
        _catalogue_of(
            {
                "suit_hearts": "hertat||gen=herttojen",
                "valid_run_open": "{cards} on {suit_name:gen} sarja.",
                "run_suits_mixed": "{cards}: {suit_names}.",
            }
        ),
    )
    try:
        said = check_meld("🃏 2♥ 3♥").render("xx")
        assert "🃏 2♥ 3♥ on herttojen sarja." in said
        assert render("suit_hearts", None, "xx") == "hertat"  # the first form is the default
    finally:
        language.register("xx", None)


def test_a_variant_names_itself_in_the_current_language() -> None:
    from rummykit.variants import HUNGARIAN

    titles = {}
    for lang in ("en", *LANGUAGES):
        with language.speaking(lang):
            titles[lang] = str(HUNGARIAN.derive(opening_threshold=40))
            assert titles[lang].startswith(render("variant_title_hungarian"))
    assert titles["en"].startswith("Hungarian Rummy") and len(set(titles.values())) == 3


@pytest.mark.parametrize(("lang", "mark"), [("en", "."), ("pt", ","), ("fi", ",")])
def test_numbers_with_decimals_take_the_language_s_mark(lang: str, mark: str) -> None:
    text = render("ai_term_inline", value=-37.25, text="x", language=lang)
    assert text.startswith(f"-37{mark}25 ")
    assert render("ai_term_inline", value=3, text="x", language=lang).startswith("3 ")


# --- cards said in local letters wherever a sentence names them (issue 19 leaks) ---------


def _local(cards: str, lang: str) -> str:
    return " ".join(card_text(c, lang, local=True) for c in parse_cards(cards))


@pytest.mark.parametrize("lang", ["pt", "fi"])
def test_events_name_their_cards_in_the_languages_letters(lang: str) -> None:
    from rummykit.game.facts import Event

    meld = Event(1, "meld", {"cards": ["Q♠", "Q♥", "Q♦"], "index": 0})
    layoff = Event(0, "layoff", {"cards": ["🃏"], "index": 0, "joker_as": ["K♥"]})
    discard = Event(2, "discard", {"card": "J♣"})
    taken = Event(0, "draw_discard", {"card": "K♠"})
    set_language(lang, local_letters=True)
    said = {
        _local("Q♠ Q♥ Q♦", lang): [str(meld), meld.words("widget_you_event_meld")],
        _local("K♥", lang): [str(layoff), layoff.words("widget_you_event_layoff_joker")],
        _local("J♣", lang): [str(discard), discard.words("widget_you_event_discard")],
        _local("K♠", lang): [str(taken), taken.words("widget_you_event_draw_discard")],
    }
    for cards, sentences in said.items():
        for sentence in sentences:
            assert cards in sentence, (cards, sentence)
            assert "Q♠" not in sentence and "K♥" not in sentence and "K♠" not in sentence
    assert "D♠ D♥ D♦" in str(meld)  # dama / daami
    # what is saved stays English, whatever the language: records read the same everywhere
    assert meld.to_dict()["params"]["cards"] == ["Q♠", "Q♥", "Q♦"]
    assert layoff.to_dict()["params"]["joker_as"] == ["K♥"]
    set_language(lang, local_letters=False)
    assert "Q♠ Q♥ Q♦" in str(meld)


def test_events_of_a_played_game_follow_the_letters_and_english_is_unchanged() -> None:
    from rummykit.ai import make_agent
    from rummykit.game import Game

    game = Game.new("hungarian", players=3, seed=4)
    agents = [make_agent("normal") for _ in range(3)]
    while not game.is_over and len(game.events) < 400:
        seat = game.current
        game.play(agents[seat].decide(game.observation(seat)).action, seat)
    codes = {e.code for e in game.events}
    assert {"meld", "discard"} <= codes
    english = [str(e) for e in game.events]
    set_language("en", local_letters=True)
    assert [str(e) for e in game.events] == english
    set_language("fi", local_letters=True)
    for event in game.events:
        for card in event.params.get("cards", ()) or [event.params.get("card")]:
            if card and card != "🃏":
                assert card_text(parse_card(card), "fi", local=True) in str(event)


@pytest.mark.parametrize("lang", ["pt", "fi"])
def test_a_wrapping_runs_shape_is_written_in_the_languages_letters(lang: str) -> None:
    set_language(lang, local_letters=True)
    said = str(check_meld("K♠ 🃏 2♠"))
    assert "R-A-2" in said and "K-A-2" not in said
    # its data reads as before (a notebook that shows the reason's repr stays the same)
    assert "'shape': 'K-A-2'" in repr(check_meld("K♠ 🃏 2♠").reasons[-1].params)
    set_language(lang, local_letters=False)
    assert "K-A-2" in str(check_meld("K♠ 🃏 2♠"))
    set_language("en", local_letters=True)
    assert "K-A-2 wraps around the ace" in str(check_meld("K♠ 🃏 2♠"))


@pytest.mark.parametrize("lang", ["pt", "fi"])
def test_the_opening_exercises_say_melds_in_the_languages_letters(lang: str) -> None:
    from rummykit.exercises import FindOpening, OpeningValue
    from rummykit.melds import make_meld

    set_language(lang, local_letters=True)
    prompt = OpeningValue([make_meld("Q♠ Q♥ Q♦"), make_meld("9♣ 10♣ J♣")]).prompt
    assert f"{_local('Q♠ Q♥ Q♦', lang)} + {_local('9♣ 10♣ J♣', lang)}" in prompt
    exercise = FindOpening("Q♠ Q♥ Q♦ K♠ K♥ K♦ 5♣ 9♥ 2♣ 4♦")
    wrong = exercise.check("Q♠ Q♥ Q♦")
    right = exercise.check("Qs Qh Qd + Ks Kh Kd")
    assert not wrong and right
    assert _local("Q♠ Q♥ Q♦", lang) in wrong.head and "Q♠" not in str(wrong)
    both = f"{_local('Q♠ Q♥ Q♦', lang)} + {_local('K♠ K♥ K♦', lang)}"
    assert both in right.head and "K♠" not in str(right)
    assert right.given == "Q♠ Q♥ Q♦ + K♠ K♥ K♦"  # the data stays English


def test_card_pictures_carry_the_languages_letters_when_asked() -> None:
    from rummykit.drawing import card_svg
    from rummykit.widgets.table import Table

    set_language("en", local_letters=True)
    english = card_svg(Card("Q♥"))
    assert ">Q<" in english
    set_language("en", local_letters=False)
    assert card_svg(Card("Q♥")) == english
    assert ">D<" not in Table(language="fi").deck["Q♥"]
    set_language("en", local_letters=True)  # English around it: the table speaks Finnish
    fi, pt = Table(language="fi").deck, Table(language="pt").deck
    assert ">D<" in fi["Q♥"] and ">R<" in fi["K♠"] and ">J<" in fi["J♦"]
    assert ">D<" in pt["Q♥"] and ">R<" in pt["K♠"] and ">V<" in pt["J♦"]
    assert "<title>Q♥</title>" in fi["Q♥"]  # the data behind the picture stays the same


# argparse's own errors, for a command line a learner gets wrong
BAD_COMMANDS = [
    ["check"],
    ["simulate", "--players", "two"],
    ["frob"],
    ["check", "--bogus", "K♠ A♠ 2♠"],
    ["simulate", "--players"],
]


def _last_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    return captured.err.strip().splitlines()[-1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_argparse_errors_are_said_in_the_language(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    required = _last_error(["check", "--lang", lang], capsys)
    assert required == render(
        "cli_arg_error",
        prog="rummykit check",
        message=render("cli_arg_required", names="CARDS", language=lang),
        language=lang,
    )
    for argv in BAD_COMMANDS:
        english = _last_error([*argv, "--lang", "en"], capsys)
        translated = _last_error([*argv, "--lang", lang], capsys)
        assert translated != english, translated
        assert translated.split(": ")[0] == english.split(": ")[0]  # the command, as typed
        head = render("cli_arg_error", prog="", message="", language=lang).strip(": ")
        assert head in translated


def test_argparse_errors_in_english_are_argparse_s_own(capsys: pytest.CaptureFixture[str]) -> None:
    said = [_last_error([*argv, "--lang", "en"], capsys) for argv in BAD_COMMANDS[:3]]
    assert said == [
        "rummykit check: error: the following arguments are required: CARDS",
        "rummykit simulate: error: argument --players/-p: invalid int value: 'two'",
        "rummykit: error: argument COMMAND: invalid choice: 'frob' (choose from "
        + ", ".join(repr(c) for c in build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
        + ")",
    ]


@pytest.mark.parametrize("lang", ["pt", "fi"])
def test_the_ai_s_scores_and_figures_take_the_language_s_decimal_mark(lang: str) -> None:
    """The agents write their figures as text (``+4.3``, ``15.3``): in Portuguese and
    Finnish every one of them, in the text and in the notebook table, has a comma."""
    import re

    from rummykit.ai import make_agent
    from rummykit.game import Game

    seen = 0
    for players in (2, 4):
        game = Game.new("rommi", players, seed=3)
        for _ in range(12):
            decision = make_agent("hard").decide(game.observation(game.current))
            with language.speaking(lang):
                text, html = str(decision.trace), decision.trace._repr_html_()
            assert not re.search(r"\d\.\d", text), text
            assert not re.search(r"\d\.\d", re.sub(r"<[^>]*>", " ", html)), html
            seen += len(re.findall(r"\d,\d", text))
            game.play(decision.action)
    assert seen > 20
