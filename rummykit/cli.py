"""The command line: ``rummykit check`` (``play`` and ``simulate`` come later).

Each reason goes on its own line, failing ones indented; the exit status says the verdict
(0 valid, 1 not valid, 2 bad input):

>>> main(["check", "K♠ A♠ 2♠"])
K♠ A♠ 2♠ is not a valid meld in Hungarian Rummy:
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
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rummykit import __version__
from rummykit.explain import Verdict
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


# --- the program ---------------------------------------------------------------------------

COMMANDS: list[Callable[[Subcommands], None]] = [add_check]
"""The subcommands, each a function that adds its parser (``play`` and ``simulate`` to come)."""


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
    A♥ 2♥ 3♥ is not a valid meld in Hungarian Rummy:
      A♥ 2♥ 3♥ puts the ace below the 2; in Hungarian Rummy the ace only follows the king (Q-K-A). (H4)
    1
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse printed help, the version or a usage error
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)
