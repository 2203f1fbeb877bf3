"""Whether an action is allowed now and, when it is not, every reason why.

The referee asks before it acts: :func:`failures` lists what forbids a move, each reason
citing the rule that says so (or none for the software's own help), and only a move with
no failure is applied (:mod:`rummykit.game.transaction`). Nothing here changes the state.

>>> from rummykit.game import Game, Discard
>>> game = Game.new("rommi", players=2, seed=7)
>>> s = game._state
>>> [(r.code, r.rule) for r in failures(game.variant, s, Discard(s.hands[1][0]), 1)]
[('draw_first', 'R4')]
>>> [(r.code, r.rule) for r in failures(game.variant, s, Discard(s.hands[0][0]), 0)]
[('not_your_turn', 'R4')]
"""

from __future__ import annotations

from rummykit.cards import Card
from rummykit.explain import Reason
from rummykit.game import actions
from rummykit.game._round import State, missing_from
from rummykit.game.jokers import JokerChoice, joker_choice
from rummykit.game.refusals import help_reason, rule_reason
from rummykit.game.turn_end import discard_only, end_failures, goes_out_ok, opened
from rummykit.melds import check_layoff, check_meld, layoff_readings, meld_readings, variant_words
from rummykit.messages import join, render
from rummykit.variants import Variant

__all__ = ["failures", "jokers_read", "may_take_cut", "must_open_first"]


def failures(v: Variant, s: State, action: actions.Action, seat: int) -> list[Reason]:
    """Every reason ``seat`` may not take ``action`` now (none: the action is legal).

    Whose turn and which phase (H6, R4), then the action's own rules: the draw
    (:func:`_draw_failures`), a meld, a lay-off, a joker exchange, the discard (which asks
    the end-of-turn checks of :mod:`rummykit.game.turn_end`).
    """
    if s.phase == "over":
        return [rule_reason(v, "round_over", "turn")]
    if seat != s.current:
        return [rule_reason(v, "not_your_turn", "turn", seat=seat, current=s.current)]
    if isinstance(action, actions.Cut):
        if s.phase != "cut":
            return [rule_reason(v, "cut_not_now", "deal")]
        if not 1 <= action.height < len(s.stock):
            return [rule_reason(v, "cut_bad_height", "deal", most=len(s.stock) - 1)]
        return []
    if s.phase == "cut":
        return [rule_reason(v, "cut_first", "deal", seat=s.current)]
    if isinstance(action, actions.Draw):
        return _draw_failures(v, s, action)
    if isinstance(action, actions.Undo):
        return [] if s.turn.steps else [help_reason("nothing_to_undo")]
    if isinstance(action, actions.ReturnCutCard):
        return [] if s.turn.cut_taken is not None else [rule_reason(v, "cut_not_taken", "cut_card")]
    if s.phase == "draw":
        template = "draw_first_cut" if may_take_cut(v, s) else None
        return [Reason("draw_first", v.rule("turn"), (), {}, True, template)]
    if isinstance(action, actions.Discard):
        return _discard_failures(v, s, action)
    if isinstance(action, actions.PlayMeld):
        return _meld_failures(v, s, action)
    if isinstance(action, actions.LayOff):
        return _layoff_failures(v, s, action)
    if isinstance(action, actions.ExchangeJoker):
        return _exchange_failures(v, s, action)
    raise TypeError(f"not an action: {action!r}")


def may_take_cut(v: Variant, s: State) -> bool:
    """Whether the cut card may be taken as this turn's draw (H10)."""
    return v.cut_card and s.cut_card is not None and not s.turn.cut_attempted


