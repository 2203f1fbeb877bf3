"""The exercise checkers: right answers accepted, wrong ones explained, garbage refused."""

from __future__ import annotations

import re

import pytest

from rummykit import HUNGARIAN, ROMMI, check_layoff, check_meld, check_opening, make_meld
from rummykit.cards import format_cards
from rummykit.exercises import (
    KINDS,
    AnswerError,
    BestDiscard,
    DeadwoodValue,
    Exercise,
    FindOpening,
    FreeJoker,
    GoOut,
    LayoffTarget,
    MatchWinner,
    MeldKind,
    MeldReason,
    OpeningValue,
    Quiz,
    RoundScore,
    Tally,
    TurnCanEnd,
    Worksheet,
    make_exercises,
)
from rummykit.explain import CATALOGUE
from rummykit.solver import min_deadwood

SEEDS = range(12)
VARIANTS = [HUNGARIAN, ROMMI]


def _no_bare_code(text: str) -> None:
    """A learner reads sentences, never a reason code."""
    for code in (c for c in CATALOGUE if "_" in c):
        assert not re.search(rf"\b{code}\b", text), (code, text)


def _right_and_wrong(exercise: Exercise) -> tuple[object, object | None]:
    """A right answer and a wrong one, worked out from the engine, not from the checker."""
    v = exercise.variant
    if isinstance(exercise, MeldKind):
        kind = check_meld(exercise.cards, v).kind
        return (kind or "no meld"), ("set" if kind == "run" else "run")
    if isinstance(exercise, MeldReason):
        verdict = check_meld(exercise.cards, v)
        if verdict.ok:
            wrong = next(c for c in exercise.offered if c != "valid")
            return "valid", wrong
        return verdict.codes[0], "valid"
    if isinstance(exercise, OpeningValue):
        total = check_opening(exercise.melds, v).points
        return total, (total or 0) + 1
    if isinstance(exercise, LayoffTarget):
        fits = [i for i, m in enumerate(exercise.table) if check_layoff(m, exercise.cards, v).ok]
        others = [i for i in range(len(exercise.table)) if i not in fits]
        if not fits:  # meld numbers from 1, as people say them
            return "none", 1
        return fits[0] + 1, (others[0] + 1 if others else "none")
    if isinstance(exercise, RoundScore):
        points = exercise.result.points[exercise.seat]
        return points, points + 3
    if isinstance(exercise, MatchWinner):
        totals = [sum(r[s] for r in exercise.rounds) for s in range(len(exercise.rounds[0]))]
        best = min(totals) if v.low_score_wins else max(totals)
        seat = totals.index(best)
        losers = [s for s, t in enumerate(totals) if t != best]
        return seat, (losers[0] if losers else None)
    if isinstance(exercise, DeadwoodValue):
        value = min_deadwood(exercise.hand, v)
        return value, value + 1
    if isinstance(exercise, TurnCanEnd):
        can = exercise.game.turn_status().can_end_turn
        return ("yes", "no") if can else ("no", "yes")
    raise AssertionError(exercise)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("seed", SEEDS)
def test_generated_exercises_accept_the_right_answer_and_explain_a_wrong_one(variant, seed):
    for exercise in make_exercises(seed, len(KINDS), variant=variant):
        right, wrong = _right_and_wrong(exercise)
        feedback = exercise.check(right)
        assert feedback.correct, (exercise, right, str(feedback))
        assert str(feedback).startswith("✔")
        _no_bare_code(str(feedback))
        assert exercise.explanation and all(exercise.explanation)
        _no_bare_code(exercise.key)
        if wrong is None:
            continue
        feedback = exercise.check(wrong)
        assert not feedback.correct, (exercise, wrong, str(feedback))
        text = str(feedback)
        assert text.startswith("✘ You said"), text
        assert len(feedback.lines) >= 1  # the explanation, not a bare "wrong"
        _no_bare_code(text)


@pytest.mark.parametrize("seed", range(4))
def test_exercises_are_seeded_and_print_the_same(seed):
    first, again = make_exercises(seed, 14), make_exercises(seed, 14)
    assert [repr(e) for e in first] == [repr(e) for e in again]
    for e in first:
        assert "0x" not in repr(e)
        html = e._repr_html_()
        assert e.prompt.split()[0] in html or "aria-label" in html


GARBAGE = ["", "   ", "maybe", None, 3.5, True, ["x"], "K♠♠", "🃏🃏"]


