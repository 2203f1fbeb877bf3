"""The terminal game: a human at seat 0 against computer opponents, one typed line at a time.

>>> import io
>>> from rummykit import ROMMI
>>> out = io.StringIO()
>>> TerminalGame(ROMMI, 2, "easy", 4, stdin=io.StringIO("quit\\n"), stdout=out).run()
0
>>> out.getvalue().splitlines()[0]
'Rommi against easy computer opponents, 2 players, seed 4. You are seat 0.'
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import TextIO

from rummykit.ai import make_agent
from rummykit.ai.hint import hint
from rummykit.ai.trace import agent_name
from rummykit.cards import Card
from rummykit.game import Cut, Game, IllegalAction, Match, parse_action
from rummykit.game.record import dumps
from rummykit.messages import render
from rummykit.variants import Variant
from rummykit.voice import event_text, in_second_person, status_text

__all__ = ["QUIT_WORDS", "TerminalGame"]

QUIT_WORDS = frozenset({"quit", "exit", "q"})
"""What a player types to stop."""


class TerminalGame:
    """A game against computer opponents in a terminal, one line of input at a time.

    The human holds seat 0; every other seat is an agent. Moves are read with
    :func:`rummykit.game.actions.parse_action`; the referee's refusals are shown as its
    Verdict and the game goes on. When seat 0 cuts the deck (H3) the player is asked where,
    the middle of the deck being the default. Input ends with ``quit`` or the end of the input.

    With ``explain=True`` every computer move is preceded by its reasoning, which shows the
    computer's cards: the game says so when it starts (open-cards teaching). Without it
    nothing of a computer's hand is ever printed.

    The learner is "you" throughout ("You drew 8♣.", "Your turn: …"). With ``save`` each
    round is written to that file as it is played (round 2 on to ``NAME-2.json`` …), for
    ``rummykit review``.
    """

    def __init__(
        self,
        rules: Variant,
        players: int,
        level: str,
        seed: int,
        *,
        explain: bool = False,
        save: str | None = None,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
    ) -> None:
        self.rules = rules
        self.players = players
        self.seed = seed
        self.explain = explain
        self.save = Path(save) if save else None
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.match = Match(rules, players, seed=seed)
        self.agents = {seat: make_agent(level) for seat in range(1, players)}
        self.level = self.agents[1].name if players > 1 else level
        self.seen = 0  # events of the current round already shown

    # --- input and output ----------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """Print a line (or several)."""
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str) -> str | None:
        """One line of input, or None at the end of the input."""
        print(prompt, end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    # --- the game ------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match ends, ``quit`` or the end of the input; the exit status."""
        self.say(
            render(
                "play_welcome",
                variant=self.rules.title,
                players=self.players,
                level=agent_name(self.level),
                seed=self.seed,
            )
        )
        if self.explain:
            self.say(render("play_open_cards"))
        self.say(render("play_help_short"))
        while True:
            game = self.match.new_round(choose_cut=True)
            self.seen = 0
            self.say()
            self.say(render("play_round", number=self.match.round_number, dealer=game.dealer))
            if not self.play_round(game):
                self.saved(game, said=True)
                self.say(render("play_bye"))
                return 0
            self.show_result(game)
            self.saved(game, said=True)
            if self.match.is_over:
                self.say(render("play_match_over"))
                for standing in self.match.standings():
                    self.say(f"  {standing}")
                return 0
            answer = self.ask(render("play_next_round_prompt"))
            if answer is None or answer.lower() in QUIT_WORDS:
                self.say(render("play_bye"))
                return 0

    def play_round(self, game: Game) -> bool:
        """Play one round; False when the player quits (or the input ends)."""
        shown_turn = -1
        while not game.is_over:
            seat = game.current
            if game.phase == "cut":
                if seat != 0:
                    game.play(Cut(game.default_cut()), seat)
                    self.flush_events(game)
                elif not self.cut(game):
                    return False
                continue
            if seat != 0:
                self.ai_move(game, seat)
                self.saved(game)
                continue
            if shown_turn != len(game.actions) and game.phase in ("draw", "play"):
                self.show(game)
                shown_turn = len(game.actions)
            line = self.ask(render("play_prompt"))
            if line is None:
                return False
            word = line.lower()
            if not word:
                continue
            if word in QUIT_WORDS:
                return False
            if word in ("help", "?", "h"):
                self.say(render("play_help"))
            elif word in ("hint", "hint why", "why"):
                self.hint(game, why=word != "hint")
            elif word in ("show", "look", "table", "hand"):
                self.show(game)
            elif self.human_move(game, line):
                self.saved(game)
                shown_turn = -1
        self.flush_events(game)
        return True

    def cut(self, game: Game) -> bool:
        """Ask seat 0 where to cut the deck (H3) until the answer is a height the referee
        accepts; Enter cuts in the middle. False when the player quits."""
        default = game.default_cut()
        most = max(h.height for h in game.legal_actions() if isinstance(h, Cut))
        while True:
            line = self.ask(render("play_cut_prompt", most=most, default=default))
            if line is None or line.lower() in QUIT_WORDS:
                return False
            if not line.isdigit() and line:
                self.say(render("play_cut_not_a_number", text=line, most=most))
                continue
            try:
                game.play(Cut(int(line) if line else default), 0)
            except IllegalAction as refused:
                self.say(str(refused.verdict))
                continue
            self.flush_events(game)
            return True

    def human_move(self, game: Game, line: str) -> bool:
        """Read and play one move; a bad line or a refusal is explained and nothing changes
        (False)."""
        try:
            action = parse_action(line)
        except ValueError as error:
            self.say(str(error))
            self.say(render("play_try_help"))
            return False
        before = list(game.hand(0))
        try:
            game.play(action, 0)
        except IllegalAction as refused:
            self.say(" ".join(str(in_second_person(r, 0)) for r in refused.verdict.reasons))
            return False
        drawn = list((Counter(game.hand(0)) - Counter(before)).elements())
        self.flush_events(game, drawn[0] if drawn and action.kind == "draw" else None)
        return True

    def ai_move(self, game: Game, seat: int) -> None:
        """Let the agent at ``seat`` play one action, and say what it did (with its reasoning,
        and so its cards, only when the game was started with ``explain``)."""
        decision = self.agents[seat].decide(game.observation(seat))
        if self.explain:
            for line in str(decision.trace).splitlines():
                self.say(f"    {line}")
        game.play(decision.action, seat)
        self.flush_events(game)

    def flush_events(self, game: Game, drawn: Card | None = None) -> None:
        """Say every public event not yet said (the learner's own as "You …", with the card
        ``drawn`` from the stock, which only the learner sees)."""
        for event in game.events[self.seen :]:
            if drawn is not None and event.seat == 0 and event.code == "draw_stock":
                self.say(f"  {render('play_you_drew', card=drawn)}")
            else:
                self.say(f"  {event_text(event, 0)}")
        self.seen = len(game.events)

    def save_path(self) -> Path | None:
        """Where the round being played is saved (``None``: not saved)."""
        if self.save is None:
            return None
        number = self.match.round_number
        if number <= 1:
            return self.save
        return self.save.with_name(f"{self.save.stem}-{number}{self.save.suffix}")

    def saved(self, game: Game, *, said: bool = False) -> None:
        """Write the round to its file (and, ``said``, tell the learner where it is)."""
        path = self.save_path()
        if path is None or not game.actions:
            return
        try:
            path.write_text(dumps(game, indent=1), encoding="utf-8")
        except OSError as error:
            self.say(render("play_save_failed", path=str(path), error=error.strerror))
            self.save = None
            return
        if said:
            self.say(render("play_saved", path=str(path)))

    # --- showing the position ------------------------------------------------------------

    def show(self, game: Game) -> None:
        """The position as seat 0 sees it."""
        obs = game.observation(0)
        self.say()
        if obs.table:
            self.say(render("play_table"))
            for i, tm in enumerate(obs.table):
                owner = render("play_you") if tm.owner == 0 else render("play_seat", seat=tm.owner)
                jokers = [
                    f"🃏={rep}"
                    for c, rep in zip(tm.meld.cards, tm.meld.represents)
                    if c.is_joker and rep
                ]
                extra = f" ({', '.join(jokers)})" if jokers else ""
                self.say(f"  {i + 1}: {tm.meld}{extra} — {owner}")  # melds count from 1
        else:
            self.say(render("play_no_table"))
        top = obs.discard_top
        self.say(
            render(
                "play_piles",
                top=top if top is not None else "—",
                pile=len(obs.discard_pile),
                stock=obs.stock_size,
            )
            + (render("play_cut_card", card=obs.cut_card) if obs.cut_card is not None else "")
        )
        others = []
        for seat in range(1, obs.players):
            opened = obs.opened[seat] and bool(self.rules.opening_threshold)
            key = "play_other_opened" if opened else "play_other"
            others.append(render(key, seat=seat, count=obs.hand_sizes[seat]))
        self.say("  ".join(others))
        self.say(render("play_hand", cards=obs.hand or "—", count=len(obs.hand)))
        if obs.status is not None:
            self.say(status_text(obs.status))

    def hint(self, game: Game, *, why: bool = False) -> None:
        """One answer: the move the hard agent would make in the learner's place, as a
        sentence with the move to type back; with ``why`` its reasoning too (from seat 0's
        view only)."""
        obs = game.observation(0)
        if not obs.legal_actions:
            self.say(render("hint_not_yours"))
            return
        tip = hint(obs)
        self.say(tip.summary)
        if why:
            for line in tip.details:
                self.say(f"    {line}")
        else:
            self.say(render("play_hint_why"))

    def show_result(self, game: Game) -> None:
        """The round's scoring, line by line, and the match totals."""
        result = game.result
        if result is None:
            return
        self.say()
        self.say(render("play_round_over"))
        for line in result.lines:
            self.say(f"  {in_second_person(line, 0)}")
        totals = ", ".join(
            render("play_total", seat=seat, total=total)
            for seat, total in enumerate(self.match.totals)
        )
        self.say(render("play_totals", totals=totals))
