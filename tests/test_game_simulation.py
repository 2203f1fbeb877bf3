"""Random play with teeth: complete seeded rounds of both variants, 2–4 players, the main
house rules, mixing legal moves with illegal and garbage actions, Undo, and save/load round
trips inside the loop (issue 13).

A random player that picks uniformly among legal actions never finishes a round (it melds,
undoes and melds again forever), so :class:`RandomPlayer` caps the provisional moves it makes
in a turn and, once its budget is spent or the turn can't end, undoes (or gives the cut card
back) until a discard is allowed. Between its moves a hostile user acts:

- random illegal actions and garbage (text and JSON that are no action, wrong seats): a
  refusal is an :class:`IllegalAction` carrying the same verdict as ``check``, and changes
  nothing at all;
- ``check`` and ``play`` agree on every action tried;
- Undo right after a provisional move restores the exact prior state;
- the game is saved and loaded (record and position forms) and play goes on from the copy;
- an observation is unchanged when the cards its seat can't see are permuted.

After every action every card is somewhere exactly once and each hand has the size the
actions so far give it (an independent count, undo included). At the end of each round: it
ended within a bound, the scores are what the rules give, and the record replays to the same
final state. ``benchmarks/referee_soak.py`` plays many more rounds with the same code.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from test_game_properties import some_actions

from rummykit.cards import Card
from rummykit.game import (
    Action,
    Cut,
    Discard,
    Draw,
    ExchangeJoker,
    Game,
    IllegalAction,
    LayOff,
    PlayMeld,
    ReturnCutCard,
    Undo,
    parse_action,
)
from rummykit.game.actions import ActionParseError
from rummykit.game.record import dumps, load, loads
from rummykit.game.scoring import hand_value
from rummykit.melds import meld_readings

GAMES_PER_VARIANT = 100
BATCH = 25
MAX_ACTIONS = 4000  # no round comes near this; reaching it means a round did not end
MOVES_PER_TURN = 4
QUIET = 0.5  # share of turns a player discards without looking for melds
HOSTILE = 0.25  # chance, before each move, of an illegal or garbage action
UNDO_CHECK = 0.3  # chance that a provisional move is undone at once and the state compared
SAVES_PER_ROUND = 2  # save/load round trips inside each round
PERMUTATIONS_PER_ROUND = 1  # observation checks with the hidden cards permuted
GARBAGE_TEXT = ("", "fold", "lay off onto", "meld", "discard 11h", "exchange Jk from 0", "cut x")
GARBAGE_DATA: tuple[object, ...] = (
    None,
    [],
    {"type": "fly"},
    {"type": "discard"},
    {"type": "discard", "card": 7},
    {"type": "layoff", "cards": "7h", "meld": 0},
    {"type": "layoff", "cards": ["7h"], "meld": True},
    {"type": "draw", "source": "sky"},
    {"type": "meld", "cards": ["zz"]},
    {"type": "draw", "source": "stock", "extra": 1},
)

PROVISIONAL = (PlayMeld, LayOff, ExchangeJoker)


class RandomPlayer:
    """Plays any seat at random, but always finishes its turn.

    Draws mostly from the stock, sometimes takes the discard or tries the cut card; makes at
    most ``moves`` provisional moves (melds, lay-offs, exchanges) a turn, now and then takes
    one back, and when the turn can't end (or the budget is spent and no discard is allowed)
    gives back the cut card or undoes until it can.
    """

    def __init__(self, rng: random.Random, moves: int = MOVES_PER_TURN, quiet: float = 0.0) -> None:
        self.rng = rng
        self.moves = moves
        self.quiet = quiet
        self._turn: tuple[int, int] | None = None
        self._spent = 0

    def choose(self, game: Game) -> Action:
        rng = self.rng
        if game.phase == "cut":
            return Cut(rng.randrange(1, game.stock_size))
        turn = (game.current, game.turns_taken[game.current])
        if turn != self._turn:
            self._turn, self._spent = turn, 0
        if game.phase == "draw":
            sources = ["stock"] * 6 + ["discard"] * 3 + ["cut_card"]
            source = rng.choice(sources)
            if source != "stock" and game.check(Draw(source)).ok:
                return Draw(source)
            return Draw("stock")
        if self._spent == 0 and rng.random() < self.quiet:
            # a quiet turn: discard without looking for melds (cheaper, and realistic)
            card = rng.choice(game.hand(game.current))
            if game.check(Discard(card)).ok:
                return Discard(card)
        legal = game.legal_actions()
        moves = [a for a in legal if isinstance(a, PROVISIONAL)]
        discards = [a for a in legal if isinstance(a, Discard)]
        can_undo = Undo() in legal
        if moves and self._spent < self.moves and rng.random() < 0.85:
            self._spent += 1
            return rng.choice(moves)
        if can_undo and self._spent < self.moves and rng.random() < 0.05:
            return Undo()  # change of mind
        if discards:
            return rng.choice(discards)
        if ReturnCutCard() in legal:
            return ReturnCutCard()
        assert can_undo, f"stuck with nothing to undo: {legal}"
        return Undo()


@dataclass
class HandCount:
    """Hand sizes kept by counting what each action does (undo restores the turn's counts)."""

    sizes: list[int]
    steps: list[tuple[Action, list[int]]] = field(default_factory=list)
    opened_at_start: bool = False

    def surviving(self) -> list[Action]:
        return [a for a, _ in self.steps]

    def apply(self, game: Game, seat: int, action: Action) -> None:
        s = self.sizes
        if isinstance(action, Cut):
            self.sizes = [len(game.hand(x)) for x in range(game.players)]
        elif isinstance(action, Draw):
            if action.source != "stock":
                self.steps.append((action, list(s)))
            if not (game.is_over and action.source == "stock"):
                s[seat] += 1
        elif isinstance(action, PROVISIONAL):
            self.steps.append((action, list(s)))
            if isinstance(action, (PlayMeld, LayOff)):
                s[seat] -= len(action.cards)
        elif isinstance(action, Undo):
            _, self.sizes = self.steps.pop()
        elif isinstance(action, ReturnCutCard):
            while True:
                taken, sizes = self.steps.pop()
                if isinstance(taken, Draw) and taken.source == "cut_card":
                    self.sizes = sizes
                    break
        elif isinstance(action, Discard):
            s[seat] -= 1


def _options(variant: str, seed: int) -> dict[str, Any]:
    """A mix of house rules, so the options are exercised too."""
    if variant == "rommi":
        return [{}, {}, {"discard_to_win": True}, {"ace_high": True}][seed % 4]
    return [{}, {}, {}, {"choose_cut": True}][seed % 4]


def _expected_points(game: Game, count: HandCount) -> tuple[int, ...]:
    """The round's points worked out from the final position by the rules (H12, H13, R8, R10)."""
    v, result = game.variant, game.result
    assert result is not None
    seats = range(game.players)
    values = [hand_value(game.hand(s), v) for s in seats]
    opened = game.snapshot()["opened"]
    if v.low_score_wins:  # Hungarian
        points = []
        for s in seats:
            if s == result.winner:
                helped = any(isinstance(a, (LayOff, ExchangeJoker)) for a in count.surviving())
                own = not count.opened_at_start and not helped
                points.append(v.go_out_hand_points if own else v.go_out_points)
            elif not opened[s]:
                points.append(v.unopened_penalty)
            else:
                points.append(values[s])
        return tuple(points)
    winner = result.winner
    if result.how != "went_out":
        winner = values.index(min(values))  # lowest hand; ties to the first seat
    assert winner == result.winner
    return tuple(sum(values) - values[s] if s == winner else 0 for s in seats)


def _check_position(game: Game, deck: Counter[Card], count: HandCount) -> None:
    # dict equality is Counter equality here (no zero counts), and much faster
    assert dict.__eq__(game.all_cards(), deck)
    assert [len(game.hand(s)) for s in range(game.players)] == count.sizes
    assert game.phase in ("cut", "draw", "play", "over")
    assert 0 <= game.current < game.players


def _check_table(game: Game) -> None:
    """The melds on the table are valid, each as it lies."""
    for tm in game.table:
        readings = meld_readings(tm.meld.cards, game.variant)
        stands = Counter(tm.meld.represents)
        assert any(Counter(m.represents) == stands and m.kind == tm.meld.kind for m in readings), tm


class Hostile:
    """The hostile user's side of a round: illegal and garbage actions, undo checks, save and
    load, permuted hidden cards — each asserting what must hold."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.refused = 0

    def refuse(self, game: Game) -> Action | None:
        """Try an illegal or garbage action; return it if it turned out to be legal."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.15:  # text that is no move
            text = rng.choice(GARBAGE_TEXT)
            try:
                action = parse_action(text)
            except ActionParseError as error:
                assert str(error)
                return None
        elif roll < 0.3:  # JSON that is no action
            data = rng.choice(GARBAGE_DATA)
            with pytest.raises(ActionParseError):
                Action.from_dict(data)
            return None
        else:
            action = rng.choice(some_actions(rng, game))
        seat = game.current if rng.random() < 0.85 else rng.randrange(game.players)
        verdict = game.check(action, seat)
        if verdict.ok:
            assert seat == game.current
            return action
        before = (game._state.clone(), len(game.events), len(game.actions), game._rng.getstate())
        with pytest.raises(IllegalAction) as refused:
            game.play(action, seat)
        assert refused.value.verdict == verdict  # check and play agree
        assert verdict.failures and all(r.message for r in verdict.failures)
        state, events, actions, rng_state = before
        assert game._state == state  # a refusal changes nothing: state, history, randomness
        assert (len(game.events), len(game.actions)) == (events, actions)
        assert game._rng.getstate() == rng_state
        self.refused += 1
        return None

    def undo_restores(self, game: Game, action: Action, count: HandCount) -> None:
        """Play a provisional move, undo it, and find the exact state from before."""
        before = game._state.clone()
        seat = game.current
        game.play(action)
        count.apply(game, seat, action)
        if game.is_over or not isinstance(action, PROVISIONAL):
            return
        assert game.check(Undo()).ok
        game.play(Undo())
        count.apply(game, seat, Undo())
        assert game._state == before

    def reload(self, game: Game) -> Game:
        """Save and load in both forms; play goes on from the loaded copy."""
        again = loads(dumps(game))
        assert again.snapshot() == game.snapshot()
        assert again._state == game._state
        assert again.events == game.events and again.actions == game.actions
        position = load({"format": "rummykit-position", "version": 1, "position": game.snapshot()})
        assert position.snapshot() == game.snapshot()
        assert position._state == game._state
        return again

    def permuted_twin_agrees(self, game: Game) -> None:
        """The seat to act sees the same after the hidden cards are dealt differently."""
        data = game.snapshot()
        seat = data["current"]
        hidden = [c for s, h in enumerate(data["hands"]) if s != seat for c in h]
        hidden += data["stock"]
        self.rng.shuffle(hidden)
        twin = json.loads(json.dumps(data))
        for s, hand in enumerate(twin["hands"]):
            if s != seat:
                twin["hands"][s], hidden = hidden[: len(hand)], hidden[len(hand) :]
        twin["stock"] = hidden
        record = {"format": "rummykit-position", "version": 1}
        one = load({**record, "position": data})
        two = load({**record, "position": twin})
        for watcher in range(game.players):
            if watcher == seat:
                assert one.observation(watcher) == two.observation(watcher)
        assert one.legal_actions() == two.legal_actions()


def play_round(variant: str, players: int, seed: int) -> Game:
    options = _options(variant, seed)
    game = Game.new(variant, players=players, seed=seed, **options)
    deck = Counter(game.variant.deck())
    player = RandomPlayer(random.Random(seed * 7919 + players), quiet=QUIET)
    hostile = Hostile(random.Random(seed * 104729 + players))
    rng = hostile.rng
    count = HandCount([len(game.hand(s)) for s in range(players)])
    count.opened_at_start = game.opened(game.current)
    _check_position(game, deck, count)
    saves = sorted(rng.sample(range(1, 120), SAVES_PER_ROUND))
    permutes = sorted(rng.sample(range(1, 120), PERMUTATIONS_PER_ROUND))
    for step in range(MAX_ACTIONS):
        if game.is_over:
            break
        if saves and step >= saves[0] and game.phase != "cut":
            saves.pop(0)
            game = hostile.reload(game)
        if permutes and step >= permutes[0] and game.phase == "draw":
            permutes.pop(0)
            hostile.permuted_twin_agrees(game)
        seat = game.current
        action = hostile.refuse(game) if rng.random() < HOSTILE else None
        if action is None:
            action = player.choose(game)
        assert game.check(action).ok, (action, str(game.check(action)))
        if isinstance(action, PROVISIONAL) and rng.random() < UNDO_CHECK:
            hostile.undo_restores(game, action, count)
        else:
            game.play(action)
            count.apply(game, seat, action)
        _check_position(game, deck, count)
        if game.is_over:
            break
        if game.current != seat or isinstance(action, (Discard, Cut)):
            count.steps.clear()
            count.opened_at_start = game.opened(game.current)
    else:
        pytest.fail(f"{variant} {players} players seed {seed}: no end after {MAX_ACTIONS} actions")
    result = game.result
    assert result is not None
    _check_table(game)
    # how it ended
    emptied = [s for s in range(players) if not game.hand(s)]
    if result.how == "went_out":
        assert emptied == [result.winner]
    else:
        assert emptied == []
        assert result.how in (
            ("stock_exhausted", "nothing_to_reshuffle")
            if game.variant.reshuffle_discards
            else ("empty_stock", "no_progress")
        )
        assert game.stock_size == 0
    # the scores add up
    assert result.points == _expected_points(game, count), (seed, str(result))
    # the record replays to the same final state
    again = loads(dumps(game))
    assert again.snapshot() == game.snapshot()
    assert again.result == game.result
    assert again.events == game.events
    assert hostile.refused or game.actions  # (a round always sees some action)
    return game


@pytest.mark.parametrize("batch", range(GAMES_PER_VARIANT // BATCH))
@pytest.mark.parametrize("variant", ["hungarian", "rommi"])
def test_random_play_keeps_every_invariant(variant: str, batch: int) -> None:
    hows: Counter[str] = Counter()
    for seed in range(batch * BATCH, (batch + 1) * BATCH):
        game = play_round(variant, 2 + seed % 3, seed)
        assert game.result is not None
        hows[game.result.how] += 1
    assert sum(hows.values()) == BATCH
