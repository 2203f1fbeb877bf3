"""A class league tried as a student who wants to win would: every attack of issue 29, each
either impossible or a clean forfeit of the attacker, the league finishing with a table and
the honest entrants' games exactly as in a league without the attacker.

The league: ``attacker`` (tests/agents/hostile/attacker.py, one mode per test), ``alice``
(examples/agents/first_legal.sh) and ``bob`` (examples/agents/lowball.py in its own process),
each in a folder of its own, Rommi, 2 players, a round robin of 2 games a table, on one
supervised worker. Bounded: small limits, short timeouts, loopback only; the attacks on other
programs aim only at processes working inside the test's own league folder.

The programs run in bubblewrap when it works here (CI installs it, and sets
``RUMMYKIT_REQUIRE_SANDBOX=1`` so that its absence fails). Without it the same attacks run
against the limits-only path: what the limits stop is checked the same way, and an attack
that only the sandbox stops is reported as such (a skip naming it) once the league has been
seen to finish with a table. ``RUMMYKIT_TEST_SANDBOX=none`` forces that path.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from rummykit.agents.sandbox import resolve, unavailable
from rummykit.leagues import LeagueError, LeagueResult, league, write_results

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
EXAMPLES = ROOT / "examples" / "agents"
PY = sys.executable

FORCED = os.environ.get("RUMMYKIT_TEST_SANDBOX", "auto")
MODE = resolve(FORCED)
WHY = (unavailable() or f"RUMMYKIT_TEST_SANDBOX={FORCED}") if MODE == "none" else ""
AS_ROOT = os.geteuid() == 0


def test_the_sandbox_is_here_when_required() -> None:
    if os.environ.get("RUMMYKIT_REQUIRE_SANDBOX") == "1":
        assert MODE == "bwrap", f"RUMMYKIT_REQUIRE_SANDBOX=1 but no sandbox here: {WHY}"
    else:
        assert MODE in ("bwrap", "none")


def sandbox_only(what: str) -> None:
    """Without a sandbox, say that this attack is stopped only by one (the league finished)."""
    if MODE == "none":
        pytest.skip(
            f"limits only (no bubblewrap here: {WHY}): {what} is stopped only by the sandbox; "
            "the league still finished with a table"
        )


def make_folder(path: Path) -> Path:
    for name, source in (
        ("alice", EXAMPLES / "first_legal.sh"),
        ("bob", EXAMPLES / "lowball.py"),
        ("attacker", HERE / "attacker.py"),
        ("trusted", HERE / "saboteur.py"),
        ("patcher", HERE / "patcher.py"),
    ):
        (path / name).mkdir()
        shutil.copy(source, path / name)
    return path


HONEST = [
    {"name": "alice", "command": ["sh", "first_legal.sh"], "folder": "alice"},
    {"name": "bob", "python": "bob/lowball.py:LowBall"},
]


def run(folder: Path, first: dict[str, Any], **settings: Any) -> LeagueResult:
    manifest = {
        "variant": "rommi",
        "players": 2,
        "games": 2,
        "seed": 4,
        "time_limit": 3,
        "start_limit": 30,
        "game_limit": 60,
        "sandbox": MODE,
        **settings,
        "agents": [first, *HONEST],
    }
    (folder / "league.json").write_text(json.dumps(manifest))
    return league(folder, workers=1, progress=False)


def attacker(folder: Path, mode: str, *args: str, **entry: Any) -> dict[str, Any]:
    argv = [PY, "attacker.py", mode, str(folder), *args]
    return {"name": "attacker", "command": argv, "folder": "attacker", **entry}


def records(result: LeagueResult) -> list[tuple[object, ...]]:
    return [(r.deal_seed, r.seating, r.points, r.winners, r.how, r.actions) for r in result.records]


def honest_games(result: LeagueResult) -> list[tuple[object, ...]]:
    return [
        (r.deal_seed, r.seating, r.points, r.winners, r.how, r.actions)
        for r in result.records
        if set(r.seating) == {"alice", "bob"}
    ]


@pytest.fixture(scope="module")
def control(tmp_path_factory: pytest.TempPathFactory) -> LeagueResult:
    """The same league with an attacker that never attacks: it plays the first legal move."""
    folder = make_folder(tmp_path_factory.mktemp("control"))
    return run(folder, attacker(folder, "play"))


def finished(result: LeagueResult, control: LeagueResult) -> list[str]:
    """The league ended with its whole table, the honest games as in the control league; the
    attacker's findings (from the error lines that forfeited its games)."""
    assert len(result.records) == 6 and not result.lost
    assert {s.agent for s in result.standings} == {"attacker", "alice", "bob"}
    assert honest_games(result) == honest_games(control) and len(honest_games(control)) == 2
    assert result.standing("alice").forfeits == result.standing("bob").forfeits == 0
    assert result.sandbox == MODE
    said = []
    for record in result.records:
        if "attacker" in record.seating:
            assert record.forfeit is not None and record.forfeit.agent == "attacker", record
            said.append(record.forfeit.message)
    return said


