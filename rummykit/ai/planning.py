"""What every level needs to read from an observation: unseen cards, public takes, the plan
for the rest of the turn, and how to find the legal action that carries out a step.

Agents use only the observation: their own hand, what is public, and the legal actions.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence

from rummykit.cards import Card
from rummykit.game.actions import Action, Discard, ExchangeJoker, LayOff, PlayMeld
from rummykit.game.observation import Observation
from rummykit.melds import Meld, layoff_readings
from rummykit.solver import Opening, best_arrangement, best_opening, can_go_out

__all__ = [
    "find_legal",
    "meld_action",
    "next_seat",
    "public_takes",
    "seeded_rng",
    "turn_events",
    "unseen_cards",
]


def next_seat(obs: Observation) -> int:
    """The seat that plays after this one (clockwise, H2)."""
    return (obs.seat + 1) % obs.players


def unseen_cards(obs: Observation) -> list[Card]:
    """Every card this seat has not seen: the deck less its hand and every public card."""
    seen: Counter[Card] = Counter(obs.hand)
    seen.update(obs.discard_pile)
    for tm in obs.table:
        seen.update(tm.meld.cards)
    if obs.cut_card is not None:
        seen[obs.cut_card] += 1
    return list((Counter(obs.variant.deck()) - seen).elements())


def public_takes(obs: Observation, seat: int) -> list[Card]:
    """Cards ``seat`` took from the discard pile this round (public: everyone saw them)."""
    from rummykit.cards import parse_card

    return [
        parse_card(e.params["card"])
        for e in obs.history
        if e.seat == seat and e.code == "draw_discard"
    ]


def public_discards(obs: Observation, seat: int) -> list[Card]:
    """Cards ``seat`` discarded this round."""
    from rummykit.cards import parse_card

    return [
        parse_card(e.params["card"]) for e in obs.history if e.seat == seat and e.code == "discard"
    ]


def turn_events(obs: Observation) -> list[str]:
    """The event codes of the turn in progress (this seat's, since its last discard)."""
    codes: list[str] = []
    for e in reversed(obs.history):
        if e.seat != obs.seat or e.code == "discard":
            break
        codes.append(e.code)
    return codes[::-1]


def first_draw(obs: Observation) -> bool:
    """Whether this seat has not drawn yet this round (H7: the first take may be kept)."""
    return not any(e.seat == obs.seat and e.code.startswith("draw_") for e in obs.history)


def taken_this_turn(obs: Observation) -> Card | None:
    """The card this seat took from the discard pile in the turn in progress, if any."""
    from rummykit.cards import parse_card

    for e in reversed(obs.history):
        if e.seat != obs.seat or e.code == "discard":
            return None
        if e.code == "draw_discard":
            return parse_card(e.params["card"])
    return None


def seeded_rng(obs: Observation, salt: str = "") -> random.Random:
    """A random source fixed by what the seat sees — the same observation, the same choices."""
    text = f"{salt}|{obs.seat}|{len(obs.history)}|{' '.join(map(str, obs.hand))}"
    return random.Random(zlib.crc32(text.encode()))


def meld_action(meld: Meld) -> PlayMeld:
    """The action that lays down this meld, saying what a run's joker stands for."""
    joker_as = None
    if meld.is_run:
        reps = [rep for c, rep in zip(meld.cards, meld.represents) if c.is_joker]
        joker_as = reps[0] if len(reps) == 1 else None
    return PlayMeld(meld.cards, joker_as)


def _key(action: Action) -> tuple[object, ...]:
    if isinstance(action, PlayMeld):
        return ("meld", tuple(sorted(Counter(action.cards).items(), key=lambda kv: str(kv[0]))))
    if isinstance(action, LayOff):
        return ("layoff", tuple(sorted(map(str, action.cards))), action.meld, action.joker_as)
    return (action.kind, action)


def find_legal(obs: Observation, wanted: Action) -> Action | None:
    """The legal action that does what ``wanted`` does (card order aside), if there is one."""
    if wanted in obs.legal_actions:
        return wanted
    key = _key(wanted)
    for action in obs.legal_actions:
        if _key(action) == key:
            if (
                isinstance(wanted, PlayMeld)
                and isinstance(action, PlayMeld)
                and wanted.joker_as is not None
                and action.joker_as not in (None, wanted.joker_as)
            ):
                continue
            return action
    return None


def legal_of(obs: Observation, kind: type[Action]) -> list[Action]:
    """The legal actions of one kind."""
    return [a for a in obs.legal_actions if isinstance(a, kind)]


def table_melds(obs: Observation) -> list[Meld]:
    """The melds on the table."""
    return [tm.meld for tm in obs.table]


def may_open_this_turn(obs: Observation) -> bool:
    """Whether this seat may lay down its opening now (H9: not on its very first turn)."""
    v = obs.variant
    return obs.opened[obs.seat] or not (v.no_opening_first_turn and obs.turns[obs.seat] == 0)


def opening_plan(obs: Observation, hand: Sequence[Card]) -> Opening:
    """The best opening from ``hand`` (H8)."""
    return best_opening(list(hand), obs.variant)


def going_out_moves(obs: Observation, hand: Sequence[Card]) -> list[Action] | None:
    """The moves that empty the hand this turn (melds, lay-offs, final discard), if any."""
    v = obs.variant
    if not may_open_this_turn(obs):
        return None
    opened = obs.opened[obs.seat]
    table = table_melds(obs) if opened else []
    result = can_go_out(list(hand), v, table)
    if not result.ok:
        return None
    if not opened and v.opening_threshold:
        points = sum(m.points(v) for m in result.melds) + obs.turn.meld_points
        if points < v.opening_threshold:
            return None
    moves: list[Action] = [meld_action(m) for m in result.melds]
    moves += [LayOff(lay.cards, lay.index) for lay in result.layoffs]
    if result.discard is not None:
        moves.append(Discard(result.discard))
    return moves


def arrangement_melds(obs: Observation, hand: Sequence[Card]) -> list[Meld]:
    """The melds of the least-deadwood arrangement of ``hand`` keeping a card to discard."""
    return list(best_arrangement(list(hand), obs.variant, discard=True).melds)


def layoff_moves(obs: Observation, cards: Iterable[Card]) -> list[Action]:
    """Legal single-card lay-offs of these cards."""
    wanted = set(cards)
    return [a for a in legal_of(obs, LayOff) if isinstance(a, LayOff) and a.cards[0] in wanted]


def exchange_moves(obs: Observation) -> list[ExchangeJoker]:
    """Legal joker exchanges."""
    return [a for a in obs.legal_actions if isinstance(a, ExchangeJoker)]


def fits_table(obs: Observation, card: Card) -> bool:
    """Whether ``card`` could be laid off onto some meld on the table."""
    return any(layoff_readings(tm.meld, (card,), obs.variant) for tm in obs.table)
