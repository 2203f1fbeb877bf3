"""``rummykit play`` and ``rummykit simulate``: a terminal game that never ends on bad input,
and seeded tournaments with standings."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit import game as referee
from rummykit.ai import make_agent
from rummykit.cli import build_parser, main
from rummykit.terminal import TerminalGame
from rummykit.variants import variant
from rummykit.voice import in_second_person

ROOT = Path(__file__).resolve().parent.parent


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lines: str,
    *argv: str,
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    code = main(["play", *argv])
    return code, capsys.readouterr().out


# --- rummykit play -------------------------------------------------------------------------


def test_play_shows_the_position_and_the_move_syntax(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = play(monkeypatch, capsys, "help\nquit\n", "--variant", "rommi", "--seed", "3")
    assert code == 0
    assert "Your hand (7):" in out
    assert "Discard pile:" in out and "Stock:" in out
    assert "Your turn: draw from the stock or the discard pile." in out  # the learner: you
    assert "Seat 0" not in out
    for form in ("take discard", "meld 5h 6h 7h", "lay off 7h onto 2", "discard 9s", "undo"):
        assert form in out
    assert out.rstrip().endswith("Goodbye!")


def test_bad_input_and_refusals_never_end_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = "\n".join(
        [
            "",
            "fold",
            "discard 1x",
            "discard K♠",  # before drawing: the referee refuses
            "meld 2c 3c 4c",
            "lay off 7h onto 99",
            "draw",
            "draw",  # a second draw: refused
            "show",
            "quit",
        ]
    )
    code, out = play(monkeypatch, capsys, lines + "\n", "--variant", "rommi", "--seed", "3")
    assert code == 0
    assert "'fold' is not a move" in out
    assert "'1x' is not a card" in out
    assert out.count("Type help for the moves.") == 2
    assert "Not allowed: discard K♠." in out  # the Verdict, as the referee words it
    assert "Not allowed: draw from the stock. You have already drawn this turn" in out
    assert "You drew " in out
    assert out.rstrip().endswith("Goodbye!")


def test_end_of_input_stops_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = play(monkeypatch, capsys, "draw\n", "--variant", "hungarian", "--seed", "5")
    assert code == 0
    assert "Goodbye!" in out


def test_hint_gives_one_move_to_type_back_and_its_reasons(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = play(
        monkeypatch, capsys, "hint\ndraw\nhint why\nquit\n", "--variant", "hungarian", "--seed", "5"
    )
    assert code == 0
    suggested = re.findall(r"Play “(.+?)”", out)
    assert len(suggested) == 2  # one answer per hint
    for command in suggested:
        referee.parse_action(command)  # as typed back, it reads
    first, second = out.split("Play “")[1:3]
    # a hint is its sentence; its reasoning comes with "hint why"
    assert "Type hint why" in first and "thinks" not in first and "Why —" not in first
    assert "Why — the hard computer player's reasoning" in second


def test_ai_moves_are_printed_and_explained_on_request(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("--variant", "hungarian", "--seed", "5", "--ai", "hard")
    _, plain = play(monkeypatch, capsys, "quit\n", *args)
    _, explained = play(monkeypatch, capsys, "quit\n", *args, "--explain")
    assert "Seat 1 discarded" in plain  # Hungarian: seat 1 starts with a discard (H3)
    assert "thinks:" not in plain
    assert "hard (seat 1) thinks:" in explained
    assert "Chosen: discard" in explained


def test_bad_settings_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--ai", "grandmaster"]) == 2
    assert "not an AI level" in capsys.readouterr().err
    assert main(["play", "--players", "7"]) == 2
    assert main(["play", "--variant", "poker"]) == 2


def as_text(action: referee.Action) -> str:
    """The line a player types for an action (what parse_action reads back, or the number
    the cut prompt asks for)."""

    def cards(cs: tuple[object, ...]) -> str:
        return " ".join(map(str, cs))

    match action:
        case referee.Draw(source=source):
            return {"stock": "draw", "discard": "take discard", "cut_card": "take cut"}[source]
        case referee.PlayMeld(cards=meld, joker_as=joker):
            return f"meld {cards(meld)}" + (f" as {joker}" if joker else "")
        case referee.LayOff(cards=laid, meld=index, joker_as=joker):
            return f"lay off {cards(laid)} onto {index + 1}" + (f" as {joker}" if joker else "")
        case referee.ExchangeJoker(card=card, meld=index):
            return f"exchange {card} from {index + 1}"
        case referee.Discard(card=card):
            return f"discard {card}"
        case referee.Undo():
            return "undo"
        case referee.Cut(height=height):
            return str(height)
    assert isinstance(action, referee.ReturnCutCard)
    return "return cut"


class AgentAtTheKeyboard(io.StringIO):
    """Types the moves an agent chooses for seat 0, as text, into the terminal game."""

    def __init__(self) -> None:
        super().__init__()
        self.session: TerminalGame | None = None
        self.agent = make_agent("normal")
        self.typed: list[str] = []

    def readline(self, size: int | None = -1) -> str:
        assert self.session is not None
        if len(self.typed) > 3000:
            return ""
        rounds = self.session.match.rounds
        game = rounds[-1] if rounds else None
        if game is None or game.is_over:
            line = "" if self.session.match.is_over else "\n"  # Enter: the next round
        else:
            action = self.agent.decide(game.observation(0)).action
            line = as_text(action) + "\n"
            assert isinstance(action, referee.Cut) or referee.parse_action(line) == action
        self.typed.append(line)
        return line


@pytest.mark.parametrize(("name", "seed"), [("rommi", 11), ("hungarian", 2)])
def test_a_whole_round_typed_at_the_keyboard(name: str, seed: int) -> None:
    keyboard = AgentAtTheKeyboard()
    out = io.StringIO()
    session = TerminalGame(variant(name, target=10), 2, "easy", seed, stdin=keyboard, stdout=out)
    keyboard.session = session
    assert session.run() == 0
    text = out.getvalue()
    assert "The round is over." in text
    assert "Match totals:" in text
    first = session.match.rounds[0]
    assert first.result is not None
    for line in first.result.lines:
        assert str(in_second_person(line, 0)) in text  # the scoring lines, each shown
        if line.params.get("seat") == 0 and str(line) != str(in_second_person(line, 0)):
            assert str(line) not in text  # the learner's own line says "You"
    assert "Not allowed" not in text  # every typed move was legal


def test_play_reads_piped_input_in_a_subprocess() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummykit", "play", "--variant", "rommi", "--seed", "4"],
        input="help\nnonsense\ndraw\nhint\nquit\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "is not a move" in done.stdout
    assert "Goodbye!" in done.stdout


# --- rummykit simulate ---------------------------------------------------------------------


def test_simulate_prints_standings_with_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "simulate", "--variant", "rommi", "--players", "2", "--agents", "easy,normal",
            "--games", "6", "--seed", "1", "--workers", "1",
        ]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0
    assert "Rommi, 2 players, 6 × round (seed 1)" in out
    assert "95% CI" in out and "wins" in out
    assert "easy" in out and "normal" in out
    assert "6/6" in err  # the progress bar


def test_simulate_json_is_the_same_for_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "-v", "rommi", "-a", "easy,hard", "-n", "4", "-s", "9", "-w", "1", "-q"]
    assert main([*argv, "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert len(first["records"]) == 4


def test_simulate_without_tqdm_says_so_and_still_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)
    code = main(["simulate", "-v", "rommi", "-a", "easy", "-n", "2", "-w", "1"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "tqdm is not installed" in err
    assert "easy" in out


def test_simulate_with_your_own_agent(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "-v", "rommi", "-a", "rummykit.ai:EasyAgent,normal", "-n", "2", "-w", "1"]
    assert main([*argv, "-q"]) == 0
    assert "rummykit.ai:EasyAgent" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["-a", "grandmaster"], "not an agent"),
        (["-a", "easy,easy,easy"], "3 agents for 2 seats"),
        (["-n", "0"], "at least one game"),
        (["-o", "ace_high"], "not an option setting"),
        (["-p", "9"], "players"),
    ],
)
def test_simulate_bad_settings_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "-v", "rommi", "-w", "1", "-q", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummykit simulate: ")
    assert words in err


def test_every_command_is_registered_and_check_still_works(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = build_parser()
    assert parser.parse_args(["simulate"]).command == "simulate"
    assert parser.parse_args(["play"]).command == "play"
    assert main(["check", "Q♥", "K♥", "A♥"]) == 0


def test_hint_sees_going_out_by_a_last_discard() -> None:
    # R7: meld 7♥ 8♥ 9♥ and discard 5♠ — the hand is empty, the round is won
    game = referee.from_position(
        "rommi", hands=["7♥ 8♥ 9♥ 5♠", "2♠ 3♠ 4♦ 8♣ 9♣ 10♦ J♥"], phase="play"
    )
    out = io.StringIO()
    session = TerminalGame(variant("rommi"), 2, "easy", 1, stdin=io.StringIO(), stdout=out)
    session.hint(game)
    first = out.getvalue().splitlines()[0]
    assert first.startswith("Play “meld 7♥ 8♥ 9♥”") and "going out" in first