def _garbage_examples() -> list[Exercise]:
    return [
        MeldKind("K♠ A♠ 2♠"),
        MeldReason("5♥ 6♥ 8♥"),
        OpeningValue(["7♥ 8♥ 9♥", "Q♠ Q♦ Q♣"]),
        LayoffTarget("7♥", ["4♥ 5♥ 6♥", "9♠ 9♥ 9♦"]),
        RoundScore(["5♣", "K♠ 7♥"]),
        MatchWinner([(10, -10), (5, 20)]),
        TurnCanEnd.after("7♥ 8♥ 9♥ 2♣", moves=["meld 7h 8h 9h"], turns=2),
        BestDiscard("7♥ 8♥ 9♥ K♣"),
        DeadwoodValue("7♥ 8♥ 9♥ K♣"),
        GoOut("7♥ 8♥ 9♥ K♣"),
        FindOpening("7♥ 8♥ 9♥ Q♠ Q♦ Q♣ 2♣"),
        FreeJoker("6♥ 2♣", ["5♥ 🃏 7♥"]),
    ]


@pytest.mark.parametrize("exercise", _garbage_examples(), ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("answer", GARBAGE, ids=repr)
def test_garbage_answers_raise_an_error_naming_what_is_accepted(exercise, answer):
    with pytest.raises(AnswerError) as error:
        exercise.check(answer)
    message = str(error.value)
    blank = answer is None or (isinstance(answer, str) and not answer.strip())
    lead = "No answer yet: answer " if blank else "is not an answer here: answer "
    assert lead in message
    assert exercise.accepts in message
    assert "\n" not in message
    assert error.value._render_traceback_() == [message]  # all IPython shows: one line


def test_a_bool_is_never_read_as_a_number():
    for exercise in (OpeningValue(["7♥ 8♥ 9♥"]), RoundScore(["5♣", "K♠"]), MatchWinner([(1, 2)])):
        with pytest.raises(AnswerError):
            exercise.check(True)


def test_out_of_range_answers_are_refused():
    with pytest.raises(AnswerError, match="from 0 to 1"):
        MatchWinner([(10, -10)]).check(2)
    with pytest.raises(AnswerError, match="from 1 to 2"):
        LayoffTarget("7♥", ["4♥ 5♥ 6♥", "9♠ 9♥ 9♦"]).check("meld 5")
    with pytest.raises(AnswerError, match="from 1 to 2"):
        LayoffTarget("7♥", ["4♥ 5♥ 6♥", "9♠ 9♥ 9♦"]).check(0)
    with pytest.raises(AnswerError, match="one card of the hand: 7♥ 8♥ 9♥ K♣"):
        BestDiscard("7♥ 8♥ 9♥ K♣").check("Q♣")
    with pytest.raises(AnswerError, match="the letter of a sentence: a, b"):
        MeldReason("5♥ 6♥ 8♥").check("z")


def test_meld_kind_wrong_answer_names_what_the_cards_are():
    feedback = MeldKind("9♠ 9♥ 9♦").check("run")
    assert not feedback
    assert feedback.head == "You said a run, but 9♠ 9♥ 9♦ is a set."
    assert any("is a set of 9s" in line for line in feedback.lines)
    assert MeldKind("9♠ 9♥ 9♦").check("group")  # Rommi's word for a set
    assert MeldKind("A♥ 2♥ 3♥", ROMMI).check("no")
    assert not MeldKind("A♥ 2♥ 3♥", HUNGARIAN).check("no")


def test_meld_reason_by_letter_code_or_word():
    exercise = MeldReason("K♠ A♠ 2♠", offered=["valid", "run_wraps", "run_gap"])
    assert exercise.check("b") and exercise.check("run_wraps") and exercise.check("2")
    feedback = exercise.check("c")
    assert not feedback
    assert "wraps around the ace" in str(feedback)
    assert "the run skips a card" in feedback.head
    assert not exercise.check("valid")
    with pytest.raises(ValueError, match="not a reason code"):
        MeldReason("K♠ A♠ 2♠", offered=["valid", "nonsense"])


@pytest.mark.parametrize(
    ("melds", "slip", "phrase"),
    [
        (["A♥ 2♥ 3♥", "Q♠ Q♦ Q♣"], 36, "counted the ace as 1"),
        (["Q♥ K♥ A♥", "5♠ 5♦ 5♣"], 36, "counted the ace as 1"),
        (["5♥ 🃏 7♥", "K♠ K♦ K♣"], 62, "counted the joker as 20"),
        (["5♥ 🃏 7♥", "K♠ K♦ K♣"], 42, "counted the joker as 0"),
        (["J♥ Q♥ K♥", "5♠ 5♦ 5♣"], 51, "J, Q and K as 11, 12 and 13"),
        (["J♥ Q♥ K♥", "5♠ 5♦ 5♣"], 30, "you left out 5♠ 5♦ 5♣, worth 15"),
    ],
)
def test_opening_value_names_the_slip(melds, slip, phrase):
    feedback = OpeningValue(melds).check(slip)
    assert not feedback
    assert phrase in feedback.head, feedback.head
    assert feedback.head.startswith(f"You said {slip}, but")
    total = check_opening(melds).points
    assert OpeningValue(melds).check(f"{total} points")
    assert any(f"total {total}" in line for line in feedback.lines)


def test_opening_value_refuses_a_variant_without_opening():
    with pytest.raises(ValueError, match="no opening threshold"):
        OpeningValue(["7♥ 8♥ 9♥"], ROMMI)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_score_every_table_size(players):
    hands = ["5♣", "K♠ 7♥ 🃏", "2♦ 3♦", "A♠ A♥"][:players]
    opened = [True, True, False, True][:players]
    for seat in range(players):
        exercise = RoundScore(hands, seat=seat, opened=opened)
        result = exercise.result
        assert exercise.check(result.points[seat])
        assert result.points[0] == HUNGARIAN.go_out_points
    if players >= 3:
        unopened = RoundScore(hands, seat=2, opened=opened)
        feedback = unopened.check(5)  # 2 + 3: the hand counted instead of the flat 100
        assert "flat 100" in feedback.head
    joker = RoundScore(hands, seat=1, opened=opened).check(17)
    assert "a joker left in hand costs 20" in joker.head


def test_round_score_going_out_with_an_opening_in_the_same_turn_scores_minus_20():
    exercise = RoundScore(
        ["7♥ 8♥ 9♥ 10♠ 10♦ 10♣ J♣ Q♣ K♣ 2♦", "K♠"],
        winner=0,
        seat=0,
        opened=[False, True],
        lays_down=["7♥ 8♥ 9♥", "10♠ 10♦ 10♣", "J♣ Q♣ K♣"],
    )
    assert exercise.points == HUNGARIAN.go_out_hand_points
    feedback = exercise.check(-10)
    assert "doubles" not in feedback.head and "same turn" in feedback.head


def test_rommi_round_score_the_winner_takes_the_other_hands():
    exercise = RoundScore(["9♣", "A♠ K♦", "5♥"], variant=ROMMI)
    assert exercise.seat == 0
    assert exercise.check(1 + 10 + 5)
    feedback = exercise.check(11 + 10 + 5)
    assert "an ace left in hand counts 1" in feedback.head


def test_match_winner_low_and_high():
    assert MatchWinner([(10, -10), (5, 30)]).check("seat 0")
    feedback = MatchWinner([(10, -10), (5, 21)]).check(0)
    assert "the lowest total wins, not the highest (H14)" in feedback.head
    assert MatchWinner([(0, 40), (30, 0)], ROMMI).check(1)
    assert "highest total wins, not the lowest (R9)" in MatchWinner([(0, 40)], ROMMI).check(0).head
    shared = MatchWinner([(10, -10), (-10, 10)])
    assert shared.check(0) and shared.check(1)


def test_turn_can_end_explains_with_the_referees_obligations():
    short = TurnCanEnd.after(
        "3♣ 4♣ 5♣ 8♦ 8♠ 8♥ 2♥", moves=["meld 3c 4c 5c", "meld 8d 8s 8h"], turns=2
    )
    feedback = short.check("yes")
    assert not feedback
    assert "opening needs 51 — 15 more" in str(feedback)
    assert short.check("no")
    fine = TurnCanEnd.after("7♥ 8♥ 9♥ 2♣", moves=["meld 7h 8h 9h"], opened=True, turns=2)
    assert fine.check("y") and not fine.check("no")
    with pytest.raises(ValueError, match="play phase"):
        from rummykit.game import Game

        TurnCanEnd(Game.new("rommi", players=2, seed=1))


def test_best_discard_agrees_with_the_solver_card_by_card():
    exercise = BestDiscard("7♥ 8♥ 9♥ 9♠ 9♦ K♣ 2♣")
    rest = {
        c: min_deadwood([d for d in exercise.hand if d is not c], HUNGARIAN) for c in exercise.hand
    }
    least = min(rest.values())
    for card, dead in rest.items():
        assert exercise.check(str(card)).correct == (dead == least)
    assert exercise.check("discard K♣")


def test_go_out_find_opening_and_free_joker():
    go = GoOut("7♥ 8♥ 9♥ 5♠ K♦", ["2♠ 3♠ 4♠"])
    assert go.check("K♦") and not go.check("no") and not go.check("5♠")
    assert GoOut("7♥ 8♥ 9♥ 5♠ K♦").check("no")
    opening = FindOpening("7♥ 8♥ 9♥ 10♥ Q♠ Q♦ Q♣ 3♣ 4♣")
    assert opening.check("7h 8h 9h 10h + Qs Qd Qc")
    assert opening.check(["Q♠ Q♦ Q♣", "7♥ 8♥ 9♥ 10♥"])
    assert "don't hold" in opening.check("7h 8h 9h 10h + Ks Kd Kc").head
    assert "is not a meld" in opening.check("7h 8h 10h + Qs Qd Qc").head
    assert "doesn't open" in opening.check("Qs Qd Qc").head
    assert "the best opening is worth 64" in opening.check("7h 8h 9h + Qs Qd Qc").head
    joker = FreeJoker("6♥ 8♣ 2♦", ["5♥ 🃏 7♥", "8♠ 8♦ 🃏"])
    assert joker.check("6h from 1") and joker.check(("6♥", 1)) and joker.check("exchange 6h from 1")
    refused = joker.check("8c from 2")
    assert not refused and "until all four suits are on the table" in str(refused)
    assert not joker.check("none")


def test_quiz_keeps_each_students_tally():
    quiz = Quiz(make_exercises(5, 4), "Quiz")
    assert quiz.tally("Ana") == Tally(0, 0)
    right, _ = _right_and_wrong(quiz.exercise(1))
    quiz.check(1, right, student="Ana")
    _, wrong = _right_and_wrong(quiz.exercise(2))
    quiz.check(2, wrong, student="Ana")
    quiz.check(1, right, student="Ben")
    assert quiz.tally("Ana") == Tally(1, 2) and quiz.tally("Ben") == Tally(1, 1)
    with pytest.raises(AnswerError):
        quiz.check(1, "???", student="Ana")
    assert quiz.tally("Ana") == Tally(1, 2)  # an unreadable answer is not counted
    with pytest.raises(AnswerError, match="no exercise 9: this quiz has 4"):
        quiz.check(9, "x")
    assert "Ana" in repr(quiz) and "Ana" in quiz._repr_html_()


def test_worksheet_prints_one_block_per_item_and_the_key_in_sentences(tmp_path):
    items = make_exercises(8, 7)
    sheet = Worksheet(items, "Lesson 1")
    html = sheet.html()
    assert html.count('class="rk-block"') == len(items)
    assert html.count("<li>Answer:") == len(items)
    key = html[html.index('class="rk-key"') :]
    _no_bare_code(key)
    css = Worksheet.style()
    assert "@media print" in css and "break-before: page" in css and "break-inside: avoid" in css
    assert "fill: #000" in css  # cards in black and white
    path = sheet.save(tmp_path / "sheet.html")
    assert path.read_text(encoding="utf-8") == html
    assert repr(sheet) == "Worksheet('Lesson 1', items=7)"


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="not a kind of exercise"):
        make_exercises(1, 3, kinds=["poker"])


def test_meld_and_layoff_exercises_take_melds_and_refuse_bad_tables():
    with pytest.raises(ValueError):
        LayoffTarget("7♥", [])
    with pytest.raises(ValueError):
        OpeningValue(["K♠ A♠ 2♠"])
    table = [make_meld("4♥ 5♥ 6♥")]
    assert LayoffTarget("7♥", table).check(1)
    assert format_cards(LayoffTarget("7♥", table).cards) == "7♥"


def test_deadwood_value_names_the_slip():
    exercise = DeadwoodValue("A♠ 7♥ 8♥ 9♥ K♣")
    assert exercise.check(20)  # the ace (10) and the king (10); the run is no deadwood
    assert "an ace left in hand counts 10" in exercise.check(11).head
    assert "counted every card" in exercise.check(44).head
    rommi = DeadwoodValue("A♠ 7♥ 8♥ 9♥ K♣", ROMMI)
    assert rommi.check(11) and "counts 1" in rommi.check(21).head
