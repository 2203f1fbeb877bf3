"""The computer opponents (R12): legal moves only, each level's defining behaviour, the
Hungarian duties (H7–H11), no peeking at hidden cards, and readable traces."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from rummykit.ai import AGENTS, LEVELS, BaseAgent, Decision, make_agent
from rummykit.ai.hint import hint
from rummykit.ai.planning import Forecast
from rummykit.ai.trace import signed
from rummykit.cards import JOKER, Card, parse_cards
from rummykit.game import (
    Action,
    Discard,
    Draw,
    ExchangeJoker,
    Game,
    LayOff,
    PlayMeld,
    Undo,
    from_position,
    parse_action,
)
from rummykit.solver import best_arrangement
from rummykit.tournament import run_tournament
from rummykit.variants import variant

AgentMaker = Callable[[], BaseAgent]


def decide(agent: BaseAgent, game: Game) -> Decision:
    """The agent's decision for the seat to act, checked to be one the referee offers."""
    obs = game.observation(game.current)
    decision = agent.decide(obs)
    assert decision.action in obs.legal_actions, (decision.action, str(decision.trace))
    return decision


def play_turn(agent: BaseAgent, game: Game, limit: int = 60) -> list[Action]:
    """Let ``agent`` play the seat to act until its turn ends (or the round does)."""
    seat = game.current
    done: list[Action] = []
    while not game.is_over and game.current == seat and len(done) < limit:
        action = decide(agent, game).action
        game.play(action)
        done.append(action)
        if isinstance(action, Discard):
            break
    assert len(done) < limit, "the agent went round in circles"
    return done


def play_round(game: Game, agents: Sequence[BaseAgent], limit: int = 5000) -> int:
    actions = 0
    while not game.is_over:
        seat = game.current
        game.play(decide(agents[seat], game).action, seat)
        actions += 1
        assert actions < limit
    return actions


# --- legal moves only ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [
        ("rommi", 2, 1),
        ("rommi", 3, 2),
        ("rommi", 4, 3),
        ("rommi", 2, 4),
        ("hungarian", 2, 5),
        ("hungarian", 3, 6),
        ("hungarian", 4, 7),
    ],
)
def test_R12_agents_only_play_legal_actions(name: str, players: int, seed: int) -> None:
    levels = list(LEVELS)
    random.Random(seed).shuffle(levels)
    agents = [make_agent(levels[s % len(levels)]) for s in range(players)]
    game = Game.new(name, players=players, seed=seed)
    play_round(game, agents)
    assert game.result is not None
    assert sum(game.all_cards().values()) == len(game.variant.deck())


def test_R12_house_rules_are_honoured_too() -> None:
    game = Game.new("rommi", players=2, seed=8, ace_high=True, discard_to_win=True)
    play_round(game, [make_agent("hard"), make_agent("normal")])
    if game.result is not None and game.result.how == "went_out":
        assert game.events[-1].code == "discard"  # the last card went by a discard (R7)


# --- hidden information --------------------------------------------------------------------


def _positions(name: str, players: int, seed: int, moves: int) -> tuple[Game, Game, int]:
    """Two games at the same moment of a real round, differing only in cards the seat to
    act cannot see: the other hands and the stock, shuffled among themselves."""
    game = Game.new(name, players=players, seed=seed)
    agents = [make_agent("normal") for _ in range(players)]
    for _ in range(moves):
        if game.is_over:
            break
        play_turn(agents[game.current], game)
    assert not game.is_over and game.phase == "draw"
    seat = game.current
    hidden = [c for s in range(players) if s != seat for c in game.hand(s)] + list(
        game._state.stock
    )
    random.Random(seed).shuffle(hidden)
    hands_b = []
    for s in range(players):
        if s == seat:
            hands_b.append(list(game.hand(s)))
        else:
            size = len(game.hand(s))
            hands_b.append(hidden[:size])
            hidden = hidden[size:]

    def position(hands: list[list[Card]], stock: list[Card]) -> Game:
        return from_position(
            game.variant,
            hands=hands,
            stock=stock,
            discard=game.discard_pile,
            table=[
                (
                    tm.owner,
                    tm.meld.cards,
                    *[r for c, r in zip(tm.meld.cards, tm.meld.represents) if c.is_joker and r][:1],
                )
                for tm in game.table
            ],
            cut_card=game.cut_card,
            current=seat,
            phase="draw",
            opened=[game.opened(s) for s in range(players)],
            turns=list(game.turns_taken),
            dealer=game.dealer,
        )

    a = position([list(game.hand(s)) for s in range(players)], list(game._state.stock))
    b = position(hands_b, hidden)
    return a, b, seat


