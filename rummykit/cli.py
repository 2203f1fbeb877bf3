"""The command line: ``rummykit check``, ``rummykit simulate`` and ``rummykit play``.

Each reason goes on its own line, failing ones indented; the exit status says the verdict
(0 valid, 1 not valid, 2 bad input):

>>> main(["check", "K♠ A♠ 2♠"])
K♠ A♠ 2♠ is not a valid meld in Hungarian Rummy.
  K♠ A♠ 2♠ wraps around the ace: in a run the ace goes below the 2 (A-2-3) or above the king (Q-K-A), never between them. (H4)
1
>>> main(["check", "--variant", "rommi", "Q♥", "K♥", "A♥"])
Q♥ K♥ A♥ is a run of hearts from Q to A. (R3)
0

A subcommand is a function that adds its parser to the subcommands and sets ``run`` to the
function that carries it out; :data:`COMMANDS` lists them, so adding one is one line.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from rummykit import __version__
from rummykit.explain import Verdict
from rummykit.melds import check_meld
from rummykit.messages import render
from rummykit.variants import VARIANTS, Variant, VariantError, variant

if TYPE_CHECKING:
    from rummykit.game import Game

    Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = [
    "COMMANDS",
    "TerminalGame",
    "build_parser",
    "explain_lines",
    "main",
    "parse_option",
    "run_check",
    "run_play",
    "run_review",
    "run_simulate",
    "verdict_json",
]

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


# --- reading house rules -------------------------------------------------------------------


def _hand_sizes(text: str, base: Variant) -> tuple[tuple[int, int], ...]:
    try:
        pairs = [part.split(":") for part in text.split(",") if part.strip()]
        sizes = tuple((int(players), int(cards)) for players, cards in pairs)
    except ValueError:
        sizes = ()
    if not sizes:
        raise VariantError(
            render(
                "bad_option_value",
                name="hand_sizes",
                variant=base.title,
                expected=render("cli_hand_sizes_expected"),
                value=text,
            )
        )
    return sizes


def parse_option(text: str, base: Variant) -> tuple[str, object]:
    """Read one ``KEY=VALUE`` house rule, typed after the option's value in ``base``.

    Booleans are ``true/false``, ``yes/no``, ``on/off`` or ``1/0``; numbers are whole
    numbers; ``hand_sizes`` is ``players:cards`` pairs. A value that doesn't read is passed
    on as text, so :meth:`Variant.derive` refuses it with its own message.

    >>> from rummykit import ROMMI
    >>> parse_option("ace_high=yes", ROMMI), parse_option("target=50", ROMMI)
    (('ace_high', True), ('target', 50))
    >>> parse_option("hand_sizes=2:7,3:9", ROMMI)
    ('hand_sizes', ((2, 7), (3, 9)))
    >>> parse_option("ace_high", ROMMI)
    Traceback (most recent call last):
    ...
    rummykit.variants.VariantError: 'ace_high' is not an option setting: write KEY=VALUE, e.g. ace_high=true
    """
    key, sep, raw = text.partition("=")
    key, raw = key.strip().replace("-", "_"), raw.strip()
    if not sep or not key:
        raise VariantError(render("bad_option_text", text=text))
    current = base.options().get(key)
    value: object = raw
    if isinstance(current, bool):
        word = raw.lower()
        if word in _TRUE or word in _FALSE:
            value = word in _TRUE
    elif isinstance(current, int):
        try:
            value = int(raw)
        except ValueError:
            value = raw
    elif key == "hand_sizes":
        value = _hand_sizes(raw, base)
    return key, value


def _variant(name: str, settings: Sequence[str]) -> Variant:
    base = variant(name)
    options = dict(parse_option(text, base) for text in settings)
    return base.derive(**options)


# --- showing a verdict ---------------------------------------------------------------------


def explain_lines(verdict: Verdict) -> list[str]:
    """The explanation one reason a line, the failing reasons indented under the heading.

    >>> explain_lines(check_meld("5♥ 🃏 7♥"))
    ['5♥ 🃏 7♥ is a run of hearts from 5 to 7. (H4)', 'The joker stands for the 6♥. (H5)', 'Worth 18 toward the opening. (H8)']
    """
    return [("  " if reason.failing else "") + str(reason) for reason in verdict.reasons]


def verdict_json(verdict: Verdict, rules: Variant) -> dict[str, Any]:
    """The verdict as a JSON-ready object, with the house rules that were in force.

    >>> data = verdict_json(check_meld("A♥ 2♥ 3♥"), variant("hungarian"))
    >>> data["ok"], data["kind"], data["points"], data["variant"], data["options"]
    (True, 'run', 15, 'hungarian', {})
    """
    data = verdict.to_dict()
    return {
        "ok": data["ok"],
        "kind": data["kind"],
        "points": data["points"],
        "variant": data["variant"],
        "options": rules.changes(),
        "cards": data["cards"],
        "jokers": data["jokers"],
        "reasons": data["reasons"],
    }


# --- rummykit check ------------------------------------------------------------------------


def _fail(command: str, error: Exception) -> int:
    print(render("cli_error", command=command, message=str(error)), file=sys.stderr)
    return 2


def run_check(args: argparse.Namespace) -> int:
    """``rummykit check``: 0 when the cards form a valid meld, 1 when not, 2 on bad input."""
    try:
        rules = _variant(args.variant, args.option)
        text = " ".join(args.cards)
        if not text.strip():
            raise ValueError(render("cli_no_cards"))
        verdict = check_meld(text, rules)
    except ValueError as error:  # CardParseError and VariantError are ValueErrors
        return _fail("check", error)
    if args.json:
        print(json.dumps(verdict_json(verdict, rules), ensure_ascii=False))
    else:
        print("\n".join(explain_lines(verdict)))
    return 0 if verdict.ok else 1


def add_check(commands: Subcommands) -> None:
    """Add ``rummykit check [--variant NAME] [--option KEY=VALUE ...] [--json] CARDS...``."""
    parser = commands.add_parser(
        "check",
        help=render("cli_check_help"),
        description=render("cli_check_description"),
    )
    parser.add_argument(
        "--variant",
        "-v",
        default="hungarian",
        metavar="{" + ",".join(VARIANTS) + "}",
        help=render("cli_variant_help", choices=", ".join(VARIANTS), default="hungarian"),
    )
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=render("cli_option_help", choices=", ".join(Variant.option_names())),
    )
    parser.add_argument("--json", action="store_true", help=render("cli_json_help"))
    parser.add_argument("cards", nargs="+", metavar="CARDS", help=render("cli_cards_help"))
    parser.set_defaults(run=run_check)


# --- rummykit simulate ---------------------------------------------------------------------


def run_simulate(args: argparse.Namespace) -> int:
    """``rummykit simulate``: a seeded tournament; prints the standings with confidence intervals."""
    from rummykit.tournament import TournamentError, run_tournament

    try:
        rules = _variant(args.variant, args.option)
        agents = [a for a in (part.strip() for part in args.agents.split(",")) if a]
        if args.games < 1:
            raise ValueError(render("tournament_no_games"))
    except ValueError as error:
        return _fail("simulate", error)
    bar: Any = None
    if not args.quiet:
        try:
            tqdm = importlib.import_module("tqdm").tqdm
        except ImportError:
            print(render("cli_no_tqdm"), file=sys.stderr)
        else:
            bar = tqdm(
                total=args.games, unit=render("tournament_unit_" + args.unit), file=sys.stderr
            )

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.update(done - bar.n)

    try:
        result = run_tournament(
            rules,
            args.players,
            agents,
            games=args.games,
            seed=args.seed,
            workers=args.workers,
            progress=progress,
            unit=args.unit,
            duplicate=not args.no_duplicate,
        )
    except (ValueError, TournamentError) as error:
        return _fail("simulate", error)
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print(result)
    return 0


def _variant_arguments(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument(
        "--variant",
        "-v",
        default=default,
        metavar="{" + ",".join(VARIANTS) + "}",
        help=render("cli_variant_help", choices=", ".join(VARIANTS), default=default),
    )
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=render("cli_option_help", choices=", ".join(Variant.option_names())),
    )


def add_simulate(commands: Subcommands) -> None:
    """Add ``rummykit simulate --agents A,B --games N --seed S [--players N] [--workers N]``."""
    parser = commands.add_parser(
        "simulate",
        help=render("cli_simulate_help"),
        description=render("cli_simulate_description"),
    )
    _variant_arguments(parser, "hungarian")
    parser.add_argument("--players", "-p", type=int, default=2, help=render("cli_players_help"))
    parser.add_argument("--agents", "-a", default="hard,normal", help=render("cli_agents_help"))
    parser.add_argument("--games", "-n", type=int, default=500, help=render("cli_games_help"))
    parser.add_argument("--seed", "-s", type=int, default=1, help=render("cli_seed_help"))
    parser.add_argument("--workers", "-w", type=int, default=2, help=render("cli_workers_help"))
    parser.add_argument(
        "--unit", choices=("round", "match"), default="round", help=render("cli_unit_help")
    )
    parser.add_argument("--no-duplicate", action="store_true", help=render("cli_no_duplicate_help"))
    parser.add_argument("--quiet", "-q", action="store_true", help=render("cli_quiet_help"))
    parser.add_argument("--json", action="store_true", help=render("cli_simulate_json_help"))
    parser.set_defaults(run=run_simulate)


# --- rummykit play -------------------------------------------------------------------------


class TerminalGame:
    """A game against computer opponents in a terminal, one line of input at a time.

    The human holds seat 0; every other seat is an agent. Moves are read with
    :func:`rummykit.game.actions.parse_action`; the referee's refusals are shown as its
    Verdict and the game goes on. Input ends with ``quit`` or the end of the input.
    """

    def __init__(
        self,
        rules: Variant,
        players: int,
        level: str,
        seed: int,
        *,
        explain: bool = False,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
    ) -> None:
        from rummykit.ai import make_agent
        from rummykit.game import Match

        self.rules = rules
        self.players = players
        self.seed = seed
        self.explain = explain
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
                level=self.level,
                seed=self.seed,
            )
        )
        self.say(render("play_help_short"))
        while True:
            game = self.match.new_round()
            self.seen = 0
            self.say()
            self.say(render("play_round", number=self.match.round_number, dealer=game.dealer))
            if not self.play_round(game):
                self.say(render("play_bye"))
                return 0
            self.show_result(game)
            if self.match.is_over:
                self.say(render("play_match_over"))
                for standing in self.match.standings():
                    self.say(f"  {standing}")
                return 0
            answer = self.ask(render("play_next_round_prompt"))
            if answer is None or answer.lower() in _QUIT:
                self.say(render("play_bye"))
                return 0

    def play_round(self, game: Game) -> bool:
        """Play one round; False when the player quits (or the input ends)."""
        shown_turn = -1
        while not game.is_over:
            seat = game.current
            if seat != 0:
                self.ai_move(game, seat)
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
            if word in _QUIT:
                return False
            if word in ("help", "?", "h"):
                self.say(render("play_help"))
            elif word in ("hint",):
                self.hint(game)
            elif word in ("show", "look", "table", "hand"):
                self.show(game)
            elif self.human_move(game, line):
                shown_turn = -1
        self.flush_events(game)
        return True

    def human_move(self, game: Game, line: str) -> bool:
        """Read and play one move; a bad line or a refusal is explained and nothing changes
        (False)."""
        from rummykit.game import IllegalAction, parse_action

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
            self.say(str(refused.verdict))
            return False
        self.flush_events(game)
        drawn = list((Counter(game.hand(0)) - Counter(before)).elements())
        if drawn and action.kind == "draw":
            self.say(render("play_you_drew", card=drawn[0]))
        return True

    def ai_move(self, game: Game, seat: int) -> None:
        """Let the agent at ``seat`` play one action, and say what it did."""
        decision = self.agents[seat].decide(game.observation(seat))
        if self.explain:
            for line in str(decision.trace).splitlines():
                self.say(f"    {line}")
        game.play(decision.action, seat)
        self.flush_events(game)

    def flush_events(self, game: Game) -> None:
        """Say every public event not yet said."""
        for event in game.events[self.seen :]:
            self.say(f"  {event}")
        self.seen = len(game.events)

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
                self.say(f"  {i}: {tm.meld}{extra} — {owner}")
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
            self.say(str(obs.status))

    def hint(self, game: Game) -> None:
        """What the solver sees in this hand, and the move a hard agent would make."""
        from rummykit.ai import make_agent
        from rummykit.solver import best_arrangement, best_opening, can_go_out

        obs = game.observation(0)
        v = self.rules
        hand = list(obs.hand)
        if obs.phase == "play" and hand:
            opened = obs.opened[0] or not v.opening_threshold
            table = [tm.meld for tm in obs.table] if opened else []
            out = can_go_out(hand, v, table)
            if not out.ok and not v.discard_to_win:  # R7: the last card may go by a discard
                out = can_go_out(hand, v, table, final_discard=True)
            if out.ok and (opened or best_opening(hand, v).ok):
                self.say(str(out))
            elif not opened:
                self.say(str(best_opening(hand, v)))
            else:
                self.say(str(best_arrangement(hand, v, discard=True)))
        elif hand:
            self.say(str(best_arrangement(hand, v)))
        if obs.legal_actions:
            decision = make_agent("hard").decide(obs)
            self.say(render("play_suggest", action=decision.action, why=decision.trace.why))

    def show_result(self, game: Game) -> None:
        """The round's scoring, line by line, and the match totals."""
        result = game.result
        if result is None:
            return
        self.say()
        self.say(render("play_round_over"))
        for line in result.lines:
            self.say(f"  {line}")
        totals = ", ".join(
            render("play_total", seat=seat, total=total)
            for seat, total in enumerate(self.match.totals)
        )
        self.say(render("play_totals", totals=totals))


