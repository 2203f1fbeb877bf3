"""Hungarian Rummy, rule by rule (H1–H15): one scenario per rule part, set up by hand.

Every test is named after the rule it proves, so the rulebook (``rules/hungarian.md``) and
these tests can be read side by side. Refusals are checked by reason ``code`` and ``rule``
id, the message must name the cards, and a refused action must leave the game exactly as it
was (its saved form, its JSON record, the turn in progress and the history).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from referee_helpers import (
    act,
    allowed,
    cards,
    everything_accounted_for,
    opened_table,
    play,
    refuse,
)

from rummykit import HUNGARIAN, Card, VariantError
from rummykit.cards import as_cards
from rummykit.game import (
    Action,
    Draw,
    Game,
    Match,
    PlayMeld,
    from_position,
)
from rummykit.game.record import load
from rummykit.melds import check_layoff

# --- helpers ---------------------------------------------------------------------------------


OPENING = "7h 8h 9h 10s 10d 10c Jc Qc Kc"  # 24 + 30 + 30 = 84 (the rulebook's example)
OTHER = "3c 4c 5c 8d 8s 8h 2d"


# --- H1: the deck and the players -------------------------------------------------------------


def test_H1_deck_has_108_cards() -> None:
    game = Game.new("hungarian", players=4, seed=1)
    assert sum(game.all_cards().values()) == 108
    everything_accounted_for(game)
    deck = Counter(HUNGARIAN.deck())
    assert deck[Card("🃏")] == 4
    assert all(n == 2 for card, n in deck.items() if not card.is_joker)
    assert len(deck) == 53


@pytest.mark.parametrize("players", [2, 3, 4])
def test_H1_two_to_four_players(players: int) -> None:
    game = Game.new("hungarian", players=players, seed=players)
    assert game.players == players
    everything_accounted_for(game)


@pytest.mark.parametrize("players", [1, 5])
def test_H1_too_few_or_too_many_players_refused(players: int) -> None:
    with pytest.raises(VariantError, match="2 to 4"):
        Game.new("hungarian", players=players, seed=1)


# --- H2: seats, turn order, the dealer --------------------------------------------------------


def test_H2_play_passes_clockwise() -> None:
    game = Game.new("hungarian", players=4, seed=3, dealer=2)
    assert game.current == 3  # the dealer's left starts
    seen = []
    for _ in range(6):
        seen.append(game.current)
        if game.phase == "draw":
            game.play(Draw("stock"))
        game.play(act(f"discard {game.hand(game.current)[-1]}"))
    assert seen == [3, 0, 1, 2, 3, 0]


def test_H2_dealer_moves_clockwise_each_round() -> None:
    match = Match("hungarian", players=3, seed=5)
    dealers = []
    for _ in range(4):
        game = match.new_round()
        dealers.append(game.dealer)
        assert game.current == (game.dealer + 1) % 3
        _play_out_quietly(game)
    assert dealers == [0, 1, 2, 0]


def test_H2_out_of_turn_refused() -> None:
    game = from_position("hungarian", hands=[OPENING + " 2s", OTHER], discard="5s")
    refuse(game, "draw", "not_your_turn", "H6", seat=1)
    refuse(game, "discard 2d", "not_your_turn", "H6", names=["2d"], seat=1)
    verdict = game.check(act("draw"), seat=1)
    assert "seat 0's turn, not seat 1's" in str(verdict)


# --- H3: the cut and the deal -----------------------------------------------------------------


def _shuffled(seed: int) -> list[Card]:
    deck = list(HUNGARIAN.deck())
    random.Random(seed).shuffle(deck)
    return deck  # top first, as the game deals it


def test_H3_cutter_is_dealers_right_and_chooses_height() -> None:
    game = Game.new("hungarian", players=4, seed=8, dealer=1, choose_cut=True)
    assert (game.phase, game.current) == ("cut", 0)  # the dealer's right
    assert game.legal_actions() == [act(f"cut {h}") for h in range(1, 108)]
    refuse(game, "draw", "cut_first", "H3")
    refuse(game, "cut 0", "cut_bad_height", "H3")
    refuse(game, "cut 108", "cut_bad_height", "H3")
    refuse(game, "cut 30", "not_your_turn", "H6", seat=2)
    allowed(game, "cut 30")
    deck = _shuffled(8)
    assert game.cut_card == deck[29]  # the bottom card of the lifted packet
    assert str(game.events[-1]) == f"Seat 0 cut the deck at 30; the cut card is {deck[29]}."
    refuse(game, "cut 30", "cut_not_now", "H3")


def test_H3_deal_after_the_cut() -> None:
    game = Game.new("hungarian", players=3, seed=21, dealer=0, cut=40)
    deck = _shuffled(21)
    order = deck[40:] + deck[:39]  # the rest goes on top; the cut card stays out
    starter = 1
    for i in range(3):
        seat = (starter + i) % 3
        expected = [order[i + 3 * k] for k in range(14)]
        if seat == starter:
            expected.append(order[42])
        assert list(game.hand(seat)) == expected
    assert game.cut_card == deck[39]
    assert game.stock_size == 108 - 1 - 3 * 14 - 1


def test_H3_fourteen_cards_and_the_starter_fifteen() -> None:
    for players in (2, 3, 4):
        game = Game.new("hungarian", players=players, seed=players, dealer=players - 1)
        sizes = [len(game.hand(s)) for s in range(players)]
        assert sizes[0] == 15 and sizes[1:] == [14] * (players - 1)
        assert game.stock_size == 108 - 1 - 14 * players - 1
        assert game.discard_pile == ()
        assert (game.current, game.phase) == (0, "play")


def test_H3_default_cut_is_the_middle() -> None:
    assert (
        Game.new("hungarian", seed=4).snapshot() == Game.new("hungarian", seed=4, cut=54).snapshot()
    )


@pytest.mark.parametrize("height", [0, -3, 108, 500])
def test_H3_cut_height_out_of_range_refused(height: int) -> None:
    with pytest.raises(ValueError, match="Cut somewhere from 1 to 107 cards"):
        Game.new("hungarian", seed=4, cut=height)


def test_H3_cut_card_is_public_and_not_in_the_stock() -> None:
    game = Game.new("hungarian", players=3, seed=6)
    cut = game.cut_card
    assert cut is not None
    assert all(game.observation(seat).cut_card == cut for seat in range(3))
    stock = Counter(as_cards(game.snapshot()["stock"]))
    hands = Counter(c for seat in range(3) for c in game.hand(seat))
    assert stock[cut] + hands[cut] == 1  # the other copy of that card, wherever it is


def test_H3_starter_begins_with_a_discard_only() -> None:
    game = Game.new("hungarian", players=2, seed=2)
    starter = game.current
    assert game.phase == "play"
    refuse(game, "draw", "starter_discards", "H3")
    refuse(game, "take cut", "starter_discards", "H3")
    assert all(a.kind == "discard" for a in game.legal_actions())
    card = game.hand(starter)[0]
    allowed(game, f"discard {card}")
    assert game.discard_pile == (card,)
    assert (game.current, game.phase) == (1 - starter, "draw")


# --- H4: sets and runs ------------------------------------------------------------------------


def _melder(hand: str) -> Game:
    return from_position(
        "hungarian", hands=[hand, OTHER], discard="5s", phase="play", opened=[True, True]
    )


def test_H4_run_may_not_wrap_around_the_ace() -> None:
    game = _melder("Ks As 2s Qs 3s 9d")
    refuse(game, "meld Ks As 2s", "run_wraps", "H4", names=["Ks", "As", "2s"])
    allowed(game, "meld Qs Ks As")


def test_H4_ace_low_and_ace_high_runs() -> None:
    game = _melder("Ah 2h 3h Qs Ks As 9d")
    allowed(game, "meld Ah 2h 3h")
    allowed(game, "meld Qs Ks As")


def test_H4_a_high_ace_run_grows_to_thirteen_cards() -> None:
    game = from_position(
        "hungarian",
        hands=["2h 9d", OTHER],
        discard="5s",
        phase="play",
        opened=[True, True],
        table=[(1, "3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah")],
    )
    allowed(game, "lay off 2h onto 1")  # 2♥ … K♥ A♥: thirteen cards, one ace (H4)


@pytest.mark.parametrize(
    "run",
    ["2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh", "2h 3h 4h 5h 6h Jk 8h 9h 10h Jh Qh Kh"],
    ids=["natural", "joker inside"],
)
def test_H4_an_ace_completes_a_twelve_card_run_at_either_end(run: str) -> None:
    """Issue 13: A♥ onto 2♥ … K♥ was refused as "say what the joker stands for: ." and never
    offered. The ace may go low or high: its two places are not two joker meanings."""
    game = opened_table("Ah 9d 5c", [(1, run)], other=OTHER)
    assert check_layoff(game.table[0].meld, "Ah", game.variant).ok
    lay_off = act("lay off Ah onto 1")
    assert lay_off in game.legal_actions()
    allowed(game, "lay off Ah onto 1")
    meld = game.table[0].meld
    assert len(meld.cards) == 13 and meld.cards.count(Card("Ah")) == 1
    joker_reps = [r for c, r in zip(meld.cards, meld.represents) if c.is_joker]
    assert joker_reps == ([Card("7h")] if "Jk" in run else [])
    everything_accounted_for(game)


def test_H4_the_referee_never_asks_for_a_joker_meaning_without_choices() -> None:
    """Wherever the referee asks what a joker stands for, it names at least two choices."""
    game = opened_table(
        "Ah Jk 9d 5c", [(1, "2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"), (1, "4d 5d 6d")], other=OTHER
    )
    for action in game.legal_actions():
        assert game.check(action).ok
    for text in ("lay off Ah onto 1", "lay off Jk onto 2", "lay off Jk onto 1"):
        verdict = game.check(act(text))
        for reason in verdict.failures:
            if reason.code == "joker_ambiguous":
                assert len(reason.params["choices"]) >= 2, str(verdict)


def test_H4_identical_cards_never_count_in_a_set() -> None:
    game = _melder("9s 9s 9h 4d")
    verdict = refuse(game, "meld 9s 9s 9h", "identical_cards", "H4", names=["9s"])
    assert "9♠ appears twice" in str(verdict)


def test_H4_set_holds_at_most_four() -> None:
    game = _melder("9s 9h 9d 9c Jk 4d")
    refuse(game, "meld 9s 9h 9d 9c Jk", "set_too_large", "H4", names=["9s", "9h", "9d", "9c"])
    allowed(game, "meld 9s 9h 9d 9c")


def test_H4_not_a_set_not_a_run() -> None:
    game = _melder("9s 9h 10h 5h 6h 8h 4d")
    refuse(game, "meld 9s 9h 10h", "set_rank_mismatch", "H4", names=["10h"])
    refuse(game, "meld 5h 6h 8h", "run_gap", "H4", names=["7h"])
    refuse(game, "meld 9s 9h", "too_few_cards", "H4", names=["9s", "9h"])


# --- H5: jokers -------------------------------------------------------------------------------


def test_H5_at_most_one_joker_per_meld() -> None:
    game = _melder("5h Jk Jk 7h 4d")
    refuse(game, "meld 5h Jk Jk", "too_many_jokers", "H5", names=["5h", "Jk"])


def test_H5_end_joker_must_be_named() -> None:
    game = _melder("Jk 2h 3h 9d 9c")
    verdict = refuse(game, "meld Jk 2h 3h", "joker_ambiguous", "H5", names=["Ah", "4h"])
    assert verdict.failures[0].params["choices"] == cards("A♥ 4♥")
    refuse(game, "meld Jk 2h 3h as 5h", "joker_as_impossible", "H5", names=["5h"])
    allowed(game, "meld Jk 2h 3h as 4h")
    assert game.table[0].meld.represents == cards("2h 3h 4h")


def test_H5_naming_a_joker_where_there_is_none() -> None:
    game = _melder("5h 6h 7h 9d")
    verdict = refuse(game, "meld 5h 6h 7h as 8h", "joker_as_no_joker", "H5", names=["8h"])
    assert "5♥ 6♥ 7♥ holds no joker that could stand for the 8♥" in str(verdict)


def test_H4_ace_of_spades_is_a_card_not_the_word_as() -> None:
    assert act("meld Ks As 2s") == PlayMeld(cards("K♠ A♠ 2♠"))
    assert act("meld Jk 2h 3h as 4h") == PlayMeld(cards("🃏 2♥ 3♥"), Card("4♥"))


def test_H5_joker_counts_as_the_card_it_stands_for() -> None:
    game = from_position(
        "hungarian", hands=["Jk 2h 3h 5d Jk 7d 9s", OTHER], discard="5s", phase="play"
    )
    play(game, "meld Jk 2h 3h as Ah")
    assert game.turn_status().meld_points == 15  # A♥ 2♥ 3♥: the ace counts 10
    play(game, "meld 5d Jk 7d")
    assert game.turn_status().meld_points == 15 + 18  # the joker is the 6♦


# --- H6: a turn ---------------------------------------------------------------------------------


def test_H6_draw_then_lay_down_then_discard() -> None:
    game = from_position(
        "hungarian", hands=["7h 8h 9h 2s", OTHER], discard="5s", opened=[True, True]
    )
    refuse(game, "discard 2s", "draw_first", "H6", names=["2s"])
    refuse(game, "meld 7h 8h 9h", "draw_first", "H6", names=["7h", "8h", "9h"])
    allowed(game, "draw")
    refuse(game, "draw", "already_drew", "H6")
    refuse(game, "take discard", "already_drew", "H6")
    allowed(game, "meld 7h 8h 9h")
    refuse(game, "discard Kd", "card_not_in_hand", "H6", names=["Kd"])
    drawn = game.hand(0)[-1]
    allowed(game, f"discard {drawn}")
    assert (game.current, game.phase) == (1, "draw")
    assert game.discard_pile[-1] == drawn


# --- H7: the discard take -----------------------------------------------------------------------


def test_H7_first_draw_may_keep_the_discard() -> None:
    game = from_position("hungarian", hands=["7h 8h 9h 2s", OTHER], discard="5s 6d", turns=[0, 0])
    allowed(game, "take discard")
    assert game.turn_status().can_end_turn
    allowed(game, "discard 2s")
    assert Card("6d") in game.hand(0)


def test_H7_later_take_must_be_played_this_turn() -> None:
    game = from_position(
        "hungarian",
        hands=["8d 9d 2s Kc", OTHER],
        discard="5s 10d",
        table=[(1, "5d 6d 7d")],
        opened=[True, True],
    )
    allowed(game, "take discard")
    status = game.turn_status()
    assert not status.can_end_turn and status.obligations[0].code == "discard_take_unplayed"
    verdict = refuse(game, "discard 2s", "discard_take_unplayed", "H7", names=["10d", "2s"])
    assert "You took 10♦ from the discard pile" in str(verdict)
    assert verdict.failures[0].cards == cards("10d")
    allowed(game, "meld 8d 9d 10d")
    allowed(game, "discard 2s")


def test_H7_later_take_may_go_out_by_lay_off() -> None:
    game = from_position(
        "hungarian",
        hands=["2s Kc", OTHER],
        discard="5s 8d",
        table=[(1, "5d 6d 7d")],
        opened=[True, True],
    )
    allowed(game, "take discard")
    refuse(game, "discard Kc", "discard_take_unplayed", "H7", names=["8d"])
    allowed(game, "lay off 8d onto 1")
    allowed(game, "discard Kc")


def test_H7_unopened_must_use_the_take_in_the_opening() -> None:
    game = from_position("hungarian", hands=[OPENING + " 2s", OTHER], discard="5s 6h")
    allowed(game, "take discard")
    refuse(game, "discard 2s", "discard_take_not_in_opening", "H7", names=["6h"])
    play(game, "meld 7h 8h 9h", "meld 10s 10d 10c", "meld Jc Qc Kc")  # 84, but without the 6♥
    refuse(game, "discard 2s", "discard_take_not_in_opening", "H7", names=["6h"])
    allowed(game, "lay off 6h onto 1")  # a lay-off is not the opening
    refuse(game, "discard 2s", "discard_take_not_in_opening", "H7", names=["6h"])
    play(game, "undo", "undo", "undo", "undo")
    allowed(game, "meld 6h 7h 8h 9h")
    allowed(game, "meld 10s 10d 10c")
    allowed(game, "discard 2s")
    assert game.opened(0)


def test_H7_a_taken_card_handed_in_for_a_joker_counts_as_played() -> None:
    """Issue 13, H7 reading: the seed only says the taken card must be played this turn. A
    card handed in for a joker lies on the table in the joker's place, so it is played."""
    game = from_position(
        "hungarian",
        hands=["Jk 9d 2s Kc", OTHER],
        discard="5s 6h",
        opened=[True, True],
        table=[(1, "5h Jk 7h")],
    )
    allowed(game, "take discard")
    assert game.turn_info().taken == Card("6h")
    allowed(game, "exchange 6h from 1")
    assert game.table[0].meld.cards == cards("5h 6h 7h")
    # the 6♥ is on the table: only the freed joker is still owed (H11), not the 6♥ (H7)
    verdict = refuse(game, "discard 2s", "joker_replay", "H11")
    assert verdict.codes == ("joker_replay",)
    allowed(game, "lay off Jk onto 1 as 8h")
    allowed(game, "discard 2s")
    everything_accounted_for(game)


