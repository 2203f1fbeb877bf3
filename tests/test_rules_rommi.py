"""Rommi (CardVerse variant 1.1.0), rule by rule (R1–R12): one scenario per rule part.

Named after the rules in ``rules/rommi.md``. Refusals are checked by reason ``code`` and
``rule`` id, the message must name the cards, and a refused action must leave the game
exactly as it was.
"""

from __future__ import annotations

from collections import Counter

import pytest
from referee_helpers import act, allowed, cards, everything_accounted_for, play, refuse

from rummykit import ROMMI, Card, VariantError, variant
from rummykit.game import Action, Draw, Game, Match, from_position

# --- helpers ---------------------------------------------------------------------------------


def _empty_stock(hands: list[str], current: int = 0, rules: object = "rommi") -> Game:
    """A deal whose stock has run out: every other card is in the discard pile."""
    placed = Counter(cards(" ".join(hands)))
    rest = sorted((Counter(ROMMI.deck()) - placed).elements(), key=Card.sort_key)
    return from_position(rules, hands=hands, discard=rest, stock=[], current=current)  # type: ignore[arg-type]


# --- R1: one deck, no jokers ---------------------------------------------------------------------


def test_R1_one_52_card_deck_without_jokers() -> None:
    game = Game.new("rommi", players=4, seed=1)
    deck = Counter(ROMMI.deck())
    assert sum(deck.values()) == 52 and set(deck.values()) == {1}
    assert Card("🃏") not in deck
    assert game.all_cards() == deck
    assert game.cut_card is None


@pytest.mark.parametrize("players", [1, 5])
def test_R1_two_to_four_players(players: int) -> None:
    with pytest.raises(VariantError, match="2 to 4"):
        Game.new("rommi", players=players, seed=1)


def test_R1_no_jokers_no_exchange_no_cut_card() -> None:
    game = from_position(
        "rommi",
        hands=["5h 6h 7h 2c", "3c 4c 5c"],
        discard="9s",
        phase="play",
        table=[(1, "8d 9d 10d")],
    )
    refuse(game, "exchange 9d from 1", "exchange_not_allowed", "R1", names=["9d"])
    refuse(game, "meld 5h Jk 7h", "card_not_in_hand", "R4", names=["Jk"])
    with pytest.raises(ValueError, match="holds 🃏, but Rommi is played without it"):
        from_position("rommi", hands=["5h Jk 7h", "3c 4c 5c"], discard="9s")
    drawing = from_position("rommi", hands=["5h 6h 7h 2c", "3c 4c 5c"], discard="9s")
    refuse(drawing, "take cut", "no_cut_card_rule", "R4")


def test_R1_each_card_once() -> None:
    with pytest.raises(ValueError, match="more than 1 9♠"):
        from_position("rommi", hands=["9s 9s 9h", "3c 4c 5c"], discard="9d")


# --- R2: the deal --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 10), (4, 10)])
def test_R2_deal_sizes(players: int, size: int) -> None:
    game = Game.new("rommi", players=players, seed=players, dealer=0)
    assert [len(game.hand(s)) for s in range(players)] == [size] * players
    assert len(game.discard_pile) == 1  # one card face up starts the discard pile
    assert game.stock_size == 52 - players * size - 1
    assert (game.current, game.phase) == (1, "draw")  # the dealer's left starts by drawing
    everything_accounted_for(game)


def test_R2_hand_size_is_an_option() -> None:
    game = Game.new("rommi", players=2, seed=1, hand_sizes={2: 10, 3: 7, 4: 7})
    assert [len(game.hand(s)) for s in range(2)] == [10, 10]
    assert game.variant.hand_size(3) == 7


# --- R3: groups and runs; the ace is high only ---------------------------------------------------


def _melder(hand: str, rules: object = "rommi") -> Game:
    return from_position(rules, hands=[hand, "3c 4c 5c 9d"], discard="8s", phase="play")  # type: ignore[arg-type]


def test_R3_ace_high_only() -> None:
    game = _melder("Ah 2h 3h Qs Ks As Kh 5d")
    verdict = refuse(game, "meld Ah 2h 3h", "ace_low_not_allowed", "R3", names=["Ah", "2h", "3h"])
    assert "in Rommi the ace only follows the king (Q-K-A)" in str(verdict)
    refuse(game, "meld Kh Ah 2h", "run_wraps", "R3", names=["Kh", "Ah", "2h"])
    allowed(game, "meld Qs Ks As")


