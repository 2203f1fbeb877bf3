"""What every exercise shares: the :class:`Exercise` base class, the :class:`Feedback` on an
answer and the :class:`AnswerError` for one that can't be read.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import Any, ClassVar

from rummykit.cards import Card, format_cards
from rummykit.display import cards_html
from rummykit.errors import RummykitError
from rummykit.explain import Reason, Verdict
from rummykit.melds import variant_words
from rummykit.messages import render
from rummykit.variants import Variant
from rummykit.variants import variant as get_variant

__all__ = ["AnswerError", "Exercise", "Feedback"]


class AnswerError(RummykitError):
    """An answer could not be read; the message says, in one line, what this exercise accepts.

    In a notebook the message is all IPython shows of it — no traceback:

    >>> try:
    ...     MeldKind("K♠ A♠ 2♠").check("x45")
    ... except AnswerError as error:
    ...     error._render_traceback_()
    ["'x45' is not an answer here: answer run, set or no meld"]
    """

    def _render_traceback_(self) -> list[str]:
        """What IPython shows instead of a traceback: the one-line sentence."""
        return [str(self)]


AnswerError.__module__ = "rummykit.exercises"  # its public home, where it is imported from


def bad_answer(answer: object, accepted: str) -> AnswerError:
    if is_blank(answer):
        return AnswerError(render("exercise_no_answer", accepted=accepted))
    return AnswerError(
        render("exercise_bad_answer", answer=quoted_answer(answer), accepted=accepted)
    )


def is_blank(answer: object) -> bool:
    """Whether nothing was answered yet (``None``, ``...``, or only spaces)."""
    return answer is None or answer is Ellipsis or (isinstance(answer, str) and not answer.strip())


_SHOWN = 40  # characters of a long answer quoted back


def quoted_answer(answer: object) -> str:
    """The answer as quoted back to the learner: one line, cut short when long."""
    if isinstance(answer, str):
        text = answer
    elif isinstance(answer, Card):
        text = str(answer)
    elif isinstance(answer, (tuple, list)) and all(isinstance(c, Card) for c in answer):
        text = format_cards(answer)
    else:
        try:
            text = repr(answer)
        except Exception:  # a learner's object whose repr fails: say what type it is
            text = type(answer).__name__
    text = " ".join(text.split())
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def as_variant(rules: Variant | str) -> Variant:
    return rules if isinstance(rules, Variant) else get_variant(rules)


def variant_repr(rules: Variant) -> str:
    return repr(rules.base or rules.name) if not rules.changes() else repr(str(rules))


#: The house rules a question's wording names, so that two questions that differ only by one of
#: them don't read the same (a Rommi round scored with ``ace_high``, a Rommi turn with
#: ``discard_to_win``): every option :func:`~rummykit.melds.variant_words` can say in words.
_HOUSE_OPTIONS = (
    "ace_low",
    "ace_above_king",
    "jokers_per_meld",
    "ace_points",
    "ace_high",
    "face_points",
    "opening_threshold",
    "discard_to_win",
    "cut_card",
    "joker_exchange",
)


def house_title(rules: Variant) -> str:
    """The variant's title with its house rules in words ("Rommi with aces worth 11")."""
    return variant_words(rules, _HOUSE_OPTIONS)


