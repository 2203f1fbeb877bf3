"""Every sentence of the computer players' reasoning is true of what the seat saw (issue 26).

The claims are re-derived by tests/trace_audit.py with the arithmetic of tests/rulebook.py,
written for the tests from the rulebooks: no code shared with rummykit.ai or rummykit.solver.
What is checked exactly and what only for consistency is listed in trace_audit's docstring.

``RUMMYKIT_AUDIT_DECISIONS`` sets how many decisions the main test audits (default 3000:
both variants, 2, 3 and 4 players, the four levels mixed over the seats, in English,
Portuguese and Finnish). ``benchmarks/trace_audit.py`` runs the same audit over 10,000.
"""

from __future__ import annotations

import os
from dataclasses import replace
from gettext import NullTranslations

import pytest
import trace_audit
from trace_audit import Finding, audit, audit_hint, audit_languages, reproducer_code

from rummykit.ai import Decision, Note, Trace, make_agent
from rummykit.cards import parse_card
from rummykit.game import Discard, Draw, Game, Observation, Undo, from_position
from rummykit.language import register

DECISIONS = int(os.environ.get("RUMMYKIT_AUDIT_DECISIONS", "3000"))


def decision_at(
    variant: str, players: int, seed: int, levels: list[str], moves: int
) -> tuple[Observation, Decision]:
    """Replay a seeded game ``moves`` actions in, and the decision of the seat to act."""
    game = Game.new(variant, players=players, seed=seed)
    agents = [make_agent(level) for level in levels]
    for _ in range(moves):
        game.play(agents[game.current].decide(game.observation(game.current)).action)
    obs = game.observation(game.current)
    return obs, agents[game.current].decide(obs)


def summary(findings: list[Finding]) -> str:
    return "\n".join(str(f) for f in findings)


def of(findings: list[Finding], *codes: str) -> list[Finding]:
    return [f for f in findings if f.code in codes]


# --- the audit over thousands of decisions ---------------------------------------------------


def test_every_claim_of_every_level_is_true_in_every_language() -> None:
    report = trace_audit.run(DECISIONS, seed=2026)
    counts = report.decisions
    assert counts["all"] >= DECISIONS
    for level in trace_audit.LEVELS:
        assert counts[level] >= DECISIONS // 10, (level, dict(counts))
    for variant in ("rommi", "hungarian"):
        assert counts[f"variant:{variant}"] >= DECISIONS // 4
    for players in (2, 3, 4):
        assert counts[f"players:{players}"] >= DECISIONS // 10
    lines = [
        f"{report.false['all']} of {counts['all']} decisions hold a false claim;"
        " by class (decisions), with one reproducer each:"
    ]
    for code, entry in report.to_dict()["classes"].items():
        example = entry["example"]
        lines += [
            f"- {code} ({entry['decisions']}): {example['where']}: “{example['claim']}” — "
            f"{example['truth']}",
            "  " + example["code"].replace("\n", "\n  "),
        ]
    if report.classes:
        pytest.fail("\n".join(lines), pytrace=False)


def test_every_sentence_an_agent_may_say_has_a_checker() -> None:
    assert trace_audit.claim_codes() - trace_audit.CHECKED == set()


# --- one regression test per class of issue 26, on its reproducer -----------------------------


def _issue_position() -> Observation:
    """Issue 26's position: hard at seat 0 to draw, 7♣ on the discard pile."""
    game = from_position(
        "rommi",
        hands=["5s 6s 7s 10s 5h 7h 10d Qd 2c 10c", "4h 9h Kh Ks Kd 8c 9c"],
        discard="4d 7c",
        table=[(1, "2s 3s 4s"), (1, "3h 3d 3c")],
        phase="draw",
    )
    return game.observation(0)


def test_least_deadwood_counts_any_subset_of_lay_offs() -> None:
    """Taking 7♣ leaves 7 (7♠ 7♥ 7♣, 10♠ 10♦ 10♣, 5♠ 6♠ laid off onto 2♠ 3♠ 4♠, Q♦ thrown),
    not 18; a stock card leaves 19.56 on average, not 19.9."""
    obs = _issue_position()
    found = audit(obs, make_agent("hard").decide(obs))
    wrong = of(
        found,
        "deadwood_not_least",
        "deadwood_no_layoffs",
        "deadwood_own_melds_only",
        "expected_deadwood",
    )
    assert not wrong, summary(wrong)


def test_unseen_leaves_out_the_cards_seen_taken() -> None:
    """Seat 0 took the Q♦ from the pile and still holds it: 87 cards are unseen, not 88."""
    obs, decision = decision_at("hungarian", 4, 54872, ["hard", "easy", "normal", "hard"], 14)
    wrong = of(audit(obs, decision), "unseen_count", "outs_known_held")
    assert not wrong, summary(wrong)