def test_R3_ace_high_option_does_not_move_the_ace() -> None:
    game = _melder("Ah 2h 3h 5d", variant("rommi", ace_high=True))
    refuse(game, "meld Ah 2h 3h", "ace_low_not_allowed", "R3", names=["Ah"])


def test_R3_groups_and_runs() -> None:
    game = _melder("7s 7h 7d 9h 10h Jh 5d 7c 2s")
    refuse(game, "meld 7s 7h 9h", "set_rank_mismatch", "R3", names=["9h"])
    refuse(game, "meld 9h 10h Qh", "card_not_in_hand", "R4", names=["Qh"])
    refuse(game, "meld 7s 7h", "too_few_cards", "R3", names=["7s", "7h"])
    allowed(game, "meld 7s 7h 7d 7c")
    allowed(game, "meld 9h 10h Jh")
    assert [tm.meld.kind for tm in game.table] == ["set", "run"]


# --- R4: a turn ----------------------------------------------------------------------------------


def test_R4_draw_then_meld_then_discard() -> None:
    game = from_position("rommi", hands=["5h 6h 7h 2c 9s", "3c 4c 5c"], discard="Ks")
    refuse(game, "meld 5h 6h 7h", "draw_first", "R4", names=["5h", "6h", "7h"])
    refuse(game, "discard 2c", "draw_first", "R4", names=["2c"])
    allowed(game, "take discard")
    assert game.hand(0)[-1] == Card("Ks") and game.discard_pile == ()
    refuse(game, "draw", "already_drew", "R4")
    allowed(game, "meld 5h 6h 7h")
    allowed(game, "discard Ks")  # a card taken from the pile may go straight back in Rommi
    assert (game.current, game.phase) == (1, "draw")
    assert list(game.discard_pile) == [Card("Ks")]


def test_R4_playing_out_of_turn_refused() -> None:
    game = from_position("rommi", hands=["5h 6h 7h 2c 9s", "3c 4c 5c"], discard="Ks")
    verdict = refuse(game, "draw", "not_your_turn", "R4", seat=1)
    assert "It is seat 0's turn, not seat 1's." in str(verdict)
    refuse(game, "meld 3c 4c 5c", "not_your_turn", "R4", names=["3c", "4c", "5c"], seat=1)
    play(game, "draw", "discard 2c")
    refuse(game, "draw", "not_your_turn", "R4", seat=0)


def test_R4_the_turn_passes_clockwise() -> None:
    game = Game.new("rommi", players=4, seed=2, dealer=3)
    seats = []
    for _ in range(5):
        seats.append(game.current)
        play(game, "draw", f"discard {game.hand(game.current)[-1]}")
    assert seats == [0, 1, 2, 3, 0]


# --- R5: no opening threshold --------------------------------------------------------------------


def test_R5_meld_from_the_first_turn() -> None:
    game = from_position(
        "rommi", hands=["2h 3h 4h 9s Kd", "3c 4c 5c"], discard="Ks", turns=[0, 0], phase="play"
    )
    allowed(game, "meld 2h 3h 4h")  # 9 points: no threshold
    assert game.opened(0) and game.turn_status().can_end_turn
    allowed(game, "discard 9s")


def test_R5_lay_off_from_the_first_turn() -> None:
    game = from_position(
        "rommi",
        hands=["5c 9s Kd", "2d"],
        discard="Ks",
        turns=[0, 0],
        phase="play",
        table=[(1, "2c 3c 4c")],
    )
    allowed(game, "lay off 5c onto 1")
    assert game.table[0].meld.cards == cards("2c 3c 4c 5c")


def test_R5_fresh_deal_offers_melds_on_the_first_turn() -> None:
    for seed in range(40):
        game = Game.new("rommi", players=3, seed=seed)
        play(game, "draw")
        melds = [a for a in game.legal_actions() if a.kind == "meld"]
        if melds:
            allowed(game, str(melds[0]))
            return
    pytest.fail("no deal in 40 offered a meld on the first turn")


# --- R6: lay-offs ----------------------------------------------------------------------------------


