"""Decisions and their reasoning traces: the AI's thinking, as data.

A :class:`Trace` holds the steps an agent took, every candidate it weighed with its score
and the reasons for that score, and why the winner won. It prints as text, renders as HTML
with the cards drawn, and the widgets step through it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from rummykit.cards import Card
from rummykit.game.actions import Action
from rummykit.messages import render

__all__ = ["Candidate", "Decision", "Note", "Trace", "action_cards"]


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
class Candidate:
    """An option the agent weighed: the action, its score (higher is better), and why."""

    action: Action
    score: float
    notes: tuple[Note, ...] = ()

    def __str__(self) -> str:
        why = "; ".join(str(n) for n in self.notes)
        return render("ai_candidate", action=str(self.action), why=why, score=f"{self.score:.1f}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "action": self.action.to_dict(),
            "text": str(self.action),
            "score": round(self.score, 3),
            "notes": [n.to_dict() for n in self.notes],
        }


@dataclass(frozen=True, slots=True)
class Trace:
    """The reasoning behind one decision."""

    agent: str
    seat: int
    steps: tuple[Note, ...]
    candidates: tuple[Candidate, ...]
    chosen: Action
    why: Note

    def __str__(self) -> str:
        lines = [render("ai_header", agent=self.agent, seat=self.seat)]
        lines += [f"  - {n}" for n in self.steps]
        if self.candidates:
            lines.append(render("ai_candidates_header"))
            for c in sorted(self.candidates, key=lambda c: -c.score):
                mark = "→" if c.action == self.chosen else " "
                lines.append(f"  {mark} {c}")
        lines.append(render("ai_chosen", action=str(self.chosen), why=str(self.why)))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what the widgets step through)."""
        return {
            "agent": self.agent,
            "seat": self.seat,
            "steps": [n.to_dict() for n in self.steps],
            "candidates": [c.to_dict() for c in self.candidates],
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
            "<tr{}><td>{}{}</td><td style='text-align:right'>{:.1f}</td><td>{}</td></tr>".format(
                " style='font-weight:bold'" if c.action == self.chosen else "",
                cards_html(action_cards(c.action)) if action_cards(c.action) else "",
                escape(str(c.action)),
                c.score,
                escape("; ".join(str(n) for n in c.notes)),
            )
            for c in sorted(self.candidates, key=lambda c: -c.score)
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
            f"<b>{escape(render('ai_header', agent=self.agent, seat=self.seat))}</b>"
            f"<ul>{steps}</ul>{table}"
            f"<p>{cards_html(action_cards(self.chosen)) if action_cards(self.chosen) else ''}"
            f"{escape(render('ai_chosen', action=str(self.chosen), why=str(self.why)))}</p>"
            "</div>"
        )


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
