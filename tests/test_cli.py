"""The command line: ``rummykit check`` — exit status, text and JSON output, house rules."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.cli import build_parser, main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code, out, err = run(capsys, "check", "--json", *argv)
    assert err == ""
    return code, json.loads(out)


# --- exit status ---------------------------------------------------------------------------


def test_valid_meld_exits_0_and_explains(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", "5♥ 🃏 7♥")
    assert code == 0
    assert err == ""
    assert out.splitlines() == [
        "5♥ 🃏 7♥ is a run of hearts from 5 to 7. (H4)",
        "The joker stands for the 6♥. (H5)",
        "Worth 18 toward the opening. (H8)",
    ]


def test_H4_wrap_exits_1_one_reason_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", "K♠ A♠ 2♠")
    assert code == 1
    assert err == ""
    heading, reason = out.splitlines()
    assert heading == "K♠ A♠ 2♠ is not a valid meld in Hungarian Rummy."
    assert reason.startswith("  K♠ A♠ 2♠ wraps around the ace")
    assert reason.endswith("(H4)")


def test_every_failing_reason_gets_its_own_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "9♠ 9♥ 10♥")
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[1].startswith("  Not a set: 10♥")
    assert lines[2].startswith("  Not a run: 9♠")


@pytest.mark.parametrize(
    ("argv", "bad"),
    [
        (["check", "K♠", "1♠", "2♠"], "'1♠' is not a card"),
        (["check", "Ks Xs 2s"], "'Xs' is not a card"),
        (["check", "--variant", "poker", "Ks As 2s"], "'poker' is not a variant"),
        (["check", "--option", "jokers=2", "Ks As 2s"], "'jokers' is not an option"),
        (["check", "--option", "ace_high", "Ks As 2s"], "'ace_high' is not an option setting"),
        (["check", "--option", "target=many", "Ks As 2s"], "not 'many'"),
        (["check", "--option", "ace_low=perhaps", "Ks As 2s"], "not 'perhaps'"),
        (["check", "--option", "hand_sizes=2:x", "Ks As 2s"], "not '2:x'"),
        (["check", "  "], "no cards to check"),
    ],
)
def test_bad_input_exits_2_naming_it_on_stderr(
    capsys: pytest.CaptureFixture[str], argv: list[str], bad: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("rummykit check: ")
    assert bad in err
    assert len(err.splitlines()) == 1


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys)[0] == 2  # no command
    assert run(capsys, "check")[0] == 2  # no cards
    assert run(capsys, "deal")[0] == 2  # no such command


def test_help_and_version_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0
    assert "KEY=VALUE" in out
    assert "hand_sizes" in out
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.startswith("rummykit ")


def test_parser_has_room_for_more_subcommands() -> None:
    parser = build_parser()
    args = parser.parse_args(["check", "Ks", "As", "2s"])
    assert args.command == "check"
    assert args.cards == ["Ks", "As", "2s"]
    assert callable(args.run)


# --- cards in any form ---------------------------------------------------------------------


def test_one_string_or_several_tokens_give_the_same_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    one = run(capsys, "check", "Qh Kh Ah")
    several = run(capsys, "check", "Q♥", "K♥", "A♥")
    commas = run(capsys, "check", "Q♥,K♥,A♥")
    assert one == several == commas
    assert one[0] == 0


# --- JSON ----------------------------------------------------------------------------------


def test_json_shape_for_a_valid_meld(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "5♥ 🃏 7♥")
    assert code == 0
    assert {"ok", "kind", "points", "variant", "reasons", "jokers"} <= set(data)
    assert data["ok"] is True
    assert data["kind"] == "run"
    assert data["points"] == 18
    assert data["variant"] == "hungarian"
    assert data["jokers"] == [["6♥"]]
    for reason in data["reasons"]:
        assert set(reason) == {"code", "rule", "message", "cards", "failing"}
    assert [r["code"] for r in data["reasons"]] == ["valid_run", "joker_is", "meld_value"]


def test_json_shape_for_an_invalid_meld(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "K♥ 🃏 2♥")
    assert code == 1
    assert data["ok"] is False
    assert data["kind"] is None
    assert data["points"] is None
    wrap = next(r for r in data["reasons"] if r["code"] == "run_wraps")
    assert wrap["rule"] == "H4"
    assert "the joker would have to be the A♥" in wrap["message"]
    assert wrap["cards"] == ["K♥", "🃏", "2♥"]


def test_json_is_one_object_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "check", "--json", "9♠ 9♠ 9♥")
    assert out.count("\n") == 1
    assert "9♠" in out  # not escaped


# --- variants and house rules --------------------------------------------------------------


def test_H4_R3_low_ace_hungarian_vs_rommi(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "A♥ 2♥ 3♥")[0] == 0
    code, data = run_json(capsys, "--variant", "rommi", "A♥ 2♥ 3♥")
    assert code == 1
    assert data["variant"] == "rommi"
    assert [r["code"] for r in data["reasons"] if r["rule"]] == ["ace_low_not_allowed"]
    assert data["reasons"][1]["rule"] == "R3"


def test_R1_rommi_refuses_jokers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--variant", "Rommi", "5♥ 🃏 7♥")
    assert code == 1
    assert "Rommi is played without jokers" in out
    assert "(R1)" in out


def test_R3_rommi_has_no_opening_value(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "-v", "rommi", "Q♥ K♥ A♥")
    assert code == 0
    assert [r["code"] for r in data["reasons"]] == ["valid_run"]
    assert data["reasons"][0]["rule"] == "R3"


def test_R8_ace_high_option_keeps_the_low_ace_illegal(capsys: pytest.CaptureFixture[str]) -> None:
    for word in ("true", "yes", "on", "1"):
        code, data = run_json(capsys, "-v", "rommi", "-o", f"ace_high={word}", "A♥ 2♥ 3♥")
        assert code == 1
        assert data["options"] == {"ace_high": True}
        assert "ace_low_not_allowed" in [r["code"] for r in data["reasons"]]


def test_house_rule_ace_low_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "--option", "ace_above_king=off", "Q♥ K♥ A♥")
    assert code == 1
    assert "ace_high_not_allowed" in [r["code"] for r in data["reasons"]]
    assert data["options"] == {"ace_above_king": False}


def test_house_rule_options_combine_and_accept_dashes(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys,
        "-o",
        "jokers-per-meld=2",
        "-o",
        "hand_sizes=2:7,3:10,4:10",
        "-o",
        "opening_threshold=40",
        "5♥ 🃏 🃏",
    )
    assert code == 0
    assert data["options"] == {
        "jokers_per_meld": 2,
        "hand_sizes": [[2, 7], [3, 10], [4, 10]],
        "opening_threshold": 40,
    }


def test_false_words_turn_an_option_off(capsys: pytest.CaptureFixture[str]) -> None:
    for word in ("false", "no", "off", "0", "FALSE"):
        code, _ = run_json(capsys, "-o", f"ace_low={word}", "A♥ 2♥ 3♥")
        assert code == 1


# --- the installed program -----------------------------------------------------------------


def _console_script() -> str:
    here = Path(sys.executable).parent / "rummykit"
    found = str(here) if here.exists() else shutil.which("rummykit")
    if found is None:
        pytest.fail(
            "the rummykit console script is not installed: run `make test` (pip install -e .)"
        )
    return found


def test_installed_console_script() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [_console_script(), "check", "--json", "--variant", "rommi", "Ks", "As", "2s"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert data["variant"] == "rommi"
    assert "run_wraps" in [r["code"] for r in data["reasons"]]
    bad = subprocess.run(
        [_console_script(), "check", "Ks 1s 2s"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        check=False,
    )
    assert bad.returncode == 2
    assert "'1s' is not a card" in bad.stderr


def test_python_dash_m() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummykit", "check", "Qh Kh Ah"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Q♥ K♥ A♥ is a run of hearts from Q to A. (H4)")
