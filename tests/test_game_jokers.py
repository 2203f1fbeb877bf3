"""Several joker meanings at the referee (house rule ``jokers_per_meld=2``, issue 11): a
player names a card per joker — in the action, its text (``as 3h 7h``) and its JSON form —
and the referee's choice, its legal actions and the saved game keep every meaning."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from referee_helpers import allowed, everything_accounted_for, opened_table, refuse

from rummykit import Card, variant
from rummykit.cards import as_cards
from rummykit.game import Action, Game, LayOff, PlayMeld, from_position, parse_action
from rummykit.game.record import load

TWO = variant("hungarian", jokers_per_meld=2)


def _game(hand: str = "Kh Jk Jk 2d 5c", table: tuple[tuple[int, str], ...] = ()) -> Game:
    return opened_table(hand, table, TWO)


def _named(text: str) -> tuple[Card, ...]:
    return tuple(sorted(as_cards(text), key=Card.sort_key))


def _jokers(game: Game, index: int) -> list[Card | None]:
    meld = game.table[index].meld
    return [rep for card, rep in zip(meld.cards, meld.represents) if card.is_joker]


def test_a_meaning_per_joker_in_text_data_and_json() -> None:
    action = parse_action("meld Kh Jk Jk as Qh Jh")
    assert isinstance(action, PlayMeld)
    assert action.joker_as == as_cards("Jh Qh")  # jokers are alike: the order doesn't matter
    assert action == parse_action("meld Kh Jk Jk as Jh Qh")
    assert action == PlayMeld(as_cards("Kh Jk Jk"), (Card("Qh"), Card("Jh")))
    assert str(action) == "meld K♥ 🃏 🃏 (jokers as J♥ Q♥)"
    data = action.to_dict()
    assert data["joker_as"] == ["J♥", "Q♥"]
    assert Action.from_dict(json.loads(json.dumps(data))) == action
    lay = parse_action("lay off Jk Jk onto 2 as 3h 4h")
    assert isinstance(lay, LayOff) and lay.meld == 1 and lay.joker_as == as_cards("3h 4h")
    assert Action.from_dict(lay.to_dict()) == lay


def test_the_single_card_form_keeps_working() -> None:
    action = parse_action("meld Jk 2h 3h as 4h")
    assert action == PlayMeld(as_cards("Jk 2h 3h"), Card("4h"))
    assert str(action) == "meld 🃏 2♥ 3♥ (joker as 4♥)"
    assert action.to_dict()["joker_as"] == "4♥"
    assert PlayMeld(as_cards("Jk 2h 3h"), (Card("4h"),)) == action  # one card is one card
    assert Action.from_dict({**action.to_dict(), "joker_as": ["4♥"]}) == action
    assert parse_action("meld Ks As 2s") == PlayMeld(as_cards("Ks As 2s"))  # the ace of spades


def test_open_jokers_are_asked_for_as_whole_readings() -> None:
    game = _game()
    verdict = refuse(game, "meld Kh Jk Jk", "joker_ambiguous", "H5", names=["Kh"])
    text = str(verdict)
    assert "Say what the jokers stand for:" in text
    assert "the J♥ and the Q♥" in text and "the Q♥ and the A♥" in text
    assert "two of the missing K♠, K♦ and K♣" in text
    # one card named, two readings left: still asked, the other reading gone
    verdict = refuse(game, "meld Kh Jk Jk as Qh", "joker_ambiguous", "H5")
    assert "K♠" not in str(verdict) and "the J♥ and the Q♥" in str(verdict)
    refuse(game, "meld Kh Jk Jk as 2h 3h", "joker_as_impossible", "H5")


@pytest.mark.parametrize(
    ("named", "reps"),
    [("Jh Qh", "Jh Qh"), ("Qh Ah", "Qh Ah"), ("Ah Qh", "Qh Ah"), ("Ks Kd", "")],
)
def test_the_named_meanings_are_the_melds(named: str, reps: str) -> None:
    game = _game()
    allowed(game, f"meld Kh Jk Jk as {named}")
    if reps:
        assert game.table[0].meld.kind == "run"
        assert Counter(_jokers(game, 0)) == Counter(as_cards(reps))
    else:  # a set of three: its jokers stand for "missing suits", not fixed ones (H5)
        assert game.table[0].meld.kind == "set"
        assert _jokers(game, 0) == [None, None]
    everything_accounted_for(game)
    again = load({"format": "rummykit-position", "version": 1, "position": game.snapshot()})
    assert again.snapshot() == game.snapshot()
    assert Game.load(game.to_json()).snapshot() == game.snapshot()


def test_legal_actions_offer_every_whole_reading_once() -> None:
    game = _game()
    melds = [a for a in game.legal_actions() if isinstance(a, PlayMeld)]
    kings = {a.joker_as for a in melds if Card("Kh") in a.cards}
    assert kings == {_named("Ks Kd"), _named("Jh Qh"), _named("Qh Ah")}
    keys = [(tuple(sorted(a.cards, key=Card.sort_key)), a.joker_as) for a in melds]
    assert len(keys) == len(set(keys))  # each move once, whatever the order of its cards
    for action in game.legal_actions():
        assert game.check(action).ok, action


def test_two_jokers_laid_off_at_once_each_with_its_meaning() -> None:
    game = _game("Jk Jk 2d 5c", ((1, "5h 6h 7h"),))
    verdict = refuse(game, "lay off Jk Jk onto 1", "joker_ambiguous", "H5")
    assert "Say what the jokers stand for:" in str(verdict)
    allowed(game, "lay off Jk Jk onto 1 as 8h 9h")
    assert game.table[0].meld.cards == as_cards("5h 6h 7h Jk Jk")
    assert _jokers(game, 0) == list(as_cards("8h 9h"))
    assert Game.load(game.to_json()).snapshot() == game.snapshot()


def test_one_joker_per_meld_still_refuses_two() -> None:
    game = from_position(
        "hungarian", hands=["Kh Jk Jk 2d", "3c"], discard="5s", phase="play", opened=[True] * 2
    )
    refuse(game, "meld Kh Jk Jk as Jh Qh", "too_many_jokers", "H5")