def _layoff_table() -> Game:
    return from_position(
        "rommi",
        hands=["8d Jd 9s 7h Qs Ac", "2s"],
        discard="Ks",
        phase="play",
        table=[(1, "5d 6d 7d"), (1, "9c 9h 9d"), (0, "Jh Qh Kh")],
    )


def test_R6_lay_off_onto_an_opponents_meld() -> None:
    game = _layoff_table()
    allowed(game, "lay off 8d onto 1")
    allowed(game, "lay off 9s onto 2")
    assert game.table[0].owner == 1 and game.table[1].owner == 1  # the meld stays theirs
    assert game.table[1].meld.cards == cards("9s 9h 9d 9c")


def test_R6_lay_off_must_keep_the_meld_legal() -> None:
    game = _layoff_table()
    refuse(game, "lay off Jd onto 1", "run_gap", "R3", names=["Jd"])
    refuse(game, "lay off 7h onto 2", "set_rank_mismatch", "R3", names=["7h"])
    refuse(game, "lay off Ac onto 3", "run_suit_mismatch", "R3", names=["Ac"])
    verdict = refuse(game, "lay off 8d onto 6", "no_such_meld", None)  # a help, not a rule
    assert "There is no meld 6 on the table: melds are numbered 1 to 3." in str(verdict)


def test_R6_lay_off_only_from_your_own_hand() -> None:
    game = _layoff_table()
    refuse(game, "lay off 4d onto 1", "card_not_in_hand", "R4", names=["4d"])


def test_R6_ace_high_lay_off() -> None:
    game = from_position(
        "rommi", hands=["Ah 2s 3s", "2d"], discard="Ks", phase="play", table=[(1, "Jh Qh Kh")]
    )
    allowed(game, "lay off Ah onto 1")
    refuse(game, "lay off 2s onto 1", "run_suit_mismatch", "R3", names=["2s"])


def test_R6_melds_are_never_rearranged() -> None:
    game = from_position(
        "rommi",
        hands=["8h 9h 2s 3s", "2d"],
        discard="Ks",
        phase="play",
        table=[(1, "5h 6h 7h"), (1, "10h Jh Qh")],
    )
    allowed(game, "lay off 8h onto 1")
    allowed(game, "lay off 9h onto 1")  # 5-9 of hearts; it is not merged with 10-Q
    assert [tm.meld.cards for tm in game.table] == [cards("5h 6h 7h 8h 9h"), cards("10h Jh Qh")]


# --- R7: going out --------------------------------------------------------------------------------


def test_R7_going_out_by_meld() -> None:
    game = from_position(
        "rommi", hands=["Qs Ks As", "3c 4c 5c 8d 8s 8h 2d"], discard="5s", phase="play"
    )
    allowed(game, "meld Qs Ks As")
    result = game.result
    assert game.is_over and result is not None
    assert (result.winner, result.how) == (0, "went_out")
    assert result.points == (3 + 4 + 5 + 8 + 8 + 8 + 2, 0)
    assert str(result.lines[0]) == "Seat 0 went out. (R7)"
    everything_accounted_for(game)


def test_R7_going_out_by_lay_off() -> None:
    game = from_position(
        "rommi", hands=["8d", "2d 3d"], discard="5s", phase="play", table=[(1, "5d 6d 7d")]
    )
    allowed(game, "lay off 8d onto 1")
    assert game.result is not None and game.result.points == (5, 0)


def test_R7_going_out_by_discard() -> None:
    game = from_position("rommi", hands=["Qs Ks As 4h", "Jd"], discard="5s", phase="play")
    play(game, "meld Qs Ks As")
    allowed(game, "discard 4h")
    assert game.result is not None and game.result.points == (10, 0)


