"""Step forward and back through an AI's decisions in a recorded or live game.

>>> from rummykit.game import Game
>>> from rummykit.ai import make_agent
>>> game = Game.new("rommi", players=2, seed=2)
>>> for _ in range(6):
...     _ = game.play(make_agent("normal").decide(game.observation(game.current)).action)
>>> stepper = AIStepper(game, agents="normal")
>>> stepper
AIStepper('rommi', decisions=6, seats=[0, 1])
>>> stepper.go(2); stepper.position
2

Agents are replayed on the observation each seat had at that moment (they see nothing
else), so the trace shown is exactly the reasoning behind that move.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from rummykit.ai import Agent, Decision, make_agent
from rummykit.ai.planning import public_takes
from rummykit.cards import Card
from rummykit.display import cards_html
from rummykit.game import Game
from rummykit.game.actions import Action
from rummykit.game.observation import Observation
from rummykit.game.record import load, record_of
from rummykit.language import check_language, speaks_own_language
from rummykit.messages import render

__all__ = ["AIStepper", "NamedSlider", "Step"]


class NamedSlider(anywidget.AnyWidget):
    """A whole-number slider that screen readers can name: a native range input with an
    ``aria-label`` (ipywidgets' IntSlider leaves its handle nameless)."""

    _esm = """
    function render({ model, el }) {
      const input = document.createElement("input");
      const text = document.createElement("span");
      const out = document.createElement("output");
      input.type = "range";
      const label = document.createElement("label");
      label.append(text, input, out);
      el.append(label);
      const draw = () => {
        text.textContent = model.get("description") + " ";
        input.min = model.get("min");
        input.max = model.get("max");
        input.value = model.get("value");
        input.setAttribute("aria-label", model.get("label"));
        out.textContent = String(model.get("value"));
      };
      input.addEventListener("input", () => {
        model.set("value", Number(input.value));
        model.save_changes();
      });
      for (const name of ["value", "min", "max", "label", "description"]) model.on(`change:${name}`, draw);
      draw();
    }
    export default { render };
    """
    _css = ".rk-named-slider input { vertical-align: middle; }"

    value = traitlets.Int(1).tag(sync=True)
    min = traitlets.Int(1).tag(sync=True)
    max = traitlets.Int(1).tag(sync=True)
    description = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)


@dataclass(frozen=True)
class Step:
    """One AI decision in the game: what it saw, what it thought, what was played."""

    number: int
    seat: int
    observation: Observation
    decision: Decision
    played: Action


class AIStepper(widgets.VBox):
    """A scrubber over every decision the AI seats made in a game."""

    @speaks_own_language
    def __init__(
        self,
        game: Game | str,
        agents: str | Agent | dict[int, str | Agent] = "hard",
        seats: list[int] | None = None,
        *,
        language: str | None = None,
    ) -> None:
        self.language = None if language is None else check_language(language)
        source = load(json.loads(game)) if isinstance(game, str) else game
        self.variant_name = source.variant.name
        record = record_of(source)
        seats = seats if seats is not None else list(range(source.players))
        chosen = {s: self._agent(agents, s) for s in seats}
        self.steps = self._replay(record, chosen)
        self.seats = sorted(chosen)
        self.position = 0
        # the slider counts decisions from 1, as the text does ("Decision 3 of 10")
        self._slider = NamedSlider(
            min=1,
            max=max(1, len(self.steps)),
            value=1,
            description=render("stepper_move"),
            label=render("stepper_slider_label"),
        )
        # plain text arrows: no icon font (Voilà would fetch Font Awesome for it)
        self._prev = widgets.Button(description=render("stepper_prev"))
        self._next = widgets.Button(description=render("stepper_next"))
        self._html = widgets.HTML()
        self._slider.observe(lambda change: self.go(change["new"] - 1), names="value")
        self._prev.on_click(lambda _b: self.go(self.position - 1))
        self._next.on_click(lambda _b: self.go(self.position + 1))
        # ipywidgets' constructors carry no annotations (see pyproject's mypy section)
        super().__init__([widgets.HBox([self._prev, self._slider, self._next]), self._html])  # type: ignore[no-untyped-call]
        self.go(0)

    @staticmethod
    def _agent(agents: str | Agent | dict[int, str | Agent], seat: int) -> Agent:
        choice = agents.get(seat, "hard") if isinstance(agents, dict) else agents
        return make_agent(choice) if isinstance(choice, str) else choice

    @staticmethod
    def _replay(record: dict[str, Any], agents: dict[int, Agent]) -> list[Step]:
        actions = record["actions"]
        game = load({**record, "actions": []})
        steps: list[Step] = []
        for item in actions:
            seat = item["seat"]
            action = Action.from_dict({k: v for k, v in item.items() if k != "seat"})
            if seat in agents and game.phase in ("draw", "play"):
                obs = game.observation(seat)
                steps.append(Step(len(steps), seat, obs, agents[seat].decide(obs), action))
            game.play(action, seat)
        return steps

    def __repr__(self) -> str:
        return f"AIStepper('{self.variant_name}', decisions={len(self.steps)}, seats={self.seats})"

    @speaks_own_language
    def go(self, position: int) -> None:
        """Show decision number ``position`` (clamped to the game)."""
        if not self.steps:
            self._html.value = html.escape(render("stepper_empty"))
            return
        self.position = max(0, min(position, len(self.steps) - 1))
        if self._slider.value != self.position + 1:
            self._slider.value = self.position + 1
        self._html.value = self.step_html(self.steps[self.position])

    @speaks_own_language
    def step_html(self, step: Step) -> str:
        """The observation, the trace and the move played, as HTML."""
        return decision_html(step, len(self.steps))


def _memory(seat: int, taken: Sequence[Card]) -> str:
    """What the agent remembers of the next seat's takes from the discard pile."""
    if not taken:
        return render("stepper_memory_none", seat=seat)
    return render("stepper_memory", seat=seat, cards=taken)


def decision_html(step: Step, total: int) -> str:
    """One decision as HTML: the observation, the trace and the move played (of ``total``)."""
    obs = step.observation
    nxt = (step.seat + 1) % obs.players
    taken = public_takes(obs, nxt)
    melds = "".join(
        f"<div>{html.escape(render('widget_meld_label', number=i + 1, owner=tm.owner, cards=tm.meld.cards))}"
        f"{cards_html(tm.meld.cards)}</div>"
        for i, tm in enumerate(obs.table)
    )
    top = obs.discard_top
    parts = [
        f"<h4>{html.escape(render('stepper_title', number=step.number + 1, total=total, seat=step.seat))}</h4>",
        f"<div>{html.escape(render('stepper_hand'))}</div>{cards_html(obs.hand)}",
        f"<div>{html.escape(render('stepper_discard', card=top or '—', stock=obs.stock_size))}</div>",
        melds or f"<div>{html.escape(render('widget_no_melds'))}</div>",
        f"<div>{html.escape(_memory(nxt, taken))}</div>",
        step.decision.trace._repr_html_(),
    ]
    if step.played != step.decision.action:
        parts.append(
            f"<p><b>{html.escape(render('stepper_played_other', action=str(step.played)))}</b></p>"
        )
    return "".join(parts)
