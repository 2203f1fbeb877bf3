"""Every sentence the meld, lay-off and opening checks say is true to its input.

A hypothesis property test over random melds, lay-offs and openings, in both variants and
under house rules, reads every reason's message as a sceptical teacher would:

- every card it names is in the input, or is a card the meld lacks or a joker stands for:
  of a suit and a rank the meld's own cards frame (a gap between two cards of one suit, a
  card a joker can reach, a missing suit of a set's rank);
- every rule it cites exists in docs/rules.md, and a help of the software's own cites none;
- it has a subject, no leftover ``{placeholder}``, no ``(s)``, no Python identifier;
- a variant without jokers never reasons about what a joker stands for, and a variant
  without an opening never talks of one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit import (
    HUNGARIAN,
    ROMMI,
    Card,
    Variant,
    Verdict,
    check_layoff,
    check_meld,
    check_opening,
    meld_readings,
    variant,
)
from rummykit.cards import JOKER, RANKS, SUITS, parse_card
from rummykit.explain import CATALOGUE

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
RULE_IDS = frozenset(
    re.findall(r"^\| ([HR]\d+) \|", RULES_MD.read_text(encoding="utf-8"), flags=re.M)
)

RULESETS: tuple[Variant, ...] = (
    HUNGARIAN,
    ROMMI,
    HUNGARIAN.derive(jokers_per_meld=2),
    HUNGARIAN.derive(ace_above_king=False),
    HUNGARIAN.derive(ace_low=False),
    HUNGARIAN.derive(opening_threshold=40),
    variant("rommi", ace_high=True),
    ROMMI.derive(ace_low=True),
)
rulesets = st.sampled_from(RULESETS)

FULL_DECK: tuple[Card, ...] = HUNGARIAN.deck()
CARD_TEXT = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|🃏")
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|=\s*(?:True|False|\d)|\bNone\b|\b(?:True|False)\b")
WRONG_PLURAL = re.compile(
    r"\b(?:1|one) (?:cards|points|jokers|gaps)\b"
    r"|\b(?:[02-9]|1\d+|two|three|four|five|six|seven|eight|nine|ten) (?:card|point|joker|gap)\b"
)


def test_the_rule_ids_are_read_from_the_rulebook_page() -> None:
    assert {"H1", "H15", "R1", "R12"} <= RULE_IDS and len(RULE_IDS) == 27


# --- what a sentence may name ----------------------------------------------------------------


def _positions(rank: int) -> tuple[int, ...]:
    return (1, 14) if rank == 1 else (rank,)


def _placements(ranks: Iterable[int]) -> list[list[int]]:
    """The run positions of these ranks, the ace low and the ace high."""
    ranks = sorted(set(ranks))
    if 1 not in ranks:
        return [ranks]
    others = [r for r in ranks if r != 1]
    return [[1, *others], [*others, 14]]


def may_name(card: Card, meld: Sequence[Card]) -> bool:
    """Whether a sentence about ``meld`` may name ``card``: a card of the meld, a gap between
    two of its cards of one suit, a card one of its jokers may stand for (within reach of
    its cards of that suit, or of its rank in a set)."""
    if card in meld:
        return True
    jokers = sum(1 for c in meld if c.is_joker)
    same_suit = [c.rank for c in meld if not c.is_joker and c.suit == card.suit]
    for placed in _placements(same_suit):
        if not placed:
            continue
        low, high = min(placed), max(placed)
        for p in _positions(card.rank):
            if len(placed) >= 2 and low < p < high:  # a gap between two cards of its suit
                return True
            if jokers and low - jokers <= p <= high + jokers:  # a card a joker reaches
                return True
    # a set's missing suit, which a joker may stand for
    return jokers > 0 and any(not c.is_joker and c.rank == card.rank for c in meld)


def assert_sentences_true(
    verdict: Verdict, rules: Variant, melds: Sequence[Sequence[Card]], extra: Sequence[Card] = ()
) -> None:
    """Every reason of ``verdict`` passes the teacher's reading (see the module docstring)."""
    context = (rules.title, [" ".join(map(str, m)) for m in melds], " ".join(map(str, extra)))
    for reason in verdict.reasons:
        text = reason.message
        where = (reason.code, text, *context)
        for token in CARD_TEXT.findall(text):
            card = parse_card(token)
            if card.is_joker:
                assert any(JOKER in m for m in melds) or JOKER in extra, where
                continue
            assert card in extra or any(may_name(card, m) for m in melds), (token, *where)
        # the rule cited is a real rule, and a help of the software's own cites none
        entry = CATALOGUE.get(reason.code)
        assert entry is not None, where
        if reason.rule is not None:
            assert reason.rule in RULE_IDS, where
            assert reason.rule[0] == rules.rulebook, where
            assert entry.is_rule, where
        assert not re.search(r"\([HR]\d+\)", text), where  # the citation is added by str()
        # a whole sentence: a subject, no placeholder left, no "(s)", no identifier
        assert text and text == text.strip() and "  " not in text, where
        assert text[0].isupper() or text[0].isdigit() or CARD_TEXT.match(text), where
        assert not re.search(r"\s[.,;:]", text), where
        assert "{" not in text and "}" not in text, where
        assert "(s)" not in text, where
        assert not IDENTIFIER.search(text), where
        assert not WRONG_PLURAL.search(text), where
        # no joker reasoning where there are no jokers, no opening where there is none
        if rules.jokers == 0 or rules.jokers_per_meld == 0:
            assert "joker" not in text.lower() or reason.code == "jokers_not_allowed", where
        if not rules.opening_threshold:
            assert "opening" not in text.lower() or reason.code == "opening_not_required", where
    # one sentence per distinct problem
    messages = [str(r) for r in verdict.reasons]
    assert len(messages) == len(set(messages)), (messages, *context)


