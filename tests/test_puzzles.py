"""Every generated puzzle has exactly one best answer by the solver; the checker accepts it
and refuses every other answer with a reason.

The suite runs ``RUMMYKIT_PUZZLES`` puzzles per kind (default 120, spread over the grades
and, where a kind allows, both variants); ``benchmarks/puzzles_full.py`` runs 1,000.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter

import pytest

from rummykit import HUNGARIAN, ROMMI, best_opening, can_go_out, check_layoff, check_opening
from rummykit.cards import format_cards
from rummykit.exercises import AnswerError, Feedback
from rummykit.game.actions import ExchangeJoker
from rummykit.game.legal import candidate_melds
from rummykit.puzzles import GRADES, KINDS, Puzzle, make_puzzle, make_puzzles, opening_totals
from rummykit.puzzles import worksheet as puzzle_worksheet
from rummykit.solver import layoff_options, min_deadwood

PER_KIND = int(os.environ.get("RUMMYKIT_PUZZLES", "120"))
BOTH = ("discard", "layoff")


def _cases(kind: str) -> list[tuple[int, int, str]]:
    variants = ("hungarian", "rommi") if kind in BOTH else ("hungarian",)
    combos = list(itertools.product(GRADES, variants))
    return [(seed, *combos[seed % len(combos)]) for seed in range(PER_KIND)]


def _refused(feedback: Feedback) -> None:
    assert not feedback.correct
    assert feedback.head.startswith("You said"), feedback.head
    assert feedback.lines, str(feedback)  # a reason, not a bare "wrong"


def _exactly_one(puzzle: Puzzle, answers: list[object], best: set[object]) -> None:
    """The checker accepts exactly the answers in ``best`` (one), and explains the rest."""
    assert len(best) == 1, (puzzle, best)
    accepted = []
    for answer in answers:
        feedback = puzzle.check(answer)
        if feedback.correct:
            accepted.append(answer)
        else:
            _refused(feedback)
    assert accepted == list(best), (puzzle, accepted, best)


def check_discard(p: Puzzle) -> None:
    hand = p.exercise.hand
    dead = {}
    for card in dict.fromkeys(hand):
        rest = list(hand)
        rest.remove(card)
        dead[card] = min_deadwood(rest, p.variant)
    least = min(dead.values())
    best = {str(c) for c, d in dead.items() if d == least}
    _exactly_one(p, [str(c) for c in dead], best)
    assert p.solution in best


def check_layoff_puzzle(p: Puzzle) -> None:
    ex = p.exercise
    fits = {i for i, m in enumerate(ex.table) if check_layoff(m, ex.cards, p.variant).ok}
    solver = {o.index for o in layoff_options(ex.cards, ex.table, p.variant) if o.cards == ex.cards}
    assert fits == solver
    numbers = {i + 1 for i in fits}  # people count melds from 1
    _exactly_one(p, [*range(1, len(ex.table) + 1), "none"], numbers)
    assert p.solution in numbers


def check_go_out(p: Puzzle) -> None:
    ex = p.exercise
    works = set()
    for card in dict.fromkeys(ex.hand):
        rest = list(ex.hand)
        rest.remove(card)
        if can_go_out(rest, p.variant, ex.table, final_discard=False).ok:
            works.add(str(card))
    whole = can_go_out(ex.hand, p.variant, ex.table, final_discard=True)
    assert whole.ok == bool(works)
    best = works or {"no"}
    _exactly_one(p, [*[str(c) for c in dict.fromkeys(ex.hand)], "no"], best)
    assert p.solution in best


def check_opening_puzzle(p: Puzzle) -> None:
    hand = p.exercise.hand
    totals = opening_totals(hand, p.variant)
    top = max(totals.values())
    assert top >= p.variant.opening_threshold
    assert [k for k, t in totals.items() if t == top].__len__() == 1
    assert best_opening(hand, p.variant).points == top  # the solver agrees with the search
    assert p.check(p.solution).correct
    _refused(p.check("no"))
    # every single meld, and every pair of disjoint melds, the hand holds: right only when
    # it is the best opening
    melds = list(dict.fromkeys(candidate_melds(hand, p.variant)))
    tried = 0
    for size in (1, 2):
        for group in itertools.combinations(melds, size):
            need = Counter(c for m in group for c in m.cards)
            if any(need[c] > n for c, n in Counter(hand).items()) or need - Counter(hand):
                continue
            if sum(need.values()) >= len(hand):
                continue
            if any(m.joker_as for m in group):
                continue  # a stand-in reading: said with "as", not in this answer form
            answer = " + ".join(format_cards(m.cards) for m in group)
            total = check_opening([m.cards for m in group], p.variant).points
            feedback = p.check(answer)
            if feedback.correct:
                assert total == top
            else:
                _refused(feedback)
            tried += 1
            if tried > 15:
                return


def check_joker(p: Puzzle) -> None:
    ex = p.exercise
    game = ex.game
    legal = {  # meld numbers from 1, as people say them
        f"{a.card} from {a.meld + 1}" for a in game.legal_actions() if isinstance(a, ExchangeJoker)
    }
    with_joker = [i for i, m in enumerate(ex.table) if any(c.is_joker for c in m.cards)]
    answers: list[object] = [
        f"{c} from {i + 1}" for c in dict.fromkeys(ex.hand) if not c.is_joker for i in with_joker
    ]
    _exactly_one(p, [*answers, "none"], legal)
    assert p.solution in legal
    for answer in answers:
        card, _, index = str(answer).partition(" from ")
        if answer not in legal:  # the referee's own refusal is in the explanation
            refusal = game.check(
                ExchangeJoker(ex.hand[[str(c) for c in ex.hand].index(card)], int(index) - 1)
            )
            assert str(refusal.failures[0]) in str(p.check(answer))


CHECKS = {
    "discard": check_discard,
    "layoff": check_layoff_puzzle,
    "go_out": check_go_out,
    "opening": check_opening_puzzle,
    "joker": check_joker,
}


@pytest.mark.parametrize("kind", KINDS)
def test_every_puzzle_has_one_best_answer_that_the_checker_alone_accepts(kind):
    for seed, grade, variant in _cases(kind):
        puzzle = make_puzzle(kind, seed, grade, variant)
        assert puzzle.grade == grade and puzzle.seed == seed
        assert (puzzle.variant.base or puzzle.variant.name) == variant
        CHECKS[kind](puzzle)


@pytest.mark.parametrize("kind", KINDS)
def test_puzzles_are_seeded(kind):
    assert [repr(p) + str(p.solution) for p in make_puzzles(kind, 4, seed=7)] == [
        repr(p) + str(p.solution) for p in make_puzzles(kind, 4, seed=7)
    ]
    first = make_puzzle(kind, 3, 2)
    assert first.exercise == make_puzzle(kind, 3, 2).exercise
    assert repr(first) == f"Puzzle({kind!r}, seed=3, grade=2, variant='hungarian')"


@pytest.mark.parametrize("kind", KINDS)
def test_puzzle_garbage_answers_name_what_is_accepted(kind):
    puzzle = make_puzzle(kind, 1)
    for junk in ("??", 3.5, ["nonsense"]):
        with pytest.raises(AnswerError, match="is not an answer here: answer"):
            puzzle.check(junk)
    for blank in ("", None, "  "):
        with pytest.raises(AnswerError, match="No answer yet: answer"):
            puzzle.check(blank)


def test_bad_requests_are_refused_clearly():
    with pytest.raises(ValueError, match="not a kind of puzzle: choose among opening"):
        make_puzzle("sudoku", 1)
    with pytest.raises(ValueError, match="not a grade: choose 1, 2 or 3"):
        make_puzzle("discard", 1, grade=7)
    with pytest.raises(ValueError, match="played under Hungarian Rummy"):
        make_puzzle("joker", 1, variant=ROMMI)


def test_a_puzzle_worksheet_has_its_key_in_sentences():
    puzzles = make_puzzles(KINDS, 5, seed=2)
    sheet = puzzle_worksheet(puzzles, "Puzzles")
    html = sheet.html()
    assert html.count('class="rk-block"') == 5
    key = html[html.index('class="rk-key"') :]
    for p in puzzles:
        assert p.explanation[0].split(" ")[0] in key
    assert "Puzzle: " in puzzles[0]._repr_html_()
    assert HUNGARIAN.rule("opening") in puzzles[0].prompt


def test_the_puzzle_widget_checks_counts_and_moves_on():
    from rummykit.widgets import PuzzleWidget

    box = PuzzleWidget(["discard", "layoff"], seed=20, grade=2, student="Ana")
    assert box.puzzle == make_puzzle("discard", 20, 2)
    assert box.answer(box.puzzle.solution).correct
    assert "✔" in box._feedback.value
    assert box.answer("nonsense") is None
    assert "is not an answer here" in box._feedback.value
    box.next()
    assert box.puzzle == make_puzzle("layoff", 21, 2)
    wrong = 1 if box.puzzle.solution != 1 else 2  # meld numbers from 1
    feedback = box.answer(wrong)
    assert feedback is not None and not feedback.correct
    assert box.quiz.tally("Ana").right == 1 and box.quiz.tally("Ana").asked == 2
    assert (
        repr(box)
        == "PuzzleWidget(kinds=['discard', 'layoff'], seed=20, grade=2, tally='1 right out of 2')"
    )
    box.go(1)
    assert box.puzzle.kind == "discard"


def test_the_quiz_widget_keeps_the_tally_of_its_student():
    from rummykit.exercises import Quiz, make_exercises
    from rummykit.widgets import QuizWidget

    quiz = Quiz(make_exercises(2, 3))
    box = QuizWidget(quiz, student="Ben")
    box.answer("definitely not an answer")
    assert quiz.tally("Ben").asked == 0
    box.go(99)
    assert box.number == 3
    assert repr(box).startswith("QuizWidget(exercises=3, number=3, student='Ben'")
