"""Actions: small frozen values, one per thing a player can do.

Every action prints as words a learner reads, reads back from a short text, and converts
to and from JSON for saved games:

>>> action = LayOff(as_cards("7♥"), meld=2)
>>> print(action)
lay off 7♥ onto meld 3
>>> parse_action("lay off 7h onto 3") == action
True
>>> Action.from_dict(action.to_dict()) == action
True

People count melds from 1: the words (``str``) and the text form say "meld 3" for the
third meld on the table. The dataclass field ``meld`` and the JSON form keep the index
from 0 (``meld=2``), as the table tuple does.
"""

from __future__ import annotations

import re
from dataclasses import MISSING, dataclass, fields
from functools import lru_cache
from typing import Any, ClassVar, Literal, cast

from rummykit.cards import Card, CardParseError, as_cards, parse_card, parse_cards
from rummykit.errors import RummykitError
from rummykit.messages import render

__all__ = [
    "Action",
    "ActionParseError",
    "Cut",
    "Discard",
    "Draw",
    "DrawSource",
    "ExchangeJoker",
    "LayOff",
    "PlayMeld",
    "ReturnCutCard",
    "Undo",
    "parse_action",
]

DrawSource = Literal["stock", "discard", "cut_card"]
"""Where a draw takes its card from: the stock, the top of the discard pile, the cut card."""
SOURCES: tuple[DrawSource, ...] = ("stock", "discard", "cut_card")

JokerMeaning = Card | tuple[Card, ...] | None
"""What the jokers of a meld or lay-off stand for: one card, or a card per joker."""