# --- strategies -----------------------------------------------------------------------------


@st.composite
def near_melds(draw: st.DrawFn) -> list[Card]:
    """A run or a set, then a few cards swapped for others, jokers or duplicates."""
    suit = draw(st.sampled_from(SUITS))
    if draw(st.booleans()):
        first = draw(st.integers(1, 12))
        length = draw(st.integers(2, 7))
        cards = [Card(1 if p == 14 else p, suit) for p in range(first, min(first + length, 15))]
    else:
        rank = draw(st.sampled_from(RANKS))
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=2, max_size=4, unique=True))
        cards = [Card(rank, s) for s in suits]
    for _ in range(draw(st.integers(0, 3))):
        index = draw(st.integers(0, len(cards) - 1))
        cards[index] = draw(st.one_of(st.just(JOKER), st.sampled_from(FULL_DECK)))
    cards += draw(st.lists(st.one_of(st.just(JOKER), st.sampled_from(FULL_DECK)), max_size=2))
    return draw(st.permutations(cards))


random_cards = st.lists(st.sampled_from(FULL_DECK), max_size=8)
melds = st.one_of(near_melds(), random_cards)


@settings(max_examples=400)
@given(melds, rulesets)
def test_every_meld_sentence_is_true(cards: list[Card], rules: Variant) -> None:
    assert_sentences_true(check_meld(cards, rules), rules, [cards])


@settings(max_examples=300)
@given(st.data(), near_melds(), rulesets)
def test_every_layoff_sentence_is_true(
    data: st.DataObject, cards: list[Card], rules: Variant
) -> None:
    readings = meld_readings(cards, rules)
    base: object = cards
    if readings and data.draw(st.booleans()):
        base = data.draw(st.sampled_from(readings))
    added = data.draw(st.lists(st.one_of(st.just(JOKER), st.sampled_from(FULL_DECK)), max_size=3))
    verdict = check_layoff(base, added, rules)  # type: ignore[arg-type]
    assert_sentences_true(verdict, rules, [[*cards, *added]])


@settings(max_examples=200)
@given(st.lists(melds, max_size=4), rulesets)
def test_every_opening_sentence_is_true(opening: list[list[Card]], rules: Variant) -> None:
    assert_sentences_true(check_opening(opening, rules), rules, opening)