def test_outs_leave_out_the_cards_seen_taken() -> None:
    """Hard: “2 of the 27 unseen cards take me out (4♥ 4♣)” while seat 1 holds the 4♣;
    normal: “2 unseen cards … 5♠ 5♦” while the 5♠ is known to be held."""
    for reproducer in (
        ("rommi", 3, 72906, ["hard", "hard", "greedy"], 30),
        ("rommi", 4, 23163, ["normal", "normal", "normal", "easy"], 3),
    ):
        obs, decision = decision_at(*reproducer)
        wrong = of(audit(obs, decision), "outs_known_held", "unseen_count")
        assert not wrong, summary(wrong)


def test_later_draws_count_no_swap() -> None:
    """“counting only the cards that make melds or go onto the table (a swap for a lower card
    doesn't count here)”: the K♥ option's figure must count no swap."""
    obs, decision = decision_at("hungarian", 2, 55728, ["hard", "normal"], 17)
    wrong = [f for f in of(audit(obs, decision), "later_draws_one") if "K♥" in f.where]
    assert not wrong, summary(wrong)


def test_plan_counts_every_card_that_lowers_the_deadwood() -> None:
    """“waits for A♦ A♣ (2 unseen cards lower its deadwood)”: 14 do; the hint repeats it."""
    obs, decision = decision_at("rommi", 3, 65189, ["hard", "easy", "normal"], 30)
    found = audit(obs, decision)
    wrong = of(found + audit_hint(obs, decision, found), "plan_count", "plan_cards")
    assert not wrong, summary(wrong)


def test_more_than_is_never_said_of_equal_values() -> None:
    """“more than the 5 searched options leave (at most 36)” for an option worth 36."""
    obs, decision = decision_at("hungarian", 3, 18054, ["easy", "hard", "hard"], 8)
    wrong = of(audit(obs, decision), "more_than_equal", "not_searched_limit")
    assert not wrong, summary(wrong)


def test_a_kept_lay_off_is_named_once() -> None:
    """Hard said “I keep Q♣ Q♣ in hand” of one Q♣ that fits two melds (the audit of
    2026-12-02 found it; the deck has one Q♣)."""
    obs, decision = decision_at("rommi", 4, 945215, ["easy", "normal", "greedy", "hard"], 7)
    kept = [n for n in decision.trace.steps if n.code.startswith("ai_hold_layoffs")]
    assert kept, "the decision keeps a lay-off"
    assert all(len(set(n.cards)) == len(n.cards) for n in kept)
    assert not audit(obs, decision), summary(audit(obs, decision))


def test_no_otherwise_without_an_if() -> None:
    """Hard's stock option at a draw said “otherwise (100%)” with no “if” before it."""
    obs = _issue_position()
    wrong = of(
        audit(obs, make_agent("hard").decide(obs)), "otherwise_without_if", "otherwise_weight"
    )
    assert not wrong, summary(wrong)


@pytest.mark.parametrize("language", ["en", "pt", "fi"])
def test_no_empty_list(language: str) -> None:
    """“0 of the 90 unseen cards let me open next turn (), escaping the flat 100”."""
    obs, decision = decision_at("hungarian", 3, 68911, ["hard", "greedy", "greedy"], 4)
    found = (
        audit(obs, decision) if language == "en" else audit_languages(decision, True, (language,))
    )
    wrong = of(found, "empty_list")
    assert not wrong, summary(wrong)


def test_a_take_that_was_undone_is_forgotten() -> None:
    """Seat 1 takes the discard, takes it back and draws from the stock: no later trace may
    say that seat 1 took that card."""
    game = Game.new("rommi", players=3, seed=4)
    agents = [make_agent("hard") for _ in range(3)]
    for _ in range(6):
        game.play(agents[game.current].decide(game.observation(game.current)).action)
    assert game.current == 1 and game.phase == "draw"
    game.play(Draw("discard"))
    game.play(Undo())
    game.play(Draw("stock"))
    decision = agents[1].decide(game.observation(1))
    while not isinstance(decision.action, Discard):
        game.play(decision.action)
        decision = agents[1].decide(game.observation(1))
    game.play(decision.action)
    wrong: list[Finding] = []
    for _ in range(6):
        obs = game.observation(game.current)
        decision = agents[game.current].decide(obs)
        wrong += of(audit(obs, decision), "memory", "unseen_count", "outs_known_held")
        game.play(decision.action)
    assert not wrong, summary(wrong)


def test_a_tie_is_no_lead() -> None:
    """“0.0 ahead of discard K♣” — in the trace and in the hint: a tie is “as good as”."""
    obs, decision = decision_at("rommi", 3, 30260, ["greedy", "normal", "hard"], 21)
    wrong = of(audit(obs, decision) + audit_hint(obs, decision), "tie_as_lead")
    assert not wrong, summary(wrong)


# --- the audit can fail: doctored traces -------------------------------------------------------


def _clean_decision(
    level: str, variant: str, want: str, codes: tuple[str, ...]
) -> tuple[Observation, Decision]:
    """The first decision of ``level`` (every seat) whose trace holds a note ``want`` and
    none of the findings ``codes`` (the ones a doctored copy must then show)."""
    for seed in range(1, 200):
        game = Game.new(variant, players=2, seed=seed)
        agent = make_agent(level)
        for _ in range(40):
            if game.is_over:
                break
            obs = game.observation(game.current)
            decision = agent.decide(obs)
            says = any(n.code == want for n, _ in trace_audit.notes_of(decision.trace))
            if says and not of(audit(obs, decision), *codes):
                return obs, decision
            game.play(decision.action)
    raise AssertionError(f"no decision with {want} and without {codes}")