_QUIT = frozenset({"quit", "exit", "q"})


def run_play(args: argparse.Namespace) -> int:
    """``rummykit play``: a game against the computer in the terminal."""
    import random

    from rummykit.ai import make_agent

    try:
        rules = _variant(args.variant, args.option)
        rules.check_players(args.players)
        make_agent(args.ai)
    except ValueError as error:
        return _fail("play", error)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    return TerminalGame(rules, args.players, args.ai, seed, explain=args.explain).run()


def add_play(commands: Subcommands) -> None:
    """Add ``rummykit play [--variant NAME] [--ai LEVEL] [--explain] [--seed N] [--players N]``."""
    parser = commands.add_parser(
        "play",
        help=render("cli_play_help"),
        description=render("cli_play_description"),
    )
    _variant_arguments(parser, "hungarian")
    parser.add_argument("--ai", default="normal", help=render("cli_ai_help"))
    parser.add_argument("--players", "-p", type=int, default=2, help=render("cli_players_help"))
    parser.add_argument("--seed", "-s", type=int, default=None, help=render("cli_play_seed_help"))
    parser.add_argument("--explain", action="store_true", help=render("cli_explain_help"))
    parser.set_defaults(run=run_play)


# --- rummykit review (the work is in rummykit.review) -----------------------------------------


