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
from dataclasses import replace
from typing import Protocol, runtime_checkable

from rummykit.ai import planning as plan
from rummykit.ai.trace import Candidate, Decision, Note, Term, Trace, agent_name, gap, signed
from rummykit.cards import JOKER, Card, format_cards
from rummykit.errors import RummykitError
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
from rummykit.melds import layoff_readings
from rummykit.messages import TEMPLATES, join, render
from rummykit.solver import best_arrangement, best_opening
from rummykit.variants import Variant

__all__ = ["LEVELS", "Agent", "BaseAgent", "EasyAgent", "HardAgent", "NormalAgent"]


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
            raise RummykitError(render("agent_not_its_turn", seat=obs.seat), field="obs")
        self._steps: list[Note] = []
        self._candidates: list[Candidate] = []
        self.prepare(obs)
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

    def prepare(self, obs: Observation) -> None:  # noqa: B027 (a hook: most levels need nothing)
        """Work out, once per decision, what every option's score needs (nothing here)."""

    def weigh_discards(self, obs: Observation) -> Decision | None:
        """The discard this level would choose in ``obs``, every legal discard scored as
        it scores them at its discard (the card just taken ruled out), whether or not it
        would discard now — how the mistake review weighs a learner's discard. ``None``
        when no discard is legal."""
        discards = [a for a in obs.legal_actions if isinstance(a, Discard)]
        if not discards:
            return None
        self._steps = []
        self._candidates = []
        self.prepare(obs)
        action, why = self._choose_discard(obs, discards)
        trace = Trace(self.name, obs.seat, tuple(self._steps), tuple(self._candidates), action, why)
        return Decision(action, trace)

    def out_value(self, obs: Observation) -> float:
        """What going out now is worth in this level's score: no deadwood left (0)."""
        return 0.0

    def opened_value(self, obs: Observation) -> float | None:
        """An opened hand in the units of this level's scores before the opening, when those
        differ from its scores after it (``None``: they don't)."""
        return None

    def round_end_chance(self, obs: Observation) -> float:
        """How likely this level thinks the round ends before this seat's next turn."""
        return 0.0

    def step(self, code: str, shown: Sequence[Card] = (), /, **params: object) -> None:
        """Record one line of reasoning (``shown``: the cards to draw beside it)."""
        self._steps.append(Note(code, dict(params), tuple(shown)))

    # --- the cut -------------------------------------------------------------------------

    def _cut(self, obs: Observation) -> tuple[Action, Note]:
        heights = [a for a in obs.legal_actions if isinstance(a, Cut)]
        action = heights[len(heights) // 2]
        return action, Note("ai_cut_middle")

    # --- drawing -------------------------------------------------------------------------

    ruled_out = 200.0  # points that rule a draw out: a rule, or a fixed habit of the level
    chooses_the_end = False  # whether ends_the_deal is the level's own judgement (hard's)

    def _draw(self, obs: Observation) -> tuple[Action, Note]:
        self._rules: dict[str, Note] = {}  # why a draw source is ruled out, by source
        self._goes_out: Card | None = None  # the card drawn that takes me out
        action, why = self._draw_choice(obs)
        self._score_draws(obs, action)
        if plan.last_draw(obs):  # no stock card to come: asking the stock ends the deal
            why = self._said_as_the_end(obs, action, why)
        return action, why

    def _said_as_the_end(self, obs: Observation, action: Action, why: Note) -> Note:
        """At the empty stock (R10, H15) the stock option is the end of the deal with the
        hand as it is (:func:`stock_term` scores it so): the reason for the choice says so."""
        book = obs.variant.rulebook
        if action != Draw("stock") or why.code.startswith("ai_why_end_deal"):
            return why
        top = obs.discard_top
        if top is None:
            return Note(f"ai_why_end_deal_only_{book}")
        return Note(f"ai_why_end_deal_{book}", {"card": top})

    def _draw_choice(self, obs: Observation) -> tuple[Action, Note]:
        hand = list(obs.hand)
        if Draw("cut_card") in obs.legal_actions and obs.cut_card is not None:
            moves = plan.going_out_moves(obs, [*hand, obs.cut_card])
            if moves:
                self.step("ai_cut_goes_out", (obs.cut_card,), card=obs.cut_card)
                self._goes_out = obs.cut_card
                return Draw("cut_card"), Note("ai_why_cut", {"card": obs.cut_card})
            self.step("ai_cut_not_out", (obs.cut_card,), card=obs.cut_card)
            self._rules["cut_card"] = Note("ai_term_rule_cut", {"card": obs.cut_card})
        top = obs.discard_top
        if top is not None and Draw("discard") in obs.legal_actions:
            if plan.going_out_moves(obs, [*hand, top]):
                self.step("ai_discard_goes_out", (top,), card=top)
                self._goes_out = top
                return Draw("discard"), Note("ai_why_discard_out", {"card": top})
            if plan.last_draw(obs) and self._discard_usable(obs, top):
                if not self.ends_the_deal(obs):
                    self._rules["stock"] = Note("ai_term_rule_not_lowest")
                    return Draw("discard"), Note("ai_why_keep_going", {"card": top})
                if self.chooses_the_end:  # its own judgement: the deal ends now
                    book = obs.variant.rulebook
                    self._rules["discard"] = Note("ai_term_rule_end_deal", {"card": top})
                    return Draw("stock"), Note(f"ai_why_end_deal_{book}", {"card": top})
            if top in plan.public_discards(obs, obs.seat):
                self.step("ai_discard_mine", (top,), card=top)
                self._rules["discard"] = Note("ai_term_rule_mine", {"card": top})
                return Draw("stock"), Note("ai_why_stock_mine", {"card": top})
            unopened = obs.variant.opening_threshold and not obs.opened[obs.seat]
            if unopened and not self.takes_before_opening(obs):
                self.step("ai_no_take_before_opening", (top,), card=top)
                code = f"ai_term_rule_before_opening_{self.name}"
                if code not in TEMPLATES:
                    code = "ai_term_rule_before_opening"
                self._rules["discard"] = Note(code)
                return Draw("stock"), Note("ai_why_stock_before_opening", {"card": top})
            usable = self._discard_usable(obs, top)
            if usable:
                take, note = self.judge_discard_take(obs, top)
                return (Draw("discard") if take else Draw("stock")), note
            code = self._unusable_code(obs)
            self.step(code, (top,), card=top, threshold=obs.variant.opening_threshold)
            self._rules["discard"] = Note("ai_term_rule_unusable", {"card": top})
            return Draw("stock"), Note("ai_why_stock_unusable", {"card": top})
        return Draw("stock"), Note("ai_why_stock_only")

    def _score_draws(self, obs: Observation, chosen: Action) -> None:
        """Score every legal draw the weighing (if any) left out, so that every option is
        in the trace: each by the deadwood it leaves (none for a draw that takes me out),
        and a draw that a rule or the level's habit excludes with a term that rules it out."""
        draws = [a for a in obs.legal_actions if isinstance(a, Draw)]
        if len(draws) < 2:
            return
        scored = {c.action for c in self._candidates}
        weighed = bool(scored)  # the level weighed the draws itself (any left are ruled out)
        hand = list(obs.hand)
        for draw in draws:
            if draw in scored:
                continue
            card = {"cut_card": obs.cut_card, "discard": obs.discard_top}.get(draw.source)
            if draw == chosen and self._goes_out is not None:
                note = Note("ai_term_draw_out", {"card": self._goes_out}, (self._goes_out,))
                terms = [Term("deadwood_after", 0.0, note)]
            elif card is None:
                terms = [stock_term(obs, hand, "ai_term_stock_rule")]
            elif draw.source == "cut_card":  # not out with it: it goes back (H10)
                now = plan.least_deadwood(obs, hand)
                note = Note("ai_term_cut_back", {"card": card, "value": now}, (card,))
                terms = [Term("deadwood_after", -float(now), note)]
            else:
                terms = [take_term(obs, hand, card)]
            rule = self._rules.get(draw.source)
            if rule is None and not weighed:
                rule = Note("ai_term_rule_agent", {"agent": agent_name(self.name)})
            if draw != chosen and rule is not None:
                terms.append(Term("ruled_out", -self.ruled_out, rule))
            self._candidates.append(Candidate.of(draw, terms))

    def _unusable_code(self, obs: Observation) -> str:
        """Why the top discard can't be taken: H7 wants it played this turn, and ..."""
        if obs.opened[obs.seat]:
            return "ai_discard_unusable_opened"
        if not plan.may_open_this_turn(obs):
            return "ai_discard_unusable_first_turn"
        return "ai_discard_unusable_opening"

    def _discard_usable(self, obs: Observation, top: Card) -> bool:
        """Can the top discard be taken without breaking H7's obligation: played this turn
        (in a new meld or laid off), before the opening in an opening of its own?"""
        return plan.take_playable(obs, list(obs.hand), top)

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
            # the moves go in order: a step of the plan is never skipped (the final
            # discard comes only once everything else is on the table)
            move = moves[0]
            legal = plan.find_legal(obs, move)
            if legal is None and isinstance(move, LayOff):
                for card in move.cards:
                    legal = plan.find_legal(obs, LayOff((card,), move.meld, move.joker_as))
                    if legal is not None:
                        break
            if legal is not None:
                self.step("ai_can_go_out_plan", plan=join([str(m) for m in moves], "and"))
                return legal, Note("ai_why_go_out")
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
        # 3. opened: melds of the best arrangement (lay-offs counted), then lay-offs, then
        # joker exchanges
        best = plan.arrangement(obs, hand, discard=True)
        if best.melds and self.lays_melds(obs):
            for meld in best.melds:
                legal = plan.find_legal(obs, plan.meld_action(meld))
                if legal is not None:
                    self.step("ai_meld", meld.cards, cards=meld.cards)
                    return legal, Note("ai_why_meld")
        loose = best_arrangement(hand, v).deadwood  # every card outside a meld
        kept: list[Card] = []
        for lay in plan.layoff_moves(obs, [*best.laid_off, *loose]):
            if not isinstance(lay, LayOff):
                continue
            if self.lays_off_onto(obs, lay.meld):
                self.step("ai_layoff", lay.cards, cards=lay.cards, meld=lay.meld + 1)  # from 1
                return lay, Note("ai_why_layoff")
            kept += lay.cards
        if kept:  # a card that fits two melds is named once
            self.kept_layoffs(obs, list(dict.fromkeys(kept)))
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

    def kept_layoffs(self, obs: Observation, cards: list[Card]) -> None:  # noqa: B027 (a hook)
        """A hook: ``cards`` fit onto the table but :meth:`lays_off_onto` kept them in hand
        (a level that keeps them for a reason says it here)."""

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
                self.step("ai_exchange", (ex.card,), card=ex.card, meld=ex.meld + 1)  # from 1
                return ex
        return None

    just_taken = 200.0  # points that rule out throwing back the card just taken

    def _choose_discard(self, obs: Observation, discards: list[Discard]) -> tuple[Action, Note]:
        self._candidates = self.score_discards(obs, discards)
        taken = plan.taken_this_turn(obs)
        if taken is not None:  # throwing back what was just taken gains nothing
            note = Note("ai_term_just_taken", {"card": taken})
            self._candidates = [
                c.with_terms(Term("just_taken", -self.just_taken, note))
                if isinstance(c.action, Discard) and c.action.card == taken and c.terms
                else c
                for c in self._candidates
            ]
        order = {c.action: i for i, c in enumerate(self._candidates)}
        ranked = sorted(self._candidates, key=lambda c: (-c.score, order[c.action]))
        best = ranked[0]
        card = best.action.card if isinstance(best.action, Discard) else None
        if len(ranked) > 1:
            diff = gap(best.score, ranked[1].score)  # as the two scores are shown
            params = {
                "card": card,
                "score": signed(best.score),
                "diff": diff,
                "other": str(ranked[1].action),
            }
            code = "ai_why_discard_tie" if diff == "0.0" else "ai_why_discard_ahead"
            return best.action, Note(code, params)
        return best.action, Note("ai_why_discard_only", {"card": card})

    @abstractmethod
    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        """Score each legal discard (higher is better to throw away)."""


# --- the three levels ----------------------------------------------------------------------


def deadwood_term(obs: Observation, hand: Sequence[Card]) -> Term:
    """The deadwood a hand is left with once its melds are made and cards laid off where
    this seat may (the least there is), as a (negative) term."""
    arrangement = plan.arrangement(obs, hand)
    left = arrangement.deadwood
    if not left:
        return Term("deadwood_after", 0.0, Note("ai_term_no_deadwood"))
    value = arrangement.deadwood_value
    note = Note("ai_term_deadwood_left", {"value": value, "cards": left}, left)
    return Term("deadwood_after", -float(value), note)


def discard_rest(hand: Sequence[Card], card: Card) -> list[Card]:
    """The hand less one copy of ``card``."""
    rest = list(hand)
    rest.remove(card)
    return rest


EASY_HABIT = 100.0  # points easy's rule weighs: it takes a discard only to make a meld


class EasyAgent(BaseAgent):
    """Lays every meld it can make now; discards its highest-value single card (R12)."""

    name = "easy"

    def judge_discard_take(self, obs: Observation, top: Card) -> tuple[bool, Note]:
        hand = list(obs.hand)
        played = plan.played_deadwood(obs, hand, top, layoff=False)  # into a meld of mine
        makes = played is not None and played == plan.least_deadwood(obs, [*hand, top], True)
        take = [take_term(obs, hand, top)]
        if not makes:
            take.append(Term("habit", -EASY_HABIT, Note("ai_term_easy_no_meld", {"card": top})))
        self._candidates = [
            Candidate.of(Draw("discard"), take),
            Candidate.of(Draw("stock"), [stock_term(obs, hand)]),
        ]
        best = max(self._candidates, key=lambda c: c.score)
        if best.action == Draw("discard"):
            self.step("ai_discard_makes_meld", (top,), card=top)
            return True, Note("ai_why_discard_meld", {"card": top})
        code = "ai_discard_no_gain" if makes else "ai_discard_not_best"
        if played is None:
            code = "ai_discard_no_meld"
        self.step(code, (top,), card=top)
        return False, Note("ai_why_stock_easy")

    def lays_off_onto(self, obs: Observation, meld: int) -> bool:
        """Only onto its own melds: easy doesn't study the other players' melds (it still
        lays off anywhere when that takes it out)."""
        return obs.table[meld].owner == obs.seat

    def takes_before_opening(self, obs: Observation) -> bool:
        """Never: before its opening easy draws from the stock (H7's duty stays away)."""
        return False

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        hand = list(obs.hand)
        return [Candidate.of(d, [deadwood_term(obs, discard_rest(hand, d.card))]) for d in discards]


def take_term(obs: Observation, hand: Sequence[Card], top: Card) -> Term:
    """The deadwood after taking ``top`` and throwing the worst card away — ``top`` played
    this turn when H7 says it must be (:func:`~rummykit.ai.planning.take_value`)."""
    value, note = plan.take_value(obs, hand, top)
    return Term("deadwood_after", -float(value), note)


def stock_term(obs: Observation, hand: Sequence[Card], code: str = "ai_term_stock_same") -> Term:
    """A stock card counted as no change: the deadwood the hand has now. At the empty stock,
    where asking it for a card ends the deal (R10, H15), what the hand as it is pays then:
    its cards' values, or the flat penalty of a seat not opened (H13)."""
    if plan.last_draw(obs):
        v = obs.variant
        unopened = v.unopened_penalty and v.opening_threshold and not obs.opened[obs.seat]
        paid = v.unopened_penalty if unopened else sum(v.card_value(c) for c in hand)
        note = Note(f"ai_term_end_deal_{v.rulebook}", {"value": paid})
        return Term("deadwood_now", -float(paid), note)
    now = plan.least_deadwood(obs, hand)
    return Term("deadwood_now", -float(now), Note(code, {"value": now}))


class NormalAgent(BaseAgent):
    """Values partial melds and avoids feeding the next player (R12)."""

    name = "normal"
    out_weight = 2.5  # points one live out is worth keeping a card for
    feed_penalty = 8.0  # points worth keeping rather than feed the next player
    joker_keep = 60.0  # points a joker in hand is worth beyond its value
    caution = 4.0  # points a take must gain (none with two partner cards in hand)

    def judge_discard_take(self, obs: Observation, top: Card) -> tuple[bool, Note]:
        v = obs.variant
        hand = list(obs.hand)
        found = [p for p, _ in plan.partners_of(top, hand, Counter(), v).partners]
        take = [take_term(obs, hand, top)]
        if len(found) >= 2:
            note = Note("ai_term_no_caution", {"card": top, "cards": found[:2]}, tuple(found[:2]))
            take.append(Term("caution", 0.0, note))
        else:
            take.append(Term("caution", -self.caution, Note("ai_term_caution", {"card": top})))
        self._candidates = [
            Candidate.of(Draw("discard"), take),
            Candidate.of(Draw("stock"), [stock_term(obs, hand)]),
        ]
        now = plan.least_deadwood(obs, hand)
        after = -int(take[0].value)
        self.step("ai_discard_change", (top,), card=top, before=now, after=after)
        if self._candidates[0].score > self._candidates[1].score:
            return True, Note("ai_why_discard_change", {"card": top, "before": now, "after": after})
        return False, Note("ai_why_stock_normal", {"card": top})

    def takes_before_opening(self, obs: Observation) -> bool:
        """Only on the first draw, when the card may simply be kept (H7): taking a card to
        open with is hard's move."""
        return obs.variant.first_draw_keeps_discard and plan.first_draw(obs)

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        v = obs.variant
        hand = list(obs.hand)
        loose = plan.arrangement(obs, hand).deadwood
        single = Counter(loose)
        unseen = plan.unseen_counts(obs)
        nxt = plan.next_seat(obs)
        taken = plan.public_takes(obs, nxt)
        out = []
        for d in discards:
            c = d.card
            terms = [deadwood_term(obs, discard_rest(hand, c))]
            if c.is_joker:
                terms.append(Term("joker", -self.joker_keep, Note("ai_term_joker_normal")))
            elif single[c]:
                terms.append(self.outs_term(c, loose, unseen, v))
            wanted = wanted_by(obs, nxt, c, taken)
            if wanted is not None:
                terms.append(Term("feed", -self.feed_penalty, wanted))
            out.append(Candidate.of(d, terms))
        return out

    def outs_term(
        self, card: Card, loose: Sequence[Card], unseen: Counter[Card], v: Variant
    ) -> Term:
        """What a loose card's partners and live outs are worth keeping it for."""
        found = plan.partners_of(card, loose, unseen, v)
        if found.outs:
            partners = [p for p, _ in found.partners]
            note = Note(
                "ai_term_outs" if len(partners) == 1 else "ai_term_outs_many",
                {
                    "count": len(found.outs),
                    "cards": found.outs,
                    "partners": join([str(p) for p in partners], "or"),
                    "weight": self.out_weight,
                },
                found.outs,
            )
            return Term("outs", -self.out_weight * len(found.outs), note)
        if found.partners:
            partner, need = found.partners[0]
            needs = [*need, JOKER] if v.jokers else list(need)  # a joker would do as well
            note = Note(
                "ai_term_dead_partner",
                {"partner": partner, "needs": join([str(c) for c in needs]), "cards": needs},
                (partner,),
            )
            return Term("outs", 0.0, note)
        return Term("outs", 0.0, Note("ai_term_no_partner", {"card": card}))


class HardAgent(NormalAgent):
    """Remembers public cards and searches draw and discard options with the solver (R12)."""

    name = "hard"
    shortlist = 5  # discards searched in full (the rest are scored by their deadwood now)
    opening_shortlist = 4  # the same before the opening
    samples = 24  # hands dealt to the next player to see what a discard would give them
    opening_samples = 8  # ... and before its opening, where each look costs more
    threat_size = 6  # ... when it holds this many cards or fewer
    hold_until = 5  # without an opening rule: melds stay in hand until someone is this close
    hold_turns = 3  # ... or the stock holds this few rounds of draws
    hold_until_short = 3  # in a short deal: until someone is this close, or my last turn
    joker_keep = 40.0  # points a joker in hand is worth beyond its value
    feed_penalty = 2.0  # points for a card the next player has shown it wants
    opening_weight = 0.5  # points per opening point expected after the next draw
    later_cap = 5  # draws after the next one that the search counts, at most
    short_deal = 3  # a stock dealt with this many rounds of draws or fewer: a short deal
    chooses_the_end = True  # at the empty stock it ends the deal when its hand is likely lowest

    def prepare(self, obs: Observation) -> None:
        """What going out is worth at this table, and the outlook of this seat."""
        self.out_bonus = self._out_value(obs)
        self.look = plan.Outlook(obs)

    def out_value(self, obs: Observation) -> float:
        """What going out now is worth: what the others would be left paying (the
        ``going out`` term's worth)."""
        return self._out_value(obs)

    def round_end_chance(self, obs: Observation) -> float:
        """The chance :meth:`_end_chance` gives (the ``round ends`` term's)."""
        return self._end_chance(obs)[0]

    def opened_value(self, obs: Observation) -> float | None:
        """Before its opening hard scores a discard by the chance to open next turn (escaping
        the flat penalty) and the opening points expected: an opened hand is both for sure."""
        v = obs.variant
        if not v.opening_threshold:
            return None
        return float(v.unopened_penalty) + self.opening_weight * v.opening_threshold

    def _out_value(self, obs: Observation) -> float:
        """What going out is worth, in points: what the others would be left paying (a
        flat penalty for an unopened hand, else its likely value), plus the bonus for
        going out. In a short deal, what the others' hands are likely worth at its end
        (:meth:`plays_for_lowest`): winning it takes the same, by going out or not."""
        v = obs.variant
        if self.plays_for_lowest(obs):
            rate, sizes = self._others_at_end(obs)
            return rate * sum(sizes)
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

    def _end_chance(self, obs: Observation) -> tuple[float, str]:
        """How likely the round ends before this seat's next turn, and the reason:
        the stock runs out (R10, H15), or someone close to going out goes out."""
        v = obs.variant
        if obs.stock_size < obs.players and not v.reshuffle_discards:
            return 0.9, "stock"
        chance = 0.0
        for seat in range(obs.players):
            if seat == obs.seat:
                continue
            size = obs.hand_sizes[seat]
            if v.opening_threshold and not obs.opened[seat]:
                chance += 0.01
            else:
                chance += {1: 0.35, 2: 0.25, 3: 0.15, 4: 0.1}.get(size, 0.04)
        return min(chance, 0.9), "hands"

    def plays_for_lowest(self, obs: Observation) -> bool:
        """Whether this deal is short — no opening, no reshuffle, the winner takes the
        others' hands, and a stock dealt with at most ``short_deal`` rounds of draws (Rommi
        with 4 players: 11 cards) — so it most likely ends at the empty stock, where the
        lowest hand wins (R10). Then a discard is scored by the chance of winning the deal,
        not by the deadwood it leaves."""
        v = obs.variant
        if v.opening_threshold or v.reshuffle_discards or v.low_score_wins:
            return False
        return plan.dealt_stock(v, obs.players) <= self.short_deal * obs.players

    def _others_at_end(self, obs: Observation) -> tuple[float, list[int]]:
        """The points a card the other hands are likely to be worth at the end of the deal
        (:data:`~rummykit.ai.planning.END_RATE`), and how many cards each holds."""
        sizes = [obs.hand_sizes[s] for s in range(obs.players) if s != obs.seat]
        return plan.end_rate(obs.players, obs.stock_size), sizes

    def _lowest_term(self, obs: Observation, rest: list[Card]) -> Term:
        """A short deal: the chance that the hand left wins the deal — by going out, or as
        the lowest hand at the empty stock — with the best of the draws the stock still
        holds for me, times what the winner takes."""
        rate, sizes = self._others_at_end(obs)
        draws = max(1, obs.stock_size // obs.players)
        chance = self.look.forecast(rest).lowest_chance(
            draws, lambda value: plan.lowest_chance(value, sizes, rate)
        )
        params = {
            "draws": draws,
            "chance": f"{100 * chance:.1f}",
            "cards": sum(sizes),
            "rate": f"{rate:.1f}",
            "pot": f"{self.out_bonus:.0f}",
        }
        code = "ai_term_lowest_hand_one" if draws == 1 else "ai_term_lowest_hand_many"
        return Term("lowest_hand", chance * self.out_bonus, Note(code, params))

    def _lowest_now_term(self, obs: Observation, now: int, limit: int) -> Term:
        """A short deal, an option not searched: its chance of the lowest hand as it is."""
        rate, sizes = self._others_at_end(obs)
        chance = plan.lowest_chance(now, sizes, rate)
        params = {
            "limit": limit,
            "count": self.shortlist,
            "cards": sum(sizes),
            "rate": f"{rate:.1f}",
            "pot": f"{self.out_bonus:.0f}",
        }
        note = Note("ai_term_not_searched_lowest", params)
        return Term("lowest_hand", chance * self.out_bonus, note)

    def holds_melds(self, obs: Observation) -> bool:
        """Without an opening rule, whether to keep melds in hand: while every other player
        holds more than ``hold_until`` cards and the stock has more than ``hold_turns``
        rounds of draws left. On the table melds give the others places to lay off (R6);
        in hand they count against me if the deal ends (R8, R10). In a short deal
        (:meth:`plays_for_lowest`), where laying off is how the others lower their hands,
        until my last turn before the stock can run out: while every other player holds
        more than ``hold_until_short`` cards and the stock has a card for each player."""
        if obs.variant.opening_threshold:
            return False
        closest = min(obs.hand_sizes[s] for s in range(obs.players) if s != obs.seat)
        if self.plays_for_lowest(obs):
            return closest > self.hold_until_short and obs.stock_size >= obs.players
        return closest > self.hold_until and obs.stock_size > self.hold_turns * obs.players

    def lays_melds(self, obs: Observation) -> bool:
        """Lay melds down unless :meth:`holds_melds` says to keep them (the trace says why)."""
        if self.holds_melds(obs):
            closest = min(obs.hand_sizes[s] for s in range(obs.players) if s != obs.seat)
            code = "ai_hold_melds_short" if self.plays_for_lowest(obs) else "ai_hold_melds_stock"
            self.step(code, count=closest, stock=obs.stock_size)
            return False
        return True

    def lays_off_onto(self, obs: Observation, meld: int) -> bool:
        """In a short deal, lay-offs wait in hand while the melds do (:meth:`holds_melds`):
        Rommi has one card of each kind (R1), so nobody else can take the place a card of
        mine fits, and the table's melds are never rearranged (R6) — the place is still there
        at my last turn; laid off sooner, a card at a run's end opens the next place to the
        others, and it tells them what I hold."""
        v = obs.variant
        unique = v.decks == 1 and not v.jokers  # no other copy could take the place
        return not (unique and self.plays_for_lowest(obs) and self.holds_melds(obs))

    def kept_layoffs(self, obs: Observation, cards: list[Card]) -> None:
        code = "ai_hold_layoffs_short_one" if len(cards) == 1 else "ai_hold_layoffs_short_many"
        self.step(code, cards, cards=cards)

    def takes_before_opening(self, obs: Observation) -> bool:
        """Whether to consider the discard pile before this seat has opened (H7, H8)."""
        return True

    def ends_the_deal(self, obs: Observation) -> bool:
        """End the deal from the empty stock only when my hand is likely the lowest."""
        v = obs.variant
        mine = sum(v.card_value(c) for c in obs.hand)
        if self.plays_for_lowest(obs):
            rate, sizes = self._others_at_end(obs)
            chance = plan.lowest_chance(mine, sizes, rate)
            self.step(
                "ai_empty_stock_lowest", mine=mine, cards=sum(sizes), rate=f"{rate:.1f}",
                chance=f"{100 * chance:.0f}", limit=f"{100 / obs.players:.0f}",
            )  # fmt: skip
            return chance >= 1 / obs.players  # at least an even share of the wins
        unseen = plan.unseen_cards(obs)
        mean = sum(v.card_value(c) for c in unseen) / len(unseen) if unseen else 5.0
        others = [obs.hand_sizes[s] * mean for s in range(obs.players) if s != obs.seat]
        lowest = mine <= min(others)
        self.step("ai_empty_stock_mean", mine=mine, others=f"{min(others):.0f}", mean=f"{mean:.1f}")
        return lowest

    def judge_discard_take(self, obs: Observation, top: Card) -> tuple[bool, Note]:
        look = self.look
        hand = list(obs.hand)
        v = obs.variant
        if v.opening_threshold and not obs.opened[obs.seat]:
            before = look.opening(hand)
            if plan.must_play_take(obs):  # H7: it goes into the opening, or it isn't taken
                after = plan.opening_holding([*hand, top], top, v)
            else:
                after = look.opening([*hand, top])
            self.step(
                "ai_opening_with", (top,), card=top, before=before, after=after,
                threshold=v.opening_threshold,
            )  # fmt: skip
            terms = [
                Term(
                    "opening_gain",
                    float(after - before),
                    Note("ai_term_opening_gain", {"card": top, "before": before, "after": after}),
                )
            ]
            if top.is_joker:
                terms.append(Term("joker", self.joker_keep, Note("ai_term_joker_take")))
            none = Term("opening_gain", 0.0, Note("ai_term_stock_no_sure_gain"))
            self._candidates = [
                Candidate.of(Draw("discard"), terms),
                Candidate.of(Draw("stock"), [none]),
            ]
            if self._candidates[0].score > 0:
                return True, Note("ai_why_discard_opening", {"card": top})
            return False, Note("ai_why_stock_opening", {"card": top})
        take, take_note = plan.take_value(obs, hand, top)
        now = look.deadwood(hand)
        stock = look.forecast(hand)
        played = take_note.code == "ai_term_take_played"
        self.step(
            "ai_compare_draws_played" if played else "ai_compare_draws", (top,), card=top,
            now=now, take=take, stock=f"{stock.deadwood:.1f}",
        )  # fmt: skip
        self._candidates = [
            Candidate.of(Draw("discard"), [Term("deadwood_after", -float(take), take_note)]),
            Candidate.of(Draw("stock"), self._forecast_terms(stock, 0.0)),
        ]
        if self._candidates[0].score > self._candidates[1].score:
            return True, Note("ai_why_discard_change", {"card": top, "before": now, "after": take})
        return False, Note("ai_why_stock_expected", {"card": top})

    def later_draws(self, obs: Observation) -> int:
        """How many of my draws after the next one the stock still holds (the seats draw
        in turn), counted up to ``later_cap``."""
        return min(self.later_cap, max(0, obs.stock_size // obs.players - 1))

    def _forecast_terms(self, forecast: plan.Forecast, end: float, later: int = 0) -> list[Term]:
        """The next draw's terms: the expected deadwood after it, and going out; and with
        ``later`` draws after it, what the best of those draws adds (a card that helps
        arrives in one draw or another, not only in the next)."""
        weight = 1.0 - end
        terms = [
            Term(
                "next_draw",
                -weight * forecast.deadwood,
                Note(
                    "ai_term_next_draw" if end else "ai_term_next_draw_sure",
                    {
                        "value": f"{forecast.deadwood:.1f}",
                        "total": forecast.total,
                        "weight": f"{100 * weight:.0f}",
                    },
                ),
            )
        ]
        if forecast.outs:
            names = sorted(set(forecast.outs), key=Card.sort_key)
            terms.append(
                Term(
                    "go_out",
                    weight * forecast.chance * self.out_bonus,
                    Note(
                        "ai_term_go_out",
                        {
                            "count": len(forecast.outs),
                            "total": forecast.total,
                            "cards": names,
                            "bonus": f"{self.out_bonus:.0f}",
                            "weight": f"{100 * weight:.0f}",
                        },
                        tuple(names),
                    ),
                )
            )
        if later:
            terms += self._later_terms(forecast, weight, 1 + later)
        return terms

    def _later_terms(self, forecast: plan.Forecast, weight: float, draws: int) -> list[Term]:
        """The draws after the next one: the best of ``draws`` draws is expected to leave
        less deadwood than the next draw alone, and one of them may take me out."""
        terms = []
        said = {"draws": draws, "cap": 1 + self.later_cap, "weight": f"{100 * weight:.0f}"}
        one = forecast.best_of(1)
        best = forecast.best_of(draws)
        gain = one - best
        if gain > 0.05:
            params = {**said, "one": f"{one:.1f}", "value": f"{best:.1f}", "gain": f"{gain:.1f}"}
            terms.append(Term("later_draws", weight * gain, Note("ai_term_later_draws", params)))
        extra = forecast.out_within(draws) - forecast.chance
        if forecast.outs and extra > 0:
            chance = f"{100 * forecast.out_within(draws):.0f}"
            params = {**said, "chance": chance, "extra": f"{100 * extra:.0f}"}
            note = Note("ai_term_later_out", {**params, "bonus": f"{self.out_bonus:.0f}"})
            terms.append(Term("later_out", weight * extra * self.out_bonus, note))
        return terms

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
            code = "ai_known_hand_one" if len(known) == 1 else "ai_known_hand_many"
            self.step(code, known, seat=nxt, cards=known)
        rng = plan.seeded_rng(obs, "threats")
        return [known + rng.sample(pool, size - len(known)) for _ in range(count)]

    def threats(self, obs: Observation, cards: Sequence[Card]) -> tuple[dict[Card, int], int]:
        """For each card, in how many of the sampled hands the next player takes it from
        the discard pile and goes out with it (or, before its opening, opens with it: H7,
        H8); and how many hands were sampled."""
        nxt = plan.next_seat(obs)
        v = obs.variant
        if v.opening_threshold and not obs.opened[nxt]:
            if v.opening_barred(obs.turns[nxt]):
                return {}, 0
            return self.opening_threats(obs, cards)
        if obs.hand_sizes[nxt] > self.threat_size:
            return {}, 0
        hands = self._next_hands(obs, self.samples)
        if not hands:
            return {}, 0
        look = plan.Outlook(obs, seat=nxt)
        out = dict.fromkeys(cards, 0)
        for h in hands:
            # a card that can't meld or lay off with this hand is thrown back or kept as
            # deadwood: it takes the hand out only if the hand melds whole without it
            near = look.relevant(h)
            whole = look.deadwood(h) == 0
            for card in out:
                if card.is_joker or card in near:
                    out[card] += look.after_draw(h, card) == 0
                else:
                    out[card] += whole
        return out, len(hands)

    def opening_threats(
        self, obs: Observation, cards: Sequence[Card]
    ) -> tuple[dict[Card, int], int]:
        """For each card, in how many sampled hands it lets the (unopened) next player open."""
        hands = self._next_hands(obs, self.opening_samples)
        if not hands:
            return {}, 0
        v = obs.variant
        look = plan.Outlook(obs, seat=plan.next_seat(obs))
        closed = [
            (h, plan.completers(h, v)) for h in hands if look.opening(h) < v.opening_threshold
        ]
        out = {}
        for card in dict.fromkeys(cards):
            out[card] = sum(
                look.opening([*h, card]) >= v.opening_threshold
                for h, near in closed
                if card.is_joker or card in near
            )
        return out, len(hands)

    def _threat_term(
        self, obs: Observation, card: Card, count: int, samples: int, now: float
    ) -> Term:
        v = obs.variant
        nxt = plan.next_seat(obs)
        opening = bool(v.opening_threshold and not obs.opened[nxt])
        if opening:  # it escapes the flat penalty
            cost = 0.8 * v.unopened_penalty / (obs.players - 1)
        else:
            cost = now + 0.5 * self.out_bonus
        code = "ai_term_threat_opening" if opening else "ai_term_threat"
        note = Note(
            code,
            {"seat": nxt, "count": count, "samples": samples, "cost": f"{cost:.0f}", "card": card},
        )
        return Term("threat", -count / samples * cost, note)

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        if obs.variant.opening_threshold and not obs.opened[obs.seat]:
            return self._before_opening(obs, discards)
        hand = list(obs.hand)
        v = obs.variant
        look = self.look
        nxt = plan.next_seat(obs)
        taken = plan.public_takes(obs, nxt)
        end, why_end = self._end_chance(obs)
        if taken:
            self.step("ai_memory", taken, seat=nxt, cards=format_cards(taken), count=len(taken))
        holding = self.holds_melds(obs)
        later = self.later_draws(obs)
        lowest = self.plays_for_lowest(obs)
        rows = []
        for d in discards:
            rest = discard_rest(hand, d.card)
            rows.append((d, rest, look.deadwood(rest)))
        rows.sort(key=lambda r: r[2])
        short = rows[: self.shortlist]
        threats, samples = self.threats(obs, [d.card for d, _, _ in short])
        out = []
        for i, (d, rest, now) in enumerate(rows):
            searched = i < self.shortlist
            if searched and lowest:
                terms = [self._lowest_term(obs, rest)]
            elif searched:
                caught = sum(v.card_value(c) for c in rest) if holding else now
                held = caught > now  # melds kept in hand that the end of the round would catch
                code = f"ai_term_round_ends_{why_end}" + ("_holding" if held else "")
                terms = [
                    Term(
                        "round_ends",
                        -end * caught,
                        Note(code, {"value": caught, "chance": f"{100 * end:.0f}"}),
                    ),
                    *self._forecast_terms(look.forecast(rest), end, later),
                ]
            elif lowest:  # as it is: a draw can only lower it
                terms = [self._lowest_now_term(obs, now, short[-1][2])]
            else:
                worst = short[-1][2]
                note = Note("ai_term_not_searched", {"limit": worst, "count": self.shortlist})
                terms = [Term("deadwood_now", -float(now), note)]
            if d.card.is_joker:
                terms.append(Term("joker", -self.joker_keep, Note("ai_term_joker_hard")))
            if searched:
                count = threats.get(d.card, 0)
                if count:
                    terms.append(self._threat_term(obs, d.card, count, samples, now))
                else:
                    wanted = wanted_by(obs, nxt, d.card, taken)
                    if wanted is not None:
                        terms.append(Term("feed", -self.feed_penalty, wanted))
            out.append(Candidate.of(d, terms, searched=searched))
        return self._with_plans(obs, out)

    def _with_plans(self, obs: Observation, options: list[Candidate]) -> list[Candidate]:
        """The options with a plan for the best three (the ones a trace shows in full; the
        card just taken, which is not thrown back, is never among them)."""
        hand = list(obs.hand)
        taken = Discard(card) if (card := plan.taken_this_turn(obs)) is not None else None
        order = sorted(range(len(options)), key=lambda i: -options[i].score)
        best = [i for i in order if options[i].action != taken][:3]
        for i in best:
            card = options[i].action.card  # type: ignore[attr-defined]
            options[i] = replace(options[i], plan=self._plan(obs, discard_rest(hand, card)))
        return options

    def _plan(self, obs: Observation, rest: list[Card]) -> Note:
        """What a hand keeps and waits for."""
        melders = self.look.melders(rest)
        names = sorted(set(melders), key=Card.sort_key)
        melds = best_arrangement(rest, obs.variant).melds
        kept = join([str(m) for m in melds], "and") if melds else render("ai_plan_no_melds")
        if not melders:
            return Note("ai_plan_nothing", {"melds": kept})
        params = {"melds": kept, "cards": names, "count": len(melders)}
        return Note("ai_plan_waits", params, tuple(names))

    def _before_opening(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        """Not opened yet (H8): keep what makes the opening likely after the next draw."""
        v = obs.variant
        hand = list(obs.hand)
        look = self.look
        threshold = v.opening_threshold
        rows = []
        for d in discards:
            rest = discard_rest(hand, d.card)
            rows.append((d, rest, look.opening(rest)))
        rows.sort(key=lambda r: (-r[2], -v.card_value(r[0].card)))
        short = rows[: self.opening_shortlist]
        threats, samples = self.threats(obs, [d.card for d, _, _ in short])
        penalty = float(v.unopened_penalty)
        out = []
        for i, (d, rest, points) in enumerate(rows):
            searched = i < self.opening_shortlist
            if searched:
                chance, expected, openers = look.opening_forecast(rest)
                every = bool(openers) and len(openers) == look.total
                names = [] if every else sorted(set(openers), key=Card.sort_key)
                terms = [
                    Term(
                        "open_chance",
                        chance * penalty,
                        Note(
                            "ai_term_open_chance_all"
                            if every
                            else "ai_term_open_chance"
                            if openers
                            else "ai_term_open_chance_none",
                            {
                                "count": len(openers),
                                "total": look.total,
                                "cards": names,
                                "penalty": v.unopened_penalty,
                                "threshold": threshold,
                            },
                            tuple(names),
                        ),
                    ),
                    Term(
                        "opening_points",
                        self.opening_weight * expected,
                        Note(
                            "ai_term_opening_points",
                            {"now": points, "expected": f"{expected:.1f}", "threshold": threshold},
                        ),
                    ),
                ]
            else:
                note = Note(
                    "ai_term_opening_not_searched",
                    {
                        "threshold": threshold,
                        "count": self.opening_shortlist,
                        "limit": short[-1][2],
                    },
                )
                terms = [Term("opening_points", self.opening_weight * min(points, threshold), note)]
            if d.card.is_joker:
                terms.append(Term("joker", -self.joker_keep, Note("ai_term_joker_hard")))
            count = threats.get(d.card, 0) if searched else 0
            if count:
                terms.append(self._threat_term(obs, d.card, count, samples, 0.0))
            out.append(Candidate.of(d, terms, searched=searched))
        return out


def wanted_by(obs: Observation, seat: int, card: Card, taken: list[Card]) -> Note | None:
    """Why ``seat`` may want this card — it took a card that makes a meld with it, or it
    can lay it off — as a note; ``None`` when nothing public says it wants it."""
    if card.is_joker:
        return Note("ai_term_feed_joker", {"seat": seat})
    for t in taken:
        if plan.partners_of(card, (t,), Counter(), obs.variant).partners:
            return Note("ai_term_feed_took", {"seat": seat, "took": t}, (t,))
    if obs.opened[seat]:
        for index, tm in enumerate(obs.table):
            if layoff_readings(tm.meld, (card,), obs.variant):
                return Note(
                    "ai_term_feed_layoff", {"seat": seat, "meld": index + 1, "cards": tm.meld.cards}
                )
    return None


LEVELS: dict[str, type[BaseAgent]] = {"easy": EasyAgent, "normal": NormalAgent, "hard": HardAgent}
