"""Games saved by an earlier rummykit still load, and replay to the very position it saved.

The files in ``tests/data/records_0.1.0`` were written by rummykit 0.1.0 (see the README
there): whole rounds and rounds stopped midway, both variants, 2 to 4 players, house rules,
a chosen cut, match scores, and positions set up by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummykit.game import Game
from rummykit.game.record import RecordError, dumps, loads

DATA = Path(__file__).parent / "data" / "records_0.1.0"
NAMES = sorted(
    p.name.removesuffix(".json") for p in DATA.glob("*.json") if ".snapshot" not in p.name
)


def test_the_old_files_are_all_there() -> None:
    assert len(NAMES) == 8
    kinds = {json.loads((DATA / f"{n}.json").read_text(encoding="utf-8"))["format"] for n in NAMES}
    assert kinds == {"rummykit-game", "rummykit-position"}


@pytest.mark.parametrize("name", NAMES)
def test_an_old_record_replays_to_the_position_it_saved(name: str) -> None:
    text = (DATA / f"{name}.json").read_text(encoding="utf-8")
    saved = json.loads((DATA / f"{name}.snapshot.json").read_text(encoding="utf-8"))
    game = loads(text)
    assert game.snapshot() == saved
    assert json.loads(dumps(game)) == json.loads(text)  # written again the same way


@pytest.mark.parametrize("name", NAMES)
def test_an_old_position_loads_as_it_was(name: str) -> None:
    snapshot = json.loads((DATA / f"{name}.snapshot.json").read_text(encoding="utf-8"))
    record = {"format": "rummykit-position", "version": 1, "position": snapshot}
    if snapshot["phase"] == "over":  # a finished round is no position to play from
        with pytest.raises(RecordError, match=r"position\.result"):
            Game.from_record(record)
        return
    game = Game.from_record(record)
    assert game.snapshot() == snapshot
    # and it plays on: the seat to act has something legal to do
    assert game.legal_actions()