@pytest.mark.parametrize(
    ("name", "players", "seed", "moves"),
    [("rommi", 2, 3, 4), ("rommi", 3, 4, 5), ("hungarian", 2, 5, 4), ("hungarian", 4, 6, 7)],
)
@pytest.mark.parametrize("level", list(LEVELS))
def test_R12_hidden_cards_never_change_a_decision(
    name: str, players: int, seed: int, moves: int, level: str
) -> None:
    a, b, seat = _positions(name, players, seed, moves)
    assert a.hand(seat) == b.hand(seat)
    assert [a.hand(s) for s in range(players)] != [b.hand(s) for s in range(players)]
    steps = 0
    while a.current == seat and not a.is_over:
        da = make_agent(level).decide(a.observation(seat))
        db = make_agent(level).decide(b.observation(seat))
        assert da.action == db.action
        assert str(da.trace) == str(db.trace)
        assert da.trace.to_dict() == db.trace.to_dict()
        if da.action == Draw("stock") or isinstance(da.action, Discard):
            break  # a stock card differs from here on, as it should
        a.play(da.action)
        b.play(db.action)
        steps += 1
    assert steps < 40


def test_R12_observation_shows_nothing_hidden() -> None:
    a, b, seat = _positions("hungarian", 3, 9, 4)
    assert a.observation(seat) == b.observation(seat)


# --- traces --------------------------------------------------------------------------------


@pytest.mark.parametrize("level", list(LEVELS))
def test_trace_reads_as_text_and_draws_cards_in_html(level: str) -> None:
    game = from_position(
        "rommi",
        hands=["5♥ 6♥ 7♥ K♠ 9♦ 4♠ 2♣ Q♦", "2♠ 3♠ 4♦ 8♣ 9♣ 10♦ J♥"],
        current=0,
        phase="play",
    )
    actions = [decide(make_agent(level), game)]
    game.play(actions[0].action)
    while not isinstance(actions[-1].action, Discard):
        actions.append(decide(make_agent(level), game))
        game.play(actions[-1].action)
    discard = actions[-1]
    text = str(discard.trace)
    assert text.startswith(f"{level} (seat 0) thinks:")
    assert "options weighed" in text
    assert "points" in text
    assert "behind the best" in text  # every option but the best says how far behind
    assert "Chosen: discard" in text
    assert len(discard.trace.candidates) >= 2
    for candidate in discard.trace.candidates:
        assert signed(candidate.score) in text
    html = discard.trace._repr_html_()
    assert "<svg" in html
    assert "<table" in html
    assert str(discard) == text
    meld = actions[0]
    assert "<svg" in meld._repr_html_()  # the meld's cards are drawn beside the step


# --- every level: the Hungarian duties and Rommi's going out (H7–H11, R7) ------------------

HAND_84 = "7♥ 8♥ 9♥ 10♠ 10♦ 10♣ J♣ Q♣ K♣ 2♦ 5♠ 3♣ 6♦ 9♠ 4♥"  # 24 + 30 + 30 = 84 to open
OTHER = "2♠ 3♠ 4♦ 8♣ 9♣ 10♦ J♥ 5♥ 6♥ 7♠ 8♠ Q♥ K♥ 2♥"


@pytest.mark.parametrize("level", list(LEVELS))
def test_H9_no_opening_on_the_first_turn(level: str) -> None:
    game = from_position("hungarian", hands=[HAND_84, OTHER], current=0, phase="play", turns=[0, 0])
    actions = play_turn(make_agent(level), game)
    assert len(actions) == 1 and isinstance(actions[0], Discard)
    assert not game.table


@pytest.mark.parametrize("level", list(LEVELS))
def test_H8_opens_with_51_or_more_as_soon_as_it_may(level: str) -> None:
    game = from_position("hungarian", hands=[HAND_84, OTHER], current=0, phase="play", turns=[1, 1])
    actions = play_turn(make_agent(level), game)
    melds = [a for a in actions if isinstance(a, PlayMeld)]
    assert sum(game.table[i].meld.points(game.variant) for i in range(len(game.table))) >= 51
    assert len(melds) == 3 and isinstance(actions[-1], Discard)
    assert game.opened(0)


@pytest.mark.parametrize("level", list(LEVELS))
def test_H8_waits_when_the_melds_are_short_of_51(level: str) -> None:
    hand = "3♣ 4♣ 5♣ 8♦ 8♠ 8♥ 2♥ K♠ 9♦ J♥ 6♠ A♣ 4♦ 10♥ 7♣"  # 12 + 24 = 36
    game = from_position("hungarian", hands=[hand, OTHER], current=0, phase="play", turns=[2, 2])
    decision = decide(make_agent(level), game)
    assert isinstance(decision.action, Discard)
    assert "36" in str(decision.trace)  # it says how far its best opening is


