"""The referee: one round (deal) of Hungarian Rummy or Rommi, from the deal to the score.

A :class:`Game` holds the whole state. Ask before you act, and the same code decides:

>>> game = Game.new("rommi", players=2, seed=7)
>>> game.current, game.phase
(1, 'draw')
>>> verdict = game.check(Discard(game.hand(1)[0]))
>>> verdict.ok, verdict.codes
(False, ('draw_first',))
>>> game.play(Draw("stock"))
>>> game.phase
'play'

A turn is a transaction: melds, lay-offs and joker exchanges stay provisional until the
player discards (or goes out), and can be undone until then. The opening total (H8), the
discard-take obligation (H7), the joker replay (H11) and the cut-card attempt (H10) are
checked when the turn ends.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations
from types import MappingProxyType
from typing import Any

from rummykit.cards import JOKER, SUITS, Card
from rummykit.explain import Reason, Verdict
from rummykit.game.actions import (
    Action,
    Cut,
    Discard,
    Draw,
    ExchangeJoker,
    JokerMeaning,
    LayOff,
    PlayMeld,
    ReturnCutCard,
    Undo,
)
from rummykit.game.scoring import RoundResult, score_round
from rummykit.melds import (
    HIGH_ACE,
    Meld,
    check_layoff,
    check_meld,
    laid_off_jokers,
    layoff_readings,
    meld_readings,
    reading_phrase,
    readings_with,
    variant_words,
)
from rummykit.messages import TEMPLATES, join, render
from rummykit.variants import Variant
from rummykit.variants import variant as get_variant

__all__ = [
    "Event",
    "Game",
    "IllegalAction",
    "RoundResult",
    "TableMeld",
    "TurnInfo",
    "TurnStatus",
]

PHASES = ("cut", "draw", "play", "over")


class IllegalAction(ValueError):
    """The referee refused an action; ``verdict`` says why. The game is unchanged."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        super().__init__(str(verdict))


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table and the seat that laid it down."""

    owner: int
    meld: Meld

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: owner, kind, cards, and what each card stands for."""
        return {
            "owner": self.owner,
            "kind": self.meld.kind,
            "cards": [str(c) for c in self.meld.cards],
            "represents": [str(c) if c else None for c in self.meld.represents],
            "start": self.meld.start,
        }


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as every seat saw it (hidden cards left out).

    An event is read-only all the way down — its ``params`` are a read-only mapping of
    plain values and tuples — so a seat's observation that holds it can't rewrite the public
    history another seat sees.

    >>> event = Event(0, "meld", {"cards": ["5♥", "6♥", "7♥"], "index": 0})
    >>> event.params["cards"]
    ('5♥', '6♥', '7♥')
    >>> event.params["index"] = 3
    Traceback (most recent call last):
    ...
    TypeError: 'mappingproxy' object does not support item assignment
    """

    seat: int
    code: str
    params: Mapping[str, Any] = field(default_factory=dict, compare=True, hash=False)

    def __post_init__(self) -> None:
        frozen = {k: tuple(v) if isinstance(v, list) else v for k, v in self.params.items()}
        object.__setattr__(self, "params", MappingProxyType(frozen))

    def __deepcopy__(self, memo: object) -> Event:
        return self  # read-only all the way down: a copy would be the same

    def __reduce__(self) -> tuple[type[Event], tuple[int, str, dict[str, Any]]]:
        return (Event, (self.seat, self.code, dict(self.params)))

    def __str__(self) -> str:
        return self.words()

    def words(self, template: str | None = None) -> str:
        """The event as a sentence: its own template, or ``template`` filled with the same
        parameters (a view's "You laid down …"). Melds get ``number``, counted from 1."""
        params = {"seat": self.seat, **self.params}
        if isinstance(params.get("index"), int):  # people count melds from 1
            params["number"] = params["index"] + 1
        if params.get("joker_as"):  # what a laid-off joker stands for
            params["stands_for"] = join(
                [render("the_card", card=c) for c in params["joker_as"]], "and"
            )
        return render(template or self.template, params)

    @property
    def template(self) -> str:
        """The code of this event's sentence (``event_layoff_joker`` names the joker's card).

        >>> Event(0, "layoff", {"cards": ["🃏"], "index": 1, "joker_as": ["6♠"]}).template
        'event_layoff_joker'
        >>> str(Event(0, "layoff", {"cards": ["🃏"], "index": 1, "joker_as": ["6♠"]}))
        'Seat 0 laid off 🃏 onto meld 2, the joker as the 6♠.'
        """
        jokers = self.params.get("joker_as") or ()
        return f"event_{self.code}" + (
            "" if not jokers else "_joker" if len(jokers) == 1 else "_jokers"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        params = {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()}
        return {"seat": self.seat, "code": self.code, "params": params}


@dataclass(frozen=True, slots=True)
class TurnStatus:
    """Where the player to act stands in the current turn, in data and in words."""

    seat: int
    phase: str
    opened: bool
    meld_points: int
    threshold: int
    obligations: tuple[Reason, ...]
    can_end_turn: bool
    can_take_cut: bool = False
    discard_only: str | None = (
        None  # why only a discard is allowed: "start" (H3) or "first_turn" (H9)
    )

    @property
    def code(self) -> str:
        """The template of the status line: what the player to act may do now."""
        if self.phase == "draw" and self.can_take_cut:
            return "status_draw_cut"
        if self.phase == "play" and self.discard_only:
            return f"status_play_{self.discard_only}"
        return f"status_{self.phase}"

    def __str__(self) -> str:
        return self.words()

    def words(self, prefix: str = "", reason: Callable[[Reason], str] = lambda r: r.message) -> str:
        """The status in words; a view may word it its own way: ``prefix + code`` where
        such a template exists (the table's "Your turn: …"), and each obligation by
        ``reason``."""
        code = prefix + self.code if prefix + self.code in TEMPLATES else self.code
        parts = [render(code, seat=self.seat)]
        short = any(r.code == "turn_opening_short" for r in self.obligations)
        if (
            self.threshold
            and not self.opened
            and self.phase == "play"
            and not short
            and not self.discard_only
        ):
            parts.append(
                render("status_opening", points=self.meld_points, threshold=self.threshold)
            )
        parts.extend(reason(r) for r in self.obligations)
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """The public facts of the turn in progress (everyone at the table sees them)."""

    seat: int
    drew: str | None
    taken: Card | None  # a discard-pile card that must be played this turn (H7)
    cut_taken: Card | None
    meld_points: int
    new_melds: tuple[int, ...]
    laid_off: bool
    exchanged: int
    provisional: int  # moves that Undo can take back


@dataclass
class _Turn:
    """What happened in the current turn (provisional until the turn ends)."""

    drew: str | None = None  # "stock" | "discard" | "cut_card" | "start" (the starter's discard)
    taken: Card | None = None  # a card taken from the discard pile that must be played (H7)
    cut_taken: Card | None = None
    cut_attempted: bool = False
    discard_attempted: bool = False
    meld_points: int = 0
    new_melds: list[int] = field(default_factory=list)
    placed: list[Card] = field(default_factory=list)  # cards put on the table this turn
    melded: list[Card] = field(default_factory=list)  # cards in new melds this turn
    laid_off: bool = False
    opened_now: bool = False  # opened in this turn (set when the turn ends; H12's −20)
    exchanged: list[int] = field(default_factory=list)  # meld indices jokers were taken from
    # jokers in the order they moved this turn: "freed" by an exchange, "placed" on the table
    joker_moves: list[str] = field(default_factory=list)
    steps: list[tuple[str, _State]] = field(default_factory=list)

    def clone(self) -> _Turn:
        return replace(
            self,
            new_melds=list(self.new_melds),
            placed=list(self.placed),
            melded=list(self.melded),
            exchanged=list(self.exchanged),
            joker_moves=list(self.joker_moves),
            steps=list(self.steps),
        )


@dataclass
class _State:
    hands: list[list[Card]]
    stock: list[Card]  # top is the last card
    discard: list[Card]  # top is the last card
    table: list[TableMeld]
    cut_card: Card | None
    current: int
    phase: str
    opened: list[bool]
    turns: list[int]
    drawn: list[bool]  # has each seat drawn at least once this round (H7)
    turn: _Turn
    reshuffled: bool = False
    quiet_turns: int = 0  # R11: turns in a row without a meld or lay-off since the stock ran out
    result: RoundResult | None = None

    def clone(self) -> _State:
        return _State(
            hands=[list(h) for h in self.hands],
            stock=list(self.stock),
            discard=list(self.discard),
            table=list(self.table),
            cut_card=self.cut_card,
            current=self.current,
            phase=self.phase,
            opened=list(self.opened),
            turns=list(self.turns),
            drawn=list(self.drawn),
            turn=self.turn.clone(),
            reshuffled=self.reshuffled,
            quiet_turns=self.quiet_turns,
            result=self.result,
        )


def _remove(hand: list[Card], cards: Iterable[Card]) -> None:
    for card in cards:
        hand.remove(card)


def _holds(hand: list[Card], cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards (with multiplicity) that the hand does not hold."""
    need = Counter(cards)
    have = Counter(hand)
    return tuple(c for c, n in need.items() for _ in range(max(0, n - have[c])))


_PROVIDED: dict[str, Callable[..., Any]] = {}


def provide(**functions: Callable[..., Any]) -> None:
    """Register the functions :class:`Game` saves, loads and observes with.

    rummykit.game.record and rummykit.game.observation call this when they are imported (the
    package ``rummykit.game`` imports both), so they build on this module and not the other
    way round.
    """
    _PROVIDED.update(functions)


class Game:
    """One round of rummy under a variant's rules, from the deal to the score.

    Create with :meth:`new` (a seeded deal) or :meth:`from_position` (a lesson set up by
    hand). ``seat`` numbers go clockwise from 0; play passes to seat + 1 (H2).
    """

    def __init__(
        self,
        variant: Variant,
        players: int,
        seed: int | None,
        dealer: int,
        state: _State,
        rng: random.Random,
        setup: dict[str, Any],
        match_scores: tuple[int, ...] | None = None,
    ) -> None:
        self.variant = variant
        self.players = players
        self.seed = seed
        self.dealer = dealer
        self._state = state
        self._rng = rng
        self.setup = setup
        self.match_scores = match_scores or (0,) * players
        self.actions: list[tuple[int, Action]] = []
        self.events: list[Event] = []

    # --- creating a game ---------------------------------------------------------------

    @classmethod
    def new(
        cls,
        variant: str | Variant = "hungarian",
        players: int = 2,
        seed: int | None = None,
        *,
        dealer: int = 0,
        cut: int | None = None,
        choose_cut: bool = False,
        match_scores: tuple[int, ...] | None = None,
        **options: Any,
    ) -> Game:
        """Shuffle (seeded) and deal a round.

        Hungarian (H3): the player to the dealer's right cuts — at ``cut`` cards, or, with
        ``choose_cut=True``, the game waits for their :class:`Cut` action; by default the
        cut is at the middle of the deck. The player to the dealer's left gets 15 cards and
        starts with a discard. Rommi (R2): 7 or 10 cards each, one card starts the discard
        pile, the player to the dealer's left starts by drawing.

        >>> game = Game.new("hungarian", players=4, seed=7)
        >>> [len(game.hand(s)) for s in range(4)], game.current, game.phase
        ([14, 15, 14, 14], 1, 'play')
        """
        rules = get_variant(variant, **options)
        rules.check_players(players)
        if not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
        if seed is None:  # the record must replay the same deal: choose a seed and keep it
            seed = random.SystemRandom().randrange(2**32)
        rng = random.Random(seed)
        deck = list(rules.deck())
        if rules.cut_card and cut is not None and not 1 <= cut < len(deck):
            raise ValueError(render("cut_bad_height", most=len(deck) - 1))
        rng.shuffle(deck)
        state = _State(
            hands=[[] for _ in range(players)],
            stock=deck[::-1],
            discard=[],
            table=[],
            cut_card=None,
            current=(dealer - 1) % players,
            phase="cut",
            opened=[rules.opening_threshold == 0] * players,
            turns=[0] * players,
            drawn=[False] * players,
            turn=_Turn(),
        )
        setup = {
            "variant": rules.base or rules.name,
            "options": rules.changes(),
            "players": players,
            "seed": seed,
            "dealer": dealer,
            "cut": cut,
            "choose_cut": choose_cut,
            "match_scores": list(match_scores) if match_scores else None,
        }
        game = cls(rules, players, seed, dealer, state, rng, setup, match_scores)
        if not rules.cut_card:
            game._deal()
        elif not choose_cut:
            game._cut(cut if cut is not None else game.default_cut())
        return game

    def default_cut(self) -> int:
        """The cut height used when nobody chooses one: the middle of the deck."""
        return len(self._state.stock) // 2

    def _cut(self, height: int) -> None:
        s = self._state
        deck = s.stock[::-1]  # top first
        lifted, rest = deck[:height], deck[height:]
        s.cut_card = lifted[-1]
        s.stock = (rest + lifted[:-1])[::-1]
        self._deal()

    def _deal(self) -> None:
        s, v = self._state, self.variant
        size = v.hand_size(self.players)
        starter = (self.dealer + 1) % self.players
        for _ in range(size):
            for i in range(self.players):
                s.hands[(starter + i) % self.players].append(s.stock.pop())
        for _ in range(v.starter_extra):
            s.hands[starter].append(s.stock.pop())
        if not v.starter_extra:
            s.discard.append(s.stock.pop())
        s.current = starter
        if v.starter_extra:
            s.phase = "play"
            s.turn = _Turn(drew="start")
        else:
            s.phase = "draw"

    # --- reading the state -------------------------------------------------------------

    @property
    def current(self) -> int:
        """The seat to act."""
        return self._state.current

    @property
    def phase(self) -> str:
        """``"cut"``, ``"draw"``, ``"play"`` (after drawing) or ``"over"``."""
        return self._state.phase

    @property
    def is_over(self) -> bool:
        """Whether the round has ended."""
        return self._state.phase == "over"

    @property
    def result(self) -> RoundResult | None:
        """How the round ended (None while it goes on)."""
        return self._state.result

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand (in the order the cards arrived)."""
        return tuple(self._state.hands[seat])

    @property
    def table(self) -> tuple[TableMeld, ...]:
        """The melds on the table, numbered from 0 in the order they were laid down."""
        return tuple(self._state.table)

    @property
    def stock_size(self) -> int:
        """How many cards are left in the stock."""
        return len(self._state.stock)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (the last card is the top)."""
        return tuple(self._state.discard)

    @property
    def cut_card(self) -> Card | None:
        """The face-up cut card beside the stock (H3), if it is there."""
        return self._state.cut_card

    @property
    def turns_taken(self) -> tuple[int, ...]:
        """How many turns each seat has finished this round."""
        return tuple(self._state.turns)

    def opened(self, seat: int) -> bool:
        """Whether a seat has opened (H8) — counting an opening made this turn."""
        s = self._state
        if s.opened[seat]:
            return True
        t = s.turn
        return (
            seat == s.current
            and bool(t.new_melds)
            and t.meld_points >= self.variant.opening_threshold
        )

    def all_cards(self) -> Counter[Card]:
        """Every card in the game wherever it is — for invariant checks."""
        s = self._state
        count: Counter[Card] = Counter()
        for hand in s.hands:
            count.update(hand)
        count.update(s.stock)
        count.update(s.discard)
        for tm in s.table:
            count.update(tm.meld.cards)
        if s.cut_card is not None:
            count[s.cut_card] += 1
        return count

    # --- asking and acting -------------------------------------------------------------

    def check(self, action: Action, seat: int | None = None) -> Verdict:
        """Would this action be allowed? A Verdict saying why or why not; nothing changes.

        ``seat`` is who acts (default: the seat to act).
        """
        failures = self._failures(action, self.current if seat is None else seat)
        if failures:
            return self._verdict(action, failures)
        return Verdict((self._ok_reason(action),), variant=self.variant.name)

    def play(self, action: Action, seat: int | None = None) -> None:
        """Apply a legal action, or raise :class:`IllegalAction` and change nothing."""
        who = self.current if seat is None else seat
        failures = self._failures(action, who)
        if failures:
            raise IllegalAction(self._verdict(action, failures))
        self._apply(self._state, action, events=True)
        self.actions.append((who, action))

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now."""
        s = self._state
        if s.phase == "over":
            return []
        if s.phase == "cut":
            return [Cut(h) for h in range(1, len(s.stock))]
        candidates: list[Action]
        if s.phase == "draw":
            candidates = [Draw("stock"), Draw("discard"), Draw("cut_card")]
        else:
            candidates = list(self._play_candidates())
        seat = s.current
        legal: list[Action] = []
        for action in candidates:
            failures = self._failures(action, seat)
            if not failures:
                legal.append(action)
            elif (  # several jokers whose meaning is open: one action per whole reading
                isinstance(action, (PlayMeld, LayOff))
                and len(failures) == 1
                and failures[0].template == "jokers_ambiguous"
            ):
                for meaning in failures[0].params["choices"]:  # type: ignore[attr-defined]
                    named = replace(action, joker_as=meaning)
                    if not self._failures(named, seat):
                        legal.append(named)
        unique: dict[tuple[object, ...], Action] = {}
        for action in legal:  # one action per move, whatever order its cards are in
            cards = getattr(action, "cards", ())
            key: tuple[object, ...] = (
                type(action),
                tuple(sorted(cards, key=Card.sort_key)),
                action,
            )
            if isinstance(action, (PlayMeld, LayOff)):
                key = (type(action), key[1], getattr(action, "meld", None), action.joker_as)
            unique.setdefault(key, action)
        return list(unique.values())

    def turn_info(self) -> TurnInfo:
        """The public facts of the turn in progress."""
        s = self._state
        t = s.turn
        return TurnInfo(
            seat=s.current,
            drew=t.drew,
            taken=t.taken,
            cut_taken=t.cut_taken,
            meld_points=t.meld_points,
            new_melds=tuple(t.new_melds),
            laid_off=t.laid_off,
            exchanged=len(t.exchanged),
            provisional=len(t.steps),
        )

    def turn_status(self) -> TurnStatus:
        """Where the player to act stands: opening points so far, what is still missing.

        >>> game = Game.new("hungarian", players=2, seed=1)
        >>> print(game.turn_status())
        Seat 1 plays its first turn: discard only — it starts with one card more, so it doesn't draw.
        """
        s = self._state
        obligations = tuple(self._end_failures(s, going_out=False)) if s.phase == "play" else ()
        return TurnStatus(
            seat=s.current,
            phase=s.phase,
            opened=self.opened(s.current),
            meld_points=s.turn.meld_points,
            threshold=self.variant.opening_threshold,
            obligations=obligations,
            can_end_turn=s.phase == "play" and not obligations,
            can_take_cut=s.phase == "draw" and self._may_take_cut(s),
            discard_only=self._discard_only(s) if s.phase == "play" else None,
        )

    def _discard_only(self, s: _State) -> str | None:
        """Why only a discard is allowed this turn: ``"start"`` (H3), ``"first_turn"`` (H9)."""
        if self.opened(s.current):
            return None
        if s.turn.drew == "start":
            return "start"
        if self.variant.no_opening_first_turn and s.turns[s.current] == 0:
            return "first_turn"
        return None

    # --- the rules ---------------------------------------------------------------------

    def _r(self, code: str, topic: str, cards: Iterable[Card] = (), /, **params: Any) -> Reason:
        return Reason(code, self.variant.rule(topic), tuple(cards), params)

    def _help(
        self, code: str, cards: Iterable[Card] = (), template: str | None = None, /, **params: Any
    ) -> Reason:
        """A refusal that is the software's own help, not a rule: it cites no rule id."""
        return Reason(code, None, tuple(cards), params, True, template)

    def _verdict(self, action: Action, failures: list[Reason]) -> Verdict:
        head = Reason("action_refused", None, (), {"action": str(action)}, failing=False)
        shown: Counter[Card] = Counter()
        for r in failures:  # each card once, as many times as one reason names it
            shown |= Counter(r.cards)
        cards = tuple(shown.elements())
        return Verdict((head, *failures), cards, variant=self.variant.name)

    def _ok_reason(self, action: Action) -> Reason:
        return Reason("action_ok", None, (), {"action": str(action)}, failing=False)

    def _failures(self, action: Action, seat: int) -> list[Reason]:
        s = self._state
        if s.phase == "over":
            return [self._r("round_over", "turn")]
        if seat != s.current:
            return [self._r("not_your_turn", "turn", seat=seat, current=s.current)]
        if isinstance(action, Cut):
            if s.phase != "cut":
                return [self._r("cut_not_now", "deal")]
            if not 1 <= action.height < len(s.stock):
                return [self._r("cut_bad_height", "deal", most=len(s.stock) - 1)]
            return []
        if s.phase == "cut":
            return [self._r("cut_first", "deal", seat=s.current)]
        if isinstance(action, Draw):
            return self._draw_failures(s, action)
        if isinstance(action, Undo):
            return [] if s.turn.steps else [self._help("nothing_to_undo")]
        if isinstance(action, ReturnCutCard):
            return [] if s.turn.cut_taken is not None else [self._r("cut_not_taken", "cut_card")]
        if s.phase == "draw":
            template = "draw_first_cut" if self._may_take_cut(s) else None
            return [Reason("draw_first", self.variant.rule("turn"), (), {}, True, template)]
        if isinstance(action, Discard):
            return self._discard_failures(s, action)
        if isinstance(action, PlayMeld):
            return self._meld_failures(s, action)
        if isinstance(action, LayOff):
            return self._layoff_failures(s, action)
        if isinstance(action, ExchangeJoker):
            return self._exchange_failures(s, action)
        raise TypeError(f"not an action: {action!r}")

    def _may_take_cut(self, s: _State) -> bool:
        """Whether the cut card may be taken as this turn's draw (H10)."""
        return self.variant.cut_card and s.cut_card is not None and not s.turn.cut_attempted

    def _draw_failures(self, s: _State, action: Draw) -> list[Reason]:
        v = self.variant
        if s.phase != "draw":
            if s.turn.drew == "start":
                return [self._r("starter_discards", "deal")]
            template = "already_drew_discard_only" if self._discard_only(s) else None
            return [Reason("already_drew", self.variant.rule("turn"), (), {}, True, template)]
        if action.source == "discard":
            if not s.discard:
                return [self._r("discard_empty", "turn")]
            if s.turn.discard_attempted:
                return [self._help("discard_take_again")]
        if action.source == "cut_card":
            if not v.cut_card:
                return [
                    self._r("no_cut_card_rule", "turn", variant=variant_words(v, ("cut_card",)))
                ]
            if s.turn.cut_attempted:
                return [self._r("cut_card_second_attempt", "cut_card")]
            if s.cut_card is None:
                return [self._r("cut_card_gone", "cut_card")]
        return []

    def _hand_failures(self, s: _State, cards: tuple[Card, ...]) -> list[Reason]:
        hand = s.hands[s.current]
        if len(cards) == 1 and cards[0] in hand:
            return []
        missing = _holds(hand, cards)
        if missing:
            return [self._r("card_not_in_hand", "turn", missing, cards=missing)]
        return []

    def _must_open_first(self, s: _State, topic: str) -> list[Reason]:
        v = self.variant
        if self.opened(s.current):
            return []
        if v.no_opening_first_turn and s.turns[s.current] == 0:
            return [self._r("first_turn_no_opening", "first_turn")]
        code = "not_opened_layoff" if topic == "layoff" else "not_opened_exchange"
        return [self._r(code, "opening", threshold=v.opening_threshold)]

    def _keeps_discard(self, s: _State, cards_out: int) -> list[Reason]:
        if self.variant.discard_to_win and len(s.hands[s.current]) - cards_out < 1:
            return [
                self._r(
                    "must_keep_discard",
                    "going_out",
                    variant=variant_words(self.variant, ("discard_to_win",)),
                )
            ]
        return []

    def _table_meld(self, s: _State, index: int) -> list[Reason]:
        if not 0 <= index < len(s.table):
            count = len(s.table)
            template = {0: "no_such_meld_none", 1: "no_such_meld_one"}.get(count)
            return [self._help("no_such_meld", (), template, number=index + 1, count=count)]
        return []

    def _joker_choice(
        self, readings: tuple[Meld, ...], joker_as: JokerMeaning, cards: tuple[Card, ...]
    ) -> tuple[Meld | None, list[Reason]]:
        """Pick the reading the player meant; refuse when a joker's meaning is open.

        ``joker_as`` names one card, or one card per joker (house rule ``jokers_per_meld``);
        naming fewer cards than there are jokers leaves the others open.
        """
        chosen = readings_with(readings, joker_as) if joker_as is not None else readings
        if not chosen:
            options = sorted(
                {c for m in readings for c in _joker_cards(m)},
                key=lambda c: (c.rank, c.sort_key()),
            )
            code = "joker_as_impossible" if options else "joker_as_no_joker"
            return None, [
                self._r(
                    code,
                    "joker",
                    cards,
                    cards=cards,
                    card=joker_as,
                    choices=join([f"the {c}" for c in options]),
                )
            ]
        distinct = list({_joker_meanings(m): m for m in chosen}.values())
        if len(distinct) == 1:
            return chosen[0], []
        if max(len(m.joker_choices) for m in distinct) > 1:  # several jokers: whole readings
            return None, [
                Reason(
                    "joker_ambiguous",
                    self.variant.rule("joker"),
                    cards,
                    {
                        "choices": tuple(_named_meaning(m) for m in distinct),
                        "readings": tuple(reading_phrase(m) for m in distinct),
                        "choices_text": join([reading_phrase(m) for m in distinct]),
                    },
                    True,
                    "jokers_ambiguous",
                )
            ]
        options = sorted(
            {c for m in distinct for c in _joker_cards(m)}, key=lambda c: (c.rank, c.sort_key())
        )
        return None, [
            self._r(
                "joker_ambiguous",
                "joker",
                cards,
                choices=tuple(options),
                choices_text=join([f"the {c}" for c in options]),
            )
        ]

    def _meld_failures(self, s: _State, action: PlayMeld) -> list[Reason]:
        failures = self._hand_failures(s, action.cards)
        if failures:
            return failures
        v = self.variant
        if not s.opened[s.current] and v.no_opening_first_turn and s.turns[s.current] == 0:
            return [self._r("first_turn_no_opening", "first_turn")]
        readings = meld_readings(action.cards, v)
        if not readings:
            return list(check_meld(action.cards, v).failures)
        _, failures = self._joker_choice(readings, action.joker_as, action.cards)
        return failures or self._keeps_discard(s, len(action.cards)) or self._goes_out_ok(s, action)

    def _layoff_failures(self, s: _State, action: LayOff) -> list[Reason]:
        if not action.cards:
            return [self._help("layoff_no_cards", (), None, meld=self._meld_words(s, action.meld))]
        failures = self._hand_failures(s, action.cards) or self._table_meld(s, action.meld)
        if failures:
            return failures
        failures = self._must_open_first(s, "layoff")
        if failures:
            return failures
        meld = s.table[action.meld].meld
        readings = layoff_readings(meld, action.cards, self.variant)
        if not readings:
            verdict = check_layoff(meld, action.cards, self.variant)
            return list(verdict.failures)
        _, failures = self._joker_choice(readings, action.joker_as, action.cards)
        return failures or self._keeps_discard(s, len(action.cards)) or self._goes_out_ok(s, action)

    @staticmethod
    def _meld_words(s: _State, index: int) -> object:
        """A meld named for a sentence: its cards, or its number when there is none."""
        if 0 <= index < len(s.table):
            return s.table[index].meld.cards
        return render("meld_number", number=index + 1)

    def _exchange_failures(self, s: _State, action: ExchangeJoker) -> list[Reason]:
        v = self.variant
        if not v.joker_exchange:
            return [
                self._r(
                    "exchange_not_allowed",
                    "joker_exchange",
                    variant=variant_words(v, ("joker_exchange",)),
                )
            ]
        failures = self._hand_failures(s, (action.card,)) or self._table_meld(s, action.meld)
        if failures:
            return failures
        failures = self._must_open_first(s, "exchange")
        if failures:
            return failures
        meld = s.table[action.meld].meld
        jokers = [
            (i, rep) for i, (c, rep) in enumerate(zip(meld.cards, meld.represents)) if c.is_joker
        ]
        if not jokers:
            return [self._r("no_joker_in_meld", "joker_exchange", meld=meld.cards)]
        if any(rep == action.card for _, rep in jokers):
            return []
        if all(rep is None for _, rep in jokers):
            missing = [str(c) for c in meld.missing_suits()]
            return [
                self._r(
                    "joker_in_small_set",
                    "joker_exchange",
                    meld.cards,
                    meld=meld.cards,
                    choices=join(missing),
                )
            ]
        stands = next(rep for _, rep in jokers if rep is not None)
        return [
            self._r(
                "joker_wrong_card",
                "joker_exchange",
                (action.card,),
                meld=meld.cards,
                stands_for=stands,
                card=action.card,
            )
        ]

    def _goes_out_ok(self, s: _State, action: Action) -> list[Reason]:
        """A move that empties the hand ends the round (R7): the turn must be able to end."""
        cards = action.cards if isinstance(action, (PlayMeld, LayOff)) else ()
        if len(s.hands[s.current]) - len(cards) > 0:
            return []
        trial = s.clone()
        self._apply(trial, action, events=False, finish=False)
        return self._end_failures(trial, going_out=True)

    def _discard_failures(self, s: _State, action: Discard) -> list[Reason]:
        failures = self._hand_failures(s, (action.card,))
        if failures:
            return failures
        going_out = len(s.hands[s.current]) == 1
        return self._end_failures(s, going_out=going_out, discarding=action.card)

    def _end_failures(
        self, s: _State, *, going_out: bool, discarding: Card | None = None
    ) -> list[Reason]:
        """What still stands in the way of ending the turn (H7, H8, H10, H11)."""
        v, t, seat = self.variant, s.turn, s.current
        out: list[Reason] = []
        if t.cut_taken is not None and not going_out:
            out.append(
                self._r("cut_card_must_go_out", "cut_card", (t.cut_taken,), card=t.cut_taken)
            )
        if not s.opened[seat] and t.new_melds and t.meld_points < v.opening_threshold:
            melds = tuple(s.table[i].meld.cards for i in t.new_melds)
            out.append(
                self._r(
                    "turn_opening_short",
                    "opening",
                    (),
                    total=t.meld_points,
                    threshold=v.opening_threshold,
                    missing=v.opening_threshold - t.meld_points,
                    melds=len(melds),
                )
            )
        if t.taken is not None:
            pool = t.melded if not s.opened[seat] else t.placed
            # a joker taken from the pile is played only by a joker beyond those that
            # replay the jokers freed by exchanges (H11)
            spare = t.joker_moves.count("placed") > t.joker_moves.count("freed")
            if t.taken not in pool or (t.taken.is_joker and not spare):
                code = (
                    "discard_take_not_in_opening" if not s.opened[seat] else "discard_take_unplayed"
                )
                out.append(self._r(code, "discard_take", (t.taken,), card=t.taken))
        if t.exchanged and not _jokers_replayed(t.joker_moves):
            meld = s.table[t.exchanged[-1]].meld.cards
            out.append(self._r("joker_replay", "joker_exchange", (JOKER,), meld=meld))
        return out

    # --- applying ----------------------------------------------------------------------

    def _apply(self, s: _State, action: Action, *, events: bool, finish: bool = True) -> None:
        seat = s.current
        emit = self._emit if events else (lambda *a, **k: None)
        if isinstance(action, Cut):
            self._cut(action.height)
            emit(seat, "cut", height=action.height, card=str(s.cut_card))
            return
        if isinstance(action, Draw):
            self._apply_draw(s, action, emit)
            return
        if isinstance(action, Undo):
            kind, before = s.turn.steps[-1]
            self._restore(s, before)
            if kind == "discard":
                s.turn.discard_attempted = True
            if kind == "cut_card":
                s.turn.cut_attempted = True
            emit(seat, "undo")
            return
        if isinstance(action, ReturnCutCard):
            first = next(before for kind, before in s.turn.steps if kind == "cut_card")
            card = s.turn.cut_taken
            self._restore(s, first)
            s.turn.cut_attempted = True
            emit(seat, "return_cut", card=str(card))
            return
        if isinstance(action, Discard):
            hand = s.hands[seat]
            hand.remove(action.card)
            s.discard.append(action.card)
            emit(seat, "discard", card=str(action.card))
            self._end_turn(s, emit, went_out=not hand)
            return
        snapshot = s.clone()
        t = s.turn
        if isinstance(action, PlayMeld):
            readings = meld_readings(action.cards, self.variant)
            meld, _ = self._joker_choice(readings, action.joker_as, action.cards)
            assert meld is not None
            _remove(s.hands[seat], action.cards)
            s.table.append(TableMeld(seat, meld))
            t.new_melds.append(len(s.table) - 1)
            t.meld_points += meld.points(self.variant)
            t.placed.extend(action.cards)
            t.melded.extend(action.cards)
            t.joker_moves.extend("placed" for c in action.cards if c.is_joker)
            emit(seat, "meld", cards=[str(c) for c in meld.cards], index=len(s.table) - 1)
        elif isinstance(action, LayOff):
            old = s.table[action.meld]
            readings = layoff_readings(old.meld, action.cards, self.variant)
            meld, _ = self._joker_choice(readings, action.joker_as, action.cards)
            assert meld is not None
            _remove(s.hands[seat], action.cards)
            s.table[action.meld] = TableMeld(old.owner, meld)
            t.placed.extend(action.cards)
            t.joker_moves.extend("placed" for c in action.cards if c.is_joker)
            t.laid_off = True
            jokers = laid_off_jokers(old.meld, meld)
            known = [str(c) for c in jokers if c is not None]
            if not jokers or len(known) < len(jokers):  # no joker, or one whose suit is open
                emit(seat, "layoff", cards=[str(c) for c in action.cards], index=action.meld)
            else:
                emit(
                    seat,
                    "layoff",
                    cards=[str(c) for c in action.cards],
                    index=action.meld,
                    joker_as=known,
                )
        elif isinstance(action, ExchangeJoker):
            old = s.table[action.meld]
            cards = list(old.meld.cards)
            i = next(
                i
                for i, (c, rep) in enumerate(zip(old.meld.cards, old.meld.represents))
                if c.is_joker and rep == action.card
            )
            cards[i] = action.card
            s.table[action.meld] = TableMeld(old.owner, replace(old.meld, cards=tuple(cards)))
            s.hands[seat].remove(action.card)
            s.hands[seat].append(JOKER)
            t.exchanged.append(action.meld)
            t.placed.append(action.card)  # the card handed in is on the table (H7)
            t.joker_moves.append("freed")
            emit(seat, "exchange", card=str(action.card), index=action.meld)
        t.placed.sort(key=Card.sort_key)  # which cards, not in what order: one state per move
        t.melded.sort(key=Card.sort_key)
        t.steps.append((action.kind, snapshot))
        if finish and not s.hands[seat]:
            self._end_turn(s, emit, went_out=True)

    def _apply_draw(self, s: _State, action: Draw, emit: Any) -> None:
        seat, v, t = s.current, self.variant, s.turn
        if action.source == "stock":
            if not s.stock:
                if v.reshuffle_discards and not s.reshuffled and len(s.discard) > 1:
                    top = s.discard.pop()
                    s.stock = s.discard
                    self._rng.shuffle(s.stock)
                    s.discard = [top]
                    s.reshuffled = True
                    emit(seat, "reshuffle", count=len(s.stock))
                elif not v.reshuffle_discards:
                    emit(seat, "stock_empty")
                    self._finish(s, None, "empty_stock")
                    return
                elif s.reshuffled:  # H15: the rebuilt stock ran out too
                    emit(seat, "stock_empty_again")
                    self._finish(s, None, "stock_exhausted")
                    return
                else:  # H15: nothing under the discard pile's top card to rebuild it from
                    emit(
                        seat, "stock_empty_no_pile" if not s.discard else "stock_empty_no_reshuffle"
                    )
                    self._finish(s, None, "nothing_to_reshuffle")
                    return
            s.hands[seat].append(s.stock.pop())
            emit(seat, "draw_stock")
        elif action.source == "discard":
            snapshot = s.clone()
            card = s.discard.pop()
            s.hands[seat].append(card)
            if v.discard_take_must_play and not (v.first_draw_keeps_discard and not s.drawn[seat]):
                t.taken = card
            t.steps.append(("discard", snapshot))
            emit(seat, "draw_discard", card=str(card))
        else:
            snapshot = s.clone()
            cut = s.cut_card
            assert cut is not None
            s.cut_card = None
            s.hands[seat].append(cut)
            t.cut_taken = cut
            t.steps.append(("cut_card", snapshot))
            emit(seat, "draw_cut", card=str(cut))
        t.drew = action.source
        s.drawn[seat] = True
        s.phase = "play"

    def _restore(self, s: _State, before: _State) -> None:
        steps = s.turn.steps[: len(before.turn.steps)]
        s.__dict__.update(before.clone().__dict__)
        s.turn.steps = steps

    def _end_turn(self, s: _State, emit: Any, *, went_out: bool) -> None:
        seat, t = s.current, s.turn
        if t.new_melds:
            t.opened_now = not s.opened[seat]
            s.opened[seat] = True
        if went_out:
            self._finish(s, seat, "went_out")
            return
        s.turns[seat] += 1
        if not s.stock and not self.variant.reshuffle_discards:
            # R11 counts the turns played with the stock already empty: a turn that drew the
            # last card from the stock started before it ran out
            progress = t.new_melds or t.laid_off or t.drew == "stock"
            s.quiet_turns = 0 if progress else s.quiet_turns + 1
            if s.quiet_turns >= self.players:  # R11
                emit(seat, "no_progress")
                self._finish(s, None, "no_progress")
                return
        s.current = (seat + 1) % self.players
        s.phase = "draw"
        s.turn = _Turn()

    def _emit(self, seat: int, code: str, **params: Any) -> None:
        self.events.append(Event(seat, code, params))

    def _finish(self, s: _State, winner: int | None, how: str) -> None:
        t = s.turn  # H12's −20: opened and went out in this turn with only new melds
        own = t.opened_now and not t.laid_off and not t.exchanged
        s.result = score_round(self.variant, s.hands, s.opened, winner, how, own)
        s.phase = "over"

    # --- candidates for legal_actions ----------------------------------------------------

    def _play_candidates(self) -> Iterator[Action]:
        s = self._state
        hand = s.hands[s.current]
        distinct = list(dict.fromkeys(hand))
        for card in distinct:
            yield Discard(card)
        if s.turn.steps:
            yield Undo()
        if s.turn.cut_taken is not None:
            yield ReturnCutCard()
        first_turn = self.variant.no_opening_first_turn and s.turns[s.current] == 0
        if first_turn and not s.opened[s.current]:
            return  # H9: no melds, so no lay-offs or exchanges either
        yield from candidate_melds(hand, self.variant)
        if self._must_open_first(s, "layoff"):
            return
        for i, tm in enumerate(s.table):
            for card in distinct:
                if not _may_fit(tm.meld, card):
                    continue
                readings = layoff_readings(tm.meld, (card,), self.variant)
                for meaning in dict.fromkeys(_new_joker_meanings(tm.meld, readings)):
                    yield LayOff((card,), i, meaning)
            for card, rep in zip(tm.meld.cards, tm.meld.represents):
                if card.is_joker and rep is not None and rep in hand:
                    yield ExchangeJoker(rep, i)

    # --- information -------------------------------------------------------------------

    # Saving, loading and observing are built on this module by rummykit.game.record and
    # rummykit.game.observation, which register themselves (see :func:`provide`): the
    # methods below reach them without an import back, so imports point one way.

    def observation(self, seat: int) -> Any:
        """Everything ``seat`` may know, and nothing more (see :class:`Observation`)."""
        return _PROVIDED["observe"](self, seat)

    def to_json(self, indent: int | None = None) -> str:
        """The game record as JSON text (setup and actions); :meth:`load` reads it back."""
        text: str = _PROVIDED["dumps"](self, indent)
        return text

    @staticmethod
    def load(text: str) -> Game:
        """Read a saved game (JSON text), validating it and replaying its actions."""
        game: Game = _PROVIDED["loads"](text)
        return game

    @staticmethod
    def from_position(variant: str | Variant = "hungarian", **position: Any) -> Game:
        """A game set up by hand for a lesson (see :func:`rummykit.game.record.from_position`)."""
        game: Game = _PROVIDED["from_position"](variant, **position)
        return game

    def snapshot(self) -> dict[str, Any]:
        """The complete state as JSON-ready data (the position form of a saved game)."""
        data: dict[str, Any] = _PROVIDED["position_of"](self)
        return data

    def __repr__(self) -> str:
        return (
            f"<Game {self.variant.name} players={self.players} seed={self.seed} "
            f"phase={self.phase} current={self.current}>"
        )


def _may_fit(meld: Meld, card: Card) -> bool:
    """A quick test before the full check: could this card join this meld at all?"""
    if card.is_joker:
        return True
    if meld.is_run:
        if card.suit != meld.suit:
            return False
        positions = (1, HIGH_ACE) if card.rank == 1 else (card.rank,)
        return any(p in (meld.start - 1, meld.end + 1) for p in positions)
    return card.rank == meld.rank and len(meld.cards) < 4


def _joker_meanings(meld: Meld) -> tuple[object, ...]:
    """What a reading says about its jokers: its kind and what each joker stands for.

    Two readings that differ only in where a natural ace stands (A-2-…-K or 2-…-K-A) say
    the same: the ace's two places are not joker meanings (H4).
    """
    reps = sorted(str(rep) for c, rep in zip(meld.cards, meld.represents) if c.is_joker)
    return (meld.kind, *reps)


def _named_meaning(meld: Meld) -> JokerMeaning:
    """The ``joker_as`` that names this reading: a card per joker (a set's open joker named
    by one of its missing suits).

    >>> from rummykit import HUNGARIAN
    >>> from rummykit.melds import make_meld
    >>> _named_meaning(make_meld("K♥ 🃏 🃏", HUNGARIAN.derive(jokers_per_meld=2), ("J♥", "Q♥")))
    (Card('J♥'), Card('Q♥'))
    """
    named: list[Card] = []
    for options in meld.joker_choices:
        free = [c for c in options if c not in named]
        if free:
            named.append(free[0])
    if not named:
        return None
    if len(named) == 1:
        return named[0]
    return tuple(sorted(named, key=Card.sort_key))


def _jokers_replayed(moves: list[str]) -> bool:
    """Whether every joker freed by an exchange reached the table after it was freed (H11).

    Jokers are alike, so a joker laid down after the exchange counts as the freed one; a
    joker laid down earlier in the turn does not.

    >>> _jokers_replayed(["freed", "placed"]), _jokers_replayed(["placed", "freed"])
    (True, False)
    """
    owed = 0
    for move in moves:
        if move == "freed":
            owed += 1
        elif owed:
            owed -= 1
    return owed == 0


def _joker_cards(meld: Meld) -> set[Card]:
    return {c for options in meld.joker_choices for c in options}


def _new_joker_meanings(old: Meld, readings: tuple[Meld, ...]) -> Iterator[Card | None]:
    """For each lay-off reading, what a newly added joker stands for (None when fixed)."""
    if len({_joker_meanings(m) for m in readings}) <= 1:
        if readings:
            yield None
        return
    for m in readings:
        new = [rep for c, rep in zip(m.cards, m.represents) if c.is_joker and rep is not None]
        old_reps = {rep for c, rep in zip(old.cards, old.represents) if c.is_joker}
        fresh = [r for r in new if r not in old_reps]
        yield fresh[0] if fresh else None


def candidate_melds(hand: Iterable[Card], variant: Variant) -> Iterator[PlayMeld]:
    """Every distinct new meld these cards can make (each joker meaning once).

    >>> from rummykit import ROMMI, parse_cards as as_cards
    >>> [str(m) for m in candidate_melds(as_cards("5♥ 6♥ 7♥ 7♠ 7♦"), ROMMI)]
    ['meld 7♠ 7♥ 7♦', 'meld 5♥ 6♥ 7♥']
    """
    cards = list(hand)
    jokers = sum(1 for c in cards if c.is_joker)
    use_jokers = min(jokers, variant.jokers_per_meld)
    naturals = sorted(set(c for c in cards if not c.is_joker), key=Card.sort_key)
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, set[int]] = {}
    for c in naturals:
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.suit, set()).add(c.rank)
    for rank in sorted(by_rank):
        group = by_rank[rank]
        for size in (3, 4):
            for combo in combinations(group, size):
                yield PlayMeld(combo)
        for jokers_used in range(1, use_jokers + 1):  # a set's jokers: at most four cards
            for size in range(max(1, 3 - jokers_used), 5 - jokers_used):
                for combo in combinations(group, size):
                    yield PlayMeld((*combo, *[JOKER] * jokers_used))
    low = 1 if variant.ace_low else 2
    high = HIGH_ACE if variant.ace_above_king else 13
    for suit in SUITS:
        ranks = by_suit.get(suit, set())
        if len(ranks) + use_jokers < 3 or len(ranks) < max(1, 3 - use_jokers):
            continue
        present = {r for r in ranks if r != 1} | ({1, HIGH_ACE} if 1 in ranks else set())
        for start in range(low, high - 1):
            missing: list[int] = []
            for stop in range(start, min(high, start + 12) + 1):
                if stop not in present:
                    missing.append(stop)
                    if len(missing) > use_jokers:
                        break
                if stop - start < 2:
                    continue
                window = range(start, stop + 1)
                laid = tuple(JOKER if p in missing else _card(p, suit) for p in window)
                meaning = _card(missing[0], suit) if len(missing) == 1 else None
                yield PlayMeld(laid, meaning)
                if not missing and use_jokers:  # a joker may stand in for a card still held
                    for p in window:
                        sub = tuple(JOKER if q == p else _card(q, suit) for q in window)
                        yield PlayMeld(sub, _card(p, suit))


def _card(position: int, suit: str) -> Card:
    return Card(1 if position == HIGH_ACE else position, suit)
