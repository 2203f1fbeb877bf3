"""The solver is exact: it agrees with a brute-force reference on random and crowded hands.

The reference below is deliberately simple: it lists every sub-multiset of the hand that
``rummykit.melds.meld_readings`` accepts as a meld, then tries every way to pick disjoint
ones (memoised on the cards left). Nothing from the solver is reused.
"""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit import HUNGARIAN, ROMMI, Card, check_meld, make_meld, meld_readings, solver, variant
from rummykit.cards import JOKER, SUITS, make_deck, parse_cards
from rummykit.melds import Meld, check_layoff, layoff_readings
from rummykit.solver import (
    GoingOut,
    best_arrangement,
    best_opening,
    can_go_out,
    deadwood_counter,
    hand_mask,
    layoff_options,
    min_deadwood,
    min_deadwood_many,
    opening_points,
)
from rummykit.variants import Variant

GIN = variant("rommi", ace_low=True, ace_above_king=False)
ROMMI_BOTH = variant("rommi", ace_low=True)
ROMMI_ACE_HIGH = variant("rommi", ace_high=True)
ONE_DECK = [ROMMI, GIN, ROMMI_BOTH, ROMMI_ACE_HIGH]
TWO_JOKERS_PER_MELD = HUNGARIAN.derive(jokers_per_meld=2)

# --- the reference ------------------------------------------------------------------------


def reference_melds(hand: tuple[Card, ...], rules: Variant) -> list[tuple[int, int]]:
    """Every meld in the hand as (bitmask of hand positions, best opening points)."""
    jokers = [i for i, c in enumerate(hand) if c.is_joker]
    groups: list[list[int]] = []
    for key in ("suit", "rank"):
        by: dict[object, list[int]] = {}
        for i, c in enumerate(hand):
            if not c.is_joker:
                by.setdefault(getattr(c, key), []).append(i)
        groups.extend(by.values())
    found: dict[int, int] = {}
    for group in groups:
        pool = group + jokers
        for size in range(3, min(len(pool), 13) + 1):
            for chosen in combinations(pool, size):
                mask = sum(1 << i for i in chosen)
                if mask in found:
                    continue
                readings = meld_readings(tuple(hand[i] for i in chosen), rules)
                if readings:
                    found[mask] = max(m.points(rules) for m in readings)
    return list(found.items())


def most_in_melds(melds: list[tuple[int, int]]) -> Callable[[int], int]:
    """The most the cards of a mask (bit i for ``hand[i]``) are worth in disjoint melds,
    each of ``melds`` (mask, worth) worth its number."""

    @cache
    def most(mask: int) -> int:
        if not mask:
            return 0
        low = mask & -mask
        best = most(mask ^ low)
        for meld, worth in melds:
            if meld & low and meld & mask == meld:
                best = max(best, worth + most(mask ^ meld))
        return best

    return most


def reference(hand: tuple[Card, ...], rules: Variant) -> tuple[int, int, int, int, bool]:
    """Least deadwood; least deadwood after one discard; best opening; best opening keeping
    one card back; whether every card melds."""
    melds = reference_melds(hand, rules)
    values = [rules.card_value(c) for c in hand]
    full = (1 << len(hand)) - 1

    @cache
    def least(mask: int) -> int:
        if not mask:
            return 0
        low = mask & -mask
        i = low.bit_length() - 1
        best = values[i] + least(mask ^ low)
        for meld, _ in melds:
            if meld & low and meld & mask == meld:
                best = min(best, least(mask ^ meld))
        return best

    most = most_in_melds(melds)
    one_out = [full ^ (1 << i) for i in range(len(hand))]
    after_discard = min(least(m) for m in one_out) if hand else 0
    opening_keep = max(most(m) for m in one_out) if hand else 0
    all_meld = least(full) == 0 and all(v > 0 for v in values)
    return least(full), after_discard, most(full), opening_keep, all_meld


def check_result(hand: tuple[Card, ...], rules: Variant, discard: bool = False) -> int:
    """Run the solver, check its arrangement is legal and adds up; return its deadwood."""
    result = best_arrangement(hand, rules, discard=discard)
    used: Counter[Card] = Counter()
    for meld in result.melds:
        verdict = check_meld(meld.cards, rules)
        assert verdict.ok, (meld, str(verdict))
        assert meld.kind in {m.kind for m in meld_readings(meld.cards, rules)}
        used.update(meld.cards)
    used.update(result.deadwood)
    if discard:
        assert result.discard is not None
        used[result.discard] += 1
    assert used == Counter(hand)
    assert result.deadwood_value == sum(rules.card_value(c) for c in result.deadwood)
    assert min_deadwood(hand, rules, discard=discard) == result.deadwood_value
    return result.deadwood_value