# --- feedback -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Feedback:
    """What the checker says about one answer: right or wrong, and the sentences why.

    ``head`` is the verdict on the answer itself ("You said 45, but …"); ``lines`` are the
    engine's explanation of the position. ``bool(feedback)`` is ``feedback.correct``.

    As data, for a class report: ``rules`` are the rule ids the question is about, ``codes``
    the reason codes the answer turned on (the engine's reasons, or the slip a wrong number
    shows), ``kind`` the kind of exercise.

    >>> from rummykit.exercises import MeldKind
    >>> feedback = MeldKind("K♠ A♠ 2♠").check("run")
    >>> feedback.kind, feedback.codes, feedback.rules
    ('meld_kind', ('run_wraps',), ('H4',))
    """

    correct: bool
    given: str
    expected: str
    head: str
    lines: tuple[str, ...] = ()
    cards: tuple[Card, ...] = ()
    highlighted: frozenset[Card] = frozenset()
    codes: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    kind: str = ""
    others: tuple[str, ...] = ()  # the other right answers, when there are several
    detail: str = ""  # text to read after the sentences, as it is (a trace, say)

    def __bool__(self) -> bool:
        return self.correct

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the judgement, the sentences and what they are about.

        >>> from rummykit.exercises import OpeningValue
        >>> OpeningValue(["A♥ 2♥ 3♥", "Q♠ Q♦ Q♣"]).check(36).to_dict()["codes"]
        ['exercise_mistake_ace']
        """
        return {
            "kind": self.kind,
            "correct": self.correct,
            "given": self.given,
            "expected": self.expected,
            "message": self.message,
            "codes": list(self.codes),
            "rules": list(self.rules),
            "others": list(self.others),
        }

    @property
    def message(self) -> str:
        """The feedback as one paragraph: the mark, the verdict on the answer, the sentences."""
        mark = render("exercise_mark_right" if self.correct else "exercise_mark_wrong")
        return " ".join([f"{mark} {self.head}", *self.lines])

    def __str__(self) -> str:
        """The paragraph, then the :attr:`detail` (a trace) on the lines below."""
        return f"{self.message}\n{self.detail}" if self.detail else self.message

    def __repr__(self) -> str:
        return f"Feedback(correct={self.correct}, given={self.given!r}, expected={self.expected!r})"

    def _repr_html_(self) -> str:
        mark = render("exercise_mark_right" if self.correct else "exercise_mark_wrong")
        colour = "#1a7f37" if self.correct else "#b93c0b"  # 5.6:1 on white (WCAG AA)
        items = "".join(f"<li>{escape(line)}</li>" for line in self.lines)
        shown = cards_html(self.cards, self.highlighted) if self.cards else ""
        detail = f"<pre>{escape(self.detail)}</pre>" if self.detail else ""
        return (
            '<div class="rk-feedback" role="status">'
            f'<div style="color:{colour};font-weight:bold">{escape(mark)} {escape(self.head)}</div>'
            f"{shown}<ul>{items}</ul>{detail}</div>"
        )


def make_feedback(
    right: bool,
    given: str,
    expected: str,
    head_right: str,
    head_wrong: str,
    lines: Iterable[str],
    cards: Sequence[Card] = (),
    highlighted: Iterable[Card] = (),
    codes: Iterable[str] = (),
) -> Feedback:
    return Feedback(
        right,
        given,
        expected,
        head_right if right else head_wrong,
        tuple(lines),
        tuple(cards),
        frozenset(highlighted),
        codes=tuple(codes),
    )


def sentences_of(verdict: Verdict) -> tuple[str, ...]:
    return tuple(str(r) for r in verdict.reasons)


def rules_of(reasons: Iterable[Reason]) -> tuple[str, ...]:
    """The rule ids these reasons cite, each once, in order."""
    return tuple(dict.fromkeys(r.rule for r in reasons if r.rule))


def code_of(sentence: str) -> tuple[str, ...]:
    """The template code a rendered sentence was made from, if it remembers it."""
    code = getattr(sentence, "code", None)
    return (code,) if isinstance(code, str) else ()


# --- the base -------------------------------------------------------------------------------


class Exercise(ABC):
    """A question about one position, with a checker that explains.

    Subclasses say what they show (:attr:`prompt`, :meth:`figure_html`), the right answer
    in words (:attr:`answer`), the explanation (:attr:`explanation`) and how an answer is
    judged (:meth:`check`).
    """

    kind: ClassVar[str] = "exercise"
    variant: Variant

    @property
    @abstractmethod
    def prompt(self) -> str:
        """The question, as a learner reads it."""

    @property
    @abstractmethod
    def accepts(self) -> str:
        """What an answer looks like (said when an answer can't be read)."""

    @property
    @abstractmethod
    def answer(self) -> str:
        """The right answer, in words."""

    @property
    @abstractmethod
    def explanation(self) -> tuple[str, ...]:
        """Why the answer is right: the engine's sentences."""

    @property
    @abstractmethod
    def solution(self) -> Any:
        """A right answer, in a form :meth:`check` reads (a word, a number, a card, a
        move): what an answer key's solution cell assigns."""

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids this question is about (for a class report: what was missed)."""
        return ()

    @property
    def codes(self) -> tuple[str, ...]:
        """The reason codes of the position (what makes the right answer right)."""
        return ()

    def check(self, answer: object) -> Feedback:
        """Judge an answer: right or wrong, and why, in the engine's sentences.

        An answer that can't be read — any text, any object — raises :class:`AnswerError`,
        one line saying what this exercise accepts; never another error.
        """
        if is_blank(answer):
            raise bad_answer(answer, self.accepts)
        try:
            feedback = self._judge(answer)
        except AnswerError:
            raise
        except (ValueError, TypeError, OverflowError):  # a card or an action that doesn't read
            raise bad_answer(answer, self.accepts) from None
        return replace(
            feedback,
            kind=self.kind,
            rules=feedback.rules or self.rules,
            codes=feedback.codes or self.codes,
        )

    @abstractmethod
    def _judge(self, answer: object) -> Feedback:
        """Read and judge an answer that is not blank (:meth:`check` does the rest)."""

    def figure_html(self) -> str:
        """The position drawn (cards as SVG)."""
        return ""

    @property
    def key(self) -> str:
        """The answer key entry: the answer and the explanation, in sentences."""
        answer = self.answer.rstrip(".")
        return " ".join([render("exercise_key", answer=answer), *self.explanation])

    def _repr_html_(self) -> str:
        prompt = "<br>".join(escape(line) for line in self.prompt.split("\n"))
        return (
            '<div class="rk-exercise">'
            f"<p><b>{prompt}</b></p>{self.figure_html()}"
            f'<p class="rk-accepts">{escape(self.accepts)}</p></div>'
        )
