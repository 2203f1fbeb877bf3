"""The command line: reads ``rummykit`` arguments and hands each subcommand to its own module.

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
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from rummykit import __version__
from rummykit.cards import local_letters_in
from rummykit.cli_help import ArgumentParser, HelpFormatter
from rummykit.errors import RummykitError
from rummykit.explain import Verdict
from rummykit.language import UnknownLanguage, available, speaking
from rummykit.melds import check_meld
from rummykit.messages import render
from rummykit.variants import VARIANTS, Variant, VariantError, variant

if TYPE_CHECKING:
    Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = [
    "COMMANDS",
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


def _subcommand(
    commands: Subcommands,
    name: str,
    run: Callable[[argparse.Namespace], int],
    help_text: str,
    description: str,
) -> argparse.ArgumentParser:
    """Add the parser of one subcommand, carried out by ``run``, with its help in words."""
    parser = commands.add_parser(name, help=help_text, description=description)
    parser.set_defaults(run=run)
    return parser


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
            raise RummykitError(render("cli_no_cards"))
        verdict = check_meld(text, rules)
    except ValueError as error:  # CardParseError and VariantError are ValueErrors
        return _fail("check", error)
    if args.json:
        print(json.dumps(verdict_json(verdict, rules), ensure_ascii=False))
    else:
        # cards typed with the language's letters (Rh Dh Ah in Finnish) are said back with them
        with speaking(None, local_letters=True if local_letters_in(text) else None):
            print("\n".join(explain_lines(verdict)))
    return 0 if verdict.ok else 1


def add_check(commands: Subcommands) -> None:
    """Add ``rummykit check [--variant NAME] [--option KEY=VALUE ...] [--json] CARDS...``."""
    parser = _subcommand(
        commands, "check", run_check, render("cli_check_help"), render("cli_check_description")
    )
    _variant_arguments(parser, "hungarian")
    parser.add_argument("--json", action="store_true", help=render("cli_json_help"))
    parser.add_argument("cards", nargs="+", metavar="CARDS", help=render("cli_cards_help"))


# --- rummykit simulate ---------------------------------------------------------------------


def run_simulate(args: argparse.Namespace) -> int:
    """``rummykit simulate``: a seeded tournament; prints the standings with confidence intervals."""
    from rummykit.tournament import TournamentError, run_tournament

    try:
        rules = _variant(args.variant, args.option)
        agents = [a for a in (part.strip() for part in args.agents.split(",")) if a]
        if args.games < 1:
            raise RummykitError(render("tournament_no_games"))
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


def add_simulate(commands: Subcommands) -> None:
    """Add ``rummykit simulate --agents A,B --games N --seed S [--players N] [--workers N]``."""
    parser = _subcommand(
        commands,
        "simulate",
        run_simulate,
        render("cli_simulate_help"),
        render("cli_simulate_description"),
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


# --- rummykit play -------------------------------------------------------------------------


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
    from rummykit.terminal import TerminalGame

    game = TerminalGame(rules, args.players, args.ai, seed, explain=args.explain, save=args.save)
    return game.run()


def add_play(commands: Subcommands) -> None:
    """Add ``rummykit play [--variant NAME] [--ai LEVEL] [--explain] [--seed N] [--players N]
    [--save FILE]``."""
    parser = _subcommand(
        commands, "play", run_play, render("cli_play_help"), render("cli_play_description")
    )
    _variant_arguments(parser, "hungarian")
    parser.add_argument("--ai", default="normal", help=render("cli_ai_help"))
    parser.add_argument("--players", "-p", type=int, default=2, help=render("cli_players_help"))
    parser.add_argument("--seed", "-s", type=int, default=None, help=render("cli_play_seed_help"))
    parser.add_argument("--explain", action="store_true", help=render("cli_explain_help"))
    parser.add_argument("--save", metavar="FILE", default=None, help=render("cli_save_help"))


# --- rummykit review (the work is in rummykit.mistakes) -----------------------------------------


def run_review(args: argparse.Namespace) -> int:
    """``rummykit review FILE``: 0 when the review is printed, 2 on a bad file or seat."""
    from rummykit.mistakes import review_command

    return review_command(
        args.file, args.seat, args.level, args.json, every=args.all, detail=args.detail
    )


def add_review(commands: Subcommands) -> None:
    """Add ``rummykit review FILE [--seat N] [--level LEVEL] [--json]``."""
    parser = _subcommand(
        commands, "review", run_review, render("review_cli_help"), render("review_cli_description")
    )
    parser.add_argument("file", help=render("review_cli_file_help"))
    parser.add_argument("--seat", type=int, default=0, help=render("review_cli_seat_help"))
    parser.add_argument("--level", default="hard", help=render("review_cli_level_help"))
    parser.add_argument("--json", action="store_true", help=render("review_cli_json_help"))
    parser.add_argument("--all", action="store_true", help=render("review_cli_all_help"))
    parser.add_argument("--detail", action="store_true", help=render("review_cli_detail_help"))


# --- rummykit agent and rummykit league (w17: the work is in rummykit.agents, rummykit.leagues)


def add_agent(commands: Subcommands) -> None:
    """Add ``rummykit agent [--level LEVEL | --agent FILE.py:Name] [--name NAME]``."""

    def run(args: argparse.Namespace) -> int:
        from rummykit.agents.serve import serve_command

        return serve_command(args.level, args.agent, args.name)

    parser = _subcommand(
        commands, "agent", run, render("cli_agent_help"), render("cli_agent_description")
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--level", "-l", default="normal", help=render("cli_agent_level_help"))
    which.add_argument("--agent", "-a", metavar="FILE.py:Name", help=render("cli_agent_spec_help"))
    parser.add_argument("--name", help=render("cli_agent_name_help"))


def add_league(commands: Subcommands) -> None:
    """Add ``rummykit league DIR [--games N] [--seed S] [--schedule S] [--scheduler ADDRESS]``."""

    def run(args: argparse.Namespace) -> int:
        from rummykit.leagues import run_league_command

        return run_league_command(args)

    parser = _subcommand(
        commands, "league", run, render("cli_league_help"), render("cli_league_description")
    )
    parser.add_argument("folder", metavar="DIR", help=render("cli_league_folder_help"))
    parser.add_argument(
        "--variant", "-v", choices=tuple(VARIANTS), help=render("cli_league_variant_help")
    )
    parser.add_argument("--players", "-p", type=int, help=render("cli_players_help"))
    parser.add_argument("--games", "-n", type=int, help=render("cli_league_games_help"))
    parser.add_argument("--seed", "-s", type=int, help=render("cli_seed_help"))
    parser.add_argument(
        "--schedule",
        choices=("auto", "round_robin", "swiss"),
        help=render("cli_league_schedule_help"),
    )
    parser.add_argument("--rounds", type=int, help=render("cli_league_rounds_help"))
    parser.add_argument("--time-limit", type=float, help=render("cli_league_time_limit_help"))
    parser.add_argument("--start-limit", type=float, help=render("cli_league_start_limit_help"))
    parser.add_argument("--game-limit", type=float, help=render("cli_league_game_limit_help"))
    parser.add_argument(
        "--sandbox", choices=("auto", "bwrap", "none"), help=render("cli_league_sandbox_help")
    )
    parser.add_argument("--workers", "-w", type=int, default=2, help=render("cli_workers_help"))
    parser.add_argument("--scheduler", metavar="ADDRESS", help=render("cli_league_scheduler_help"))
    parser.add_argument("--html", metavar="FILE", help=render("cli_league_html_help"))
    parser.add_argument("--save", metavar="FILE", help=render("cli_league_save_help"))
    parser.add_argument("--quiet", "-q", action="store_true", help=render("cli_quiet_help"))
    parser.add_argument("--json", action="store_true", help=render("cli_league_json_help"))


# --- rummykit notebooks and rummykit lab (w20: the work is in rummykit.tutorials) ----------


def add_tutorials(commands: Subcommands) -> None:
    """Add ``rummykit notebooks DIR [--force]`` and
    ``rummykit lab [DIR] [--force] [--no-browser] [--port N]``."""
    from rummykit.tutorials import DEFAULT_FOLDER

    def run(args: argparse.Namespace) -> int:
        from rummykit import tutorials

        if args.command == "notebooks":
            return tutorials.notebooks_command(args.folder, args.force, args.edition)
        extra = ["--no-browser"] if args.no_browser else []
        extra += [f"--port={args.port}"] if args.port is not None else []
        return tutorials.lab_command(args.folder, args.force, extra, args.edition)

    notebooks, lab = (
        _subcommand(
            commands,
            name,
            run,
            render(f"tutorials_cli_{name}_help"),
            render(f"tutorials_cli_{name}_description"),
        )
        for name in ("notebooks", "lab")
    )
    notebooks.add_argument("folder", metavar="DIR", help=render("tutorials_cli_folder_help"))
    notebooks.add_argument("--force", action="store_true", help=render("tutorials_cli_force_help"))
    for parser in (notebooks, lab):
        parser.add_argument(
            "--edition",
            choices=("student", "teacher"),
            default="student",
            help=render("tutorials_cli_edition_help"),
        )
    lab.add_argument(
        "folder",
        metavar="DIR",
        nargs="?",
        default=DEFAULT_FOLDER,
        help=render("tutorials_cli_lab_folder_help", default=DEFAULT_FOLDER),
    )
    lab.add_argument("--force", action="store_true", help=render("tutorials_cli_lab_force_help"))
    lab.add_argument(
        "--no-browser", action="store_true", help=render("tutorials_cli_no_browser_help")
    )
    lab.add_argument("--port", type=int, help=render("tutorials_cli_port_help"))


# --- rummykit assignment and rummykit class-report (the work is in rummykit.grading) ---------


def add_grading(commands: Subcommands) -> None:
    """Add ``rummykit assignment NOTEBOOK COURSE_DIR [--name NAME] [--points N] [--force]``
    and ``rummykit class-report [COURSE_DIR] [--assignment NAME ...] [--quiz FILE ...]
    [--game FILE[=NAME,...] ...] [--output DIR]``."""

    def assignment(args: argparse.Namespace) -> int:
        from rummykit.grading.assignments import assignment_command

        return assignment_command(args.notebook, args.course, args.name, args.points, args.force)

    def report(args: argparse.Namespace) -> int:
        from rummykit.grading.report import class_report_command

        return class_report_command(
            args.course, args.assignment, args.quiz, args.output, games=args.game
        )

    parser = _subcommand(
        commands,
        "assignment",
        assignment,
        render("assignment_cli_help"),
        render("assignment_cli_description"),
    )
    parser.add_argument("notebook", metavar="NOTEBOOK", help=render("assignment_cli_notebook_help"))
    parser.add_argument("course", metavar="COURSE_DIR", help=render("assignment_cli_course_help"))
    parser.add_argument("--name", help=render("assignment_cli_name_help"))
    parser.add_argument(
        "--points", type=float, default=1.0, help=render("assignment_cli_points_help")
    )
    parser.add_argument("--force", action="store_true", help=render("assignment_cli_force_help"))
    parser = _subcommand(
        commands,
        "class-report",
        report,
        render("report_cli_help"),
        render("report_cli_description"),
    )
    parser.add_argument(
        "course", metavar="COURSE_DIR", nargs="?", help=render("report_cli_course_help")
    )
    parser.add_argument(
        "--assignment", action="append", default=[], help=render("report_cli_assignment_help")
    )
    parser.add_argument(
        "--quiz", action="append", default=[], metavar="FILE", help=render("report_cli_quiz_help")
    )
    parser.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="FILE[=NAME,...]",
        help=render("report_cli_game_help"),
    )
    parser.add_argument("--output", metavar="DIR", help=render("report_cli_output_help"))


# --- rummykit classroom (w18: the work is in rummykit.classroom) ------------------------------


def add_classroom(commands: Subcommands) -> None:
    """Add ``rummykit classroom [--ip ADDRESS] [--port N] [--variant NAME] [--level LEVEL]
    [--cull-timeout S] [--cull-interval S] [--preheat N] [--code CODE] [--max-students N]
    [--cards open|closed]``; more options go in :data:`CLASSROOM_OPTIONS`."""
    from rummykit import classroom

    parser = commands.add_parser(
        "classroom",
        help=render("classroom_cli_help"),
        description=render("classroom_cli_description"),
    )
    numbers = {
        "--port": ("classroom_cli_port_help", classroom.DEFAULT_PORT),
        "--cull-timeout": ("classroom_cli_timeout_help", classroom.CULL_TIMEOUT),
        "--cull-interval": ("classroom_cli_interval_help", classroom.CULL_INTERVAL),
        "--preheat": ("classroom_cli_preheat_help", classroom.DEFAULT_PREHEAT),
    }
    parser.add_argument(
        "--ip",
        default=classroom.DEFAULT_IP,
        help=render("classroom_cli_ip_help", default=classroom.DEFAULT_IP),
    )
    for option, (code, default) in numbers.items():
        parser.add_argument(option, default=str(default), help=render(code, default=default))
    parser.add_argument(
        "--variant",
        "-v",
        default="hungarian",
        help=render("classroom_cli_variant_help", choices=", ".join(VARIANTS), default="hungarian"),
    )
    parser.add_argument(
        "--level",
        "-l",
        default="normal",
        help=render(
            "classroom_cli_level_help", choices=", ".join(classroom.LEVEL_NAMES), default="normal"
        ),
    )

    parser.add_argument("--code", default="", help=render("classroom_cli_code_help"))
    parser.add_argument(
        "--max-students",
        default="",
        metavar="N",
        help=render("classroom_cli_max_help", default=classroom.default_max_students()),
    )
    parser.add_argument(
        "--cards",
        default="open",
        help=render("classroom_cli_cards_help"),
    )
    parser.add_argument("--tables", action="store_true", help=render("tables_classroom_help"))
    parser.add_argument(
        "--trusted-proxy",
        default="",
        metavar="ADDRESS[,ADDRESS]",
        help=render("tables_cli_trusted_proxy_help"),
    )

    def run(args: argparse.Namespace) -> int:
        texts = {
            "ip": args.ip,
            "port": args.port,
            "variant": args.variant,
            "level": args.level,
            "cull_timeout": args.cull_timeout,
            "cull_interval": args.cull_interval,
            "preheat": args.preheat,
            "code": args.code,
            "cards": args.cards,
        }
        if args.max_students:
            texts["max_students"] = args.max_students
        try:
            settings = classroom.ClassroomSettings.from_text(**texts)
        except classroom.ClassroomError as error:
            return _fail("classroom", error)
        if getattr(args, "tables", False):  # w32: the table server beside the class page
            from rummykit.server.beside import tables_beside

            proxy = ["--trusted-proxy", args.trusted_proxy] if args.trusted_proxy else []
            with tables_beside(settings.ip, int(settings.port) + 1, options=proxy):
                return classroom.classroom_command(settings)
        return classroom.classroom_command(settings)

    parser.set_defaults(run=run)


# --- rummykit tables (w32: the work is in rummykit.server.web, tornado imported there) --------


def add_tables(commands: Subcommands) -> None:
    """Add ``rummykit tables [--ip ADDRESS] [--port N] [--db PATH|URL] [--teacher-code CODE]
    [--records DIR] [--pace S] [--server-id NAME] [--lease S] [--max-per-address N]
    [--trusted-proxy ADDRESS[,ADDRESS]]``."""
    from rummykit.server import DEFAULT_DB, DEFAULT_PORT

    parser = _subcommand(
        commands, "tables", _run_tables, render("tables_cli_help"), render("tables_cli_description")
    )
    parser.add_argument(
        "--ip", default="127.0.0.1", help=render("tables_cli_ip_help", default="127.0.0.1")
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=render("tables_cli_port_help", default=DEFAULT_PORT),
    )
    parser.add_argument(
        "--db", default=DEFAULT_DB, help=render("tables_cli_db_help", default=DEFAULT_DB)
    )
    parser.add_argument("--teacher-code", default=None, help=render("tables_cli_teacher_help"))
    parser.add_argument("--records", metavar="DIR", help=render("tables_cli_records_help"))
    parser.add_argument(
        "--pace", type=float, default=0.5, help=render("tables_cli_pace_help", default=0.5)
    )
    parser.add_argument("--server-id", default=None, help=render("tables_cli_server_id_help"))
    parser.add_argument(
        "--lease", type=float, default=15.0, help=render("tables_cli_lease_help", default=15)
    )
    parser.add_argument(
        "--max-per-address",
        type=int,
        default=100,
        help=render("tables_cli_per_address_help", default=100),
    )
    parser.add_argument(
        "--trusted-proxy",
        default="",
        metavar="ADDRESS[,ADDRESS]",
        help=render("tables_cli_trusted_proxy_help"),
    )


def _run_tables(args: argparse.Namespace) -> int:
    try:
        from rummykit.server.web import tables_command
    except ImportError:
        print(
            render("cli_error", command="tables", message=render("tables_not_installed")),
            file=sys.stderr,
        )
        return 2
    code = args.teacher_code or os.environ.get("RUMMYKIT_TEACHER_CODE") or None
    return tables_command(
        args.ip,
        args.port,
        args.db,
        code,
        args.records,
        args.pace,
        getattr(args, "lang", None),
        server_id=args.server_id,
        lease=args.lease,
        per_address=args.max_per_address,
        trusted_proxy=args.trusted_proxy,
    )


# --- the program ---------------------------------------------------------------------------

COMMANDS: list[Callable[[Subcommands], None]] = [
    add_check,
    add_simulate,
    add_play,
    add_review,
    add_agent,
    add_league,
    add_tutorials,
    add_grading,
    add_classroom,
    add_tables,
]
"""The subcommands, each a function that adds its parser."""


def _speak(parser: argparse.ArgumentParser) -> None:
    """Give a parser ``--lang`` and ``--local-letters``, and argparse's own words in the
    current language."""
    parser.formatter_class = HelpFormatter
    parser.add_argument(
        "--lang",
        metavar="LANG",
        default=argparse.SUPPRESS,
        help=render("cli_lang_help", choices=", ".join(available())),
    )
    parser.add_argument(
        "--local-letters",
        action="store_true",
        default=argparse.SUPPRESS,
        help=render("cli_local_letters_help"),
    )


def build_parser() -> argparse.ArgumentParser:
    """The ``rummykit`` argument parser with every subcommand in :data:`COMMANDS`; its help
    is in the current language, and every subcommand takes ``--lang``."""
    parser = ArgumentParser(
        prog="rummykit", description=render("cli_description"), formatter_class=HelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    # the subcommands' parsers are of the same class (their errors in the language too)
    commands = cast(
        "Subcommands", parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    )
    for add in COMMANDS:
        add(commands)
    _speak(parser)
    for sub in {id(p): p for p in commands.choices.values()}.values():
        _speak(sub)
    return parser


def _chosen_language(argv: Sequence[str]) -> tuple[str | None, bool]:
    """The ``--lang`` and ``--local-letters`` of a command line, read before its help is
    written (the last ``--lang`` counts)."""
    language = None
    local = False
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            language = argv[i + 1]
        elif arg.startswith("--lang="):
            language = arg.split("=", 1)[1]
        elif arg == "--local-letters":
            local = True
    return language, local


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``rummykit`` with ``argv`` (default: the process's arguments); return the exit status.

    ``--lang pt`` (or ``fi``, ``en``) speaks that language for this command; the default is
    the locale's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``).

    >>> main(["check", "--option", "ace_low=no", "A♥ 2♥ 3♥"])
    A♥ 2♥ 3♥ is not a valid meld in Hungarian Rummy with no ace below the 2.
      A♥ 2♥ 3♥ puts the ace below the 2; in Hungarian Rummy with no ace below the 2 the ace only follows the king (Q-K-A).
    1
    >>> main(["check", "--lang", "de", "A♥ 2♥ 3♥"])
    2
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    language, local = _chosen_language(arguments)
    try:
        with speaking(language, local_letters=local or None):
            return _main(arguments)
    except UnknownLanguage as error:
        print(render("cli_error", command="--lang", message=str(error)), file=sys.stderr)
        return 2


def _main(argv: Sequence[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse printed help, the version or a usage error
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except KeyboardInterrupt:  # Ctrl-C: stop where we are, no traceback
        _end_line()
        return 130
    except BrokenPipeError:  # the reader went away (`rummykit play | head`): nothing to say
        _silence_stdout()
        return 0


def _end_line() -> None:
    """Finish the line a prompt left open, if the output is still there."""
    try:
        print(flush=True)
    except (BrokenPipeError, ValueError):
        _silence_stdout()


def _silence_stdout() -> None:
    """Point the process's standard output at the null device, so that the flush at exit
    finds no broken pipe to complain about."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)