def test_H7_taking_back_the_discard_means_drawing_from_the_stock() -> None:
    game = from_position("hungarian", hands=["7h 8h 9h 2s", OTHER], discard="5s 6h")
    allowed(game, "take discard")
    allowed(game, "undo")
    assert game.phase == "draw" and game.discard_pile[-1] == Card("6h")
    refuse(game, "take discard", "discard_take_again", None)  # a help: H7 doesn't say it
    allowed(game, "draw")


# --- H8: the opening ----------------------------------------------------------------------------


def test_H8_opening_short_says_how_much_is_missing() -> None:
    game = from_position("hungarian", hands=[OPENING + " 2s", OTHER], discard="5s", phase="play")
    play(game, "meld 7h 8h 9h")
    status = game.turn_status()
    assert (status.meld_points, status.threshold, status.can_end_turn) == (24, 51, False)
    assert "Your melds total 24; opening needs 51 — 27 more." in str(status)
    verdict = refuse(game, "discard 2s", "turn_opening_short", "H8", names=["2s"])
    assert (
        "Your melds total 24; opening needs 51 — 27 more. Add a meld, or take these back."
        in str(verdict)
    )
    assert not game.opened(0)


def test_H8_opening_short_fixed_by_adding_a_meld() -> None:
    game = from_position("hungarian", hands=[OPENING + " 2s", OTHER], discard="5s", phase="play")
    play(game, "meld 7h 8h 9h")
    refuse(game, "discard 2s", "turn_opening_short", "H8")
    allowed(game, "meld 10s 10d 10c")  # 54
    assert game.opened(0) and game.turn_status().can_end_turn
    allowed(game, "discard 2s")
    assert game.snapshot()["opened"] == [True, False]


