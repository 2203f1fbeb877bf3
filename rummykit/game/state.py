"""The referee: one round (deal) of Hungarian Rummy or Rommi, from the deal to the score.

A :class:`Game` holds the whole state. Ask before you act, and the same code decides:

>>> from rummykit.game.actions import Discard, Draw
>>> game = Game.new("rommi", players=2, seed=7)
>>> game.current, game.phase
(1, 'draw')
>>> verdict = game.check(Discard(game.hand(1)[0]))
>>> verdict.ok, verdict.codes
(False, ('draw_first',))
>>> game.play(Draw("stock"))
(Event(seat=1, code='draw_stock'),)
>>> game.phase
'play'

A turn is a transaction: melds, lay-offs and joker exchanges stay provisional until the
player discards (or goes out), and can be undone until then. The opening total (H8), the
discard-take obligation (H7), the joker replay (H11) and the cut-card attempt (H10) are
checked when the turn ends.

:class:`Game` ties together the modules that each hold one part of the rulebook; to change
a rule, go to its module (the API page maps every rule id to its functions):

- :mod:`rummykit.game.dealing` — the shuffle, the cut and the deal (H3, R2);
- :mod:`rummykit.game.checks` — whether an action is allowed now, and why not;
- :mod:`rummykit.game.turn_end` — what must hold before a turn ends (H7, H8, H10, H11, R7);
- :mod:`rummykit.game.transaction` — the turn as a transaction: draw, provisional moves,
  undo, commit;
- :mod:`rummykit.game.legal` — every action the seat to act may take;
- :mod:`rummykit.game.jokers` — which reading of a meld a joker's card names;
- :mod:`rummykit.game.facts` and :mod:`rummykit.game.refusals` — what the referee hands out.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from rummykit.cards import Card, sort_cards
from rummykit.errors import RummykitError
from rummykit.explain import Verdict
from rummykit.game import checks, dealing, legal, saved, transaction, turn_end
from rummykit.game._round import State
from rummykit.game.actions import Action, parse_action
from rummykit.game.facts import Event, Phase, TableMeld, TurnInfo, TurnStatus
from rummykit.game.observation import Observation
from rummykit.game.refusals import IllegalAction, ok_reason, refusal
from rummykit.game.scoring import RoundResult
from rummykit.messages import render
from rummykit.variants import Variant
from rummykit.variants import variant as get_variant

if TYPE_CHECKING:  # typing_extensions: Unpack for keywords on Python 3.10
    from typing_extensions import Unpack

__all__ = [
    "Event",
    "Game",
    "IllegalAction",
    "RoundResult",
    "TableMeld",
    "TurnInfo",
    "TurnStatus",
]

PHASES: tuple[Phase, ...] = ("cut", "draw", "play", "over")


class Game:
    """One round of rummy under a variant's rules, from the deal to the score.

    Create with :meth:`new` (a seeded deal) or :meth:`from_position` (a lesson set up by
    hand). ``seat`` numbers go clockwise from 0; play passes to seat + 1 (H2).

    The constructor itself is internal: it takes a ready :class:`~rummykit.game._round.State`
    and random source, and is how :mod:`rummykit.game.record` builds a loaded game.
    """

    def __init__(
        self,
        variant: Variant,
        players: int,
        seed: int | None,
        dealer: int,
        state: State,
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
            last = players - 1
            raise RummykitError(render("bad_dealer", last=last, dealer=dealer), field="dealer")
        if seed is None:  # the record must replay the same deal: choose a seed and keep it
            seed = random.SystemRandom().randrange(2**32)
        rng = random.Random(seed)
        size = len(rules.deck())
        if rules.cut_card and cut is not None and not 1 <= cut < size:
            raise RummykitError(render("cut_bad_height", most=size - 1))
        state = dealing.shuffled(rules, players, dealer, rng)
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
            dealing.deal(rules, state, dealer)
        elif not choose_cut:
            dealing.cut(rules, state, cut if cut is not None else game.default_cut(), dealer)
        return game

    def default_cut(self) -> int:
        """The cut height used when nobody chooses one: the middle of the deck."""
        return dealing.default_cut(self._state)

    # --- reading the state -------------------------------------------------------------

    @property
    def current(self) -> int:
        """The seat to act."""
        return self._state.current

    @property
    def phase(self) -> Phase:
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
        return turn_end.opened(self.variant, self._state, seat)

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

    def check(self, action: Action | str, seat: int | None = None) -> Verdict:
        """Would this action be allowed? A Verdict saying why or why not; nothing changes.

        ``action`` is an :class:`~rummykit.game.actions.Action` or its text, as a learner
        types it (:func:`~rummykit.game.actions.parse_action`: ``"draw"``,
        ``"lay off 7h onto 2"``, in English or the current language); text that is no move
        raises :class:`~rummykit.game.actions.ActionParseError`. ``seat`` is who acts
        (default: the seat to act).

        >>> game = Game.new("rommi", players=2, seed=7)
        >>> game.check("draw").ok, game.check("discard 9s").codes
        (True, ('draw_first',))
        """
        act = parse_action(action) if isinstance(action, str) else action
        failures = checks.failures(
            self.variant, self._state, act, self.current if seat is None else seat
        )
        if failures:
            return refusal(self.variant, act, failures)
        return Verdict((ok_reason(act),), variant=self.variant.name)

    def play(self, action: Action | str, seat: int | None = None) -> tuple[Event, ...]:
        """Apply a legal action (an :class:`~rummykit.game.actions.Action` or its text, as
        for :meth:`check`), or raise :class:`IllegalAction` and change nothing.

        Returns the events it added to :attr:`events` (what every seat saw happen).

        >>> game = Game.new("rommi", players=2, seed=7)
        >>> [event.code for event in game.play("draw")]
        ['draw_stock']
        """
        act = parse_action(action) if isinstance(action, str) else action
        who = self.current if seat is None else seat
        failures = checks.failures(self.variant, self._state, act, who)
        if failures:
            raise IllegalAction(refusal(self.variant, act, failures))
        before = len(self.events)
        transaction.apply(self.variant, self._state, act, self._emit, self._rng, self.dealer)
        self.actions.append((who, act))
        return tuple(self.events[before:])

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now."""
        return legal.legal_actions(self.variant, self._state)

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
        v = self.variant
        obligations = (
            tuple(turn_end.end_failures(v, s, going_out=False)) if s.phase == "play" else ()
        )
        return TurnStatus(
            seat=s.current,
            phase=s.phase,
            opened=self.opened(s.current),
            meld_points=s.turn.meld_points,
            threshold=v.opening_threshold,
            obligations=obligations,
            can_end_turn=s.phase == "play" and not obligations,
            can_take_cut=s.phase == "draw" and checks.may_take_cut(v, s),
            discard_only=turn_end.discard_only(v, s) if s.phase == "play" else None,
        )

    def _emit(self, seat: int, code: str, **params: Any) -> None:
        self.events.append(Event(seat, code, params))

    # --- information -------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know, and nothing more (see :class:`Observation`)."""
        if not 0 <= seat < self.players:
            last = self.players - 1
            raise RummykitError(render("bad_seat", last=last, seat=seat), field="seat")
        mine = self.current == seat and not self.is_over
        return Observation(
            seat=seat,
            variant=self.variant,
            players=self.players,
            dealer=self.dealer,
            phase=self.phase,
            current=self.current,
            hand=sort_cards(self.hand(seat)),
            table=self.table,
            discard_pile=self.discard_pile,
            cut_card=self.cut_card,
            hand_sizes=tuple(len(self.hand(s)) for s in range(self.players)),
            stock_size=self.stock_size,
            opened=tuple(self.opened(s) for s in range(self.players)),
            turns=self.turns_taken,
            scores=self.match_scores,
            history=tuple(self.events),
            legal_actions=tuple(self.legal_actions()) if mine else (),
            status=self.turn_status() if mine else None,
            turn=self.turn_info(),
        )

    # --- saving and loading ------------------------------------------------------------

    def to_json(self, indent: int | None = None) -> str:
        """The game record as JSON text (setup and actions); :meth:`load` reads it back."""
        return saved.dumps(self, indent)

    @classmethod
    def load(cls, text: str) -> Game:
        """Read a saved game (JSON text), validating it and replaying its actions."""
        return cls.from_record(saved.parse_json(text))

    @classmethod
    def from_record(cls, data: object) -> Game:
        """Rebuild a game from record data (as from ``json.load``): every field checked
        (:func:`rummykit.game.saved.read_record`), then its actions replayed — one the
        referee refuses is a :class:`~rummykit.game.record.RecordError` naming it."""
        read = saved.read_record(data)
        if read.position is not None:
            game = cls._of(read.position)
        else:
            assert read.new is not None
            try:
                game = cls.new(read.rules, read.players, **read.new)
            except RummykitError as exc:  # a VariantError is one too
                raise saved.bad_setup(exc.message) from exc
        for number, (field, seat, action) in enumerate(read.actions, 1):
            try:
                game.play(action, seat)
            except IllegalAction as exc:
                why = tuple(r.message for r in exc.verdict.failures)
                raise saved.refused_action(field, number, seat, action, why) from exc
        return game

    @classmethod
    def from_position(
        cls, variant: str | Variant = "hungarian", **position: Unpack[saved.Position]
    ) -> Game:
        """A game set up by hand for a lesson (see :func:`rummykit.game.record.from_position`
        for what ``position`` holds), validated like a loaded file."""
        return cls._of(saved.position_parts(*saved.position_data(variant, **position)))

    @classmethod
    def _of(cls, parts: saved.Parts) -> Game:
        p = parts
        return cls(p.rules, p.players, p.seed, p.dealer, p.state, p.rng, p.setup, p.scores)

    def snapshot(self) -> dict[str, Any]:
        """The complete state as JSON-ready data (the position form of a saved game)."""
        return saved.position_of(
            self.variant,
            self.players,
            self.seed,
            self.dealer,
            self.match_scores,
            self._state,
            self._rng,
        )

    def __repr__(self) -> str:
        return (
            f"<Game {self.variant.name} players={self.players} seed={self.seed} "
            f"phase={self.phase} current={self.current}>"
        )
