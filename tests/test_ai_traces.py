"""The traces are one unit a learner can rebuild: every option's score is the sum of its
shown terms, and every claim a trace makes is true of the observation.

The claims are re-derived here with code of the test's own — brute-force meld enumeration
with :func:`rummykit.melds.make_meld`, the solver's exact answers, and counting over the
deck — never with the agents' planning helpers.

The number of decisions per level and variant is ``RUMMYKIT_TRACE_DECISIONS`` (default
500); a longer run by hand::

    RUMMYKIT_TRACE_DECISIONS=3000 python -m pytest tests/test_ai_traces.py -q
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations
from statistics import NormalDist

import pytest

from rummykit.ai import AGENTS, Decision, make_agent
from rummykit.ai.planning import END_RATE, END_SPREAD
from rummykit.ai.trace import Note
from rummykit.cards import JOKER, SUITS, Card, parse_card
from rummykit.game import Discard, Draw, Game
from rummykit.game.observation import Observation
from rummykit.melds import IllegalMeld, Meld, layoff_readings, make_meld
from rummykit.solver import best_opening, can_go_out, min_deadwood
from rummykit.variants import Variant

DECISIONS = int(os.environ.get("RUMMYKIT_TRACE_DECISIONS", "500"))
LEVEL_NAMES = sorted(AGENTS)


@cache
def decisions(level: str, name: str) -> list[tuple[Observation, Decision]]:
    """At least ``DECISIONS`` decisions of ``level`` in ``name``, over 2, 3 and 4 players
    (every seat at that level), with the observation each was made from."""
    out: list[tuple[Observation, Decision]] = []
    seed = 0
    while len(out) < DECISIONS:
        players = 2 + seed % 3
        game = Game.new(name, players=players, seed=7000 + seed)
        agents = [make_agent(level) for _ in range(players)]
        while not game.is_over:
            seat = game.current
            obs = game.observation(seat)
            decision = agents[seat].decide(obs)
            assert decision.action in obs.legal_actions
            out.append((obs, decision))
            game.play(decision.action, seat)
        seed += 1
    return out


CASES = [(level, name) for level in LEVEL_NAMES for name in ("rommi", "hungarian")]


@pytest.mark.parametrize(("level", "name"), CASES)
def test_every_option_is_the_sum_of_its_shown_terms(level: str, name: str) -> None:
    options = 0
    for obs, decision in decisions(level, name):
        trace = decision.trace
        text = str(trace)
        weighed = {c.action for c in trace.candidates}
        # every option of the choice is scored: each legal draw, or each legal discard
        draws = {a for a in obs.legal_actions if isinstance(a, Draw)}
        if obs.phase == "draw" and len(draws) > 1:
            assert weighed >= draws, f"draws not scored: {draws - weighed}\n{trace}"
        throws = {a for a in obs.legal_actions if isinstance(a, Discard)}
        if isinstance(trace.chosen, Discard) and len(throws) > 1:
            assert weighed >= throws, f"discards not scored: {throws - weighed}\n{trace}"
        for c in trace.candidates:
            assert c.terms, f"{c.action} has a score without terms"
            assert abs(c.score - sum(t.value for t in c.terms)) < 1e-9
            for term in c.terms:
                assert str(term.note)  # every term has its sentence
                if c.searched:  # shown in words, in full or on the option's one line
                    assert str(term.note) in text, f"{term.note} is not shown\n{text}"
            options += 1
            assert str(c.action) in text  # every option is shown
        # the chosen one is the best-scored option whenever options were weighed
        if trace.candidates:
            best = max(c.score for c in trace.candidates)
            chosen = [c for c in trace.candidates if c.action == trace.chosen]
            assert chosen and chosen[0].score == best
    assert options > 0


# --- claims, re-derived ---------------------------------------------------------------------


def unseen(obs: Observation) -> Counter[Card]:
    """The deck less every card this seat has seen (its hand, the pile, the table, the
    cut card)."""
    public = [c for tm in obs.table for c in tm.meld.cards]
    if obs.cut_card is not None:
        public.append(obs.cut_card)
    return Counter(obs.variant.deck()) - Counter([*obs.hand, *obs.discard_pile, *public])


def is_meld(cards: Sequence[Card], v: Variant) -> bool:
    try:
        make_meld(list(cards), v)
    except (IllegalMeld, ValueError):
        return False
    return True


def melds_holding(card: Card, others: Sequence[Card], v: Variant) -> Iterator[Meld]:
    """Every meld of ``card`` with some of ``others`` (brute force over same-rank and
    same-suit cards and at most one joker)."""
    near = [c for c in others if c.is_joker or c.rank == card.rank or c.suit == card.suit]
    pool = list(dict.fromkeys(near))  # distinct cards: a meld never holds twins
    seen: set[tuple[str, ...]] = set()
    for size in range(2, min(len(pool), 12) + 1):
        for pick in combinations(pool, size):
            if sum(c.is_joker for c in pick) > 1:
                continue
            key = tuple(sorted(map(str, pick)))
            if key in seen:
                continue
            seen.add(key)
            try:
                yield make_meld([card, *pick], v)
            except (IllegalMeld, ValueError):
                continue


def natural_three(cards: Sequence[Card], ace_low: bool, ace_high: bool) -> bool:
    """Whether three natural cards are a set (one rank, three suits) or a run (one suit,
    three places in a row; the ace below the 2 and/or above the king as the variant says)."""
    if len({c.rank for c in cards}) == 1:
        return len({c.suit for c in cards}) == 3
    if len({c.suit for c in cards}) != 1:
        return False
    for places in _places(cards, ace_low, ace_high):
        low = min(places)
        if sorted(places) == [low, low + 1, low + 2]:
            return True
    return False


def _places(cards: Sequence[Card], ace_low: bool, ace_high: bool) -> list[list[int]]:
    options: list[list[int]] = [[]]
    for c in cards:
        here = [1, 14] if c.rank == 1 else [c.rank]
        here = [q for q in here if (q != 1 or ace_low) and (q != 14 or ace_high)]
        options = [[*o, q] for o in options for q in here]
    return options


@cache
def three_meld_partner(card: Card, other: Card, v: Variant) -> list[Card]:
    """The natural cards that make a three-card meld with ``card`` and ``other``."""
    deck = set(v.deck())
    return [
        x
        for x in deck
        if not x.is_joker and natural_three((card, other, x), v.ace_low, v.ace_above_king)
    ]


def value(cards: Sequence[Card], v: Variant) -> int:
    return sum(v.card_value(c) for c in cards)


def rest_of(obs: Observation, card: Card) -> list[Card]:
    rest = list(obs.hand)
    rest.remove(card)
    return rest


def loose(hand: Sequence[Card], v: Variant) -> list[Card]:
    """The cards outside the melds of a least-deadwood arrangement (the solver's)."""
    from rummykit.solver import best_arrangement

    return list(best_arrangement(list(hand), v).deadwood)


def check_note(obs: Observation, decision: Decision, note: Note, action: object) -> str | None:
    """Why ``note`` is false of ``obs`` (None when it holds, or says nothing checkable)."""
    v = obs.variant
    p = note.params
    code = note.code
    hand = list(obs.hand)
    top = obs.discard_top
    opened = obs.opened[obs.seat] or not v.opening_threshold
    rest = rest_of(obs, action.card) if isinstance(action, Discard) else hand
    un = unseen(obs)
    empty = obs.stock_size == 0 and (
        not v.reshuffle_discards
        or any(e.code == "reshuffle" for e in obs.history)
        or len(obs.discard_pile) <= 1
    )  # asking the stock for a card ends the deal (R10, H15): there is no stock card
    stock_words = ("ai_term_stock_same", "ai_term_stock_rule", "ai_term_next_draw")
    at_the_end = empty and obs.phase == "draw" and action == Draw("stock")
    if at_the_end and (
        code in stock_words or code.startswith(("ai_why_stock", "ai_why_greedy_stock"))
    ):
        return "it speaks of a card from the stock, but the stock is empty"
    if code.startswith("ai_term_end_deal") and (not empty or p["value"] != min_deadwood(hand, v)):
        return "not the end of the deal, or not the deadwood of my hand"
    if code == "ai_term_deadwood_left":
        cards = list(p["cards"])
        if p["value"] != value(cards, v):
            return "the value is not the sum of the cards named"
        if p["value"] != min_deadwood(rest, v):
            return "not the least deadwood of the hand left"
        left = Counter(rest)
        left.subtract(cards)
        if min(left.values(), default=0) < 0:
            return "names cards that are not in the hand left"
        if min_deadwood(list(left.elements()), v) != 0:
            return "the other cards don't all meld"
    elif code == "ai_term_no_deadwood":
        if min_deadwood(rest, v) != 0:
            return "there is deadwood"
    elif code == "ai_term_take":
        drawn = [*hand, p["card"]]
        exact = min_deadwood(drawn, v, discard=True)
        if decision.trace.agent == "hard" and opened and obs.table:
            if p["value"] > exact:
                return "more deadwood than the solver finds without lay-offs"
        elif p["value"] != exact:
            return f"deadwood after the take is {exact}, not {p['value']}"
    elif code == "ai_term_draw_out":
        table = [tm.meld for tm in obs.table] if opened else []
        drawn = [*hand, p["card"]]
        if not (
            can_go_out(drawn, v, table).ok or can_go_out(drawn, v, table, final_discard=True).ok
        ):
            return f"{p['card']} doesn't take the hand out"
    elif code == "ai_term_rule_cut":
        table = [tm.meld for tm in obs.table] if opened else []
        drawn = [*hand, p["card"]]
        if p["card"] != obs.cut_card:
            return "not the cut card"
        if opened and can_go_out(drawn, v, table).ok:
            return "the cut card takes the hand out"
    elif code == "ai_term_rule_mine":
        mine = [
            parse_card(e.params["card"])
            for e in obs.history
            if e.seat == obs.seat and e.code == "discard"
        ]
        if p["card"] not in mine:
            return "I never threw that card away"
    elif code.startswith("ai_term_rule_before_opening"):
        if obs.opened[obs.seat] or not v.opening_threshold:
            return "this seat has opened (or there is no opening)"
    elif code == "ai_term_rule_not_lowest":
        if obs.stock_size:
            return "the stock is not empty"
    elif code in ("ai_term_stock_same", "ai_term_stock_rule"):
        if p["value"] != min_deadwood(hand, v):
            return "not the deadwood of the hand"
    elif code == "ai_term_outs":
        card = action.card  # type: ignore[attr-defined]
        partners = list(p["partners"])
        mine = loose(hand, v)
        if any(q not in mine for q in partners):
            return "a partner is not a loose card of mine"
        cards = [c for c in p["cards"] if not c.is_joker]
        jokers = len(p["cards"]) - len(cards)
        wanted = Counter()
        for q in mine:
            if q == card or q.is_joker:
                continue
            for x in three_meld_partner(card, q, v):
                wanted[x] = un[x]
        if Counter(cards) != +wanted:
            return f"the outs named {sorted(map(str, cards))} are not the live outs"
        if p["count"] != len(p["cards"]):
            return "the count is not the number of cards named"
        if jokers and jokers != un[JOKER]:
            return "joker count wrong"
    elif code == "ai_term_dead_partner":
        card = action.card  # type: ignore[attr-defined]
        partner = p["partner"]
        if partner not in loose(hand, v):
            return "the partner is not a loose card of mine"
        needs = set(three_meld_partner(card, partner, v))
        if set(p["cards"]) != needs:
            return "the cards it needs are not the ones named"
        if any(un[x] for x in needs):
            return "a card it needs is still unseen"
    elif code == "ai_term_no_partner":
        card = p["card"]
        for q in loose(hand, v):
            if q != card and not q.is_joker and three_meld_partner(card, q, v):
                return f"{q} is a partner"
    elif code == "ai_term_feed_took":
        takes = [
            parse_card(e.params["card"])
            for e in obs.history
            if e.seat == p["seat"] and e.code == "draw_discard"
        ]
        if p["took"] not in takes:
            return "that seat never took the card"
        if not three_meld_partner(action.card, p["took"], v):  # type: ignore[attr-defined]
            return "the two cards make no meld together"
    elif code == "ai_term_feed_layoff":
        if not obs.opened[p["seat"]]:
            return "that seat has not opened"
        meld = obs.table[p["meld"] - 1].meld  # people number the melds from 1
        if not layoff_readings(meld, (action.card,), v):  # type: ignore[attr-defined]
            return "the card doesn't fit that meld"
    elif code in ("ai_term_next_draw", "ai_term_go_out", "ai_term_open_chance"):
        if p["total"] != sum(un.values()):
            return "not the number of unseen cards"
        if code == "ai_term_go_out":
            table = [tm.meld for tm in obs.table] if opened else []
            for x in p["cards"]:
                if not can_go_out([*rest, x], v, table).ok:
                    return f"{x} doesn't take the hand out"
                if not un[x]:
                    return f"{x} is not unseen"
            if p["count"] != sum(un[x] for x in p["cards"]):
                return "the count is not the unseen copies of the cards named"
        if code == "ai_term_open_chance":
            for x in p["cards"]:
                if best_opening([*rest, x], v).points < v.opening_threshold:
                    return f"{x} doesn't let the hand open"
            if p["count"] != sum(un[x] for x in p["cards"]):
                return "the count is not the unseen copies of the cards named"
    elif code in ("ai_term_later_draws", "ai_term_later_out"):
        terms = {t.note.code: t.note for c in decision.trace.candidates if c.action == action
                 for t in c.terms}  # fmt: skip
        later = min(p["cap"] - 1, max(0, obs.stock_size // obs.players - 1))
        if p["draws"] != 1 + later or later < 1:
            return f"the stock leaves {1 + later} draws, not {p['draws']}"
        if code == "ai_term_later_draws":
            one, best = float(p["one"]), float(p["value"])
            if not 0 <= best < one or abs(one - best - float(p["gain"])) > 0.11:
                return "the best of the draws is not below one draw by the gain told"
            if one < float(terms["ai_term_next_draw"].params["value"]) - 0.05:
                return "one draw of the melding cards can't beat one draw of them all"
        else:
            go = terms["ai_term_go_out"].params
            chance = go["count"] / go["total"]
            within = 1 - (1 - chance) ** p["draws"]
            if abs(100 * within - float(p["chance"])) > 0.5:
                return f"the chance of going out within {p['draws']} draws is {within:.1%}"
            if abs(100 * (within - chance) - float(p["extra"])) > 0.5:
                return "not the extra chance over the next draw"
    elif code in ("ai_term_lowest_hand_one", "ai_term_lowest_hand_many"):
        problem = check_lowest_hand(obs, rest, p)
        if problem:
            return problem
    elif code == "ai_term_not_searched_lowest":
        sizes = others_sizes(obs)
        rate = END_RATE[obs.players][
            min(len(END_RATE[obs.players]) - 1, obs.stock_size // obs.players)
        ]
        if p["value"] < p["limit"] or (p["value"] != min_deadwood(rest, v) and not obs.table):
            return "it leaves less than a searched option, or not its deadwood"
        if abs(100 * chance_lowest(p["value"], sizes, rate) - float(p["chance"])) > 0.051:
            return "not the chance of the lowest hand as it is"
    elif code == "ai_empty_stock_lowest":
        sizes = others_sizes(obs)
        rate = END_RATE[obs.players][0]
        if obs.stock_size or p["mine"] != value(hand, v):
            return "my hand's value or the stock told wrong"
        if p["cards"] != sum(sizes) or float(p["rate"]) != rate:
            return "the others' cards or the points a card told wrong"
        if abs(100 * chance_lowest(p["mine"], sizes, rate) - float(p["chance"])) > 0.51:
            return "not the chance of the lowest hand"
        if abs(float(p["limit"]) - 100 / obs.players) > 0.51:
            return "not an even share"
    elif code == "ai_term_opening_points":
        if p["now"] != best_opening(rest, v).points:
            return "not the best opening of the hand left"
    elif code in ("ai_term_opening_gain", "ai_opening_with"):
        if p["before"] != best_opening(hand, v).points:
            return "'before' is not the best opening"
        if p["after"] != best_opening([*hand, p["card"]], v).points:
            return "'after' is not the best opening with the card"
    elif code in ("ai_term_round_ends_hands", "ai_term_round_ends_stock"):
        exact = min_deadwood(rest, v)
        if p["value"] > exact or (not (opened and obs.table) and p["value"] != exact):
            return "not the deadwood of the hand left"
    elif code.startswith("ai_term_round_ends") and code.endswith("_holding"):
        if p["value"] != value(rest, v):
            return "not the value of the whole hand left"
    elif code == "ai_term_not_searched":
        if p["value"] < p["limit"]:
            return "it leaves less than a searched option"
    elif code == "ai_term_threat" or code == "ai_term_threat_opening":
        if not 0 < p["count"] <= p["samples"]:
            return "count out of range"
    elif code == "ai_term_no_caution":
        for q in p["cards"]:
            if q not in hand or not three_meld_partner(p["card"], q, v):
                return f"{q} is not a partner in hand"
    elif code == "ai_plan_waits":
        table = [tm.meld for tm in obs.table] if opened else []
        now = min_deadwood(rest, v)
        for x in p["cards"]:
            if not un[x]:
                return f"{x} is not unseen"
            if not table and min_deadwood([*rest, x], v, discard=True) >= now:
                return f"{x} doesn't lower the deadwood"
    elif code in ("ai_known_hand_one", "ai_known_hand_many"):
        takes = Counter(
            parse_card(e.params["card"])
            for e in obs.history
            if e.seat == p["seat"] and e.code in ("draw_discard", "draw_cut", "exchange")
        )
        takes[JOKER] += 0
        if Counter(p["cards"]) - takes and not any(c.is_joker for c in p["cards"]):
            return "it never took those cards"
        if (len(p["cards"]) == 1) != (code == "ai_known_hand_one"):
            return "singular and plural mixed up"
    elif code == "ai_memory":
        takes = [e for e in obs.history if e.seat == p["seat"] and e.code == "draw_discard"]
        if p["count"] != len(takes):
            return "not the number of takes"
    elif code in ("ai_discard_unusable_opening", "ai_discard_off_plan_opening"):
        assert top is not None
        others = hand
        best = 0
        for meld in melds_holding(top, others, v):
            left = Counter([*hand, top])
            left.subtract(meld.cards)
            left_cards = list(left.elements())
            if not left_cards:
                continue
            best = max(best, meld.points(v) + best_opening(left_cards, v).points)
        holds = best >= v.opening_threshold
        if holds != (code == "ai_discard_off_plan_opening"):
            return f"an opening holding {top} reaches {best}"
    elif code in ("ai_discard_unusable_opened", "ai_discard_off_plan"):
        assert top is not None
        makes = any(True for _ in melds_holding(top, hand, v))
        if makes != (code == "ai_discard_off_plan"):
            return "whether it makes a meld with my cards is told wrong"
        if code == "ai_discard_unusable_opened" and any(
            layoff_readings(tm.meld, (top,), v) for tm in obs.table
        ):
            return "it fits a meld on the table"
    elif code == "ai_discard_unusable_first_turn":
        if obs.turns[obs.seat] != 0:
            return "not the first turn"
    elif code == "ai_cannot_open":
        if p["points"] >= p["threshold"]:
            return "it could open"
    elif code == "ai_hold_melds_stock":
        others = [obs.hand_sizes[s] for s in range(obs.players) if s != obs.seat]
        if p["count"] != min(others) or p["stock"] != obs.stock_size:
            return "hand sizes or stock told wrong"
    elif code == "ai_empty_stock_mean":
        if p["mine"] != value(hand, v) or obs.stock_size:
            return "my hand's value or the stock told wrong"
    elif (
        code in ("ai_why_discard_change", "ai_discard_change")
        and p["before"] < p["after"]
        and decision.trace.chosen == Draw("discard")
    ):
        return "took a card that raises the deadwood"
    return None


def others_sizes(obs: Observation) -> list[int]:
    return [obs.hand_sizes[s] for s in range(obs.players) if s != obs.seat]


def chance_lowest(mine: int, sizes: Sequence[int], rate: float) -> float:
    """The chance that ``mine`` is below every other hand, each a normal curve around
    ``rate`` points a card (the documented model), with the standard library's NormalDist."""
    chance = 1.0
    for size in sizes:
        likely = rate * size
        chance *= 1 - NormalDist(likely, END_SPREAD * likely + 1).cdf(mine)
    return chance


def check_lowest_hand(obs: Observation, rest: list[Card], p: dict[str, object]) -> str | None:
    """A short deal's "I win it about N% of the time": re-derived by drawing every unseen
    card into the hand left, with the solver (no lay-offs: they can only lower the
    deadwood, so the trace's chance is at least this one, and equal with nothing on the
    table to lay off onto)."""
    v = obs.variant
    sizes = others_sizes(obs)
    stock_rounds = min(len(END_RATE[obs.players]) - 1, obs.stock_size // obs.players)
    rate = END_RATE[obs.players][stock_rounds]
    draws = max(1, obs.stock_size // obs.players)
    if p["draws"] != draws:
        return f"the stock leaves {draws} draws, not {p['draws']}"
    if p["cards"] != sum(sizes) or float(str(p["rate"])) != rate:
        return "the others' cards or the points a card told wrong"
    if abs(float(str(p["pot"])) - rate * sum(sizes)) > 0.51:
        return "the winner's take is not the others' likely hands"
    un = unseen(obs)
    total = sum(un.values())
    after: Counter[int] = Counter()
    for card, copies in un.items():
        drawn = [*rest, card]
        dead = min_deadwood(drawn, v, discard=True)
        if not v.discard_to_win and min_deadwood(drawn, v) == 0:
            dead = 0
        after[dead] += copies
    chance, above = 0.0, total
    for dead in sorted(after):
        share = (above / total) ** draws
        above -= after[dead]
        share -= (above / total) ** draws
        chance += share * (1.0 if dead == 0 else chance_lowest(dead, sizes, rate))
    told = float(str(p["chance"])) / 100
    if told < chance - 0.00051 or (not obs.table and abs(told - chance) > 0.00051):
        return f"the chance of winning the deal is {chance:.1%}, not {told:.0%}"
    return None


def notes_of(decision: Decision) -> Iterator[tuple[Note, object]]:
    trace = decision.trace
    for n in trace.steps:
        yield n, trace.chosen
    yield trace.why, trace.chosen
    for c in trace.candidates:
        for t in c.terms:
            yield t.note, c.action
        if c.plan is not None:
            yield c.plan, c.action


@pytest.mark.parametrize(("level", "name"), CASES)
def test_every_claim_in_the_traces_is_true(level: str, name: str) -> None:
    false: list[str] = []
    checked = 0
    for obs, decision in decisions(level, name):
        for note, action in notes_of(decision):
            checked += 1
            problem = check_note(obs, decision, note, action)
            if problem:
                false.append(f"{note} — {problem}\n{decision.trace}")
    assert checked > DECISIONS
    assert not false, f"{len(false)} false claims, the first:\n{false[0]}"


def test_the_checker_catches_a_false_claim() -> None:
    """The claim checker is not a rubber stamp: doctored notes are found out."""
    obs, decision = next(
        (o, d)
        for o, d in decisions("normal", "rommi")
        if any(t.note.code == "ai_term_deadwood_left" for c in d.trace.candidates for t in c.terms)
    )
    cand = next(
        c for c in decision.trace.candidates if c.terms[0].note.code == "ai_term_deadwood_left"
    )
    note = cand.terms[0].note
    wrong = Note(note.code, {**note.params, "value": note.params["value"] + 1}, note.cards)
    assert check_note(obs, decision, wrong, cand.action)
    no_partner = Note("ai_term_no_partner", {"card": obs.hand[0]})
    fake_hand_partner = any(
        three_meld_partner(obs.hand[0], q, obs.variant)
        for q in loose(obs.hand, obs.variant)
        if q != obs.hand[0] and not q.is_joker
    )
    assert bool(check_note(obs, decision, no_partner, cand.action)) == fake_hand_partner
    assert SUITS  # the deck's suits are what three_meld_partner searches


def test_the_checker_catches_a_false_chance_of_the_lowest_hand() -> None:
    """A short deal's chance of winning, told 10 points too high or too low (with nothing
    on the table to lay off onto, where it is exact), or with the wrong draws, is caught."""
    found = 0
    for obs, decision in decisions("hard", "rommi"):
        for c in decision.trace.candidates:
            for t in c.terms:
                if not t.note.code.startswith("ai_term_lowest_hand"):
                    continue
                p = t.note.params
                rest = rest_of(obs, c.action.card)  # type: ignore[attr-defined]
                assert check_lowest_hand(obs, rest, p) is None
                wrong = {**p, "draws": p["draws"] + 1}
                assert check_lowest_hand(obs, rest, wrong)
                if not obs.table:
                    for shift in (-10, 10):
                        told = min(100, max(0, float(p["chance"]) + shift))
                        if abs(told - float(p["chance"])) > 0.5:
                            assert check_lowest_hand(obs, rest, {**p, "chance": f"{told:.1f}"})
                            found += 1
    assert found > 10


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_at_the_empty_stock_no_option_speaks_of_a_stock_card(level: str) -> None:
    """Asking the empty stock for a card ends the deal (R10): each level's trace says so,
    and the old wording ("Drawing from the stock: …", "a stock card, counted as no
    change") is caught by the claim checker there."""
    found = 0
    for obs, decision in decisions(level, "rommi"):
        if obs.phase != "draw" or obs.stock_size or decision.action != Draw("stock"):
            continue
        found += 1
        assert decision.trace.why.code.startswith("ai_why_end_deal")
        top = obs.discard_top
        for old in (Note("ai_why_stock_normal", {"card": top}), Note("ai_why_stock_only")):
            assert check_note(obs, decision, old, decision.action)
        stock = next(c for c in decision.trace.candidates if c.action == Draw("stock"))
        assert any(t.note.code == "ai_term_end_deal_R" for t in stock.terms)
    assert found >= 3