def test_H8_opening_short_fixed_by_taking_the_melds_back() -> None:
    game = from_position("hungarian", hands=[OPENING + " 2s", OTHER], discard="5s", phase="play")
    hand = game.hand(0)
    play(game, "meld 7h 8h 9h")
    allowed(game, "undo")
    assert game.hand(0) == hand and game.table == ()
    allowed(game, "discard 2s")
    assert game.snapshot()["opened"] == [False, False]


def test_H8_opening_needs_51_exactly_reached() -> None:
    game = from_position(
        "hungarian", hands=["Kh Kd Kc Qs Qd Qh 3s 4s 5s 9c", OTHER], discard="5s", phase="play"
    )
    play(game, "meld Kh Kd Kc")  # 30
    refuse(game, "discard 9c", "turn_opening_short", "H8")
    play(game, "meld 3s 4s 5s")  # 42
    verdict = refuse(game, "discard 9c", "turn_opening_short", "H8")
    assert "9 more" in str(verdict)
    play(game, "undo", "meld Qs Qd Qh")  # 60
    allowed(game, "discard 9c")


def test_H8_lay_off_before_opening_refused() -> None:
    game = from_position(
        "hungarian",
        hands=["8d 2s Kc 4h", OTHER],
        discard="5s",
        phase="play",
        table=[(1, "5d 6d 7d"), (1, "5h Jk 7h")],
        opened=[False, True],
    )
    verdict = refuse(game, "lay off 8d onto 1", "not_opened_layoff", "H8", names=["8d"])
    assert "first lay down 51 points of your own melds" in str(verdict)
    refuse(game, "lay off 4h onto 2", "not_opened_layoff", "H8", names=["4h"])


