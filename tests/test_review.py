"""The mistake review: exactly the decisions where hard disagrees, costs that can't be
negative, sentences about the position at hand, any record, any seat, both variants."""

from __future__ import annotations

import json
import re

import pytest

from rummykit.ai import make_agent
from rummykit.cards import parse_card
from rummykit.cli import main
from rummykit.game import Action, Game
from rummykit.game.record import RecordError, load, record_of
from rummykit.mistakes import Review, review, same_action

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


def _disagreements(game: Game, seat: int) -> tuple[int, set[int]]:
    """Replay the record and ask hard at each of ``seat``'s decisions (the test's own loop)."""
    data = record_of(game)
    replay = load({**data, "actions": []})
    hard = make_agent("hard")
    asked, differ = 0, set()
    for number, item in enumerate(data["actions"], 1):
        action = Action.from_dict({k: v for k, v in item.items() if k != "seat"})
        if item["seat"] == seat:
            asked += 1
            if not same_action(hard.decide(replay.observation(seat)).action, action):
                differ.add(number)
        replay.play(action, item["seat"])
    return asked, differ


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


def test_review_lists_exactly_the_decisions_where_hard_disagrees(played):
    game, learner, result = played
    asked, differ = _disagreements(game, learner)
    assert result.decisions == asked > 0
    assert {m.number for m in result.mistakes} == differ
    for m in result.mistakes:
        assert m.seat == learner and m.observation.seat == learner
        assert not same_action(m.played, m.suggested)
        assert m.suggested in m.observation.legal_actions
        assert m.played in m.observation.legal_actions or any(
            same_action(m.played, a) for a in m.observation.legal_actions
        )


def test_costs_are_never_negative_and_sorted_costliest_first(played):
    _, _, result = played
    costs = [m.cost for m in result.mistakes]
    known = [c for c in costs if c is not None]
    assert all(c >= 0 for c in known)
    assert known == sorted(known, reverse=True)
    assert costs == known + [None] * (len(costs) - len(known))  # unscored ones last


def test_every_sentence_names_only_cards_of_that_position(played):
    _, _, result = played
    for m in result.mistakes:
        allowed = _position_cards(m)
        for sentence in m.sentences:
            for token in CARD.findall(sentence):
                # a card of the position, or one the AI hopes to draw, named as such (its
                # outs: "1 of the 13 unseen cards take me out (9♠)")
                assert token in allowed or "unseen" in sentence, (m.number, token, sentence)
                parse_card(token)
        assert str(m.played) in m.sentences[0] and str(m.suggested) in m.sentences[0]
        assert m.sentences[1].startswith("Its reason: ")
        assert any("Cost of your move" in s or "gives no cost" in s for s in m.sentences)


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
    assert Review(0, "rommi", 3, []).current is None


def test_every_seat_of_one_round_can_be_reviewed():
    game = _play("rommi", 3, 0, 4)
    for seat in range(3):
        result = review(game, seat=seat)
        assert result.seat == seat
        assert result.decisions == sum(1 for s, _ in game.actions if s == seat)
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
    assert main(["review", str(path), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Seat 1: ")
    assert main(["review", str(path), "--seat", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat"] == 1 and data["decisions"] == review(game, seat=1).decisions
    assert main(["review", str(tmp_path / "nope.json")]) == 2
    assert "rummykit review: can't read" in capsys.readouterr().err
    assert main(["review", str(path), "--seat", "5"]) == 2
    assert "seat must be from 0 to 1" in capsys.readouterr().err


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
        assert first is not None and first.sentences[0] in box._html.value
        box.go(total + 5)
        assert box.review.position == total - 1 and box._next.disabled
        box.go(-3)
        assert box.review.position == 0 and box._prev.disabled


def test_a_position_record_set_up_by_hand_is_reviewed_too():
    from rummykit.game import from_position, parse_action

    game = from_position(
        "hungarian",
        hands=["7♥ 8♥ 9♥ 10♠ 10♦ 10♣ J♣ Q♣ K♣ 2♦ 5♠", "3♣ 4♣ 9♦ K♥ A♠ 6♦ 2♥"],
        discard="5♦",
        current=0,
        turns=[2, 2],
    )
    game.play(parse_action("draw"))
    game.play(parse_action("discard 2♦"))  # hard would open (84 points) instead
    result = review(game.to_json(), seat=0)
    assert result.decisions == 2
    assert [m.number for m in result.mistakes] == [2]
    mistake = result.mistakes[0]
    assert str(mistake.played) == "discard 2♦"
    assert mistake.suggested.kind == "meld"


def test_a_mistake_repr_is_one_short_line_without_the_observation(played):
    _game, learner, result = played
    for m in result.mistakes:
        text = repr(m)
        cost = "None" if m.cost is None else f"{m.cost:.1f}"
        assert text == (
            f"Mistake(move={m.number}, seat={learner}, played={str(m.played)!r}, "
            f"suggested={str(m.suggested)!r}, cost={cost})"
        )
        assert "\n" not in text and "Observation" not in text and len(text) < 200


def test_rummykit_review_and_league_are_the_functions_whatever_was_imported_first() -> None:
    import rummykit
    import rummykit.leagues
    import rummykit.mistakes

    assert rummykit.review is rummykit.mistakes.review
    assert rummykit.league is rummykit.leagues.league