def check_against_reference(hand: tuple[Card, ...], rules: Variant) -> None:
    least, after_discard, most, most_keep, _ = reference(hand, rules)
    assert check_result(hand, rules) == least, hand
    if hand:
        assert check_result(hand, rules, discard=True) == after_discard, hand
    opening = best_opening(hand, rules)
    expected = most_keep if rules.discard_to_win and hand else most
    assert opening.points == expected, hand
    # the shared search (its memo kept from every hand before, ceilings included), asked
    # plainly and with a floor below, at and above the answer
    assert opening_points(hand, rules) == expected, hand
    for floor in (expected - 1, expected, expected + 1):
        assert opening_points(hand, rules, floor=floor) == max(floor, expected), (hand, floor)
    assert sum(m.points(rules) for m in opening.melds) == opening.points
    assert Counter(c for m in opening.melds for c in m.cards) + Counter(opening.left) == Counter(
        hand
    )


# --- strategies ------------------------------------------------------------------------------

ONE_DECK_CARDS = make_deck(1)
TWO_DECK_CARDS = make_deck(2)


def two_deck_hands(size: int, jokers: int) -> st.SearchStrategy[tuple[Card, ...]]:
    return st.lists(
        st.sampled_from(range(len(TWO_DECK_CARDS))), min_size=size, max_size=size, unique=True
    ).map(lambda picks: tuple(TWO_DECK_CARDS[i] for i in picks) + (JOKER,) * jokers)


def crowded_hands(max_size: int) -> st.SearchStrategy[tuple[Card, ...]]:
    """Cards from a small window of ranks and suits, twins and jokers included."""

    @st.composite
    def build(draw: st.DrawFn) -> tuple[Card, ...]:
        low = draw(st.integers(1, 10))
        ranks = [r for r in range(low, low + 4) if r <= 13]
        suits = draw(st.lists(st.sampled_from("♠♥♦♣"), min_size=2, max_size=3, unique=True))
        pool = [Card(r, s) for r in ranks for s in suits] * 2
        size = draw(st.integers(6, max_size))
        picks = draw(
            st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size, unique=True)
        )
        jokers = draw(st.integers(0, 2))
        return tuple(pool[i] for i in picks[: size - jokers]) + (JOKER,) * jokers

    return build()


# --- exactness -------------------------------------------------------------------------------


@given(
    st.lists(st.sampled_from(ONE_DECK_CARDS), min_size=7, max_size=11, unique=True),
    st.sampled_from(ONE_DECK),
)
def test_one_deck_matches_reference(cards: list[Card], rules: Variant) -> None:
    check_against_reference(tuple(cards), rules)


@given(
    st.lists(
        st.sampled_from([Card(r, s) for s in "♠♥♦" for r in range(1, 7)] + [Card("K♠")]),
        min_size=7,
        max_size=11,
        unique=True,
    ),
    st.sampled_from(ONE_DECK),
)
def test_one_deck_crowded_matches_reference(cards: list[Card], rules: Variant) -> None:
    check_against_reference(tuple(cards), rules)


@given(st.integers(0, 2).flatmap(lambda j: two_deck_hands(13 - j, j)))
def test_two_decks_with_jokers_matches_reference(hand: tuple[Card, ...]) -> None:
    check_against_reference(hand, HUNGARIAN)


@given(st.integers(0, 2).flatmap(lambda j: two_deck_hands(15 - j, j)))
def test_fifteen_cards_with_jokers_matches_reference(hand: tuple[Card, ...]) -> None:
    least, _, _, _, _ = reference(hand, HUNGARIAN)
    assert check_result(hand, HUNGARIAN) == least


