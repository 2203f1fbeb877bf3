"""What a class types into the checks: every answer read or refused in one line, never a
traceback; answers with punctuation, dashes and several right answers read; and each
misleading piece of feedback a class met (issue 27), on its exact input."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit import ROMMI, check_layoff, variant
from rummykit.exercises import (
    KINDS,
    AgentCheck,
    AnswerError,
    BestDiscard,
    DeadwoodValue,
    Exercise,
    Feedback,
    FindOpening,
    FreeJoker,
    GoOut,
    LayoffTarget,
    MatchWinner,
    MeldKind,
    MeldReason,
    OpeningValue,
    PredictMove,
    Quiz,
    RoundScore,
    TurnCanEnd,
    WhatHappens,
    Worksheet,
    kinds_for,
    make_exercises,
)
from rummykit.explain import CATALOGUE
from rummykit.game import Game, parse_action
from rummykit.puzzles import make_puzzle

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def rommi_position(hand: str, discard: str, table=(), phase: str = "play") -> Game:
    """Notebook 05's positions: seat 0 to play in Rommi, on its fourth turn."""
    return Game.from_position(
        "rommi",
        hands=[hand, "3♠ 4♠ 8♦ J♥ 10♦ 6♣ 2♦"],
        discard=discard,
        table=list(table),
        current=0,
        phase=phase,
        turns=[3, 3],
    )


AFTER_DRAW = rommi_position("5♥ 6♥ 7♥ 9♣ K♠ K♦ 2♣ Q♣", discard="8♥ 10♣")
LATER = rommi_position("9♣ K♠ K♦ 2♣ Q♣ 3♥ J♦", discard="8♥", table=[(0, "5♥ 6♥ 7♥")])


def one_line(error: AnswerError) -> str:
    message = str(error)
    assert "\n" not in message and message
    assert error._render_traceback_() == [message]  # all IPython shows of it
    return message


# --- every kind, any text: a feedback or one line, nothing else ---------------------------------


def _every_kind() -> list[Exercise]:
    later = rommi_position("9♣ K♠ K♦ 2♣ Q♣ 3♥ J♦", discard="8♥", table=[(0, "5♥ 6♥ 7♥")])
    return [
        MeldKind("K♠ A♠ 2♠"),
        MeldReason("5♥ 6♥ 8♥"),
        OpeningValue(["7♥ 8♥ 9♥", "Q♠ Q♦ Q♣"]),
        LayoffTarget("A♠", ["J♠ Q♠ K♠", "A♥ A♦ A♣", "2♠ 3♠ 4♠"]),
        RoundScore(["5♣", "K♠ 7♥ 🃏", "2♦ 3♦ A♣"], winner=0, seat=2, opened=[True, True, False]),
        MatchWinner([(0, 35), (42, 0), (0, 30), (61, 0)], ROMMI),
        TurnCanEnd.after("7♥ 8♥ 9♥ 2♣", moves=["meld 7h 8h 9h"], turns=2),
        BestDiscard("7♥ 8♥ 9♥ K♣"),
        DeadwoodValue("7♥ 8♥ 9♥ K♣"),
        GoOut("3♦ 4♦ 5♦ 8♣ 8♥ 8♠ Q♥ 2♣", table=["9♥ 10♥ J♥"]),
        FindOpening("A♠ 2♠ 3♠ K♥ K♦ K♣ 5♦ 6♦ 7♦ 9♣"),
        FreeJoker("6♥ 8♣ 2♦", table=["5♥ 🃏 7♥", "8♠ 8♦ 🃏"]),
        PredictMove("easy", later),
        WhatHappens(later, "discard K♠"),
        AgentCheck("rommi", rounds=1),
        make_puzzle("joker", seed=1, grade=3).exercise,
    ]


EVERY_KIND = _every_kind()
ANSWERS = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="0123456789+-−–—., ♠♥♦♣🃏AKQJakqjshdcnoyesmldrt&", max_size=24),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True),
    st.none(),
    st.booleans(),
    st.lists(st.text(max_size=5), max_size=3),
    st.tuples(st.text(max_size=4), st.integers()),
)


@pytest.mark.parametrize("exercise", EVERY_KIND, ids=lambda e: type(e).__name__)
@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=60)
@given(answer=ANSWERS)
def test_any_answer_is_a_feedback_or_one_line_never_another_error(exercise, answer):
    try:
        feedback = exercise.check(answer)
    except AnswerError as error:
        one_line(error)
    else:
        assert isinstance(feedback, Feedback)
        assert str(feedback).startswith(("✔", "✘"))