def test_R7_discard_to_win_demands_a_final_discard() -> None:
    rules = variant("rommi", discard_to_win=True)
    game = from_position(rules, hands=["Qs Ks As", "3c 4c 5c"], discard="5s", phase="play")
    verdict = refuse(game, "meld Qs Ks As", "must_keep_discard", "R7", names=["Qs", "Ks", "As"])
    assert "in Rommi with the final-discard rule you go out with a final discard" in str(verdict)
    assert not any(a.kind == "meld" for a in game.legal_actions())
    laying = from_position(
        rules, hands=["8d", "2d 3d"], discard="5s", phase="play", table=[(1, "5d 6d 7d")]
    )
    refuse(laying, "lay off 8d onto 1", "must_keep_discard", "R7", names=["8d"])
    out = from_position(rules, hands=["Qs Ks As 4h", "3c 4c 5c"], discard="5s", phase="play")
    play(out, "meld Qs Ks As")
    allowed(out, "discard 4h")
    assert out.result is not None and out.result.winner == 0


# --- R8: hand values -------------------------------------------------------------------------------


def test_R8_hand_values_and_the_winner_takes_them() -> None:
    game = from_position(
        "rommi", hands=["Qs Ks As", "Ah Kh 10c", "2c 9d"], discard="5s", phase="play"
    )
    play(game, "meld Qs Ks As")
    result = game.result
    assert result is not None
    assert result.points == ((1 + 10 + 10) + (2 + 9), 0, 0)
    assert str(result.lines[1]) == "Seat 1 holds A♥ K♥ 10♣: 21. (R8)"
    assert str(result.lines[-1]) == "Seat 0 wins the round and scores 32. (R8)"


def test_R8_ace_high_counts_11() -> None:
    rules = variant("rommi", ace_high=True)
    game = from_position(rules, hands=["Qs Ks As", "Ah Kh 10c"], discard="5s", phase="play")
    play(game, "meld Qs Ks As")
    assert game.result is not None and game.result.points == (11 + 10 + 10, 0)


# --- R9: the game to the target ----------------------------------------------------------------------


def _won(winner: int, hands: list[str]) -> Game:
    """A finished round: ``winner`` melds its last three cards."""
    game = from_position("rommi", hands=hands, discard="5s", phase="play", current=winner)
    play(game, f"meld {hands[winner]}")
    return game


def test_R9_target_ends_the_game() -> None:
    match = Match("rommi", players=2, seed=4, target=60)
    match.rounds.append(_won(0, ["Qs Ks As", "10c 10d 10h 9h"]))  # 39
    assert not match.is_over
    match.rounds.append(_won(1, ["10c Jd", "Qs Ks As"]))  # 20: seat 0 still on 39
    assert not match.is_over
    match.rounds.append(_won(0, ["Qs Ks As", "10c Jd"]))  # 39 + 20 = 59 < 60
    assert not match.is_over
    match.rounds.append(_won(0, ["Qs Ks As", "Ac"]))  # 60: the target
    assert match.is_over and match.totals == (60, 20)
    assert [(s.place, s.seat, s.total) for s in match.standings()] == [(1, 0, 60), (2, 1, 20)]
    with pytest.raises(ValueError, match="the match is over"):
        match.new_round()


def test_R9_highest_score_wins_and_ties_go_to_the_lower_seat() -> None:
    match = Match("rommi", players=3, seed=4)
    match.rounds.append(_won(2, ["Kc Kd", "2c", "Qs Ks As"]))  # seat 2: 22
    match.rounds.append(_won(1, ["Kc Kd", "Qs Ks As", "2c"]))  # seat 1: 22
    assert match.totals == (0, 22, 22)
    assert [(s.place, s.seat) for s in match.standings()] == [(1, 1), (2, 2), (3, 0)]


def test_R9_match_plays_rounds_until_the_target() -> None:
    match = Match("rommi", players=3, seed=12, target=60)
    standings = match.play(_quiet)
    assert match.is_over and max(match.totals) >= 60
    running = [0, 0, 0]
    for number, game in enumerate(match.rounds):
        assert game.dealer == number % 3
        assert game.match_scores == tuple(running)
        assert game.result is not None
        running = [a + b for a, b in zip(running, game.result.points)]
        if number < len(match.rounds) - 1:
            assert max(running) < 60
    assert tuple(running) == match.totals
    assert standings[0].total == max(match.totals)


def _quiet(game: Game) -> Action:
    if game.phase == "draw":
        return Draw("stock")
    return act(f"discard {game.hand(game.current)[-1]}")


# --- R10: the stock runs out ---------------------------------------------------------------------------