# Hands the hill-climbing generator of benchmarks/hungarian_worst_case.py made slowest
# (twin cards and both jokers, most of them meld whole), and the hand.
CLIMBED = [
    "7♦ 8♦ 10♣ K♦ 7♣ 8♦ 10♦ 3♠ 6♦ J♦ 9♦ 7♣ 10♥ 🃏 🃏",
    "10♠ J♠ J♥ 9♠ 8♠ 8♠ 9♦ 7♥ 7♠ 6♠ 8♣ 8♥ 9♠ 🃏 🃏",
    "A♥ K♠ Q♦ Q♠ 8♠ 7♠ 6♠ 6♥ 6♦ 6♠ A♠ K♦ Q♥ 🃏 🃏",
    "8♣ 7♥ K♥ 4♣ 7♣ 7♠ 7♦ 5♥ K♣ K♠ 4♥ 7♥ 3♥ 🃏 🃏",
    "2♣ 3♠ 3♠ 3♣ 2♠ 5♠ J♥ 6♣ 4♠ Q♥ 2♦ 2♠ 6♠ 🃏 🃏",
    "10♠ 6♣ 6♠ 9♠ J♠ A♦ A♣ 8♠ K♠ 5♠ 7♠ A♠ J♣ 🃏 🃏",
    "9♠ J♦ 2♦ J♥ 8♥ 9♣ Q♠ 9♦ J♣ 2♠ Q♣ 9♥ J♠ 🃏 🃏",
    "8♦ 7♥ 7♠ 7♣ 8♠ 6♣ 7♦ 8♥ 6♦ 6♥ 6♠ 5♥ 8♣ 🃏 🃏",
]


@pytest.mark.parametrize(
    ("text", "after_discard"),
    [
        ("5♥ 6♥ 7♥ 8♥ 9♠ 9♦ 🃏", 0),  # melds whole, a run of four: one end goes
        ("5♥ 6♥ 7♥ 9♠ 9♦ 🃏", 9),  # melds whole in threes: a 9 goes, the joker joins the run
        ("5♥ 6♥ 7♥ 9♠ 9♦ 🃏 K♣ 2♣", 2),  # the K♣ left in hand is the discard
        ("5♥ 5♥ 6♥ 7♥ K♣ 🃏 🃏", 0),  # two runs, a joker each: the K♣ left goes
    ],
)
def test_discard_found_from_what_the_best_arrangement_leaves(text: str, after_discard: int) -> None:
    hand = parse_cards(text)
    assert reference(hand, HUNGARIAN)[1] == after_discard
    assert min_deadwood(hand, HUNGARIAN, discard=True) == after_discard
    assert check_result(hand, HUNGARIAN, discard=True) == after_discard


@pytest.mark.parametrize("text", CLIMBED)
def test_hill_climbed_hands_match_reference(text: str) -> None:
    check_against_reference(parse_cards(text), HUNGARIAN)


@given(crowded_hands(11))
def test_crowded_two_deck_hands_match_reference(hand: tuple[Card, ...]) -> None:
    check_against_reference(hand, HUNGARIAN)


@given(crowded_hands(9))
def test_two_jokers_per_meld_house_rule_matches_reference(hand: tuple[Card, ...]) -> None:
    check_against_reference(hand, TWO_JOKERS_PER_MELD)


def _cleared(rules: Variant) -> solver._Rules:
    """The variant's search rules, their meld caches emptied."""
    found = solver._rules(rules)
    for caches in (found.melds, found.near, found.fresh):
        for kept in caches:
            kept.clear()
    found.settle_at[:] = [solver._FRESH_LIMIT] * len(found.settle_at)
    return found


@settings(max_examples=60)
@given(st.one_of(crowded_hands(13), two_deck_hands(13, 2)))
def test_meld_candidates_narrowed_from_a_wider_context_are_those_built(
    hand: tuple[Card, ...],
) -> None:
    # a search takes a card's melds from those it built for a context holding more, when
    # it can: they must be the very melds, in the very order, that building them gives
    narrowed = solver._Search._narrowed
    seen = []

    def checked(search: solver._Search, f: int, held: int, budget: int) -> object:
        got = narrowed(search, f, held, budget)
        if got is not None:  # the cards above f: one at each place held
            seen.append(got == search._melds(f, held << ((f + 1) << 2), budget))
        return got

    solver._Search._narrowed = checked  # type: ignore[method-assign,assignment]
    try:
        for rules in (HUNGARIAN, TWO_JOKERS_PER_MELD):
            _cleared(rules)
            min_deadwood(hand, rules, discard=True)
            best_arrangement(hand, rules)
    finally:
        solver._Search._narrowed = narrowed  # type: ignore[method-assign]
    assert all(seen)


def _deal_hands(count: int, seed: int) -> list[list[Card]]:
    deck = [*TWO_DECK_CARDS, JOKER, JOKER]
    rng = random.Random(seed)
    return [rng.sample(deck, 14) for _ in range(count)]