def test_H8_exchange_before_opening_refused() -> None:
    game = from_position(
        "hungarian",
        hands=["6h 2s Kc", OTHER],
        discard="5s",
        phase="play",
        table=[(1, "5h Jk 7h")],
        opened=[False, True],
    )
    refuse(game, "exchange 6h from 1", "not_opened_exchange", "H8", names=["6h"])


def test_H8_lay_offs_after_the_51_allowed_but_not_counted() -> None:
    game = from_position(
        "hungarian",
        hands=["7h 8h 9h 10s 10d 10c 6d 8d Kc 2s", OTHER],
        discard="5s",
        phase="play",
        table=[(1, "5d 6d 7d")],
    )
    play(game, "meld 7h 8h 9h")  # 24: not opened yet
    refuse(game, "lay off 8d onto 1", "not_opened_layoff", "H8", names=["8d"])
    play(game, "meld 10s 10d 10c")  # 54: opened
    allowed(game, "lay off 8d onto 1")
    assert game.turn_status().meld_points == 54  # the lay-off adds nothing to the opening
    assert game.table[0].owner == 1
    play(game, "undo", "undo")  # back to 24: the lay-off can't stand alone
    refuse(game, "lay off 8d onto 1", "not_opened_layoff", "H8", names=["8d"])


def test_H8_lay_offs_do_not_make_up_a_short_opening() -> None:
    game = from_position(
        "hungarian",
        hands=["Kh Kd Kc Qs Qd Qh 8d 2s", OTHER],
        discard="5s",
        phase="play",
        table=[(1, "5d 6d 7d")],
    )
    play(game, "meld Kh Kd Kc", "meld Qs Qd Qh")  # 60
    play(game, "lay off 8d onto 1")
    assert game.turn_status().meld_points == 60
    allowed(game, "discard 2s")
    assert game.table[0].meld.cards == cards("5d 6d 7d 8d")


