"""Cards: values you can write, parse, compare and show.

A :class:`Card` is a small immutable value. It prints the way a rulebook writes it
(``K♠``, ``10♥``, ``🃏``) and its ``repr`` can be pasted back into Python:

>>> card = Card("K♠")
>>> card
Card('K♠')
>>> print(card)
K♠
>>> Card("Ks") == Card("KS") == Card("k♠")
True
>>> parse_cards("10h Th 🃏 Jk")
(Card('10♥'), Card('10♥'), Card('🃏'), Card('🃏'))

Cards from the two decks of Hungarian Rummy are equal when they have the same rank and suit,
which is exactly why two of them "never count" in one set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

from rummykit.drawing import cards_html
from rummykit.messages import gender_word, read_ranks_with, render

__all__ = [
    "ACE",
    "JACK",
    "JOKER",
    "KING",
    "LOCAL_RANK_LETTERS",
    "QUEEN",
    "RANKS",
    "SUITS",
    "SUIT_CODES",
    "Card",
    "CardParseError",
    "Cards",
    "CardsLike",
    "Rank",
    "as_cards",
    "card_label",
    "card_text",
    "format_cards",
    "make_deck",
    "parse_card",
    "parse_cards",
    "rank_name",
    "rank_word",
    "sort_cards",
]

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS: tuple[int, ...] = tuple(range(1, 14))
SUITS: tuple[str, ...] = ("♠", "♥", "♦", "♣")
JOKER_SYMBOL = "🃏"

_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_FROM_TEXT = {
    "A": 1,
    "J": 11,
    "Q": 12,
    "K": 13,
    "T": 10,
    # the Portuguese and Finnish sources' letters: valete, dama, rei (pt) and D-R-A (fi).
    # They clash with no English rank, and the two languages agree, so they are read always.
    "V": 11,
    "D": 12,
    "R": 13,
    **{str(n): n for n in range(2, 11)},
}
_SUIT_FROM_TEXT = {
    **{s: s for s in SUITS},
    "♤": "♠",
    "♡": "♥",
    "♢": "♦",
    "♧": "♣",
    "S": "♠",
    "H": "♥",
    "D": "♦",
    "C": "♣",
}
LOCAL_RANK_LETTERS: dict[str, dict[int, str]] = {
    "pt": {JACK: "V", QUEEN: "D", KING: "R"},
    "fi": {QUEEN: "D", KING: "R"},
}
"""The rank letters that differ from English, by language (the letters the sources write)."""

SUIT_CODES: dict[str, str] = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}
"""The code of each suit in template codes: ``suit_hearts``, ``suit_one_hearts``."""

_JOKER_TEXTS = {JOKER_SYMBOL, "JK", "JOKER", "★"}
_SPLIT = re.compile(r"[\s,;]+")
_VARIATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")


class CardParseError(ValueError):
    """A card string could not be read."""

    def __init__(self, token: str) -> None:
        self.token = token
        super().__init__(render("card_parse_error", token=token))


def rank_name(rank: int) -> str:
    """The short name of a rank: ``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``.

    >>> rank_name(1), rank_name(10), rank_name(12)
    ('A', '10', 'Q')
    """
    return _RANK_NAMES.get(rank, str(rank))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Card:
    """One playing card, or a joker.

    ``rank`` is 1 (ace) to 13 (king), and 0 for a joker; ``suit`` is one of ``♠ ♥ ♦ ♣``, or
    ``""`` for a joker. Build a card from its text (``Card("10♥")``, ``Card("Th")``) or from
    rank and suit (``Card(10, "♥")``, ``Card("K", "s")``).

    There is one object per card: ``Card("K♠") is Card(13, "♠")``. Equal cards are the same
    object, so comparing and hashing cards costs next to nothing.

    >>> Card(13, "♠")
    Card('K♠')
    >>> Card("K", "s") is Card("K♠")
    True
    >>> Card("🃏").is_joker
    True
    """

    rank: int
    suit: str

    def __new__(cls, spec: str | int, suit: str | None = None) -> Card:
        if isinstance(spec, str):
            return parse_card(spec if suit is None else f"{spec}{suit}")
        if isinstance(spec, int) and not isinstance(spec, bool):
            if spec == 0 and suit in (None, ""):
                return _JOKER
            card = _CARDS.get((spec, suit or ""))
            if card is not None:
                return card
        raise CardParseError(f"{spec}{suit or ''}")

    def __init__(self, spec: str | int, suit: str | None = None) -> None:
        """Nothing to do: :meth:`__new__` hands out the one object for each card."""

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (str(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @property
    def is_joker(self) -> bool:
        """Whether this card is a joker."""
        return self.rank == 0

    @property
    def is_red(self) -> bool:
        """Whether the suit is red (♥ or ♦)."""
        return self.suit in ("♥", "♦")

    @property
    def rank_name(self) -> str:
        """``A``, ``2`` … ``10``, ``J``, ``Q``, ``K`` (``🃏`` for a joker)."""
        return JOKER_SYMBOL if self.is_joker else rank_name(self.rank)

    @property
    def rank_letter(self) -> str:
        """The rank as written on the card's picture: :attr:`rank_name`, or the current
        language's letter when local letters are on (``D`` for a queen in Finnish).

        >>> Card("Q♥").rank_letter
        'Q'
        """
        return JOKER_SYMBOL if self.is_joker else Rank(self.rank).text()

    @property
    def label(self) -> str:
        """Words for screen readers: ``king of spades``, ``10 of hearts``, ``joker`` (in the
        current language).

        >>> Card("Q♦").label
        'queen of diamonds'
        """
        return card_label(self)

    def sort_key(self) -> tuple[int, int]:
        """Suit order ♠ ♥ ♦ ♣, then rank; jokers last."""
        if self.is_joker:
            return (len(SUITS), 0)
        return (SUITS.index(self.suit), self.rank)

    def __str__(self) -> str:
        if self.is_joker:
            return JOKER_SYMBOL
        return f"{rank_name(self.rank)}{self.suit}"

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def spoken(self, spec: str = "") -> str:
        """The card in a sentence of the current language: its text (the language's letters
        when asked for), or with ``m=o|f=a`` the word for its rank's gender.

        >>> Card("Q♥").spoken(), Card("Q♥").spoken("m=o|f=a")
        ('Q♥', 'o')
        """
        if "=" in spec:
            return gender_word(spec, _rank_key(self))
        return card_text(self)

    def _repr_html_(self) -> str:
        return cards_html((self,))


class Cards(tuple[Card, ...]):
    """A row of cards: a plain tuple that prints as ``K♠ A♠ 2♠`` and shows as SVG cards.

    >>> cards = parse_cards("K♠ A♠ 2♠")
    >>> cards, str(cards)
    ((Card('K♠'), Card('A♠'), Card('2♠')), 'K♠ A♠ 2♠')
    """

    __slots__ = ()

    def __str__(self) -> str:
        return format_cards(self)

    def _repr_html_(self) -> str:
        return cards_html(self)


CardsLike: TypeAlias = "str | Card | Iterable[Card | str]"
"""What the checks accept as cards: ``"K♠ A♠ 2♠"``, a card, or an iterable of cards/strings."""


def parse_card(token: str) -> Card:
    """Read one card: ``K♠``, ``Ks``, ``KS``, ``10h``, ``Th``, ``🃏``, ``Jk`` or ``JK``; the
    Portuguese and Finnish letters too (``V`` valete = J, ``D`` dama/daami = Q, ``R`` rei = K).

    >>> parse_card("Dh"), parse_card("R♠"), parse_card("V♦")
    (Card('Q♥'), Card('K♠'), Card('J♦'))

    >>> parse_card("Th")
    Card('10♥')
    >>> parse_card("1♠")
    Traceback (most recent call last):
    ...
    rummykit.cards.CardParseError: '1♠' is not a card: ranks are A, 2–10, J, Q, K; suits ♠♥♦♣ or s h d c; jokers 🃏 or Jk
    """
    text = token.strip().translate(_VARIATION_SELECTORS)
    upper = text.upper()
    if upper in _JOKER_TEXTS:
        return _JOKER
    if len(text) >= 2:
        rank = _RANK_FROM_TEXT.get(upper[:-1])
        suit = _SUIT_FROM_TEXT.get(upper[-1])
        if rank is not None and suit is not None:
            return _CARDS[(rank, suit)]
    raise CardParseError(token)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas.

    >>> parse_cards("K♠ A♠ 2♠")
    (Card('K♠'), Card('A♠'), Card('2♠'))
    >>> parse_cards("Ks, As, 2s") == parse_cards("K♠ A♠ 2♠")
    True
    """
    return Cards(parse_card(token) for token in _SPLIT.split(text.strip()) if token)