def test_the_quiz_widget_shows_one_line_and_leaves_no_old_feedback_on_screen():
    from rummykit.widgets import QuizWidget

    box = QuizWidget(Quiz([OpeningValue(["A♥ 2♥ 3♥", "Q♠ Q♦ Q♣"])]), student="Ana")
    assert box.answer("45").correct
    assert "Right" in box._feedback.value
    for typed in ("x45", "=45", "—2—0", "45 apples"):
        assert box.answer(typed) is None  # no exception escapes the widget
        assert "is not an answer here" in box._feedback.value
        assert "Right" not in box._feedback.value  # the earlier feedback is gone
    assert str(box.quiz.tally("Ana")) == "1 right out of 1"


# --- answers as a class types them ---------------------------------------------------------------


@pytest.mark.parametrize("typed", ["x45", "=45", "45 apples", "4 5", "٤٥٤٥٤٥٤٥"])
def test_a_stray_character_before_a_number_is_one_line(typed):
    with pytest.raises(AnswerError) as error:
        OpeningValue(["A♥ 2♥ 3♥", "Q♠ Q♦ Q♣"]).check(typed)
    assert one_line(error.value).startswith(f"'{typed}' is not an answer here")


GOING_OUT = RoundScore(
    ["10♠ 10♦ 10♣ J♣ Q♣ K♣ 7♥ 8♥ 9♥ 2♠", "K♠ A♥ 4♦"],
    winner=0,
    seat=0,
    opened=[False, True],
    lays_down=["10♠ 10♦ 10♣", "J♣ Q♣ K♣", "7♥ 8♥ 9♥"],
)


@pytest.mark.parametrize("typed", ["-20", "– 20", "—20", "−20", "-20.", " -20 points ", "'-20'"])
def test_dashes_and_punctuation_around_a_number_are_read(typed):
    assert GOING_OUT.check(typed).correct
    assert GOING_OUT.check(typed).given == "-20"


@pytest.mark.parametrize(
    ("exercise", "typed"),
    [
        (MeldKind("9♠ 🃏 9♥"), "Set."),
        (MeldKind("9♠ 🃏 9♥"), "it's a set!"),
        (MeldKind("K♠ A♠ 2♠"), "No."),
        (MeldKind("K♠ A♠ 2♠"), "NO MELD"),
        (TurnCanEnd.after("7♥ 8♥ 9♥ 2♣ 5♠", draw="discard", discard="9♠ K♦", turns=0), "Yes."),
        (GoOut("3♦ 4♦ 5♦ 8♣ 8♥ 8♠ Q♥ 2♣", table=["9♥ 10♥ J♥"]), "yes, 2c"),
        (GoOut("3♦ 4♦ 5♦ 8♣ 8♥ 8♠ Q♥ 2♣", table=["9♥ 10♥ J♥"]), "Yes, discarding 2♣."),
        (MeldReason("5♥ 6♥ 8♥"), "C."),
        (MatchWinner([(0, 35), (42, 0), (0, 30), (61, 0)], ROMMI), "Seat 0."),
    ],
)
def test_right_answers_with_punctuation_and_case_are_right(exercise, typed):
    assert exercise.check(typed).correct, str(exercise.check(typed))


def test_a_blank_answer_says_no_answer_yet_in_the_lesson_language():
    from rummykit.language import speaking

    with pytest.raises(AnswerError, match=r"^No answer yet: answer run, set or no meld\.$"):
        MeldKind("K♠ A♠ 2♠").check("")
    with speaking("fi"), pytest.raises(AnswerError) as error:
        MeldKind("K♠ A♠ 2♠").check("  ")
    assert one_line(error.value).startswith("Ei vielä vastausta")


# --- several right answers: all accepted, the others named ------------------------------------------


