"""Exercises on computer players: what one plays here (R12), and whether your own agent plays
legally.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar

from rummykit.cards import format_cards, parse_card
from rummykit.errors import RummykitError
from rummykit.exercises.answers import clean_answer
from rummykit.exercises.base import (
    AnswerError,
    Exercise,
    Feedback,
    as_variant,
    bad_answer,
    make_feedback,
    quoted_answer,
    variant_repr,
)
from rummykit.exercises.positions import hand_html, table_html
from rummykit.melds import MeldSum
from rummykit.messages import join, render
from rummykit.variants import HUNGARIAN, Variant

__all__ = ["AgentCheck", "PredictMove"]

# --- the referee and the computer: what happens, what the computer plays, your own agent -----


def _same_move(a: Any, b: Any) -> bool:
    """Whether two actions are the same move: melds and lay-offs with their cards in any
    order (``meld 7h 6h 5h`` is ``meld 5♥ 6♥ 7♥``) — the review's own test."""
    from rummykit.mistakes import same_action

    return same_action(a, b)


def _read_move(answer: object, accepted: str) -> Any:
    """A move from a learner's text (``meld 5h 6h 7h``, ``discard K♠``, ``draw``,
    ``take discard``), or the action itself."""
    from rummykit.game.actions import Action, parse_action

    if isinstance(answer, Action):
        return answer
    if not isinstance(answer, str):
        raise bad_answer(answer, accepted)
    return parse_action(clean_answer(answer))  # ActionParseError is a ValueError: check() says so


#: Two options whose scores differ by less than this are equal: the trace shows scores to one
#: decimal, and a learner who reads two equal scores may name either.
_TIE = 0.05


