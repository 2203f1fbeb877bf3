"""The end-of-turn checks: what must hold before a turn may end, and whether a seat has opened.

A turn's melds, lay-offs and exchanges are provisional (see :mod:`rummykit.game.transaction`);
when the player discards or goes out, :func:`end_failures` says what still stands in the way:
the cut card taken but no way out (H10), an opening short of the threshold (H8), a card
taken from the discard pile and not played (H7), a freed joker not played again (H11).
Rommi has no cut card, no threshold (R5) and no joker (R1); its counterpart is going out
(R7): :func:`goes_out_ok` plays a move that empties the hand on a copy and asks the same
checks of the copy.

>>> from rummykit.game import Game, Draw, PlayMeld
>>> from rummykit.cards import as_cards
>>> game = Game.from_position("hungarian", hands=["5♥ 6♥ 7♥ K♣ K♦", "2♣ 3♣ 4♣"],
...                           discard="9♠", current=0, phase="draw", opened=[False, False])
>>> game.play(Draw("stock"))
(Event(seat=0, code='draw_stock'),)
>>> game.play(PlayMeld(as_cards("5♥ 6♥ 7♥")))
(Event(seat=0, code='meld', params={'cards': ('5♥', '6♥', '7♥'), 'index': 0}),)
>>> [(r.code, r.rule) for r in end_failures(game.variant, game._state, going_out=False)]
[('turn_opening_short', 'H8')]
"""

from __future__ import annotations

from rummykit.cards import JOKER, Card
from rummykit.explain import Reason
from rummykit.game._round import State
from rummykit.game.actions import LayOff, PlayMeld
from rummykit.game.facts import DiscardOnly
from rummykit.game.refusals import rule_reason
from rummykit.game.transaction import place
from rummykit.variants import Variant

__all__ = ["discard_only", "end_failures", "goes_out_ok", "jokers_replayed", "opened"]


def opened(v: Variant, s: State, seat: int) -> bool:
    """Whether a seat has opened (H8) — counting an opening made this turn."""
    if s.opened[seat]:
        return True
    t = s.turn
    return seat == s.current and bool(t.new_melds) and t.meld_points >= v.opening_threshold


def discard_only(v: Variant, s: State) -> DiscardOnly | None:
    """Why only a discard is allowed this turn: ``"start"`` (H3), ``"first_turn"`` (H9)."""
    if opened(v, s, s.current):
        return None
    if s.turn.drew == "start":
        return "start"
    if v.opening_barred(s.turns[s.current]):
        return "first_turn"
    return None


def goes_out_ok(v: Variant, s: State, action: PlayMeld | LayOff) -> list[Reason]:
    """A move that empties the hand ends the round (R7): the turn must be able to end."""
    if len(s.hands[s.current]) - len(action.cards) > 0:
        return []
    trial = s.clone()
    place(v, trial, action, lambda *a, **k: None)
    return end_failures(v, trial, going_out=True)


def end_failures(
    v: Variant, s: State, *, going_out: bool, discarding: Card | None = None
) -> list[Reason]:
    """What still stands in the way of ending the turn (H7, H8, H10, H11)."""
    t, seat = s.turn, s.current
    out: list[Reason] = []
    if t.cut_taken is not None and not going_out:
        out.append(
            rule_reason(v, "cut_card_must_go_out", "cut_card", (t.cut_taken,), card=t.cut_taken)
        )
    if not s.opened[seat] and t.new_melds and t.meld_points < v.opening_threshold:
        melds = tuple(s.table[i].meld.cards for i in t.new_melds)
        out.append(
            rule_reason(
                v,
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
            code = "discard_take_not_in_opening" if not s.opened[seat] else "discard_take_unplayed"
            out.append(rule_reason(v, code, "discard_take", (t.taken,), card=t.taken))
    if t.exchanged and not jokers_replayed(t.joker_moves):
        meld = s.table[t.exchanged[-1]].meld.cards
        out.append(rule_reason(v, "joker_replay", "joker_exchange", (JOKER,), meld=meld))
    return out


def jokers_replayed(moves: list[str]) -> bool:
    """Whether every joker freed by an exchange reached the table after it was freed (H11).

    Jokers are alike, so a joker laid down after the exchange counts as the freed one; a
    joker laid down earlier in the turn does not.

    >>> jokers_replayed(["freed", "placed"]), jokers_replayed(["placed", "freed"])
    (True, False)
    """
    owed = 0
    for move in moves:
        if move == "freed":
            owed += 1
        elif owed:
            owed -= 1
    return owed == 0
