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
