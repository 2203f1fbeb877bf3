"""The mistake review: exactly the decisions where hard disagrees, costs that can't be
negative, sentences about the position at hand, any record, any seat, both variants."""

from __future__ import annotations

import html
import json
import re

import pytest

from rummykit.ai import make_agent
from rummykit.cards import parse_card
from rummykit.cli import main
from rummykit.game import Game
from rummykit.game.record import RecordError, load, record_of
from rummykit.mistakes import MIN_COST, RULES, Review, review, same_action

CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|🃏")

# (variant, players, learner seat, deal seed)
ROUNDS = [
    ("rommi", 2, 0, 3),
    ("hungarian", 2, 1, 5),
    ("hungarian", 3, 0, 11),
    ("rommi", 3, 2, 8),
    ("hungarian", 4, 3, 2),
    ("rommi", 4, 1, 6),
]


def _play(variant: str, players: int, learner: int, seed: int) -> Game:
    """A seeded round: the easy agent plays the learner's seat, normal and hard the rest."""
    game = Game.new(variant, players=players, seed=seed)
    agents = {s: make_agent(("hard", "normal")[s % 2]) for s in range(players)}
    agents[learner] = make_agent("easy")
    while not game.is_over:
        seat = game.current
        game.play(agents[seat].decide(game.observation(seat)).action, seat)
    return game


def _position_cards(mistake) -> set[str]:
    obs = mistake.observation
    cards = {str(c) for c in obs.hand} | {str(c) for c in obs.discard_pile}
    cards |= {str(c) for tm in obs.table for c in tm.meld.cards}
    if obs.cut_card is not None:
        cards.add(str(obs.cut_card))
    for event in obs.history:  # what everyone saw happen this round
        for value in event.params.values():
            cards |= set(CARD.findall(str(value)))
    return cards


@pytest.fixture(scope="module", params=ROUNDS, ids=lambda r: f"{r[0]}-{r[1]}p-seat{r[2]}")
def played(request):
    variant, players, learner, seed = request.param
    game = _play(variant, players, learner, seed)
    return game, learner, review(game, seat=learner)


def test_every_listed_mistake_costs_something_and_is_a_real_difference(played):
    """A listed decision costs at least MIN_COST expected points (never a tie) in the
    computer's own score, read again here off the trace it carries; the two moves differ
    and both were legal; costliest first."""
    _game, learner, result = played
    assert result.decisions > 0 and result.level == "hard"
    costs = [m.cost for m in result.mistakes]
    assert costs == sorted(costs, reverse=True)
    for m in result.mistakes:
        assert m.seat == learner and m.observation.seat == learner
        assert m.cost >= MIN_COST and m.kind in ("draw", "play", "discard")
        if m.kind in ("draw", "discard"):
            assert not same_action(m.played, m.suggested)
            assert m.suggested in m.observation.legal_actions
            scores = {}
            for c in m.decision.trace.candidates:
                scores[str(c.action)] = sum(t.value for t in c.terms if t.name not in RULES)
            assert scores[str(m.suggested)] - scores[str(m.played)] == pytest.approx(m.cost)
            assert m.decision.action == m.suggested


def test_a_play_is_listed_only_when_the_two_turns_differ(played):
    """The same moves in another order are no mistake."""
    _game, _learner, result = played
    for m in result.mistakes:
        if m.kind == "play":
            assert sorted(map(str, m.yours)) != sorted(map(str, m.theirs))


def test_the_review_names_the_level_it_compared_with():
    game = _play("rommi", 2, 0, 3)
    for level in ("easy", "normal", "hard"):
        result = review(game, seat=0, level=level)
        assert result.level == level and f"the {level} computer player" in result.headline
        for m in result.mistakes:
            assert f"the {level} player" in m.sentence


def test_reviews_stay_short(played):
    """The default text is a summary and the three costliest, at most 150 words a round;
    --all lists every one."""
    _, _, result = played
    assert len(result.text().split()) <= 150
    every = result.text(every=True)
    assert all(m.sentence in every for m in result.mistakes)
    assert "()" not in every and " 0.0 points" not in every