class ActionParseError(RummykitError):
    """An action could not be read from text or JSON."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action."""

    kind: ClassVar[str] = "action"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``{"type": kind, ...}`` with cards as text."""
        out: dict[str, Any] = {"type": self.kind}
        for spec in fields(self):
            name = spec.name
            value = getattr(self, name)
            if isinstance(value, tuple):
                value = [str(c) for c in value]
            elif isinstance(value, Card):
                value = str(value)
            out[name] = value
        return out

    @staticmethod
    def from_dict(data: object) -> Action:
        """Read an action back from :meth:`to_dict` output; bad data raises ActionParseError."""
        if (
            not isinstance(data, dict)
            or not isinstance(data.get("type"), str)
            or data["type"] not in _KINDS
        ):
            raise ActionParseError(
                render("bad_action_data", data=data, choices=", ".join(sorted(_KINDS)))
            )
        cls = _KINDS[data["type"]]
        names = [spec.name for spec in fields(cls)]
        unknown = sorted(str(k) for k in data if k != "type" and k not in names)
        if unknown:
            raise ActionParseError(
                render("bad_action_unknown", kind=cls.kind, field=unknown[0], choices=names)
            )
        values: dict[str, Any] = {}
        for spec in fields(cls):
            name = spec.name
            if name not in data:
                if spec.default is not MISSING:
                    continue
                raise ActionParseError(render("bad_action_field", kind=cls.kind, field=name))
            try:
                values[name] = _field_value(cls.kind, name, data[name])
            except CardParseError as exc:
                raise ActionParseError(
                    render("bad_action_card", kind=cls.kind, field=name, error=str(exc))
                ) from exc
        return cls(**values)

    def __str__(self) -> str:
        return render(f"action_{self.kind}", self._params())

    def spoken(self, spec: str = "") -> str:
        """The move in a sentence of the current language (a sentence that holds a move
        holds the move itself, so it says it again in any language)."""
        return str(self)

    @property
    def command(self) -> Command:
        """The move as a learner types it, in the current language; ``command(language)``
        gives it in another. :func:`parse_action` reads it back.

        >>> move = LayOff((Card("7♥"),), 1)
        >>> move.command, move.command("pt"), move.command("fi")
        ('lay off 7♥ onto 2', 'acrescentar 7♥ na combinação 2', 'lisää 7♥ yhdistelmään 2')
        >>> parse_action(move.command("pt"), "pt") == move
        True
        """
        return Command(self.typed(), self)

    def typed(self, language: str | None = None) -> str:
        return render(f"command_{self.kind}", self._params(), language)

    def _params(self) -> dict[str, object]:
        return {}


class Command(str):
    """A move as typed, in the current language: a string; call it with a language code for
    the same move typed in that language (``action.command("fi")``)."""

    action: Action

    def __new__(cls, text: str, action: Action) -> Command:
        self = super().__new__(cls, text)
        self.action = action
        return self

    def __call__(self, language: str | None = None) -> str:
        """The move as typed in ``language`` (default: the current one)."""
        return str(self.action.typed(language))

    def __reduce__(self) -> tuple[object, ...]:
        return (str, (str(self),))


def _field_value(kind: str, name: str, value: object) -> object:
    if name == "cards":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ActionParseError(render("bad_action_field", kind=kind, field=name))
        return as_cards(value)
    if name == "joker_as" and isinstance(value, list):  # one meaning per joker
        if not value or not all(isinstance(v, str) for v in value):
            raise ActionParseError(render("bad_action_field", kind=kind, field=name))
        return as_cards(value)
    if name in ("card", "joker_as"):
        if value is None and name == "joker_as":
            return None
        if not isinstance(value, str):
            raise ActionParseError(render("bad_action_field", kind=kind, field=name))
        return parse_card(value)
    if name in ("meld", "height"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ActionParseError(render("bad_action_field", kind=kind, field=name))
        return value
    if name == "source":
        if value not in SOURCES:
            raise ActionParseError(render("bad_action_field", kind=kind, field=name))
        return value
    raise ActionParseError(render("bad_action_field", kind=kind, field=name))


@dataclass(frozen=True, slots=True)
class Cut(Action):
    """Cut the deck at a height of the cutter's choice (H3): lift ``height`` cards."""

    kind: ClassVar[str] = "cut"
    height: int

    def _params(self) -> dict[str, object]:
        return {"height": self.height}


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw: from the ``"stock"``, the ``"discard"`` pile, or take the ``"cut_card"`` (H6, H10)."""

    kind: ClassVar[str] = "draw"
    source: DrawSource = "stock"

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ActionParseError(render("bad_action_field", kind=self.kind, field="source"))

    def __str__(self) -> str:
        return render(f"action_draw_{self.source}")

    def typed(self, language: str | None = None) -> str:
        return render(f"command_draw_{self.source}", None, language)


@dataclass(frozen=True, slots=True)
class PlayMeld(Action):
    """Lay down a new meld from hand; ``joker_as`` says what an end joker stands for (H5).

    With more than one joker (house rule ``jokers_per_meld``), ``joker_as`` may name a card
    per joker: ``PlayMeld(cards, (Card("J♥"), Card("Q♥")))``; the order doesn't matter.
    """

    kind: ClassVar[str] = "meld"
    cards: tuple[Card, ...]
    joker_as: JokerMeaning = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "joker_as", _one_meaning(self.joker_as))

    def __str__(self) -> str:
        return _with_jokers(render("action_meld", cards=self.cards), self.joker_as)

    def typed(self, language: str | None = None) -> str:
        code = "command_meld_as" if self.joker_as is not None else "command_meld"
        return render(code, {"cards": self.cards, "jokers": self.joker_as}, language)


@dataclass(frozen=True, slots=True)
class LayOff(Action):
    """Add cards from hand to the meld at index ``meld`` on the table (R6, H8).

    ``meld`` counts from 0, like ``game.table``; people read and type it from 1.
    """

    kind: ClassVar[str] = "layoff"
    cards: tuple[Card, ...]
    meld: int
    joker_as: JokerMeaning = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "joker_as", _one_meaning(self.joker_as))

    def __str__(self) -> str:
        layoff = render("action_layoff", cards=self.cards, meld=self.meld + 1)
        return _with_jokers(layoff, self.joker_as)

    def typed(self, language: str | None = None) -> str:
        code = "command_layoff_as" if self.joker_as is not None else "command_layoff"
        params = {"cards": self.cards, "meld": self.meld + 1, "jokers": self.joker_as}
        return render(code, params, language)


@dataclass(frozen=True, slots=True)
class ExchangeJoker(Action):
    """Hand in ``card`` for the joker that stands for it in the meld at index ``meld`` (H11).

    ``meld`` counts from 0, like ``game.table``; people read and type it from 1.
    """

    kind: ClassVar[str] = "exchange"
    card: Card
    meld: int

    def _params(self) -> dict[str, object]:
        return {"card": self.card, "meld": self.meld + 1}


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """Take back the last provisional move of this turn."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class ReturnCutCard(Action):
    """Give the cut card back: everything done with it is undone; then draw normally (H10)."""

    kind: ClassVar[str] = "return_cut"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard a card, ending the turn (H6, R4)."""

    kind: ClassVar[str] = "discard"
    card: Card

    def _params(self) -> dict[str, object]:
        return {"card": self.card}


def _with_jokers(move: str, joker_as: JokerMeaning) -> str:
    """The move and what its jokers stand for, as one sentence (a :class:`Text`) that a
    sentence holding it says again in its own language."""
    if joker_as is None:
        return move
    return render("action_with_jokers", action=move, jokers=_joker_text(joker_as))


def _joker_text(joker_as: JokerMeaning) -> str:
    if joker_as is None:
        return ""
    if isinstance(joker_as, Card):
        return render("action_joker_as", card=joker_as)
    return render("action_jokers_as", cards=joker_as)


def _one_meaning(joker_as: object) -> JokerMeaning:
    """``joker_as`` in one form: None, a card, or several cards in card order.

    >>> _one_meaning(["Q♥"]), _one_meaning(("Q♥", "J♥"))
    (Card('Q♥'), (Card('J♥'), Card('Q♥')))
    """
    if joker_as is None or isinstance(joker_as, Card):
        return joker_as
    cards = as_cards(joker_as)  # type: ignore[arg-type]
    if len(cards) == 1:
        return cards[0]
    return tuple(sorted(cards, key=Card.sort_key))


_KINDS: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (Cut, Draw, PlayMeld, LayOff, ExchangeJoker, Undo, ReturnCutCard, Discard)
}

_PATTERNS: tuple[tuple[re.Pattern[str], DrawSource], ...] = (
    (re.compile(r"^(?:draw|d)(?:\s+(?:from\s+)?(?:the\s+)?(stock|s))?$"), "stock"),
    (re.compile(r"^(?:take|draw|t)\s+(?:the\s+)?(?:discard|pile|d)$"), "discard"),
    (re.compile(r"^(?:take|draw|t)\s+(?:the\s+)?(?:cut|cut card|c)$"), "cut_card"),
)

_COMMANDS = (  # the plain forms first: a joker's meaning is read only after them
    "draw_stock",
    "draw_discard",
    "draw_cut_card",
    "undo",
    "return_cut",
    "cut",
    "discard",
    "meld",
    "layoff",
    "exchange",
    "meld_as",
    "layoff_as",
)
_SLOTS = {
    "cards": r"(?P<cards>.+?)",
    "jokers": r"(?P<jokers>.+?)",
    "card": r"(?P<card>\S+)",
    "meld": r"(?P<meld>\d+)",
    "height": r"(?P<height>\d+)",
}


def parse_action(text: str, language: str | None = None) -> Action:
    """Read an action from short text, as a learner types it in a terminal — in the words
    of ``language`` (default: the current one) or in English.

    Forms: ``draw``, ``take discard``, ``take cut``, ``meld 5h 6h 7h``,
    ``meld Jk 2h 3h as 4h``, ``lay off 7h onto 2``, ``exchange 6h from 1``,
    ``discard 9s``, ``undo``, ``return cut``, ``cut 40``. Melds are numbered from 1, as
    people count them: ``lay off 7h onto 2`` is ``LayOff(..., meld=1)``.

    >>> parse_action("meld Jk 2h 3h as 4h")
    PlayMeld(cards=(Card('🃏'), Card('2♥'), Card('3♥')), joker_as=Card('4♥'))
    >>> parse_action("fold")
    Traceback (most recent call last):
    ...
    rummykit.game.actions.ActionParseError: 'fold' is not a move: ...

    In Portuguese and Finnish, the language's words and suit letters (Portuguese e c o p,
    Finnish p h r ri):

    >>> parse_action("acrescentar 7o na combinação 2", "pt")
    LayOff(cards=(Card('7♦'),), meld=1, joker_as=None)

    A card that reads one way with the language's suit letters and another with the English
    ones (Portuguese ``c`` is copas, English ``c`` clubs) is refused, both readings named:

    >>> parse_action("descartar 7c", "pt")
    Traceback (most recent call last):
    ...
    rummykit.game.actions.ActionParseError: '7c' se lê de dois jeitos: 7♥ com as letras ...
    >>> parse_action("pelaa 🃏 2h 3h jokeri 4h", "fi") == parse_action("meld Jk 2h 3h as 4h")
    True
    >>> parse_action("comprar", "pt"), parse_action("ota poisto", "fi")
    (Draw(source='stock'), Draw(source='discard'))
    """
    from rummykit.language import resolve

    spoken = resolve(language)
    words = " ".join(text.strip().split())
    problem: CardParseError | None = None
    if spoken != "en":
        found, problem = _parse_words(words, text, spoken)
        if found is not None:
            return found
    try:
        found = _parse_english(words, text, spoken)
    except CardParseError as exc:
        problem = problem or exc
        found = None
    if found is not None:
        return found
    found, english_problem = _parse_words(words, text, "en", spoken)
    if found is not None:
        return found
    problem = problem or english_problem
    if problem is not None:
        raise ActionParseError(problem.message) from problem
    raise ActionParseError(render("bad_action_text", text=text, language=spoken))


def _parse_english(words: str, text: str, spoken: str) -> Action | None:
    """The English forms (a card is read with the suit letters of ``spoken`` too)."""
    low = words.lower()
    for pattern, source in _PATTERNS:
        if pattern.match(low):
            return Draw(source)
    if low == "undo":
        return Undo()
    if low in ("return cut", "return cut card", "give back cut", "give back"):
        return ReturnCutCard()
    head, _, rest = words.partition(" ")
    head = head.lower()
    if head == "cut" and rest.isdigit():
        return Cut(int(rest))
    if head == "discard" and rest:
        return Discard(parse_card(rest, spoken))
    if head == "meld" and rest:
        cards, joker_as = _split_as(rest, spoken)
        return PlayMeld(parse_cards(cards, spoken), joker_as)
    if head in ("lay", "layoff", "lay-off"):
        body = re.sub(r"^off\s+", "", rest, flags=re.I)
        m = re.match(r"^(.*?)\s+(?:onto|on|to)\s+(\d+)(?:\s+as\s+(.+))?$", body, flags=re.I)
        if m:
            joker = _one_meaning(parse_cards(m.group(3), spoken)) if m.group(3) else None
            meld = _meld_index(m.group(2), text, spoken)
            return LayOff(parse_cards(m.group(1), spoken), meld, joker)
    if head == "exchange":
        m = re.match(r"^(\S+)\s+(?:from|in|on)\s+(\d+)$", rest, flags=re.I)
        if m:
            meld = _meld_index(m.group(2), text, spoken)
            return ExchangeJoker(parse_card(m.group(1), spoken), meld)
    return None


def _parse_words(
    words: str, text: str, language: str, cards_in: str | None = None
) -> tuple[Action | None, CardParseError | None]:
    """The move typed in ``language``'s words (its ``command_*`` and ``command_also_*``
    templates), or ``None``; the first card that could not be read, if any."""
    problem: CardParseError | None = None
    from rummykit.language import catalogue

    for kind, pattern in _word_patterns(language, catalogue(language)):
        m = pattern.match(words)
        if not m:
            continue
        try:
            return _from_slots(kind, m.groupdict(), text, cards_in or language), None
        except CardParseError as exc:
            problem = problem or exc
    return None, problem


def _from_slots(kind: str, slots: dict[str, str], text: str, language: str) -> Action:
    if kind.startswith("draw_"):  # one of _COMMANDS' draw_stock, draw_discard, draw_cut_card
        return Draw(cast(DrawSource, kind[len("draw_") :]))
    if kind == "undo":
        return Undo()
    if kind == "return_cut":
        return ReturnCutCard()
    if kind == "cut":
        return Cut(int(slots["height"]))
    if kind == "discard":
        return Discard(parse_card(slots["card"], language))
    if kind == "exchange":
        meld = _meld_index(slots["meld"], text, language)
        return ExchangeJoker(parse_card(slots["card"], language), meld)
    joker = _one_meaning(parse_cards(slots["jokers"], language)) if "jokers" in slots else None
    cards = parse_cards(slots["cards"], language)
    if kind.startswith("meld"):
        return PlayMeld(cards, joker)
    return LayOff(cards, _meld_index(slots["meld"], text, language), joker)


@lru_cache(maxsize=16)
def _word_patterns(language: str, words: object) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Every way ``language`` types each move, as patterns: the printed form first (``words``
    is the language's catalogue: a new catalogue, new patterns)."""
    out = []
    for kind in _COMMANDS:
        forms = [render(f"command_{kind}", _SLOT_NAMES, language)]
        forms += render(f"command_also_{kind}", _SLOT_NAMES, language).split("|")
        for form in forms:
            for variant in _expand(form.strip()):
                if variant:
                    out.append((kind, _compile(variant)))
    return tuple(out)


