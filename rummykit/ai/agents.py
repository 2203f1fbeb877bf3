"""The computer opponents: easy, normal and hard (R12), for both variants.

Every agent implements one method, ``decide(observation) -> Decision``. It sees only the
observation of its seat (its hand, the public table and history, the legal actions) and
returns one of the legal actions with the trace of why.

- **Easy** (a beginner) lays every meld it can make now and discards its highest-value
  single card. It takes the discard only to complete a meld (and never before its opening),
  and lays off only onto its own melds, unless that takes it out.
- **Normal** also values partial melds (pairs and two-card runs whose missing card is still
  unseen, a joker's future) and avoids discards the next player can use (what that player
  took, what it can lay off). Before its opening it takes the discard only on its first
  draw, when the card may simply be kept (H7).
- **Hard** remembers every public take and discard (and which cards each player is known to
  hold), and minimises deadwood with a bounded search over its draw and discard options
  using the exact solver, estimating what the unseen cards may bring and what its discard
  would give the next player. It takes a discard that completes its opening, and without an
  opening rule keeps its melds in hand while nobody is close to going out.

All three go out whenever they can, handle the Hungarian opening (H8, H9), the discard-take
obligation (H7), the cut card (H10: taken only when it lets them go out) and jokers (H11:
an exchanged joker is played again at once); in Rommi they honour ``discard_to_win`` and
``ace_high`` because the solver and the referee do.
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
            if (
                plan.last_draw(obs)
                and self._discard_usable(obs, top)
                and not self.ends_the_deal(obs)
            ):
                return Draw("discard"), Note("ai_why_keep_going", {"card": top})
            if top in plan.public_discards(obs, obs.seat):
                self.step("ai_discard_mine", (top,), card=top)
                return Draw("stock"), Note("ai_why_stock")
            unopened = obs.variant.opening_threshold and not obs.opened[obs.seat]
            if unopened and not self.takes_before_opening(obs):
                self.step("ai_no_take_before_opening", (top,), card=top)
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
        melds = plan.arrangement_melds(obs, hand)
        if melds and self.lays_melds(obs):
            for meld in melds:
                legal = plan.find_legal(obs, plan.meld_action(meld))
                if legal is not None:
                    self.step("ai_meld", meld.cards, cards=meld.cards)
                    return legal, Note("ai_why_meld")
        deadwood = best_arrangement(hand, v).deadwood  # every card outside a meld
        for lay in plan.layoff_moves(obs, deadwood):
            if isinstance(lay, LayOff) and self.lays_off_onto(obs, lay.meld):
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

    def lays_off_onto(self, obs: Observation, meld: int) -> bool:
        """Whether to lay cards off onto table meld number ``meld`` (default: any meld)."""
        return True

    def takes_before_opening(self, obs: Observation) -> bool:
        """Whether to consider the discard pile before this seat has opened (H7, H8)."""
        return True

    def ends_the_deal(self, obs: Observation) -> bool:
        """With the stock empty, whether to ask it for a card all the same — which ends the
        deal (R10, H15) — rather than take the discard (default: yes)."""
        return True

    def choose_exchange(self, obs: Observation, hand: list[Card]) -> ExchangeJoker | None:
        """A joker exchange worth making now (H11): when the joker, back in hand, makes a meld
        with my cards — so it goes straight back onto the table."""
        for ex in plan.exchange_moves(obs):
            rest = list(hand)
            rest.remove(ex.card)
            rest.append(JOKER)
            melds = plan.arrangement_melds(obs, rest)
            if any(c.is_joker for m in melds for c in m.cards):
                self.step("ai_exchange", (ex.card,), card=ex.card, meld=ex.meld)
                return ex
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

    def lays_off_onto(self, obs: Observation, meld: int) -> bool:
        """Only onto its own melds: easy doesn't study the other players' melds (it still
        lays off anywhere when that takes it out)."""
        return obs.table[meld].owner == obs.seat

    def takes_before_opening(self, obs: Observation) -> bool:
        """Never: before its opening easy draws from the stock (H7's duty stays away)."""
        return False

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        v = obs.variant
        single = Counter(best_arrangement(list(obs.hand), v).deadwood)
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

    out_weight = 2.5  # points of deadwood one live out is worth keeping for
    feed_penalty = 8.0  # points of deadwood worth keeping rather than feed the next player

    def takes_before_opening(self, obs: Observation) -> bool:
        """Only on the first draw, when the card may simply be kept (H7): taking a card to
        open with is hard's move."""
        return obs.variant.first_draw_keeps_discard and plan.first_draw(obs)

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        v = obs.variant
        hand = list(obs.hand)
        arrangement = best_arrangement(hand, v)
        single = Counter(arrangement.deadwood)
        unseen = plan.unseen_counts(obs)
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
            else:
                outs = plan.live_outs(c, arrangement.deadwood, unseen, v)
                if outs:
                    score -= self.out_weight * outs
                    notes.append(Note("ai_note_outs", {"card": c, "count": outs}))
                else:
                    notes.append(Note("ai_note_no_partner", {"card": c}))
            if _wanted_by(obs, nxt, c, taken):
                score -= self.feed_penalty
                notes.append(Note("ai_note_feeds", {"card": c, "seat": nxt}))
            else:
                notes.append(Note("ai_note_safe", {"seat": nxt}))
            out.append(Candidate(d, score, tuple(notes)))
        return out


class HardAgent(NormalAgent):
    """Remembers public cards and searches draw and discard options with the solver (R12)."""

    name = "hard"
    shortlist = 5  # discards searched in full (the rest are clearly worse)
    opening_shortlist = 4  # the same before the opening
    samples = 24  # hands dealt to the next player to see what a discard would give them
    opening_samples = 8  # ... and before its opening, where each look costs more
    threat_size = 6  # ... when it holds this many cards or fewer
    hold_until = 3  # without an opening rule: melds stay in hand until someone is this close

    def decide(self, obs: Observation) -> Decision:
        """Choose a legal action for ``obs.seat`` and explain it."""
        self.out_bonus = self._out_value(obs)
        return super().decide(obs)

    def _out_value(self, obs: Observation) -> float:
        """What going out is worth, in points of deadwood: what the others would be left
        paying (a flat penalty for an unopened hand, else its likely value), plus the
        bonus for going out."""
        v = obs.variant
        unseen = plan.unseen_cards(obs)
        mean = sum(v.card_value(c) for c in unseen) / len(unseen) if unseen else 5.0
        values = []
        for seat in range(obs.players):
            if seat == obs.seat:
                continue
            if v.unopened_penalty and v.opening_threshold and not obs.opened[seat]:
                values.append(float(v.unopened_penalty))
            else:
                known = plan.known_hand(obs, seat)
                rest = max(0, obs.hand_sizes[seat] - len(known))
                values.append(sum(v.card_value(c) for c in known) + rest * mean)
        if v.low_score_wins:  # every other seat pays: count the average against my −10
            return sum(values) / len(values) - v.go_out_points
        return sum(values)  # the winner takes it all (R8)

    def _end_chance(self, obs: Observation) -> float:
        """How likely the round ends before this seat's next turn (someone goes out)."""
        if obs.stock_size < obs.players and not obs.variant.reshuffle_discards:
            return 0.9
        chance = 0.0
        for seat in range(obs.players):
            if seat == obs.seat:
                continue
            size = obs.hand_sizes[seat]
            if obs.variant.opening_threshold and not obs.opened[seat]:
                chance += 0.01
            else:
                chance += {1: 0.35, 2: 0.25, 3: 0.15, 4: 0.1}.get(size, 0.04)
        return min(chance, 0.9)

    def lays_melds(self, obs: Observation) -> bool:
        """Without an opening rule, keep melds in hand while nobody is close to going out:
        on the table they would give the others places to lay off (R6)."""
        if obs.variant.opening_threshold:
            return True
        closest = min(obs.hand_sizes[s] for s in range(obs.players) if s != obs.seat)
        if closest > self.hold_until:
            self.step("ai_hold_melds", count=closest)
            return False
        return True

    def takes_before_opening(self, obs: Observation) -> bool:
        """Whether to consider the discard pile before this seat has opened (H7, H8)."""
        return True

    def ends_the_deal(self, obs: Observation) -> bool:
        """End the deal from the empty stock only when my hand is likely the lowest."""
        v = obs.variant
        mine = sum(v.card_value(c) for c in obs.hand)
        unseen = plan.unseen_cards(obs)
        mean = sum(v.card_value(c) for c in unseen) / len(unseen) if unseen else 5.0
        others = [
            obs.hand_sizes[s] * mean for s in range(obs.players) if s != obs.seat
        ]  # fmt: skip
        lowest = mine <= min(others)
        self.step("ai_empty_stock", mine=mine, others=f"{min(others):.0f}")
        return lowest

    def judge_discard_take(self, obs: Observation, top: Card) -> tuple[bool, Note]:
        look = plan.Outlook(obs, out_bonus=self.out_bonus)
        hand = list(obs.hand)
        v = obs.variant
        if v.opening_threshold and not obs.opened[obs.seat]:
            before = look.opening(hand)
            after = look.opening([*hand, top])
            self.step(
                "ai_opening_with", (top,), card=top, before=before, after=after,
                threshold=v.opening_threshold,
            )  # fmt: skip
            if after > before or top.is_joker:
                return True, Note("ai_why_discard_opening", {"card": top})
            return False, Note("ai_why_stock")
        take = float(look.deadwood([*hand, top], discard=True))
        stock, _ = look.expected(hand)
        self.step("ai_compare_draws", (top,), card=top, take=f"{take:.1f}", stock=f"{stock:.1f}")
        self._candidates = [
            Candidate(
                Draw("discard"), -take, (Note("ai_note_deadwood_after", {"value": f"{take:.1f}"}),)
            ),
            Candidate(
                Draw("stock"), -stock, (Note("ai_note_expected", {"value": f"{stock:.1f}"}),)
            ),
        ]
        if take < stock:
            return True, Note("ai_why_discard_gain", {"card": top, "gain": f"{stock - take:.1f}"})
        return False, Note("ai_why_stock_expected")

    def _next_hands(self, obs: Observation, count: int) -> list[list[Card]]:
        """Hands the next player may hold: the cards it is known to hold (taken in full
        view, not played since) and the rest dealt, seeded, from the cards this seat has
        not seen."""
        nxt = plan.next_seat(obs)
        size = obs.hand_sizes[nxt]
        known = plan.known_hand(obs, nxt)[:size]
        pool = plan.unseen_cards(obs)
        for card in known:
            if card in pool:
                pool.remove(card)
        if len(pool) < size - len(known):
            return []
        if known:
            self.step("ai_known_hand", known, seat=nxt, cards=known)
        rng = plan.seeded_rng(obs, "threats")
        return [known + rng.sample(pool, size - len(known)) for _ in range(count)]

    def threats(self, obs: Observation, cards: Sequence[Card]) -> dict[Card, float]:
        """For each card, the chance that the next player takes it from the discard pile
        and goes out with it (or, before its opening, opens with it: H7, H8)."""
        nxt = plan.next_seat(obs)
        v = obs.variant
        if v.opening_threshold and not obs.opened[nxt]:
            if v.no_opening_first_turn and obs.turns[nxt] == 0:
                return {}
            return self.opening_threats(obs, cards)
        if obs.hand_sizes[nxt] > self.threat_size:
            return {}
        hands = self._next_hands(obs, self.samples)
        if not hands:
            return {}
        look = plan.Outlook(obs, seat=nxt)
        return {
            card: sum(look.after_draw(h, card) == 0 for h in hands) / len(hands)
            for card in dict.fromkeys(cards)
        }

    def opening_threats(self, obs: Observation, cards: Sequence[Card]) -> dict[Card, float]:
        """For each card, the chance that it lets the (unopened) next player open now."""
        hands = self._next_hands(obs, self.opening_samples)
        if not hands:
            return {}
        v = obs.variant
        look = plan.Outlook(obs, seat=plan.next_seat(obs))
        closed = [h for h in hands if look.opening(h) < v.opening_threshold]
        out = {}
        for card in dict.fromkeys(cards):
            opens = sum(
                look.opening([*h, card]) >= v.opening_threshold
                for h in closed
                if card.is_joker or card in plan.completers(h, v)
            )
            out[card] = opens / len(hands)
        return out

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        if obs.variant.opening_threshold and not obs.opened[obs.seat]:
            return self._before_opening(obs, discards)
        hand = list(obs.hand)
        look = plan.Outlook(obs, out_bonus=self.out_bonus)
        nxt = plan.next_seat(obs)
        taken = plan.public_takes(obs, nxt)
        end = self._end_chance(obs)
        if taken:
            self.step("ai_memory", taken, seat=nxt, cards=format_cards(taken), count=len(taken))
        rows = []
        for d in discards:
            rest = list(hand)
            rest.remove(d.card)
            rows.append((d, rest, look.deadwood(rest)))
        rows.sort(key=lambda r: r[2])
        threats = self.threats(obs, [d.card for d, _, _ in rows[: self.shortlist]])
        out = []
        for i, (d, rest, now) in enumerate(rows):
            notes = [Note("ai_note_deadwood_after", {"value": now})]
            if i < self.shortlist:
                future, chance = look.expected(rest)
                notes.append(Note("ai_note_expected", {"value": f"{future:.1f}"}))
                if chance:
                    notes.append(Note("ai_note_out_chance", {"chance": f"{100 * chance:.0f}"}))
                score = -(end * now + (1 - end) * future)
            else:
                score = -now - 50.0
            if d.card.is_joker:
                score -= 40
                notes.append(Note("ai_note_joker_future"))
            threat = threats.get(d.card, 0.0)
            if threat:
                score -= threat * self._threat_cost(obs, now)
                pct = f"{100 * threat:.0f}"
                notes.append(Note(self._threat_note(obs), {"seat": nxt, "chance": pct}))
            elif _wanted_by(obs, nxt, d.card, taken):
                score -= 2
                notes.append(Note("ai_note_feeds", {"card": d.card, "seat": nxt}))
            out.append(Candidate(d, score, tuple(notes)))
        return out

    def _threat_cost(self, obs: Observation, now: float) -> float:
        """What handing the next player its way out (or its opening) costs me."""
        v = obs.variant
        nxt = plan.next_seat(obs)
        if v.opening_threshold and not obs.opened[nxt]:  # it escapes the flat penalty
            return 0.8 * v.unopened_penalty / (obs.players - 1)
        return now + 0.5 * self.out_bonus

    def _threat_note(self, obs: Observation) -> str:
        v = obs.variant
        opening = v.opening_threshold and not obs.opened[plan.next_seat(obs)]
        return "ai_note_threat_opening" if opening else "ai_note_threat"

    def _before_opening(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        """Not opened yet (H8): keep what makes the opening likely after the next draw."""
        v = obs.variant
        hand = list(obs.hand)
        look = plan.Outlook(obs)
        threshold = v.opening_threshold
        rows = []
        for d in discards:
            rest = list(hand)
            rest.remove(d.card)
            rows.append((d, rest, look.opening(rest)))
        rows.sort(key=lambda r: (-r[2], -v.card_value(r[0].card)))
        nxt = plan.next_seat(obs)
        threats = self.threats(obs, [d.card for d, _, _ in rows[: self.opening_shortlist]])
        out = []
        for i, (d, rest, points) in enumerate(rows):
            notes = [Note("ai_note_opening_now", {"points": points, "threshold": threshold})]
            if i < self.opening_shortlist:
                chance, expected = look.opening_expected(rest)
                notes.append(Note("ai_note_opening_chance", {"chance": f"{100 * chance:.0f}"}))
                score = 100 * chance + expected / 2
            else:
                score = points / 2 - 50.0
            if d.card.is_joker:
                score -= 40
                notes.append(Note("ai_note_joker_future"))
            threat = threats.get(d.card, 0.0)
            if threat:
                score -= threat * self._threat_cost(obs, 0.0)
                pct = f"{100 * threat:.0f}"
                notes.append(Note(self._threat_note(obs), {"seat": nxt, "chance": pct}))
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