def test_H4_the_ace_of_02_exercise_4_fits_all_three_melds_and_every_one_is_right():
    exercise = LayoffTarget("A♠", ["J♠ Q♠ K♠", "A♥ A♦ A♣", "2♠ 3♠ 4♠"])
    fits = [i for i, m in enumerate(exercise.table) if check_layoff(m, "A♠").ok]
    assert fits == [0, 1, 2]  # from the lay-off check itself
    three = exercise.check("3")
    assert three.correct and three.others == ("meld 1", "meld 2")
    assert "It also fits onto meld 1 and meld 2." in str(three)
    for typed in ("1 and 3", "all", "Melds 1, 2 and 3.", "2", [1, 2], "1 & 2 & 3"):
        assert exercise.check(typed).correct, typed
    assert exercise.answer == "meld 1, meld 2 and meld 3"
    wrong = LayoffTarget("7♥", ["9♠ 9♥ 9♦", "4♥ 5♥ 6♥"]).check("1 and 2")
    assert not wrong.correct and "can't go onto 9♠ 9♥ 9♦" in str(wrong)


def test_05_equal_moves_are_equal_and_a_meld_in_any_order_is_the_same_move():
    exercise = PredictMove("easy", AFTER_DRAW)
    feedback = exercise.check("meld 7h 6h 5h")
    assert feedback.correct, str(feedback)
    assert "easy plays meld 5♥ 6♥ 7♥" in feedback.message
    assert "5♥ 6♥ 7♥" in feedback.detail  # the trace, after the sentences


def test_05_exercise_3_every_discard_that_easy_scores_as_high_is_right():
    exercise = PredictMove("easy", LATER)
    scores = {str(c.action): c.score for c in exercise.decision.trace.candidates}
    top = max(scores.values())
    best = sorted(move for move, score in scores.items() if score == top)
    assert best == ["discard J♦", "discard K♠", "discard K♦", "discard Q♣"]  # all −44.0
    for move in best:
        feedback = exercise.check(move)
        assert feedback.correct, move
        assert sorted([move, *feedback.others]) == best
    assert not exercise.check("discard 9♣").correct


def test_a_move_the_notebook_05_checker_couldnt_read_is_one_line():
    with pytest.raises(AnswerError) as error:
        PredictMove("easy", AFTER_DRAW).check("fold")
    assert "answer a move, like discard K♠" in one_line(error.value)
    feedback = PredictMove("easy", LATER).check("discard 5♣")  # legal-looking, not held
    assert not feedback.correct and "not allowed here" in feedback.head


def test_several_discards_that_go_out_are_each_right_and_named():
    exercise = GoOut("7♥ 8♥ 9♥ 5♠ K♦ 2♣", table=["2♠ 3♠ 4♠"])
    assert exercise.discards == ()  # two cards left over: no way out
    exercise = GoOut("7♥ 8♥ 9♥ K♠ K♦ K♣ 2♣ 5♠", table=["2♠ 3♠ 4♠"])
    found = exercise.discards
    assert len(found) >= 1
    for card in found:
        feedback = exercise.check(str(card))
        assert feedback.correct
        assert set(feedback.others) == {str(c) for c in found if c != card}


# --- the feedback that misled, on its exact input -------------------------------------------------


@pytest.mark.parametrize("typed", [16, 6, 15])
def test_H13_02b_exercise_1_a_seat_that_never_opened_is_told_the_flat_100(typed):
    exercise = RoundScore(
        ["5♣", "K♠ 7♥ 🃏", "2♦ 3♦ A♣"], winner=0, seat=2, opened=[True, True, False]
    )
    feedback = exercise.check(typed)
    assert not feedback.correct
    assert "never opened scores a flat 100" in feedback.head
    assert "ace" not in feedback.head
    assert feedback.codes == ("exercise_mistake_unopened",)


def test_H7_02_exercise_1_names_the_rule_it_exists_for():
    exercise = TurnCanEnd.after("7♥ 8♥ 9♥ 2♣ 5♠", draw="discard", discard="9♠ K♦", turns=0)
    assert "very first turn" in exercise.prompt
    feedback = exercise.check("no")
    assert "first draw of the round, so it may simply keep it (H7)" in str(feedback)
    assert "H7" in feedback.rules


def test_01_exercise_3_shows_its_lettered_options_and_none_is_a_true_statement_marked_wrong():
    exercise = MeldReason("9♠ 9♠ 9♥")
    for line in exercise.options:
        assert line in exercise.prompt
    right = exercise.verdict.codes
    for code in exercise.offered:
        if code not in right and code != "valid":
            assert not exercise.plainly_true(code), code
    assert "run_suit_mismatch" not in exercise.offered  # 9♠ 9♥ *are* different suits
    assert "true of these cards, but not why" in exercise.check("run_suit_mismatch").head