# --- H9: no opening on the very first turn --------------------------------------------------


def test_H9_no_opening_on_first_turn() -> None:
    game = from_position(
        "hungarian", hands=[OPENING + " 2s", OTHER], discard="5s", turns=[0, 0], phase="play"
    )
    verdict = refuse(game, "meld 7h 8h 9h", "first_turn_no_opening", "H9", names=["7h", "8h", "9h"])
    assert "Nobody may open on their very first turn" in str(verdict)
    assert not any(a.kind == "meld" for a in game.legal_actions())
    allowed(game, "discard 2s")


def test_H9_no_lay_off_on_first_turn() -> None:
    game = from_position(
        "hungarian",
        hands=["8d 2s", OTHER],
        discard="5s",
        table=[(1, "5d 6d 7d")],
        turns=[0, 1],
        opened=[False, True],
        phase="play",
    )
    refuse(game, "lay off 8d onto 1", "first_turn_no_opening", "H9", names=["8d"])


def test_H9_the_starters_discard_only_turn_is_their_first() -> None:
    game = Game.new("hungarian", players=2, seed=3)
    starter, other = game.current, 1 - game.current
    assert [a for a in game.legal_actions() if a.kind != "discard"] == []  # H3 and H9
    play(game, f"discard {game.hand(starter)[0]}")
    assert game.turns_taken[starter] == 1
    play(game, "draw")
    three = PlayMeld(game.hand(other)[:3])
    assert "first_turn_no_opening" in game.check(three).codes
    play(game, f"discard {game.hand(other)[0]}", "draw")
    three = PlayMeld(game.hand(starter)[:3])
    assert "first_turn_no_opening" not in game.check(three).codes


def test_H9_opening_allowed_from_the_next_turn() -> None:
    game = from_position(
        "hungarian", hands=[OPENING + " 2s 4d", OTHER + " Ks"], discard="5s", turns=[0, 0]
    )
    allowed(game, "draw")
    refuse(game, "meld 7h 8h 9h", "first_turn_no_opening", "H9")
    allowed(game, "discard 4d")
    allowed(game, "draw")
    allowed(game, "discard Ks")
    allowed(game, "draw")
    play(game, "meld 7h 8h 9h", "meld 10s 10d 10c", "meld Jc Qc Kc")
    allowed(game, "discard 2s")
    assert game.opened(0)


# --- H10: the cut card --------------------------------------------------------------------------


def _cut_position(hand: str = "7h 8h 5c 6d") -> Game:
    return from_position(
        "hungarian",
        hands=[hand, OTHER],
        discard="5s",
        cut_card="9h",
        opened=[True, True],
        table=[(1, "2s 3s 4s")],
    )


def test_H10_cut_card_taken_to_go_out() -> None:
    game = _cut_position("7h 8h 5c")
    allowed(game, "take cut")
    assert game.cut_card is None and Card("9h") in game.hand(0)
    allowed(game, "meld 7h 8h 9h")
    allowed(game, "discard 5c")
    assert game.is_over and game.result is not None
    assert (game.result.winner, game.result.how, game.result.points[0]) == (0, "went_out", -10)
    everything_accounted_for(game)


def test_H10_cut_card_returned_when_not_going_out() -> None:
    game = _cut_position()
    before = game.snapshot()
    allowed(game, "take cut")
    allowed(game, "meld 7h 8h 9h")
    status = game.turn_status()
    assert status.obligations[0].code == "cut_card_must_go_out"
    verdict = refuse(game, "discard 5c", "cut_card_must_go_out", "H10", names=["5c"])
    assert verdict.failures[0].cards == cards("9h")
    assert "You took the cut card 9♥" in str(verdict) and "give it back" in str(verdict)
    assert game.legal_actions() == [act("undo"), act("return cut")]
    allowed(game, "return cut")
    # everything done with it is undone: the meld back in hand, the card back beside the stock
    after = game.snapshot()
    assert after["turn"]["cut_attempted"] and not before["turn"]["cut_attempted"]  # one attempt
    assert {**after, "turn": None} == {**before, "turn": None}
    assert (game.phase, game.cut_card, game.table[0].meld.cards) == (
        "draw",
        Card("9h"),
        cards("2s 3s 4s"),
    )
    assert str(game.events[-1]) == "Seat 0 gave back the cut card 9♥."
    allowed(game, "draw")  # then the normal draw
    assert game.phase == "play"


def test_H10_one_cut_card_attempt_per_turn() -> None:
    game = _cut_position()
    play(game, "take cut", "return cut")
    verdict = refuse(game, "take cut", "cut_card_second_attempt", "H10")
    assert "one attempt per turn" in str(verdict)
    assert act("take cut") not in game.legal_actions()
    allowed(game, "draw")
    refuse(game, "take cut", "already_drew", "H6")


def test_H10_undoing_the_cut_card_counts_as_the_attempt() -> None:
    game = _cut_position()
    play(game, "take cut", "undo")
    assert game.cut_card == Card("9h") and game.phase == "draw"
    refuse(game, "take cut", "cut_card_second_attempt", "H10")


def test_H10_next_player_may_try_the_cut_card_again() -> None:
    game = _cut_position()
    play(game, "take cut", "return cut", "draw", "discard 5c")
    assert game.current == 1
    allowed(game, "take cut")


def test_H10_nothing_to_give_back() -> None:
    game = _cut_position()
    play(game, "draw")
    refuse(game, "return cut", "cut_not_taken", "H10")
    gone = from_position("hungarian", hands=["7h 8h 5c", OTHER], discard="5s", cut_card=None)
    refuse(gone, "take cut", "cut_card_gone", "H10")