CUT_TABLE = [(1, "4♠ 5♠ 6♠"), (1, "9♦ 9♥ 9♣")]


@pytest.mark.parametrize("level", list(LEVELS))
def test_H10_takes_the_cut_card_only_to_go_out(level: str) -> None:
    # with the cut card 7♠ the hand goes out: 7♠ 8♠ onto the run, Q♥ K♥ A♥ melded, 2♣ discarded
    going = from_position(
        "hungarian", hands=["8♠ Q♥ K♥ A♥ 2♣", OTHER], table=CUT_TABLE, cut_card="7♠",
        discard="3♦", current=0, phase="draw", opened=[True, True], turns=[4, 4],
    )  # fmt: skip
    actions = play_turn(make_agent(level), going)
    assert actions[0] == Draw("cut_card")
    assert going.is_over and going.result is not None and going.result.winner == 0
    staying = from_position(
        "hungarian", hands=["8♠ Q♥ K♥ 3♥ 2♣", OTHER], table=CUT_TABLE, cut_card="7♠",
        discard="3♦", current=0, phase="draw", opened=[True, True], turns=[4, 4],
    )  # fmt: skip
    assert decide(make_agent(level), staying).action != Draw("cut_card")


@pytest.mark.parametrize("level", list(LEVELS))
def test_H7_a_card_taken_from_the_discard_pile_is_played_that_turn(level: str) -> None:
    game = from_position(
        "hungarian", hands=["5♥ 6♥ K♠ 2♣ 9♦ 4♠", OTHER], table=CUT_TABLE, discard="3♦ 7♥",
        current=0, phase="draw", opened=[True, True], turns=[4, 4],
    )  # fmt: skip
    actions = play_turn(make_agent(level), game)
    assert actions[0] == Draw("discard")  # 7♥ makes 5♥ 6♥ 7♥: every level takes it
    assert any(Card("7♥") in tm.meld.cards for tm in game.table)
    assert isinstance(actions[-1], Discard) and game.current == 1


@pytest.mark.parametrize("level", list(LEVELS))
def test_H11_an_exchanged_joker_is_played_again(level: str) -> None:
    game = from_position(
        "hungarian", hands=["6♥ 9♠ 9♦ K♣ 2♣ 4♦", OTHER], table=[(1, "5♥ 🃏 7♥", "6♥")],
        discard="3♦", current=0, phase="play", opened=[True, True], turns=[4, 4],
    )  # fmt: skip
    actions = play_turn(make_agent(level), game)
    assert ExchangeJoker(Card("6♥"), 0) in actions
    assert any(
        Card("🃏") in tm.meld.cards and Card("9♠") in tm.meld.cards for tm in game.table
    )  # 9♠ 9♦ 🃏: the joker is back on the table
    assert isinstance(actions[-1], Discard)


@pytest.mark.parametrize("level", list(LEVELS))
def test_R7_discard_to_win_keeps_a_card_for_the_last_discard(level: str) -> None:
    game = from_position(
        "rommi", hands=["5♥ 6♥ 7♥", "2♠ 3♠ 4♦ 8♣ 9♣ 10♦ J♥"], discard="8♥", current=0,
        phase="draw",
    )  # fmt: skip
    game = Game.load(game.to_json())  # a plain Rommi game: melding the last card is going out
    plain = play_turn(make_agent(level), game)
    assert game.is_over and game.result is not None and game.result.winner == 0
    strict = from_position(
        variant("rommi", discard_to_win=True), hands=["5♥ 6♥ 7♥", "2♠ 3♠ 4♦ 8♣ 9♣ 10♦ J♥"],
        discard="8♥", current=0, phase="draw",
    )  # fmt: skip
    actions = play_turn(make_agent(level), strict)
    assert isinstance(actions[-1], Discard)
    assert strict.is_over and strict.result is not None and strict.result.winner == 0
    assert plain


# --- easy ------------------------------------------------------------------------------------


def test_R12_easy_discards_its_highest_value_single_card() -> None:
    game = from_position(
        "rommi", hands=["5♥ 6♥ 7♥ 9♦ K♠ 4♠ 2♣ 8♣", "2♠ 3♠ 4♦ 8♦ 9♣ 10♦ J♥"], current=0,
        phase="play",
    )  # fmt: skip
    actions = play_turn(make_agent("easy"), game)
    assert actions[-1] == Discard(Card("K♠"))
    ace_high = from_position(
        variant("rommi", ace_high=True), hands=["5♥ 6♥ 7♥ 9♦ A♠ 4♠ 2♣ 8♣", "2♠ 3♠ 4♦ 8♦ 9♣ 10♦ J♥"],
        current=0, phase="play",
    )  # fmt: skip
    assert play_turn(make_agent("easy"), ace_high)[-1] == Discard(Card("A♠"))  # 11 with ace_high


