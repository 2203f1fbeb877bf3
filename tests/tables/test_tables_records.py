"""A played table's record is a saved game like any other: fetched from the teacher's API
(and written by ``--records DIR``, and kept after the table closes), it loads, replays to
the server's final position, and ``rummykit review FILE`` reviews every seat of it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from rummykit.ai import make_agent
from rummykit.cli import main
from rummykit.game import Game
from rummykit.mistakes import review
from rummykit.server.client import TableClient
from tests.tables.conftest import Served


def test_a_played_table_s_record_goes_into_rummykit_review(
    serve: Any, tmp_path: Path, capsys: Any
) -> None:
    records = tmp_path / "records"
    server: Served = serve(None, "--records", str(records))
    code = server.create(variant="rommi", seats=["human", "human", "easy"], seed=11)

    async def play() -> None:
        clients = [TableClient(server.ws, code, name=n) for n in ("Ana", "Ben")]
        for client in clients:
            await client.connect()
        await asyncio.gather(*(c.play(make_agent("easy")) for c in clients))

    asyncio.run(asyncio.wait_for(play(), 120))
    view = server.api(f"/api/tables/{code}?open=1")[1]
    assert view["status"] == "over"
    status, data = server.api(f"/api/tables/{code}/record")
    assert status == 200
    text = json.dumps(data)
    # the record replays to the position the server holds: same hands, same scores
    game = Game.load(text)
    assert game.is_over and game.players == 3
    assert [[str(c) for c in game.hand(s)] for s in range(3)] == view["hands"]
    assert list(game.observation(0).scores) == view["game"]["scores"]
    assert {a["seat"] for a in data["actions"]} == {0, 1, 2}
    # the file --records wrote is the same record
    written = json.loads((records / f"{code}-r1.json").read_text(encoding="utf-8"))
    assert written == data
    path = tmp_path / f"{code}.json"
    path.write_text(text, encoding="utf-8")
    for seat in range(3):  # the learners' seats and the computer's
        assert main(["review", str(path), "--seat", str(seat), "--json"]) == 0
        said = json.loads(capsys.readouterr().out)
        expected = review(text, seat).to_dict()
        assert said["seat"] == seat and said["variant"] == "rommi"
        assert said["decisions"] == expected["decisions"] > 0
        assert len(said["mistakes"]) == len(expected["mistakes"])
    # closed, the table's record is still the teacher's, and still a saved game
    assert server.api(f"/api/tables/{code}/close", {})[0] == 200
    status, kept = server.api(f"/api/tables/{code}/record")
    assert status == 200 and kept == data
    assert main(["review", str(records / f"{code}.json"), "--seat", "1"]) == 0
    assert capsys.readouterr().out.strip()

    # the class report: the learners' decisions, named as the table named them
    names = [seat["name"] or "-" for seat in view["seats"]]
    assert names == ["Ana", "Ben", "-"]
    out = tmp_path / "report"
    spec = f"{path}={','.join(names)}"
    assert main(["class-report", "--game", spec, "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    from rummykit.grading.report import answers_from_game, class_report

    report = class_report(games=[spec])
    assert report.students() == ["Ana", "Ben"]  # the computer's seat left out
    for seat, student in enumerate(("Ana", "Ben")):
        result = review(text, seat)
        answers = report.by_student()[student]
        # every decision the review weighed is one answer; wrong exactly where it found a mistake
        assert len(answers) == result.decisions == len(result.weighed)
        assert sum(not a.correct for a in answers) == len(result.mistakes)
        assert {(a.question, a.kind) for a in answers if not a.correct} == {
            (m.number, f"game_{m.kind}") for m in result.mistakes
        }
        for answer in answers:
            assert data["actions"][answer.question - 1]["seat"] == seat  # the seat's own move
            assert answer.source == f"game {code}" and answer.rules == ()
        right = sum(a.correct for a in answers)
        assert f"{student}: {right} right out of {len(answers)}" in printed
    csv_text = (out / "class-report.csv").read_text(encoding="utf-8")
    assert csv_text.count("\nAna,") + csv_text.count("\nBen,") == len(report.answers)
    # without names every seat is reported, named after the file
    assert {a.student for a in answers_from_game(path)} == {f"{code}, seat {n}" for n in range(3)}
    # a file that is no saved game is refused, naming it
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "rummykit-game", "players": 2}', encoding="utf-8")
    assert main(["class-report", "--game", str(bad)]) == 2
    assert f"{bad} is not a saved game" in capsys.readouterr().err
