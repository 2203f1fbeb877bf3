"""Cards: every accepted spelling, clear parse errors, printing, decks and notebook display."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest

from rummykit import (
    HUNGARIAN,
    ROMMI,
    Card,
    CardParseError,
    check_meld,
    display,
    make_deck,
    make_meld,
    parse_card,
    parse_cards,
)
from rummykit.cards import JOKER, RANKS, SUITS, as_cards, format_cards, sort_cards

SPADES, HEARTS, DIAMONDS, CLUBS = SUITS

# --- parsing: every accepted form ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("K♠", 13, SPADES),
        ("Ks", 13, SPADES),
        ("KS", 13, SPADES),
        ("ks", 13, SPADES),
        ("10h", 10, HEARTS),
        ("10H", 10, HEARTS),
        ("10♥", 10, HEARTS),
        ("Th", 10, HEARTS),
        ("tH", 10, HEARTS),
        ("T♥", 10, HEARTS),
        ("A♦", 1, DIAMONDS),
        ("Ad", 1, DIAMONDS),
        ("2c", 2, CLUBS),
        ("2♣", 2, CLUBS),
        ("Q♦", 12, DIAMONDS),
        ("Jh", 11, HEARTS),  # the jack of hearts, not a joker
        ("JH", 11, HEARTS),
        ("9S", 9, SPADES),
        # emoji presentation: suits followed by a variation selector (what phones type)
        ("K♥\ufe0f", 13, HEARTS),
        ("10♥\ufe0f", 10, HEARTS),
        ("A♠\ufe0f", 1, SPADES),
        ("Q♦\ufe0e", 12, DIAMONDS),
        ("7♣\ufe0f", 7, CLUBS),
        # white suit symbols
        ("A♤", 1, SPADES),
        ("Q♡", 12, HEARTS),
        ("3♢", 3, DIAMONDS),
        ("8♧", 8, CLUBS),
        # surrounding blanks
        (" Ks ", 13, SPADES),
    ],
)
def test_parse_card_accepts(text: str, rank: int, suit: str) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert not card.is_joker
    assert card == Card(rank, suit)


@pytest.mark.parametrize("text", ["🃏", "🃏\ufe0f", "Jk", "JK", "jk", "jK"])
def test_parse_joker(text: str) -> None:
    card = parse_card(text)
    assert card.is_joker
    assert card == JOKER
    assert str(card) == "🃏"


def test_jack_and_joker_are_told_apart() -> None:
    assert parse_card("Jk").is_joker
    assert not parse_card("Jh").is_joker
    assert parse_card("Jh").rank == 11


def test_parse_cards_separators_and_empty() -> None:
    expected = (Card(13, SPADES), Card(1, SPADES), Card(2, SPADES))
    assert parse_cards("K♠ A♠ 2♠") == expected
    assert parse_cards("Ks As 2s") == expected
    assert parse_cards("KS,AS,2S") == expected
    assert parse_cards("  Ks ;  As,\n2s  ") == expected
    assert parse_cards("") == ()
    assert parse_cards("   ") == ()


def test_as_cards_accepts_strings_cards_and_iterables() -> None:
    king = Card(13, SPADES)
    assert as_cards("K♠ 🃏") == (king, JOKER)
    assert as_cards(king) == (king,)
    assert as_cards(["K♠", JOKER]) == (king, JOKER)


# --- parsing: bad tokens ------------------------------------------------------------------


@pytest.mark.parametrize(
    "token",
    ["1♠", "11♠", "0h", "14s", "♠K", "K", "T", "10", "KK", "Kx", "Zs", "K♠♠", "1O♥", "♥\ufe0f", ""],
)
def test_bad_token_is_a_value_error_quoting_it_and_saying_what_is_accepted(token: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(token)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.token == token
    message = str(error)
    assert message.startswith(f"'{token}' is not a card")
    # what is accepted: every rank, both ways of writing suits, the joker
    assert "ranks are A, 2–10, J, Q, K" in message
    assert "suits ♠♥♦♣ or s h d c" in message
    assert "🃏" in message


def test_parse_error_message_reads_like_the_style_guide() -> None:
    with pytest.raises(
        ValueError, match=r"^'1♠' is not a card: ranks are A, 2–10, J, Q, K; suits ♠♥♦♣ or s h d c"
    ):
        parse_card("1♠")


def test_parse_cards_names_only_the_bad_token() -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards("Ks 1s 2s")
    assert info.value.token == "1s"
    assert str(info.value).startswith("'1s' is not a card")


def test_card_parse_error_has_a_one_line_docstring() -> None:
    doc = CardParseError.__doc__ or ""
    assert doc.strip() and "\n" not in doc.strip()


# --- building cards -----------------------------------------------------------------------


def test_card_from_rank_and_suit() -> None:
    assert Card(13, SPADES) == Card("K♠")
    assert Card(10, HEARTS) == Card("Th")
    assert Card("K", "s") == Card("K♠")  # a rank and a suit as text
    assert Card("10", "♥") == Card("10♥")
    assert Card(0) == JOKER
    assert Card(0, "") == JOKER


@pytest.mark.parametrize(
    "args", [(14, SPADES), (0, SPADES), (13, "S"), (13, ""), (True, SPADES), ("K", "x")]
)
def test_card_refuses_what_is_not_a_card(args: tuple[object, ...]) -> None:
    with pytest.raises(CardParseError):
        Card(*args)  # type: ignore[arg-type]


def test_cards_are_immutable_values() -> None:
    card = Card("K♠")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 12  # type: ignore[misc]
    # the two decks of Hungarian Rummy give equal cards: that is why they never count twice
    deck = HUNGARIAN.deck()
    kings = [c for c in deck if c == card]
    assert len(kings) == 2
    assert len(set(kings)) == 1
    assert hash(Card("Ks")) == hash(Card("K♠"))


def test_card_properties() -> None:
    assert Card("Q♦").label == "queen of diamonds"
    assert Card("10♣").label == "10 of clubs"
    assert Card("A♠").label == "ace of spades"
    assert JOKER.label == "joker"
    assert Card("5♥").is_red and Card("5♦").is_red
    assert not Card("5♠").is_red and not Card("5♣").is_red
    assert Card("Q♦").rank_name == "Q" and Card("10♦").rank_name == "10"


# --- printing -----------------------------------------------------------------------------


def test_str_is_how_a_rulebook_writes_it() -> None:
    assert str(Card("Ks")) == "K♠"
    assert str(Card("Th")) == "10♥"
    assert str(Card("ad")) == "A♦"
    assert str(Card("Jk")) == "🃏"
    assert format_cards(parse_cards("Ks As 2s")) == "K♠ A♠ 2♠"


def test_repr_pastes_back_for_every_card_of_both_decks() -> None:
    for card in set(HUNGARIAN.deck()) | set(ROMMI.deck()):
        text = repr(card)
        assert text == f"Card('{card}')"
        assert eval(text, {"Card": Card}) == card
        assert parse_card(str(card)) == card


def test_sort_cards_by_suit_then_rank_jokers_last() -> None:
    cards = parse_cards("🃏 2♣ K♠ A♠ 10♥")
    assert sort_cards(cards) == parse_cards("A♠ K♠ 10♥ 2♣ 🃏")


# --- decks --------------------------------------------------------------------------------


def test_H1_hungarian_deck_is_two_decks_and_four_jokers() -> None:
    deck = HUNGARIAN.deck()
    assert len(deck) == 108 == 2 * 52 + 4
    counts = Counter(deck)
    assert counts[JOKER] == 4
    naturals = {c for c in counts if not c.is_joker}
    assert naturals == {Card(r, s) for r in RANKS for s in SUITS}
    assert all(counts[c] == 2 for c in naturals)


def test_R1_rommi_deck_is_one_deck_without_jokers() -> None:
    deck = ROMMI.deck()
    assert len(deck) == 52
    assert JOKER not in deck
    assert set(deck) == {Card(r, s) for r in RANKS for s in SUITS}
    assert len(set(deck)) == 52


def test_make_deck() -> None:
    assert len(make_deck()) == 52
    assert len(make_deck(2, 4)) == 108
    assert make_deck(1, 2).count(JOKER) == 2


# --- notebook display ---------------------------------------------------------------------


def _svgs(html: str) -> list[str]:
    return re.findall(r"<svg\b.*?</svg>", html, flags=re.S)


def _fills(svg: str) -> set[str]:
    return set(re.findall(r'<text[^>]*fill="(#[0-9a-fA-F]{6})"', svg)) - {"#ffffff"}


@pytest.mark.parametrize("card", sorted(set(ROMMI.deck()), key=Card.sort_key))
def test_card_html_is_svg_showing_rank_and_suit_with_a_label(card: Card) -> None:
    html = card._repr_html_()
    (svg,) = _svgs(html)
    assert f'aria-label="{card.label}"' in svg
    assert f">{card.rank_name}<" in svg  # the rank is written on the card
    assert f">{card.suit}<" in svg  # and so is the suit: colour is never the only cue


def test_joker_html() -> None:
    (svg,) = _svgs(JOKER._repr_html_())
    assert 'aria-label="joker"' in svg
    assert ">JOKER<" in svg and "🃏" in svg


def test_meld_html_shows_every_card() -> None:
    meld = make_meld("7♥ 5♥ 🃏")
    svgs = _svgs(meld._repr_html_())
    labels = [re.search(r'aria-label="([^"]*)"', s).group(1) for s in svgs]  # type: ignore[union-attr]
    assert labels == [c.label for c in meld.cards] == ["5 of hearts", "joker", "7 of hearts"]


def test_verdict_html_highlights_the_cards_at_fault_only() -> None:
    verdict = check_meld("5♥ 🃏 🃏")  # too many jokers: the jokers are at fault, the 5♥ is not
    html = verdict._repr_html_()
    labels = re.findall(r'aria-label="([^"]*)"', html)
    assert labels == ["5 of hearts", "joker (at fault)", "joker (at fault)"]
    assert ">5<" in html and ">♥<" in html
    for reason in verdict.failures:
        assert reason.message in html
        assert f"({reason.rule})" in html


def test_verdict_html_of_a_valid_meld_marks_nothing() -> None:
    verdict = check_meld("5♥ 🃏 7♥")
    html = verdict._repr_html_()
    assert "(at fault)" not in html
    assert len(_svgs(html)) == 3
    assert "6♥" in html  # the explanation of what the joker stands for


def test_four_colour_option_changes_diamonds_and_clubs(monkeypatch: pytest.MonkeyPatch) -> None:
    def colour(text: str) -> set[str]:
        return _fills(_svgs(Card(text)._repr_html_())[0])

    # red and black: diamonds look like hearts, clubs like spades
    monkeypatch.setattr(display.options, "four_colour", False)
    two = {s: colour(f"Q{s}") for s in SUITS}
    assert two[DIAMONDS] == two[HEARTS] and two[CLUBS] == two[SPADES]
    assert two[HEARTS] != two[SPADES]

    monkeypatch.setattr(display.options, "four_colour", True)
    four = {s: colour(f"Q{s}") for s in SUITS}
    assert len({frozenset(c) for c in four.values()}) == 4  # every suit its own ink
    assert four[DIAMONDS] != two[DIAMONDS] and four[CLUBS] != two[CLUBS]
    assert four[HEARTS] == two[HEARTS] and four[SPADES] == two[SPADES]
    # rank and suit are still written on the card
    html = Card("Q♦")._repr_html_()
    assert ">Q<" in html and ">♦<" in html