def test_R12_easy_lays_every_meld_it_can() -> None:
    game = from_position(
        "rommi", hands=["5♥ 6♥ 7♥ 9♠ 9♦ 9♣ K♠ 2♣", "2♠ 3♠ 4♦ 8♦ 10♣ 10♦ J♥"], current=0,
        phase="play",
    )  # fmt: skip
    actions = play_turn(make_agent("easy"), game)
    assert sorted(str(a) for a in actions if isinstance(a, PlayMeld)) == [
        "meld 5♥ 6♥ 7♥",
        "meld 9♠ 9♦ 9♣",
    ]
    assert actions[-1] == Discard(Card("K♠"))


# --- normal: partial melds and not feeding the next player ----------------------------------


def _after_a_take(level: str, took: str) -> Decision:
    """Seat 1 takes ``took`` (9♦ or 2♦) from the discard pile in full view; then seat 0 —
    with the same hand either way — decides what to throw."""
    other = "2♦" if took == "9♦" else "9♦"
    game = from_position(
        "rommi", hands=["9♠ 8♥ A♣ 5♦ 3♥", f"{other} 6♠ J♦ 4♠"], discard=f"4♣ {took}",
        current=1, phase="draw",
    )  # fmt: skip
    game.play(Draw("discard"))
    game.play(Discard(Card("J♦")))
    game.play(Draw("discard"))  # seat 0 takes J♦ (and won't throw it straight back)
    return decide(make_agent(level), game)


def test_R12_normal_avoids_the_card_the_next_player_took_a_partner_of() -> None:
    wanted = _after_a_take("normal", "9♦")
    assert wanted.action == Discard(Card("8♥"))  # not 9♠: seat 1 collects nines
    nine = next(c for c in wanted.trace.candidates if c.action == Discard(Card("9♠")))
    feed = [t for t in nine.terms if t.name == "feed"]
    assert feed and feed[0].value < 0
    assert "seat 1 took 9♦ from the discard pile" in str(feed[0])
    assert _after_a_take("normal", "2♦").action == Discard(Card("9♠"))
    assert _after_a_take("easy", "9♦").action == Discard(Card("9♠"))  # easy doesn't look


@pytest.mark.parametrize(("run", "discard"), [("6♥ 7♥ 8♥", "8♠"), ("2♣ 3♣ 4♣", "9♥")])
def test_R12_normal_avoids_a_card_the_next_player_can_lay_off(run: str, discard: str) -> None:
    # seat 0 has not opened (it can't lay 9♥ off itself); seat 1 has, and owns the run
    game = from_position(
        "hungarian", hands=["9♥ 8♠ 2♦ 3♠ 6♣ A♦ 4♥ Q♦ Q♣ 5♠", OTHER], table=[(1, run)],
        current=0, phase="play", opened=[False, True], turns=[3, 3],
    )  # fmt: skip
    assert decide(make_agent("normal"), game).action == Discard(Card(discard))


def test_R12_normal_keeps_a_pair_with_live_cards() -> None:
    game = from_position(
        "rommi", hands=["9♠ 9♦ 10♣ 2♥ 5♦ 3♣ 8♥", "2♠ 3♠ 4♦ 8♦ 10♥ 10♦ J♥"], current=0,
        phase="play",
    )  # fmt: skip
    easy, normal = (decide(make_agent(level), game) for level in ("easy", "normal"))
    assert easy.action == Discard(Card("10♣"))
    assert normal.action in (Discard(Card("10♣")), Discard(Card("8♥")))
    nine = next(c for c in normal.trace.candidates if c.action == Discard(Card("9♠")))
    outs = next(t for t in nine.terms if t.name == "outs")
    assert outs.value == -2.5 * len(outs.note.params["cards"]) < 0
    assert set(map(str, outs.note.params["cards"])) <= {"9♥", "9♣"}


# --- hard: the public history -----------------------------------------------------------------