# --- H11: joker exchange ------------------------------------------------------------------------


def _joker_table(hand: str = "6h 7h 9s 9d 5c Ks 2d") -> Game:
    return from_position(
        "hungarian",
        hands=[hand, OTHER],
        discard="5s",
        phase="play",
        opened=[True, True],
        table=[(1, "5h Jk 7h"), (1, "9c 9h Jk"), (1, "Jk Qd Kd", "Jd"), (1, "4s 4h 4d Jk")],
    )


def test_H11_exchange_for_the_wrong_card_refused() -> None:
    game = _joker_table()
    verdict = refuse(game, "exchange 7h from 1", "joker_wrong_card", "H11", names=["7h", "6h"])
    assert "stands for the 6♥, not the 7♥: hand in the 6♥ to take it" in str(verdict)
    refuse(game, "exchange Ks from 3", "joker_wrong_card", "H11", names=["Ks", "Jd"])


def test_H11_exchange_from_a_set_of_three_refused() -> None:
    game = _joker_table()
    verdict = refuse(game, "exchange 9s from 2", "joker_in_small_set", "H11", names=["9c", "9h"])
    # it says what to do: a natural card of a third suit first, then the fourth frees the joker
    assert (
        "The joker in 9♥ 9♣ 🃏 stays where it is until all four suits are on the table: first "
        "lay off a natural 9♠ or 9♦, then hand in the last suit to take the joker. (H11)"
    ) in str(verdict)
    refuse(game, "exchange 9d from 2", "joker_in_small_set", "H11")


def test_H11_exchange_from_a_full_set() -> None:
    game = _joker_table("4c 7h 2d")
    allowed(game, "exchange 4c from 4")
    assert game.table[3].meld.cards == cards("4s 4h 4d 4c")
    assert Card("🃏") in game.hand(0)


def test_H11_set_of_three_becomes_exchangeable_once_a_third_natural_is_laid_off() -> None:
    game = _joker_table()
    allowed(game, "lay off 9s onto 2")
    assert game.table[1].meld.represents[-1] == Card("9d")
    allowed(game, "exchange 9d from 2")


def test_H11_joker_must_be_played_again() -> None:
    game = _joker_table()
    allowed(game, "exchange 6h from 1")
    assert game.table[0].meld.cards == cards("5h 6h 7h")
    verdict = refuse(game, "discard 2d", "joker_replay", "H11", names=["2d"])
    assert verdict.failures[0].cards == cards("Jk")
    assert "You took the joker from 5♥ 6♥ 7♥; play it again before you discard." in str(verdict)
    refuse(game, "lay off Jk onto 1", "joker_ambiguous", "H5", names=["4h", "8h"])
    allowed(game, "lay off Jk onto 1 as 8h")
    allowed(game, "discard 2d")


def _issue_13_h11() -> Game:
    """The position of issue 13's H11 defect: seat 0 opens this turn with a joker."""
    return opened_table("Jk Qc Kc 10s 10d 10h 6h 2d", [(1, "5h Jk 7h")], opened=[False, True])


def test_H11_a_joker_laid_earlier_in_the_turn_does_not_replay_the_freed_one() -> None:
    """Issue 13: the joker freed by an exchange must itself reach the table; a joker laid
    down before the exchange doesn't count (the exact position from the issue)."""
    game = _issue_13_h11()
    play(game, "meld Jk Qc Kc as Jc", "meld 10s 10d 10h", "exchange 6h from 1")
    assert Card("Jk") in game.hand(0)
    verdict = refuse(game, "discard 2d", "joker_replay", "H11", names=["2d"])
    assert "You took the joker from 5♥ 6♥ 7♥; play it again before you discard." in str(verdict)
    assert not game.turn_status().can_end_turn
    assert [a for a in game.legal_actions() if a.kind == "discard"] == []
    # the freed joker reaches the table: now the turn may end
    allowed(game, "lay off Jk onto 1 as 8h")
    allowed(game, "discard 2d")
    assert game.result is not None and game.result.winner == 0  # went out with the 2♦
    everything_accounted_for(game)


def test_H11_each_freed_joker_needs_its_own_replay() -> None:
    game = opened_table(
        "6h 4d 2s Kc 9s",
        [(1, "5h Jk 7h"), (1, "3d Jk 5d"), (1, "Js Qs Ks"), (1, "8c 9c 10c")],
        other=OTHER,
    )
    play(game, "exchange 6h from 1", "exchange 4d from 2", "lay off Jk onto 3 as 10s")
    refuse(game, "discard 2s", "joker_replay", "H11")
    play(game, "lay off Jk onto 4 as Jc")
    allowed(game, "discard 2s")


def test_H11_the_replay_survives_a_saved_position() -> None:
    game = _issue_13_h11()
    play(game, "meld Jk Qc Kc as Jc", "meld 10s 10d 10h", "exchange 6h from 1")
    again = Game.load(game.to_json())
    refuse(again, "discard 2d", "joker_replay", "H11")
    again = load({"format": "rummykit-position", "version": 1, "position": game.snapshot()})
    assert again.snapshot() == game.snapshot()
    refuse(again, "discard 2d", "joker_replay", "H11")


def test_H11_joker_replayed_in_a_new_meld() -> None:
    game = _joker_table()
    play(game, "exchange 6h from 1")
    allowed(game, "meld 9s 9d Jk")
    allowed(game, "discard 2d")


def test_H11_exchange_taken_back() -> None:
    game = _joker_table()
    play(game, "exchange 6h from 1")
    refuse(game, "discard 2d", "joker_replay", "H11")
    allowed(game, "undo")
    assert game.table[0].meld.cards == cards("5h Jk 7h")
    allowed(game, "discard 2d")


