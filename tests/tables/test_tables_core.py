"""The table server's core without the network, on a clock the test turns: the move clock, a
computer player taking an absent learner's turn (said in the log) and giving it back, empty
tables kept then closed with their record, settings refused with a reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rummykit.game import Game
from rummykit.server.store import Store
from rummykit.server.tables import Hub, Refused, Table, TableSettings


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _hub(tmp_path: Path, records: str | None = None) -> tuple[Hub, Clock, str]:
    clock = Clock()
    db = str(tmp_path / "core.db")
    return Hub(Store(db, owner="core-tests"), now=clock, records=records), clock, db


def _computer_turn(hub: Hub, table: Table) -> list[str]:
    """Let the computer play while it is due, as the web layer does; the reasons it gave."""
    why_list = []
    while (due := hub.computer_due(table)) is not None:
        seat, why = due
        why_list.append(why)
        hub.take_over(table, seat, why)
        hub.commit(table, seat, table.agent(seat).decide(table.game.observation(seat)).action)
    return why_list


def _human_seat_to_act(hub: Hub, table: Table) -> int:
    seat = table.game.current
    assert table.seats[seat].kind == "human"
    return seat


def test_the_move_clock_lets_the_computer_play_a_late_learners_turn_once(tmp_path: Path) -> None:
    hub, clock, _ = _hub(tmp_path)
    table = hub.create(
        TableSettings.from_dict(
            {"variant": "rommi", "seats": ["human", "human"], "clock": 30, "absent_after": None}
        )
    )
    for name in ("Ana", "Bob"):
        seat, _ = hub.join(table.code, None, name)
        hub.connect(table, seat, object())
    seat = _human_seat_to_act(hub, table)
    clock.t += 29.9
    assert hub.computer_due(table) is None
    assert hub.message_for(table, seat)["type"] == "decide"
    clock.t += 0.1
    assert hub.computer_due(table) == (seat, "clock")
    line = hub.take_over(table, seat, "clock")
    assert line is not None and line[1] == "tables_notice_clock"
    assert hub.message_for(table, seat)["type"] == "update"  # the computer has the turn now
    assert hub.take_over(table, seat, "clock") is None  # said once a turn
    reasons = _computer_turn(hub, table)
    assert reasons and set(reasons) <= {"taken"}  # it finishes the turn it took
    assert table.game.current != seat
    assert hub.computer_due(table) is None  # the next learner has a fresh clock
    assert [n[1] for n in table.notices] == ["tables_notice_clock"]
    from rummykit.messages import render

    said = render("tables_notice_clock", seat=seat, **line[2])
    assert "30 s" in said and str(table.seats[seat].name) in said


def test_an_absent_learner_is_played_for_after_the_teachers_timeout_and_gets_the_seat_back(
    tmp_path: Path,
) -> None:
    hub, clock, db = _hub(tmp_path)
    table = hub.create(
        TableSettings.from_dict(
            {"variant": "hungarian", "seats": ["human", "human"], "absent_after": 60}
        )
    )
    tabs = {}
    for name in ("Ana", "Bob"):
        seat, token = hub.join(table.code, None, name)
        tabs[seat] = (object(), token)
        hub.connect(table, seat, tabs[seat][0])
    seat = _human_seat_to_act(hub, table)
    hub.disconnect(table, seat, tabs[seat][0])
    clock.t += 59
    assert hub.computer_due(table) is None
    clock.t += 1
    assert hub.computer_due(table) == (seat, "away")
    due = hub.computer_due(table)
    assert due is not None
    line = hub.take_over(table, seat, due[1])
    assert line is not None and line[1] == "tables_notice_away"
    mover = table.agent(seat)
    hub.commit(table, seat, mover.decide(table.game.observation(seat)).action)
    if table.game.current == seat:  # still its turn: the learner comes back mid-turn
        back = hub.connect(table, seat, object())
        assert back is not None and back[1] == "tables_notice_back"
        assert hub.computer_due(table) is None
        assert hub.message_for(table, seat)["type"] == "decide"
    # the log is kept with the table
    restored = Hub(Store(db, owner="core-tests"), now=clock)
    restored.restore()
    assert [n[1] for n in restored.tables[table.code].notices] == [n[1] for n in table.notices]


def test_without_a_timeout_the_table_waits_for_the_learner(tmp_path: Path) -> None:
    hub, clock, _ = _hub(tmp_path)
    table = hub.create(
        TableSettings.from_dict(
            {"variant": "rommi", "seats": ["human", "easy"], "absent_after": None}
        )
    )
    _computer_turn(hub, table)
    assert table.game.current == 0 and not table.seats[0].connected
    clock.t += 86_400
    assert hub.computer_due(table) is None


def test_an_empty_table_is_kept_then_closed_with_its_record(tmp_path: Path) -> None:
    records = tmp_path / "records"
    hub, clock, db = _hub(tmp_path, str(records))
    table = hub.create(
        TableSettings.from_dict({"variant": "rommi", "seats": ["human", "easy"], "keep_empty": 600})
    )
    seat, _ = hub.join(table.code, None, "Ana")
    tab = object()
    hub.connect(table, seat, tab)
    _computer_turn(hub, table)
    clock.t += 5000
    assert hub.sweep() == []  # a learner is connected: kept
    hub.disconnect(table, seat, tab)
    clock.t += 599
    assert hub.sweep() == []
    clock.t += 1
    assert hub.sweep() == [table] and table.code not in hub.tables
    kept = json.loads((records / f"{table.code}.json").read_text(encoding="utf-8"))
    stored = Store(db).record(table.code)
    assert stored is not None and json.loads(stored) == kept
    assert len(Game.load(stored).actions) == len(table.game.actions)
    again = Hub(Store(db, owner="core-tests"), now=clock)
    assert again.restore() == 0  # a closed table is not reopened
    with pytest.raises(Refused, match="no open table"):
        again.join(table.code, None, "Ana")


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"seats": ["human"]}, "players"),
        ({"variant": "poker"}, "poker"),
        ({"seats": ["human", "wizard"]}, "seat 2 is 'wizard'"),
        ({"clock": 0}, "clock can't be 0"),
        ({"clock": True}, "clock can't be true"),
        ({"keep_empty": "soon"}, 'keep_empty can\'t be "soon"'),
        ({"takeover": "human"}, "takeover can't be"),
        ({"seed": -1}, "seed can't be -1"),
        ({"options": {"opening_threshold": "lots"}}, "opening_threshold"),
        ({"seats": "human,human"}, "seats can't be"),
        ([], "must be"),
    ],
)
def test_bad_settings_are_refused_naming_the_bad_part(settings: Any, says: str) -> None:
    with pytest.raises(Refused) as refused:
        TableSettings.from_dict(settings)
    assert says in str(refused.value)


def test_settings_read_back_from_their_json_form() -> None:
    settings = TableSettings.from_dict(
        {
            "variant": "hungarian",
            "seats": ["human", "Hard", "human"],
            "clock": 45,
            "options": {"opening_threshold": 40},
        }
    )
    assert settings.seats == ("human", "hard", "human")
    assert TableSettings.from_dict(json.loads(json.dumps(settings.to_dict()))) == settings


def test_a_seat_token_is_kept_only_as_a_hash_and_a_full_table_refuses(tmp_path: Path) -> None:
    hub, _, db = _hub(tmp_path)
    table = hub.create(TableSettings.from_dict({"variant": "rommi", "seats": ["human", "easy"]}))
    seat, token = hub.join(table.code, None, "  Ana \n Maria  ")
    assert table.seats[seat].name == "Ana Maria"
    stored = Store(db).table(table.code)
    assert stored is not None and token not in json.dumps(stored.seats)
    assert hub.join(table.code, token, "whoever") == (seat, token)
    with pytest.raises(Refused, match="is taken"):
        hub.join(table.code, None, "Bob")
    with pytest.raises(Refused, match="not one of table"):
        hub.join(table.code, token + "x", "Bob")


def test_a_table_plays_a_match_round_after_round_and_comes_back_in_the_same_round(
    tmp_path: Path,
) -> None:
    records = tmp_path / "records"
    hub, clock, db = _hub(tmp_path, str(records))
    table = hub.create(
        TableSettings.from_dict(
            {"variant": "rommi", "seats": ["easy", "greedy"], "between_rounds": 5}
        )
    )
    _computer_turn(hub, table)
    assert table.game.is_over and table.status == "open" and table.match.round_number == 1
    assert not hub.next_round_due(table)
    clock.t += 5
    assert hub.next_round_due(table)
    first_points = table.game.result.points  # type: ignore[union-attr]
    hub.deal(table)
    assert table.match.round_number == 2 and not table.game.is_over
    assert table.game.match_scores == tuple(first_points)  # the totals carried into round 2
    assert table.game.dealer == 1  # the deal moves one seat on
    for _ in range(3):
        if table.game.is_over:
            break
        seat = table.game.current
        hub.commit(table, seat, table.agent(seat).decide(table.game.observation(seat)).action)
    again = Hub(Store(db, owner="core-tests"), now=clock)
    again.restore()
    back = again.tables[table.code]
    assert back.match.round_number == 2 and back.position == table.position
    assert back.game.snapshot() == table.game.snapshot()
    assert Game.load((records / f"{table.code}-r1.json").read_text(encoding="utf-8")).is_over
    assert hub.public_view(table)["round"] == 2


def test_without_between_rounds_a_table_plays_one_round(tmp_path: Path) -> None:
    hub, clock, _ = _hub(tmp_path)
    table = hub.create(TableSettings.from_dict({"variant": "rommi", "seats": ["easy", "easy"]}))
    _computer_turn(hub, table)
    clock.t += 10_000
    assert table.status == "over" and not hub.next_round_due(table)


def test_rummykit_tables_refuses_a_database_it_cannot_use(tmp_path: Path, capsys: Any) -> None:
    from rummykit.cli import main

    assert main(["tables", "--db", "mysql://someone@somewhere/db", "--port", "0"]) == 2
    said = capsys.readouterr().err
    assert "rummykit tables: --db 'mysql://someone@somewhere/db' is neither a file path" in said
    (tmp_path / "not-a-db").mkdir()
    assert main(["tables", "--db", str(tmp_path / "not-a-db"), "--port", "0"]) == 2
    assert "the database can't be used" in capsys.readouterr().err