def _hard_after_history(first: str) -> Decision:
    """Seat 1 takes ``first`` from the discard pile, then the 9♥ seat 0 throws, and keeps
    both; seat 0's own cards (and the stock it draws from) are the same either way."""
    hidden = "2♦" if first == "9♦" else "9♦"
    hands = ["9♠ 2♣ 3♦ 9♥ A♠ 5♥", f"5♠ K♣ {hidden}"]
    discard = f"4♣ {first}"
    draws = parse_cards("2♠ A♥")  # seat 0's two draws from the stock
    placed = Counter(parse_cards(" ".join(hands) + " " + discard)) + Counter(draws)
    rest = sorted((Counter(variant("rommi").deck()) - placed).elements(), key=Card.sort_key)
    game = from_position(
        "rommi", hands=hands, discard=discard, stock=[*rest, *reversed(draws)], current=1,
        phase="draw",
    )  # fmt: skip
    for action in (
        Draw("discard"),  # seat 1 takes `first`
        Discard(Card("K♣")),
        Draw("stock"),
        Discard(Card("9♥")),
        Draw("discard"),  # seat 1 takes 9♥
        Discard(Card("5♠")),
        Draw("stock"),
    ):
        game.play(action)
    return decide(make_agent("hard"), game)


def test_R12_hard_uses_the_public_history() -> None:
    nines = _hard_after_history("9♦")  # seat 1 is known to hold 9♦ 9♥
    twos = _hard_after_history("2♦")  # ... or 2♦ 9♥: the same hand for seat 0
    assert twos.action == Discard(Card("9♠"))
    assert nines.action != Discard(Card("9♠"))  # 9♠ would let seat 1 go out
    text = str(nines.trace)
    assert "Seat 1 still holds 9♦ 9♥" in text
    nine = next(c for c in nines.trace.candidates if c.action == Discard(Card("9♠")))
    threat = next(t for t in nine.terms if t.name == "threat")
    assert "seat 1 would go out with it in 24 of 24 sampled hands" in str(threat)


def _hard_with_stock(stock: int | None, later_cap: int | None = None) -> Decision:
    """Hard's discard from A♠ 8♠ 9♦ 10♦ J♦ 3♣ J♣ K♣ (Rommi, 2 players), the stock holding
    ``stock`` cards (``None``: every card not placed elsewhere, 33)."""
    hand, other, pile = "A♠ 8♠ 9♦ 10♦ J♦ 3♣ J♣ K♣", "2♥ 3♥ 4♥ 5♠ 6♠ 7♠ 2♣", "8♥ K♦ K♠ 8♦"
    placed = Counter(parse_cards(hand)) + Counter(parse_cards(other)) + Counter(parse_cards(pile))
    rest = sorted((Counter(variant("rommi").deck()) - placed).elements(), key=Card.sort_key)
    cut = len(rest) if stock is None else stock
    game = from_position(
        "rommi", hands=[hand, other], stock=rest[:cut], discard=[*rest[cut:], *parse_cards(pile)],
        current=0, phase="play", turns=[2, 2],
    )  # fmt: skip
    agent = make_agent("hard")
    if later_cap is not None:
        agent.later_cap = later_cap  # type: ignore[attr-defined]
    decision = decide(agent, game)
    while not isinstance(decision.action, Discard):  # melds laid down first
        game.play(decision.action)
        decision = decide(agent, game)
    return decision


def test_R12_hard_counts_the_draws_the_stock_still_holds() -> None:
    """With 33 cards in the stock hard keeps J♣ K♣ for the Q♣ (one of its next six draws may
    bring it) and throws the 8♠; searching the next draw only, or with the stock nearly
    gone, it throws the K♣, the highest card."""
    long = _hard_with_stock(None)
    assert long.action == Discard(Card("8♠"))
    best = next(c for c in long.trace.candidates if c.action == long.action)
    later = next(t for t in best.terms if t.name == "later_draws")
    assert later.value > 0 and "the best of 6 draws (" in str(long.trace)
    assert _hard_with_stock(None, later_cap=0).action == Discard(Card("K♣"))
    short = _hard_with_stock(7)  # 7 cards: 3 draws of mine
    assert short.action == Discard(Card("K♣"))
    assert "the best of 3 draws (" in str(short.trace)
    last = _hard_with_stock(3)  # one draw left: no later draws are counted
    assert last.trace.candidates and isinstance(last.action, Discard)
    assert not any(t.name.startswith("later") for c in last.trace.candidates for t in c.terms)


def test_the_best_of_several_draws_by_brute_force() -> None:
    """``Forecast.best_of(n)`` is the expected least deadwood of n different cards drawn:
    checked against every set of n cards over small random spreads (each copy a card of
    its own); and the chance of going out within n draws against the same enumeration."""
    from itertools import combinations

    rng = random.Random(12)
    for _ in range(60):
        spread = sorted(rng.sample(range(0, 30), rng.randint(1, 4)))
        copies = [rng.randint(1, 3) for _ in spread]
        deck = [d for d, k in zip(spread, copies) for _ in range(k)]
        outs = tuple(Card("Q♣") for d in deck if d == 0)
        f = Forecast(sum(deck) / len(deck), outs, len(deck), tuple(zip(spread, copies)))
        assert f.best_of(1) == pytest.approx(f.deadwood)
        for n in (1, 2, 3):
            draws = list(combinations(deck, n)) or [tuple(deck)]
            assert f.best_of(n) == pytest.approx(sum(min(d) for d in draws) / len(draws))
            out = sum(0 in d for d in draws) / len(draws)
            assert f.out_within(n) == pytest.approx(out)
            assert f.best_of(n + 1) <= f.best_of(n) + 1e-12


