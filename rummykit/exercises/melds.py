"""Exercises on one meld: is it a run, a set or no meld, and if not, why not (H4, H5)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from rummykit.cards import Card, CardsLike, as_cards, format_cards
from rummykit.display import cards_html
from rummykit.errors import RummykitError
from rummykit.exercises.answers import answer_words, says
from rummykit.exercises.base import (
    Exercise,
    Feedback,
    as_variant,
    bad_answer,
    make_feedback,
    rules_of,
    sentences_of,
    variant_repr,
)
from rummykit.explain import CATALOGUE, Verdict
from rummykit.melds import check_meld, meld_readings
from rummykit.messages import TEMPLATES, join, render
from rummykit.variants import HUNGARIAN, Variant

__all__ = ["MELD_REASONS", "MeldKind", "MeldReason"]

# --- meld kinds and reasons -----------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class MeldKind(Exercise):
    """Is this a run, a set, or no meld?

    >>> exercise = MeldKind("K♠ A♠ 2♠")
    >>> exercise
    MeldKind('K♠ A♠ 2♠', 'hungarian')
    >>> print(exercise.check("run"))
    ✘ You said a run, but K♠ A♠ 2♠ is no meld. K♠ A♠ 2♠ is not a valid meld in Hungarian Rummy. K♠ A♠ 2♠ wraps around the ace: in a run the ace goes below the 2 (A-2-3) or above the king (Q-K-A), never between them. (H4)
    """

    kind: ClassVar[str] = "meld_kind"
    cards: tuple[Card, ...]
    variant: Variant = HUNGARIAN

    def __init__(self, cards: CardsLike, variant: Variant | str = HUNGARIAN) -> None:
        object.__setattr__(self, "cards", as_cards(cards))
        object.__setattr__(self, "variant", as_variant(variant))

    def __repr__(self) -> str:
        return f"MeldKind('{format_cards(self.cards)}', {variant_repr(self.variant)})"

    @cached_property
    def verdict(self) -> Verdict:
        """The meld check's verdict on these cards."""
        return check_meld(self.cards, self.variant)

    @property
    def prompt(self) -> str:
        return render("exercise_kind_prompt", variant=self.variant.title, cards=self.cards)

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_kind")

    @staticmethod
    def _kind_word(kind: str | None) -> str:
        return render(f"exercise_kind_{kind or 'none'}")

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        """Every kind of meld these cards make (a run, a set, or both when jokers let them be
        either: ``6♥ 🃏 🃏`` with two jokers a meld); none when they make no meld."""
        if not self.verdict.ok:
            return ()
        found = {"run" if m.is_run else "set" for m in meld_readings(self.cards, self.variant)}
        return tuple(k for k in ("run", "set") if k in found) or (self.verdict.kind or "run",)

    def _kinds_word(self) -> str:
        if not self.kinds:
            return self._kind_word(None)
        return join([self._kind_word(k) for k in self.kinds], "or")

    @property
    def answer(self) -> str:
        return self._kinds_word()

    @property
    def solution(self) -> str:
        return " or ".join(self.kinds) or "no meld"

    @property
    def explanation(self) -> tuple[str, ...]:
        return sentences_of(self.verdict)

    @property
    def rules(self) -> tuple[str, ...]:
        return rules_of(self.verdict.reasons)

    @property
    def codes(self) -> tuple[str, ...]:
        return self.verdict.codes

    def _read(self, answer: object) -> str | None:
        words = answer_words(answer)
        for lead in ("it is ", "it's ", "its ", "a ", "an "):
            words = words.removeprefix(lead)
        if says(words, "run"):
            return "run"
        if says(words, "set"):
            return "set"
        if says(words, "no"):
            return None
        raise bad_answer(answer, self.accepts)

    def _judge(self, answer: object) -> Feedback:
        given = self._read(answer)
        verdict = self.verdict
        actual = self._kinds_word()
        said = self._kind_word(given)
        return make_feedback(
            given in self.kinds if given else not self.kinds,
            said,
            actual,
            render("exercise_kind_right", cards=self.cards, kind=actual),
            render("exercise_kind_wrong", given=said, cards=self.cards, kind=actual),
            sentences_of(verdict),
            verdict.cards or self.cards,
            verdict.highlighted,
        )

    def figure_html(self) -> str:
        return cards_html(self.cards)


