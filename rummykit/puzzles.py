"""Puzzles drawn from a seed, each with exactly one best answer that the solver verifies.

Five kinds, each in grades 1 (easy) to 3 (hard):

- ``opening``: find the 51-point opening worth the most (H8);
- ``go_out``: can you go out this turn, and with which final discard (H12)?
- ``discard``: which discard leaves the least deadwood?
- ``layoff``: onto which meld can this card be laid off (R6, H8)?
- ``joker``: which joker can you free, and with which card (H11)?

A position is kept only when the solver (or the referee, for jokers) finds exactly one best
answer; the checker is the matching :mod:`rummykit.exercises` exercise, so the feedback is
the engine's own sentences:

>>> puzzle = make_puzzle("discard", seed=4)
>>> puzzle
Puzzle('discard', seed=4, grade=1, variant='hungarian')
>>> puzzle.check(puzzle.solution).correct
True
>>> make_puzzle("discard", seed=4) == puzzle
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from rummykit.cards import HIGH_ACE, Card, card_at
from rummykit.errors import RummykitError
from rummykit.exercises import (
    BestDiscard,
    Exercise,
    Feedback,
    FindOpening,
    FreeJoker,
    GoOut,
    LayoffTarget,
    Worksheet,
    random_table,
)
from rummykit.melds import check_layoff, make_meld
from rummykit.messages import render
from rummykit.solver import layoff_options
from rummykit.variants import HUNGARIAN, Variant
from rummykit.variants import variant as get_variant

__all__ = [
    "GRADES",
    "KINDS",
    "Puzzle",
    "make_puzzle",
    "make_puzzles",
    "opening_totals",
    "worksheet",
]

KINDS = ("opening", "go_out", "discard", "layoff", "joker")
"""The kinds of puzzle."""

GRADES = (1, 2, 3)
"""Grades of difficulty: 1 easy, 3 hard."""

#: The kinds that need Hungarian rules (an opening threshold, a final discard, jokers).
_HUNGARIAN_ONLY = ("opening", "go_out", "joker")
_TRIES = 2000


@dataclass(frozen=True, repr=False)
class Puzzle:
    """One puzzle: the position (an :class:`~rummykit.exercises.Exercise`), its one best
    answer (``solution``, in a form :meth:`check` accepts), and where it came from."""

    kind: str
    seed: int
    grade: int
    exercise: Exercise
    solution: Any

    @property
    def variant(self) -> Variant:
        """The rules the puzzle is played under."""
        return self.exercise.variant

    @property
    def prompt(self) -> str:
        """The question."""
        return self.exercise.prompt

    @property
    def answer(self) -> str:
        """The best answer, in words."""
        return self.exercise.answer

    @property
    def explanation(self) -> tuple[str, ...]:
        """Why it is best: the engine's sentences."""
        return self.exercise.explanation

    @property
    def key(self) -> str:
        """The answer key entry, in sentences."""
        return self.exercise.key

    @property
    def accepts(self) -> str:
        """What an answer looks like."""
        return self.exercise.accepts

    def check(self, answer: object) -> Feedback:
        """Judge an answer (see :meth:`rummykit.exercises.Exercise.check`)."""
        return self.exercise.check(answer)

    def figure_html(self) -> str:
        """The position drawn."""
        return self.exercise.figure_html()

    def __repr__(self) -> str:
        name = self.variant.base or self.variant.name
        return f"Puzzle({self.kind!r}, seed={self.seed}, grade={self.grade}, variant={name!r})"

    def _repr_html_(self) -> str:
        title = render("puzzle_title", kind=render(f"puzzle_kind_{self.kind}"), grade=self.grade)
        return f'<div class="rk-puzzle"><h4>{escape(title)}</h4>{self.exercise._repr_html_()}</div>'


def make_puzzle(
    kind: str, seed: int, grade: int = 1, variant: Variant | str | None = None
) -> Puzzle:
    """The puzzle of this kind, seed and grade (the same arguments, the same puzzle).

    ``variant`` may be chosen for ``discard`` and ``layoff``; the other kinds are
    Hungarian Rummy puzzles.

    >>> p = make_puzzle("layoff", seed=1, grade=2, variant="rommi")
    >>> p.exercise.targets == (p.solution - 1,)  # indices from 0, meld numbers from 1
    True
    >>> make_puzzle("chess", seed=1)
    Traceback (most recent call last):
    ...
    rummykit.errors.RummykitError: 'chess' is not a kind of puzzle: choose among opening, go_out, discard, layoff, joker
    """
    if kind not in KINDS:
        raise RummykitError(render("puzzle_unknown_kind", kind=kind, choices=", ".join(KINDS)))
    if grade not in GRADES:
        raise RummykitError(render("puzzle_bad_grade", grade=grade))
    rules = (
        HUNGARIAN
        if variant is None
        else get_variant(variant)
        if isinstance(variant, str)
        else variant
    )
    if kind in _HUNGARIAN_ONLY and (rules.base or rules.name) != "hungarian":
        raise RummykitError(render("puzzle_hungarian_only", kind=kind))
    rng = random.Random(f"{kind}|{seed}|{grade}|{rules.name}")
    for _ in range(_TRIES):
        found = _MAKERS[kind](rng, rules, grade)
        if found is not None:
            exercise, solution = found
            return Puzzle(kind, seed, grade, exercise, solution)
    raise RuntimeError(render("puzzle_not_found", kind=kind, seed=seed))  # pragma: no cover