def as_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Accept a string, a card, or an iterable of cards and strings; return a tuple of cards.

    >>> as_cards(["K♠", Card("A♠")])
    (Card('K♠'), Card('A♠'))
    """
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, Card):
        return Cards((cards,))
    return Cards(c if isinstance(c, Card) else parse_card(c) for c in cards)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as a learner writes them: ``K♠ A♠ 2♠``.

    >>> format_cards(parse_cards("Ks As 2s"))
    'K♠ A♠ 2♠'
    """
    return " ".join(str(c) for c in cards)


def card_text(card: Card, language: str | None = None, local: bool | None = None) -> str:
    """A card as text, in the language's rank letters when ``local`` (default: as set with
    ``set_language(..., local_letters=True)``); English letters otherwise.

    >>> card_text(Card("Q♥"), "pt", local=True), card_text(Card("Q♥"), "fi", local=True)
    ('D♥', 'D♥')
    >>> card_text(Card("J♠"), "pt", local=True), card_text(Card("J♠"), "pt")
    ('V♠', 'J♠')
    """
    if local is None:
        from rummykit.language import local_letters

        local = local_letters()
    if not local or card.is_joker:
        return str(card)
    from rummykit.language import resolve

    letters = LOCAL_RANK_LETTERS.get(resolve(language), {})
    return f"{letters.get(card.rank, rank_name(card.rank))}{card.suit}"


