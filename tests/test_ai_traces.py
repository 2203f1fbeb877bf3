"""The traces are one unit a learner can rebuild: every option's score is the sum of its
shown terms, every option of the choice is scored, and the chosen one is the best.

Whether every claim inside the terms is true is the independent auditor's job
(``tests/trace_audit.py``, run by ``tests/test_trace_audit.py``): it shares no code with
the agents or the solver.

The number of decisions per level and variant is ``RUMMYKIT_TRACE_DECISIONS`` (default
500); a longer run by hand::

    RUMMYKIT_TRACE_DECISIONS=3000 python -m pytest tests/test_ai_traces.py -q
"""

from __future__ import annotations

import os
from functools import cache

import pytest

from rummykit.ai import AGENTS, Decision, make_agent
from rummykit.game import Discard, Draw, Game
from rummykit.game.observation import Observation

DECISIONS = int(os.environ.get("RUMMYKIT_TRACE_DECISIONS", "500"))
LEVEL_NAMES = sorted(AGENTS)


@cache
def decisions(level: str, name: str) -> list[tuple[Observation, Decision]]:
    """At least ``DECISIONS`` decisions of ``level`` in ``name``, over 2, 3 and 4 players
    (every seat at that level), with the observation each was made from."""
    out: list[tuple[Observation, Decision]] = []
    seed = 0
    while len(out) < DECISIONS:
        players = 2 + seed % 3
        game = Game.new(name, players=players, seed=7000 + seed)
        agents = [make_agent(level) for _ in range(players)]
        while not game.is_over:
            seat = game.current
            obs = game.observation(seat)
            decision = agents[seat].decide(obs)
            assert decision.action in obs.legal_actions
            out.append((obs, decision))
            game.play(decision.action, seat)
        seed += 1
    return out


CASES = [(level, name) for level in LEVEL_NAMES for name in ("rommi", "hungarian")]


@pytest.mark.parametrize(("level", "name"), CASES)
def test_every_option_is_the_sum_of_its_shown_terms(level: str, name: str) -> None:
    options = 0
    for obs, decision in decisions(level, name):
        trace = decision.trace
        text = str(trace)
        weighed = {c.action for c in trace.candidates}
        # every option of the choice is scored: each legal draw, or each legal discard
        draws = {a for a in obs.legal_actions if isinstance(a, Draw)}
        if obs.phase == "draw" and len(draws) > 1:
            assert weighed >= draws, f"draws not scored: {draws - weighed}\n{trace}"
        throws = {a for a in obs.legal_actions if isinstance(a, Discard)}
        if isinstance(trace.chosen, Discard) and len(throws) > 1:
            assert weighed >= throws, f"discards not scored: {throws - weighed}\n{trace}"
        for c in trace.candidates:
            assert c.terms, f"{c.action} has a score without terms"
            assert abs(c.score - sum(t.value for t in c.terms)) < 1e-9
            for term in c.terms:
                assert str(term.note)  # every term has its sentence
                if c.searched:  # shown in words, in full or on the option's one line
                    assert str(term.note) in text, f"{term.note} is not shown\n{text}"
            options += 1
            assert str(c.action) in text  # every option is shown
        # the chosen one is the best-scored option whenever options were weighed
        if trace.candidates:
            best = max(c.score for c in trace.candidates)
            chosen = [c for c in trace.candidates if c.action == trace.chosen]
            assert chosen and chosen[0].score == best
    assert options > 0


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_at_the_empty_stock_no_option_speaks_of_a_stock_card(level: str) -> None:
    """Asking the empty stock for a card ends the deal (R10): each level's trace says so,
    and scores that option by what the hand as it is pays (its cards' values)."""
    found = 0
    for obs, decision in decisions(level, "rommi"):
        if obs.phase != "draw" or obs.stock_size or decision.action != Draw("stock"):
            continue
        found += 1
        assert decision.trace.why.code.startswith("ai_why_end_deal")
        stock = next(c for c in decision.trace.candidates if c.action == Draw("stock"))
        end = [t for t in stock.terms if t.note.code == "ai_term_end_deal_R"]
        assert len(end) == 1
        paid = sum(obs.variant.card_value(c) for c in obs.hand)
        assert end[0].note.params["value"] == paid and end[0].value == -paid
    assert found >= 3
