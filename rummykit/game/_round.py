"""The referee's internal record of a round: hands, piles, table and the turn in progress.

This is the small internal API the modules of :mod:`rummykit.game` share, and nothing else
should use. A :class:`~rummykit.game.state.Game` keeps one :class:`State` (``game._state``);
the functions that check and apply moves (:mod:`~rummykit.game.checks`,
:mod:`~rummykit.game.transaction`, :mod:`~rummykit.game.turn_end`,
:mod:`~rummykit.game.legal`, :mod:`~rummykit.game.dealing`) take it as an argument, together
with the :class:`~rummykit.variants.Variant`; :mod:`rummykit.game.record` saves and rebuilds
it. Each move a player makes within a turn keeps a clone of the state before it
(``turn.steps``), which is how the turn is a transaction that Undo rolls back.

>>> from rummykit.cards import JOKER
>>> state = State([[JOKER], []], [], [], [], None, 0, "draw", [False, False], [0, 0],
...               [False, False], Turn())
>>> copy = state.clone()
>>> copy.hands[0].append(JOKER)
>>> len(state.hands[0]), copy == state
(1, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from rummykit.cards import Card
from rummykit.game.facts import Drew, Phase, TableMeld
from rummykit.game.scoring import RoundResult

__all__ = ["Emit", "State", "Turn", "missing_from", "remove_cards"]

Emit = Callable[..., None]
"""How a move reports what happened: ``emit(seat, code, **params)`` (an event, or nothing)."""


@dataclass
class Turn:
    """What happened in the current turn (provisional until the turn ends)."""

    drew: Drew | None = None
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
    steps: list[tuple[str, State]] = field(default_factory=list)

    def clone(self) -> Turn:
        """A copy whose lists can change without changing this one."""
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
class State:
    """Everything about a round, hidden cards included: what a saved position holds."""

    hands: list[list[Card]]
    stock: list[Card]  # top is the last card
    discard: list[Card]  # top is the last card
    table: list[TableMeld]
    cut_card: Card | None
    current: int
    phase: Phase
    opened: list[bool]
    turns: list[int]
    drawn: list[bool]  # has each seat drawn at least once this round (H7)
    turn: Turn
    reshuffled: bool = False
    quiet_turns: int = 0  # R11: turns in a row without a meld or lay-off since the stock ran out
    result: RoundResult | None = None

    def clone(self) -> State:
        """A copy whose hands, piles, table and turn can change without changing this one."""
        return State(
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


def remove_cards(hand: list[Card], cards: Iterable[Card]) -> None:
    """Take ``cards`` out of ``hand`` (each must be there)."""
    for card in cards:
        hand.remove(card)


def missing_from(hand: list[Card], cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards (with multiplicity) that the hand does not hold."""
    need = Counter(cards)
    have = Counter(hand)
    return tuple(c for c, n in need.items() for _ in range(max(0, n - have[c])))