#: The reasons a meld can fail for that a learner may pick: every code of the catalogue that
#: has a learner's sentence (``exercise_reason_<code>``).
MELD_REASONS = tuple(code for code in CATALOGUE if f"exercise_reason_{code}" in TEMPLATES)
_REASON_CHOICES = tuple(c for c in MELD_REASONS if c != "run_too_long")  # rare: not offered


@dataclass(frozen=True, repr=False)
class MeldReason(Exercise):
    """Valid or not — and if not, why? Answer the letter of one of the offered sentences
    (or ``valid``, or a reason code).

    The prompt shows the sentences, lettered. Beside the right one they are only sentences
    that are false of these cards, so that no option is a true statement marked wrong:

    >>> exercise = MeldReason("5♥ 6♥ 8♥")
    >>> print(exercise.prompt)
    Hungarian Rummy: is 5♥ 6♥ 8♥ a valid meld? If not, why not?
    a) It is a valid meld.
    b) One rank appears twice in the run.
    c) The run skips a card that no joker fills.
    d) The run turns the corner at the ace (K-A-2).
    e) A set can't hold that many cards.
    >>> exercise.check("c").correct, exercise.check("C.").correct, exercise.check("run_gap").correct
    (True, True, True)
    >>> print(exercise.check("d"))
    ✘ You said the run turns the corner at the ace (K-A-2), but 5♥ 6♥ 8♥ is not a valid meld in Hungarian Rummy. 5♥ 6♥ 8♥ skips the 7♥: the cards of a run follow one another. (H4)
    """

    kind: ClassVar[str] = "meld_reason"
    cards: tuple[Card, ...]
    variant: Variant = HUNGARIAN
    offered: tuple[str, ...] = ()

    def __init__(
        self,
        cards: CardsLike,
        variant: Variant | str = HUNGARIAN,
        offered: Sequence[str] | None = None,
    ) -> None:
        object.__setattr__(self, "cards", as_cards(cards))
        object.__setattr__(self, "variant", as_variant(variant))
        if offered is None:
            offered = self._default_offer()
        unknown = [c for c in offered if c != "valid" and c not in MELD_REASONS]
        if unknown:
            raise RummykitError(
                render(
                    "exercise_unknown_code",
                    code=unknown[0],
                    choices=", ".join(("valid", *_REASON_CHOICES)),
                )
            )
        object.__setattr__(self, "offered", tuple(offered))

    def _default_offer(self) -> tuple[str, ...]:
        verdict = check_meld(self.cards, self.variant)
        right = verdict.codes[:1]
        pool = [
            c
            for c in _REASON_CHOICES
            if c not in verdict.codes and self._arises(c) and not self.plainly_true(c)
        ]
        rng = random.Random(f"{format_cards(self.cards)}|{self.variant.name}")
        picked = rng.sample(pool, min(3, len(pool)))
        return ("valid", *sorted({*right, *picked}))

    def _arises(self, code: str) -> bool:
        v = self.variant
        if code in ("too_many_jokers",):
            return v.jokers > 0
        if code == "jokers_not_allowed":
            return v.jokers == 0
        if code == "ace_low_not_allowed":
            return not v.ace_low
        if code == "ace_high_not_allowed":
            return not v.ace_above_king
        return True

    def plainly_true(self, code: str) -> bool:
        """Whether the sentence offered for ``code``, read word for word, is true of these
        cards (9♠ 9♠ 9♥ *are* of different suits, though that is not why they fail).

        >>> exercise = MeldReason("9♠ 9♠ 9♥")
        >>> exercise.plainly_true("run_suit_mismatch"), exercise.plainly_true("run_gap")
        (True, False)
        """
        cards = self.cards
        natural = [c for c in cards if not c.is_joker]
        jokers = len(cards) - len(natural)
        ranks = Counter(c.rank for c in natural)
        twice = any(n > 1 for n in Counter(natural).values())
        facts = {
            "valid": self.verdict.ok,
            "too_few_cards": len(cards) < 3,
            "identical_cards": twice,
            "not_in_deck": twice and self.variant.decks == 1,
            "set_rank_mismatch": len(ranks) > 1,
            "set_too_large": len(cards) > 4,
            "run_suit_mismatch": len({c.suit for c in natural}) > 1,
            "run_duplicate_rank": any(n > 1 for n in ranks.values()),
            "run_wraps": {1, 2, 13} <= set(ranks),
            "ace_low_not_allowed": {1, 2} <= set(ranks),
            "ace_high_not_allowed": {1, 13} <= set(ranks),
            "too_many_jokers": jokers > 1,
            "jokers_not_allowed": jokers > 0 and not self.variant.jokers,
            "run_too_long": len(cards) > 13,
        }
        return facts.get(code, code in self.verdict.codes)

    def __repr__(self) -> str:
        return f"MeldReason('{format_cards(self.cards)}', {variant_repr(self.variant)})"

    @cached_property
    def verdict(self) -> Verdict:
        """The meld check's verdict on these cards."""
        return check_meld(self.cards, self.variant)

    @staticmethod
    def _sentence(code: str) -> str:
        return render(f"exercise_reason_{code}")

    @property
    def options(self) -> tuple[str, ...]:
        """The offered sentences, lettered."""
        return tuple(
            f"{chr(ord('a') + i)}) {self._sentence(code)}" for i, code in enumerate(self.offered)
        )

    @property
    def prompt(self) -> str:
        question = render("exercise_reason_prompt", variant=self.variant.title, cards=self.cards)
        return "\n".join([question, *self.options])

    @property
    def accepts(self) -> str:
        letters = [chr(ord("a") + i) for i in range(len(self.offered))]
        return render("exercise_accepts_reason", letters=join(letters))

    @property
    def solution(self) -> str:
        verdict = self.verdict
        code = verdict.codes[0] if verdict.codes else "valid"
        return chr(ord("a") + self.offered.index(code)) if code in self.offered else code

    @property
    def answer(self) -> str:
        verdict = self.verdict
        code = verdict.codes[0] if verdict.codes else "valid"
        if code in self.offered:
            letter = chr(ord("a") + self.offered.index(code))
            return f"{letter}) {self._sentence(code)}"
        return self._sentence(code)

    @property
    def explanation(self) -> tuple[str, ...]:
        return sentences_of(self.verdict)

    @property
    def rules(self) -> tuple[str, ...]:
        return rules_of(self.verdict.reasons)

    @property
    def codes(self) -> tuple[str, ...]:
        return self.verdict.codes

    def _read(self, answer: object) -> str:
        words = answer_words(answer).removesuffix(")")
        if len(words) == 1 and "a" <= words <= chr(ord("a") + len(self.offered) - 1):
            return self.offered[ord(words) - ord("a")]
        if words.isdigit() and 1 <= int(words) <= len(self.offered):
            return self.offered[int(words) - 1]
        if says(words, "yes"):
            return "valid"
        code = words.replace(" ", "_")
        if code in MELD_REASONS or (code in CATALOGUE and code in self.verdict.codes):
            return code
        raise bad_answer(answer, self.accepts)

    def _judge(self, answer: object) -> Feedback:
        given = self._read(answer)
        verdict = self.verdict
        right = verdict.ok if given == "valid" else given in verdict.codes
        said = self._sentence(given)
        said = said[0].lower() + said[1:].rstrip(".")
        wrong = render("exercise_reason_wrong", given=said)
        if given != "valid" and not verdict.ok and self.plainly_true(given):
            wrong = render("exercise_reason_true_not_why", given=said)
        return make_feedback(
            right,
            said,
            self.answer,
            render("exercise_reason_right", given=said),
            wrong,
            sentences_of(verdict),
            verdict.cards or self.cards,
            verdict.highlighted,
        )

    def figure_html(self) -> str:
        return cards_html(self.cards)
