"""Tournaments: seeded, seats rotated, the same result with any number of workers, honest
confidence intervals."""

from __future__ import annotations

import doctest
import json
import math
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from rummykit.ai import BaseAgent, Decision, EasyAgent, Note, Trace
from rummykit.cli import main
from rummykit.game import Observation
from rummykit.tournament import (
    GameTask,
    TournamentError,
    _portable,
    agent_label,
    load_agent,
    run_tournament,
)
from rummykit.variants import variant


class FirstLegal:
    """The smallest agent there is: always the first legal action (and no trace worth reading)."""

    name = "first"

    def decide(self, obs: Observation) -> Decision:
        action = obs.legal_actions[0]
        return Decision(action, Trace(self.name, obs.seat, (), (), action, Note("ai_fallback")))


class Broken(EasyAgent):
    name = "broken"

    def decide(self, obs: Observation) -> Decision:
        raise RuntimeError("this agent always fails")


def test_same_seed_same_result_and_another_seed_differs() -> None:
    a = run_tournament("rommi", 2, ["easy", "normal"], games=6, seed=3, workers=1)
    b = run_tournament("rommi", 2, ["easy", "normal"], games=6, seed=3, workers=1)
    c = run_tournament("rommi", 2, ["easy", "normal"], games=6, seed=4, workers=1)
    assert a == b
    assert a.records != c.records


def test_result_does_not_depend_on_the_number_of_workers() -> None:
    seen: list[tuple[int, int]] = []
    one = run_tournament("rommi", 2, ["easy", "hard"], games=8, seed=5, workers=1)
    two = run_tournament(
        "rommi",
        2,
        ["easy", "hard"],
        games=8,
        seed=5,
        workers=2,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert one == two
    assert seen[-1] == (8, 8)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_every_deal_is_played_from_every_seat() -> None:
    result = run_tournament("rommi", 3, ["easy", "normal", "hard"], games=9, seed=2, workers=1)
    by_deal: dict[int, list[tuple[str, ...]]] = {}
    for record in result.records:
        by_deal.setdefault(record.deal_seed, []).append(record.seating)
    assert len(by_deal) == 3
    for seatings in by_deal.values():
        assert len(seatings) == 3
        for seat in range(3):  # each agent sits in each seat once per deal
            assert sorted(s[seat] for s in seatings) == ["easy", "hard", "normal"]


def test_without_duplicates_every_game_has_its_own_deal() -> None:
    result = run_tournament(
        "rommi", 2, ["easy", "normal"], games=6, seed=2, workers=1, duplicate=False
    )
    assert len({r.deal_seed for r in result.records}) == 6
    assert all(sorted(r.seating) == ["easy", "normal"] for r in result.records)


def test_agents_are_cycled_over_the_seats() -> None:
    result = run_tournament("rommi", 4, ["hard", "easy"], games=4, seed=1, workers=1)
    assert sorted(result.lineup) == ["easy", "easy", "hard", "hard"]
    assert {s.agent: s.seats for s in result.standings} == {"hard": 2, "easy": 2}
    assert all(Counter(r.seating) == Counter(easy=2, hard=2) for r in result.records)


def test_standings_are_the_means_of_the_records() -> None:
    result = run_tournament("rommi", 2, ["easy", "normal"], games=10, seed=7, workers=1)
    for standing in result.standings:
        points = [
            r.points[seat]
            for r in result.records
            for seat, name in enumerate(r.seating)
            if name == standing.agent
        ]
        wins = [
            float(seat in r.winners)
            for r in result.records
            for seat, name in enumerate(r.seating)
            if name == standing.agent
        ]
        assert standing.samples == len(points) == 10
        assert math.isclose(standing.mean, sum(points) / len(points))
        assert math.isclose(standing.win_rate, sum(wins) / len(wins))
        assert standing.ci is not None and standing.ci[0] <= standing.mean <= standing.ci[1]
    # Rommi: high score wins, so the first place has the higher mean
    assert result.standings[0].mean >= result.standings[1].mean
    diff = result.comparison("easy", "normal")
    assert math.isclose(
        diff.difference, result.standing("easy").mean - result.standing("normal").mean
    )
    back = result.comparison("normal", "easy")
    assert math.isclose(back.difference, -diff.difference)


def test_hungarian_low_score_is_better() -> None:
    result = run_tournament("hungarian", 2, ["easy", "normal"], games=2, seed=1, workers=1)
    assert result.low_score_wins
    assert result.standings[0].mean <= result.standings[1].mean
    assert "lower is better" in str(result)


def test_one_deal_gives_no_interval() -> None:
    result = run_tournament("rommi", 2, ["easy", "normal"], games=2, seed=1, workers=1)
    assert all(s.ci is None for s in result.standings)
    assert result.comparisons[0].better is None
    assert "—" in str(result)


def test_whole_matches() -> None:
    result = run_tournament(
        "rommi",
        2,
        ["easy", "normal"],
        games=2,
        seed=1,
        workers=1,
        unit="match",
        options={"target": 15},
    )
    assert all(r.how == "match" for r in result.records)
    assert all(max(r.points) >= 15 for r in result.records)
    assert all(len(r.winners) == 1 for r in result.records)
    assert result.options == {"target": 15}


def test_report_text_and_json() -> None:
    result = run_tournament("rommi", 2, ["easy", "normal"], games=4, seed=1, workers=1)
    text = str(result)
    assert "Rommi, 2 players, 4 × round (seed 1)" in text
    assert "95% CI" in text and "easy" in text and "normal" in text
    assert "easy − normal" in text or "normal − easy" in text
    data = json.loads(json.dumps(result.to_dict()))
    assert len(data["records"]) == 4
    assert {s["agent"] for s in data["standings"]} == {"easy", "normal"}
    assert "<pre" in result._repr_html_()


# --- your own agents -------------------------------------------------------------------------


def test_agents_by_level_module_class_factory_or_instance() -> None:
    assert load_agent("HARD")().name == "hard"
    assert load_agent("rummykit.ai:NormalAgent")().name == "normal"
    assert isinstance(load_agent(FirstLegal)(), FirstLegal)
    original = EasyAgent()
    copy = load_agent(original)()
    assert copy is not original and copy.name == "easy"
    assert agent_label(FirstLegal) == "first"
    assert agent_label("rummykit.ai:NormalAgent") == "rummykit.ai:NormalAgent"


def test_your_own_class_plays_with_any_number_of_workers() -> None:
    one = run_tournament("rommi", 2, [FirstLegal, "easy"], games=4, seed=1, workers=1)
    two = run_tournament("rommi", 2, [FirstLegal, "easy"], games=4, seed=1, workers=2)
    assert {s.agent for s in one.standings} == {"first", "easy"}
    assert one == two


def test_agents_a_worker_process_cannot_import_play_here() -> None:
    class Notebook(FirstLegal):  # as if defined in a notebook or a script's __main__
        name = "notebook"

    Notebook.__module__ = "__main__"
    assert not _portable([_task(Notebook)])
    assert _portable([_task(load_agent("hard"))])
    result = run_tournament("rommi", 2, [Notebook, "easy"], games=2, seed=1, workers=2)
    assert {s.agent for s in result.standings} == {"notebook", "easy"}


def _task(factory: object) -> GameTask:
    return GameTask(0, variant("rommi"), 2, "round", 1, ("a",), (factory,))  # type: ignore[arg-type]


def test_two_agents_with_the_same_name_are_told_apart() -> None:
    class Other(BaseAgent):
        name = "easy"
        judge_discard_take = EasyAgent.judge_discard_take
        score_discards = EasyAgent.score_discards

    result = run_tournament("rommi", 2, ["easy", Other], games=2, seed=1, workers=1)
    assert {s.agent for s in result.standings} == {"easy", "easy#2"}


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"agents": ["grandmaster"]}, "not an agent"),
        ({"agents": ["nosuchmodule:Agent"]}, "could not load"),
        ({"agents": ["easy", "easy", "easy"]}, "3 agents for 2 seats"),
        ({"agents": []}, "0 agents"),
        ({"games": 0}, "at least one game"),
        ({"unit": "set"}, "not a tournament unit"),
    ],
)
def test_bad_setups_are_refused(kwargs: dict[str, object], words: str) -> None:
    setup: dict[str, object] = {"agents": ["easy", "normal"], "games": 2, **kwargs}
    with pytest.raises(TournamentError, match=words):
        run_tournament("rommi", 2, seed=1, workers=1, **setup)  # type: ignore[arg-type]


