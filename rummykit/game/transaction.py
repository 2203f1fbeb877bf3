"""The turn as a transaction: the draw begins it, melds, lay-offs and exchanges stay
provisional and can be rolled back, and the discard (or going out) commits it.

Every function here changes the state it is given and assumes the move is legal: the
referee checks first (:mod:`rummykit.game.checks`, :mod:`rummykit.game.turn_end`), so an
illegal move never reaches this module and leaves the game exactly as it was. Each
provisional move keeps a copy of the state before it (``turn.steps``): Undo and giving the
cut card back (H10) restore that copy.

In transaction terms: :func:`draw` begins the turn, :func:`place` makes a provisional move,
:func:`restore` rolls back to before one, :func:`end_turn` commits, and :func:`apply`
dispatches a legal action to the right one.

>>> from rummykit.game import Game, Draw, PlayMeld, Undo
>>> from rummykit.cards import as_cards
>>> game = Game.from_position("rommi", hands=["5♥ 6♥ 7♥ K♣", "2♣ 3♣ 4♣"], discard="9♠",
...                           current=0, phase="draw")
>>> game.play(Draw("stock"))
(Event(seat=0, code='draw_stock'),)
>>> before = game._state.clone()
>>> game.play(PlayMeld(as_cards("5♥ 6♥ 7♥")))
(Event(seat=0, code='meld', params={'cards': ('5♥', '6♥', '7♥'), 'index': 0}),)
>>> len(game.table), len(game._state.turn.steps)
(1, 1)
>>> game.play(Undo())
(Event(seat=0, code='undo'),)
>>> game._state == before
True
"""

from __future__ import annotations

import random
from dataclasses import replace

from rummykit.cards import JOKER, Card
from rummykit.game import actions
from rummykit.game._round import Emit, State, Turn, remove_cards
from rummykit.game.dealing import cut
from rummykit.game.facts import TableMeld
from rummykit.game.jokers import joker_choice
from rummykit.game.scoring import Ending, score_round
from rummykit.melds import laid_off_jokers, layoff_readings, meld_readings
from rummykit.variants import Variant

__all__ = ["apply", "draw", "end_round", "end_turn", "place", "restore"]


def apply(
    v: Variant, s: State, action: actions.Action, emit: Emit, rng: random.Random, dealer: int
) -> None:
    """Apply a legal action to ``s``: the cut, the draw that begins a turn, a provisional
    move, the undo of one, or the discard that ends the turn.

    Check first (:func:`rummykit.game.checks.failures`): only a legal action may be applied.
    ``rng`` reshuffles the discard pile (H15), ``dealer`` says who gets dealt first (H3).
    """
    seat = s.current
    if isinstance(action, actions.Cut):
        cut(v, s, action.height, dealer)
        emit(seat, "cut", height=action.height, card=str(s.cut_card))
        return
    if isinstance(action, actions.Draw):
        draw(v, s, action, emit, rng)
        return
    if isinstance(action, actions.Undo):
        kind, before = s.turn.steps[-1]
        restore(s, before)
        if kind == "discard":
            s.turn.discard_attempted = True
        if kind == "cut_card":
            s.turn.cut_attempted = True
        emit(seat, "undo")
        return
    if isinstance(
        action, actions.ReturnCutCard
    ):  # H10: give the cut card back, undo all done with it
        first = next(before for kind, before in s.turn.steps if kind == "cut_card")
        card = s.turn.cut_taken
        restore(s, first)
        s.turn.cut_attempted = True
        emit(seat, "return_cut", card=str(card))
        return
    if isinstance(action, actions.Discard):
        hand = s.hands[seat]
        hand.remove(action.card)
        s.discard.append(action.card)
        emit(seat, "discard", card=str(action.card))
        end_turn(v, s, emit, went_out=not hand)
        return
    if not isinstance(action, (actions.PlayMeld, actions.LayOff, actions.ExchangeJoker)):
        raise TypeError(f"not an action: {action!r}")
    place(v, s, action, emit)
    if not s.hands[seat]:  # R7: the round ends the moment the hand is empty
        end_turn(v, s, emit, went_out=True)


