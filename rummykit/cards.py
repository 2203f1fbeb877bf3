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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from rummykit.drawing import cards_html
from rummykit.errors import RummykitError
from rummykit.messages import (
    gender_word,
    read_ranks_with,
    render,
    write_cards_with,
    write_ranks_with,
)

__all__ = [
    "ACE",
    "HIGH_ACE",
    "JACK",
    "JOKER",
    "KING",
    "LOCAL_RANK_LETTERS",
    "LOCAL_SUIT_LETTERS",
    "QUEEN",
    "RANKS",
    "SUITS",
    "SUIT_CODES",
    "Card",
    "CardLettersAmbiguous",
    "CardParseError",
    "Cards",
    "CardsLike",
    "Rank",
    "as_cards",
    "card_at",
    "card_label",
    "card_text",
    "format_cards",
    "local_letters_in",
    "make_deck",
    "parse_card",
    "parse_cards",
    "rank_name",
    "rank_word",
    "run_places",
    "sort_cards",
]

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
HIGH_ACE = 14
"""The place of an ace above the king in a run (Q-K-A); below the 2 (A-2-3) it is 1."""
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
_SUIT_SYMBOLS = {**{s: s for s in SUITS}, "♤": "♠", "♡": "♥", "♢": "♦", "♧": "♣"}
_ENGLISH_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_FROM_TEXT = {**_SUIT_SYMBOLS, **_ENGLISH_SUITS}
LOCAL_SUIT_LETTERS: dict[str, dict[str, str]] = {
    # espadas, copas, ouros, paus: the initials Brazilian players write (c clashes with the
    # English c of clubs: a line that reads both ways is refused, see parse_cards)
    "pt": {"E": "♠", "C": "♥", "O": "♦", "P": "♣"},
    # pata, hertta, ruutu, risti: Finnish initials (h agrees with English; Finnish
    # abbreviations are mostly written with the English s h d c, which are read too)
    "fi": {"P": "♠", "H": "♥", "R": "♦", "RI": "♣"},
}
"""The suit letters of each language, read (besides the English ones) while it is spoken."""
_LOCAL_RANKS: dict[str, dict[str, int]] = {
    # the Finnish deck's own indices: 1 on the ace, 11, 12, 13 on the jack, queen and king
    "fi": {"1": ACE, "11": JACK, "12": QUEEN, "13": KING},
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


class CardParseError(RummykitError):
    """A card string could not be read."""

    def __init__(self, token: str, message: str | None = None, language: str | None = None) -> None:
        self.token = token
        super().__init__(message or render("card_parse_error", token=token, language=language))


class CardLettersAmbiguous(CardParseError):
    """Cards that read one way with the language's suit letters and another with the English
    ones (Portuguese ``c`` is copas, English ``c`` clubs): refused, both readings named."""

    def __init__(
        self,
        text: str,
        local: tuple[Card, ...],
        english: tuple[Card, ...],
        language: str | None = None,
    ) -> None:
        from rummykit.language import speaking

        self.readings = (local, english)
        words = {"text": text, "local": Cards(local), "english": Cards(english)}
        # the readings written with the rank letters the input used (Vc: V♥ and V♣)
        with speaking(None, local_letters=True if local_letters_in(text, language) else None):
            message = render("card_letters_ambiguous", words, language)
        super().__init__(text, message)


class CardLettersMixed(CardParseError):
    """Cards that mix the language's suit letters with English ones in one line."""

    def __init__(self, text: str, local: str, english: str, language: str | None = None) -> None:
        words = {"text": text, "local": local, "english": english}
        super().__init__(text, render("card_letters_mixed", words, language))


def run_places(card: Card) -> tuple[int, ...]:
    """The places a natural card may take in a run: its rank, and for an ace both ends —
    1 below the 2 (A-2-3) and :data:`HIGH_ACE` above the king (Q-K-A). The one place the
    ace's two places are spelled; a variant says which of them it allows (H4, R3).

    >>> run_places(Card("A♠")), run_places(Card("7♥"))
    ((1, 14), (7,))
    """
    return (ACE, HIGH_ACE) if card.rank == ACE else (card.rank,)


def card_at(place: int, suit: str) -> Card:
    """The card of ``suit`` at a run's ``place`` (1 to 14: both 1 and 14 are the ace).

    >>> card_at(14, "♠"), card_at(5, "♥")
    (Card('A♠'), Card('5♥'))
    """
    return Card(ACE if place == HIGH_ACE else place, suit)


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


def parse_card(token: str, language: str | None = None) -> Card:
    """Read one card: ``K♠``, ``Ks``, ``KS``, ``10h``, ``Th``, ``🃏``, ``Jk`` or ``JK``; the
    Portuguese and Finnish letters too (``V`` valete = J, ``D`` dama/daami = Q, ``R`` rei = K).

    >>> parse_card("Dh"), parse_card("R♠"), parse_card("V♦")
    (Card('Q♥'), Card('K♠'), Card('J♦'))

    While Portuguese or Finnish is spoken (or given as ``language``), that language's suit
    letters are read too (see :func:`parse_cards`):

    >>> parse_card("Ro", "pt"), parse_card("7ri", "fi"), parse_card("12h", "fi")
    (Card('K♦'), Card('7♣'), Card('Q♥'))

    >>> parse_card("Th")
    Card('10♥')
    >>> parse_card("1♠")
    Traceback (most recent call last):
    ...
    rummykit.cards.CardParseError: '1♠' is not a card: ranks are A, 2–10, J, Q, K; suits ♠♥♦♣ or s h d c; jokers 🃏 or Jk
    """
    card = _BY_TEXT.get(token)
    if card is not None:  # as the cards print themselves: one way to read it
        return card
    return _read_line((token,), token, language)[0]


def _read(token: str, scheme: str) -> Card | None:
    """One card under one way of writing suits: ``en`` (s h d c) or a language's letters;
    ranks and suit symbols read the same in every way."""
    text = token.strip().translate(_VARIATION_SELECTORS)
    upper = text.upper()
    if upper in _JOKER_TEXTS:
        return _JOKER
    suits = _ENGLISH_SUITS if scheme == "en" else LOCAL_SUIT_LETTERS[scheme]
    ranks = _LOCAL_RANKS.get(scheme, {})
    for width in (2, 1):  # a two-letter suit first (Finnish ri)
        if len(upper) <= width:
            continue
        head, tail = upper[:-width], upper[-width:]
        suit = _SUIT_SYMBOLS.get(tail) if width == 1 else None
        suit = suit or suits.get(tail)
        rank = _RANK_FROM_TEXT.get(head) or ranks.get(head)
        if rank is not None and suit is not None:
            return _CARDS[(rank, suit)]
    return None


def _schemes(language: str | None) -> tuple[str, ...]:
    """The ways of writing suits read now: English, and the language's own when it has some."""
    from rummykit.language import resolve

    spoken = resolve(language)
    return ("en", spoken) if spoken in LOCAL_SUIT_LETTERS else ("en",)


def _read_line(tokens: Sequence[str], text: str, language: str | None) -> tuple[Card, ...]:
    """Cards read from tokens written one way: every way of writing suits in use reads the
    whole line; one that reads it all decides, two that read it differently are refused."""
    schemes = _schemes(language)
    readings = {scheme: [_read(token, scheme) for token in tokens] for scheme in schemes}
    whole = {s: tuple(r) for s, r in readings.items() if all(c is not None for c in r)}
    if not whole:
        for i, token in enumerate(tokens):
            if all(readings[s][i] is None for s in schemes):
                raise CardParseError(token, language=language)
        local, english = schemes[-1], "en"  # each token reads, but no one way reads them all
        only_local = next(t for i, t in enumerate(tokens) if readings[english][i] is None)
        only_english = next(t for i, t in enumerate(tokens) if readings[local][i] is None)
        raise CardLettersMixed(text, only_local, only_english, language)
    found = list(dict.fromkeys(whole.values()))
    if len(found) > 1:
        raise CardLettersAmbiguous(text, whole[schemes[-1]], whole["en"], language)  # type: ignore[arg-type]
    return found[0]  # type: ignore[return-value]


def local_letters_in(text: str, language: str | None = None) -> bool:
    """Whether cards were typed with the language's own letters — a rank V, D or R (or a
    Finnish 1, 11, 12, 13), or suit letters only the language reads — so that what is said
    back can write them the same way.

    >>> local_letters_in("Rh Dh Ah", "fi"), local_letters_in("Q♥ K♥ A♥", "fi")
    (True, False)
    >>> local_letters_in("7o 8o 9o", "pt"), local_letters_in("7h 8h 9h", "pt")
    (True, False)
    """
    from rummykit.language import resolve

    spoken = resolve(language)
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    try:
        if any(_read(token, "en") is None for token in tokens):
            return spoken in LOCAL_SUIT_LETTERS and bool(tokens)  # read the language's way
    except KeyError:  # pragma: no cover - every scheme is known
        return False
    local_ranks = {"V", "D", "R"}
    for token in tokens:
        upper = token.strip().translate(_VARIATION_SELECTORS).upper()
        if upper not in _JOKER_TEXTS and upper[:-1] in local_ranks:
            return True
    return False


def parse_cards(text: str, language: str | None = None) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas.

    >>> parse_cards("K♠ A♠ 2♠")
    (Card('K♠'), Card('A♠'), Card('2♠'))
    >>> parse_cards("Ks, As, 2s") == parse_cards("K♠ A♠ 2♠")
    True

    The line is read one way: with the English suit letters (s h d c), or with the spoken
    language's (Portuguese e c o p, Finnish p h r ri). A line that reads both ways with
    different cards is refused with both readings, never silently taken:

    >>> parse_cards("Vo Do Ro", "pt")
    (Card('J♦'), Card('Q♦'), Card('K♦'))
    >>> parse_cards("Vc Dc Rc", "pt")
    Traceback (most recent call last):
    ...
    rummykit.cards.CardLettersAmbiguous: 'Vc Dc Rc' se lê de dois jeitos: V♥ D♥ R♥ com as letras portuguesas dos naipes (c = copas), V♣ D♣ R♣ com as inglesas (c = clubs, paus) — ...
    """
    tokens = [token for token in _SPLIT.split(text.strip()) if token]
    known = [_BY_TEXT.get(token) for token in tokens]
    if all(card is not None for card in known):  # as the cards print themselves
        return Cards(known)  # type: ignore[arg-type]
    return Cards(_read_line(tokens, text.strip(), language))


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
_BY_TEXT: dict[str, Card] = {str(c): c for c in (*_CARDS.values(), _JOKER)}

_CARD_IN_TEXT = re.compile(r"(?<!\S)(?:10|[2-9AJQK])[♠♥♦♣](?![^\s,.;:)])")


def _cards_in_letters(text: str) -> str:
    """Cards written in text with the English letters (``Q♠ or K♠``), in the letters of the
    sentence: the language's when local letters are on.

    >>> from rummykit.language import speaking
    >>> with speaking("fi", local_letters=True):
    ...     _cards_in_letters("Q♠ tai K♠, 10♥")
    'D♠ tai R♠, 10♥'
    """
    from rummykit.language import local_letters

    if not local_letters():
        return text
    return _CARD_IN_TEXT.sub(lambda m: card_text(_BY_TEXT[m.group()]), text)


read_ranks_with(_rank_of_text)
write_cards_with(_cards_in_letters)
write_ranks_with(lambda rank: Rank(rank).text())