def run_review(args: argparse.Namespace) -> int:
    """``rummykit review FILE``: 0 when the review is printed, 2 on a bad file or seat."""
    from rummykit.review import review_command

    return review_command(args.file, args.seat, args.level, args.json)


def add_review(commands: Subcommands) -> None:
    """Add ``rummykit review FILE [--seat N] [--level LEVEL] [--json]``."""
    parser = commands.add_parser(
        "review", help=render("review_cli_help"), description=render("review_cli_description")
    )
    parser.add_argument("file", help=render("review_cli_file_help"))
    parser.add_argument("--seat", type=int, default=0, help=render("review_cli_seat_help"))
    parser.add_argument("--level", default="hard", help=render("review_cli_level_help"))
    parser.add_argument("--json", action="store_true", help=render("review_cli_json_help"))
    parser.set_defaults(run=run_review)


# --- the program ---------------------------------------------------------------------------

COMMANDS: list[Callable[[Subcommands], None]] = [add_check, add_simulate, add_play, add_review]
"""The subcommands, each a function that adds its parser."""


def build_parser() -> argparse.ArgumentParser:
    """The ``rummykit`` argument parser with every subcommand in :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(prog="rummykit", description=render("cli_description"))
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``rummykit`` with ``argv`` (default: the process's arguments); return the exit status.

    >>> main(["check", "--option", "ace_low=no", "A♥ 2♥ 3♥"])
    A♥ 2♥ 3♥ is not a valid meld in Hungarian Rummy (ace_low=False).
      A♥ 2♥ 3♥ puts the ace below the 2; in Hungarian Rummy (ace_low=False) the ace only follows the king (Q-K-A). (H4)
    1
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse printed help, the version or a usage error
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)