def place(
    v: Variant,
    s: State,
    action: actions.PlayMeld | actions.LayOff | actions.ExchangeJoker,
    emit: Emit,
) -> None:
    """Put cards on the table for this turn, provisionally: a meld, a lay-off, a joker exchange
    (H11: the card handed in takes the joker's place, and the joker goes to the hand).

    The state before the move is kept (``turn.steps``) so that Undo can roll it back; the
    move counts only when the turn ends (:func:`end_turn`).
    """
    seat = s.current
    snapshot = s.clone()
    t = s.turn
    if isinstance(action, actions.PlayMeld):
        readings = meld_readings(action.cards, v)
        meld = joker_choice(v, readings, action.joker_as, action.cards).meld
        assert meld is not None
        remove_cards(s.hands[seat], action.cards)
        s.table.append(TableMeld(seat, meld))
        t.new_melds.append(len(s.table) - 1)
        t.meld_points += meld.points(v)
        t.placed.extend(action.cards)
        t.melded.extend(action.cards)
        t.joker_moves.extend("placed" for c in action.cards if c.is_joker)
        emit(seat, "meld", cards=[str(c) for c in meld.cards], index=len(s.table) - 1)
    elif isinstance(action, actions.LayOff):
        old = s.table[action.meld]
        readings = layoff_readings(old.meld, action.cards, v)
        meld = joker_choice(v, readings, action.joker_as, action.cards).meld
        assert meld is not None
        remove_cards(s.hands[seat], action.cards)
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
    elif isinstance(action, actions.ExchangeJoker):
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


def draw(v: Variant, s: State, action: actions.Draw, emit: Emit, rng: random.Random) -> None:
    """Begin a turn with its draw (H6, R4): the stock (rebuilt from the discard pile once, H15; or the
    round ends, R10), the discard pile's top (H7) or the cut card (H10).

    A draw from the discard pile or the cut card keeps the state before it, so that the
    take can be undone (H10: the cut card given back) and the player draws again.
    """
    seat, t = s.current, s.turn
    if action.source == "stock":
        if not s.stock:
            if v.reshuffle_discards and not s.reshuffled and len(s.discard) > 1:
                top = s.discard.pop()
                s.stock = s.discard
                rng.shuffle(s.stock)
                s.discard = [top]
                s.reshuffled = True
                emit(seat, "reshuffle", count=len(s.stock))
            elif not v.reshuffle_discards:
                emit(seat, "stock_empty")
                end_round(v, s, None, "empty_stock")
                return
            elif s.reshuffled:  # H15: the rebuilt stock ran out too
                emit(seat, "stock_empty_again")
                end_round(v, s, None, "stock_exhausted")
                return
            else:  # H15: nothing under the discard pile's top card to rebuild it from
                emit(seat, "stock_empty_no_pile" if not s.discard else "stock_empty_no_reshuffle")
                end_round(v, s, None, "nothing_to_reshuffle")
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


def restore(s: State, before: State) -> None:
    """Roll the turn back to the state ``before`` a move (the moves before it stay undoable)."""
    steps = s.turn.steps[: len(before.turn.steps)]
    s.__dict__.update(before.clone().__dict__)
    s.turn.steps = steps


def end_turn(v: Variant, s: State, emit: Emit, *, went_out: bool) -> None:
    """Commit the turn: its melds open the seat (H8), going out ends the round (H12, R7),
    a round without progress ends (R11); otherwise play passes to the next seat (H2).

    Check first (:func:`rummykit.game.turn_end.end_failures`): only a turn that may end is
    committed.
    """
    seat, t = s.current, s.turn
    if t.new_melds:
        t.opened_now = not s.opened[seat]
        s.opened[seat] = True
    if went_out:
        end_round(v, s, seat, "went_out")
        return
    s.turns[seat] += 1
    if not s.stock and not v.reshuffle_discards:
        # R11 counts the turns played with the stock already empty: a turn that drew the
        # last card from the stock started before it ran out
        progress = t.new_melds or t.laid_off or t.drew == "stock"
        s.quiet_turns = 0 if progress else s.quiet_turns + 1
        if s.quiet_turns >= len(s.hands):  # R11
            emit(seat, "no_progress")
            end_round(v, s, None, "no_progress")
            return
    s.current = (seat + 1) % len(s.hands)
    s.phase = "draw"
    s.turn = Turn()


def end_round(v: Variant, s: State, winner: int | None, how: Ending) -> None:
    """End the round and score it (H12, H13, R8, R10)."""
    t = s.turn  # H12's −20: opened and went out in this turn with only new melds
    own = t.opened_now and not t.laid_off and not t.exchanged
    s.result = score_round(v, s.hands, s.opened, winner, how, own)
    s.phase = "over"
