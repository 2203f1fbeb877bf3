"""The pseudo-locale finds no English built in code.

``xx`` is made from the ``.pot`` at test time (no file in the repo): every template wrapped
in ⟦ ⟧ with its vowels accented. Run through the paths that produce messages — meld checks,
lay-offs and openings, the referee's refusals, statuses, events and results, the AI's traces
and hints, exercises and puzzles, the command line and the card table's words — no English
word may be left: an unaccented vowel in a word means a fragment that did not go through a
template.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
from collections.abc import Iterator

import pytest

from rummykit import language, pofiles
from rummykit.ai import make_agent
from rummykit.ai.hint import hint
from rummykit.cards import JOKER, SUITS, Card, make_deck
from rummykit.cli import main
from rummykit.exercises import KINDS, AnswerError, make_exercises
from rummykit.game import Game, IllegalAction, parse_action
from rummykit.melds import check_layoff, check_meld, check_opening
from rummykit.puzzles import KINDS as PUZZLE_KINDS
from rummykit.puzzles import make_puzzles
from rummykit.terminal import TerminalGame
from rummykit.variants import HUNGARIAN, ROMMI, Variant, variant

# an ASCII word holding a plain (unaccented) vowel: English that skipped the catalogue.
# Words of one letter are card ranks (A, J, Q, K); identifiers (ace_high, hand_sizes) are
# names the learner types, as are file names and the variant names on the command line.
_TOKEN = re.compile(r"[\w=./'-]+")
_VOWEL = re.compile(r"[aeiouyAEIOUY]")
NAMES = {"hungarian", "rommi", "easy", "normal", "hard", "Jk", "Ks", "As"}
NAMES |= set(Variant.option_names())  # house rules by name: ace_high, rounds, target
NAMES |= {"en", "pt", "fi", "xx", "rummykit"}  # language codes, the program
NAMES |= {"classroom", "check", "simulate", "play", "review", "agent", "league", "notebooks", "lab"}


def english_words(text: str) -> list[str]:
    """The words of ``text`` that were not translated into the pseudo-locale."""
    words = (t.strip("'.-") for t in _TOKEN.findall(str(text)))
    return [
        w for w in words if re.fullmatch(r"[A-Za-z]{2,}", w) and _VOWEL.search(w) and w not in NAMES
    ]


def test_the_detector_finds_english_and_passes_the_pseudo_locale() -> None:
    assert english_words("⟦Ýóú dréw 7♥ fróm thé stóck.⟧ (H7)") == []
    assert english_words("⟦Ýóú dréw the 7♥.⟧") == ["the"]
    assert english_words("A♥ K♠ 10♦ 🃏 ace_high=true") == []


@pytest.fixture(autouse=True)
def pseudo() -> Iterator[None]:
    language.register("xx", pofiles.pseudo_translations())
    language.set_language("xx")
    yield
    language.set_language(None)
    language.register("xx", None)


def assert_translated(text: object, where: str) -> None:
    found = english_words(str(text))
    assert not found, f"{where}: English {found} in {text}"
    assert "⟦" in str(text), f"{where}: nothing translated in {text!r}"


def _aria(html: str) -> list[str]:
    return re.findall(r'aria-label="([^"]*)"', html) + re.findall(r"<title>([^<]*)</title>", html)


VARIANTS: list[Variant] = [
    HUNGARIAN,
    ROMMI,
    HUNGARIAN.derive(jokers_per_meld=2, ace_above_king=False),
    ROMMI.derive(ace_low=True, ace_above_king=False),
    HUNGARIAN.derive(jokers_per_meld=0, opening_threshold=40),
]


def _near_meld(rng: random.Random, deck: list[Card]) -> list[Card]:
    """A random meld-like row: runs with a gap, a wrong suit or a joker; sets with a stranger."""
    n = rng.randint(0, 6)
    if rng.random() < 0.3:
        return rng.sample(deck, n)
    suit, low = rng.choice(SUITS), rng.randint(1, 12)
    if rng.random() < 0.5:
        cards = [Card(min(13, low + k + (k > 1 and rng.random() < 0.2)), suit) for k in range(n)]
    else:
        cards = [Card(low, rng.choice(SUITS)) for _ in range(n)]
    if cards and rng.random() < 0.4:
        cards[rng.randrange(len(cards))] = JOKER
    if cards and rng.random() < 0.3:
        cards[rng.randrange(len(cards))] = rng.choice(deck)
    return cards


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_meld_checks_layoffs_and_openings_speak_only_the_pseudo_locale(rules: Variant) -> None:
    rng = random.Random(19)
    deck = list(make_deck(2, 4))
    for _ in range(150):
        cards = _near_meld(rng, deck)
        verdict = check_meld(cards, rules)
        assert_translated(verdict, f"check_meld({cards})")
        for label in _aria(verdict._repr_html_()):
            assert not english_words(label), label
        base = _near_meld(rng, deck)
        if check_meld(base, rules):
            added = rng.sample(deck, rng.randint(0, 2))
            assert_translated(check_layoff(added, base, rules), f"check_layoff({added}, {base})")
    for _ in range(60):
        melds = [_near_meld(rng, deck) for _ in range(rng.randint(1, 3))]
        assert_translated(check_opening(melds, rules), f"check_opening({melds})")


BAD_MOVES = [
    "draw",
    "take discard",
    "take cut",
    "undo",
    "return cut",
    "discard 9s",
    "discard Jk",
    "meld 5h 6h 7h",
    "meld 2s 2h 2d",
    "meld Jk 2h 3h as 4h",
    "meld Ks As 2s",
    "lay off 7h onto 1",
    "lay off 9s onto 3",
    "lay off Jk onto 2",
    "exchange 6h from 1",
]


@pytest.mark.parametrize("name", ["hungarian", "rommi"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_referee_and_the_ai_speak_only_the_pseudo_locale(name: str, players: int) -> None:
    game = Game.new(name, players=players, seed=1900 + players)
    agents = [make_agent(level) for level in ("easy", "normal", "hard", "normal")[:players]]
    for _ in range(120):
        if game.is_over:
            break
        seat = game.current
        assert_translated(game.turn_status(), "turn status")
        for text in BAD_MOVES:
            verdict = game.check(parse_action(text))
            if not verdict.ok:
                assert_translated(verdict, f"refusal of {text!r}")
                with pytest.raises(IllegalAction) as refused:
                    game.play(parse_action(text))
                assert_translated(refused.value, f"IllegalAction of {text!r}")
        obs = game.observation(seat)
        decision = agents[seat].decide(obs)
        assert_translated(decision.trace, "AI trace")
        assert_translated(hint(obs), "hint")
        game.play(decision.action, seat)
    for event in game.events:
        assert_translated(event, "event")
    if game.result is not None:
        assert_translated(game.result, "round result")


ANSWERS: list[object] = ["run", "set", "no meld", "valid", "a", "b", "yes", "no", 0, 30, 51]


@pytest.mark.parametrize("rules", [HUNGARIAN, ROMMI], ids=str)
def test_exercises_and_puzzles_speak_only_the_pseudo_locale(rules: Variant) -> None:
    for exercise in make_exercises(19, count=2 * len(KINDS), variant=rules):
        assert_translated(exercise.prompt, f"{exercise.kind} prompt")
        assert_translated(exercise.key, f"{exercise.kind} answer key")
        assert_translated(exercise.accepts, f"{exercise.kind} accepts")
        for answer in ANSWERS:  # the answer words learners type are English for now
            try:
                feedback = exercise.check(answer)
            except AnswerError as error:
                said = str(error).replace(repr(answer), "").replace(str(answer), "")
                assert_translated(said, f"{exercise.kind} refusing {answer!r}")
            else:
                assert_translated(feedback, f"{exercise.kind} feedback on {answer!r}")
    kinds = PUZZLE_KINDS if rules.name == "hungarian" else ("discard", "layoff")
    for puzzle in make_puzzles(kinds, count=6, seed=19, variant=rules):
        assert_translated(puzzle.prompt, f"{puzzle.kind} puzzle prompt")
        assert_translated(puzzle.key, f"{puzzle.kind} puzzle key")
        feedback = puzzle.exercise.check(puzzle.solution)
        assert feedback.correct
        assert_translated(feedback, f"{puzzle.kind} puzzle feedback")


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def test_the_command_line_speaks_only_the_pseudo_locale() -> None:
    language.set_language("en")  # --lang decides, not the current language
    for cards in ("K♠ A♠ 2♠", "9♠ 9♥ 9♦", "5♥ 🃏 7♥", "9♠ 9♥", "Dh Rh Ah", "1x"):
        status, out, err = _run("check", "--lang", "xx", cards)
        assert status in (0, 1, 2)
        for line in (out + err).splitlines():
            assert_translated(line.replace("rummykit check:", ""), f"check {cards}")
    for command in ("check", "simulate", "play", "review", "notebooks", "lab", "classroom"):
        status, out, _ = _run(command, "--help", "--lang", "xx")
        assert status == 0
        lines = out.split("\n\n", 1)[1]  # after the usage lines (program and option names)
        for line in lines.splitlines():
            # an argument's own line starts with its names (--option, file): not sentences
            text = re.sub(r"^  \S.*?(\s{2,}|$)", "", line) if re.match(r"  \S", line) else line
            found = [w for w in english_words(text) if not w.isupper()]  # metavars: CARDS
            assert not found, f"rummykit {command} --help: {line}"


def test_a_game_in_the_terminal_speaks_only_the_pseudo_locale() -> None:
    typed = io.StringIO("hint\nshow\ndraw\nmeld 2s 3s\nhelp\ndiscard 9z\nquit\n")
    out = io.StringIO()
    TerminalGame(variant("hungarian"), 2, "easy", 5, stdin=typed, stdout=out).run()
    for line in out.getvalue().splitlines():
        if line.strip() and not re.fullmatch(r"[\s\w♠♥♦♣🃏·:—-]*", line.replace("⟦", "")):
            continue
        assert not english_words(line), line


def test_the_card_table_speaks_only_the_pseudo_locale() -> None:
    pytest.importorskip("anywidget")
    from rummykit.widgets.table import Table

    language.set_language("en")  # the table's own language decides
    table = Table("hungarian", 2, seed=3, ai_delay=0, language="xx")
    for key, label in table.labels.items():
        assert_translated(label, f"label {key}")
    table.handle({"type": "discard", "index": 0})
    refused = table.alert
    table.handle({"type": "select", "index": 0})
    table.handle({"type": "select", "index": 1})
    table.handle({"type": "meld"})
    assert refused
    assert_translated(refused, "the refusal of a discard before drawing")
    view = table.view
    texts = [view["status"], *view["why"].values(), *view["names"], table.alert]
    texts += [p["label"] for p in view["players"]] + [c["label"] for c in view["hand"]]
    for text in texts:
        if text:
            assert not english_words(text), text
    assert language.get_language() == "en"


def test_the_other_widgets_speak_their_own_language() -> None:
    pytest.importorskip("ipywidgets")
    from rummykit.widgets.checker import MeldChecker
    from rummykit.widgets.puzzle import PuzzleWidget

    language.set_language("en")
    checker = MeldChecker(cards="K♠ A♠ 2♠", language="xx")
    for label in _aria(checker._out.value):
        assert not english_words(label), label
    checker._text.value = "9♠ 9♥"  # typing redraws the verdict, still in the widget's language
    assert "⟦" in checker._out.value and "9♠ 9♥" in checker._out.value
    box = PuzzleWidget("discard", seed=4, language="xx")
    feedback = box.answer(box.puzzle.solution)
    assert feedback is not None and feedback.correct
    assert_translated(feedback, "puzzle widget feedback")
    assert language.get_language() == "en"