@dataclass(frozen=True, repr=False)
class PredictMove(Exercise):
    """What does the computer play here (R12)? Answer a move, written the way the referee
    reads it: ``meld 5♥ 6♥ 7♥``, ``discard K♠``, ``draw``, ``take discard``.

    The agent decides on the seat's observation, and its trace is the explanation. Equal
    moves are equal — a meld's cards in any order — and every option the trace scores as
    high as the chosen one is a right answer too:

    >>> from rummykit.game import Game
    >>> game = Game.from_position(
    ...     "rommi", hands=["9♣ K♠ K♦ 2♣ Q♣ 3♥ J♦", "3♠ 4♠ 8♦ J♥ 10♦ 6♣ 2♦"],
    ...     discard="8♥", table=[(0, "5♥ 6♥ 7♥")], current=0, phase="play", turns=[3, 3])
    >>> exercise = PredictMove("easy", game)
    >>> exercise
    PredictMove('easy', seat=0, hand='K♠ 3♥ J♦ K♦ 2♣ 9♣ Q♣')
    >>> feedback = exercise.check("discard K♦")
    >>> feedback.correct, feedback.others
    (True, ('discard K♠', 'discard Q♣', 'discard J♦'))
    """

    kind: ClassVar[str] = "predict_move"
    level: str
    observation: Any
    variant: Variant = HUNGARIAN

    def __init__(self, level: str, position: Any, seat: int | None = None) -> None:
        from rummykit.ai import make_agent

        make_agent(level)  # an unknown level is refused here, with the levels there are
        observation = position
        if hasattr(position, "observation") and callable(position.observation):
            observation = position.observation(position.current if seat is None else seat)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "observation", observation)
        object.__setattr__(self, "variant", observation.variant)

    def __repr__(self) -> str:
        obs = self.observation
        return f"PredictMove({self.level!r}, seat={obs.seat}, hand='{format_cards(obs.hand)}')"

    @cached_property
    def decision(self) -> Any:
        """The agent's :class:`~rummykit.ai.Decision` on the observation."""
        from rummykit.ai import make_agent

        return make_agent(self.level).decide(self.observation)

    @cached_property
    def best(self) -> tuple[Any, ...]:
        """The chosen move, then every move the trace scores as high (within a tenth)."""
        decision = self.decision
        chosen = decision.action
        scored = {id(c): c for c in decision.trace.candidates}
        top = next((c.score for c in scored.values() if _same_move(c.action, chosen)), None)
        ties = [
            c.action
            for c in decision.trace.ranked()
            if top is not None and top - c.score < _TIE and not _same_move(c.action, chosen)
        ]
        return (chosen, *ties)

    @property
    def prompt(self) -> str:
        obs = self.observation
        seen = []  # what the seat sees besides its hand: the table, the discard, the cut card
        if obs.table:
            seen.append(
                render("exercise_predict_table", melds=MeldSum(p.meld.cards for p in obs.table))
            )
        if obs.discard_pile:
            seen.append(render("exercise_predict_pile", card=obs.discard_pile[-1]))
        if obs.cut_card is not None:
            seen.append(render("exercise_predict_cut", card=obs.cut_card))
        position = render(
            "exercise_predict_prompt",
            variant=obs.variant.title,
            seat=obs.seat,
            hand=obs.hand,
            phase=render(f"exercise_predict_phase_{obs.phase}"),
        )
        from rummykit.ai.trace import agent_name

        level = agent_name(self.level)  # the level in the learner's language
        return " ".join([position, *seen, render("exercise_predict_question", level=level)])

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_move")

    @property
    def answer(self) -> str:
        return join([str(a) for a in self.best])

    @property
    def solution(self) -> Any:
        return self.best[0]

    @property
    def explanation(self) -> tuple[str, ...]:
        return ()

    @property
    def rules(self) -> tuple[str, ...]:
        # R12 is Rommi's rule for computer players; Hungarian Rummy's rules have none
        return ("R12",) if self.variant.rulebook == "R" else ()

    def _judge(self, answer: object) -> Feedback:
        from rummykit.game.actions import Discard

        try:
            move = _read_move(answer, self.accepts)
        except ValueError:
            if self.observation.phase != "play" or not isinstance(answer, str):
                raise
            move = Discard(parse_card(clean_answer(answer)))  # a card alone: the card discarded
        from rummykit.ai.trace import agent_name

        best = self.best
        level = agent_name(self.level)
        legal = any(_same_move(move, a) for a in self.observation.legal_actions)
        right = any(_same_move(move, a) for a in best)
        chosen = best[0]
        others = tuple(str(a) for a in best if not _same_move(a, move))
        if right:
            head = render("exercise_predict_right", level=level, move=chosen)
            lines = (
                (render("exercise_predict_also", moves=join(list(others), "and")),)
                if others
                else ()
            )
            if not _same_move(move, chosen):
                head = render("exercise_predict_right_tie", level=level, move=move, chosen=chosen)
        else:
            code = "exercise_predict_wrong" if legal else "exercise_predict_illegal"
            head = render(code, given=move, level=level, move=chosen)
            lines = ()
        feedback = make_feedback(right, str(move), self.answer, head, head, lines)
        return replace(feedback, others=others if right else (), detail=str(self.decision.trace))

    def figure_html(self) -> str:
        obs = self.observation
        melds = tuple(placed.meld for placed in obs.table)
        return hand_html(obs.hand, table_html(melds))


