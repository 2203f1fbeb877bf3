"""Properties of the meld checks, tested with hypothesis against the rules themselves.

The reference at the top of this file is deliberately naive and independent of rummykit's
meld code: it tries every card each joker could stand for and every window of run positions,
and asks whether the resulting plain cards are a set or a run by the words of H4/H5/R1/R3.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import combinations_with_replacement

from hypothesis import assume, given
from hypothesis import strategies as st

from rummykit import (
    HUNGARIAN,
    ROMMI,
    Card,
    Meld,
    Variant,
    Verdict,
    check_layoff,
    check_meld,
    check_opening,
    make_meld,
    meld_readings,
    parse_card,
    parse_cards,
    variant,
)
from rummykit.cards import JOKER, RANKS, SUITS, format_cards
from rummykit.explain import CATALOGUE
from rummykit.melds import readings_with

KING = 13
PLAIN_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)
FULL_DECKS: tuple[Card, ...] = HUNGARIAN.deck() + ROMMI.deck()

RULESETS: dict[str, Variant] = {
    "hungarian": HUNGARIAN,
    "rommi": ROMMI,
    "rommi_ace_high": variant("rommi", ace_high=True),
    "hungarian_ace_low_only": HUNGARIAN.derive(ace_above_king=False),
    "hungarian_ace_high_only": HUNGARIAN.derive(ace_low=False),
    "hungarian_no_ace_in_runs": HUNGARIAN.derive(ace_low=False, ace_above_king=False),
    "hungarian_two_jokers": HUNGARIAN.derive(jokers_per_meld=2),
}
ROMMIS = [RULESETS["rommi"], RULESETS["rommi_ace_high"]]

rulesets = st.sampled_from(list(RULESETS.values()))


# --- the reference --------------------------------------------------------------------------


def _position_card(position: int, suit: str) -> Card:
    """Run positions 1…14: 1 is the ace below the 2, 14 the ace above the king."""
    return Card(1 if position == 14 else position, suit)


def _is_plain_set(cards: list[Card]) -> bool:
    """H4/R3: 3 or 4 cards of one rank, all of different suits."""
    return (
        3 <= len(cards) <= 4
        and len({c.rank for c in cards}) == 1
        and len({c.suit for c in cards}) == len(cards)
    )


def _plain_run_windows(cards: list[Card], rules: Variant) -> list[tuple[int, int]]:
    """Every window (first, last position) these plain cards fill exactly as a run."""
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return []
    suit = cards[0].suit
    have = Counter(cards)
    found = []
    for first in range(1, 15):
        last = first + len(cards) - 1
        if last > 14:
            break
        if first == 1 and last == 14:
            continue  # one ace per run: it can't be low and high at once
        if first == 1 and not rules.ace_low:
            continue
        if last == 14 and not rules.ace_above_king:
            continue
        if Counter(_position_card(p, suit) for p in range(first, last + 1)) == have:
            found.append((first, last))
    return found


def _within_deck(cards: Iterable[Card], rules: Variant) -> bool:
    counts = Counter(cards)
    jokers = counts.pop(JOKER, 0)
    if jokers > rules.jokers or jokers > rules.jokers_per_meld:
        return False
    return all(n <= rules.decks for n in counts.values())


def reference_layouts(cards: Iterable[Card], rules: Variant) -> Iterator[tuple[str, list[Card]]]:
    """Every (kind, plain cards) these cards can be laid as, each joker as any card."""
    cards = list(cards)
    if not _within_deck(cards, rules):
        return
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    for stand_ins in combinations_with_replacement(PLAIN_CARDS, jokers):
        plain = naturals + list(stand_ins)
        if _is_plain_set(plain):
            yield "set", plain
        if _plain_run_windows(plain, rules):
            yield "run", plain


def reference_is_meld(cards: Iterable[Card], rules: Variant) -> bool:
    return any(True for _ in reference_layouts(cards, rules))


def test_reference_agrees_with_the_rulebook_examples() -> None:
    # the reference itself, checked on the rulebooks' own examples
    def ok(text: str, rules: Variant = HUNGARIAN) -> bool:
        return reference_is_meld(parse_cards(text), rules)

    assert ok("A♥ 2♥ 3♥") and ok("Q♥ K♥ A♥") and not ok("K♥ A♥ 2♥")
    assert not ok("A♥ 2♥ 3♥", ROMMI) and ok("Q♥ K♥ A♥", ROMMI) and not ok("K♥ A♥ 2♥", ROMMI)
    assert not ok("9♠ 9♠ 9♥") and not ok("9♠ 9♥ 9♦ 9♣ 🃏") and not ok("5♥ 🃏 🃏")
    assert ok("5♥ 🃏 7♥") and not ok("5♥ 🃏 7♥", ROMMI) and not ok("K♥ 🃏 2♥")
    assert ok("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥")
    assert not ok("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥")


# --- strategies -----------------------------------------------------------------------------


@st.composite
def small_hands(draw: st.DrawFn) -> list[Card]:
    """A few cards from a narrow pool (one to four suits, a short stretch of ranks that may
    run through the ace, jokers), so valid melds and near misses are both common."""
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=4, unique=True))
    low = draw(st.integers(1, 13))
    width = draw(st.integers(3, 6))
    ranks = [(low - 1 + k) % 13 + 1 for k in range(width)]
    pool = [Card(r, s) for r in ranks for s in suits] + [JOKER]
    return draw(st.lists(st.sampled_from(pool), min_size=2, max_size=6))


@st.composite
def long_runs_and_misses(draw: st.DrawFn) -> list[Card]:
    """Long same-suit hands around 13 cards, with a joker or a duplicate sometimes."""
    suit = draw(st.sampled_from(SUITS))
    ranks = draw(st.lists(st.sampled_from(RANKS), min_size=10, max_size=14))
    extra = draw(st.lists(st.sampled_from([JOKER, Card(1, suit), Card(13, suit)]), max_size=2))
    return [Card(r, suit) for r in ranks] + extra


any_cards = st.lists(st.sampled_from(FULL_DECKS), min_size=0, max_size=8)
hands = st.one_of(small_hands(), long_runs_and_misses(), any_cards)


@st.composite
def valid_melds(draw: st.DrawFn, rules: Variant) -> list[Card]:
    """A meld built by the rules: a run within the allowed ace places, or a set; at most the
    allowed number of jokers in place of cards."""
    if draw(st.booleans()):
        suit = draw(st.sampled_from(SUITS))
        length = draw(st.integers(3, 13))
        first_min = 1 if rules.ace_low else 2
        last_max = 14 if rules.ace_above_king else 13
        assume(last_max - first_min + 1 >= length)
        first = draw(st.integers(first_min, last_max - length + 1))
        meld = [_position_card(p, suit) for p in range(first, first + length)]
    else:
        rank = draw(st.sampled_from(RANKS))
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=4, unique=True))
        meld = [Card(rank, s) for s in suits]
    allowed = min(rules.jokers, rules.jokers_per_meld)
    jokers = draw(st.integers(0, min(allowed, len(meld) - 2)))
    for index in draw(
        st.lists(st.integers(0, len(meld) - 1), min_size=jokers, max_size=jokers, unique=True)
    ):
        meld[index] = JOKER
    return meld


# --- properties -----------------------------------------------------------------------------


@given(st.data(), rulesets)
def test_a_valid_meld_stays_valid_under_any_reordering(data: st.DataObject, rules: Variant) -> None:
    meld = data.draw(valid_melds(rules))
    verdict = check_meld(meld, rules)
    assert verdict.ok, (format_cards(meld), str(rules), str(verdict))
    shuffled = data.draw(st.permutations(meld))
    again = check_meld(shuffled, rules)
    assert again.ok, (format_cards(shuffled), str(again))
    assert again.kind == verdict.kind
    assert again.points == verdict.points
    assert [set(options) for options in again.jokers] == [set(o) for o in verdict.jokers]


@given(st.data(), hands, rulesets)
def test_an_invalid_meld_stays_invalid_with_the_same_codes(
    data: st.DataObject, cards: list[Card], rules: Variant
) -> None:
    verdict = check_meld(cards, rules)
    shuffled = data.draw(st.permutations(cards))
    again = check_meld(shuffled, rules)
    assert again.ok == verdict.ok
    assert set(again.codes) == set(verdict.codes)
    assert again.kind == verdict.kind and again.points == verdict.points


@given(st.one_of(small_hands(), any_cards, long_runs_and_misses()), st.sampled_from(ROMMIS))
def test_R1_R3_rommi_never_accepts_a_joker_or_a_low_ace(cards: list[Card], rules: Variant) -> None:
    verdict = check_meld(cards, rules)
    if JOKER in cards:
        assert not verdict.ok
        assert "jokers_not_allowed" in verdict.codes
    if verdict.ok and verdict.kind == "run":
        suit = cards[0].suit
        if Card(1, suit) in cards:
            # the ace is high only: it follows the king, so the king is in the run
            assert Card(KING, suit) in cards
            assert Card(2, suit) not in cards


@given(st.data(), rulesets)
def test_H4_R3_a_run_with_the_king_and_the_two_under_13_cards_is_never_valid(
    data: st.DataObject, rules: Variant
) -> None:
    suit = data.draw(st.sampled_from(SUITS))
    same_suit = [Card(r, suit) for r in RANKS] + [JOKER]
    pool = data.draw(st.sampled_from([same_suit, list(FULL_DECKS)]))
    others = data.draw(st.lists(st.sampled_from(pool), max_size=10))
    cards = data.draw(st.permutations([Card(KING, suit), Card(2, suit), *others]))
    assert len(cards) < 13
    verdict = check_meld(cards, rules)
    assert not verdict.ok, (format_cards(cards), str(rules), str(verdict))


def _assert_verdict_is_well_formed(verdict: Verdict, rules: Variant) -> None:
    assert bool(verdict) == verdict.ok == (not verdict.failures)
    assert verdict.ok == (not verdict.codes)
    for reason in verdict.failures:
        # a rule is cited unless the code is a help or a house rule decides instead
        if CATALOGUE[reason.code].is_rule and not rules.changes():
            assert reason.rule, reason
        if reason.rule:
            assert re.fullmatch(rf"{rules.rulebook}\d+", reason.rule), reason.rule
        assert reason.message.strip(), reason
        if reason.cards:
            assert any(str(c) in reason.message for c in reason.cards), (
                reason.code,
                reason.message,
            )
    if verdict.ok:
        assert verdict.highlighted == frozenset()


@given(hands, rulesets)
def test_every_meld_verdict_is_well_formed(cards: list[Card], rules: Variant) -> None:
    verdict = check_meld(cards, rules)
    _assert_verdict_is_well_formed(verdict, rules)
    if verdict.ok:
        assert verdict.kind in ("run", "set")
        assert verdict.points is not None
        assert len(verdict.jokers) == cards.count(JOKER)
    else:
        assert verdict.kind is None and verdict.points is None


@given(st.data(), rulesets)
def test_every_layoff_verdict_is_well_formed(data: st.DataObject, rules: Variant) -> None:
    meld = make_meld(data.draw(valid_melds(rules)), rules)
    added = data.draw(st.one_of(small_hands(), st.lists(st.sampled_from(FULL_DECKS), max_size=3)))
    _assert_verdict_is_well_formed(check_layoff(meld, added, rules), rules)


@given(st.lists(st.one_of(small_hands(), any_cards), max_size=4), rulesets)
def test_every_opening_verdict_is_well_formed(melds: list[list[Card]], rules: Variant) -> None:
    verdict = check_opening(melds, rules)
    _assert_verdict_is_well_formed(verdict, rules)
    valid = [m for m in melds if check_meld(m, rules).ok]
    assert verdict.points == sum(check_meld(m, rules).points or 0 for m in valid)


@given(hands, rulesets)
def test_validity_agrees_with_a_brute_force_reference(cards: list[Card], rules: Variant) -> None:
    verdict = check_meld(cards, rules)
    expected = reference_is_meld(cards, rules)
    assert verdict.ok == expected, (format_cards(cards), str(rules), str(verdict))


@given(small_hands(), rulesets)
def test_value_kind_and_joker_meanings_agree_with_the_reference(
    cards: list[Card], rules: Variant
) -> None:
    layouts = list(reference_layouts(cards, rules))
    verdict = check_meld(cards, rules)
    assert verdict.ok == bool(layouts)
    if not layouts:
        return
    # H8: the best value among every way to lay the cards, a joker worth what it stands for
    assert verdict.points == max(sum(rules.card_value(c) for c in plain) for _, plain in layouts)
    if cards.count(JOKER) == 1:
        (options,) = verdict.jokers
        kinds = {kind for kind, _ in layouts}
        assert verdict.kind in kinds
        naturals = Counter(c for c in cards if not c.is_joker)
        stands_for = {
            next(iter(Counter(plain) - naturals)) for kind, plain in layouts if kind == verdict.kind
        }
        assert set(options) == stands_for
        assert {m.kind for m in meld_readings(cards, rules)} == kinds


@given(st.lists(st.sampled_from(FULL_DECKS), max_size=20), st.sampled_from([" ", ", ", ";", "\n"]))
def test_parsing_round_trips_lists_of_cards(cards: list[Card], separator: str) -> None:
    text = separator.join(str(c) for c in cards)
    assert parse_cards(text) == tuple(cards)


_ASCII_RANK = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
_ASCII_SUIT = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def _ascii_forms(card: Card) -> list[str]:
    if card.is_joker:
        return ["Jk", "JK", "jk", "🃏"]
    rank = _ASCII_RANK.get(card.rank, str(card.rank))
    suit = _ASCII_SUIT[card.suit]
    forms = [rank + suit, (rank + suit).upper(), (rank + suit).lower(), f"{card.rank_name}{suit}"]
    forms.append(f"{card}\ufe0f")  # emoji presentation
    return forms


def test_parsing_round_trips_every_card_of_both_decks() -> None:
    for card in FULL_DECKS:
        assert parse_card(str(card)) == card
        assert parse_card(repr(card)[6:-2]) == card
        for form in _ascii_forms(card):
            assert parse_card(form) == card, form
    assert len(set(FULL_DECKS)) == 53


@given(st.lists(st.sampled_from(FULL_DECKS), min_size=1, max_size=10), st.randoms())
def test_parsing_round_trips_mixed_spellings(cards: list[Card], rnd: random.Random) -> None:
    text = " ".join(rnd.choice([*_ascii_forms(c), str(c)]) for c in cards)
    assert parse_cards(text) == tuple(cards)


# --- every reading as a whole (house rule: two jokers in a meld) -----------------------------

TWO_JOKER_RULES = [RULESETS["hungarian"], RULESETS["hungarian_two_jokers"]]


def _named(meld: Meld) -> list[Card]:
    """What a player says to lay down exactly this reading: each joker's card (a set's open
    jokers: as many missing suits)."""
    reps = [rep for card, rep in zip(meld.cards, meld.represents) if card.is_joker]
    fixed = [rep for rep in reps if rep is not None]
    return fixed if len(fixed) == len(reps) else list(meld.missing_suits()[: len(reps)])


@given(small_hands(), st.sampled_from(TWO_JOKER_RULES))
def test_H5_every_way_to_lay_the_cards_is_one_whole_reading(
    cards: list[Card], rules: Variant
) -> None:
    readings = meld_readings(cards, rules)
    layouts = list(reference_layouts(cards, rules))
    assert bool(readings) == bool(layouts)
    naturals = Counter(c for c in cards if not c.is_joker)
    for kind, plain in layouts:  # the reference's layout is one of the readings, whole
        stood_for = Counter(plain) - naturals
        assert any(
            m.kind == kind
            and (
                Counter(c for c in m.represents if c is not None) - naturals
                == (stood_for if None not in m.represents else Counter())
            )
            for m in readings
        ), (format_cards(cards), kind, format_cards(plain))
    for meld in readings:  # and each reading can be named and made
        named = _named(meld)
        assert meld in readings_with(readings, named)
        made = make_meld(cards, rules, joker_as=named or None)
        assert made.kind == meld.kind
        if meld.is_run:
            assert made.represents == meld.represents
    verdict = check_meld(cards, rules)
    wholes = [r for r in verdict.reasons if r.code in ("reading_run", "reading_set")]
    assert not wholes or len(wholes) == len(readings)