# --- going out by laying a joker onto a run's end (H5, H12) ----------------------------------


@pytest.mark.parametrize("level", sorted(AGENTS))
def test_H12_goes_out_by_laying_a_joker_onto_the_end_of_a_run(level: str) -> None:
    game = from_position(
        "hungarian", hands=["5♣ 🃏", "3♦ 4♠ 7♣"], table=[(1, "4♥ 5♥ 6♥")], discard="K♣",
        current=0, phase="play", opened=[True, True], turns=[5, 5],
    )  # fmt: skip
    first = decide(make_agent(level), game)
    assert isinstance(first.action, LayOff) and first.action.cards == (JOKER,)
    assert first.action.joker_as in (Card("3♥"), Card("7♥"))
    game.play(first.action)
    play_turn(make_agent(level), game)
    assert game.is_over and game.result is not None
    assert game.result.points[0] < 0  # seat 0 went out (H12), the joker not left in hand


@pytest.mark.parametrize("level", sorted(AGENTS))
def test_a_plan_to_go_out_is_played_in_order_never_skipping_to_its_discard(level: str) -> None:
    for seed in range(4):
        game = Game.new("hungarian", players=2, seed=seed)
        agents = [make_agent(level), make_agent(level)]
        while not game.is_over:
            seat = game.current
            decision = decide(agents[seat], game)
            says_out = any(s.code == "ai_can_go_out_plan" for s in decision.trace.steps)
            game.play(decision.action, seat)
            if says_out and isinstance(decision.action, Discard):
                assert game.is_over  # "I can empty my hand" then a discard: it went out


# --- the greedy baseline and the hints ----------------------------------------------------------


def test_greedy_draws_from_the_stock_and_throws_its_highest_loose_card() -> None:
    game = from_position(
        "rommi", hands=["5♥ 6♥ 7♥ K♠ 9♦ 2♣ Q♦", "2♠ 3♠ 4♦ 8♣ 9♣ 10♦ J♥"], discard="8♥",
        current=0, phase="draw",
    )  # fmt: skip
    greedy = make_agent("greedy")
    assert decide(greedy, game).action == Draw("stock")  # 8♥ would extend its run: no matter
    game.play(Draw("stock"))
    actions = play_turn(greedy, game)
    assert isinstance(actions[0], PlayMeld)  # it melds whenever it may
    thrown = actions[-1]
    assert isinstance(thrown, Discard)
    loose = [c for c in game.hand(0)] + [thrown.card]
    rules = variant("rommi")
    assert rules.card_value(thrown.card) == max(rules.card_value(c) for c in loose if c != JOKER)


def test_greedy_plays_by_name_in_a_tournament() -> None:
    result = run_tournament("rommi", 2, ["greedy", "easy"], games=2, seed=3, workers=1)
    assert {s.agent for s in result.standings} == {"greedy", "easy"}


def test_a_hint_is_one_sentence_to_the_learner_with_the_move_as_text() -> None:
    for seed in range(4):
        game = Game.new("hungarian", players=2, seed=seed)
        for _ in range(12):
            if game.is_over:
                break
            obs = game.observation(game.current)
            tip = hint(obs)
            assert tip.decision.action in obs.legal_actions
            assert parse_action(tip.command) == tip.decision.action  # typed back as shown
            assert f"“{tip.command}”" in tip.summary
            assert "\n" not in tip.summary
            words = tip.summary.lower().split()
            assert not {"i", "my", "me"} & set(words)  # second person
            if obs.turns[obs.seat] == 0:  # H9: nobody may open on their first turn
                assert "opening (h8)" not in tip.summary.lower()
            assert tip.details and str(tip).startswith(tip.summary)
            game.play(tip.decision.action)


# --- the example agent on docs/ai.md ------------------------------------------------------------


def _page_agent() -> type:
    """The from-scratch agent, exactly as docs/ai.md prints it."""
    from pathlib import Path

    page = (Path(__file__).parent.parent / "docs" / "ai.md").read_text(encoding="utf-8")
    section = page[page.index("### An agent from scratch") :]
    start = section.index("```python\n") + len("```python\n")
    code = section[start : section.index("\n```", start)]
    namespace: dict[str, object] = {}
    exec(compile(code, "docs/ai.md", "exec"), namespace)
    return namespace["FirstSteps"]  # type: ignore[return-value]


