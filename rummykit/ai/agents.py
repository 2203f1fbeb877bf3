"""The computer opponents: easy, normal and hard (R12), for both variants.

Every agent implements one method, ``decide(observation) -> Decision``. It sees only the
observation of its seat (its hand, the public table and history, the legal actions) and
returns one of the legal actions with the trace of why.

- **Easy** lays every meld it can make now and discards its highest-value single card.
- **Normal** also values partial melds (pairs, two-card runs, a joker's future) and avoids
  discards the next player can use (what that player took and what the table shows).
- **Hard** remembers every public take and discard, and minimises deadwood with a bounded
  search over draw and discard options using the exact solver, estimating what the unseen
  cards may bring.

All three handle the Hungarian opening (H8, H9), the discard-take obligation (H7), the cut
card (H10: taken only when it lets them go out) and jokers (H11); in Rommi they honour
``discard_to_win`` and ``ace_high`` because the solver and the referee do.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from rummykit.ai import planning as plan
from rummykit.ai.trace import Candidate, Decision, Note, Trace
from rummykit.cards import ACE, JOKER, Card, format_cards
from rummykit.game.actions import (
    Action,
    Cut,
    Discard,
    Draw,
    ExchangeJoker,
    LayOff,
    ReturnCutCard,
    Undo,
)
from rummykit.game.observation import Observation
from rummykit.solver import best_arrangement, best_opening, min_deadwood

__all__ = ["LEVELS", "Agent", "EasyAgent", "HardAgent", "NormalAgent", "make_agent"]


@runtime_checkable
class Agent(Protocol):
    """Anything with a ``name`` and ``decide(observation) -> Decision`` can sit at the table."""

    name: str

    def decide(self, obs: Observation) -> Decision:
        """Choose one of ``obs.legal_actions``, with the reasoning."""
        ...


class BaseAgent(ABC):
    """The turn logic every level shares; the levels differ in how they judge options."""

    name = "base"

    # --- the protocol ------------------------------------------------------------------

    def decide(self, obs: Observation) -> Decision:
        """Choose a legal action for ``obs.seat`` and explain it."""
        if not obs.legal_actions:
            raise ValueError("no legal actions: it is not this seat's turn")
        self._steps: list[Note] = []
        self._candidates: list[Candidate] = []
        if obs.phase == "cut":
            action, why = self._cut(obs)
        elif obs.phase == "draw":
            action, why = self._draw(obs)
        else:
            action, why = self._play(obs)
        if action not in obs.legal_actions:  # never play anything the referee did not offer
            action, why = obs.legal_actions[0], Note("ai_fallback")
        trace = Trace(self.name, obs.seat, tuple(self._steps), tuple(self._candidates), action, why)
        return Decision(action, trace)

    def step(self, code: str, shown: Sequence[Card] = (), /, **params: object) -> None:
        """Record one line of reasoning (``shown``: the cards to draw beside it)."""
        self._steps.append(Note(code, dict(params), tuple(shown)))

    # --- the cut -------------------------------------------------------------------------

    def _cut(self, obs: Observation) -> tuple[Action, Note]:
        heights = [a for a in obs.legal_actions if isinstance(a, Cut)]
        action = heights[len(heights) // 2]
        return action, Note("ai_cut_middle")

    # --- drawing -------------------------------------------------------------------------

    def _draw(self, obs: Observation) -> tuple[Action, Note]:
        hand = list(obs.hand)
        if Draw("cut_card") in obs.legal_actions and obs.cut_card is not None:
            moves = plan.going_out_moves(obs, [*hand, obs.cut_card])
            if moves:
                self.step("ai_cut_goes_out", (obs.cut_card,), card=obs.cut_card)
                return Draw("cut_card"), Note("ai_why_cut", {"card": obs.cut_card})
            self.step("ai_cut_not_out", (obs.cut_card,), card=obs.cut_card)
        top = obs.discard_top
        if top is not None and Draw("discard") in obs.legal_actions:
            if plan.going_out_moves(obs, [*hand, top]):
                self.step("ai_discard_goes_out", (top,), card=top)
                return Draw("discard"), Note("ai_why_discard_out", {"card": top})
            if top in plan.public_discards(obs, obs.seat):
                self.step("ai_discard_mine", (top,), card=top)
                return Draw("stock"), Note("ai_why_stock")
            usable = self._discard_usable(obs, top)
            if usable:
                take, note = self.judge_discard_take(obs, top)
                if take:
                    return Draw("discard"), note
            else:
                self.step("ai_discard_unusable", (top,), card=top)
        return Draw("stock"), Note("ai_why_stock")

    def _discard_usable(self, obs: Observation, top: Card) -> bool:
        """Can the top discard be taken without breaking H7's obligation?"""
        v = obs.variant
        if not v.discard_take_must_play or (v.first_draw_keeps_discard and plan.first_draw(obs)):
            return True
        hand = [*obs.hand, top]
        if obs.opened[obs.seat]:
            if top in {c for m in plan.arrangement_melds(obs, hand) for c in m.cards}:
                return True
            return plan.fits_table(obs, top)
        if not plan.may_open_this_turn(obs):
            return False
        opening = best_opening(hand, v)
        return opening.ok and top in {c for m in opening.melds for c in m.cards}

    @abstractmethod
    def judge_discard_take(self, obs: Observation, top: Card) -> tuple[bool, Note]:
        """Whether to take the top discard instead of drawing from the stock."""

    # --- playing -------------------------------------------------------------------------

    def _play(self, obs: Observation) -> tuple[Action, Note]:
        hand = list(obs.hand)
        undoing = any(c in ("undo", "return_cut") for c in plan.turn_events(obs))
        discards = [a for a in obs.legal_actions if isinstance(a, Discard)]
        cut = obs.turn.cut_taken
        can_return = ReturnCutCard() in obs.legal_actions
        if cut is not None and can_return and not plan.going_out_moves(obs, hand):
            self.step("ai_return_cut", (cut,), card=cut)
            return ReturnCutCard(), Note("ai_why_return_cut")
        if not undoing:
            move = self._next_move(obs, hand)
            if move is not None:
                return move
        if not discards:
            for action in (Undo(), ReturnCutCard()):
                if action in obs.legal_actions:
                    self.step("ai_stuck")
                    return action, Note("ai_why_undo")
        if not discards:
            return obs.legal_actions[0], Note("ai_fallback")
        return self._choose_discard(obs, discards)

    def _next_move(self, obs: Observation, hand: list[Card]) -> tuple[Action, Note] | None:
        v = obs.variant
        # 1. going out this turn beats everything
        moves = plan.going_out_moves(obs, hand)
        if moves:
            self.step("ai_can_go_out")
            for move in moves:
                legal = plan.find_legal(obs, move)
                if legal is not None:
                    return legal, Note("ai_why_go_out")
                if isinstance(move, LayOff):
                    for card in move.cards:
                        single = plan.find_legal(obs, LayOff((card,), move.meld))
                        if single is not None:
                            return single, Note("ai_why_go_out")
        # 2. the opening (H8)
        if not obs.opened[obs.seat] and v.opening_threshold:
            if not plan.may_open_this_turn(obs):
                self.step("ai_first_turn")
                return None
            opening = best_opening(hand, v)
            needed = v.opening_threshold - obs.turn.meld_points
            started = bool(obs.turn.new_melds)
            if opening.points >= needed and opening.melds and (started or self.open_now(obs)):
                self.step(
                    "ai_opening",
                    [c for m in opening.melds for c in m.cards],
                    points=opening.points + obs.turn.meld_points,
                    threshold=v.opening_threshold,
                )
                legal = plan.find_legal(obs, plan.meld_action(opening.melds[0]))
                if legal is not None:
                    return legal, Note("ai_why_open")
            elif not started:
                self.step("ai_cannot_open", points=opening.points, threshold=v.opening_threshold)
            if not self._opened_now(obs):
                return None
        # 3. opened: melds of the best arrangement, then lay-offs, then joker exchanges
        if self.lays_melds(obs):
            for meld in plan.arrangement_melds(obs, hand):
                legal = plan.find_legal(obs, plan.meld_action(meld))
                if legal is not None:
                    self.step("ai_meld", meld.cards, cards=meld.cards)
                    return legal, Note("ai_why_meld")
        deadwood = best_arrangement(hand, v, discard=True).deadwood
        for lay in plan.layoff_moves(obs, deadwood):
            if isinstance(lay, LayOff):
                self.step("ai_layoff", lay.cards, cards=lay.cards, meld=lay.meld)
                return lay, Note("ai_why_layoff")
        exchange = self.choose_exchange(obs, hand)
        if exchange is not None:
            return exchange, Note("ai_why_exchange")
        return None

    def _opened_now(self, obs: Observation) -> bool:
        return bool(obs.turn.new_melds) and obs.turn.meld_points >= obs.variant.opening_threshold

    def open_now(self, obs: Observation) -> bool:
        """Whether to lay the opening down as soon as it is possible (default: yes)."""
        return True

    def lays_melds(self, obs: Observation) -> bool:
        """Whether to lay down melds as soon as they are made (default: yes)."""
        return True

    def choose_exchange(self, obs: Observation, hand: list[Card]) -> ExchangeJoker | None:
        """A joker exchange worth making now (default: none)."""
        return None

    def _choose_discard(self, obs: Observation, discards: list[Discard]) -> tuple[Action, Note]:
        self._candidates = self.score_discards(obs, discards)
        taken = plan.taken_this_turn(obs)
        if taken is not None:  # throwing back what was just taken gains nothing
            self._candidates = [
                Candidate(c.action, c.score - 200, (*c.notes, Note("ai_note_just_taken")))
                if isinstance(c.action, Discard) and c.action.card == taken
                else c
                for c in self._candidates
            ]
        order = {c.action: i for i, c in enumerate(self._candidates)}
        best = max(self._candidates, key=lambda c: (c.score, -order[c.action]))
        card = best.action.card if isinstance(best.action, Discard) else None
        return best.action, Note("ai_why_discard", {"card": card, "score": f"{best.score:.1f}"})

    @abstractmethod
    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        """Score each legal discard (higher is better to throw away)."""