def test_the_meld_caches_stay_out_of_the_garbage_collectors_walk() -> None:
    # The big meld caches take only entries the collector no longer tracks, so once a full
    # collection has dropped them from tracking they stay dropped however many hands are
    # searched after it (a full collection in a decision then doesn't walk them), and the
    # fresh entries waiting are never many; the answers are those of a cold search.
    found = _cleared(HUNGARIAN)
    for hand in _deal_hands(4000, 1):
        min_deadwood(hand, HUNGARIAN, discard=True)
    gc.collect()
    big = [*found.melds, *found.near]
    assert sum(map(len, big)) > solver._FRESH_LIMIT  # settled at least once
    assert not any(map(gc.is_tracked, big))
    later = _deal_hands(3000, 2)
    warm, waiting = [], []
    for hand in later:
        warm.append(min_deadwood(hand, HUNGARIAN, discard=True))
        waiting.append(max(map(len, found.fresh)))
    assert not any(map(gc.is_tracked, big))
    assert max(waiting) <= 2 * solver._FRESH_LIMIT + 2
    _cleared(HUNGARIAN)
    assert warm == [min_deadwood(hand, HUNGARIAN, discard=True) for hand in later]


def test_the_meld_caches_settle_with_the_garbage_collector_off() -> None:
    # nothing drops the fresh entries from tracking then: they move anyway, never piling up
    found = _cleared(HUNGARIAN)
    gc.disable()
    try:
        sizes = []
        for hand in _deal_hands(3000, 3):
            min_deadwood(hand, HUNGARIAN, discard=True)
            sizes.append(max(map(len, found.fresh)))
    finally:
        gc.enable()
    assert max(sizes) <= solver._FRESH_LIMIT + 2 and sum(map(len, found.melds)) > 0


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2).flatmap(lambda j: two_deck_hands(11 - j, j)),
    st.lists(st.sampled_from([*TWO_DECK_CARDS, JOKER]), min_size=1, max_size=4),
)
def test_opening_with_one_card_more_and_the_hands_opening_as_floor(
    hand: tuple[Card, ...], extra: list[Card]
) -> None:
    """What an agent asks before it opens: the opening of its hand with each card it might
    draw, giving the hand's own opening as the floor (a card added never lowers it)."""
    floor = opening_points(hand, HUNGARIAN)
    assert floor == reference(hand, HUNGARIAN)[3]
    for card in extra:
        bigger = (*hand, card)
        assert opening_points(bigger, HUNGARIAN, floor=floor) == reference(bigger, HUNGARIAN)[3]


def melds_cover(hand: tuple[Card, ...]) -> Callable[[int], bool]:
    """Whether the cards of a mask (bit i for ``hand[i]``) can all be put in disjoint melds."""
    melds = reference_melds(hand, HUNGARIAN)

    @cache
    def covers(mask: int) -> bool:
        if not mask:
            return True
        low = mask & -mask
        return any(m & low and m & mask == m and covers(mask ^ m) for m, _ in melds)

    return covers


@given(crowded_hands(10))
def test_going_out_without_a_table_matches_reference(hand: tuple[Card, ...]) -> None:
    """With nothing to lay off onto, a hand goes out exactly when all of it melds (or all
    but the one card discarded)."""
    covers = melds_cover(hand)
    full = (1 << len(hand)) - 1

    plain = can_go_out(hand, HUNGARIAN, final_discard=False)
    assert plain.ok == covers(full)
    with_discard = can_go_out(hand, HUNGARIAN)
    assert with_discard.ok == any(covers(full ^ (1 << i)) for i in range(len(hand)))
    for result in (plain, with_discard):
        placed = Counter(c for m in result.melds for c in m.cards)
        placed.update(result.left)
        if result.discard is not None:
            placed[result.discard] += 1
        assert placed == Counter(hand)
        assert result.ok == (not result.left)


# --- examples -------------------------------------------------------------------------------


def test_twin_cards_never_share_a_set() -> None:
    result = best_arrangement("9♠ 9♠ 9♥ 9♦", HUNGARIAN)
    assert [str(m) for m in result.melds] == ["9♠ 9♥ 9♦"]
    assert result.deadwood == (Card("9♠"),)


def test_two_runs_of_twin_cards() -> None:
    result = best_arrangement("5♥ 6♥ 7♥ 5♥ 6♥ 7♥ 🃏", HUNGARIAN)
    assert result.deadwood_value == 0
    assert len(result.melds) == 2


def test_H5_one_joker_per_meld() -> None:
    assert best_arrangement("5♥ 🃏 🃏", HUNGARIAN).deadwood_value == 45
    assert best_arrangement("5♥ 🃏 🃏", TWO_JOKERS_PER_MELD).deadwood_value == 0


def test_H4_no_wrap_and_ace_at_either_end() -> None:
    assert best_arrangement("K♠ A♠ 2♠", HUNGARIAN).deadwood_value == 22
    assert min_deadwood("Q♥ K♥ A♥", HUNGARIAN) == 0
    assert min_deadwood("A♥ 2♥ 3♥", HUNGARIAN) == 0