def test_reviews_of_many_rounds_stay_short_and_name_no_tie():
    for seed in range(12):
        variant = ("rommi", "hungarian")[seed % 2]
        players = 2 + seed % 3
        game = _play(variant, players, seed % players, 100 + seed)
        result = review(game, seat=seed % players)
        assert len(result.text().split()) <= 150, result.text()
        assert all(m.cost >= MIN_COST for m in result.mistakes)


def test_the_same_moves_in_another_order_are_not_a_mistake():
    from rummykit.game import from_position, parse_action

    hands = ["5♥ 6♥ 7♥ 9♠ 9♦ 9♣ K♣ 2♦", "3♣ 4♣ 9♥ K♥ A♠ 6♦ 2♥"]
    orders = (
        ["meld 5h 6h 7h", "meld 9s 9d 9c"],
        ["meld 9s 9d 9c", "meld 5h 6h 7h"],
    )
    for moves in orders:
        game = from_position("rommi", hands=hands, discard="5♦", current=0, phase="play")
        for move in moves:
            game.play(parse_action(move))
        game.play(parse_action("discard K♣"))
        result = review(game.to_json(), seat=0)
        assert [m for m in result.mistakes if m.kind == "play"] == []


def test_a_missed_way_out_has_a_cost():
    from rummykit.game import from_position, parse_action

    # seat 0 could lay 8♥ off onto 5♥ 6♥ 7♥ and go out with K♣ as its last discard
    game = from_position(
        "hungarian",
        hands=["8♥ K♣", "3♣ 4♣ 9♦ K♥ A♠ 6♦ 2♥"],
        table=[(0, "5♥ 6♥ 7♥")],
        discard="5♦",
        current=0,
        phase="play",
        opened=[True, True],
        turns=[4, 4],
    )
    game.play(parse_action("discard 8♥"))
    result = review(game.to_json(), seat=0)
    plays = [m for m in result.mistakes if m.kind == "play"]
    assert len(plays) == 1
    m = plays[0]
    assert m.cost >= MIN_COST and "gone out" in m.sentence
    assert str(m.theirs[0]).startswith("lay off 8♥")


def test_a_discard_worth_the_same_as_the_computer_s_is_no_mistake():
    from rummykit.game import from_position, parse_action

    # 9♠ and 9♣ do the same for this hand: throwing either leaves the same
    game = from_position(
        "rommi", hands=["5♥ 6♥ 7♥ 9♠ 9♣", "3♣ 4♣ 9♦ K♥"], discard="2♦", current=0, phase="play"
    )
    hard = make_agent("hard").weigh_discards(game.observation(0))
    assert hard is not None
    other = "discard 9♣" if str(hard.action) == "discard 9♠" else "discard 9♠"
    game.play(parse_action(other))
    result = review(game.to_json(), seat=0)
    assert [m for m in result.mistakes if m.kind == "discard"] == []


@pytest.mark.parametrize("lang", ["pt", "fi"])
def test_the_review_in_portuguese_and_finnish(lang):
    from rummykit.language import within

    game = _play("hungarian", 2, 0, 5)
    with within(lang):
        result = review(game, seat=0)
        text = result.text(every=True)
    english = review(game, seat=0).text(every=True)
    assert text != english
    for word in ("weighed", "player", "Cost:", "points", "Taking", "Throwing", "Keep"):
        assert word not in text, (word, text)


def test_every_sentence_names_only_cards_of_that_position(played):
    _, _, result = played
    for m in result.mistakes:
        allowed = _position_cards(m)
        for sentence in m.sentences:
            for token in CARD.findall(sentence):
                # a card of the position, or one the AI hopes to draw, named as such
                assert token in allowed or "unseen" in sentence, (m.number, token, sentence)
                parse_card(token)
        assert m.sentence.startswith(f"Move {m.number} — ")
        assert f"Cost: about {m.cost:.1f} points." in m.sentence