def test_a_failing_agent_names_the_game_to_replay() -> None:
    with pytest.raises(TournamentError, match=r"game 0 \(deal seed \d+, seats: .*\) failed"):
        run_tournament("rommi", 2, [Broken, "easy"], games=2, seed=1, workers=1)


# --- the documented example ------------------------------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs" / "ai.md"


def _python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", DOCS.read_text(encoding="utf-8"), re.M | re.S)


def test_the_docs_examples_run() -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, body in enumerate(b for b in _python_blocks() if ">>>" in b):
        runner.run(parser.get_doctest(body, {}, f"ai.md[{number}]", str(DOCS), 0))
    assert runner.tries and runner.failures == 0


def test_the_example_agent_plays_in_simulate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    example = next(b for b in _python_blocks() if "class LowBall" in b)
    assert len(example.strip().splitlines()) <= 15  # a few lines, as promised
    (tmp_path / "my_agents.py").write_text(example, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # `rummykit simulate` run where my_agents.py is
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "my_agents", raising=False)
    argv = ["simulate", "-v", "rommi", "-a", "my_agents:LowBall,easy", "-n", "4", "-w", "1", "-q"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "my_agents:LowBall" in out and "easy" in out
    result = run_tournament("hungarian", 2, ["my_agents:LowBall", "normal"], games=2, workers=1)
    assert {s.agent for s in result.standings} == {"my_agents:LowBall", "normal"}