def _draw_failures(v: Variant, s: State, action: actions.Draw) -> list[Reason]:
    """Why this draw is refused: one draw per turn (H6, R4), none for the starter who begins
    with a discard (H3), a pile to take from, and the cut card once per turn (H10)."""
    if s.phase != "draw":
        if s.turn.drew == "start":
            return [rule_reason(v, "starter_discards", "deal")]
        template = "already_drew_discard_only" if discard_only(v, s) else None
        return [Reason("already_drew", v.rule("turn"), (), {}, True, template)]
    if action.source == "discard":
        if not s.discard:
            return [rule_reason(v, "discard_empty", "turn")]
        if s.turn.discard_attempted:
            return [help_reason("discard_take_again")]
    if action.source == "cut_card":
        if not v.cut_card:
            return [
                rule_reason(v, "no_cut_card_rule", "turn", variant=variant_words(v, ("cut_card",)))
            ]
        if s.turn.cut_attempted:
            return [rule_reason(v, "cut_card_second_attempt", "cut_card")]
        if s.cut_card is None:
            return [rule_reason(v, "cut_card_gone", "cut_card")]
    return []


def _hand_failures(v: Variant, s: State, cards: tuple[Card, ...]) -> list[Reason]:
    """The cards the player names but does not hold (H6, R4: they play from their hand)."""
    hand = s.hands[s.current]
    if len(cards) == 1 and cards[0] in hand:
        return []
    missing = missing_from(hand, cards)
    if missing:
        return [rule_reason(v, "card_not_in_hand", "turn", missing, cards=missing)]
    return []


def must_open_first(v: Variant, s: State, topic: str) -> list[Reason]:
    """Why a lay-off or joker exchange must wait: the seat has not opened (H8), and can't on
    its first turn (H9). Rommi has no threshold (R5): every seat has opened from the deal."""
    if opened(v, s, s.current):
        return []
    if v.opening_barred(s.turns[s.current]):
        return [rule_reason(v, "first_turn_no_opening", "first_turn")]
    code = "not_opened_layoff" if topic == "layoff" else "not_opened_exchange"
    return [rule_reason(v, code, "opening", threshold=v.opening_threshold)]


def _keeps_discard(v: Variant, s: State, cards_out: int) -> list[Reason]:
    """Where the last card must go by a discard (H12; Rommi's ``discard_to_win``, R7), a move
    may not empty the hand."""
    if v.discard_to_win and len(s.hands[s.current]) - cards_out < 1:
        return [
            rule_reason(
                v,
                "must_keep_discard",
                "going_out",
                variant=variant_words(v, ("discard_to_win",)),
            )
        ]
    return []


def _table_meld(s: State, index: int) -> list[Reason]:
    """The software's help when a move names a meld number that is not on the table."""
    if not 0 <= index < len(s.table):
        count = len(s.table)
        template = {0: "no_such_meld_none", 1: "no_such_meld_one"}.get(count)
        return [help_reason("no_such_meld", (), template, number=index + 1, count=count)]
    return []


def _onto_table_failures(
    v: Variant, s: State, cards: tuple[Card, ...], index: int, topic: str
) -> list[Reason]:
    """Why cards may not go onto meld ``index`` at all: not held, no such meld, or the seat
    has not opened (H8; a lay-off or an exchange, by ``topic``)."""
    return _hand_failures(v, s, cards) or _table_meld(s, index) or must_open_first(v, s, topic)


def _meld_failures(v: Variant, s: State, action: actions.PlayMeld) -> list[Reason]:
    """Why this new meld is refused: cards not held, the first turn (H9), not a meld (H4,
    R3), a joker's meaning left open (H5), the hand emptied when it may not be (H12, R7)."""
    failures = _hand_failures(v, s, action.cards)
    if failures:
        return failures
    if not s.opened[s.current] and v.opening_barred(s.turns[s.current]):
        return [rule_reason(v, "first_turn_no_opening", "first_turn")]
    choice = jokers_read(v, s, action)
    if choice is None:
        return list(check_meld(action.cards, v).failures)
    failures = list(choice.failures)
    return failures or _keeps_discard(v, s, len(action.cards)) or goes_out_ok(v, s, action)


