"""Leagues: fair schedules, the same result wherever they run (here, a process pool, a Dask
cluster), forfeits that don't stop the league, and reports a teacher can read."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from rummykit.cli import main
from rummykit.leagues import LeagueError, league, read_manifest, write_results
from rummykit.tournament import GameRecord, run_tournament, standings_of

ROOT = Path(__file__).resolve().parent.parent
AGENTS = Path(__file__).resolve().parent / "agents"
EXAMPLES = ROOT / "examples" / "agents"


LOWBALL = {"name": "lowball", "python": f"{EXAMPLES / 'lowball.py'}:LowBall"}


def entrant(name: str, **how: object) -> dict[str, object]:
    return {"name": name, **how}


def test_a_round_robin_meets_every_table_with_every_deal_from_every_seat() -> None:
    result = league(
        ["easy", "normal", LOWBALL], "rommi", 2, games=4, seed=3, workers=1, progress=False
    )
    assert result.schedule == "round_robin"
    tables = Counter(frozenset(r.seating) for r in result.records)
    assert set(tables) == {frozenset(p) for p in combinations(["easy", "normal", "lowball"], 2)}
    assert set(tables.values()) == {4}
    deals = {r.deal_seed for r in result.records}
    assert len(deals) == 2  # every table plays the same two deals
    for table in tables:
        for deal in deals:  # ... each from both seats
            seatings = [
                r.seating for r in result.records if r.deal_seed == deal and set(r.seating) == table
            ]
            assert sorted(seatings) == sorted({seatings[0], seatings[0][::-1]})
    for s in result.standings:
        assert s.samples == 8 and s.forfeits == 0
        mine = [r.points[r.seating.index(s.agent)] for r in result.records if s.agent in r.seating]
        assert s.mean == pytest.approx(sum(mine) / len(mine))


def test_the_same_seed_gives_the_same_league_and_another_seed_another() -> None:
    run = dict(variant="hungarian", players=3, games=3, workers=1, progress=False)
    a = league(["easy", "normal", LOWBALL], seed=5, **run)  # type: ignore[arg-type]
    b = league(["easy", "normal", LOWBALL], seed=5, **run)  # type: ignore[arg-type]
    c = league(["easy", "normal", LOWBALL], seed=6, **run)  # type: ignore[arg-type]
    assert a == b and a.to_json() == b.to_json()
    assert a.records != c.records


def test_many_entrants_play_a_swiss_schedule() -> None:
    entrants = [
        entrant(f"p{i}", python="test_tournament:FirstLegal", process=False) for i in range(9)
    ]
    result = league(
        entrants,
        "rommi",
        2,
        games=2,
        seed=1,
        rounds=3,
        workers=1,
        progress=False,
        schedule="auto",
    )  # type: ignore[arg-type]
    assert result.schedule == "swiss" and result.rounds == 3
    met: Counter[frozenset[str]] = Counter()
    rested: Counter[str] = Counter()
    for tables in result.tables:
        assert len(tables) == 4  # 9 entrants: four tables of two, one sits out
        seated = [n for t in tables for n in t]
        assert len(seated) == len(set(seated)) == 8
        rested.update(set(result.entrants) - set(seated))
        met.update(frozenset(t) for t in tables)
    assert max(met.values()) == 1  # nobody meets twice in three rounds of nine
    assert max(rested.values()) == 1  # a different entrant sits out each round
    assert len(result.records) == 3 * 4 * 2


def test_forfeits_are_counted_and_the_league_goes_on(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "first_legal.sh", tmp_path)
    shutil.copy(AGENTS / "misbehaving.py", tmp_path)
    (tmp_path / "buggy.py").write_text(
        "from rummykit.ai import EasyAgent\n\n"
        "class Buggy(EasyAgent):\n"
        "    name = 'buggy'\n\n"
        "    def decide(self, obs):\n"
        "        if obs.phase == 'play':\n"
        "            raise RuntimeError('my agent has a bug')\n"
        "        return super().decide(obs)\n"
    )
    py = sys.executable
    manifest = {
        "variant": "rommi",
        "players": 2,
        "games": 2,
        "seed": 2,
        "time_limit": 0.5,
        "agents": [
            entrant("first", command=["sh", "first_legal.sh"]),
            entrant("hang", command=[py, "misbehaving.py", "hang"]),
            entrant("crash", command=[py, "misbehaving.py", "crash"]),
            entrant("garbage", command=[py, "misbehaving.py", "garbage"]),
            entrant("illegal", command=[py, "misbehaving.py", "illegal"]),
            entrant("buggy", python="buggy.py:Buggy"),
        ],
    }
    (tmp_path / "league.json").write_text(json.dumps(manifest))
    result = league(tmp_path, workers=1, progress=False)
    assert len(result.records) == 15 * 2  # every game of the round robin was played
    expected = {"hang": "timeout", "crash": "crash", "garbage": "garbage", "illegal": "illegal",
                "buggy": "error"}  # fmt: skip
    assert all(r.forfeit is not None and r.forfeit.agent != "first" for r in result.records)
    for name, code in expected.items():  # whoever breaks the protocol first loses the game
        against_first = [r for r in result.records if set(r.seating) == {name, "first"}]
        assert len(against_first) == 2
        assert all(r.forfeit.agent == name for r in against_first)  # type: ignore[union-attr]
        lost = [r for r in result.records if r.forfeit.agent == name]  # type: ignore[union-attr]
        assert result.standing(name).forfeits == len(lost) >= 2
        assert {r.forfeit.code for r in lost} == {code}  # type: ignore[union-attr]
    assert result.standing("first").forfeits == 0 and result.place_of("first") == 1
    text = str(result)
    for words in (
        "hang (seat", "forfeits: no answer within 0.5 s.",
        "crash (seat", "forfeits: the program ended (exit status 3).",
        "stderr: Traceback: something went badly wrong",
        "forfeits: it answered outside the protocol:",
        "forfeits: an illegal action after the referee's verdict: Not allowed: discard",
        "buggy (seat", "forfeits: it reported an error: RuntimeError: my agent has a bug.",
    ):  # fmt: skip
        assert words in text
    html = result._repr_html_()
    assert html.count("<tr>") >= 2 * 6 and "forfeits" in html and "my agent has a bug" in html


def test_a_program_that_cannot_play_is_refused_before_the_league(tmp_path: Path) -> None:
    shutil.copy(AGENTS / "misbehaving.py", tmp_path)
    py = sys.executable
    for mode, words in (
        ("rommi_only", "does not play hungarian"),
        ("wrong_version", "protocol 99"),
    ):
        with pytest.raises(LeagueError, match=words):
            league([entrant("x", command=[py, str(tmp_path / "misbehaving.py"), mode]), "easy"],
                   "hungarian", 2, games=2, progress=False)  # fmt: skip


@pytest.mark.parametrize(
    ("manifest", "words"),
    [
        ("[1, 2]", 'a list "agents"'),
        ("{not json", "is not valid"),
        ('{"agents": [{"name": "a"}]}', "give exactly one of"),
        ('{"agents": [{"level": "easy"}, {"level": "easy"}]}', "share the name easy"),
        ('{"agents": [{"level": "easy"}], "speed": 3}', "unknown settings speed"),
        ('{"agents": [{"level": "easy"}]}', "at least 2 entrants, not 1"),
        ('{"agents": [{"python": "missing.py:X"}, {"level": "easy"}]}', "there is no file"),
        ('{"agents": [{"level": "grandmaster"}, {"level": "easy"}]}', "grandmaster"),
    ],
)
def test_bad_manifests_are_refused_with_a_reason(tmp_path: Path, manifest: str, words: str) -> None:
    (tmp_path / "league.json").write_text(manifest)
    with pytest.raises(LeagueError, match=words):
        league(tmp_path, progress=False)
    assert main(["league", str(tmp_path), "-q"]) == 2


def test_the_example_folder_plays_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page = tmp_path / "board.html"
    assert (
        main(
            [
                "league",
                str(EXAMPLES),
                "--games",
                "2",
                "-w",
                "1",
                "-q",
                "--json",
                "--html",
                str(page),
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert set(data["entrants"]) == {"easy", "normal", "lowball", "first-legal"}
    assert {s["agent"] for s in data["standings"]} == set(data["entrants"])
    assert set(data["pairwise"]["easy"]) == {"normal", "lowball", "first-legal"}
    assert all(s["forfeits"] == 0 for s in data["standings"])
    assert "<table>" in page.read_text()


def test_progress_is_reported_game_by_game() -> None:
    seen: list[tuple[int, int]] = []
    league(["easy", LOWBALL, "normal"], "rommi", 2, games=2, seed=1, workers=1,  # type: ignore[list-item]
           progress=lambda done, total: seen.append((done, total)))  # fmt: skip
    assert [d for d, _ in seen] == list(range(1, 7)) and {t for _, t in seen} == {6}


def test_a_dask_cluster_gives_the_same_league_as_one_process() -> None:
    distributed = pytest.importorskip("distributed", reason="the cluster extra: rummykit[cluster]")
    entrants = ["easy", "normal", {"name": "easy-apart", "level": "easy", "process": True}]
    here = league(entrants, "rommi", 2, games=2, seed=7, workers=1, progress=False)  # type: ignore[arg-type]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, silence_logs=40,
    ) as cluster, distributed.Client(cluster) as client:  # fmt: skip
        executor = client.get_executor()
        with distributed.get_task_stream(client) as stream:
            there = league(entrants, "rommi", 2, games=2, seed=7, executor=executor, progress=False)  # type: ignore[arg-type]
            tournament = run_tournament(
                "rommi", 2, ["easy", "normal"], games=2, seed=2, executor=executor
            )
        workers = client.run(lambda: __import__("os").getpid())
    assert len(workers) == 2
    played = [t for t in stream.data if "play_chunk" in str(t["key"])]
    assert played and {t["worker"] for t in played} <= set(workers)  # the cluster played them
    assert there == here
    assert tournament == run_tournament("rommi", 2, ["easy", "normal"], games=2, seed=2, workers=1)


# --- a league nobody can cheat (issue 29): what the teacher reads and keeps -----------------


def test_results_are_written_atomically_with_checksums_in_the_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page, data = tmp_path / "board.html", tmp_path / "results.json"
    data.write_text("an older league's results")
    argv = ["league", str(EXAMPLES), "--games", "2", "-w", "1", "-q", "--sandbox", "none"]
    assert main([*argv, "--html", str(page), "--save", str(data)]) == 0
    out = capsys.readouterr().out
    sums = dict(reversed(line.split("  ", 1)) for line in out.splitlines()[-2:])
    for path in (page, data):
        assert sums[str(path)] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert "Files written (SHA-256; sha256sum -c checks these lines):" in out
    saved = json.loads(data.read_text())
    assert saved["sandbox"]["mode"] == "none" and set(saved["entrants"]) >= {"first-legal"}
    assert "No sandbox (sandbox none): programs ran as the organiser's own user" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.html", "results.json"]  # no temp


def test_writing_results_that_fails_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = league(["easy", "normal"], "rommi", 2, games=2, seed=1, workers=1, progress=False)
    path = tmp_path / "results.json"
    path.write_text("the old results")

    def broken(handle: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError, match="No space left"):
        write_results(result, {"json": path})
    assert path.read_text() == "the old results" and [p.name for p in tmp_path.iterdir()] == [
        "results.json"
    ]


def test_win_rate_intervals_stay_between_0_and_100_percent() -> None:
    # seven deals of two rotations: the first agent wins every game of six of them
    records = []
    for deal in range(7):
        for k in range(2):
            seating = ("a", "b") if k == 0 else ("b", "a")
            winner = seating.index("a") if deal < 6 else seating.index("b")
            points = tuple(10 if s == winner else 0 for s in range(2))
            records.append(GameRecord(2 * deal + k, deal, seating, points, (winner,), "out", 9))
    standings, _ = standings_of(records, ["a", "b"], [r.deal_seed for r in records], False)
    a = next(s for s in standings if s.agent == "a")
    assert a.win_rate == pytest.approx(6 / 7) and a.win_ci is not None
    assert a.win_ci[1] == 1.0 and 0.0 <= a.win_ci[0] < 6 / 7  # clipped, not 103%
    b = next(s for s in standings if s.agent == "b")
    assert b.win_ci is not None and b.win_ci[0] == 0.0


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"level": "easy", "memroy": 512}, "unknown keys memroy"),
        ({"level": "easy", "memory": 0}, "the limit memory must be a whole number from 1"),
        ({"level": "easy", "cpu": "lots"}, "the limit cpu must be a whole number"),
        ({"command": ["sh", "x.sh"], "folder": "../elsewhere"}, "not a folder inside the league"),
    ],
)
def test_bad_entries_are_refused_naming_the_key(
    tmp_path: Path, entry: dict[str, object], words: str
) -> None:
    (tmp_path / "league.json").write_text(json.dumps({"agents": [entry, {"level": "normal"}]}))
    with pytest.raises(LeagueError, match=words):
        league(tmp_path, progress=False)


def test_a_program_sees_its_own_folder_or_only_its_own_files(tmp_path: Path) -> None:
    for name in ("alice", "bob"):
        (tmp_path / name).mkdir()
        shutil.copy(EXAMPLES / "first_legal.sh", tmp_path / name)
    shutil.copy(EXAMPLES / "first_legal.sh", tmp_path / "carol.sh")
    shutil.copy(EXAMPLES / "lowball.py", tmp_path / "alice")
    manifest = {
        "agents": [
            {"name": "alice", "python": "alice/lowball.py:LowBall"},
            {"name": "bob", "command": ["sh", "first_legal.sh"], "folder": "bob"},
            {"name": "carol", "command": ["sh", "carol.sh"]},
            {"name": "teacher", "python": "alice/lowball.py:LowBall", "process": False},
        ]
    }
    (tmp_path / "league.json").write_text(json.dumps(manifest))
    entrants, _ = read_manifest(tmp_path)
    agents = {e.name: getattr(e.factory, "agent", None) for e in entrants}
    root = tmp_path.resolve()
    assert agents["alice"].visible == (str(root / "alice"),)  # type: ignore[union-attr]
    assert agents["bob"].visible == (str(root / "bob"),)  # type: ignore[union-attr]
    assert agents["bob"].cwd == str(root / "bob")  # type: ignore[union-attr]
    assert agents["carol"].visible == (str(root / "carol.sh"),)  # type: ignore[union-attr]
    assert agents["teacher"] is None  # trusted: in the referee's process
    assert {e.name: e.process for e in entrants} == {
        "alice": True, "bob": True, "carol": True, "teacher": False
    }  # fmt: skip