def test_the_review_reads_text_paths_and_data_alike(tmp_path):
    learner = 1
    game = _play("hungarian", 2, learner, 5)
    result = review(game, seat=learner)
    path = tmp_path / "round.json"
    path.write_text(game.to_json(indent=1), encoding="utf-8")
    for source in (game.to_json(), str(path), path, record_of(game)):
        again = review(source, seat=learner)
        assert [(m.number, m.cost) for m in again] == [(m.number, m.cost) for m in result]


def test_next_and_previous_move_through_the_mistakes():
    game = _play("hungarian", 2, 0, 5)
    result = review(game, seat=0)
    assert len(result) >= 2
    first = result.current
    assert result.next() is result.mistakes[1]
    assert result.previous() is first and result.previous() is first  # stays on the first
    for _ in range(len(result) + 3):
        result.next()
    assert result.current is result.mistakes[-1]
    assert repr(result).startswith("Review(seat=0, variant='hungarian'")
    html = result._repr_html_()
    assert html.count('class="rk-mistake"') == len(result)
    assert html.count("<details>") >= len(result)  # the reasoning one click away
    assert Review(0, "rommi", 3, []).current is None


def test_every_seat_of_one_round_can_be_reviewed():
    game = _play("rommi", 3, 0, 4)
    for seat in range(3):
        result = review(game, seat=seat)
        assert result.seat == seat
        draws = sum(1 for s, a in game.actions if s == seat and a.kind == "draw")
        assert draws <= result.decisions <= 3 * draws
    with pytest.raises(ValueError, match="seat must be from 0 to 2"):
        review(game, seat=3)


def test_bad_sources_are_refused_with_a_clear_error(tmp_path):
    with pytest.raises(RecordError, match="can't read"):
        review(str(tmp_path / "missing.json"))
    with pytest.raises(RecordError, match="not JSON"):
        review("{not json")
    with pytest.raises(RecordError, match="is not a game"):
        review(42)