@pytest.mark.parametrize(("name", "players"), [("hungarian", 2), ("hungarian", 4), ("rommi", 3)])
def test_the_example_agent_on_the_page_plays_both_variants(name: str, players: int) -> None:
    agent_class = _page_agent()
    for seed in range(3):
        game = Game.new(name, players=players, seed=seed)
        agents = [agent_class() for _ in range(players)]
        actions = 0
        while not game.is_over:
            obs = game.observation(game.current)
            decision = agents[game.current].decide(obs)
            assert decision.action in obs.legal_actions
            game.play(decision.action, game.current)
            actions += 1
            assert actions < 3000
        assert game.result is not None


def test_the_example_agent_takes_a_short_opening_back() -> None:
    game = from_position(
        "hungarian", hands=["🃏 2♥ 3♥ 7♠ 8♠ 9♠ K♦ K♣ K♥ Q♣ 5♦", "3♦ 4♠ 7♣"], discard="K♣",
        current=0, phase="play", opened=[False, True], turns=[5, 5],
    )  # fmt: skip
    game.play(PlayMeld(parse_cards("K♥ K♦ K♣")))  # 30 of the 51 (H8): only Undo is legal
    obs = game.observation(0)
    assert not any(isinstance(a, Discard) for a in obs.legal_actions)
    assert _page_agent()().decide(obs).action == Undo()


def test_a_lay_off_step_names_the_meld_as_people_number_it() -> None:
    # "6♠ fits onto meld N" must be the meld the lay-off goes to, counted from 1 as the
    # action's own words count it ("lay off 6♠ onto meld N")
    seen = 0
    for seed, level in [(s, lv) for s in range(4) for lv in ("easy", "normal", "hard")]:
        game = Game.new("rommi", players=2, seed=seed)
        while not game.is_over:
            decision = make_agent(level).decide(game.observation(game.current))
            action = decision.action
            for step in decision.trace.steps:
                if step.code == "ai_layoff" and isinstance(action, LayOff):
                    assert step.params["meld"] == action.meld + 1
                    assert f"meld {action.meld + 1}" in str(
                        step
                    ) and f"meld {action.meld + 1}" in str(action)
                    seen += 1
            game.play(action)
    assert seen


def test_the_opening_threshold_in_the_ai_notes_is_the_variants() -> None:
    # a house rule's threshold (40 here) is the one the notes name, never a fixed 51
    rules = variant("hungarian", opening_threshold=40)
    seen = 0
    for seed in range(8):
        game = Game.new(rules, players=2, seed=seed)
        while not game.is_over and seen < 3:
            decision = make_agent("hard").decide(game.observation(game.current))
            for step in decision.trace.steps:
                if step.code == "ai_discard_unusable_opening":
                    assert "40 or more" in str(step) and "51" not in str(step)
                    seen += 1
            game.play(decision.action)
    assert seen


def test_melds_held_back_are_mentioned_only_when_there_are_some() -> None:
    # "I'm caught with N points, the melds I hold back included" is true only when the hand
    # keeps a meld back; a hand with no meld says no such thing
    seen = 0
    for seed in range(4):
        game = Game.new("rommi", players=2, seed=seed)
        while not game.is_over:
            obs = game.observation(game.current)
            decision = make_agent("hard").decide(obs)
            for candidate in decision.trace.candidates:
                for term in candidate.terms:
                    if term.note.code.endswith("_holding"):
                        rest = list(obs.hand)
                        rest.remove(candidate.action.card)  # type: ignore[attr-defined]
                        assert best_arrangement(rest, obs.variant).melds, str(term)
                        seen += 1
            game.play(decision.action)
    assert seen


# --- a short deal: played for the lowest hand (R10) -------------------------------------------


