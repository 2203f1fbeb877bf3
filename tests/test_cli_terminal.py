"""``rummykit play`` in a real process: Ctrl-C and a closed pipe end quietly, the cut (H3) is
asked with a default, and the computer's cards are shown only after saying so (``--explain``)."""

from __future__ import annotations

import io
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rummykit.game import Game
from rummykit.terminal import TerminalGame
from rummykit.variants import variant

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT)}
PLAY = [sys.executable, "-m", "rummykit", "play"]


def read_until(process: subprocess.Popen[bytes], text: str, seconds: float = 60) -> str:
    """What the process wrote up to and including ``text`` (a prompt ends without a newline)."""
    assert process.stdout is not None
    fd = process.stdout.fileno()
    seen = b""
    deadline = time.monotonic() + seconds
    while text.encode() not in seen:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        chunk = os.read(fd, 4096) if ready else b""
        if not chunk:
            pytest.fail(f"no {text!r} from rummykit play; it wrote: {seen.decode()!r}")
        seen += chunk
    return seen.decode()


@pytest.mark.parametrize("variant_name", ["hungarian", "rommi"])
def test_ctrl_c_at_the_prompt_exits_130_without_a_traceback(variant_name: str) -> None:
    process = subprocess.Popen(
        [*PLAY, "--variant", variant_name, "--seed", "7"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        cwd=ROOT,
    )
    try:
        shown = read_until(process, "your move> ")
        assert "Your hand" in shown
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130
    assert err.decode() == ""  # no traceback, no KeyboardInterrupt


def test_a_closed_output_pipe_ends_quietly_with_status_0() -> None:
    # `rummykit play | head -n 3` while the player keeps typing `help`: once head has its
    # three lines and goes, the next write finds no reader
    command = " ".join(f"'{part}'" for part in [*PLAY, "--variant", "rommi", "--seed", "4"])
    done = subprocess.run(
        [
            "bash",
            "-c",
            f"yes help | {command} 2>err.txt | head -n 3; "
            'echo "status ${PIPESTATUS[1]}"; cat err.txt; rm -f err.txt',
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=ENV,
        cwd=ROOT.parent if os.access(ROOT.parent, os.W_OK) else "/tmp",
        timeout=120,
        check=False,
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Rommi against normal computer opponents")
    assert lines[3:] == ["status 0"], done.stdout  # and nothing on stderr: no traceback


def test_explain_says_first_that_the_computer_s_cards_will_be_shown() -> None:
    def play(*flags: str) -> str:
        return subprocess.run(
            [*PLAY, "--variant", "hungarian", "--seed", "5", "--ai", "hard", *flags],
            input="quit\n",
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=ENV,
            cwd=ROOT,
            timeout=120,
            check=True,
        ).stdout

    explained, plain = play("--explain"), play()
    notice = "you will see its reasoning, and with it the computer's cards"
    assert notice in explained
    assert explained.index(notice) < explained.index("thinks:")  # said before any is shown
    assert notice not in plain and "thinks:" not in plain


CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


def hidden_cards_printed(text: str, game: Game, seat: int) -> list[str]:
    """Cards of ``seat``'s hand (in a one-deck game) that appear in ``text`` though seat 0
    never saw them: not in its hand, not on the table, not in the discard pile, not named by
    a public event (a card taken from the discard pile is public)."""
    public = " ".join(str(e) for e in game.events)
    seen = {str(c) for c in game.hand(0)} | {str(c) for c in game.discard_pile}
    seen |= {str(c) for tm in game.table for c in tm.meld.cards}
    seen |= set(CARD.findall(public))
    words = set(CARD.findall(text))
    return sorted(str(c) for c in game.hand(seat) if str(c) not in seen and str(c) in words)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_without_explain_no_hidden_card_of_the_computer_is_printed(seed: int) -> None:
    rules = variant("rommi")  # one deck: a card's name is one card
    # (a hint names unseen cards it waits for, and may name one the computer holds; that it
    # depends on seat 0's view alone is test_R12_hidden_cards_never_change_a_decision's job)
    typed = io.StringIO("draw\nshow\nquit\n")
    out = io.StringIO()
    session = TerminalGame(rules, 2, "hard", seed, stdin=typed, stdout=out)
    assert session.run() == 0
    game = session.match.rounds[-1]
    assert hidden_cards_printed(out.getvalue(), game, 1) == []
    explained = io.StringIO()
    again = TerminalGame(
        rules, 2, "hard", seed, explain=True, stdin=io.StringIO("draw\nquit\n"), stdout=explained
    )
    again.run()  # the same deal: with --explain the reasoning does show hidden cards
    assert hidden_cards_printed(explained.getvalue(), again.match.rounds[-1], 1)


# --- the cut (H3) ------------------------------------------------------------------------


def cutting_session(typed: str, seed: int = 9) -> tuple[TerminalGame, Game, str, bool]:
    """Seat 0 cuts: the dealer is seat 1, so the cutter (the dealer's right) is seat 0."""
    out = io.StringIO()
    session = TerminalGame(
        variant("hungarian"), 2, "easy", seed, stdin=io.StringIO(typed), stdout=out
    )
    game = Game.new("hungarian", 2, seed, dealer=1, choose_cut=True)
    assert game.phase == "cut" and game.current == 0
    finished = session.play_round(game)
    return session, game, out.getvalue(), finished


def test_H3_the_human_who_cuts_is_asked_where_enter_cuts_in_the_middle() -> None:
    _, game, out, _ = cutting_session("\nquit\n")
    assert "You cut the deck: how many cards do you lift? (1–" in out
    middle = Game.new("hungarian", 2, 9, dealer=1)  # nobody asked: cut in the middle
    assert game.cut_card == middle.cut_card
    assert game.hand(0) == middle.hand(0)
    deck = len(variant("hungarian").deck())
    assert f"(1–{deck - 1}, Enter: {deck // 2}) " in out  # any height but the whole deck


def test_H3_a_chosen_height_is_the_cut_and_bad_answers_are_asked_again() -> None:
    _, game, out, _ = cutting_session("lots\n0\n100000\n30\nquit\n")
    assert "'lots' is not a number of cards: type a number from 1 to" in out
    assert out.count("You cut the deck:") == 4  # asked again after each bad answer
    assert "Not allowed" in out  # 0 and 100000: the referee's own refusal
    assert game.cut_card == Game.new("hungarian", 2, 9, dealer=1, cut=30).cut_card


@pytest.mark.parametrize("typed", ["quit\n", ""])
def test_H3_quitting_or_the_end_of_input_at_the_cut_stops_the_game(typed: str) -> None:
    _, game, _, finished = cutting_session(typed)
    assert finished is False
    assert game.phase == "cut"  # nothing was cut


def test_H3_a_computer_cutter_cuts_in_the_middle_and_the_cut_is_told() -> None:
    session = TerminalGame(variant("hungarian"), 2, "easy", 9, stdin=io.StringIO("quit\n"))
    session.stdout = io.StringIO()
    session.run()
    first = session.match.rounds[0]  # dealer 0: seat 1 cuts
    assert first.cut_card == Game.new("hungarian", 2, first.seed, dealer=0).cut_card
    assert "cut" in session.stdout.getvalue().lower()