# --- the three levels ----------------------------------------------------------------------


class EasyAgent(BaseAgent):
    """Lays every meld it can make now; discards its highest-value single card (R12)."""

    name = "easy"

    def judge_discard_take(self, obs: Observation, top: Card) -> tuple[bool, Note]:
        melds = plan.arrangement_melds(obs, [*obs.hand, top])
        if any(top in m.cards for m in melds):
            self.step("ai_discard_makes_meld", (top,), card=top)
            return True, Note("ai_why_discard_meld", {"card": top})
        self.step("ai_discard_no_meld", (top,), card=top)
        return False, Note("ai_why_stock")

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        v = obs.variant
        arrangement = best_arrangement(list(obs.hand), v, discard=True)
        single = Counter(arrangement.deadwood)
        out = []
        for d in discards:
            value = v.card_value(d.card)
            if single[d.card]:
                notes = (Note("ai_note_single", {"card": d.card, "value": value}),)
                score = float(value)
            else:
                notes = (Note("ai_note_in_meld", {"card": d.card}),)
                score = value - 100.0
            out.append(Candidate(d, score, notes))
        return out


class NormalAgent(BaseAgent):
    """Values partial melds and avoids feeding the next player (R12)."""

    name = "normal"

    def judge_discard_take(self, obs: Observation, top: Card) -> tuple[bool, Note]:
        v = obs.variant
        now = min_deadwood(list(obs.hand), v)
        after = min_deadwood([*obs.hand, top], v, discard=True)
        gain = now - after
        self.step("ai_discard_gain", (top,), card=top, gain=gain)
        if gain >= 5 or (gain > 0 and partners(obs.hand, top) >= 2):
            return True, Note("ai_why_discard_gain", {"card": top, "gain": gain})
        return False, Note("ai_why_stock")

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        v = obs.variant
        hand = list(obs.hand)
        arrangement = best_arrangement(hand, v, discard=True)
        single = Counter(arrangement.deadwood)
        nxt = plan.next_seat(obs)
        taken = plan.public_takes(obs, nxt)
        out = []
        for d in discards:
            c = d.card
            value = float(v.card_value(c))
            notes = [Note("ai_note_value", {"card": c, "value": v.card_value(c)})]
            score = value
            if not single[c]:
                score -= 100
                notes.append(Note("ai_note_in_meld", {"card": c}))
            if c.is_joker:
                score -= 60
                notes.append(Note("ai_note_joker_future"))
            near = partners(hand, c)
            if near:
                score -= 4 * near
                notes.append(Note("ai_note_partners", {"card": c, "count": near}))
            else:
                notes.append(Note("ai_note_no_partner", {"card": c}))
            if _wanted_by(obs, nxt, c, taken):
                score -= 8
                notes.append(Note("ai_note_feeds", {"card": c, "seat": nxt}))
            else:
                notes.append(Note("ai_note_safe", {"seat": nxt}))
            out.append(Candidate(d, score, tuple(notes)))
        return out

    def choose_exchange(self, obs: Observation, hand: list[Card]) -> ExchangeJoker | None:
        for ex in plan.exchange_moves(obs):
            rest = list(hand)
            rest.remove(ex.card)
            rest.append(JOKER)
            melds = plan.arrangement_melds(obs, rest)
            if any(c.is_joker for m in melds for c in m.cards):
                self.step("ai_exchange", (ex.card,), card=ex.card, meld=ex.meld)
                return ex
        return None