def test_R10_hard_plays_a_short_deal_for_the_lowest_hand() -> None:
    """Rommi with 4 players deals a stock of 11 cards (under three rounds of draws): hard
    scores its discards by the chance of winning the deal — going out, or the lowest hand
    at the empty stock — and nothing else; with 2 or 3 players (37 and 21 cards) and in
    Hungarian it scores the deadwood; a house rule that shortens a 3-player deal turns it on."""
    agent = make_agent("hard")
    short = {
        (name, n): agent.plays_for_lowest(Game.new(name, n, seed=1).observation(0))  # type: ignore[attr-defined]
        for name in ("rommi", "hungarian")
        for n in (2, 3, 4)
    }
    assert short == {**{k: False for k in short}, ("rommi", 4): True}
    big = variant("rommi", hand_sizes={2: 7, 3: 14, 4: 10})  # 52 - 42 - 1 = 9 cards: 3 rounds
    assert agent.plays_for_lowest(Game.new(big, 3, seed=1).observation(0))  # type: ignore[attr-defined]
    game = Game.new("rommi", 4, seed=118)
    while not (game.phase == "play" and any(isinstance(a, Discard) for a in game.legal_actions())):
        game.play(decide(make_agent("hard"), game).action)
    decision = decide(make_agent("hard"), game)
    for c in decision.trace.candidates:
        assert [t.name for t in c.terms if t.name != "feed"] == ["lowest_hand"]
    best = max(decision.trace.candidates, key=lambda c: c.score)
    assert "the lowest hand wins (R10)" in str(decision.trace)
    assert decision.action == best.action
    # far behind (no meld, 50+ points), it keeps Q♥ K♥ and 8♥ 9♥ for a meld and throws the
    # 6♠; scored by the deadwood it leaves, it throws the Q♥ (docs/ai.md shows this trace)
    assert decision.action == Discard(Card("6♠"))
    deadwood = make_agent("hard")
    deadwood.short_deal = 0  # type: ignore[attr-defined]
    old = decide(deadwood, game)
    assert any(t.name == "next_draw" for c in old.trace.candidates for t in c.terms)
    assert old.action == Discard(Card("Q♥"))


def test_R10_hard_keeps_its_layoffs_until_its_last_turn_in_a_short_deal() -> None:
    """Rommi with 4 players, hard against normal: while hard keeps its melds in hand it keeps
    the cards that fit onto the table too, says which, and lays none off; the place stays
    its own (one card of each kind, R1; melds never rearranged, R6), so at its last turn
    (fewer stock cards than players) every kept card still in hand goes onto the table."""
    kept_seen = checked = 0
    for seed in range(40):
        game = Game.new("rommi", 4, seed=seed)
        agents = [make_agent("hard")] + [make_agent("normal") for _ in range(3)]
        kept: set[Card] = set()
        last_turn_over = False
        while not game.is_over:
            seat = game.current
            obs = game.observation(seat)
            decision = decide(agents[seat], game)
            if seat == 0:
                notes = [n for n in decision.trace.steps if n.code.startswith("ai_hold_layoffs")]
                if notes:
                    assert obs.stock_size >= 4 and min(obs.hand_sizes[1:]) > 3
                    assert not isinstance(decision.action, LayOff)
                    named = set(notes[0].cards)
                    assert named and named <= set(obs.hand)
                    fits = {c for a in obs.legal_actions if isinstance(a, LayOff) for c in a.cards}
                    assert named & fits, (named, fits)  # the first of a run's cards fits now
                    kept |= named
                    kept_seen += 1
                if (
                    obs.phase == "play"
                    and obs.stock_size < 4
                    and isinstance(decision.action, Discard)
                ):
                    last_turn_over = True
            game.play(decision.action, seat)
            if last_turn_over and seat == 0 and not game.is_over:
                assert not kept & set(game.observation(0).hand), (seed, kept)
                checked += bool(kept)
                last_turn_over = False
    assert kept_seen >= 5 and checked >= 3  # the habit and its last turn seen, not assumed


def test_the_chance_of_winning_with_the_best_of_several_draws_by_brute_force() -> None:
    """``Forecast.lowest_chance(n, lowest)`` is the chance of winning with the best of n
    different cards drawn: checked against every set of n cards over small random spreads,
    a draw to 0 (going out) always winning."""
    from itertools import combinations

    rng = random.Random(21)
    for _ in range(60):
        after = sorted(rng.sample(range(0, 40), rng.randint(1, 5)))
        copies = [rng.randint(1, 3) for _ in after]
        deck = [d for d, k in zip(after, copies) for _ in range(k)]
        pairs = tuple(zip(after, copies))
        f = Forecast(sum(deck) / len(deck), (), len(deck), pairs, pairs)

        def lowest(value: int) -> float:
            return 1 / (1 + value)

        for n in (1, 2, 3):
            draws = list(combinations(deck, n)) or [tuple(deck)]
            exact = sum(1.0 if min(d) == 0 else lowest(min(d)) for d in draws) / len(draws)
            assert f.lowest_chance(n, lowest) == pytest.approx(exact)


@pytest.mark.parametrize("name", ["rommi", "hungarian"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_stock_dealt_is_what_the_referee_deals(name: str, players: int) -> None:
    from rummykit.ai.planning import dealt_stock

    for seed in range(3):
        game = Game.new(name, players, seed=seed)
        assert dealt_stock(variant(name), players) == game.stock_size