def make_puzzles(
    kind: str | Sequence[str] = KINDS,
    count: int = 5,
    seed: int = 0,
    grade: int = 1,
    variant: Variant | str | None = None,
) -> list[Puzzle]:
    """``count`` puzzles from seeds ``seed``, ``seed + 1``, …, cycling through the kinds.

    >>> [p.kind for p in make_puzzles(["discard", "layoff"], count=3, seed=10)]
    ['discard', 'layoff', 'discard']
    """
    kinds = [kind] if isinstance(kind, str) else list(kind)
    return [make_puzzle(kinds[i % len(kinds)], seed + i, grade, variant) for i in range(count)]


def worksheet(puzzles: Sequence[Puzzle], title: str = "") -> Worksheet:
    """A printable worksheet of these puzzles, with the answer key on its own page.

    >>> worksheet(make_puzzles("discard", 2), "Discards")
    Worksheet('Discards', items=2)
    """
    return Worksheet(list(puzzles), title or render("puzzle_worksheet_title"))


# --- the generators -----------------------------------------------------------------------------
# Each returns (exercise, solution) for a position with exactly one best answer, or None to
# draw again.


def _deal(rng: random.Random, rules: Variant, used: Iterable[Card], count: int) -> list[Card]:
    """``count`` natural cards the deck still holds after ``used``."""
    left = Counter(used)
    pool = [c for c in rules.deck() if not c.is_joker]
    rng.shuffle(pool)
    out = []
    for card in pool:
        if left[card] < rules.copies(card):
            left[card] += 1
            out.append(card)
            if len(out) == count:
                break
    return out


def _discard(rng: random.Random, rules: Variant, grade: int) -> tuple[Exercise, Any] | None:
    size = {1: 6, 2: 9, 3: 12}[grade] - (1 if rules.decks == 1 else 0)
    table = random_table(rng, rules, 1 if grade == 1 else 2, jokers=int(grade == 3))
    cards = [c for m in table for c in m][: size - 2]
    hand = cards + _deal(rng, rules, cards, size - len(cards))
    rng.shuffle(hand)
    exercise = BestDiscard(hand, rules)
    best = exercise.best
    if len(best) != 1:
        return None
    if grade > 1:  # the trap: the highest card is not the answer
        top = max(rules.card_value(c) for c in hand)
        if rules.card_value(best[0]) == top:
            return None
    return exercise, str(best[0])


def _extensions(meld: Any, rules: Variant) -> list[Card]:
    """The natural cards that could extend this meld by one (checked afterwards)."""
    if meld.is_run:
        ends = (meld.start - 1, meld.end + 1)
        return [card_at(p, meld.suit) for p in ends if 1 <= p <= HIGH_ACE]
    return list(meld.missing_suits())


def _layoff(rng: random.Random, rules: Variant, grade: int) -> tuple[Exercise, Any] | None:
    count = grade + 1
    table = random_table(rng, rules, count, jokers=int(grade == 3 and rules.jokers > 0))
    melds = [make_meld(m, rules) for m in table]
    used = Counter(c for m in table for c in m)
    target = rng.choice(melds)
    choices = [c for c in _extensions(target, rules) if used[c] < rules.copies(c)]
    if not choices:
        return None
    card = rng.choice(choices)
    fits = [i for i, m in enumerate(melds) if check_layoff(m, (card,), rules).ok]
    if len(fits) != 1:
        return None
    solver = {o.index for o in layoff_options((card,), melds, rules) if o.cards == (card,)}
    if solver != set(fits):
        return None
    if grade > 1:  # a near miss: another meld of the card's suit or rank refuses it
        near = [
            i
            for i, m in enumerate(melds)
            if i != fits[0] and (m.suit == card.suit if m.is_run else m.rank == card.rank)
        ]
        if not near:
            return None
    return LayoffTarget((card,), melds, rules), fits[0] + 1  # people count melds from 1


