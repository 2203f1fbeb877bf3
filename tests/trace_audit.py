"""An independent audit of the computer players' reasoning traces.

For every sentence of a trace — its steps, every term of every option, the plans, the
final why, and the hint a learner would be given — this module re-derives the claim from
the seat's observation alone, with the arithmetic of :mod:`rulebook` (written from the
rulebooks for the audit; it shares no code with ``rummykit.ai``, ``rummykit.solver`` or the
meld checks), and returns a :class:`Finding` for each claim that is not true as the learner
reads it. A note whose code has no checker here is itself a finding, so that a new sentence
can't slip in unchecked.

What "true" means (issue 26): numbers exact to the digit shown; "unseen" is the deck less
the seat's hand, the discard pile, the table, the cut card and the cards another seat is
known to hold (taken in full view — from the pile, the cut card, a joker exchanged off the
table — and not melded, laid off or discarded since; a take that was undone is forgotten);
least deadwood is the least over every arrangement into melds (a joker may stand for a card
the hand holds) with any subset of lay-offs onto the table, any number of cards onto each
meld; a seat not opened lays off only when its own melds reach the opening (H8: lay-offs
come after the 51, in the same turn); a card taken from the discard pile that must be played
this turn (H7) is neither the discard nor left in hand when "my worst card is thrown away";
a count says what it counts; no empty list "()"; no "otherwise" without an "if"; no "more
than" or "fewer than" for equal values; no lead for a tie; the chosen option is the
best-scored, and every option's score is the sum of its terms.

Checked exactly (re-derived from the observation, compared to the digit shown):

- deadwood: now, after each discard, after taking a card and throwing the worst
  (``ai_term_deadwood_left`` and the cards it names — they must be what an arrangement
  leaves —, ``ai_term_take``, ``ai_term_stock_same``/``_rule``, ``ai_compare_draws``,
  ``ai_discard_change``, ``ai_why_discard_change``, ``ai_term_not_searched*`` and the limit
  they name), what the round ending or the empty stock would catch the seat with (every
  card left in hand counts, melds held included; an unopened Hungarian hand pays 100);
- the expected deadwood after the next draw (``ai_term_next_draw*``, the stock in
  ``ai_compare_draws``): the average over the unseen cards, with copies, of the least
  deadwood after that card and the best discard, 0 for a card that takes the hand out; and
  the number of unseen cards it averages over;
- lists of cards and their counts, with copies — every card named is one, every one is
  named, the count is the count: the cards that take the hand out (``ai_term_go_out``), let
  it open (``ai_term_open_chance*``), make a meld with a discard and a partner
  (``ai_term_outs``, ``ai_term_dead_partner``), and a plan's cards (``ai_plan_waits`` /
  ``_nothing``: by the template's own words, either every card after which the deadwood is
  lower, swaps included, or every card that would go into a meld or onto the table leaving
  less than any swap would);
- the later draws (``ai_term_later_draws``, ``ai_term_later_out``): the draws the stock
  holds for the seat (stock ÷ players, at most the cap); "with the next draw alone" — the
  average over the unseen cards when only a card that goes into a meld or onto the table,
  better than any swap, counts (any other leaves the hand as it is); "the best of N draws"
  — the exact expectation of the least of N such values drawn from the stock, i.e. without
  replacement; and the chance that one of N draws takes the hand out (hypergeometric);
- openings (H8): the best opening now and with a card, the points of the melds named (with
  those laid down this turn), the expected opening points after the next draw up to the
  threshold (``ai_opening``, ``ai_cannot_open``, ``ai_opening_with``,
  ``ai_term_opening_gain``, ``ai_term_opening_points``, ``ai_term_opening_not_searched*``);
- what the public history shows: takes from the discard pile and what a seat still holds
  (``ai_memory``, ``ai_known_hand_*``, ``ai_term_feed_took``), the seat's own discards
  (``ai_discard_mine``, ``ai_term_rule_mine``), lay-offs another seat could make
  (``ai_term_feed_layoff``);
- rule facts: going out now with the cut card or the discard (H10, H12, R7), melds and
  lay-offs named and "in my best arrangement", a card that can or can't be played this turn
  (H7, with a card left for the discard), the first turn (H9), hand sizes and the stock;
- the trace's own arithmetic: each option's score is the sum of its terms; the chosen
  option is the best-scored and legal; "N ahead of X" names the runner-up and N is the gap
  and not 0; "as good as X" is a tie; "if the round goes on (W%)" / "otherwise (W%)" follows
  "if the round ends … (C%)" with W = 100 − C; every term's value is what its sentence's
  numbers make, within the rounding shown.

Checked for consistency only, and why:

- the chance that the round ends before the seat's next turn, the "rate" of other hands at
  the empty stock, the worth of going out (``bonus``), a short deal's chance of the lowest
  hand, and the next player's threat (``ai_term_threat*``, sampled hands) are models or
  Monte-Carlo samples of hidden hands that can't be re-derived from the observation: the
  audit checks the arithmetic from the stated parameters (the term's value is chance ×
  points, within rounding), the bounds (0–100 %, counts within the samples, another seat,
  one not opened for an opening threat), the numbers that are facts (hand sizes, the cards
  in the others' hands, the pot as cards × rate, the mean value of the unseen cards) and
  that the choice follows the stated rule (end the deal when the chance reaches the share);
- fixed habits of a level (normal's −4 caution, 60 and 40 points for a joker, 2.5 a live
  out, −100 and −200 rule terms) are checked as the values their sentences state, and the
  cards they speak of (a joker, a card taken this turn, the agent named).

Sentences in other languages: each trace and hint is rendered in Portuguese and Finnish
and checked to show the same numbers as in English (a decimal comma for the point), no
"()", and no word that only the English sentences use.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rulebook import (
    INF,
    JOKER_ID,
    Arranger,
    Memory,
    Rules,
    TableRun,
    TableSet,
    card_id,
    ids,
    memory,
    table_of,
    text,
    unseen,
)

from rummykit.ai.trace import Candidate, Decision, Note, Term, Trace, signed
from rummykit.cards import Card, parse_card
from rummykit.game import Discard, Draw, ExchangeJoker, LayOff, Observation, PlayMeld, Undo
from rummykit.language import catalogue, speaking
from rummykit.messages import TEMPLATES, Text

__all__ = ["CHECKED", "Finding", "audit", "audit_languages", "claim_codes"]


# --- findings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """A claim that is not true of the observation: its class (``code``), where it is in
    the trace, the sentence as the learner reads it, and what is true."""

    code: str
    where: str
    claim: str
    truth: str
    reproducer: dict[str, Any] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return f"[{self.code}] {self.where}: “{self.claim}” — {self.truth}"


@dataclass(frozen=True)
class At:
    """Where a note sits: a step, an option's term or plan, or the final why."""

    kind: str  # "step", "term", "plan", "why", "note", "hint"
    index: int = 0
    candidate: Candidate | None = None
    term: Term | None = None

    def __str__(self) -> str:
        if self.candidate is None:
            return f"{self.kind} {self.index + 1}" if self.kind == "step" else self.kind
        name = f" {self.term.name}" if self.term is not None else ""
        return f"option “{self.candidate.action}”, {self.kind}{name}"


# --- reading parameters -------------------------------------------------------------------------


def _cards(value: Any) -> tuple[int, ...]:
    """A note's card parameter (a card, cards, or their text) as sorted ints."""
    if isinstance(value, Card):
        return (card_id(value),)
    if isinstance(value, str):  # card text, maybe joined with words ("7♠ or 7♥")
        return tuple(sorted(card_id(parse_card(t)) for t in _CARD_TEXT.findall(value)))
    return tuple(sorted(card_id(c if isinstance(c, Card) else parse_card(c)) for c in value))


_CARD_TEXT = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|🃏")


def _number(value: Any) -> float:
    """A number as a template shows it: ``"−12.0"``, ``"36.6"``, ``4``."""
    if isinstance(value, (int, float)):
        return float(value)
    return float(str(value).replace("−", "-").replace("+", ""))


def _decimals(value: Any) -> int:
    if isinstance(value, int):
        return 0
    if isinstance(value, float):
        return 1
    s = str(value)
    return len(s.split(".", 1)[1]) if "." in s else 0


def _shows(value: Any, truth: float) -> bool:
    """Whether ``value``, as shown (its digits), is ``truth`` rounded to those digits."""
    half = 0.5 * 10 ** -_decimals(value)
    return abs(_number(value) - truth) <= half + 1e-9


def _fmt(truth: float, like: Any) -> str:
    d = _decimals(like)
    return f"{truth:.{d}f}"


def _interval(value: Any) -> tuple[float, float]:
    half = 0.5 * 10 ** -_decimals(value)
    v = _number(value)
    return v - half, v + half


def _within(value: float, f: Callable[..., float], *params: Any, slack: float = 1e-6) -> bool:
    """Whether ``value`` is ``f`` of the parameters as they are shown, within their rounding:
    ``f`` is evaluated at every corner of the rounding intervals (it is monotone in each)."""
    ranges = [_interval(p) for p in params]
    corners = [
        f(*[r[(mask >> i) & 1] for i, r in enumerate(ranges)]) for mask in range(1 << len(ranges))
    ]
    return min(corners) - slack <= value <= max(corners) + slack