def _layoff_failures(v: Variant, s: State, action: actions.LayOff) -> list[Reason]:
    """Why this lay-off is refused: cards not held or no such meld, not opened (H8), the
    meld not legal with the cards (H6 adds to melds on the table, R6 never rearranges them),
    a joker's meaning left open (H5), the hand emptied when it may not be (H12, R7)."""
    if not action.cards:
        return [help_reason("layoff_no_cards", (), None, meld=_meld_words(s, action.meld))]
    failures = _onto_table_failures(v, s, action.cards, action.meld, "layoff")
    if failures:
        return failures
    choice = jokers_read(v, s, action)
    if choice is None:
        verdict = check_layoff(s.table[action.meld].meld, action.cards, v)
        return list(verdict.failures)
    failures = list(choice.failures)
    return failures or _keeps_discard(v, s, len(action.cards)) or goes_out_ok(v, s, action)


def jokers_read(
    v: Variant, s: State, action: actions.PlayMeld | actions.LayOff
) -> JokerChoice | None:
    """How the referee reads the jokers of this meld or lay-off (H5): the reading the
    player's ``joker_as`` picks, or why none does, or ``None`` when the cards make no
    meld at all (the meld onto the table must be there: checked before)."""
    if isinstance(action, actions.PlayMeld):
        readings = meld_readings(action.cards, v)
    else:
        readings = layoff_readings(s.table[action.meld].meld, action.cards, v)
    if not readings:
        return None
    return joker_choice(v, readings, action.joker_as, action.cards)


def _meld_words(s: State, index: int) -> object:
    """A meld named for a sentence: its cards, or its number when there is none."""
    if 0 <= index < len(s.table):
        return s.table[index].meld.cards
    return render("meld_number", number=index + 1)


def _exchange_failures(v: Variant, s: State, action: actions.ExchangeJoker) -> list[Reason]:
    """Why this joker exchange is refused (H11): the variant has none, the card is not held
    or the meld not there, not opened (H8), no joker in the meld, a set's joker that stands
    for no one card yet, or not the card the joker stands for."""
    if not v.joker_exchange:
        return [
            rule_reason(
                v,
                "exchange_not_allowed",
                "joker_exchange",
                variant=variant_words(v, ("joker_exchange",)),
            )
        ]
    failures = _onto_table_failures(v, s, (action.card,), action.meld, "exchange")
    if failures:
        return failures
    meld = s.table[action.meld].meld
    jokers = [(i, rep) for i, (c, rep) in enumerate(zip(meld.cards, meld.represents)) if c.is_joker]
    if not jokers:
        return [rule_reason(v, "no_joker_in_meld", "joker_exchange", meld=meld.cards)]
    if any(rep == action.card for _, rep in jokers):
        return []
    if all(rep is None for _, rep in jokers):
        missing = list(meld.missing_suits())
        return [
            rule_reason(
                v,
                "joker_in_small_set",
                "joker_exchange",
                meld.cards,
                meld=meld.cards,
                choices=join(missing),
            )
        ]
    stands = sorted({rep for _, rep in jokers if rep is not None}, key=Card.sort_key)
    if len(stands) > 1:  # each joker stands for its own card: name them all
        return [
            Reason(
                "joker_wrong_card",
                v.rule("joker_exchange"),
                (action.card,),
                {
                    "meld": meld.cards,
                    "stands_for": join([render("the_card", card=c) for c in stands], "and"),
                    "card": action.card,
                },
                True,
                "jokers_wrong_card",
            )
        ]
    return [
        rule_reason(
            v,
            "joker_wrong_card",
            "joker_exchange",
            (action.card,),
            meld=meld.cards,
            stands_for=stands[0],
            card=action.card,
        )
    ]


def _discard_failures(v: Variant, s: State, action: actions.Discard) -> list[Reason]:
    """Why this discard is refused: the card is not held, or the turn may not end yet (the
    end-of-turn checks, :func:`rummykit.game.turn_end.end_failures`)."""
    failures = _hand_failures(v, s, (action.card,))
    if failures:
        return failures
    going_out = len(s.hands[s.current]) == 1
    return end_failures(v, s, going_out=going_out, discarding=action.card)