DEADWOOD = ("deadwood_not_least", "deadwood_no_layoffs", "deadwood_own_melds_only")


def _doctor(trace: Trace, code: str, change: dict[str, object]) -> Trace:
    """The trace with the first note ``code`` of a term given other parameters."""
    done = False
    candidates = []
    for c in trace.candidates:
        terms = []
        for t in c.terms:
            if t.note.code == code and not done:
                t = replace(t, note=replace(t.note, params={**t.note.params, **change}))
                done = True
            terms.append(t)
        candidates.append(replace(c, terms=tuple(terms)))
    assert done, code
    return replace(trace, candidates=tuple(candidates))


def test_a_number_off_by_one_digit_is_caught() -> None:
    obs, decision = _clean_decision("normal", "rommi", "ai_term_deadwood_left", DEADWOOD)
    note = next(
        n for n, _ in trace_audit.notes_of(decision.trace) if n.code == "ai_term_deadwood_left"
    )
    doctored = _doctor(decision.trace, "ai_term_deadwood_left", {"value": note.params["value"] + 1})
    assert of(audit(obs, doctored), *DEADWOOD)


def test_a_card_swapped_is_caught() -> None:
    obs, decision = _clean_decision("normal", "rommi", "ai_term_deadwood_left", ("deadwood_cards",))
    note = next(
        n for n, _ in trace_audit.notes_of(decision.trace) if n.code == "ai_term_deadwood_left"
    )
    named = list(note.params["cards"])
    other = next(c for c in obs.hand if c not in named)
    swapped = (other, *named[1:])
    doctored = _doctor(decision.trace, "ai_term_deadwood_left", {"cards": swapped})
    assert of(audit(obs, doctored), "deadwood_cards"), summary(audit(obs, doctored))


def test_an_unseen_count_off_by_one_is_caught() -> None:
    obs, decision = _clean_decision("hard", "rommi", "ai_term_next_draw", ("unseen_count",))
    note = next(n for n, _ in trace_audit.notes_of(decision.trace) if n.code == "ai_term_next_draw")
    for total in (note.params["total"] + 1, note.params["total"] - 1):
        doctored = _doctor(decision.trace, "ai_term_next_draw", {"total": total})
        assert of(audit(obs, doctored), "unseen_count")


def test_a_tie_stated_as_a_lead_and_a_wrong_choice_are_caught() -> None:
    obs, decision = _clean_decision(
        "normal", "rommi", "ai_term_deadwood_left", ("score_sum", "choice", "tie_as_lead")
    )
    trace = decision.trace
    ranked = trace.ranked()
    second = ranked[1]
    equal = replace(
        trace,
        candidates=tuple(
            replace(c, score=ranked[0].score) if c is second else c for c in trace.candidates
        ),
    )
    assert of(audit(obs, equal), "score_sum")
    worse = replace(trace, chosen=ranked[-1].action)
    assert of(audit(obs, worse), "choice")
    why = Note(
        "ai_why_discard_ahead",
        {"card": parse_card("K♠"), "score": "−1.0", "diff": "0.0", "other": "x"},
    )
    assert of(audit(obs, replace(trace, why=why)), "tie_as_lead")


def test_a_sentence_without_a_checker_is_a_finding() -> None:
    obs, decision = _clean_decision("normal", "rommi", "ai_term_deadwood_left", ("unchecked_code",))
    step = Note("hint_generic")  # a sentence of the hints, which no trace says
    doctored = replace(decision.trace, steps=(*decision.trace.steps, step))
    assert of(audit(obs, doctored), "unchecked_code")


class _Doctored(NullTranslations):
    """Portuguese whose sentence for the next draw shows one more unseen card."""

    def pgettext(self, context: str, message: str) -> str:
        if context == "ai_term_next_draw":
            return message.replace("{total}", "{total}1")
        return message


def test_a_number_changed_by_a_translation_is_caught() -> None:
    _obs, decision = _clean_decision("hard", "rommi", "ai_term_next_draw", ())
    assert not of(audit_languages(decision, False, ("pt",)), "language_numbers")
    register("pt", _Doctored())
    try:
        found = audit_languages(decision, False, ("pt",))
    finally:
        register("pt", None)
    assert of(found, "language_numbers")


def test_reproducers_replay_the_decision() -> None:
    """A reproducer snippet replays its game to the very decision it names."""
    rep = {
        "variant": "rommi",
        "players": 3,
        "seed": 65189,
        "levels": ["hard", "easy", "normal"],
        "move": 30,
    }
    namespace: dict[str, object] = {}
    exec(reproducer_code(rep).replace("print(", "result = ("), namespace)
    _obs, decision = decision_at("rommi", 3, 65189, ["hard", "easy", "normal"], 30)
    assert str(namespace["result"]) == str(decision.trace)