def test_H11_no_joker_to_exchange() -> None:
    game = from_position(
        "hungarian",
        hands=["6h 2d", OTHER],
        discard="5s",
        phase="play",
        opened=[True, True],
        table=[(1, "5h 6h 7h")],
    )
    refuse(game, "exchange 6h from 1", "no_joker_in_meld", "H11", names=["5h", "6h", "7h"])


def test_H11_exchange_card_must_be_in_hand() -> None:
    game = _joker_table()
    refuse(game, "exchange Jd from 3", "card_not_in_hand", "H6", names=["Jd"])


# --- H12: going out -----------------------------------------------------------------------------


def _scoring_table(hand: str, opened0: bool = True) -> Game:
    return from_position(
        "hungarian",
        hands=[hand, "Ks 7h Jk Ac", "2c 3d"],
        discard="5s",
        phase="play",
        opened=[opened0, True, False],
        table=[(1, "5d 6d 7d")],
    )


def test_H12_going_out_scores_minus_10() -> None:
    game = _scoring_table("5c")
    allowed(game, "discard 5c")
    result = game.result
    assert result is not None and game.is_over
    assert (result.winner, result.how) == (0, "went_out")
    assert result.points == (-10, 10 + 7 + 20 + 10, 100)
    assert str(result.lines[0]) == "Seat 0 went out: -10. (H12)"


def test_H12_open_and_go_out_in_one_turn_scores_minus_20() -> None:
    game = _scoring_table(OPENING + " 2s", opened0=False)
    play(game, "meld 7h 8h 9h", "meld 10s 10d 10c", "meld Jc Qc Kc")
    allowed(game, "discard 2s")
    result = game.result
    assert result is not None and result.points[0] == -20
    assert result.lines[0].code == "score_went_out_hand"
    assert str(result.lines[0]).endswith("(H12)")


def test_H12_opening_and_going_out_with_a_lay_off_scores_minus_10() -> None:
    game = _scoring_table(OPENING + " 8d 2s", opened0=False)
    play(game, "meld 7h 8h 9h", "meld 10s 10d 10c", "meld Jc Qc Kc", "lay off 8d onto 1")
    allowed(game, "discard 2s")
    assert game.result is not None and game.result.points[0] == -10


def test_H12_opening_and_going_out_with_an_exchange_scores_minus_10() -> None:
    game = from_position(
        "hungarian",
        hands=[OPENING + " 6h 2s", "Ks", "2c"],
        discard="5s",
        phase="play",
        opened=[False, True, True],
        table=[(1, "5h Jk 7h")],
    )
    play(game, "meld 7h 8h 9h", "meld 10s 10d 10c", "exchange 6h from 1", "meld Jc Qc Kc")
    refuse(game, "discard 2s", "joker_replay", "H11")
    play(game, "lay off Jk onto 4 as Ac")
    allowed(game, "discard 2s")
    assert game.result is not None and game.result.points[0] == -10


def test_H12_last_card_must_go_by_a_discard() -> None:
    game = _scoring_table("2s 3s 4s")
    verdict = refuse(game, "meld 2s 3s 4s", "must_keep_discard", "H12", names=["2s", "3s", "4s"])
    assert "go out with a final discard" in str(verdict)
    refuse(game, "lay off 8d onto 1", "card_not_in_hand", "H6")
    last = _scoring_table("8d")
    refuse(last, "lay off 8d onto 1", "must_keep_discard", "H12", names=["8d"])


# --- H13: penalties -----------------------------------------------------------------------------


def test_H13_hands_count_face_value_and_jokers_20() -> None:
    game = from_position(
        "hungarian",
        hands=["5c", "Ks Qh Jd 10c 2s Ah Jk", "9c 9d"],
        discard="5s",
        phase="play",
        opened=[True, True, True],
    )
    play(game, "discard 5c")
    result = game.result
    assert result is not None
    assert result.points == (-10, 10 + 10 + 10 + 10 + 2 + 10 + 20, 18)
    assert str(result.lines[2]) == "Seat 2 holds 9♦ 9♣: 18. (H13)"


def test_H13_never_opened_is_a_flat_100() -> None:
    game = _scoring_table("5c")
    play(game, "discard 5c")
    assert game.result is not None
    assert game.result.points[2] == 100  # two cards worth 5, but never opened
    assert str(game.result.lines[2]) == "Seat 2 never opened: a flat 100. (H13)"


# --- H14: the match -----------------------------------------------------------------------------


def _play_out_quietly(game: Game) -> None:
    """Draw from the stock and discard the drawn card until the round ends (H15)."""
    while not game.is_over:
        if game.phase == "draw":
            game.play(Draw("stock"))
        else:
            game.play(act(f"discard {game.hand(game.current)[-1]}"))


def test_H14_match_is_seven_rounds_with_the_dealer_moving() -> None:
    match = Match("hungarian", players=3, seed=2)
    standings = match.play(lambda g: _quiet_choice(g))
    assert match.round_number == 7 and match.is_over
    assert [g.dealer for g in match.rounds] == [0, 1, 2, 0, 1, 2, 0]
    assert all(g.result is not None for g in match.rounds)
    # nobody ever opens, so every round is a flat 100 each: all share first place
    assert match.totals == (700, 700, 700)
    assert [(s.place, s.seat, s.total) for s in standings] == [
        (1, 0, 700),
        (1, 1, 700),
        (1, 2, 700),
    ]
    with pytest.raises(ValueError, match="the match is over"):
        match.new_round()


def _quiet_choice(game: Game) -> Action:
    if game.phase == "draw":
        return Draw("stock")
    return act(f"discard {game.hand(game.current)[-1]}")


