"""The audit's own arithmetic (tests/rulebook.py) against small examples worked by hand from
the rulebooks, and against the referee's own list of legal melds and lay-offs."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from rulebook import (
    JOKER_ID,
    Arranger,
    Rules,
    card_id,
    ids,
    memory,
    table_of,
    unseen,
)

from rummykit.ai import make_agent
from rummykit.cards import parse_card
from rummykit.game import Discard, Draw, Game, LayOff, PlayMeld, Undo, from_position
from rummykit.variants import HUNGARIAN, ROMMI, variant

H, R = Rules(HUNGARIAN), Rules(ROMMI)


def c(text: str) -> int:
    return card_id(parse_card(text))


def table(variant_name: str, *melds: tuple[int, str]) -> tuple[object, ...]:
    """Table melds as the referee lays them down (for what their jokers stand for)."""
    used = {t for _, m in melds for t in m.split()}
    free = [
        t
        for t in (
            f"{r}{s}"
            for s in "♠♥♦♣"
            for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        )
    ]
    free = [t for t in free if t not in used]
    hands = [" ".join(free[0:4]), " ".join(free[4:8])]
    game = from_position(variant_name, hands=hands, table=list(melds), discard=free[8])
    return table_of(game.table)


# --- values (H13, R8) -------------------------------------------------------------------------


def test_H13_R8_card_values() -> None:
    assert [H.value(c(t)) for t in ("A♠", "7♦", "10♣", "J♥", "K♣")] == [10, 7, 10, 10, 10]
    assert H.value(JOKER_ID) == 20
    assert [R.value(c(t)) for t in ("A♠", "7♦", "Q♣")] == [1, 7, 10]
    assert Rules(variant("rommi", ace_high=True)).value(c("A♠")) == 11


# --- sets and runs (H4, H5, R3) ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "hungarian", "rommi"),
    [
        ("K♠ A♠ 2♠", False, False),  # wraps (H4, R3)
        ("A♥ 2♥ 3♥", True, False),  # ace low: Hungarian only
        ("Q♥ K♥ A♥", True, True),  # ace high: both
        ("Q♥ K♥ A♥ 2♥", False, False),
        ("9♠ 9♠ 9♥", False, False),  # twins never count in one set (H4)
        ("9♠ 9♥ 9♦ 9♣ 🃏", False, False),  # a set holds at most four
        ("5♥ 🃏 🃏", False, False),  # one joker a meld (H5); none in Rommi (R1)
        ("5♥ 🃏 7♥", True, False),
        ("9♠ 9♥ 9♦", True, True),
        ("5♥ 6♥ 8♥", False, False),
        ("9♠ 9♥", False, False),
        ("7♥ 8♥ 8♥ 9♥", False, False),  # a rank twice in a run
        # all thirteen: in Rommi the same cards read 2…K A, the ace above the king
        ("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥", True, True),
        ("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ 🃏", False, False),  # no 14th place
        ("9♠ 🃏 9♦", True, False),
    ],
)
def test_H4_R3_sets_and_runs(cards: str, hungarian: bool, rommi: bool) -> None:
    assert H.is_meld(ids(cards)) is hungarian
    assert R.is_meld(ids(cards)) is rommi


def test_house_rules_move_the_ace_and_allow_more_jokers() -> None:
    no_high = Rules(HUNGARIAN.derive(ace_above_king=False))
    assert not no_high.is_meld(ids("Q♥ K♥ A♥")) and no_high.is_meld(ids("A♥ 2♥ 3♥"))
    two = Rules(HUNGARIAN.derive(jokers_per_meld=2))
    assert two.is_meld(ids("K♥ 🃏 🃏")) and not H.is_meld(ids("K♥ 🃏 🃏"))


def test_H8_opening_values() -> None:
    # the rulebook's examples: 24 + 30 + 30 = 84 opens; 12 + 24 = 36 does not
    assert [H.meld_points(ids(m)) for m in ("7♥ 8♥ 9♥", "10♠ 10♦ 10♣", "J♣ Q♣ K♣")] == [24, 30, 30]
    assert H.meld_points(ids("3♣ 4♣ 5♣")) + H.meld_points(ids("8♦ 8♠ 8♥")) == 36
    assert H.meld_points(ids("5♥ 🃏 7♥")) == 18  # the joker is the 6♥ (H5, H8)
    assert H.meld_points(ids("🃏 2♥ 3♥")) == 15  # read as A♥ (10), not 4♥ (9)
    assert H.meld_points(ids("Q♥ K♥ A♥")) == 30
    arranger = Arranger(H)
    assert arranger.best_opening(ids("7♥ 8♥ 9♥ 10♠ 10♦ 10♣ J♣ Q♣ K♣ 2♦")) == 84
    assert arranger.best_opening(ids("3♣ 4♣ 5♣ 8♦ 8♠ 8♥ K♦")) == 36
    assert arranger.opening_with(ids("3♣ 4♣ 5♣ 8♦ 8♠ 8♥ 8♣"), c("8♣")) == 44


# --- least deadwood, with any subset of lay-offs ---------------------------------------------


def test_least_deadwood_without_a_table() -> None:
    a = Arranger(R)
    assert a.least(ids("5♠ 6♠ 7♠ 9♦ K♣")) == 19
    assert a.least(ids("5♠ 6♠ 7♠ 5♥ 5♦")) == 10  # the 5♠ in the run or in the set: 10 either way
    assert a.least(ids("5♠ 6♠ 7♠ 5♥ 5♦ 5♣")) == 0  # 6-7 would be loose: the run and 5♥ 5♦ 5♣
    assert a.least(ids("5♠ 6♠ 7♠ 9♦ K♣"), discard=True) == 9


def test_least_deadwood_lays_off_some_and_melds_the_others() -> None:
    """Issue 26's position: taking 7♣ leaves 7 — 7♠ 7♥ 7♣, 10♠ 10♦ 10♣, lay off 5♠ 6♠ onto
    2♠ 3♠ 4♠, discard Q♦ — where no lay-off leaves 18 and every card that fits leaves 21."""
    melds = table("rommi", (1, "2♠ 3♠ 4♠"), (1, "3♥ 3♦ 3♣"))
    hand = ids("5♠ 6♠ 7♠ 10♠ 5♥ 7♥ 10♦ Q♦ 2♣ 10♣ 7♣")
    assert Arranger(R, melds).least(hand, discard=True) == 7
    assert Arranger(R).least(hand, discard=True) == 18
    assert Arranger(R, melds).least(ids("5♠ 6♠ 7♠ 10♠ 5♥ 7♥ 10♦ Q♦ 2♣ 10♣")) == 24


def test_R6_lay_offs_at_both_ends_and_several_cards_at_one() -> None:
    run = table("rommi", (1, "5♥ 6♥ 7♥"))
    assert Arranger(R, run).least(ids("4♥ 8♥ K♣")) == 10
    assert Arranger(R, run).least(ids("8♥ 9♥ 3♣")) == 3
    assert Arranger(R, run).least(ids("3♥ 9♥")) == 12  # a gap: neither fits
    aces = table("rommi", (1, "Q♠ K♠ A♠"))
    assert Arranger(R, aces).least(ids("J♠ 2♠")) == 2  # below the queen; nothing after the ace


def test_a_set_takes_only_its_missing_suits() -> None:
    nines = table("hungarian", (1, "9♠ 9♥ 9♦"))
    assert Arranger(H, nines).least(ids("9♣ 9♠ 2♦")) == 11  # 9♣ fits; the twin 9♠ doesn't
    # one card more fills the set: the joker or the 9♣, not both (the joker costs more)
    assert Arranger(H, nines).least(ids("9♣ 🃏 2♦")) == 11


def test_H5_a_joker_lays_off_once_per_meld() -> None:
    assert Arranger(H, table("hungarian", (1, "5♥ 6♥ 7♥"))).least(ids("🃏 3♣")) == 3
    with_joker = table("hungarian", (1, "5♥ 🃏 7♥"))
    assert Arranger(H, with_joker).least(ids("🃏 3♣")) == 23
    assert Arranger(H, with_joker).least(ids("8♥ 3♣")) == 3
    wrap = table("hungarian", (1, "A♥ 2♥ 3♥"))
    assert Arranger(H, wrap).least(ids("K♥ 4♥")) == 10  # K-A-2 wraps (H4)


def test_H5_a_joker_may_stand_for_a_card_the_hand_holds() -> None:
    # 10♠ J♠ 🃏 K♠ (the joker as the Q♠) frees the Q♠ for Q♠ Q♦ 🃏: nothing left
    assert Arranger(H).least(ids("10♠ J♠ Q♠ K♠ Q♦ 🃏 🃏")) == 0
    hand = ids("A♠ 10♠ J♠ Q♠ K♠ 5♥ 4♦ Q♦ 4♣ 8♣ 9♣ 10♣ 🃏 🃏")
    assert Arranger(H).least(hand) == 13  # 5♥ 4♦ 4♣ left


def test_H8_no_lay_off_before_the_opening_unless_the_hand_opens() -> None:
    run = table("hungarian", (1, "5♥ 6♥ 7♥"))
    assert Arranger(H, run, need=51).least(ids("8♥ K♣")) == 18
    assert Arranger(H, run, need=0).least(ids("8♥ K♣")) == 10
    opens = ids("10♠ 10♦ 10♣ J♣ Q♣ K♣ 8♥ 2♦")  # 60 of melds: it opens, then lays off
    assert Arranger(H, run, need=51).least(opens) == 2
    short = ids("3♠ 3♦ 3♣ 8♥ 2♦")  # 9 of melds: no opening, so the 8♥ stays
    assert Arranger(H, run, need=51).least(short) == 10


def test_deadwood_cards_named_must_be_what_an_arrangement_leaves() -> None:
    a = Arranger(R, table("rommi", (1, "5♥ 6♥ 7♥")))
    hand = ids("4♥ 8♥ 9♠ 9♦ 9♣ K♣")
    assert a.least(hand) == 10
    assert a.deadwood_ok(hand, ids("K♣")) and not a.deadwood_ok(hand, ids("4♥"))


# --- going out (H12, R7) ---------------------------------------------------------------------


def test_R7_going_out_by_melding_the_last_card() -> None:
    assert Arranger(R).goes_out(ids("5♥ 6♥ 7♥"))
    assert not Arranger(Rules(variant("rommi", discard_to_win=True))).goes_out(ids("5♥ 6♥ 7♥"))
    assert Arranger(Rules(variant("rommi", discard_to_win=True))).goes_out(ids("5♥ 6♥ 7♥ K♣"))


def test_H12_going_out_ends_with_a_discard_and_an_opening() -> None:
    assert not Arranger(H).goes_out(ids("5♥ 6♥ 7♥"))
    assert Arranger(H).goes_out(ids("5♥ 6♥ 7♥ K♣"))
    assert not Arranger(H, need=51).goes_out(ids("5♥ 6♥ 7♥ K♣"))  # 18: no opening
    assert Arranger(H, need=51).goes_out(ids("10♠ 10♦ 10♣ J♣ Q♣ K♣ 2♦"))
    run = table("hungarian", (1, "5♥ 6♥ 7♥"))
    assert Arranger(H, run).goes_out(ids("8♥ 2♦"))
    assert not Arranger(H, run, need=51).goes_out(ids("8♥ 2♦"))


# --- what the table saw: takes, undo, and the unseen cards ---------------------------------------


def _rommi_three() -> Game:
    return from_position(
        "rommi",
        hands=["5♠ 6♠ 9♥ K♦ 2♣ 8♣ 10♣", "3♦ 4♦ 7♥ 7♣ Q♣ K♣ 9♠", "A♥ 4♥ 5♥ 8♠ 8♦ J♠ Q♦"],
        discard="2♦ 7♦",
        current=1,
        phase="draw",
    )


def test_a_take_that_was_undone_is_forgotten() -> None:
    game = _rommi_three()
    game.play(Draw("discard"))
    game.play(Undo())
    game.play(Draw("stock"))
    game.play(Discard(parse_card("K♣")))
    mem = memory(game.observation(2).history)
    assert mem.taken.get(1, []) == [] and not mem.known.get(1)
    obs = game.observation(2)
    assert sum(unseen(obs, R).values()) == 52 - 7 - 3  # hand, pile (2♦ 7♦ K♣)


def test_a_card_taken_is_known_until_it_is_played() -> None:
    game = _rommi_three()
    game.play(Draw("discard"))  # seat 1 takes 7♦ in full view
    game.play(Discard(parse_card("K♣")))
    obs = game.observation(2)
    mem = memory(obs.history)
    assert mem.taken[1] == [c("7♦")] and mem.known[1] == Counter({c("7♦"): 1})
    seen = unseen(obs, R)
    assert seen[c("7♦")] == 0 and sum(seen.values()) == 52 - 7 - 2 - 1
    # seat 1 lays the 7♦ down: nobody knows more about its hand
    game.play(Draw("stock"))
    game.play(Discard(parse_card("J♠")))
    game.play(Draw("stock"))
    game.play(Discard(game.observation(0).hand[0]))
    game.play(Draw("stock"))
    game.play(PlayMeld(tuple(parse_card(t) for t in ("7♦", "7♥", "7♣"))))
    assert not memory(game.observation(2).history).known.get(1)


def test_the_cut_card_and_the_table_are_seen() -> None:
    game = Game.new("hungarian", players=2, seed=3)
    obs = game.observation(0)
    rules = Rules(obs.variant)
    total = 108 - len(obs.hand) - len(obs.discard_pile) - (obs.cut_card is not None)
    assert sum(unseen(obs, rules).values()) == total


# --- the referee agrees on every meld and single-card lay-off it lists ---------------------------


def test_melds_and_lay_offs_agree_with_the_referee() -> None:
    """Every meld and single-card lay-off the referee lists as legal is one for the rulebook
    of the audit, and the other way round (seeded games of both variants)."""
    compared = 0
    for variant_name in ("rommi", "hungarian"):
        for seed in range(8):
            players = random.Random(seed).choice([2, 3, 4])
            game = Game.new(variant_name, players=players, seed=seed)
            agents = [make_agent("normal") for _ in range(players)]
            while not game.is_over:
                obs = game.observation(game.current)
                if obs.phase == "play" and len(obs.hand) > 1:
                    compared += _compare(obs)
                game.play(agents[game.current].decide(obs).action)
    assert compared > 100


def _compare(obs: object) -> int:
    rules = Rules(obs.variant)  # type: ignore[attr-defined]
    hand = ids(obs.hand)  # type: ignore[attr-defined]
    legal = obs.legal_actions  # type: ignore[attr-defined]
    referee_melds = {ids(a.cards) for a in legal if isinstance(a, PlayMeld)}
    may_meld = bool(referee_melds) or not any(isinstance(a, Discard) for a in legal)
    for meld in referee_melds:
        assert rules.is_meld(meld), meld
    arranger = Arranger(rules, table_of(obs.table))  # type: ignore[attr-defined]
    keep = 1 if rules.discard_to_win else 0
    mine = {
        m for x in set(hand) for m in arranger.melds_holding(hand, x) if len(hand) - len(m) >= keep
    }
    if may_meld and (obs.opened[obs.seat] or not rules.threshold):  # type: ignore[attr-defined]
        assert mine == referee_melds
    referee_layoffs = {
        (a.meld, ids(a.cards)) for a in legal if isinstance(a, LayOff) and len(a.cards) == 1
    }
    if referee_layoffs:
        ours = {
            (i, (x,))
            for x in set(hand)
            for i in range(len(arranger.table))
            if (x,) in arranger.layoffs_with((x,), i)
        }
        assert ours == referee_layoffs
    return 1