def test_R3_ace_high_only() -> None:
    assert min_deadwood("A♥ 2♥ 3♥", ROMMI) == 6
    assert min_deadwood("Q♥ K♥ A♥", ROMMI) == 0
    assert min_deadwood("Q♥ K♥ A♥", GIN) == 21
    assert min_deadwood("A♥ 2♥ 3♥", ROMMI_ACE_HIGH) == 16


def test_joker_placed_where_it_saves_most() -> None:
    # the joker completes 9♣ 9♦ rather than sitting on a meld that is already whole
    result = best_arrangement("4♠ 5♠ 6♠ 9♣ 9♦ 🃏 2♥", HUNGARIAN)
    assert result.deadwood == (Card("2♥"),)


def test_discard_is_the_costliest_loose_card() -> None:
    result = best_arrangement("7♥ 8♥ 9♥ 2♠ K♦", HUNGARIAN, discard=True)
    assert result.discard == Card("K♦")
    assert result.deadwood_value == 2


def test_discard_from_a_four_card_meld() -> None:
    result = best_arrangement("7♥ 8♥ 9♥ 10♥", ROMMI, discard=True)
    assert result.deadwood_value == 0
    assert result.discard in (Card("7♥"), Card("10♥"))


def test_discard_needs_a_card() -> None:
    with pytest.raises(ValueError, match="no card to discard"):
        min_deadwood((), GIN, discard=True)


@given(
    st.one_of(crowded_hands(11), two_deck_hands(9, 0), two_deck_hands(8, 2)),
    st.sampled_from([HUNGARIAN, ROMMI, GIN]),
    st.booleans(),
)
def test_every_form_of_a_hand_gives_the_same_deadwood(
    hand: tuple[Card, ...], rules: Variant, discard: bool
) -> None:
    expected = best_arrangement(hand, rules, discard=discard).deadwood_value
    count = deadwood_counter(rules, discard=discard)
    forms: list[object] = [
        hand,
        list(hand),
        parse_cards(" ".join(map(str, hand))),
        " ".join(map(str, hand)),
        [str(c) for c in hand],
    ]
    for form in forms:
        assert min_deadwood(form, rules, discard=discard) == expected, form  # type: ignore[arg-type]
        assert count(form) == expected, form  # type: ignore[arg-type]
    assert min_deadwood(iter(hand), rules, discard=discard) == expected
    if JOKER not in hand and len(set(hand)) == len(hand):
        assert min_deadwood(hand_mask(hand), rules, discard=discard) == expected
        assert count(hand_mask(hand)) == expected


@given(
    st.lists(st.one_of(crowded_hands(11), two_deck_hands(9, 0), two_deck_hands(8, 2)), max_size=12),
    st.sampled_from([HUNGARIAN, ROMMI, GIN]),
    st.booleans(),
)
def test_the_batch_call_equals_the_single_call_on_every_hand(
    hands: list[tuple[Card, ...]], rules: Variant, discard: bool
) -> None:
    forms: list[object] = []
    for i, hand in enumerate(hands):  # every form a hand can take, mixed in one batch
        if i % 3 == 1:
            forms.append(" ".join(map(str, hand)))
        elif i % 3 == 2 and JOKER not in hand and len(set(hand)) == len(hand):
            forms.append(hand_mask(hand))
        else:
            forms.append(hand)
    expected = [min_deadwood(f, rules, discard=discard) for f in forms]  # type: ignore[arg-type]
    assert min_deadwood_many(forms, rules, discard=discard) == expected  # type: ignore[arg-type]
    assert min_deadwood_many(iter(forms), rules, discard=discard) == expected  # type: ignore[arg-type]


def test_the_batch_call_refuses_what_the_single_call_refuses() -> None:
    with pytest.raises(ValueError, match="no card to discard"):
        min_deadwood_many(["5♥ 6♥", ""], GIN, discard=True)
    with pytest.raises(ValueError, match="'1♠' is not a card"):
        min_deadwood_many(["5♥ 6♥", "1♠"], GIN)
    assert min_deadwood_many([], GIN) == []


def test_masks_hold_distinct_natural_cards_only() -> None:
    with pytest.raises(ValueError, match="no jokers"):
        hand_mask("5♥ 🃏")
    with pytest.raises(ValueError, match="no twin cards"):
        hand_mask("5♥ 5♥")
    with pytest.raises(ValueError, match="hand mask holds"):
        min_deadwood(1, GIN)  # bit 0 is no card
    with pytest.raises(ValueError, match="hand mask holds"):
        deadwood_counter(GIN)(1 << 64)