def test_rummykit_review_command(tmp_path, capsys):
    game = _play("rommi", 2, 1, 9)
    path = tmp_path / "round.json"
    path.write_text(game.to_json(), encoding="utf-8")
    result = review(game, seat=1)
    assert main(["review", str(path), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(result.headline)
    assert main(["review", str(path), "--seat", "1", "--all", "--detail"]) == 0
    detail = capsys.readouterr().out
    assert all(m.sentence in detail for m in result.mistakes)
    if result.mistakes:
        assert "thinks:" in detail and "thinks:" not in out
    assert main(["review", str(path), "--seat", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat"] == 1 and data["decisions"] == result.decisions
    assert data["level"] == "hard" and len(data["mistakes"]) == len(result)
    assert main(["review", str(path), "--seat", "1", "--level", "easy"]) == 0
    assert "the easy computer player" in capsys.readouterr().out
    assert main(["review", str(tmp_path / "nope.json")]) == 2
    assert "rummykit review: can't read" in capsys.readouterr().err
    assert main(["review", str(path), "--seat", "5"]) == 2
    assert "seat must be from 0 to 1" in capsys.readouterr().err


def test_a_game_played_in_the_terminal_is_saved_for_review(tmp_path, capsys):
    import io

    from rummykit import variant
    from rummykit.terminal import TerminalGame

    path = tmp_path / "mine.json"
    moves = "draw\ndiscard 4h\ndraw\ndiscard 2h\nquit\n"
    out = io.StringIO()
    game = TerminalGame(
        variant("rommi"), 2, "normal", 3, save=str(path), stdin=io.StringIO(moves), stdout=out
    )
    assert game.run() == 0
    assert f"Saved to {path}" in out.getvalue()
    assert main(["review", str(path)]) == 0
    assert "decisions weighed against the hard computer player" in capsys.readouterr().out
    saved = load(json.loads(path.read_text(encoding="utf-8")))
    mine = [str(a) for s, a in saved.actions if s == 0]
    assert mine == ["draw from the stock", "discard 4♥", "draw from the stock", "discard 2♥"]


def test_the_table_offers_the_review_when_the_round_ends():
    from rummykit.widgets import Table

    table = Table("hungarian", players=2, ai="hard", seed=5, ai_delay=0)
    easy = make_agent("easy")

    def tools() -> list[str]:
        return [t["type"] for t in table.view["tools"]]

    assert tools() == [] and table.view["review"] == ""  # nothing to review yet
    while not table.game.is_over:
        assert table.act(easy.decide(table.game.observation(table.seat)).action)
    assert tools() == ["review"]
    assert table.view["tools"][0]["label"] == "Review my round"
    table.handle({"type": "review"})
    expected = review(table.game, seat=table.seat)
    assert table.view["hint"].startswith(expected.headline)
    if len(expected):
        assert str(expected.current) in table.view["hint"]
        assert table.view["review"] == expected.current._repr_html_()
    if len(expected) > 1:
        assert tools() == ["review_previous", "review_next"]
        table.handle({"type": "review_next"})
        expected.next()
        assert str(expected.current) in table.view["hint"]
        table.handle({"type": "review_previous"})
        expected.previous()
        assert str(expected.current) in table.view["hint"]
    table.handle({"type": "next_round"})
    assert table.review is None and table.view["review"] == ""


def test_the_review_widget_steps_through_the_mistakes():
    from rummykit.widgets import ReviewWidget

    game = _play("rommi", 2, 0, 3)
    box = ReviewWidget(game, seat=0)
    total = len(box.review)
    assert repr(box) == f"ReviewWidget(seat=0, mistakes={total}, position=0)"
    if total:
        first = box.review.current
        assert first is not None and html.escape(first.sentence) in box._html.value
        assert "<details>" in box._html.value
        box.go(total + 5)
        assert box.review.position == total - 1 and box._next.disabled
        box.go(-3)
        assert box.review.position == 0 and box._prev.disabled


def test_a_position_record_set_up_by_hand_is_reviewed_too():
    """Not opening when you can costs, by hard's count, the chance that the round ends
    before your next turn (seat 1 holds one card) times what the opening is worth."""
    from rummykit.game import from_position, parse_action

    game = from_position(
        "hungarian",
        hands=["7♥ 8♥ 9♥ 10♠ 10♦ 10♣ J♣ Q♣ K♣ 2♦ 5♠", "3♣"],
        table=[(1, "4♣ 5♣ 6♣")],
        discard="5♦",
        current=0,
        turns=[2, 2],
        opened=[False, True],
    )
    game.play(parse_action("draw"))
    game.play(parse_action("discard 2♦"))  # hard would open (84 points) first
    result = review(game.to_json(), seat=0)
    plays = [m for m in result.mistakes if m.kind == "play"]
    assert len(plays) == 1 and plays[0].number == 2
    mistake = plays[0]
    assert mistake.yours == () and mistake.suggested.kind == "meld"
    assert "You could have opened with" in mistake.sentence and "(H8)" in mistake.sentence
    hard = make_agent("hard")
    end = hard.round_end_chance(game.observation(0))
    assert end > 0.3  # seat 1 holds one card
    assert mistake.cost > 0.3 * 100


def test_a_mistake_repr_is_one_short_line_without_the_observation(played):
    _game, learner, result = played
    for m in result.mistakes:
        text = repr(m)
        assert text == (
            f"Mistake(move={m.number}, seat={learner}, kind={m.kind!r}, "
            f"played={str(m.played)!r}, suggested={str(m.suggested)!r}, cost={m.cost:.1f})"
        )
        assert "\n" not in text and "Observation" not in text and len(text) < 200


def test_rummykit_review_and_league_are_the_functions_whatever_was_imported_first() -> None:
    import rummykit
    import rummykit.leagues
    import rummykit.mistakes

    assert rummykit.review is rummykit.mistakes.review
    assert rummykit.league is rummykit.leagues.league