class HardAgent(NormalAgent):
    """Remembers public cards and searches draw and discard options with the solver (R12)."""

    name = "hard"
    samples = 12

    def _expected(self, obs: Observation, hand: list[Card], salt: str) -> float:
        """Expected least deadwood after one more unseen card (sampled, seeded)."""
        v = obs.variant
        unseen = plan.unseen_cards(obs)
        if not unseen:
            return float(min_deadwood(hand, v))
        rng = plan.seeded_rng(obs, salt)
        pool = rng.sample(unseen, min(self.samples, len(unseen)))
        return sum(min_deadwood([*hand, x], v, discard=True) for x in pool) / len(pool)

    def judge_discard_take(self, obs: Observation, top: Card) -> tuple[bool, Note]:
        v = obs.variant
        hand = list(obs.hand)
        take = float(min_deadwood([*hand, top], v, discard=True))
        stock = self._expected(obs, hand, "draw")
        self.step("ai_compare_draws", (top,), card=top, take=f"{take:.1f}", stock=f"{stock:.1f}")
        self._candidates = [
            Candidate(
                Draw("discard"), -take, (Note("ai_note_deadwood_after", {"value": f"{take:.1f}"}),)
            ),
            Candidate(
                Draw("stock"), -stock, (Note("ai_note_expected", {"value": f"{stock:.1f}"}),)
            ),
        ]
        if take + 1.0 < stock:
            return True, Note("ai_why_discard_gain", {"card": top, "gain": f"{stock - take:.1f}"})
        return False, Note("ai_why_stock_expected")

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        v = obs.variant
        hand = list(obs.hand)
        nxt = plan.next_seat(obs)
        taken = plan.public_takes(obs, nxt)
        dead = set(best_arrangement(hand, v, discard=True).deadwood)
        shortlist = [d for d in discards if d.card in dead] or discards
        if len(shortlist) > 6:  # bound the search: the six most expensive single cards
            shortlist = sorted(shortlist, key=lambda d: -v.card_value(d.card))[:6]
        self.step("ai_memory", seat=nxt, cards=format_cards(taken) or "—", count=len(taken))
        out = []
        for d in discards:
            rest = list(hand)
            rest.remove(d.card)
            now = float(min_deadwood(rest, v))
            notes = [Note("ai_note_deadwood_after", {"value": f"{now:.0f}"})]
            if d in shortlist:
                future = self._expected(obs, rest, str(d.card))
                notes.append(Note("ai_note_expected", {"value": f"{future:.1f}"}))
                score = -(0.4 * now + 0.6 * future)
            else:
                score = -now - 50.0
            if d.card.is_joker:
                score -= 40
                notes.append(Note("ai_note_joker_future"))
            if _wanted_by(obs, nxt, d.card, taken):
                score -= 6
                notes.append(Note("ai_note_feeds", {"card": d.card, "seat": nxt}))
            out.append(Candidate(d, score, tuple(notes)))
        return out