def test_no_default_option_is_a_true_statement_marked_wrong_over_many_melds():
    for exercise in make_exercises(5, 300, kinds=["meld_reason"]):
        for code in exercise.offered:
            if code != "valid" and code not in exercise.verdict.codes:
                assert not exercise.plainly_true(code), (exercise, code)


def _no_bare_code(text: str) -> None:
    for code in (c for c in CATALOGUE if "_" in c):
        assert not re.search(rf"\b{code}\b", text), (code, text)


def test_worksheets_print_no_reason_codes():
    exercises = make_exercises(3, 40)
    _no_bare_code(Worksheet(exercises, "Quiz").html())
    for exercise in exercises:
        _no_bare_code(exercise.accepts)


def test_H8_an_opening_with_melds_between_commas_is_read_as_melds():
    exercise = FindOpening("A♠ 2♠ 3♠ K♥ K♦ K♣ 5♦ 6♦ 7♦ 9♣")
    for typed in (
        "As 2s 3s, Kh Kd Kc, 5d 6d 7d",
        "As 2s 3s; Kh Kd Kc; 5d 6d 7d",
        "As 2s 3s + Kh Kd Kc + 5d 6d 7d",
        "A♠, 2♠, 3♠ + K♥ K♦ K♣ + 5♦ 6♦ 7♦",
    ):
        feedback = exercise.check(typed)
        assert feedback.correct and feedback.given == "A♠ 2♠ 3♠ + K♥ K♦ K♣ + 5♦ 6♦ 7♦", typed
    lumped = exercise.check("As 2s 3s Kh Kd Kc 5d 6d 7d")
    assert not lumped.correct
    assert "separate them with +" in str(lumped)
    assert "separated by + (or commas, or semicolons)" in exercise.accepts


def test_turn_prompts_say_whether_the_seat_has_opened():
    quiz = make_exercises(seed=2024, count=len(KINDS))
    turn = next(e for e in quiz if isinstance(e, TurnCanEnd))  # the quiz's question 7
    assert "has not opened yet" in turn.prompt or "has opened" in turn.prompt
    opened = TurnCanEnd.after("Q♠ Q♦ Q♣ 2♣ 5♠", moves=["meld Qs Qd Qc"], turns=2, opened=True)
    assert "has played 2 turns this round and has opened" in opened.prompt


def test_R8_03_exercises_4_and_5_differ_in_their_prompts():
    plain = RoundScore(["9♥", "A♠ Q♠ 8♦"], winner=0, seat=0, variant=ROMMI)
    high = RoundScore(["9♥", "A♠ Q♠ 8♦"], winner=0, seat=0, variant=variant("rommi", ace_high=True))
    assert plain.prompt != high.prompt
    assert high.prompt.startswith("Rommi with aces worth 11: ")
    assert (plain.points, high.points) == (19, 29)


@pytest.mark.parametrize("exercise", [LayoffTarget("7♥", ["4♥ 5♥ 6♥"]), *make_exercises(1, 40)])
def test_layoff_prompts_cite_the_meld_rule_never_the_turn_rule(exercise):
    if isinstance(exercise, LayoffTarget):
        assert "(H4)" in exercise.prompt and "H6" not in exercise.prompt
    assert "(R6)" in LayoffTarget("K♠", ["10♠ J♠ Q♠"], ROMMI).prompt


# --- content against the rules ---------------------------------------------------------------------


def test_H14_R9_generated_match_questions_are_whole_matches():
    hungarian = make_exercises(11, 400, kinds=["match_winner"])
    assert all(len(e.rounds) == 7 and e.over for e in hungarian)  # H14: seven rounds
    assert all("Who wins the match?" in e.prompt for e in hungarian)
    for exercise in make_exercises(11, 400, kinds=["match_winner"], variant=ROMMI):
        totals = [0] * len(exercise.rounds[0])
        for number, row in enumerate(exercise.rounds, start=1):
            totals = [t + p for t, p in zip(totals, row)]
            # R9: the game ends at the end of the round that brings a total to the target
            assert (max(totals) >= 100) == (number == len(exercise.rounds)), exercise


def test_H14_R9_a_match_not_over_asks_who_is_ahead_and_rounds_past_the_end_are_refused():
    four = MatchWinner([(-10, 35, 100), (40, -20, 12), (100, 8, -10), (12, -10, 30)])
    assert not four.over
    assert "4 rounds into the match (of 7)" in four.prompt and "Who is ahead?" in four.prompt
    assert "wins the match" not in four.prompt
    with pytest.raises(ValueError, match="has 7 rounds"):
        MatchWinner([(-10, 20)] * 8)
    with pytest.raises(ValueError, match="as one did after round 2"):
        MatchWinner([(60, 0), (50, 0), (0, 10)], ROMMI)