def test_cards_given_as_strings_and_new_objects() -> None:
    hand = [Card(7, "♥"), "8♥", Card("9♥"), Card(2, "♠")]
    assert min_deadwood(hand, ROMMI) == 2
    assert min_deadwood(tuple(hand[:1]) + parse_cards("8♥ 9♥ 2♠"), ROMMI) == 2


# --- the opening (H8) ------------------------------------------------------------------------


def test_H8_opening_84() -> None:
    opening = best_opening("7♥ 8♥ 9♥ 10♠ 10♦ 10♣ J♣ Q♣ K♣ 3♦", HUNGARIAN)
    assert opening.ok and opening.points == 84
    assert str(opening) == "7♥ 8♥ 9♥ + 10♠ 10♦ 10♣ + J♣ Q♣ K♣ = 84: you can open. (H8)"


def test_H8_opening_36_is_not_yet() -> None:
    opening = best_opening("3♣ 4♣ 5♣ 8♦ 8♠ 8♥ K♥", HUNGARIAN)
    assert not opening.ok and opening.points == 36 and opening.missing == 15
    assert opening.left == (Card("K♥"),)
    assert "15 short of the 51" in str(opening)


def test_H8_opening_54_sentence() -> None:
    opening = best_opening("7♥ 8♥ 9♥ Q♣ Q♦ Q♠ 2♠", HUNGARIAN)
    assert opening.message == "7♥ 8♥ 9♥ + Q♠ Q♦ Q♣ = 54: you can open."


def test_H8_joker_counts_as_the_card_it_stands_for() -> None:
    opening = best_opening("🃏 Q♥ K♥ 2♠", HUNGARIAN)
    # as J♥ or as A♥, both worth 10: 30 either way
    assert opening.points == 30
    assert best_opening("5♥ 🃏 7♥ 2♠", HUNGARIAN).points == 18


def test_H12_opening_keeps_a_card_to_discard() -> None:
    # all six cards meld, but one must be kept back for the discard: the cheapest meld goes
    opening = best_opening("2♥ 3♥ 4♥ K♠ K♥ K♦", HUNGARIAN)
    assert opening.points == 30
    assert best_opening("2♥ 3♥ 4♥ K♠ K♥ K♦", ROMMI).points == 39


def test_R5_no_threshold() -> None:
    assert best_opening("2♥ 3♥ 4♥ 9♣", ROMMI).ok
    assert not best_opening("2♥ 5♥ 9♣", ROMMI).ok
    assert str(best_opening("2♥ 5♥ 9♣", ROMMI)) == "No meld in this hand yet. (R5)"


# --- lay-offs and going out ----------------------------------------------------------------


def test_layoff_options_singles_and_groups() -> None:
    table = [make_meld("9♠ 9♥ 9♦"), make_meld("4♥ 5♥ 6♥"), make_meld("Q♣ K♣ A♣")]
    options = layoff_options("9♣ 7♥ 8♥ 3♥ J♣ 2♣ 🃏", table, HUNGARIAN)
    found = {(" ".join(map(str, o.cards)), o.index) for o in options}
    assert {("9♣", 0), ("3♥", 1), ("7♥", 1), ("J♣", 2), ("🃏", 0), ("🃏", 1)} <= found
    assert ("7♥ 8♥", 1) in found
    assert ("2♣", 2) not in found  # Q-K-A-2 wraps
    for option in options:
        assert check_layoff(table[option.index], option.cards, HUNGARIAN).ok


def test_layoff_keeps_joker_meaning() -> None:
    meld = make_meld("5♥ 🃏 7♥")  # the joker is the 6♥
    options = layoff_options("6♥ 8♥", [meld], HUNGARIAN)
    assert [str(o.result) for o in options] == ["5♥ 🃏 7♥ 8♥"]


def test_R7_go_out_with_layoffs_no_discard() -> None:
    table = [make_meld("2♠ 3♠ 4♠", ROMMI), make_meld("J♦ J♥ J♣", ROMMI)]
    result = can_go_out("5♠ 6♠ J♠ 8♥ 8♦ 8♣", ROMMI, table=table)
    assert result.ok and result.discard is None
    assert {(" ".join(map(str, o.cards)), o.index) for o in result.layoffs} == {
        ("5♠ 6♠", 0),
        ("J♠", 1),
    }
    assert [str(m) for m in result.melds] == ["8♥ 8♦ 8♣"]