def partners(hand: Sequence[Card], card: Card) -> int:
    """How many cards in hand could make a meld with ``card`` (same rank, or suit ±2)."""
    if card.is_joker:
        return 0
    count = 0
    for other in hand:
        if other is card or other.is_joker or other == card:
            continue
        if other.rank == card.rank or (
            other.suit == card.suit and _gap(other.rank, card.rank) <= 2
        ):
            count += 1
    return count


def _gap(a: int, b: int) -> int:
    d = abs(a - b)
    if ACE in (a, b):
        d = min(d, abs((14 if a == ACE else a) - (14 if b == ACE else b)))
    return d


def _wanted_by(obs: Observation, seat: int, card: Card, taken: list[Card]) -> bool:
    """Whether ``seat`` has shown it wants cards like this one (or can lay it off)."""
    if card.is_joker:
        return True
    if any(
        t.rank == card.rank or (t.suit == card.suit and _gap(t.rank, card.rank) <= 2) for t in taken
    ):
        return True
    return obs.opened[seat] and plan.fits_table(obs, card)


LEVELS: dict[str, type[BaseAgent]] = {"easy": EasyAgent, "normal": NormalAgent, "hard": HardAgent}


def make_agent(level: str) -> BaseAgent:
    """An agent by level name: ``easy``, ``normal`` or ``hard``."""
    try:
        return LEVELS[level.strip().lower()]()
    except KeyError:
        from rummykit.messages import render

        raise ValueError(render("unknown_level", name=level, choices=", ".join(LEVELS))) from None