def test_a_rommi_quiz_asks_rommi_questions_only():
    exercises = make_exercises(4, 40, variant="rommi")
    assert {e.variant.name for e in exercises} == {"rommi"}
    assert {e.kind for e in exercises} == set(kinds_for("rommi"))
    with pytest.raises(ValueError, match="need an opening threshold, which Rommi doesn't have"):
        make_exercises(4, 8, kinds=["opening_value"], variant="rommi")


def _markdown(notebook: str) -> str:
    cells = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_H5_02b_says_a_joker_in_a_set_of_three_stands_for_no_definite_card():
    text = _markdown("02b_going_out_and_scoring.ipynb")
    assert "A joker on the table stands for a definite card." not in text
    assert 'in a set of three it stands for\n"one of the missing suits"' in text


def test_02_says_undo_is_rummykits_and_a_real_table_has_none():
    for notebook, words in (
        ("02_hungarian_turn.ipynb", "At a real table there is no undo"),
        ("pt/02_rodada_hungara.ipynb", "Numa mesa de verdade não há volta"),
    ):
        assert words in _markdown(notebook), notebook


def test_R2_03_marks_who_starts_as_rummykits_choice():
    assert "The source doesn't say who plays first: rummykit *chooses*" in _markdown(
        "03_rommi.ipynb"
    )
    assert "Lähde ei\nkerro, kuka aloittaa: rummykit *valitsee*" in _markdown("fi/03_rommi.ipynb")


def _stored(notebook: str, needle: str) -> str:
    cells = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))["cells"]
    cell = next(c for c in cells if needle in "".join(c["source"]))
    return "".join("".join(o.get("text", "")) for o in cell["outputs"])


def test_06_compares_the_agent_with_hard_from_its_own_numbers():
    said = _stored("06_classroom.ipynb", "lies {inside} the interval of")
    rows = _stored("06_classroom.ipynb", "print(against_normal)").splitlines()[1:]
    numbers = {}
    for row in rows:
        label, estimate, low, high = re.fullmatch(
            r"(.+): ([+-][\d.]+) \[([+-][\d.]+), ([+-][\d.]+)\]", row
        ).groups()
        numbers[label] = (float(estimate), float(low), float(high))
    assert set(numbers) == {"hard − normal", "mine − normal"}
    for line in said.splitlines():
        label, inside, other = re.match(
            r"(.+): \S+ lies (inside|outside) the interval of (.+?),", line
        ).groups()
        estimate = numbers[label][0]
        low, high = numbers[other][1:]
        assert (inside == "inside") == (low <= estimate <= high), line
    assert "can't rank them" in _markdown("06_classroom.ipynb")


# --- puzzles: a second way to free a joker is a right answer -------------------------------------


def test_H11_the_two_step_way_to_free_a_joker_of_a_set_is_right():
    exercise = FreeJoker(
        "A♣ Q♣ 7♣ J♣ A♥ 10♠ A♦ 7♣ 3♥", ["A♠ A♦ 🃏", "3♠ 4♠ 5♠ 🃏", "🃏 2♦ 3♦", "3♠ 3♥ 3♦"]
    )  # grade-3 joker puzzle 1 as it was
    feedback = exercise.check("A♥ from 1")
    assert feedback.correct, str(feedback)
    assert "after laying off A♣ onto it" in feedback.given
    assert "A♦ for the joker in meld 3" in " ".join(feedback.others)
    game = exercise.game  # the referee agrees, move by move
    game.play(parse_action("lay off A♣ onto 1"))
    game.play(parse_action("exchange A♥ from 1"))


@pytest.mark.parametrize("seed", [1, 7, 36, *range(40, 46)])
def test_H11_every_grade_3_joker_puzzle_has_exactly_one_way(seed):
    puzzle = make_puzzle("joker", seed=seed, grade=3)
    assert len(puzzle.exercise.routes) == 1
    assert puzzle.check(puzzle.solution).correct
    hand = Counter(puzzle.exercise.hand)
    for card in hand:
        for number in range(1, len(puzzle.exercise.table) + 1):
            typed = f"{card} from {number}"
            if typed != puzzle.solution:
                assert not puzzle.check(typed).correct, typed