def test_R7_discard_to_win_option() -> None:
    table = [make_meld("2♠ 3♠ 4♠", ROMMI)]
    plain = can_go_out("5♠ 8♥ 8♦ 8♣", ROMMI, table=table)
    assert plain.ok and plain.discard is None and len(plain.layoffs) == 1
    strict = ROMMI.derive(discard_to_win=True)
    kept = can_go_out("5♠ 8♥ 8♦ 8♣", strict, table=table)
    assert kept.ok and kept.discard == Card("5♠") and not kept.layoffs
    assert not can_go_out("5♠ 8♥ 8♦ 8♣ K♣ Q♦", strict, table=table).ok
    result = can_go_out("5♠ 6♠ 8♥ 8♦ 8♣ K♣", strict, table=table)
    assert result.ok and result.discard == Card("K♣")
    assert str(result) == (
        "You can go out: meld 8♥ 8♦ 8♣, lay 5♠ 6♠ onto 2♠ 3♠ 4♠ and discard K♣. (R7)"
    )


def test_H12_go_out_needs_one_card_for_the_discard() -> None:
    assert not can_go_out("7♥ 8♥ 9♥", HUNGARIAN).ok
    assert can_go_out("7♥ 8♥ 9♥ 2♣", HUNGARIAN).ok
    assert can_go_out("7♥ 8♥ 9♥ 10♥", HUNGARIAN).ok  # 7-8-9 and discard the 10 (or the 7)
    result = can_go_out("7♥ 8♥ 9♥ 2♣ 5♠", HUNGARIAN)
    assert not result.ok and result.left == (Card("2♣"),) and result.discard == Card("5♠")
    assert str(result) == ("You can't go out yet: 2♣ would stay in hand besides the discard. (H12)")


def test_go_out_lays_a_joker_off() -> None:
    table = [make_meld("4♥ 5♥ 6♥")]
    result = can_go_out("🃏 9♣ 9♦ 9♠ 9♥ K♦", HUNGARIAN, table=table)
    assert result.ok and result.discard == Card("K♦")
    assert result.layoffs and result.layoffs[0].cards == (JOKER,)


def test_go_out_lays_jokers_alone_and_a_card_onto_other_melds() -> None:
    table = [
        make_meld("4♥ 5♥ 6♥"),
        make_meld("9♠ 9♥ 9♦"),
        make_meld("J♣ 🃏 K♣"),
        make_meld("2♣ 3♣ 4♣"),
    ]
    result = can_go_out("🃏 9♣ 🃏", HUNGARIAN, table=table, final_discard=False)
    assert result.ok and not result.melds and result.discard is None
    assert sorted((o.index, o.cards) for o in result.layoffs) == [
        (0, (JOKER,)),
        (1, (Card("9♣"),)),
        (3, (JOKER,)),
    ]
    # the set is then full and J♣ 🃏 K♣ holds its one joker (H5): a third joker stays
    three = can_go_out("🃏 🃏 🃏 9♣", HUNGARIAN, table=table, final_discard=False)
    assert not three.ok and three.left == (JOKER,)


def test_go_out_uses_two_table_melds_and_its_own() -> None:
    table = [make_meld("9♠ 9♥ 9♦"), make_meld("4♥ 5♥ 6♥")]
    result = can_go_out("9♣ 7♥ 8♥ 2♣ 3♣ 4♣ Q♦", HUNGARIAN, table=table)
    assert result.ok
    assert str(result).startswith("You can go out:")


TABLE = (
    make_meld("4♥ 5♥ 6♥"),
    make_meld("9♠ 9♥ 9♦"),
    make_meld("J♣ Q♣ K♣"),
    make_meld("8♦ 🃏 10♦"),
)


def reference_most_placed(
    hand: tuple[Card, ...], table: tuple[Meld, ...], discard: bool, rules: Variant = HUNGARIAN
) -> int:
    """Brute force: the most cards of the hand placed this turn — a group (or nothing) onto
    each table meld, each one the meld accepts, then disjoint new melds, and the
    discard (one card of the rest, which must hold one) when owed."""
    melded = most_in_melds([(m, m.bit_count()) for m, _ in reference_melds(hand, rules)])
    full = (1 << len(hand)) - 1

    # (``layoff_readings`` is what ``check_layoff`` accepts, without explaining refusals)
    groups = [
        [0]
        + [
            mask
            for mask in range(1, full + 1)
            if layoff_readings(meld, [hand[i] for i in range(len(hand)) if mask >> i & 1], rules)
        ]
        for meld in table
    ]

    def most(k: int, left: int) -> int:
        if k == len(groups):
            if not discard:
                return melded(left)
            return max(
                (1 + melded(left ^ 1 << i) for i in range(len(hand)) if left >> i & 1), default=-99
            )
        return max(g.bit_count() + most(k + 1, left ^ g) for g in groups[k] if g & left == g)

    return most(0, full)