def test_R10_empty_stock_lowest_hand_wins() -> None:
    game = _empty_stock(["2h 3d", "Ah 2c", "Kd Qd"])
    pile = game.discard_pile
    allowed(game, "draw")
    result = game.result
    assert result is not None and game.is_over
    assert (result.winner, result.how) == (1, "empty_stock")
    assert result.points == (0, 5 + 20, 0)
    assert result.lines[0].code == "score_empty_stock" and result.lines[0].rule == "R10"
    assert str(result.lines[1]) == "Seat 1 holds the lowest hand (3) and wins the round. (R10)"
    assert game.discard_pile == pile  # never reshuffled
    assert str(game.events[-1]) == "Seat 0 asked for a card, but the stock is empty: the deal ends."


def test_R10_tie_goes_to_the_first_seat() -> None:
    game = _empty_stock(["Kd Qd", "2h Ac", "Ah 2c"], current=0)
    allowed(game, "draw")
    result = game.result
    assert result is not None and result.winner == 1  # seats 1 and 2 both hold 3
    assert result.lines[1].code == "score_lowest_hand_tie"
    assert "tied — the first in seat order wins" in str(result.lines[1])
    assert result.points == (0, 20 + 3, 0)
    first = _empty_stock(["2h Ac", "Ah 2c", "Kd Qd"], current=2)
    allowed(first, "draw")
    assert first.result is not None and first.result.winner == 0


def test_R10_ace_high_values_decide_the_lowest_hand() -> None:
    rules = variant("rommi", ace_high=True)
    game = _empty_stock(["Ah 2c", "3d 4d", "Kd Qd"], rules=rules)
    allowed(game, "draw")
    assert game.result is not None and game.result.winner == 1  # 13 against 7
    assert game.result.points == (0, 13 + 20, 0)


# --- R11: no endless rounds -----------------------------------------------------------------------------


def test_R11_no_endless_rounds() -> None:
    game = _empty_stock(["2h Ac", "Ah 2c", "Kd Qd"])
    for _ in range(2):
        play(game, "take discard", f"discard {game.hand(game.current)[-1]}")
        assert not game.is_over
    play(game, "take discard", f"discard {game.hand(game.current)[-1]}")
    result = game.result
    assert game.is_over and result is not None
    assert result.how == "no_progress" and result.lines[0].rule == "R11"
    assert game.events[-1].code == "no_progress"
    assert "Nobody melded or laid off for a whole round of turns" in str(game.events[-1])
    everything_accounted_for(game)


def test_R11_a_meld_or_lay_off_restarts_the_count() -> None:
    hands = ["2h Ac", "Ah 2c", "Kd Qd 9h"]
    placed = Counter(cards(" ".join(hands) + " 6h 7h 8h"))
    rest = sorted((Counter(ROMMI.deck()) - placed).elements(), key=Card.sort_key)
    game = from_position("rommi", hands=hands, discard=rest, stock=[], table=[(0, "6h 7h 8h")])

    def quiet() -> None:
        play(game, "take discard", f"discard {game.hand(game.current)[-1]}")

    quiet()
    quiet()
    play(game, "take discard", "lay off 9h onto 1")
    play(game, f"discard {game.hand(2)[-1]}")
    quiet()
    quiet()
    assert not game.is_over  # only two quiet turns since the lay-off
    quiet()
    assert game.is_over and game.result is not None and game.result.how == "no_progress"


# --- R12: computer opponents ------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_R12_computer_opponents_see_only_what_they_may(level: str) -> None:
    """Other hands and the stock order change nothing in an agent's decision (R12)."""
    from rummykit.ai import make_agent

    def decisions(opponent: str, stock_seed: int) -> list[str]:
        game = from_position(
            "rommi",
            hands=["5h 6h 7h Ks Kd 2c 9s", opponent],
            discard="Kh",
            seed=stock_seed,
        )
        agent = make_agent(level)
        out = []
        while game.current == 0 and not game.is_over:
            decision = agent.decide(game.observation(0))
            out.append(f"{decision.action} | {decision.trace}")
            game.play(decision.action)
        return out

    first = decisions("2s 3s 4s 8d 9d Jc Qc", stock_seed=1)
    assert first == decisions("Ac 3d 4d 8s Jd Js Qd", stock_seed=99)
    assert any("K♥" in line for line in first)  # it weighed the visible discard