def _choose(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


# --- the position as the seat sees it -----------------------------------------------------------


class Audit:
    """One decision: the seat's observation read with the rulebook, the trace, and the
    findings so far."""

    def __init__(self, obs: Observation, trace: Trace) -> None:
        self.obs = obs
        self.trace = trace
        self.seat = obs.seat
        self.rules = Rules(obs.variant)
        self.mem: Memory = memory(obs.history)
        self.unseen: Counter[int] = unseen(obs, self.rules, self.mem)
        self.n_unseen = sum(self.unseen.values())
        self.hand: tuple[int, ...] = ids(obs.hand)
        self.table = table_of(obs.table)
        self.opened = bool(obs.opened[self.seat]) or not self.rules.threshold
        mine_now = obs.turn.seat == self.seat and obs.phase in ("play", "draw")
        provisional = obs.turn.meld_points if mine_now else 0
        self.need = 0 if self.opened else max(0, self.rules.threshold - provisional)
        # H9: a seat not opened can't open (so can't go out) on its very first turn
        self.first_turn = (
            not self.opened and self.rules.no_opening_first_turn and obs.turns[self.seat] == 0
        )
        self.arranger = Arranger(self.rules, self.table, need=self.need)
        self.findings: list[Finding] = []
        self._bases: dict[tuple[tuple[int, ...], bool], Base] = {}
        self.top: int | None = card_id(obs.discard_top) if obs.discard_top else None

    # -- reporting

    def after(self, at: At) -> tuple[int, ...]:
        """The hand the option of ``at`` leaves: the hand less the card it discards."""
        hand = _after(self, at)
        assert hand is not None
        return hand

    def discarded(self, at: At) -> int:
        """The card the option of ``at`` discards."""
        card = _discarded(at)
        assert card is not None
        return card

    def fail(self, code: str, note: Note, at: At, truth: str) -> None:
        self.findings.append(Finding(code, str(at), _said(note), truth))

    # -- facts

    def ld(self, hand: Sequence[int], arr: Arranger | None = None) -> int:
        return (arr or self.arranger).least(hand)

    @cached_property
    def no_layoffs(self) -> Arranger:
        """The same hand with no lay-off at all (to name a finding's kind)."""
        return Arranger(self.rules, (), need=self.need)

    @cached_property
    def own_layoffs(self) -> Arranger:
        """Lay-offs onto the seat's own melds only (to name a finding's kind)."""
        own = [t for t, tm in zip(self.table, self.obs.table) if tm.owner == self.seat]
        return Arranger(self.rules, own, need=self.need)

    def deadwood(
        self, note: Note, at: At, said: Any, compute: Callable[[Arranger], int], truth: str
    ) -> None:
        """Compare a deadwood shown with the least; name what the number shown left out."""
        true = compute(self.arranger)
        if _shows(said, true):
            return
        code = "deadwood_not_least"
        if self.table and _shows(said, compute(self.no_layoffs)):
            # a seat not opened lays off once its melds open (H8): name that case apart
            code = "deadwood_unopened_layoffs" if not self.opened else "deadwood_no_layoffs"
        elif self.table and _shows(said, compute(self.own_layoffs)):
            code = "deadwood_own_melds_only"
        self.fail(code, note, at, truth.format(true=true))

    def value(self, hand: Iterable[int]) -> int:
        return self.rules.total(hand)

    def penalty(self, hand: Sequence[int]) -> int:
        """What the seat pays if the round ends with ``hand`` (H13, R8)."""
        v = self.obs.variant
        if not self.opened and v.unopened_penalty:
            return v.unopened_penalty
        return self.value(hand)

    def base(self, hand: Sequence[int], *, this_turn: bool = False) -> Base:
        key = (tuple(sorted(hand)), this_turn)
        if key not in self._bases:
            self._bases[key] = Base(self, key[0], this_turn)
        return self._bases[key]

    def without(self, card: int) -> tuple[int, ...]:
        rest = list(self.hand)
        rest.remove(card)
        return tuple(rest)

    def with_card(self, card: int) -> tuple[int, ...]:
        return tuple(sorted((*self.hand, card)))

    def take_value(
        self,
        card: int,
        arr: Arranger | None = None,
        *,
        source: str = "discard",
        played: bool | None = None,
    ) -> int:
        """The least deadwood after taking ``card`` and throwing the best card away. A card
        taken from the discard pile that must be played this turn (H7; ``played`` forces or
        waives it) stays out of the discard and goes onto the table — into the opening, for a
        seat not opened; ``INF`` when it can't."""
        arr = arr or self.arranger
        hand = self.with_card(card)
        if played is None:
            played = source == "discard" and self._must_play_taken()
        if played:
            best = INF
            for d in set(hand):
                if d == card and hand.count(card) == 1:
                    continue
                rest = _drop(hand, d)
                if self.opened:
                    v = arr.least_holding(rest, card)
                elif self.first_turn:
                    v = INF
                else:
                    v = arr.least_holding(rest, card, need=self.need, strict=True)
                best = min(best, v)
            return best
        return min(self.ld(_drop(hand, d), arr) for d in set(hand))

    def opening_holding(self, card: int) -> int:
        """The best opening of the hand with ``card`` that holds it and keeps a card back
        for the discard (H7, H8, H12)."""
        hand = self.with_card(card)
        return max(
            (
                self.arranger.opening_with(_drop(hand, d), card)
                for d in set(hand)
                if d != card or hand.count(d) > 1
            ),
            default=0,
        )

    def _must_play_taken(self) -> bool:
        v = self.obs.variant
        if not v.discard_take_must_play:
            return False
        return not (v.first_draw_keeps_discard and not self.has_drawn)

    @cached_property
    def has_drawn(self) -> bool:
        """Whether this seat has drawn this round before (a take undone doesn't count)."""
        for event in self.obs.history:
            if event.seat == self.seat and event.code == "draw_stock":
                return True
        return bool(self.mem.taken.get(self.seat)) and not self._taking_now

    @cached_property
    def _taking_now(self) -> bool:
        t = self.obs.turn
        return t.seat == self.seat and t.drew == "discard"

    def goes_out_now(self, hand: Sequence[int], *, keep: int | None = None) -> bool:
        """Whether ``hand`` can go out this turn (H9 and the opening for a seat not opened;
        ``keep``: a card that may not be the final discard, H7)."""
        if self.first_turn:
            return False
        a = self.arranger
        if keep is None:
            return a.goes_out(hand, need=self.need)
        h = tuple(sorted(hand))
        for d in set(h):
            if d == keep and h.count(d) == 1:
                continue
            rest = list(h)
            rest.remove(d)
            if a._search(tuple(rest), 0, self.need, True) == 0:
                return True
        return not self.rules.discard_to_win and a._search(h, 0, self.need, True) == 0

    def can_play(self, card: int) -> bool:
        """Whether ``card``, added to the hand, can go onto the table this turn and the turn
        still end: in a meld of the hand (within an opening for a seat not opened, H7, H8)
        or laid off (once opened), with a card left for the discard where going out needs
        one (H12, R7)."""
        hand = self.with_card(card)
        if self.first_turn:
            return False
        a = self.arranger
        keep = 1 if self.rules.discard_to_win else 0
        if not self.opened:
            for d in set(hand):
                if d == card and hand.count(d) == 1:
                    continue
                if a.opening_with(_drop(hand, d), card) + self.provisional >= self.rules.threshold:
                    return True
            return False
        groups = [m for m in a.melds_holding(hand, card)] + [
            g for _, g in a.layoffs_holding(hand, card)
        ]
        return any(len(hand) - len(g) >= keep for g in groups)

    @property
    def provisional(self) -> int:
        t = self.obs.turn
        return t.meld_points if t.seat == self.seat else 0

    def next_seat(self) -> int:
        return (self.seat + 1) % self.obs.players

    def discarded_by_me(self, card: int) -> bool:
        return card in self.mem.discarded.get(self.seat, [])


def _first(hand: Sequence[int], card: int) -> tuple[int, ...]:
    rest = list(hand)
    rest.remove(card)
    return (card, *sorted(rest))


class Base:
    """A hand at the end of this turn (or before this turn's draw, ``this_turn``) and what
    each unseen card would make of it on the next draw."""

    def __init__(self, audit: Audit, hand: tuple[int, ...], this_turn: bool) -> None:
        self.a = audit
        self.hand = hand
        self.this_turn = this_turn
        arr = audit.arranger
        self.need = audit.need if this_turn else (0 if audit.opened else audit.rules.threshold)
        self.may_go_out = not (this_turn and audit.first_turn)
        self.ld = arr.least(hand)
        self.value: dict[int, int] = {}
        self.forced: dict[int, int] = {}
        self.melded: dict[int, int] = {}  # u in a meld or laid off, the best discard (INF: can't)
        self.swapped: dict[int, int] = {}  # u kept loose or thrown back
        self.out: dict[int, bool] = {}
        ld_minus = {d: arr.least(_drop(hand, d)) for d in set(hand)}
        zero = arr._search(hand, 0, self.need, True) == 0 if self.may_go_out else False
        for u in audit.unseen:
            plus = tuple(sorted((*hand, u)))
            useful = bool(arr.melds_holding(plus, u)) or bool(arr.layoffs_holding(plus, u))
            swapped = min([self.ld] + [ld_minus[d] + audit.rules.value(u) for d in ld_minus])
            if not useful:  # u is deadwood in every arrangement: thrown, or kept for a higher card
                out = zero
                value = swapped
                melded = INF
            else:
                out = self.may_go_out and arr.goes_out(plus, need=self.need)
                value = arr.least(plus, discard=True)
                melded = min(arr.least_holding(_drop(plus, d), u) for d in set(hand))
            self.out[u] = out
            self.value[u] = 0 if out else value
            self.melded[u] = 0 if out and useful else melded
            self.swapped[u] = swapped
            # only a card that would go into a meld or onto the table, better than any swap
            # (the plan's own words), counts; any other leaves the hand as it is
            self.forced[u] = 0 if out else (melded if melded < swapped else self.ld)

    @cached_property
    def expected(self) -> float:
        n = self.a.n_unseen
        return sum(self.value[u] * k for u, k in self.a.unseen.items()) / n if n else float(self.ld)

    @cached_property
    def expected_one(self) -> float:
        n = self.a.n_unseen
        return (
            sum(self.forced[u] * k for u, k in self.a.unseen.items()) / n if n else float(self.ld)
        )

    @cached_property
    def outs(self) -> Counter[int]:
        return Counter({u: k for u, k in self.a.unseen.items() if self.out[u]})

    @cached_property
    def meld_better(self) -> Counter[int]:
        """The unseen cards that would go into a meld or onto the table, leaving less than
        any swap (the card kept loose or thrown back) would, with copies."""
        return Counter({u: k for u, k in self.a.unseen.items() if self.melded[u] < self.swapped[u]})

    @cached_property
    def lowering(self) -> Counter[int]:
        return Counter({u: k for u, k in self.a.unseen.items() if self.value[u] < self.ld})

    def best_of(self, draws: int, *, replace: bool) -> float:
        """The expected least of ``draws`` per-card values (only cards that meld or go onto
        the table counting), drawn from the unseen cards with or without replacement."""
        n = self.a.n_unseen
        if not n or draws <= 0:
            return float(self.ld)
        values = sorted(set(self.forced.values()))
        total = 0.0
        below = 0  # cards whose value is below the current one
        for v in values:
            k = sum(c for u, c in self.a.unseen.items() if self.forced[u] == v)
            if replace:
                p_ge = ((n - below) / n) ** draws
                p_gt = ((n - below - k) / n) ** draws
            else:
                p_ge = _choose(n - below, draws) / _choose(n, draws) if _choose(n, draws) else 0.0
                p_gt = (
                    _choose(n - below - k, draws) / _choose(n, draws) if _choose(n, draws) else 0.0
                )
            total += v * (p_ge - p_gt)
            below += k
        return total


def _least_with(arr: Arranger, hand: tuple[int, ...], card: int) -> int:
    """The least deadwood of ``hand`` with ``card`` in a meld or laid off (a large number
    when it can't be)."""
    return arr.least_holding(hand, card)


def _drop(hand: Sequence[int], card: int) -> tuple[int, ...]:
    rest = list(hand)
    rest.remove(card)
    return tuple(sorted(rest))


def _minus(hand: Sequence[int], cards: Iterable[int]) -> tuple[int, ...]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(sorted(rest))


def _said(note: Note) -> str:
    try:
        return str(note)
    except Exception as error:  # a note that doesn't render is itself worth a finding
        return f"<{note.code} does not render: {error!r}>"


def _outs_code(a: Audit, named: Iterable[int], true: Counter[int]) -> str:
    """Name what a wrong list of unseen cards got wrong: cards another seat is known to
    hold counted as unseen, or cards left out."""
    named = set(named)
    held = Counter()
    for seat, known in a.mem.known.items():
        if seat != a.seat:
            held.update(known)
    if any(held[c] for c in named - set(true)) or any(held[c] for c in named):
        return "outs_known_held"
    if set(true) - named:
        return "outs_missing"
    return "outs"


# --- the checkers, by note code ---------------------------------------------------------------

Check = Callable[[Audit, Note, At], None]
CHECKS: dict[str, Check] = {}
AFTER: dict[str, bool | str] = {}
"""Codes said only of an option that discards a card (the hand it leaves is what the
sentence is about); a string: what is wrong when such a note stands on another option."""


def claim(*codes: str, after: bool | str = False) -> Callable[[Check], Check]:
    """Register the checker of the sentences ``codes``; ``after``: they speak of the hand a
    discard leaves (``a.after(at)``, ``a.discarded(at)``), and are passed over on any other
    option — or, given a sentence, reported there as misplaced."""

    def register(check: Check) -> Check:
        for code in codes:
            CHECKS[code] = check
            if after:
                AFTER[code] = after
        return check

    return register


def _discarded(at: At) -> int | None:
    c = at.candidate
    if c is not None and isinstance(c.action, Discard):
        return card_id(c.action.card)
    return None


def _after(a: Audit, at: At) -> tuple[int, ...] | None:
    """The hand an option leaves: the hand less the card it discards."""
    d = _discarded(at)
    return a.without(d) if d is not None else None


def _value_is(a: Audit, note: Note, at: At, expected: float, code: str = "term_value") -> None:
    if at.term is not None and abs(at.term.value - expected) > 1e-6:
        why = f"its value is {signed(at.term.value)}, the sentence makes it {signed(expected)}"
        a.fail(code, note, at, why)


# deadwood


@claim(
    "ai_term_deadwood_left",
    "ai_term_no_deadwood",
    after="deadwood left after a discard, on an option that discards nothing",
)
def _deadwood_left(a: Audit, note: Note, at: At) -> None:
    base = a.after(at)
    said = note.params.get("value", 0)
    a.deadwood(note, at, said, lambda arr: a.ld(base, arr), "the least deadwood after it is {true}")
    if note.code == "ai_term_deadwood_left":
        named = _cards(note.params["cards"])
        if a.value(named) != int(said):
            a.fail("deadwood_cards", note, at, f"the cards named are worth {a.value(named)}")
        elif not a.arranger.deadwood_ok(base, named):
            why = f"{text(named)} can't be all that is left of {text(base)}"
            a.fail("deadwood_cards", note, at, why)
    _value_is(a, note, at, -float(said))


def _check_take(
    a: Audit,
    note: Note,
    at: At,
    said: Any,
    card: int,
    source: str = "discard",
    played: bool | None = None,
) -> None:
    """A deadwood after taking ``card`` and throwing the worst card: the least the rules
    allow (H7: a card taken from the pile must be played this turn, so it is not the
    discard and goes onto the table — into the opening for a seat not opened)."""
    c = at.candidate
    ruled_out = c is not None and any(t.value <= -200 for t in c.terms)
    hand = a.with_card(card)

    def loose(arr: Arranger) -> int:  # the card thrown back or kept, as if no rule held it
        return min(a.ld(_drop(hand, d), arr) for d in set(hand))

    def kept(arr: Arranger) -> int:  # the card kept in hand, unplayed
        others = [d for d in set(hand) if d != card or hand.count(d) > 1]
        return min((a.ld(_drop(hand, d), arr) for d in others), default=INF)

    true = a.take_value(card, source=source, played=played)
    if _shows(said, true):
        return
    if true >= INF and ruled_out:
        # ruled out because the card can't be played: the sentence is a hypothetical
        if _shows(said, kept(a.arranger)) or _shows(said, loose(a.arranger)):
            return
        a.deadwood(
            note,
            at,
            said,
            loose,
            "the least deadwood after taking it and the best discard is {true}",
        )
        return
    if a.table and _shows(said, loose(a.no_layoffs)) and not _shows(said, loose(a.arranger)):
        why = f"the least deadwood after taking {text([card])} and the best discard it allows is {true}"
        a.fail("deadwood_no_layoffs", note, at, why)
    elif _shows(said, loose(a.arranger)):
        played_best = str(true) if true < INF else "none — it can't be played"
        why = f"{text([card])} must be played this turn (H7): the least with it played is {played_best}"
        a.fail("take_ignores_H7", note, at, why)
    else:
        a.deadwood(
            note,
            at,
            said,
            lambda arr: a.take_value(card, arr, source=source, played=played),
            f"the least deadwood after taking {text([card])} and the best discard it allows is {{true}}",
        )


@claim("ai_term_take", "ai_term_take_played")
def _take(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    c = at.candidate
    source = c.action.source if c is not None and isinstance(c.action, Draw) else "discard"
    played = True if note.code == "ai_term_take_played" else None
    _check_take(a, note, at, note.params["value"], card, source, played)
    _cut_card_not_h7(a, note, at)
    _value_is(a, note, at, -float(note.params["value"]))


def _cut_card_not_h7(a: Audit, note: Note, at: At) -> None:
    """H7 is about cards taken from the discard pile; the cut card's rule is H10."""
    c = at.candidate
    if c is not None and c.action == Draw("cut_card") and "(H7)" in TEMPLATES[note.code]:
        why = "the cut card is not taken from the discard pile: H10 (go out this turn), not H7"
        a.fail("rule_cited", note, at, why)


@claim("ai_term_cut_back")
def _cut_back(a: Audit, note: Note, at: At) -> None:
    """“the cut card C goes back unless it takes me out this turn (H10), and I draw again:
    counted as no change, V”: C the cut card, V the deadwood now."""
    p = note.params
    card = _cards(p["card"])[0]
    if a.obs.cut_card is None or card_id(a.obs.cut_card) != card:
        a.fail("rule_fact", note, at, "that is not the cut card")
    a.deadwood(
        note, at, p["value"], lambda arr: a.ld(a.hand, arr), "the least deadwood now is {true}"
    )
    _value_is(a, note, at, -float(p["value"]))


@claim("ai_term_take_unplayable", "ai_term_take_first_turn")
@claim("ai_term_take_opening", "ai_term_take_no_opening")
def _take_as_no_change(a: Audit, note: Note, at: At) -> None:
    """A take the rules make impossible to keep (H7, H8, H9), counted as the hand now."""
    p = note.params
    card = _cards(p["card"])[0]
    a.deadwood(
        note, at, p["value"], lambda arr: a.ld(a.hand, arr), "the least deadwood now is {true}"
    )
    _value_is(a, note, at, -float(p["value"]))
    _cut_card_not_h7(a, note, at)
    if note.code == "ai_term_take_unplayable" and a.can_play(card):
        a.fail("rule_fact", note, at, f"{text([card])} can be played this turn")
    if note.code == "ai_term_take_first_turn" and not a.first_turn:
        a.fail("rule_fact", note, at, "this is not the seat's first turn, or it has opened")
    if note.code in ("ai_term_take_opening", "ai_term_take_no_opening"):
        best = a.opening_holding(card)
        if int(p["threshold"]) != a.rules.threshold or a.opened:
            a.fail(
                "rule_fact",
                note,
                at,
                f"the opening needs {a.rules.threshold}, and this seat has not opened",
            )
        if "points" in p and not _shows(p["points"], best):
            a.fail("opening_points", note, at, f"the best opening holding {text([card])} is {best}")
        if note.code == "ai_term_take_no_opening" and best + a.provisional >= a.rules.threshold:
            a.fail("opening_points", note, at, f"an opening of {best} holds {text([card])}")


@claim("ai_term_stock_same", "ai_term_stock_rule")
def _stock_same(a: Audit, note: Note, at: At) -> None:
    a.deadwood(
        note,
        at,
        note.params["value"],
        lambda arr: a.ld(a.hand, arr),
        "the least deadwood now is {true}",
    )
    _value_is(a, note, at, -float(note.params["value"]))


@claim("ai_compare_draws", "ai_compare_draws_played", "ai_discard_change", "ai_why_discard_change")
def _draw_change(a: Audit, note: Note, at: At) -> None:
    """The deadwood now (“before”), with the discard taken (“take”, “after”), and for
    ``ai_compare_draws`` the stock's expectation."""
    p = note.params
    card = _cards(p["card"])[0]
    now, take = ("now", "take") if "now" in p else ("before", "after")
    a.deadwood(
        note, at, p[now], lambda arr: a.ld(a.hand, arr), f"the least deadwood {now} is {{true}}"
    )
    _check_take(a, note, at, p[take], card, played=True if note.code.endswith("_played") else None)
    if "stock" in p:
        stock = a.base(a.hand, this_turn=True).expected
        if not _shows(p["stock"], stock):
            why = f"the expectation over the {a.n_unseen} unseen cards is {stock:.2f}"
            a.fail("expected_deadwood", note, at, why)


@claim("ai_discard_no_gain")
def _no_gain(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    if not a.arranger.melds_holding(a.with_card(card), card):
        a.fail("rule_fact", note, at, f"{text([card])} completes no meld with this hand")
    if a.take_value(card) < a.ld(a.hand):
        why = f"with it the least deadwood goes from {a.ld(a.hand)} to {a.take_value(card)}"
        a.fail("rule_fact", note, at, why)


# the round ending, the next draw, the later draws


def _round_end_term(c: Candidate | None) -> Term | None:
    if c is None:
        return None
    return next((t for t in c.terms if t.note.code.startswith("ai_term_round_ends")), None)


CAUGHT = "a hand caught by the round's end, on an option that discards nothing"


@claim("ai_term_round_ends_hands", "ai_term_round_ends_stock", after=CAUGHT)
@claim("ai_term_round_ends_hands_holding", "ai_term_round_ends_stock_holding", after=CAUGHT)
def _round_ends(a: Audit, note: Note, at: At) -> None:
    base = a.after(at)
    p = note.params
    true = a.penalty(base)
    if not _shows(p["value"], true):
        held = " (every card left in hand counts)" if a.opened else " (a flat penalty: not opened)"
        a.fail("caught_with", note, at, f"the hand left would pay {true}{held}")
    chance = _number(p["chance"])
    if not 0 <= chance <= 100:
        a.fail("model_bounds", note, at, f"a chance of {p['chance']}%")


def _draw_base(a: Audit, note: Note, at: At) -> Base | None:
    """The hand an option leaves for the next draw (this turn's, for the stock option of a
    draw), with the count of unseen cards the sentence averages over checked."""
    c = at.candidate
    this_turn = c is not None and isinstance(c.action, Draw)
    hand = a.hand if this_turn else _after(a, at)
    if hand is None:
        why = "the next draw, on an option that is neither a discard nor the stock"
        a.fail("misplaced", note, at, why)
        return None
    if int(note.params["total"]) != a.n_unseen:
        a.fail("unseen_count", note, at, f"{a.n_unseen} cards are unseen")
    return a.base(hand, this_turn=this_turn)


@claim("ai_term_next_draw", "ai_term_next_draw_sure")
def _next_draw(a: Audit, note: Note, at: At) -> None:
    p = {"weight": "100", **note.params}
    c = at.candidate
    base = _draw_base(a, note, at)
    if base is None:
        return
    if not _shows(p["value"], base.expected):
        why = f"the expectation over the {a.n_unseen} unseen cards is {base.expected:.2f}"
        a.fail("expected_deadwood", note, at, why)
    ends = _round_end_term(c)
    if note.code == "ai_term_next_draw_sure" and ends is not None:
        a.fail("otherwise_weight", note, at, "a chance that the round ends first is counted too")
        ends = None
    otherwise = TEMPLATES[note.code].startswith("otherwise")
    if ends is None and otherwise:
        a.fail("otherwise_without_if", note, at, "no “if the round ends …” before this “otherwise”")
    elif ends is None and not _shows(p["weight"], 100):
        a.fail("otherwise_weight", note, at, "no chance of the round ending is counted: 100%")
    elif ends is not None and not _within(
        _number(p["weight"]), lambda x: 100 - x, ends.note.params["chance"], slack=1.0
    ):
        why = f"the “if” is {ends.note.params['chance']}%, so otherwise is {100 - _number(ends.note.params['chance']):.0f}%"
        a.fail("otherwise_weight", note, at, why)


@claim("ai_term_go_out")
def _go_out(a: Audit, note: Note, at: At) -> None:
    p = note.params
    base = _draw_base(a, note, at)
    if base is None:
        return
    named = set(_cards(p["cards"]))
    true = base.outs
    if named != set(true) or int(p["count"]) != sum(true.values()):
        why = f"{sum(true.values())} unseen cards take it out: {text(sorted(true)) or 'none'}"
        a.fail(_outs_code(a, named, true), note, at, why)
    if not named:
        a.fail("empty_list", note, at, "a list of no cards")


LATER = "later draws, on an option that discards nothing"


def _draws_left(a: Audit) -> int:
    """The draws the stock still holds for this seat after this turn: every seat draws in
    turn, this one last."""
    return a.obs.stock_size // a.obs.players


@claim("ai_term_later_draws", after=LATER)
def _later_draws(a: Audit, note: Note, at: At) -> None:
    p = note.params
    hand = a.after(at)
    draws, cap = int(p["draws"]), int(p["cap"])
    if draws != min(cap, _draws_left(a)):
        why = f"the stock of {a.obs.stock_size} holds {min(cap, _draws_left(a))} draws for this seat (÷ {a.obs.players}, at most {cap})"
        a.fail("draws_left", note, at, why)
    base = a.base(hand)
    if not _shows(p["one"], base.expected_one):
        why = f"counting only cards that meld or go onto the table, the next draw leaves {base.expected_one:.2f} on average"
        a.fail("later_draws_one", note, at, why)
    exact = base.best_of(draws, replace=False)
    if not _shows(p["value"], exact):
        replaced = base.best_of(draws, replace=True)
        code = "later_draws_replacement" if _shows(p["value"], replaced) else "later_draws_best"
        why = f"the best of {draws} such draws from the stock (without replacement) leaves {exact:.2f} on average ({replaced:.2f} if a card could come twice)"
        a.fail(code, note, at, why)
    if not _within(_number(p["gain"]), lambda o, v: o - v, p["one"], p["value"], slack=0.05):
        a.fail("arithmetic", note, at, f"{p['one']} − {p['value']} is not {p['gain']}")


@claim("ai_term_later_out", after=LATER)
def _later_out(a: Audit, note: Note, at: At) -> None:
    p = note.params
    hand = a.after(at)
    draws = int(p["draws"])
    base = a.base(hand)
    n, k = a.n_unseen, sum(base.outs.values())
    chance = 100 * (1 - _choose(n - k, draws) / _choose(n, draws)) if _choose(n, draws) else 0.0
    replaced = 100 * (1 - ((n - k) / n) ** draws) if n else 0.0
    one = 100 * k / n if n else 0.0
    if not _shows(p["chance"], chance) or not _shows(p["extra"], chance - one):
        code = "later_out_replacement" if _shows(p["chance"], replaced) else "later_out_chance"
        why = f"{k} of {n} unseen cards take it out: one of {draws} draws from the stock (without replacement) does with a chance of {chance:.1f}%, {chance - one:.1f}% more than the next draw alone ({replaced:.1f}% if a card could come twice)"
        a.fail(code, note, at, why)


@claim("ai_plan_waits", "ai_plan_nothing", after=True)
def _plan(a: Audit, note: Note, at: At) -> None:
    hand = a.after(at)
    base = a.base(hand)
    if "lower its deadwood" in TEMPLATES[note.code]:  # what the sentence says it counts
        true, what = base.lowering, "lower its deadwood"
    else:
        true, what = (
            base.meld_better,
            "would go into a meld or onto the table, better than any swap",
        )
    count = sum(true.values())
    p = note.params
    if note.code == "ai_plan_nothing":
        if count:
            a.fail("plan_count", note, at, f"{count} unseen cards {what}: {text(sorted(true))}")
    else:
        named = _cards(p["cards"])
        if int(p["count"]) != count:
            a.fail("plan_count", note, at, f"{count} unseen cards {what} ({text(sorted(true))})")
        wrong = [c for c in named if c not in true]
        if wrong:
            code = (
                "outs_known_held"
                if _outs_code(a, wrong, Counter()) == "outs_known_held"
                else "plan_cards"
            )
            a.fail(code, note, at, f"{text(wrong)}: not unseen, or not a card that {what}")
        if not named:
            a.fail("empty_list", note, at, "waits for no card")
    _check_melds_kept(a, note, at, hand)


def _check_melds_kept(a: Audit, note: Note, at: At, hand: tuple[int, ...]) -> None:
    melds = note.params.get("melds")
    if isinstance(melds, Text) and melds.code == "ai_plan_no_melds":
        if a.arranger.best_opening(hand) > 0 and a.ld(hand) < a.value(hand):
            a.fail("plan_melds", note, at, f"{text(hand)} holds melds")
        return
    groups = _meld_groups(melds)
    if groups is None:
        return
    used = [c for g in groups for c in g]
    if _minus_ok(hand, used) is None:
        a.fail("plan_melds", note, at, "the melds named are not in the hand")
        return
    if not all(a.rules.is_meld(g) for g in groups):
        a.fail("plan_melds", note, at, "a group named is no meld")


def _meld_groups(value: Any) -> list[tuple[int, ...]] | None:
    if isinstance(value, str) and value.strip():
        try:
            return [ids(g) for g in str(value).split(" + ")]
        except ValueError:
            return None
    return None


def _minus_ok(hand: Sequence[int], cards: Iterable[int]) -> tuple[int, ...] | None:
    rest = list(hand)
    for c in cards:
        if c not in rest:
            return None
        rest.remove(c)
    return tuple(rest)


# options not searched: scored by a figure of their own, against the searched options'


def _searched(a: Audit) -> list[Candidate]:
    return [c for c in a.trace.candidates if c.searched and isinstance(c.action, Discard)]


def _figure(a: Audit, kind: str, hand: tuple[int, ...]) -> int:
    """What an option is scored by when not searched: its least deadwood (``deadwood``), its
    hand as it is (``hand``), its best opening (``opening``)."""
    if kind == "deadwood":
        return a.ld(hand)
    if kind == "hand":
        return a.value(hand)
    return a.arranger.best_opening(hand)


_NOT_SEARCHED = {
    "ai_term_not_searched": "deadwood",
    "ai_term_not_searched_equal": "deadwood",
    "ai_term_not_searched_lowest": "deadwood",  # “scored as it is, V points of deadwood”
    "ai_term_not_searched_lowest_equal": "deadwood",
    "ai_term_opening_not_searched": "opening",
    "ai_term_opening_not_searched_equal": "opening",
}


@claim(*_NOT_SEARCHED, after=True)
def _not_searched(a: Audit, note: Note, at: At) -> None:
    """An option the search passed over: its own figure where the sentence shows one, the
    searched options' count and limit, its figure beyond that limit (“more than” / “fewer
    than” strictly, “no less than” / “no more than” or equal), and its score."""
    p = note.params
    hand = a.after(at)
    kind = _NOT_SEARCHED[note.code]
    true = _figure(a, kind, hand)
    said = p.get("points") if kind == "opening" else p.get("value")
    if said is not None and kind == "deadwood":
        why = "the least deadwood after it is {true}"
        a.deadwood(note, at, said, lambda arr: a.ld(hand, arr), why)
    elif said is not None and not _shows(said, true):
        a.fail("opening_points", note, at, f"it is {true}")
    _against_searched(a, note, at, kind, [true], p)
    lowest = note.code.startswith("ai_term_not_searched_lowest")
    if lowest:
        _model_chance(a, note, at, p.get("chance", 0), p["pot"])
        _others_at_rate(a, note, at)
    elif kind == "deadwood":  # “counted against it”
        _value_is(a, note, at, -float(said if said is not None else true))
    else:  # “counting up to the threshold, at half a point each”
        _value_is(
            a, note, at, min(float(said if said is not None else true), a.rules.threshold) / 2
        )


def _others_at_rate(a: Audit, note: Note, at: At) -> None:
    """“the others' N cards at about R points a card … about P points”: N the cards the
    other seats hold, P about N × R."""
    p = note.params
    if "cards" not in p:
        return
    others = sum(n for s, n in enumerate(a.obs.hand_sizes) if s != a.seat)
    if int(p["cards"]) != others:
        a.fail("hand_sizes", note, at, f"the others hold {others} cards")
    if "rate" in p and not _within(
        _number(p["pot"]), lambda c, r: c * r, p["cards"], p["rate"], slack=0.5
    ):
        a.fail(
            "arithmetic",
            note,
            at,
            f"{p['cards']} cards at {p['rate']} a card are not about {p['pot']}",
        )
    if at.term is not None and not -1e-9 <= at.term.value <= _number(p["pot"]) + 0.5:
        a.fail(
            "model_bounds", note, at, f"a score of {signed(at.term.value)} for a pot of {p['pot']}"
        )


def _against_searched(a: Audit, note: Note, at: At, kind: str, figures: list[int], p: Any) -> None:
    """The searched options' count and limit as stated, and every figure beyond the limit
    (strictly for “more than” / “fewer than”)."""
    searched = _searched(a)
    if int(p["count"]) != len(searched):
        a.fail("count", note, at, f"{len(searched)} options were searched")
    theirs = [_figure(a, kind, a.without(card_id(c.action.card))) for c in searched]  # type: ignore[attr-defined]
    if not theirs:
        return
    words = TEMPLATES.get(note.code, "")
    strict = ("more than" in words or "fewer than" in words) and not note.code.endswith("_group")
    strict = strict and "no more than" not in words and "no less than" not in words
    if kind == "opening":
        limit = min(theirs)
        capped = min(min(x, a.rules.threshold) for x in theirs)
        if "limit" in p and int(p["limit"]) not in (limit, capped):
            a.fail("not_searched_limit", note, at, f"the searched options keep at least {limit}")
        bad = [f for f in figures if (f >= limit if strict else f > limit)]
        word = "fewer than" if strict else "no more than"
    else:
        limit = max(theirs)
        if int(p["limit"]) != limit:
            a.fail("not_searched_limit", note, at, f"the searched options leave at most {limit}")
        bad = [f for f in figures if (f <= limit if strict else f < limit)]
        word = "more than" if strict else "no less than"
    if bad:
        why = f"{bad[0]} is not {word} the {limit} of the searched options"
        a.fail("more_than_equal", note, at, why)


@claim("ai_term_not_searched_group", "ai_term_not_searched_lowest_group")
@claim("ai_term_opening_not_searched_group")
def _not_searched_group(a: Audit, note: Note, at: At) -> None:
    """A group sentence given as a note: true of every option not searched."""
    kind = _NOT_SEARCHED[note.code.removesuffix("_group")]
    rough = [c for c in a.trace.candidates if not c.searched]
    figures = [
        _figure(a, kind, a.without(card_id(c.action.card)))
        for c in rough
        if isinstance(c.action, Discard)
    ]
    _against_searched(a, note, at, kind, figures, note.params)


def _check_rough_group(a: Audit) -> None:
    """The one sentence said of all the options not searched when their own sentences
    differ: its ``_group`` form, true of every one of them (rummykit.ai.trace's text)."""
    rough = [c for c in a.trace.candidates if not c.searched and c.terms]
    notes = [c.terms[0].note for c in rough]
    if len({str(n) for n in notes}) < 2:
        return
    group = notes[0].code.removesuffix("_equal") + "_group"
    if group not in TEMPLATES:
        return
    kind = _NOT_SEARCHED.get(notes[0].code)
    if kind is None:
        return
    figures = [
        _figure(a, kind, a.without(card_id(c.action.card)))
        for c in rough
        if isinstance(c.action, Discard)
    ]
    _against_searched(a, Note(group, notes[0].params), At("text"), kind, figures, notes[0].params)


def _model_chance(a: Audit, note: Note, at: At, chance: Any, pot: Any) -> None:
    if not 0 <= _number(chance) <= 100:
        a.fail("model_bounds", note, at, f"a chance of {chance}%")


@claim("ai_term_lowest_hand_one", "ai_term_lowest_hand_many")
def _lowest_hand(a: Audit, note: Note, at: At) -> None:
    p = note.params
    _others_at_rate(a, note, at)
    if (int(p["draws"]) == 1) != (note.code == "ai_term_lowest_hand_one"):
        a.fail("count", note, at, f"{p['draws']} draws")
    _model_chance(a, note, at, p["chance"], p["pot"])


@claim("ai_term_end_deal_R", "ai_term_end_deal_H")
def _end_deal(a: Audit, note: Note, at: At) -> None:
    true = a.penalty(a.hand)
    if not _shows(note.params["value"], true):
        a.fail("caught_with", note, at, f"the hand as it is pays {true}")
    if a.obs.stock_size:
        a.fail("rule_fact", note, at, f"the stock still holds {a.obs.stock_size} cards")
    _value_is(a, note, at, -float(note.params["value"]))


# the opening (H8)


def _opening_now(a: Audit) -> int:
    return a.arranger.best_opening(a.hand)


@claim("ai_cannot_open")
def _cannot_open(a: Audit, note: Note, at: At) -> None:
    p = note.params
    true = _opening_now(a) + a.provisional
    if not _shows(p["points"], true):
        a.fail("opening_points", note, at, f"the best opening is {true}")
    if int(p["threshold"]) != a.rules.threshold:
        a.fail("rule_fact", note, at, f"the opening needs {a.rules.threshold}")
    if true >= a.rules.threshold:
        a.fail("rule_fact", note, at, f"{true} is enough to open")


@claim("ai_opening")
def _opening(a: Audit, note: Note, at: At) -> None:
    p = note.params
    named = tuple(sorted(card_id(c) for c in note.cards))
    on_table = (
        [card_id(c) for i in a.obs.turn.new_melds for c in a.obs.table[i].meld.cards]
        if a.obs.turn.seat == a.seat
        else []
    )
    pool = tuple(sorted((*a.hand, *on_table)))
    if _minus_ok(pool, named) is None:
        a.fail("opening_points", note, at, f"{text(named)} are not in the hand")
        return
    points = _partition_points(a, named)
    if points < 0 or points + a.provisional != int(p["points"]):
        laid = f" and the {a.provisional} laid down this turn" if a.provisional else ""
        why = f"{text(named)} make {points if points >= 0 else 'no melds'}{laid}"
        a.fail("opening_points", note, at, why)
    if int(p["points"]) < a.rules.threshold or int(p["threshold"]) != a.rules.threshold:
        a.fail("rule_fact", note, at, f"the opening needs {a.rules.threshold}")


def _partition_points(a: Audit, cards: tuple[int, ...]) -> int:
    """The most opening points of melds that use every one of ``cards`` (−1 if none)."""
    memo: dict[tuple[int, ...], int] = {}

    def go(hand: tuple[int, ...]) -> int:
        if not hand:
            return 0
        if hand in memo:
            return memo[hand]
        best = -1
        for meld in a.arranger.melds_with(hand):
            rest = go(_minus(hand, meld))
            if rest >= 0:
                best = max(best, a.rules.meld_points(meld) + rest)
        memo[hand] = best
        return best

    return go(tuple(sorted(cards)))


def _opening_after_take(a: Audit, card: int) -> int:
    """The best opening after taking ``card`` from the discard pile: one that holds it when
    it must be played this turn (H7), any one on the first draw, which may keep it."""
    if a._must_play_taken():
        return a.opening_holding(card)
    return a.arranger.best_opening(a.with_card(card))


@claim("ai_opening_with")
def _opening_with(a: Audit, note: Note, at: At) -> None:
    p = note.params
    card = _cards(p["card"])[0]
    before, after = _opening_now(a), _opening_after_take(a, card)
    how = f" (the best holding {text([card])}, H7)" if a._must_play_taken() else ""
    if not _shows(p["before"], before) or not _shows(p["after"], after):
        why = f"the best opening goes from {before} to {after}{how}"
        a.fail("opening_points", note, at, why)


@claim("ai_term_opening_gain")
def _opening_gain(a: Audit, note: Note, at: At) -> None:
    _opening_with(a, note, at)
    p = note.params
    _value_is(a, note, at, float(p["after"]) - float(p["before"]))


@claim("ai_term_opening_points", after=True)
def _opening_points(a: Audit, note: Note, at: At) -> None:
    p = note.params
    hand = a.after(at)
    t = a.rules.threshold
    best = a.arranger.best_opening(hand)
    now = min(best, t)
    if not _shows(p["now"], now) and not _shows(p["now"], best):
        a.fail("opening_points", note, at, f"the best opening now is {best}")
    n = a.n_unseen
    expected = (
        sum(min(a.arranger.best_opening((*hand, u)), t) * k for u, k in a.unseen.items()) / n
        if n
        else float(now)
    )
    if not _shows(p["expected"], expected):
        a.fail("opening_points", note, at, f"after the next draw {expected:.2f} expected")


@claim("ai_term_open_chance", after=True)
def _open_chance(a: Audit, note: Note, at: At) -> None:
    p = note.params
    hand = a.after(at)
    if int(p["total"]) != a.n_unseen:
        a.fail("unseen_count", note, at, f"{a.n_unseen} cards are unseen")
    t = a.rules.threshold
    true = Counter(
        {
            u: k
            for u, k in a.unseen.items()
            if max(a.arranger.best_opening(_drop((*hand, u), d)) for d in set((*hand, u))) >= t
        }
    )
    named = set(_cards(p["cards"]))
    if named != set(true) or int(p["count"]) != sum(true.values()):
        why = f"{sum(true.values())} unseen cards let it open: {text(sorted(true)) or 'none'}"
        a.fail(
            "open_cards" if _outs_code(a, named, true) != "outs_known_held" else "outs_known_held",
            note,
            at,
            why,
        )
    if not named:
        a.fail("empty_list", note, at, "a list of no cards")
    if int(p["penalty"]) != a.obs.variant.unopened_penalty:
        a.fail("rule_fact", note, at, f"the flat penalty is {a.obs.variant.unopened_penalty}")


@claim("ai_term_open_chance_none", "ai_term_open_chance_all", after=True)
def _open_chance_extremes(a: Audit, note: Note, at: At) -> None:
    p = note.params
    hand = a.after(at)
    t = a.rules.threshold
    if int(p["penalty"]) != a.obs.variant.unopened_penalty:
        a.fail("rule_fact", note, at, f"the flat penalty is {a.obs.variant.unopened_penalty}")
    if note.code == "ai_term_open_chance_none":
        if int(p["total"]) != a.n_unseen:
            a.fail("unseen_count", note, at, f"{a.n_unseen} cards are unseen")
        opening = [
            u
            for u in a.unseen
            if max(a.arranger.best_opening(_drop((*hand, u), d)) for d in set((*hand, u))) >= t
        ]
        if opening:
            a.fail("open_cards", note, at, f"{text(sorted(opening))} let it open")
        _value_is(a, note, at, 0.0)
    else:
        if int(p["threshold"]) != t or a.arranger.best_opening(hand) < t:
            a.fail(
                "opening_points", note, at, f"its best opening is {a.arranger.best_opening(hand)}"
            )
        _value_is(a, note, at, float(p["penalty"]))


@claim("ai_term_stock_no_sure_gain")
def _no_sure_gain(a: Audit, note: Note, at: At) -> None:
    _value_is(a, note, at, 0.0)


# outs for normal


def _partial(a: Audit, one: int, two: int) -> list[int]:
    """Every card (of the deck) that makes a meld with these two."""
    return [c for c in a.rules.deck if a.rules.is_meld(tuple(sorted((one, two, c))))]


@claim("ai_term_outs", "ai_term_outs_many", after=True)
def _outs(a: Audit, note: Note, at: At) -> None:
    p = note.params
    d = a.discarded(at)
    partners = _cards(p["partners"])
    if _minus_ok(a.without(d), partners) is None:
        a.fail("rule_fact", note, at, f"{text(partners)} are not in the hand")
    true = Counter(
        {
            u: k
            for u, k in a.unseen.items()
            if any(a.rules.is_meld(tuple(sorted((d, q, u)))) for q in partners)
        }
    )
    named = _cards(p["cards"])
    if set(named) != set(true) or int(p["count"]) != sum(true.values()):
        why = f"{sum(true.values())} unseen cards make a meld with it and one of them: {text(sorted(true)) or 'none'}"
        a.fail(_outs_code(a, named, true), note, at, why)
    if (
        note.code == "ai_term_outs"
        and len(partners) > 1
        and not any(a.rules.is_meld(tuple(sorted((d, *partners, u)))) for u in named)
    ):
        why = f"no card makes a meld with it and {text(partners)} together: each makes one with one of them"
        a.fail("partners_joined", note, at, why)
    if not named:
        a.fail("empty_list", note, at, "a list of no cards")


@claim("ai_term_dead_partner", after=True)
def _dead_partner(a: Audit, note: Note, at: At) -> None:
    p = note.params
    d = a.discarded(at)
    partner = _cards(p["partner"])[0]
    needs = set(_partial(a, d, partner))
    named = set(_cards(p["cards"])) | set(_cards(p["needs"]))
    if named != needs:
        a.fail("needs_list", note, at, f"it needs {text(sorted(needs))}")
    live = [c for c in needs if a.unseen[c]]
    if live:
        a.fail("outs", note, at, f"{text(sorted(live))} unseen")
    _value_is(a, note, at, 0.0)


@claim("ai_term_no_partner", after=True)
def _no_partner(a: Audit, note: Note, at: At) -> None:
    d = a.discarded(at)
    rest = a.without(d)
    named = [
        t.note
        for t in (at.candidate.terms if at.candidate else ())
        if t.note.code == "ai_term_deadwood_left"
    ]
    if named:  # "my loose cards": the deadwood the same option names
        loose = list(_cards(named[0].params["cards"]))
    else:  # else every card loose in some best arrangement
        ld = a.ld(rest)
        loose = [c for c in set(rest) if a.rules.value(c) + a.ld(_drop(rest, c)) == ld]
    partners = [c for c in loose if _partial(a, d, c)]
    if partners:
        a.fail("rule_fact", note, at, f"{text(sorted(partners))} could make a meld with it")
    _value_is(a, note, at, 0.0)


# normal's caution and habits


@claim("ai_term_caution")
def _caution(a: Audit, note: Note, at: At) -> None:
    _value_is(a, note, at, -4.0)


@claim("ai_term_no_caution")
def _no_caution(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    two = _cards(note.params["cards"])
    if (
        len(two) != 2
        or _minus_ok(a.hand, two) is None
        or not all(_partial(a, card, c) for c in two)
    ):
        why = (
            f"{text(two)} are not two cards of this hand that each make a meld with {text([card])}"
        )
        a.fail("rule_fact", note, at, why)
    _value_is(a, note, at, 0.0)


@claim("ai_term_joker_normal", "ai_term_joker_hard", "ai_term_joker_take")
def _joker(a: Audit, note: Note, at: At) -> None:
    amount = 60.0 if note.code == "ai_term_joker_normal" else 40.0
    if at.term is not None and abs(abs(at.term.value) - amount) > 1e-6:
        a.fail("term_value", note, at, f"its value is {signed(at.term.value)}, not {amount:.0f}")
    d = _discarded(at)
    if d is not None and d != JOKER_ID:
        a.fail("rule_fact", note, at, "the card is no joker")


@claim("ai_term_feed_joker")
def _feed_joker(a: Audit, note: Note, at: At) -> None:
    if _discarded(at) != JOKER_ID:
        a.fail("rule_fact", note, at, "the card is no joker")
    if int(note.params["seat"]) == a.seat:
        a.fail("rule_fact", note, at, "that is this seat")


@claim("ai_term_feed_took")
def _feed_took(a: Audit, note: Note, at: At) -> None:
    p = note.params
    seat, took = int(p["seat"]), _cards(p["took"])[0]
    if took not in a.mem.taken.get(seat, []):
        why = (
            f"seat {seat} took {text(a.mem.taken.get(seat, [])) or 'nothing'} from the discard pile"
        )
        a.fail("memory", note, at, why)
    d = _discarded(at)
    if d is not None and not _partial(a, d, took):
        a.fail("rule_fact", note, at, f"{text([d])} makes no meld with {text([took])}")


@claim("ai_term_feed_layoff")
def _feed_layoff(a: Audit, note: Note, at: At) -> None:
    p = note.params
    seat, number = int(p["seat"]), int(p["meld"])
    d = _discarded(at)
    if not 1 <= number <= len(a.obs.table):
        a.fail("meld_number", note, at, f"there is no meld {number}")
        return
    tm = a.obs.table[number - 1]
    if _cards(p["cards"]) != tuple(sorted(card_id(c) for c in tm.meld.cards)):
        a.fail("meld_number", note, at, f"meld {number} is {tm.meld.cards}")
    if a.rules.threshold and not a.obs.opened[seat]:
        a.fail("rule_fact", note, at, f"seat {seat} has not opened")
    if d is not None:
        arr = Arranger(a.rules, (a.table[number - 1],))
        if not arr.layoffs_with((d,), 0):
            a.fail("rule_fact", note, at, f"{text([d])} can't be laid off onto meld {number}")


@claim("ai_term_threat", "ai_term_threat_opening")
def _threat(a: Audit, note: Note, at: At) -> None:
    p = note.params
    seat, count, samples = int(p["seat"]), int(p["count"]), int(p["samples"])
    if seat == a.seat or not 0 <= seat < a.obs.players:
        a.fail("rule_fact", note, at, f"seat {seat} is not another seat")
    if not 0 <= count <= samples or samples <= 0:
        a.fail("model_bounds", note, at, f"{count} of {samples}")
    if note.code == "ai_term_threat_opening" and (not a.rules.threshold or a.obs.opened[seat]):
        a.fail("rule_fact", note, at, f"seat {seat} has already opened")
    d = _discarded(at)
    if d is not None and "card" in p and _cards(p["card"]) != (d,):
        a.fail("rule_fact", note, at, "not the card discarded")


# rules that decide a draw (−200)


def _ruled_out(a: Audit, note: Note, at: At) -> None:
    _value_is(a, note, at, -200.0)


@claim("ai_term_rule_cut")
def _rule_cut(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    if a.obs.cut_card is None or card_id(a.obs.cut_card) != card:
        a.fail("rule_fact", note, at, "that is not the cut card")
    elif a.goes_out_now(a.with_card(card)):
        a.fail("rule_fact", note, at, f"with {text([card])} the hand goes out this turn")
    _ruled_out(a, note, at)


@claim("ai_cut_not_out", "ai_return_cut")
def _cut_not_out(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    hand = a.hand if card in a.hand and a.obs.turn.cut_taken is not None else a.with_card(card)
    if a.goes_out_now(hand):
        a.fail("rule_fact", note, at, f"with {text([card])} the hand goes out this turn")


@claim("ai_cut_goes_out", "ai_why_cut")
def _cut_out(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    if not a.goes_out_now(a.with_card(card)):
        a.fail("rule_fact", note, at, f"with {text([card])} the hand can't go out this turn")


@claim("ai_term_draw_out", "ai_discard_goes_out", "ai_why_discard_out")
def _draw_out(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    keep = card if a._must_play_taken() and a.top == card else None
    if not a.goes_out_now(a.with_card(card), keep=keep):
        a.fail("rule_fact", note, at, f"with {text([card])} the hand can't go out this turn")
    if note.code == "ai_term_draw_out":
        _value_is(a, note, at, 0.0)


@claim("ai_term_rule_mine", "ai_discard_mine", "ai_why_stock_mine")
def _rule_mine(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    if not a.discarded_by_me(card):
        a.fail("memory", note, at, f"this seat has not discarded {text([card])} this round")
    if note.code == "ai_term_rule_mine":
        _ruled_out(a, note, at)


@claim("ai_term_rule_unusable", "ai_why_stock_unusable", "ai_discard_unusable_opened")
def _unusable(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    if a.can_play(card):
        a.fail("rule_fact", note, at, f"{text([card])} can be played this turn")
    if note.code == "ai_discard_unusable_opened" and not a.opened:
        a.fail("rule_fact", note, at, "this seat has not opened")
    if note.code == "ai_term_rule_unusable":
        _ruled_out(a, note, at)


@claim("ai_discard_unusable_first_turn")
def _unusable_first(a: Audit, note: Note, at: At) -> None:
    if not a.first_turn:
        a.fail("rule_fact", note, at, "this is not the seat's first turn, or it has opened")


@claim("ai_discard_unusable_opening")
def _unusable_opening(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    best = a.arranger.opening_with(a.with_card(card), card)
    if best + a.provisional >= a.rules.threshold:
        a.fail("opening_points", note, at, f"an opening of {best} holds {text([card])}")


def _least_and_melded(a: Audit, card: int) -> tuple[int, int]:
    """After taking ``card`` and the best discard: the least deadwood, and the least with
    ``card`` in a meld of the hand (``INF`` if it can't be)."""
    hand = a.with_card(card)
    least = min(a.ld(_drop(hand, d)) for d in set(hand))
    others = [d for d in set(hand) if d != card]
    melded = min(
        (a.arranger.least_holding(_drop(hand, d), card, lay_off=False) for d in others),
        default=INF,
    )
    return least, melded


@claim("ai_discard_not_best")
def _not_best(a: Audit, note: Note, at: At) -> None:
    """“C would go into a meld, but not in an arrangement that leaves the least deadwood”."""
    card = _cards(note.params["card"])[0]
    hand = a.with_card(card)
    if not a.arranger.melds_holding(hand, card):
        a.fail("rule_fact", note, at, f"{text([card])} makes no meld with this hand")
        return
    least, melded = _least_and_melded(a, card)
    if melded <= least:
        why = f"an arrangement with {text([card])} in a meld leaves {melded}, the least"
        a.fail("rule_fact", note, at, why)


@claim("ai_discard_off_plan")
def _off_plan(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    hand = a.with_card(card)
    melds = a.arranger.melds_holding(hand, card)
    if not melds:
        a.fail("rule_fact", note, at, f"{text([card])} makes no meld with this hand")
        return
    ld = a.ld(a.hand)
    for meld in melds:
        partners = list(meld)
        partners.remove(card)
        rest = _minus_ok(a.hand, partners)
        if rest is not None and a.ld(rest) + a.value(partners) == ld:
            why = f"{text(meld)} uses only cards left loose by a best arrangement: it breaks up nothing"
            a.fail("rule_fact", note, at, why)
            return


@claim("ai_discard_off_plan_opening")
def _off_plan_opening(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    hand = a.with_card(card)
    with_it = a.arranger.opening_with(hand, card)
    best = a.arranger.best_opening(hand)
    if with_it + a.provisional < a.rules.threshold:
        a.fail("opening_points", note, at, f"no opening holds {text([card])} (at most {with_it})")
    elif with_it >= best:
        why = f"an opening as good as the best ({best}) holds {text([card])}"
        a.fail("off_plan_tie", note, at, why)


@claim("ai_term_rule_before_opening", "ai_term_rule_before_opening_easy")
@claim("ai_why_stock_before_opening", "ai_no_take_before_opening")
def _before_opening(a: Audit, note: Note, at: At) -> None:
    if a.opened:
        a.fail("rule_fact", note, at, "this seat has opened")
    if note.code.startswith("ai_term"):
        _ruled_out(a, note, at)


@claim("ai_term_rule_before_opening_normal")
def _before_opening_normal(a: Audit, note: Note, at: At) -> None:
    if a.opened:
        a.fail("rule_fact", note, at, "this seat has opened")
    if not a.has_drawn:
        a.fail("rule_fact", note, at, "this is the seat's first draw, when the card may be kept")
    _ruled_out(a, note, at)


@claim("ai_term_rule_greedy", "ai_term_rule_agent", "ai_term_rule_end_deal")
@claim("ai_term_rule_not_lowest")
def _rule_habit(a: Audit, note: Note, at: At) -> None:
    if note.code == "ai_term_rule_agent" and note.params.get("agent") != a.trace.agent:
        a.fail("rule_fact", note, at, f"the agent is {a.trace.agent}")
    if note.code == "ai_term_rule_greedy" and a.trace.agent != "greedy":
        a.fail("rule_fact", note, at, f"the agent is {a.trace.agent}")
    if note.code in ("ai_term_rule_end_deal", "ai_term_rule_not_lowest") and a.obs.stock_size:
        a.fail("rule_fact", note, at, f"the stock still holds {a.obs.stock_size} cards")
    _ruled_out(a, note, at)


@claim("ai_term_just_taken")
def _just_taken(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    t = a.obs.turn
    if not (t.seat == a.seat and t.drew == "discard" and _last_take(a) == card):
        a.fail("memory", note, at, f"this seat did not take {text([card])} this turn")
    _ruled_out(a, note, at)


def _last_take(a: Audit) -> int | None:
    for event in reversed(a.obs.history):
        if event.code == "draw_discard" and event.seat == a.seat:
            return _cards(event.params["card"])[0]
        if event.code in ("discard",):
            return None
    return None


# easy and greedy


@claim("ai_term_easy_no_meld")
def _easy_no_meld(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    hand = a.with_card(card)
    if "in an arrangement that leaves the least deadwood" in TEMPLATES[note.code]:
        # “makes a meld with cards of its hand, in an arrangement that leaves the least
        # deadwood”: the least after the take and the best discard, lay-offs counted
        least, melded = _least_and_melded(a, card)
        if melded <= least:
            why = f"{text([card])} makes a meld in an arrangement that leaves the least ({least})"
            a.fail("rule_fact", note, at, why)
    else:
        own = a.own_layoffs  # easy's arrangement: its own melds, and lay-offs onto them
        if a.rules.value(card) + a.ld(a.hand, own) > a.ld(hand, own):
            why = f"{text([card])} is in a meld of every best arrangement of the hand with it"
            a.fail("rule_fact", note, at, why)
    _value_is(a, note, at, -100.0)


@claim("ai_term_greedy_value", after=True)
def _greedy_value(a: Audit, note: Note, at: At) -> None:
    d = a.discarded(at)
    if not _shows(note.params["value"], a.rules.value(d)):
        a.fail("card_value", note, at, f"{text([d])} is worth {a.rules.value(d)}")
    melded = at.candidate is not None and any(
        t.note.code == "ai_term_greedy_meld" for t in at.candidate.terms
    )
    if not melded and a.ld(a.hand) != a.rules.value(d) + a.ld(a.without(d)):
        a.fail("rule_fact", note, at, f"{text([d])} is in a meld of every best arrangement")
    _value_is(a, note, at, float(note.params["value"]))


@claim("ai_term_greedy_meld", after=True)
def _greedy_meld(a: Audit, note: Note, at: At) -> None:
    d = a.discarded(at)
    if a.arranger.least_holding(a.hand, d) > a.ld(a.hand):
        a.fail("rule_fact", note, at, f"{text([d])} is in no meld of a best arrangement")


# melds, lay-offs and exchanges


@claim("ai_meld")
def _meld(a: Audit, note: Note, at: At) -> None:
    cards = _cards(note.params["cards"])
    rest = _minus_ok(a.hand, cards)
    if rest is None or not a.rules.is_meld(cards):
        a.fail("rule_fact", note, at, f"{text(cards)} is no meld of this hand")
        return
    if "keeping a card back" in TEMPLATES[note.code]:  # the best arrangement with a discard
        best = min(a.ld(_drop(a.hand, d)) for d in set(a.hand))
        with_it = min((a.ld(_drop(rest, d)) for d in set(rest)), default=INF)
    else:
        best, with_it = a.ld(a.hand), a.ld(rest)
    if with_it != best:
        why = (
            f"with it laid down the least deadwood is {with_it}; the best arrangement leaves {best}"
        )
        a.fail("meld_not_in_best", note, at, why)


@claim("ai_layoff")
def _layoff(a: Audit, note: Note, at: At) -> None:
    cards = _cards(note.params["cards"])
    number = int(note.params["meld"])
    if _minus_ok(a.hand, cards) is None:
        a.fail("rule_fact", note, at, f"{text(cards)} are not in the hand")
        return
    if not 1 <= number <= len(a.table):
        a.fail("meld_number", note, at, f"there is no meld {number}")
        return
    arr = Arranger(a.rules, (a.table[number - 1],))
    if cards not in arr.layoffs_with(cards, 0):
        a.fail("meld_number", note, at, f"{text(cards)} can't be laid off onto meld {number}")
    if not a.opened:
        a.fail("rule_fact", note, at, "lay-offs come after the opening (H8)")


@claim("ai_hold_layoffs_short_one", "ai_hold_layoffs_short_many")
def _hold_layoffs(a: Audit, note: Note, at: At) -> None:
    """“I keep these cards though they fit onto the table; nobody else can take their
    places”: the cards are in the hand, all of them go onto the table's melds (one after
    another, a run's next card after the one before it), and the deck holds one of each card
    and no joker (R1), so no other copy could fill the place first."""
    cards = list(_cards(note.params["cards"]))
    if _minus_ok(a.hand, tuple(cards)) is None:
        a.fail("rule_fact", note, at, f"{text(tuple(cards))} are not in the hand")
        return
    if a.obs.variant.decks != 1 or a.rules.per_meld:
        a.fail("rule_fact", note, at, "the deck holds two copies of a card, or jokers")
    placed = True
    while cards and placed:
        placed = False
        for i in range(len(a.table)):
            for c in list(cards):
                rest = tuple([c, *(x for x in cards if x != c)])
                groups = Arranger(a.rules, (a.table[i],)).layoffs_with(rest, 0)
                if groups:
                    for x in max(groups, key=len):
                        cards.remove(x)
                    placed = True
                    break
    if cards:
        a.fail("rule_fact", note, at, f"{text(tuple(cards))} can't be laid off onto the table")


@claim("ai_exchange")
def _exchange(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    number = int(note.params["meld"])
    if not 1 <= number <= len(a.obs.table):
        a.fail("meld_number", note, at, f"there is no meld {number}")
        return
    meld = a.obs.table[number - 1].meld
    stands = [rep for c, rep in zip(meld.cards, meld.represents) if c.is_joker and rep is not None]
    if not any(card_id(r) == card for r in stands):
        a.fail("meld_number", note, at, f"no joker of meld {number} stands for {text([card])}")
    hand = tuple(sorted((*_drop(a.hand, card), JOKER_ID))) if card in a.hand else a.hand
    if not a.arranger.melds_holding(hand, JOKER_ID):
        a.fail("rule_fact", note, at, "the joker makes no meld with this hand")


@claim("ai_discard_makes_meld", "ai_why_discard_meld")
def _makes_meld(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    if not a.arranger.melds_holding(a.with_card(card), card):
        a.fail("rule_fact", note, at, f"{text([card])} completes no meld with this hand")


@claim("ai_discard_no_meld")
def _no_meld(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    found = a.arranger.melds_holding(a.with_card(card), card)
    if found:
        a.fail("rule_fact", note, at, f"{text(found[0])} is a meld with it")


@claim("ai_can_go_out_plan")
def _can_go_out(a: Audit, note: Note, at: At) -> None:
    if not a.goes_out_now(a.hand):
        a.fail("rule_fact", note, at, "this hand can't go out this turn")
    if "()" in str(note):
        a.fail("empty_list", note, at, "an empty list")


@claim("ai_why_go_out")
def _why_go_out(a: Audit, note: Note, at: At) -> None:
    hand, table = _play(a, a.trace.chosen)
    if hand is None:
        a.fail("rule_fact", note, at, f"{a.trace.chosen} is no step of going out")
        return
    if not hand:
        return
    arr = Arranger(a.rules, table, need=a.need)
    if a.first_turn or not (
        a.goes_out_now(a.hand)
        and arr.goes_out(hand, need=max(0, a.need - _meld_gain(a, a.trace.chosen)))
    ):
        a.fail("rule_fact", note, at, f"after {a.trace.chosen} the hand can't go out this turn")


def _meld_gain(a: Audit, action: Any) -> int:
    if isinstance(action, PlayMeld):
        return a.rules.meld_points(ids(action.cards))
    return 0


def _play(a: Audit, action: Any) -> tuple[tuple[int, ...] | None, tuple[Any, ...]]:
    """The hand and table after a meld, a lay-off or a discard (None: another action)."""
    table = list(a.table)
    if isinstance(action, Discard):
        return a.without(card_id(action.card)), tuple(table)
    if isinstance(action, PlayMeld):
        cards = ids(action.cards)
        info = table_of(())
        rest = _minus_ok(a.hand, cards)
        if rest is None:
            return None, ()
        spans = a.rules.run_spans(cards)
        if a.rules.is_set(cards):
            nat = [c for c in cards if c != JOKER_ID]
            info = (
                TableSet(
                    nat[0] % 16, frozenset(c // 16 for c in nat), len(cards), cards.count(JOKER_ID)
                ),
            )
        elif spans:
            suit, first, last = spans[-1]
            info = (TableRun(suit, first, last, cards.count(JOKER_ID)),)
        return rest, tuple(table) + tuple(info)
    if isinstance(action, LayOff):
        rest = _minus_ok(a.hand, ids(action.cards))
        if rest is None or not 0 <= action.meld < len(table):
            return None, ()
        table[action.meld] = _grown(a, table[action.meld], action)
        return rest, tuple(table)
    return None, ()


def _grown(a: Audit, meld: TableSet | TableRun, action: LayOff) -> TableSet | TableRun:
    """A table meld after a lay-off: a set with more suits, a run longer at its ends (a
    joker where the action says it stands, H5)."""
    cards = ids(action.cards)
    jokers = cards.count(JOKER_ID)
    naturals = [x for x in cards if x != JOKER_ID]
    if isinstance(meld, TableSet):
        return TableSet(
            meld.rank,
            meld.suits | {x // 16 for x in naturals},
            meld.size + len(cards),
            meld.jokers + jokers,
        )
    named = action.joker_as
    named_cards = [named] if isinstance(named, Card) else list(named or ())
    places = [meld.first, meld.last]
    for x in [*naturals, *(card_id(c) for c in named_cards)]:
        rank = x % 16
        places.append(14 if rank == 1 and meld.last >= 13 else rank)
    first, last = min(places), max(places)
    spare = len(cards) - (last - first + 1 - (meld.last - meld.first + 1))
    last = min(a.rules.highest, last + max(0, spare))
    return TableRun(meld.suit, first, last, meld.jokers + jokers)


@claim("ai_why_meld", "ai_why_open")
def _why_meld(a: Audit, note: Note, at: At) -> None:
    if not isinstance(a.trace.chosen, PlayMeld):
        a.fail("rule_fact", note, at, f"the move is {a.trace.chosen}")
    if note.code == "ai_why_open" and a.obs.opened[a.seat] and not a.obs.turn.new_melds:
        a.fail("rule_fact", note, at, "this seat has opened already")


@claim("ai_why_layoff")
def _why_layoff(a: Audit, note: Note, at: At) -> None:
    chosen = a.trace.chosen
    if not isinstance(chosen, LayOff) or len(chosen.cards) != 1:
        a.fail("rule_fact", note, at, f"the move is {chosen}")


@claim("ai_why_exchange")
def _why_exchange(a: Audit, note: Note, at: At) -> None:
    if not isinstance(a.trace.chosen, ExchangeJoker):
        a.fail("rule_fact", note, at, f"the move is {a.trace.chosen}")


@claim("ai_first_turn")
def _first_turn(a: Audit, note: Note, at: At) -> None:
    if not a.first_turn:
        a.fail("rule_fact", note, at, "this is not the seat's first turn (H9), or it has opened")


@claim("ai_stuck", "ai_why_undo")
def _stuck(a: Audit, note: Note, at: At) -> None:
    """“My moves this turn don't let the turn end”: no discard is legal, and a move of this
    turn can be taken back."""
    legal = a.obs.legal_actions
    if any(isinstance(x, Discard) for x in legal):
        a.fail("rule_fact", note, at, "the turn can end: a discard is legal")
    if not isinstance(a.trace.chosen, Undo):
        a.fail("rule_fact", note, at, f"the move is {a.trace.chosen}")


@claim("ai_why_return_cut")
def _why_return_cut(a: Audit, note: Note, at: At) -> None:
    if a.obs.turn.cut_taken is None:
        a.fail("rule_fact", note, at, "no cut card was taken")


@claim("ai_hold_melds_short")
def _hold_short(a: Audit, note: Note, at: At) -> None:
    _hold_melds(a, note, at)
    if a.obs.stock_size < a.obs.players - 1:
        a.fail("rule_fact", note, at, f"{a.obs.stock_size} cards don't let every other player draw")


@claim("ai_hold_melds_stock", "ai_hold_melds")
def _hold_melds(a: Audit, note: Note, at: At) -> None:
    p = note.params
    others = [n for s, n in enumerate(a.obs.hand_sizes) if s != a.seat]
    if min(others) < int(p["count"]):
        a.fail("hand_sizes", note, at, f"another player holds {min(others)} cards")
    if "stock" in p and int(p["stock"]) != a.obs.stock_size:
        a.fail("rule_fact", note, at, f"the stock has {a.obs.stock_size} cards")
    if a.arranger.best_opening(a.hand) == 0:
        a.fail("rule_fact", note, at, "the hand holds no meld")


def _empty_stock(a: Audit, note: Note, at: At) -> None:
    """The stock is empty, and the hand is worth what the sentence says (R10: all of it)."""
    if a.obs.stock_size:
        a.fail("rule_fact", note, at, f"the stock holds {a.obs.stock_size} cards")
    if not _shows(note.params["mine"], a.value(a.hand)):
        a.fail("caught_with", note, at, f"the hand is worth {a.value(a.hand)}")


@claim("ai_empty_stock_mean", "ai_empty_stock")
def _empty_stock_mean(a: Audit, note: Note, at: At) -> None:
    p = note.params
    _empty_stock(a, note, at)
    if "mean" in p:
        mean = sum(a.rules.value(c) * k for c, k in a.unseen.items()) / max(1, a.n_unseen)
        if not _shows(p["mean"], mean):
            a.fail("unseen_count", note, at, f"the unseen cards average {mean:.2f} points")
        smallest = min(n for s, n in enumerate(a.obs.hand_sizes) if s != a.seat)
        if not _within(_number(p["others"]), lambda m: smallest * m, p["mean"], slack=0.5):
            why = f"{smallest} cards at {p['mean']} are not about {p['others']}"
            a.fail("arithmetic", note, at, why)


@claim("ai_empty_stock_lowest")
def _empty_stock_lowest(a: Audit, note: Note, at: At) -> None:
    p = note.params
    _empty_stock(a, note, at)
    others = sum(n for s, n in enumerate(a.obs.hand_sizes) if s != a.seat)
    if int(p["cards"]) != others:
        a.fail("hand_sizes", note, at, f"the others hold {others} cards")
    if not 0 <= _number(p["chance"]) <= 100:
        a.fail("model_bounds", note, at, f"a chance of {p['chance']}%")
    ends = isinstance(a.trace.chosen, Draw) and a.trace.chosen.source == "stock"
    if (_number(p["chance"]) >= _number(p["limit"])) != ends and _number(p["chance"]) != _number(
        p["limit"]
    ):
        why = f"the choice doesn't follow: {p['chance']}% against {p['limit']}%"
        a.fail("rule_fact", note, at, why)


@claim("ai_memory")
def _memory(a: Audit, note: Note, at: At) -> None:
    p = note.params
    seat = int(p["seat"])
    said = sorted(_cards(p["cards"]))
    true = sorted(a.mem.taken.get(seat, []))
    if said != true or int(p["count"]) != len(true):
        why = f"seat {seat} has taken {len(true)}: {text(true) or 'none'} (takes undone are not taken)"
        a.fail("memory", note, at, why)


@claim("ai_known_hand_one", "ai_known_hand_many")
def _known_hand(a: Audit, note: Note, at: At) -> None:
    p = note.params
    seat = int(p["seat"])
    said = Counter(_cards(p["cards"]))
    known = a.mem.known_from_pile.get(seat, Counter())
    if said - known:
        why = f"seat {seat} is known to hold {text(sorted(known.elements())) or 'nothing'} taken from the pile"
        a.fail("memory", note, at, why)
    if (sum(said.values()) == 1) != (note.code == "ai_known_hand_one"):
        a.fail("grammar", note, at, "one card and many cards mixed up")


# the why: the choice and its lead


@claim("ai_why_discard_ahead", "ai_why_discard_tie")
def _why_ahead(a: Audit, note: Note, at: At) -> None:
    _check_choice(a, note, at, note.params, tie=note.code == "ai_why_discard_tie")


def _check_choice(a: Audit, note: Note, at: At, p: Any, *, tie: bool) -> None:
    """“N ahead of X”: X the runner-up, N the gap and not 0; “as good as X”: X scores the
    same (at the digit shown); the score shown the best's."""
    ranked = a.trace.ranked()
    if len(ranked) < 2:
        a.fail("rule_fact", note, at, "there is no other option")
        return
    best, second = ranked[0], ranked[1]
    gap = best.score - second.score
    # the learner compares the scores as they are shown, to the tenth: a tie is two scores
    # shown the same, and a lead is the difference of the two scores shown
    best_shown, second_shown = _number(signed(best.score)), _number(signed(second.score))
    shown_gap = round(best_shown - second_shown, 1)
    if tie:
        others = [c for c in ranked[1:] if signed(c.score) == signed(best.score)]
        if not others:
            a.fail("tie_not_tie", note, at, f"{best.action} leads {second.action} by {gap:.2f}")
    else:
        others = [c for c in ranked[1:] if abs(c.score - second.score) < 1e-9]
        if abs(_number(p["diff"]) - shown_gap) > 1e-9:
            a.fail("lead", note, at, f"the scores shown differ by {shown_gap:.1f}")
        if _number(p["diff"]) <= 0:
            why = f"{best.action} and {second.action} score the same: “as good as”, not “ahead of”"
            a.fail("tie_as_lead", note, at, why)
    if others and str(p.get("other", others[0].action)) not in {str(c.action) for c in others}:
        a.fail("lead", note, at, f"the runner-up is {others[0].action}, not {p.get('other')}")
    if "score" in p and p["score"] != signed(best.score):
        a.fail("lead", note, at, f"the best scores {signed(best.score)}")


@claim("ai_why_discard_only")
def _why_only(a: Audit, note: Note, at: At) -> None:
    discards = {x for x in a.obs.legal_actions if isinstance(x, Discard)}
    if len(discards) != 1:
        a.fail("rule_fact", note, at, f"{len(discards)} discards are legal")


@claim("ai_why_stock_expected")
def _why_stock_expected(a: Audit, note: Note, at: At) -> None:
    _stock_beats_take(a, note, at)


def _stock_beats_take(a: Audit, note: Note, at: At) -> None:
    stock = next((c for c in a.trace.candidates if c.action == Draw("stock")), None)
    take = next((c for c in a.trace.candidates if c.action == Draw("discard")), None)
    if stock is None or take is None:
        return
    if stock.score < take.score:
        why = f"the stock scores {signed(stock.score)}, the discard {signed(take.score)}"
        a.fail("choice", note, at, why)


@claim("ai_why_stock_normal")
def _why_stock_normal(a: Audit, note: Note, at: At) -> None:
    _stock_beats_take(a, note, at)


@claim("ai_why_stock_opening")
def _why_stock_opening(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    before, after = _opening_now(a), _opening_after_take(a, card)
    if after > before:
        why = f"with {text([card])} the best opening goes from {before} to {after}"
        a.fail("opening_points", note, at, why)


@claim("ai_why_discard_opening")
def _why_discard_opening(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    before, after = _opening_now(a), _opening_after_take(a, card)
    if after <= before:
        why = f"with {text([card])} the best opening stays at {before} (to {after})"
        a.fail("opening_points", note, at, why)


@claim("ai_why_stock_only", "ai_why_end_deal_only_R", "ai_why_end_deal_only_H")
def _why_only_draw(a: Audit, note: Note, at: At) -> None:
    draws = [x for x in a.obs.legal_actions if isinstance(x, Draw)]
    if any(x.source != "stock" for x in draws):
        a.fail("rule_fact", note, at, "another draw is legal")
    if note.code != "ai_why_stock_only" and a.obs.stock_size:
        a.fail("rule_fact", note, at, f"the stock holds {a.obs.stock_size} cards")


@claim("ai_why_end_deal_R", "ai_why_end_deal_H", "ai_why_keep_going")
def _why_end_deal(a: Audit, note: Note, at: At) -> None:
    if a.obs.stock_size:
        a.fail("rule_fact", note, at, f"the stock holds {a.obs.stock_size} cards")


@claim("ai_why_stock_easy", "ai_why_greedy_stock", "ai_why_stock", "ai_why_discard")
@claim("ai_cut_middle", "ai_terms", "ai_why_stock_before_opening")
def _plain(a: Audit, note: Note, at: At) -> None:
    """Sentences whose facts are checked where they are stated (the terms), or that state
    only the level's fixed habit."""
    if note.code == "ai_why_stock_easy":
        top = a.top
        if top is not None and a.arranger.melds_holding(a.with_card(top), top):
            a.fail("rule_fact", note, at, f"{text([top])} completes a meld")


# older sentences of the notes' form (an option scored by notes, not terms)


@claim("ai_note_value", "ai_note_deadwood_after", after=True)
def _note_value(a: Audit, note: Note, at: At) -> None:
    hand = a.after(at)
    a.deadwood(
        note,
        at,
        note.params["value"],
        lambda arr: a.ld(hand, arr),
        "the least deadwood after it is {true}",
    )


@claim("ai_note_expected", after=True)
def _note_expected(a: Audit, note: Note, at: At) -> None:
    hand = a.after(at)
    expected = a.base(hand).expected
    if not _shows(note.params["value"], expected):
        why = f"the expectation over the {a.n_unseen} unseen cards is {expected:.2f}"
        a.fail("expected_deadwood", note, at, why)


@claim("ai_note_single")
def _note_single(a: Audit, note: Note, at: At) -> None:
    card = _cards(note.params["card"])[0]
    if not _shows(note.params["value"], a.rules.value(card)):
        a.fail("card_value", note, at, f"{text([card])} is worth {a.rules.value(card)}")
    if card in a.hand and a.ld(a.hand) != a.rules.value(card) + a.ld(a.without(card)):
        a.fail("rule_fact", note, at, f"{text([card])} is in a meld of every best arrangement")


@claim("ai_note_partners", after=True)
def _note_partners(a: Audit, note: Note, at: At) -> None:
    d = a.discarded(at)
    rest = a.without(d)
    true = sum(1 for c in rest if _partial(a, d, c))
    if int(note.params["count"]) != true:
        a.fail("count", note, at, f"{true} cards of the hand make a meld with it and one more card")


@claim("ai_note_safe")
def _note_safe(a: Audit, note: Note, at: At) -> None:
    d = _discarded(at)
    seat = int(note.params["seat"])
    if d is None:
        return
    took = [c for c in a.mem.known.get(seat, Counter()) if _partial(a, d, c)]
    if took:
        a.fail("memory", note, at, f"seat {seat} took {text(took)}, which goes with it")
    if a.obs.opened[seat] and any(Arranger(a.rules, (t,)).layoffs_with((d,), 0) for t in a.table):
        a.fail("rule_fact", note, at, f"seat {seat} has opened and can lay it off")


@claim("ai_note_threat_opening")
def _note_threat_opening(a: Audit, note: Note, at: At) -> None:
    seat = int(note.params["seat"])
    if not a.rules.threshold or a.obs.opened[seat] or seat == a.seat:
        a.fail("rule_fact", note, at, f"seat {seat} can't open: it has opened, or it is this seat")
    if not 0 <= _number(note.params["chance"]) <= 100:
        a.fail("model_bounds", note, at, f"a chance of {note.params['chance']}%")


@claim("ai_fallback")
def _fallback(a: Audit, note: Note, at: At) -> None:
    if a.obs.legal_actions and a.trace.chosen != a.obs.legal_actions[0]:
        a.fail("rule_fact", note, at, f"the first legal move is {a.obs.legal_actions[0]}")


@claim("ai_say")
def _say(a: Audit, note: Note, at: At) -> None:
    """Free text: nothing to re-derive, and nothing a translator can translate."""
    a.fail("free_text", note, at, "a sentence of free text: no template to check or translate")


# the value of a term, as its sentence's numbers make it: (the parameters, the formula)
_PERCENT_OF = (("chance", "value"), lambda c, v: -c / 100 * v)
_CHANCE_POT = (("chance", "pot"), lambda c, q: c / 100 * q)
TERM_VALUES: dict[str, tuple[tuple[str, ...], Callable[..., float]]] = {
    **{
        f"ai_term_round_ends_{k}": _PERCENT_OF
        for k in ("hands", "stock", "hands_holding", "stock_holding")
    },
    "ai_term_next_draw": (("weight", "value"), lambda w, v: -w / 100 * v),
    "ai_term_next_draw_sure": (("value",), lambda v: -v),
    "ai_term_go_out": (
        ("count", "total", "bonus", "weight"),
        lambda n, t, b, w: n / t * b * w / 100 if t else 0.0,
    ),
    "ai_term_later_draws": (("weight", "gain"), lambda w, g: w / 100 * g),
    "ai_term_later_out": (("extra", "bonus", "weight"), lambda e, b, w: e / 100 * b * w / 100),
    "ai_term_lowest_hand_one": _CHANCE_POT,
    "ai_term_lowest_hand_many": _CHANCE_POT,
    "ai_term_not_searched_lowest": _CHANCE_POT,
    "ai_term_not_searched_lowest_equal": _CHANCE_POT,
    "ai_term_opening_points": (("expected",), lambda e: e / 2),
    "ai_term_open_chance": (("count", "total", "penalty"), lambda c, t, q: c / t * q if t else 0.0),
    "ai_term_outs": (("count", "weight"), lambda n, w: -n * w),
    "ai_term_outs_many": (("count", "weight"), lambda n, w: -n * w),
    "ai_term_threat": (("count", "samples", "cost"), lambda n, m, c: -n / m * c),
    "ai_term_threat_opening": (("count", "samples", "cost"), lambda n, m, c: -n / m * c),
}


def _check_term_values(a: Audit) -> None:
    """Every term's value is what its sentence's numbers make, within their rounding."""
    for c in a.trace.candidates:
        for t in c.terms:
            formula = TERM_VALUES.get(t.note.code)
            if formula is None:
                continue
            names, f = formula
            if any(n not in t.note.params for n in names):
                continue  # a sentence of another form: its checker weighs its value
            shown = [t.note.params[n] for n in names]
            if not _within(t.value, f, *shown):
                said = ", ".join(f"{n} {v}" for n, v in zip(names, shown))
                why = f"its value {signed(t.value)} is not what {said} make"
                a.fail("term_value", t.note, At("term", 0, c, t), why)


CHECKED = frozenset(CHECKS)
"""Every note code this audit can check."""


def claim_codes() -> set[str]:
    """Every code of a sentence the built-in agents may say (the ``ai_*`` templates that
    are sentences, not labels or layout)."""
    layout = {
        "ai_header",
        "ai_candidates_header",
        "ai_candidate",
        "ai_chosen",
        "ai_term",
        "ai_term_short",
        "ai_term_inline",
        "ai_option",
        "ai_option_line",
        "ai_behind",
        "ai_plan",
        "ai_rough_option",
        "ai_score_cell",
        "ai_not_searched",
        "ai_plan_no_melds",
        "ai_as_good",
        "ai_not_searched_plain",
    }
    return {
        c
        for c in TEMPLATES
        if c.startswith("ai_")
        and c not in layout
        and not c.startswith(("ai_label_", "ai_col_", "ai_level_"))
    }


# --- a whole trace ------------------------------------------------------------------------------


def notes_of(trace: Trace) -> Iterator[tuple[Note, At]]:
    """Every note of a trace with where it is."""
    for i, n in enumerate(trace.steps):
        yield n, At("step", i)
    for c in trace.candidates:
        for t in c.terms:
            yield t.note, At("term", 0, c, t)
        if not c.terms:
            for n in c.notes:
                yield n, At("note", 0, c)
        if c.plan is not None:
            yield c.plan, At("plan", 0, c)
    yield trace.why, At("why")


def audit(obs: Observation, decision: Decision | Trace) -> list[Finding]:
    """Every false claim of a decision's trace, re-derived from ``obs`` (the observation the
    agent decided on)."""
    trace = decision.trace if isinstance(decision, Decision) else decision
    a = Audit(obs, trace)
    for note, at in notes_of(trace):
        check = CHECKS.get(note.code)
        after = AFTER.get(note.code)
        if after and _discarded(at) is None:
            if isinstance(after, str):
                a.fail("misplaced", note, at, after)
            continue
        if check is None:
            a.fail("unchecked_code", note, at, f"no checker for the sentence {note.code!r}")
            continue
        try:
            check(a, note, at)
        except Exception as error:  # a sentence the audit can't read is a finding too
            a.fail("unreadable", note, at, f"{type(error).__name__}: {error}")
    _check_scores(a)
    _check_term_values(a)
    _check_rough_group(a)
    _check_text(a)
    return a.findings


def _check_scores(a: Audit) -> None:
    trace = a.trace
    for c in trace.candidates:
        if c.terms and abs(sum(t.value for t in c.terms) - c.score) > 1e-6:
            a.fail(
                "score_sum",
                trace.why,
                At("option", 0, c),
                f"the terms add up to {sum(t.value for t in c.terms):.3f}, the score is {c.score:.3f}",
            )
    if trace.candidates:
        best = max(c.score for c in trace.candidates)
        chosen = [c for c in trace.candidates if c.action == trace.chosen]
        if not chosen:
            a.fail(
                "choice", trace.why, At("why"), f"{trace.chosen} is not among the options weighed"
            )
        elif chosen[0].score < best - 1e-9:
            a.fail(
                "choice",
                trace.why,
                At("why"),
                f"{trace.chosen} scores {signed(chosen[0].score)}, the best {signed(best)}",
            )
    legal = set(a.obs.legal_actions)
    if legal and trace.chosen not in legal:
        a.fail("choice", trace.why, At("why"), f"{trace.chosen} is not a legal action")


def _check_text(a: Audit) -> None:
    for line in a.trace.lines():
        if "()" in line:
            a.findings.append(Finding("empty_list", "text", line.strip(), "an empty list “()”"))


# --- the hint a learner would be given (the hard agent's trace, second person) ----------------


def audit_hint(
    obs: Observation, decision: Decision, findings: Sequence[Finding] | None = None
) -> list[Finding]:
    """The hint sentence for this decision (a hard decision on a learner's turn): no lead
    for a tie, no empty list, and the plan it repeats as true as in the trace (``findings``:
    the trace's own, if already audited)."""
    from rummykit.ai.hint import Hint

    out: list[Finding] = []
    with speaking("en"):
        summary = Hint(decision).summary
    why = decision.trace.why
    if why.code == "ai_why_discard_tie":  # hint_plan_tie, hint_ai_why_discard_tie
        a = Audit(obs, decision.trace)
        _check_choice(a, Note("hint_generic"), At("hint"), why.params, tie=True)
        out += [Finding(f.code, "hint", summary, f.truth) for f in a.findings]
    if "ahead of" in summary and "diff" in why.params and _number(why.params["diff"]) <= 0:
        out.append(
            Finding(
                "tie_as_lead",
                "hint",
                summary,
                "a tie stated as a lead: “as good as”, not “ahead of”",
            )
        )
    if "()" in summary:
        out.append(Finding("empty_list", "hint", summary, "an empty list “()”"))
    chosen = next((c for c in decision.trace.candidates if c.action == decision.action), None)
    if chosen is not None and chosen.plan is not None and str(chosen.plan) in summary:
        findings = audit(obs, decision) if findings is None else findings
        plan = str(At("plan", 0, chosen))
        out += [Finding(f.code, "hint", summary, f.truth) for f in findings if f.where == plan]
    return out


# --- other languages ----------------------------------------------------------------------------

_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def _numbers(line: str, comma: bool) -> Counter[str]:
    found = _NUMBER.findall(line)
    if comma:
        return Counter(found)
    return Counter(n.replace(".", ",") for n in found)


_ENGLISH_ONLY: dict[tuple[str, int], frozenset[str]] = {}


def english_only(language: str) -> frozenset[str]:
    """Words of the English sentences that no sentence of ``language`` uses (lower case,
    four letters or more): one of them in a translated trace is English left over."""
    key = (language, id(catalogue(language)))
    if key not in _ENGLISH_ONLY:
        word = re.compile(r"[^\W\d_]{4,}")
        english = {
            w.lower()
            for t in TEMPLATES.values()
            for w in word.findall(re.sub(r"\{[^}]*\}", " ", t))
        }
        found = catalogue(language)
        theirs: set[str] = set()
        if found is not None:
            for msg in getattr(found, "_catalog", {}).values():
                if isinstance(msg, str):
                    theirs |= {w.lower() for w in word.findall(re.sub(r"\{[^}]*\}", " ", msg))}
        _ENGLISH_ONLY[key] = frozenset(english - theirs)
    return _ENGLISH_ONLY[key]


def audit_languages(
    decision: Decision, hint: bool = False, languages: Sequence[str] = ("pt", "fi")
) -> list[Finding]:
    """The trace in each language: the same numbers as in English (a decimal comma), no
    "()", no English left."""
    out: list[Finding] = []
    with speaking("en"):
        english = decision.trace.lines()
        if hint:
            from rummykit.ai.hint import Hint

            english.append(Hint(decision).summary)
    word = re.compile(r"[^\W\d_]{4,}")
    for language in languages:
        with speaking(language):
            lines = decision.trace.lines()
            if hint:
                from rummykit.ai.hint import Hint

                lines.append(Hint(decision).summary)
        leftovers = english_only(language)
        if len(lines) != len(english):
            out.append(
                Finding(
                    "language_lines", language, f"{len(lines)} lines", f"{len(english)} in English"
                )
            )
            continue
        for en, there in zip(english, lines):
            if _numbers(en, False) != _numbers(there, True):
                out.append(
                    Finding(
                        "language_numbers",
                        language,
                        there.strip(),
                        f"English shows {sorted(_numbers(en, False).elements())}: “{en.strip()}”",
                    )
                )
            if "()" in there:
                out.append(Finding("empty_list", language, there.strip(), "an empty list “()”"))
            left = [w for w in word.findall(there) if w.lower() in leftovers]
            if left:
                out.append(
                    Finding(
                        "language_english",
                        language,
                        there.strip(),
                        f"English words left: {' '.join(left)}",
                    )
                )
    return out


# --- playing games and auditing every decision ---------------------------------------------------

LEVELS = ("easy", "normal", "hard", "greedy")


@dataclass(frozen=True)
class Audited:
    """One decision of a game, audited: the reproducer, the level, and its findings."""

    reproducer: dict[str, Any]
    level: str
    findings: list[Finding]


def _shown_in(where: str, languages: Sequence[str]) -> dict[str, Any]:
    if where in languages:
        return {"language": where}
    if where == "hint":
        return {"hint": True}
    return {}


def reproducer_code(rep: dict[str, Any]) -> str:
    """A Python snippet that replays a game to the decision and prints its trace (in the
    language, or the hint, that a finding is about)."""
    if rep.get("language") or rep.get("hint"):
        shown = "Hint(decision).summary" if rep.get("hint") else "decision.trace"
        imports = "from rummykit.ai.hint import Hint\n" if rep.get("hint") else ""
        speak = (
            f"from rummykit.language import speaking\nwith speaking({rep['language']!r}):\n    "
            if rep.get("language")
            else ""
        )
        return (
            "from rummykit.game import Game\n"
            "from rummykit.ai import make_agent\n"
            + imports
            + f"game = Game.new({rep['variant']!r}, players={rep['players']}, seed={rep['seed']})\n"
            f"agents = [make_agent(level) for level in {list(rep['levels'])!r}]\n"
            f"for _ in range({rep['move']}):\n"
            "    game.play(agents[game.current].decide(game.observation(game.current)).action)\n"
            "decision = agents[game.current].decide(game.observation(game.current))\n"
            + speak
            + f"print({shown})"
        )
    return (
        "from rummykit.game import Game\n"
        "from rummykit.ai import make_agent\n"
        f"game = Game.new({rep['variant']!r}, players={rep['players']}, seed={rep['seed']})\n"
        f"agents = [make_agent(level) for level in {list(rep['levels'])!r}]\n"
        f"for _ in range({rep['move']}):\n"
        "    game.play(agents[game.current].decide(game.observation(game.current)).action)\n"
        "print(agents[game.current].decide(game.observation(game.current)).trace)"
    )


def play(
    variant: str,
    players: int,
    seed: int,
    levels: Sequence[str],
    *,
    languages: Sequence[str] = (),
    hints: bool = True,
    limit: int | None = None,
) -> Iterator[Audited]:
    """Play one round with these levels at the seats and audit every decision."""
    from rummykit.ai import make_agent
    from rummykit.game import Game

    game = Game.new(variant, players=players, seed=seed)
    agents = [make_agent(level) for level in levels]
    move = 0
    while not game.is_over and (limit is None or move < limit):
        seat = game.current
        obs = game.observation(seat)
        decision = agents[seat].decide(obs)
        rep = {
            "variant": variant,
            "players": players,
            "seed": seed,
            "levels": list(levels),
            "move": move,
        }
        findings = audit(obs, decision)
        if hints and agents[seat].name == "hard" and obs.legal_actions:
            findings += audit_hint(obs, decision, findings)
        if languages:
            findings += audit_languages(
                decision, hint=agents[seat].name == "hard", languages=languages
            )
        findings = [
            Finding(f.code, f.where, f.claim, f.truth, {**rep, **_shown_in(f.where, languages)})
            for f in findings
        ]
        yield Audited(rep, agents[seat].name, findings)
        game.play(decision.action)
        move += 1


TABLES = tuple((v, n) for v in ("rommi", "hungarian") for n in (2, 3, 4))


def schedule(seed: int) -> Iterator[tuple[str, int, int, list[str]]]:
    """Games to audit, forever: both variants, 2, 3 and 4 players in turn, every level at
    every table (the levels rotate over the seats, mixed), each game with a fresh seed."""
    import random

    rng = random.Random(seed)
    k = 0
    while True:
        for variant, players in TABLES:
            start = k % len(LEVELS)
            levels = [LEVELS[(start + i) % len(LEVELS)] for i in range(players)]
            if players == 2:  # two seats: the pairs of levels in turn
                levels = [LEVELS[start], LEVELS[(start + 1 + k // len(LEVELS)) % len(LEVELS)]]
            rng.shuffle(levels)
            yield variant, players, rng.randrange(10**6), levels
        k += 1


@dataclass
class Report:
    """What an audit of many decisions found: decisions and decisions with a false claim
    (in any language, and in English alone) per level, variant and table size, and per
    class of finding the decisions it was found in, by level, with the first reproducer of
    each level."""

    decisions: Counter[str] = field(default_factory=Counter)
    false: Counter[str] = field(default_factory=Counter)
    false_english: Counter[str] = field(default_factory=Counter)
    classes: dict[str, Counter[str]] = field(default_factory=dict)
    examples: dict[str, dict[str, Finding]] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, audited: Audited) -> None:
        variant = audited.reproducer["variant"]
        players = audited.reproducer["players"]
        english = [f for f in audited.findings if not f.reproducer.get("language")]
        for key in (audited.level, f"variant:{variant}", f"players:{players}", "all"):
            self.decisions[key] += 1
            if audited.findings:
                self.false[key] += 1
            if english:
                self.false_english[key] += 1
        for code in sorted({f.code for f in audited.findings}):
            self.classes.setdefault(code, Counter())[audited.level] += 1
            self.classes[code]["all"] += 1
            first = next(f for f in audited.findings if f.code == code)
            self.examples.setdefault(code, {}).setdefault(audited.level, first)

    def to_dict(self) -> dict[str, Any]:
        def example(f: Finding) -> dict[str, Any]:
            return {
                "where": f.where,
                "claim": f.claim,
                "truth": f.truth,
                "reproducer": f.reproducer,
                "code": reproducer_code(f.reproducer),
            }

        return {
            "decisions": dict(self.decisions),
            "with_false_claim": dict(self.false),
            "with_false_claim_in_english": dict(self.false_english),
            "seconds": round(self.seconds, 1),
            "classes": {
                code: {
                    "decisions": dict(counts),
                    "example": example(next(iter(self.examples[code].values()))),
                    "examples": {level: example(f) for level, f in self.examples[code].items()},
                }
                for code, counts in sorted(self.classes.items(), key=lambda kv: -kv[1]["all"])
            },
        }


def run(
    decisions: int,
    seed: int,
    *,
    languages: Sequence[str] = ("pt", "fi"),
    hints: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Audit at least ``decisions`` decisions of the games of :func:`schedule` (whole
    games: the last one is played to its end)."""
    import time

    report = Report()
    start = time.perf_counter()
    for variant, players, game_seed, levels in schedule(seed):
        if report.decisions["all"] >= decisions:
            break
        for audited in play(variant, players, game_seed, levels, languages=languages, hints=hints):
            report.add(audited)
        if progress is not None:
            progress(report.decisions["all"])
    report.seconds = time.perf_counter() - start
    return report