def _go_out(rng: random.Random, rules: Variant, grade: int) -> tuple[Exercise, Any] | None:
    table = random_table(rng, rules, grade, jokers=int(grade == 3))
    own = random_table(rng, rules, 1 + (grade > 1))
    used = [c for m in table + own for c in m]
    if any(n > rules.copies(c) for c, n in Counter(used).items()):
        return None
    melds = [make_meld(m, rules) for m in table]
    count = Counter(used)
    fitting = list(
        dict.fromkeys(
            c
            for m in melds
            for c in _extensions(m, rules)
            if count[c] < rules.copies(c) and check_layoff(m, (c,), rules).ok
        )
    )
    lay = rng.sample(fitting, min(len(fitting), grade - 1)) if fitting else []
    rest = _deal(rng, rules, [*used, *lay], 1 + (grade == 3))
    hand = [c for m in own for c in m] + lay + rest
    if grade == 3 and rng.random() < 0.3:  # sometimes the answer is no
        hand = hand[:-1]
        hand[rng.randrange(len(hand))] = _deal(rng, rules, [*used, *lay, *rest], 1)[0]
    elif grade == 3:
        hand = hand[:-1]
    rng.shuffle(hand)
    exercise = GoOut(hand, melds, rules)
    found = exercise.discards
    if len(found) > 1:
        return None
    plan = exercise.plan
    if bool(found) != plan.ok or (found and plan.discard != found[0]):
        return None  # the solver must agree, card by card and as a whole
    if not found and grade < 3:
        return None
    return exercise, (str(found[0]) if found else "no")


def opening_totals(hand: Sequence[Card], rules: Variant) -> dict[tuple[str, ...], int]:
    """Every opening this hand allows, by exhaustive search: for each set of cards that
    new melds can take (one card always kept back when the last card goes by a discard),
    the most those melds are worth toward the opening.

    >>> from rummykit import parse_cards
    >>> totals = opening_totals(parse_cards("7♥ 8♥ 9♥ Q♠ Q♦ Q♣ 2♣"), HUNGARIAN)
    >>> max(totals.values()), len(totals)
    (54, 3)
    """
    from rummykit.game.legal import candidate_melds

    options = []
    for action in dict.fromkeys(candidate_melds(hand, rules)):
        meld = make_meld(action.cards, rules, action.joker_as)
        options.append((Counter(action.cards), meld.points(rules)))
    keep = 1 if rules.discard_to_win else 0
    out: dict[tuple[str, ...], int] = {}

    def walk(i: int, left: Counter[Card], taken: Counter[Card], points: int) -> None:
        if i == len(options):
            if taken and left.total() >= keep:
                key = tuple(sorted(str(c) for c in taken.elements()))
                out[key] = max(out.get(key, 0), points)
            return
        walk(i + 1, left, taken, points)
        need, value = options[i]
        if all(left[c] >= n for c, n in need.items()):
            walk(i + 1, left - need, taken + need, points + value)

    walk(0, Counter(hand), Counter(), 0)
    return out


def _opening(rng: random.Random, rules: Variant, grade: int) -> tuple[Exercise, Any] | None:
    size = {1: 8, 2: 11, 3: 13}[grade]
    table = random_table(rng, rules, 2 + (grade > 1), jokers=int(grade == 3))
    cards = [c for m in table for c in m][: size - 1]
    hand = cards + _deal(rng, rules, cards, size - len(cards))
    rng.shuffle(hand)
    totals = opening_totals(hand, rules)
    if not totals:
        return None
    best = max(totals.values())
    if best < rules.opening_threshold or list(totals.values()).count(best) != 1:
        return None
    exercise = FindOpening(hand, rules)
    solver = exercise.best
    if solver.points != best:
        return None  # the solver must agree with the search
    return exercise, " + ".join(str(m) for m in solver.melds)


def _joker(rng: random.Random, rules: Variant, grade: int) -> tuple[Exercise, Any] | None:
    count = grade + 1
    table = random_table(rng, rules, count, jokers=grade)
    melds = [make_meld(m, rules) for m in table]
    reps = [
        rep
        for m in melds
        for card, rep in zip(m.cards, m.represents, strict=False)
        if card.is_joker and rep is not None
    ]
    if not reps:
        return None
    used = [c for m in table for c in m]
    answer = rng.choice(reps)
    if Counter(used)[answer] >= rules.copies(answer):
        return None
    others = _deal(rng, rules, [*used, answer], 2 + 2 * grade)
    taken = Counter([*used, answer, *others])
    near = [
        Card(answer.rank, s)
        for s in "♠♥♦♣"
        if Card(answer.rank, s) != answer and taken[Card(answer.rank, s)] < rules.copies(answer)
    ]
    hand = [answer, *others[: len(others) - 1], *([rng.choice(near)] if near else others[-1:])]
    rng.shuffle(hand)
    exercise = FreeJoker(hand, melds, rules)
    found = exercise.exchanges
    if len(found) != 1:
        return None
    card, index = found[0]
    return exercise, f"{card} from {index + 1}"


_MAKERS = {
    "opening": _opening,
    "go_out": _go_out,
    "discard": _discard,
    "layoff": _layoff,
    "joker": _joker,
}