class Rank(int):
    """A rank in a sentence (``from 5 to Q``): written with its letter, the language's when
    local letters are asked for (see :func:`card_text`).

    >>> str(Rank(12)), Rank(12).text("fi", local=True)
    ('Q', 'D')
    """

    __slots__ = ()

    def text(self, language: str | None = None, local: bool | None = None) -> str:
        """The rank's letter (or number) in ``language``."""
        return card_text(_CARDS[(int(self), "♠")], language, local)[:-1]

    def __str__(self) -> str:
        return rank_name(int(self))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def spoken(self, spec: str = "") -> str:
        """The rank in a sentence of the current language."""
        return self.text()


def card_label(card: Card, language: str | None = None) -> str:
    """Words for a card (screen readers, tooltips): ``queen of diamonds``, in ``language``.

    >>> card_label(Card("10♥")), card_label(JOKER)
    ('10 of hearts', 'joker')
    """
    if card.is_joker:
        return render("card_label_joker", language=language)
    return render(
        "card_label",
        rank=rank_word(card.rank),
        suit=render(f"suit_{SUIT_CODES[card.suit]}"),
        language=language,
    )


def _rank_key(card: Card) -> str:
    """``Q``, ``7``, ``joker``: how the catalogue's ``rank_gender`` names a card's rank."""
    return "joker" if card.is_joker else rank_name(card.rank)


def _rank_of_text(text: str) -> str:
    """The rank key of a card written as text (``""`` when it is no card)."""
    try:
        return _rank_key(parse_card(text))
    except CardParseError:
        return ""


def rank_word(rank: int) -> str:
    """The word for a rank: ``ace``, ``queen``; a number card's rank is its digits.

    >>> rank_word(1), rank_word(7)
    ('ace', '7')
    """
    if rank in (ACE, JACK, QUEEN, KING):
        return render(f"rank_word_{rank_name(rank).lower()}")
    return str(rank)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in suit order (♠ ♥ ♦ ♣), by rank within a suit, jokers last."""
    return tuple(sorted(cards, key=Card.sort_key))


def make_deck(decks: int = 1, jokers: int = 0) -> tuple[Card, ...]:
    """A fresh, unshuffled deck: ``decks`` × 52 cards plus ``jokers``.

    >>> len(make_deck(2, 4)), len(make_deck(1))
    (108, 52)
    """
    one = tuple(_CARDS[(rank, suit)] for suit in SUITS for rank in RANKS)
    return one * decks + (_JOKER,) * jokers


def _build(rank: int, suit: str) -> Card:
    card: Card = object.__new__(Card)
    object.__setattr__(card, "rank", rank)
    object.__setattr__(card, "suit", suit)
    return card


_CARDS: dict[tuple[int, str], Card] = {(r, s): _build(r, s) for s in SUITS for r in RANKS}
_JOKER = _build(0, "")
JOKER: Card = _JOKER

read_ranks_with(_rank_of_text)