def findings(said: list[str]) -> list[dict[str, str]]:
    out = []
    for message in said:
        assert "findings: " in message, message
        text = message.split("findings: ", 1)[1].rstrip(".")
        out.append(dict(part.split("=", 1) for part in text.split(" ") if "=" in part))
    return out


def survivors(folder: Path) -> list[int]:
    """Processes still working inside the league folder (a program's leftovers)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.readlink(f"/proc/{entry}/cwd").startswith(str(folder)):
                    found.append(int(entry))
            except OSError:
                continue
    return found


def kill_survivors(folder: Path) -> None:
    for pid in survivors(folder):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


# --- hidden cards read ----------------------------------------------------------------------


def test_reading_the_opponents_and_the_referees_memory(
    tmp_path: Path, control: LeagueResult
) -> None:
    folder = make_folder(tmp_path)
    for found in findings(finished(run(folder, attacker(folder, "read_memory")), control)):
        assert found["seen"] == "0" or MODE == "none"
        sandbox_only("reading another process's memory through /proc/PID/mem")
        assert found["parent"] == "1"  # its parent is its sandbox's own init, not the referee


def test_reading_the_opponents_input_pipe(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    result = run(folder, attacker(folder, "steal_input"))
    if MODE == "none":  # the victim may have lost its questions: the league still finished
        assert len(result.records) == 6
        sandbox_only("reading another program's input through /proc/PID/fd/0")
    for found in findings(finished(result, control)):
        assert found == {"seen": "0", "opened": "0", "stolen": "0"}


# --- results changed ------------------------------------------------------------------------


def test_rewriting_another_entrants_program(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    target = folder / "alice" / "first_legal.sh"
    before = target.read_bytes()
    result = run(folder, attacker(folder, "rewrite_program", str(target)))
    if MODE == "none":
        target.write_bytes(before)
        sandbox_only("rewriting another entrant's program")
    for found in findings(finished(result, control)):
        assert found["rewritten"].startswith("no")
    assert target.read_bytes() == before


def test_killing_the_opponents_program(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    result = run(folder, attacker(folder, "kill_opponent"))
    if MODE == "none":
        assert len(result.records) == 6
        sandbox_only("killing another program")
    for found in findings(finished(result, control)):
        assert found == {"seen": "0", "killed": "0"}


def test_writing_garbage_into_the_opponents_output(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    result = run(folder, attacker(folder, "write_output"))
    if MODE == "none":
        assert len(result.records) == 6
        sandbox_only("writing into another program's output pipe")
    for found in findings(finished(result, control)):
        assert found == {"seen": "0", "written": "0"}


def test_reaching_the_network_the_dask_scheduler_listens_on(
    tmp_path: Path, control: LeagueResult
) -> None:
    folder = make_folder(tmp_path)
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    heard: list[bytes] = []
    over = threading.Event()

    def listen() -> None:
        while not over.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            conn.settimeout(2)
            heard.append(conn.recv(100))
            conn.close()

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    port = str(server.getsockname()[1])
    try:
        result = run(folder, attacker(folder, "network", port))
    finally:
        over.set()
        thread.join(5)
        server.close()
    if MODE == "none":
        sandbox_only("connecting to the machine's loopback (a Dask scheduler, Jupyter)")
    for found in findings(finished(result, control)):
        assert found["connected"].startswith("no")
    assert heard == []


def test_rewriting_the_results_after_the_end(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    page = tmp_path.parent / f"{tmp_path.name}-results.html"
    result = run(folder, attacker(folder, "escape", str(page), "1"))
    sums = write_results(result, {"html": page})
    time.sleep(1.5)  # the escaped child would have written by now
    left = survivors(folder)
    kill_survivors(folder)
    changed = hashlib.sha256(page.read_bytes()).hexdigest() != sums[str(page)]
    if MODE == "none":
        assert len(result.records) == 6
        sandbox_only("a child that left the program's process group and session")
    findings(finished(result, control))
    assert left == [] and not changed


def test_monkeypatching_the_referee_from_a_python_entry(
    tmp_path: Path, control: LeagueResult
) -> None:
    """Its patches of the scoring and the standings stay in its own process: the league is
    exactly the control league, where the same moves came from a program that patches
    nothing."""
    import rummykit.game.scoring
    import rummykit.tournament

    before = (rummykit.game.scoring.hand_value, rummykit.tournament.standings_of)
    folder = make_folder(tmp_path)
    result = run(folder, {"name": "attacker", "python": "patcher/patcher.py:Patcher"})
    # not a line of it ran in the referee's own process (setting the league up included)
    assert (rummykit.game.scoring.hand_value, rummykit.tournament.standings_of) == before
    assert not any("patcher" in name for name in sys.modules)
    assert records(result) == records(control) and not result.forfeits
    assert [s.agent for s in result.standings] == [s.agent for s in control.standings]
    assert result.standing("attacker") == control.standing("attacker")


# --- the league stopped ---------------------------------------------------------------------


def test_ptrace_freezing_the_referee(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    started = time.monotonic()
    limit = 3 if MODE == "none" else 60  # without a sandbox the worker does freeze
    result = run(folder, attacker(folder, "ptrace_parent"), game_limit=limit, tries=2)
    if MODE == "none":  # its worker froze: replaced, the game tried again, then lost
        assert len(result.records) == 6
        assert all(r.how == "lost" for r in result.lost)
        sandbox_only("ptrace-attaching the referee's worker")
    for found in findings(finished(result, control)):
        assert found["others"] == "0" and found["parent"] == "1"
    assert time.monotonic() - started < 60


def test_killing_the_referee(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    result = run(folder, attacker(folder, "kill_referee"), tries=2)
    if MODE == "none":  # its worker was killed: replaced, tried again, then the game lost
        assert len(result.records) == 6 and result.lost
        assert all("ended" in r.lost for r in result.lost)
        sandbox_only("killing the referee's worker")
    for found in findings(finished(result, control)):
        assert found["parent"] == "1"  # all it can signal is its own sandbox's init


def test_forked_children_do_not_outlive_the_league(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    result = run(folder, attacker(folder, "forks"))
    left = survivors(folder)
    kill_survivors(folder)
    for found in findings(finished(result, control)):
        if MODE == "bwrap" and not AS_ROOT:  # the kernel exempts root from the process limit
            assert int(found["forked"]) < 64 and found["error"] != "none"
    assert left == []


# --- limits ---------------------------------------------------------------------------------


def test_memory_is_limited(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    result = run(folder, attacker(folder, "memory", memory=256))
    for found in findings(finished(result, control)):
        assert found["allocated"] == "no"
    assert "256 MiB" not in result.sandbox_line()  # the league's own default is reported


def test_a_file_over_the_limit_is_refused(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    result = run(folder, attacker(folder, "file_size", file_size=1))
    for found in findings(finished(result, control)):
        assert found["wrote"] == "no"


def test_open_files_are_limited(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    result = run(folder, attacker(folder, "open_files", open_files=32))
    for found in findings(finished(result, control)):
        assert int(found["opened"]) < 32


def test_cpu_seconds_are_limited_and_named(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    result = run(folder, attacker(folder, "cpu_limit", cpu=1, time_limit=6))
    for message in finished(result, control):
        assert "the program used up its 1 CPU seconds and was stopped" in message


def test_the_organisers_environment_is_not_passed(
    tmp_path: Path, control: LeagueResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUMMYKIT_TEST_SECRET", "the teacher's token")
    folder = make_folder(tmp_path)
    for found in findings(finished(run(folder, attacker(folder, "environment")), control)):
        assert found["secret"] == "no" and found["sandbox"] == MODE
        keys = set(found["keys"].split(","))
        assert keys <= {
            "PATH", "HOME", "TMPDIR", "LANG", "LC_MESSAGES", "PYTHONPATH",
            "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "RUMMYKIT_SANDBOX", "PWD", "LC_CTYPE",
        }  # fmt: skip


def test_a_program_cannot_think_on_the_others_time(tmp_path: Path) -> None:
    """Between its questions a program is frozen: a thread that spins all along gets CPU
    only while its program is asked (the other player sleeps 0.2 s a decision)."""
    folder = make_folder(tmp_path)
    slow = {"name": "slow", "python": "trusted/saboteur.py:Slow", "process": False}
    manifest = {
        "variant": "rommi", "players": 2, "games": 1, "seed": 4, "time_limit": 3,
        "sandbox": MODE, "agents": [attacker(folder, "cpu_between"), slow],
    }  # fmt: skip
    (folder / "league.json").write_text(json.dumps(manifest))
    result = league(folder, workers=1, progress=False)
    (record,) = result.records
    assert record.forfeit is not None and record.forfeit.agent == "attacker"
    (found,) = findings([record.forfeit.message])
    cpu, wall = float(found["cpu_between"]), float(found["wall_between"])
    assert wall > 0.5 and cpu < wall / 2, found


# --- the referee itself -----------------------------------------------------------------------


def test_a_hello_nested_too_deep_is_refused_naming_the_limit(tmp_path: Path) -> None:
    folder = make_folder(tmp_path)
    with pytest.raises(LeagueError) as refused:
        run(folder, attacker(folder, "deep_hello"))
    text = str(refused.value)
    assert "attacker could not play" in text and "nested deeper than 32 levels" in text
    assert "RecursionError" not in text and "Traceback" not in text


def test_an_answer_nested_too_deep_is_the_programs_forfeit(
    tmp_path: Path, control: LeagueResult
) -> None:
    folder = make_folder(tmp_path)
    result = run(folder, attacker(folder, "deep_answer"))
    finished(result, control)
    for record in result.forfeits:
        assert record.forfeit is not None and record.forfeit.code == "garbage"
        assert "nested deeper than 32 levels, the protocol's limit" in record.forfeit.message
        assert "Traceback" not in record.forfeit.stderr  # not the referee's


def test_a_line_over_a_mebibyte_names_the_limit(tmp_path: Path, control: LeagueResult) -> None:
    folder = make_folder(tmp_path)
    result = run(folder, attacker(folder, "long_line"))
    finished(result, control)
    for record in result.forfeits:
        assert record.forfeit is not None and record.forfeit.code == "garbage"
        assert "over the protocol's limit of 1048576 bytes (1 MiB)" in record.forfeit.message
        assert "b'" not in record.forfeit.message


# --- the referee's own workers frozen or killed ---------------------------------------------


def test_a_frozen_worker_is_replaced_and_its_game_played_again(tmp_path: Path) -> None:
    folder = make_folder(tmp_path)
    entry = {"name": "freezer", "python": "trusted/saboteur.py:FreezeOnce", "process": False}
    marker = folder / "trusted" / "froze-once"
    marker.write_text("already")  # the control: it never freezes
    calm = run(folder, entry)
    marker.unlink()
    started = time.monotonic()
    frozen = run(folder, entry, game_limit=3)
    assert marker.exists()  # it froze its worker once
    assert time.monotonic() - started >= 3  # the clock ran out on that game...
    assert frozen.records == calm.records and not frozen.lost  # ... which was played again


def test_a_game_whose_worker_always_dies_is_reported_lost(tmp_path: Path) -> None:
    folder = make_folder(tmp_path)
    killer = {"name": "killer", "python": "trusted/saboteur.py:KillAlways", "process": False}
    result = run(folder, killer, tries=2)
    lost = result.lost
    assert len(result.records) == 6 and len(lost) == 4  # every game of the killer...
    assert {r.index for r in lost} == {r.index for r in result.records if "killer" in r.seating}
    assert all(r.how != "lost" for r in result.records if "killer" not in r.seating)  # only
    for record in lost:
        assert "killer" in record.seating and record.points == (0, 0)
        assert "the worker playing it ended (exit status -9) (tried 2 times)" in record.lost
    text = str(result)
    assert "Lost games (4 games, counted for nobody):" in text
    assert result.standing("alice").samples == result.standing("bob").samples == 2


def test_on_dask_the_programs_are_sandboxed_and_a_dying_worker_loses_only_its_games(
    tmp_path: Path,
) -> None:
    """On a Dask cluster: a program on a worker sees the minimal environment of its sandbox
    and can't reach the scheduler (its real address, handed to it); a game whose worker is
    killed at every question (``KilledWorker``) is reported lost, and the league goes on."""
    distributed = pytest.importorskip("distributed", reason="the cluster extra")
    dask = pytest.importorskip("dask")
    folder = make_folder(tmp_path)
    killer = {"name": "killer", "python": "trusted/saboteur.py:KillAlways", "process": False}
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None, silence_logs=50,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        port = cluster.scheduler_address.rpartition(":")[2]  # the real scheduler's
        reacher = {**attacker(folder, "network", port), "name": "reacher"}
        manifest = {
            "variant": "rommi", "players": 2, "games": 2, "seed": 4, "time_limit": 3,
            "sandbox": MODE, "game_limit": 60, "tries": 1,
            "agents": [attacker(folder, "environment"), reacher, killer],
        }  # fmt: skip
        (folder / "league.json").write_text(json.dumps(manifest))
        result = league(folder, executor=client.get_executor(), workers=2, progress=False)
        assert len(client.scheduler_info()["workers"]) == 2  # the cluster is whole again
    assert len(result.records) == 6
    killers = {r.index for r in result.records if "killer" in r.seating}
    assert result.lost and {r.index for r in result.lost} <= killers  # the killer's only
    assert all("KilledWorker" in r.lost for r in result.lost)
    for record in result.records:  # every other game: an attacker's forfeit, with findings
        if record.how != "lost":
            assert record.forfeit is not None and record.forfeit.agent in ("attacker", "reacher")
    said = {name: [r.forfeit.message for r in result.forfeits if r.forfeit.agent == name]  # type: ignore[union-attr]
            for name in ("attacker", "reacher")}  # fmt: skip
    envs, reached = findings(said["attacker"]), findings(said["reacher"])
    assert envs and all(f["sandbox"] == MODE and f["secret"] == "no" for f in envs)
    assert reached
    if MODE == "none":
        sandbox_only("connecting to the Dask scheduler from a program on a worker")
    assert all(f["connected"].startswith("no") for f in reached)
