"""Decisions and their reasoning traces: the AI's thinking, as data.

A :class:`Trace` holds the steps an agent took, every candidate it weighed with its score
and the reasons for that score, and why the winner won. It prints as text, renders as HTML
with the cards drawn, and the widgets step through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from rummykit.cards import Card
from rummykit.game.actions import Action
from rummykit.messages import TEMPLATES, render

__all__ = ["Candidate", "Decision", "Note", "Term", "Trace", "action_cards", "gap", "signed"]


@dataclass(frozen=True, slots=True)
class Note:
    """One sentence of reasoning, from a template keyed by ``code``."""

    code: str
    params: dict[str, Any] = field(default_factory=dict, hash=False)
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        return render(self.code, self.params)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"code": self.code, "message": str(self), "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Term:
    """One named part of an option's score, in expected points (higher is better): its
    stable ``name``, its ``value``, and the sentence (``note``) that says what was counted.

    >>> term = Term("deadwood_after", -12.0, Note("ai_say", {"text": "12 points left"}))
    >>> str(term)
    '−12.0  12 points left'
    """

    name: str
    value: float
    note: Note

    def __str__(self) -> str:
        return render("ai_term", value=signed(self.value), text=str(self.note))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "name": self.name,
            "value": self.value,
            "label": render(f"ai_label_{self.name}")
            if f"ai_label_{self.name}" in TEMPLATES
            else self.name,
            "note": self.note.to_dict(),
        }


def gap(high: float, low: float) -> str:
    """How far apart two scores are as they are shown, to the tenth (``"0.0"``: shown the
    same, a tie).

    >>> gap(9.55, 9.51), gap(9.54, 9.46), gap(-12.04, -14.0)
    ('0.1', '0.0', '2.0')
    """
    return f"{round(high, 1) - round(low, 1):.1f}".replace("-0.0", "0.0")


def signed(value: float) -> str:
    """A score as text, with its sign and one decimal: ``+3.0``, ``−12.5``, ``0.0``."""
    text = f"{value:+.1f}"
    if text in ("+0.0", "-0.0"):
        return "0.0"
    return text.replace("-", "−")


@dataclass(frozen=True, slots=True)
class Candidate:
    """An option the agent weighed: the action, its score (higher is better) and why.

    The built-in agents score every option as a sum of named :class:`Term` s in expected
    points, so ``score == sum(t.value for t in terms)``; ``plan`` says what the option keeps
    and waits for, and ``searched`` is false for an option the search scored only roughly
    (the trace collapses those into one line saying so). An agent of your own may give a
    score and ``notes`` alone.
    """

    action: Action
    score: float
    notes: tuple[Note, ...] = ()
    terms: tuple[Term, ...] = ()
    plan: Note | None = None
    searched: bool = True

    @classmethod
    def of(
        cls,
        action: Action,
        terms: Sequence[Term],
        *,
        plan: Note | None = None,
        searched: bool = True,
    ) -> Candidate:
        """The option whose score is the sum of ``terms``; its one note lists them (value
        and label), for tools that read notes."""
        return cls(
            action, sum(t.value for t in terms), (_summary(terms),), tuple(terms), plan, searched
        )

    def with_terms(self, *more: Term) -> Candidate:
        """The same option with more terms added to its score."""
        terms = (*self.terms, *more)
        return Candidate(
            self.action,
            self.score + sum(t.value for t in more),
            (_summary(terms),),
            terms,
            self.plan,
            self.searched,
        )

    def why(self) -> str:
        """The reasons in one line: its terms (value and label) or its notes."""
        if self.terms:
            return str(_summary(self.terms))
        return "; ".join(str(n) for n in self.notes)

    def __str__(self) -> str:
        return render(
            "ai_candidate", action=str(self.action), why=self.why(), score=signed(self.score)
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "action": self.action.to_dict(),
            "text": str(self.action),
            "score": self.score,
            "notes": [n.to_dict() for n in self.notes],
            "terms": [t.to_dict() for t in self.terms],
            "plan": self.plan.to_dict() if self.plan is not None else None,
            "searched": self.searched,
        }


def agent_name(name: str) -> str:
    """A built-in level's name in the current language (``easy``); another agent's as it is."""
    code = f"ai_level_{name}"
    return render(code) if code in TEMPLATES else name


def _summary(terms: Sequence[Term]) -> Note:
    """One note with every term's value and sentence, in one line:
    ``−18.0 18 points of deadwood left in hand: …; −2.5 throwing it gives up …``."""
    text = "; ".join(
        render("ai_term_inline", value=signed(t.value), text=str(t.note)) for t in terms
    )
    return Note("ai_terms", {"terms": text})


TOP = 3  # options shown in full, with their terms and plan


@dataclass(frozen=True, slots=True)
class Trace:
    """The reasoning behind one decision: the steps, every option weighed, and why the
    winner won.

    ``steps`` are :class:`Note` s in order; ``candidates`` the options with their scores
    (each the sum of its terms); ``chosen`` the action played; ``why`` the sentence that
    says why. ``str(trace)`` shows the best options in full — every term of their score,
    their plan and how far each is behind the best — then the others one per line, and
    collapses the options the search did not look at closely into one line that says so.
    """

    agent: str
    seat: int
    steps: tuple[Note, ...]
    candidates: tuple[Candidate, ...]
    chosen: Action
    why: Note

    def ranked(self) -> list[Candidate]:
        """The options, best first (the chosen one first among equals)."""
        return sorted(self.candidates, key=lambda c: (-c.score, c.action != self.chosen))

    def lines(self) -> list[str]:
        """The trace as text lines."""
        lines = [render("ai_header", agent=agent_name(self.agent), seat=self.seat)]
        lines += [f"  - {n}" for n in self.steps]
        ranked = self.ranked()
        if ranked:
            lines.append(render("ai_candidates_header"))
            best = ranked[0].score
            # options the search scored roughly share one sentence and go on one line; one
            # with a term of its own (a joker kept) is shown with its terms like the others
            rough = [c for c in ranked if not c.searched and len(c.terms) == 1]
            searched = [c for c in ranked if c not in rough]
            for i, c in enumerate(searched):
                mark = "→" if c.action == self.chosen else " "
                head = render("ai_option", action=str(c.action), score=signed(c.score))
                if c.score != best or i:
                    diff = gap(best, c.score)
                    head += (
                        render("ai_as_good") if diff == "0.0" else render("ai_behind", diff=diff)
                    )
                if i < TOP and c.terms:
                    lines.append(f"  {mark} {head}")
                    lines += [f"        {t}" for t in c.terms]
                    if c.plan is not None:
                        lines.append(f"        {render('ai_plan', text=str(c.plan))}")
                elif c.terms:  # one line: the same sentences, joined
                    lines.append(f"  {mark} " + render("ai_option_line", head=head, terms=c.why()))
                else:
                    lines.append(f"  {mark} {c}")
            if rough:
                reason = _rough_reason(rough)
                options = "; ".join(
                    render("ai_rough_option", action=str(c.action), score=signed(c.score))
                    for c in rough
                )
                if reason is None:
                    line = render("ai_not_searched_plain", count=len(rough), options=options)
                else:
                    line = render(
                        "ai_not_searched", count=len(rough), options=options, why=str(reason)
                    )
                lines.append("    " + line)
        lines.append(render("ai_chosen", action=str(self.chosen), why=str(self.why)))
        return lines

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what the widgets step through)."""
        return {
            "agent": self.agent,
            "seat": self.seat,
            "steps": [n.to_dict() for n in self.steps],
            "candidates": [c.to_dict() for c in self.ranked()],
            "chosen": self.chosen.to_dict(),
            "chosen_text": str(self.chosen),
            "why": self.why.to_dict(),
        }

    def _repr_html_(self) -> str:
        from rummykit.display import cards_html

        steps = "".join(
            f"<li>{escape(str(n))}{cards_html(n.cards) if n.cards else ''}</li>" for n in self.steps
        )
        rows = "".join(
            "<tr{}><td>{}{}</td><td style='text-align:right'>{}</td><td>{}</td></tr>".format(
                " style='font-weight:bold'" if c.action == self.chosen else "",
                cards_html(action_cards(c.action)) if action_cards(c.action) else "",
                escape(str(c.action)),
                escape(render("ai_score_cell", score=signed(c.score))),
                "<br>".join(escape(str(t)) for t in c.terms)
                + (f"<br><i>{escape(str(c.plan))}</i>" if c.plan is not None else "")
                if c.terms
                else escape("; ".join(str(n) for n in c.notes)),
            )
            for c in self.ranked()
        )
        table = (
            "<table><tr><th>{}</th><th>{}</th><th>{}</th></tr>{}</table>".format(
                *(escape(render(k)) for k in ("ai_col_move", "ai_col_score", "ai_col_why")), rows
            )
            if rows
            else ""
        )
        return (
            '<div class="rk-trace">'
            f"<b>{escape(render('ai_header', agent=agent_name(self.agent), seat=self.seat))}</b>"
            f"<ul>{steps}</ul>{table}"
            f"<p>{cards_html(action_cards(self.chosen)) if action_cards(self.chosen) else ''}"
            f"{escape(render('ai_chosen', action=str(self.chosen), why=str(self.why)))}</p>"
            "</div>"
        )


def _rough_reason(rough: Sequence[Candidate]) -> Note | None:
    """Why the options not searched were scored as they were: their one shared sentence."""
    notes = {str(c.terms[0].note): c.terms[0].note for c in rough if c.terms}
    return next(iter(notes.values())) if len(notes) == 1 else None


def action_cards(action: Action) -> tuple[Card, ...]:
    """The cards an action moves (none for a draw, an undo or a cut)."""
    cards = getattr(action, "cards", None)
    if isinstance(cards, tuple):
        return cards
    card = getattr(action, "card", None)
    return (card,) if isinstance(card, Card) else ()


@dataclass(frozen=True, slots=True)
class Decision:
    """What an agent returns: the action and the trace of why."""

    action: Action
    trace: Trace

    def __str__(self) -> str:
        return str(self.trace)

    def _repr_html_(self) -> str:
        return self.trace._repr_html_()