def test_H14_round_scores_carry_into_the_next_deal() -> None:
    match = Match("hungarian", players=2, seed=9)
    first = match.new_round()
    with pytest.raises(ValueError, match="finish the current round"):
        match.new_round()
    _play_out_quietly(first)
    second = match.new_round()
    assert second.match_scores == match.totals == (100, 100)
    assert second.observation(0).scores == (100, 100)


def _won_round(dealer: int, hands: list[str]) -> Game:
    """A finished round: seat 0 goes out (−10); the others, opened, count their hands."""
    game = from_position(
        "hungarian",
        hands=hands,
        discard="5s",
        phase="play",
        opened=[True] * len(hands),
        dealer=dealer,
    )
    play(game, f"discard {hands[0]}")
    return game


def test_H14_lowest_total_wins_and_ties_share_the_place() -> None:
    match = Match("hungarian", players=4, seed=1)
    for number in range(7):
        match.rounds.append(_won_round(number % 4, ["5c", "Ks 7h", "10s 7d", "Qd Jd"]))
    assert match.is_over
    assert match.totals == (-70, 7 * 17, 7 * 17, 7 * 20)
    standings = match.standings()
    assert [(s.place, s.seat) for s in standings] == [(1, 0), (2, 1), (2, 2), (4, 3)]
    assert [str(s) for s in standings][:3] == ["1. seat 0: -70", "2. seat 1: 119", "2. seat 2: 119"]


# --- H15: the stock runs out --------------------------------------------------------------------


def _exhausted(stock: int, hands: tuple[str, str] = ("2h 3d Jk", "Ah 2c 5s 9d")) -> Game:
    table = "7h 8h 9h 10h Jh"
    placed = Counter(cards(" ".join(hands))) + Counter(cards(table)) + Counter(cards("Ks"))
    rest = sorted((Counter(HUNGARIAN.deck()) - placed).elements(), key=Card.sort_key)
    return from_position(
        "hungarian",
        hands=list(hands),
        discard=rest[stock:],
        stock=rest[:stock],
        table=[(0, table)],
        opened=[True, False],
        cut_card="Ks",
    )


def test_H15_empty_stock_reshuffled_once() -> None:
    game = _exhausted(stock=0)
    pile = game.discard_pile
    allowed(game, "draw")
    assert [e.code for e in game.events] == ["reshuffle", "draw_stock"]
    assert str(game.events[0]) == (
        f"The stock ran out: the discard pile (but its top card) became a new stock of {len(pile) - 1}."
    )
    assert game.discard_pile == (pile[-1],)  # the top card stays
    assert game.stock_size == len(pile) - 2  # and one card was drawn from the new stock
    assert game.snapshot()["reshuffled"] is True
    everything_accounted_for(game)


def test_H15_second_exhaustion_ends_with_no_winner() -> None:
    game = _exhausted(stock=0)
    _play_out_quietly(game)
    result = game.result
    assert result is not None
    assert (result.winner, result.how) == (None, "stock_exhausted")
    assert result.lines[0].code == "score_no_winner" and result.lines[0].rule == "H15"
    assert str(result.lines[0]).startswith("The stock ran out a second time: no winner;")
    last = game.events[-1]
    assert last.code == "stock_empty_again"
    assert str(last) == (
        f"Seat {last.seat} asked for a card, but the stock ran out a second time: "
        "the round ends with no winner."
    )
    hand0 = sum(HUNGARIAN.card_value(c) for c in game.hand(0))
    assert result.points == (hand0, 100)  # penalties as in H13: seat 1 never opened
    assert game.snapshot()["reshuffled"] is True
    everything_accounted_for(game)


def _pile_run_down(pile: int) -> Game:
    """An empty stock, and a discard pile of ``pile`` cards (0 or 1): the rest of the deck
    is in seat 0's (long) hand."""
    hands = ("2h 3d Jk", "Ah 2c 5s 9d")
    table = "7h 8h 9h 10h Jh"
    placed = Counter(cards(" ".join(hands))) + Counter(cards(table)) + Counter(cards("Ks"))
    rest = sorted((Counter(HUNGARIAN.deck()) - placed).elements(), key=Card.sort_key)
    kept = len(rest) - pile
    return from_position(
        "hungarian",
        hands=[" ".join(str(c) for c in rest[:kept]) + " " + hands[0], hands[1]],
        discard=rest[kept:],
        stock=[],
        table=[(0, table)],
        opened=[True, False],
        cut_card="Ks",
    )


@pytest.mark.parametrize(
    ("pile", "event"),
    [
        (
            1,
            "the stock is empty and the discard pile holds nothing under its top card to reshuffle",
        ),
        (0, "the stock and the discard pile are both empty"),
    ],
)
def test_H15_a_pile_of_one_card_or_none_gives_no_new_stock(pile: int, event: str) -> None:
    game = _pile_run_down(pile)
    assert len(game.discard_pile) == pile and game.stock_size == 0
    allowed(game, "draw")
    result = game.result
    assert result is not None and result.how == "nothing_to_reshuffle" and result.winner is None
    # the first empty stock, not a second one: the words say what really happened
    assert [str(e) for e in game.events] == [
        f"Seat 0 asked for a card, but {event}: the round ends with no winner."
    ]
    assert game.snapshot()["reshuffled"] is False
    assert result.lines[0].code == "score_nothing_to_reshuffle"
    assert str(result.lines[0]) == (
        "The stock is empty and the discard pile holds no card under its top card to "
        "reshuffle: no winner; everyone scores what they hold. (H15)"
    )
    assert all("second time" not in str(r) for r in result.lines)
    assert game.turn_status().phase == "over"