@settings(max_examples=30, deadline=None)
@given(crowded_hands(7), st.booleans(), st.integers(1, 4))
def test_going_out_onto_a_table_matches_the_brute_force(
    hand: tuple[Card, ...], discard: bool, melds: int
) -> None:
    result = can_go_out(hand, HUNGARIAN, table=TABLE[:melds], final_discard=discard)
    most = reference_most_placed(hand, TABLE[:melds], discard)
    assert result.ok == (most == len(hand)), hand
    assert len(result.left) == len(hand) - most, hand


def table_position(
    seed: int, rules: Variant, players: int
) -> tuple[tuple[Card, ...], tuple[Meld, ...]]:
    """A small table as a game of ``players`` might leave it (up to two melds a player),
    melds found among the variant's cards in a window of ranks and suits, and a hand from the
    rest of that window: most cards fit a table meld, a new meld, or both."""
    rng = random.Random(seed)
    low = rng.randint(1, 9)
    suits = rng.sample(SUITS, 3 if rules.decks > 1 else 4)
    pool = [c for c in rules.deck() if c.is_joker or (low <= c.rank < low + 5 and c.suit in suits)]
    rng.shuffle(pool)
    table: list[Meld] = []
    for _ in range(20 * players):  # cards of one suit or one rank (and jokers) that meld
        if len(table) == 2 * players or len(pool) < 12:
            break
        start = rng.choice(pool)
        alike = [c for c in pool if c.suit == start.suit or c.rank == start.rank or c.is_joker]
        picked = rng.sample(alike, min(len(alike), rng.randint(3, 4)))
        readings = meld_readings(picked, rules)
        if readings:
            table.append(readings[0])
            for c in picked:
                pool.remove(c)
    hand = rng.sample([c for c in pool if not c.is_joker], min(len(pool) - 4, rng.randint(3, 7)))
    jokers = min(rng.choice((0, 1, 2)), pool.count(JOKER))  # jokers the table left
    hand[:jokers] = [JOKER] * jokers
    return tuple(hand), tuple(table)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([HUNGARIAN, ROMMI]), st.integers(2, 4), st.booleans())
def test_going_out_on_random_tables_matches_the_brute_force(
    seed: int, rules: Variant, players: int, discard: bool
) -> None:
    """On tables of 2, 3 and 4 players' games, jokers included, both variants: whether the
    hand goes out, and when it can't, how many cards stay, are the brute force's; the plan
    can be played."""
    hand, table = table_position(seed, rules, players)
    result = can_go_out(hand, rules, table=table, final_discard=discard)
    most = reference_most_placed(hand, table, discard, rules)
    assert result.ok == (most == len(hand)), (hand, table)
    assert len(result.left) == len(hand) - most, (hand, table)
    check_going_out_plan(result, hand, table, rules, discard)


def check_going_out_plan(
    result: GoingOut, hand: tuple[Card, ...], table: tuple[Meld, ...], rules: Variant, discard: bool
) -> None:
    """Each lay-off fits its table meld (one group a meld), each new meld is valid, and the
    cards add up to the hand."""
    used: Counter[Card] = Counter()
    for meld in result.melds:
        assert check_meld(meld.cards, rules).ok
        used.update(meld.cards)
    for layoff in result.layoffs:
        assert check_layoff(table[layoff.index], layoff.cards, rules).ok
        used.update(layoff.cards)
    assert len({o.index for o in result.layoffs}) == len(result.layoffs)
    if result.discard is not None:
        used[result.discard] += 1
    used.update(result.left)
    assert used == Counter(hand)
    assert result.ok == (not result.left) and (result.discard is not None) == (
        discard and bool(hand)
    )


@given(crowded_hands(9), st.booleans())
def test_going_out_plans_are_legal(hand: tuple[Card, ...], discard: bool) -> None:
    """Whatever can_go_out proposes can be played: each lay-off fits its table meld, each
    new meld is valid, and the cards add up to the hand."""
    result = can_go_out(hand, HUNGARIAN, table=TABLE, final_discard=discard)
    check_going_out_plan(result, hand, TABLE, HUNGARIAN, discard)
    # a table to lay off onto never makes going out harder
    if can_go_out(hand, HUNGARIAN, final_discard=discard).ok:
        assert result.ok