@dataclass(frozen=True, repr=False)
class AgentCheck(Exercise):
    """Your own agent, checked: it plays seeded rounds against a built-in level, and every
    move it makes must be legal and come with a trace. Answer the agent — its class, or one
    made from it.

    >>> from rummykit.ai import EasyAgent
    >>> exercise = AgentCheck("rommi", against="easy", rounds=2)
    >>> exercise.check(EasyAgent).correct
    True
    >>> exercise.check("my agent")
    Traceback (most recent call last):
    ...
    rummykit.exercises.AnswerError: 'my agent' is not an answer here: answer your agent: a class with a name and a decide(observation) method, or one made from it
    """

    kind: ClassVar[str] = "agent"
    variant: Variant
    against: str
    rounds: int
    seed: int

    _MOVES: ClassVar[int] = 600  # a round this long means an agent that never ends its turns

    def __init__(
        self,
        variant: Variant | str = "rommi",
        *,
        against: str = "easy",
        rounds: int = 10,
        seed: int = 1,
    ) -> None:
        from rummykit.ai import make_agent

        make_agent(against)
        if rounds < 1:
            raise RummykitError(render("tournament_no_games"))
        object.__setattr__(self, "variant", as_variant(variant))
        object.__setattr__(self, "against", against)
        object.__setattr__(self, "rounds", rounds)
        object.__setattr__(self, "seed", seed)

    def __repr__(self) -> str:
        return (
            f"AgentCheck({variant_repr(self.variant)}, against={self.against!r}, "
            f"rounds={self.rounds}, seed={self.seed})"
        )

    @property
    def prompt(self) -> str:
        return render(
            "exercise_agent_prompt",
            rounds=self.rounds,
            variant=self.variant.title,
            level=self.against,
        )

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_agent")

    @property
    def answer(self) -> str:
        return render("exercise_agent_answer")

    @property
    def solution(self) -> Any:
        from rummykit.ai import NormalAgent

        return NormalAgent

    @property
    def explanation(self) -> tuple[str, ...]:
        return (render("exercise_agent_rules"),)

    @property
    def rules(self) -> tuple[str, ...]:
        return ("R12",) if self.variant.rulebook == "R" else ()

    def _agent(self, answer: object) -> Any:
        agent = answer
        if isinstance(answer, type):
            try:
                agent = answer()
            except Exception as error:  # the learner's constructor: said in one line
                raise AnswerError(
                    render("exercise_agent_broken_init", error=_error_words(error))
                ) from None
        if isinstance(agent, (str, bytes, int, float)) or not callable(
            getattr(agent, "decide", None)
        ):
            raise bad_answer(answer, self.accepts)
        return agent

    def _judge(self, answer: object) -> Feedback:
        from rummykit.ai import Decision, Trace, make_agent
        from rummykit.game import Game

        agent = self._agent(answer)
        name = str(getattr(agent, "name", "") or type(agent).__name__)
        other = make_agent(self.against)
        points = [0, 0]  # the agent's, the level's
        moves = 0
        for number in range(self.rounds):
            game = Game.new(self.variant, players=2, seed=self.seed + number)
            mine = number % 2  # the agent plays each seat in turn
            while not game.is_over:
                seat = game.current
                obs = game.observation(seat)
                if seat != mine:
                    game.play(other.decide(obs).action)
                    continue
                moves += 1
                problem = None
                try:
                    decision = agent.decide(obs)
                except Exception as error:  # the learner's code: its error, in one line
                    problem = render("exercise_agent_raised", error=_error_words(error))
                else:
                    if not isinstance(decision, Decision) or not isinstance(decision.trace, Trace):
                        problem = render("exercise_agent_no_decision", got=quoted_answer(decision))
                    else:
                        verdict = game.check(decision.action)
                        if not verdict.ok:
                            problem = str(verdict)
                if problem is None and len(game.actions) > self._MOVES:
                    problem = render("exercise_agent_endless", moves=self._MOVES)
                if problem is not None:
                    head = render("exercise_agent_wrong", name=name, round=number + 1, move=moves)
                    return make_feedback(False, name, self.answer, "", head, (problem,))
                game.play(decision.action)
            result = game.result
            assert result is not None  # the loop ran until the round was over
            points[0] += result.points[mine]
            points[1] += result.points[1 - mine]
        mean = [round(p / self.rounds, 1) for p in points]
        head = render("exercise_agent_right", name=name, rounds=self.rounds, moves=moves)
        line = render(
            "exercise_agent_score", name=name, mine=mean[0], level=self.against, theirs=mean[1]
        )
        return make_feedback(True, name, self.answer, head, "", (line,))


def _error_words(error: BaseException) -> str:
    """An error of the learner's code in one line: its type and message."""
    text = " ".join(str(error).split())
    text = text if len(text) <= 80 else text[:79] + "…"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