class _Slot(str):
    """A placeholder left as it is when a command template is rendered into a pattern."""

    def spoken(self, spec: str = "") -> str:
        return str(self)


_SLOT_NAMES = {name: _Slot("{" + name + "}") for name in _SLOTS}


def _expand(form: str) -> list[str]:
    """A form with ``[optional words]`` as every form it stands for.

    >>> _expand("draw [from] [the] stock")
    ['draw from the stock', 'draw from stock', 'draw the stock', 'draw stock']
    """
    m = re.search(r"\[([^\[\]]*)\]", form)
    if not m:
        return [" ".join(form.split())]
    head, tail = form[: m.start()], form[m.end() :]
    return _expand(head + m.group(1) + tail) + _expand(head + tail)


def _compile(form: str) -> re.Pattern[str]:
    parts = []
    for piece in re.split(r"(\{\w+\}|\s+)", form):
        if not piece:
            continue
        if piece.isspace():
            parts.append(r"\s+")
        elif piece.startswith("{") and piece[1:-1] in _SLOTS:
            parts.append(_SLOTS[piece[1:-1]])
        else:
            parts.append(re.escape(piece))
    return re.compile("^" + "".join(parts) + "$", re.IGNORECASE)


def _meld_index(number: str, text: str, language: str | None = None) -> int:
    """The index of the meld a person numbered (from 1): ``"2"`` is index 1.

    >>> _meld_index("2", "lay off 7h onto 2")
    1
    """
    value = int(number)
    if value < 1:
        raise ActionParseError(
            render("bad_meld_number", text=text, number=number, language=language)
        )
    return value - 1


def _split_as(text: str, language: str | None = None) -> tuple[str, JokerMeaning]:
    """Split ``Jk 2h 3h as 4h`` into the cards and what the joker stands for.

    ``as`` is the keyword after a meld's worth of cards — written in lower case, or after
    a joker — so the ace of spades still reads as a card: ``Ks As 2s`` is three cards.

    >>> _split_as("Jk 2h 3h as 4h")
    ('Jk 2h 3h', Card('4♥'))
    >>> _split_as("Ks As 2s")
    ('Ks As 2s', None)
    """
    m = re.match(r"^(.*?)\s+(as)\s+(\S+(?:\s+\S+)*)$", text, flags=re.I)
    if m:
        before = parse_cards(m.group(1), language)
        keyword = m.group(2) == "as" or any(c.is_joker for c in before)
        if len(before) >= 3 and keyword:
            return m.group(1), _one_meaning(parse_cards(m.group(3), language))
    return text, None
