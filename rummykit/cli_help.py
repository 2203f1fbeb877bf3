"""argparse's own words in rummykit's language: the ``usage:`` prefix, the section headings,
the help of ``-h`` and ``--version``, and its error messages, from the templates.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="demo", formatter_class=HelpFormatter)
>>> print(parser.format_help())
usage: demo [-h]
<BLANKLINE>
options:
  -h, --help  show this help message and exit
<BLANKLINE>
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from typing import Any

from rummykit.messages import render

__all__ = ["ArgumentParser", "HelpFormatter", "parser_error"]

# argparse's headings (Python 3.10 says "optional arguments"), and the templates saying them
_HEADINGS = {
    "positional arguments": "cli_positionals",
    "options": "cli_optionals",
    "optional arguments": "cli_optionals",
}


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, with its own words said in the current language."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[Any],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, render("cli_usage") if prefix is None else prefix)

    def start_section(self, heading: str | None) -> None:
        code = _HEADINGS.get(heading or "")
        super().start_section(render(code) if code else heading)

    def add_argument(self, action: argparse.Action) -> None:
        if "--help" in action.option_strings:
            action.help = render("cli_help_help")
        elif "--version" in action.option_strings:
            action.help = render("cli_version_help")
        super().add_argument(action)


# argparse's error messages (Python 3.10–3.13), each read back into its template's parameters;
# the first that matches wins ("argument X: " comes before what is wrong with X)
_ERRORS = (
    (r"the following arguments are required: (?P<names>.+)", "cli_arg_required"),
    (r"unrecognized arguments: (?P<names>.+)", "cli_arg_unrecognized"),
    (r"one of the arguments (?P<names>.+) is required", "cli_arg_one_required"),
    (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)", "cli_arg_ambiguous"),
    (r"argument (?P<argument>.+?): (?P<problem>.+)", "cli_arg_problem"),
)
_PROBLEMS = (
    (r"invalid choice: (?P<value>.+?) \(choose from (?P<choices>.+)\)", "cli_arg_invalid_choice"),
    (r"invalid (?P<kind>\S+) value: (?P<value>.+)", "cli_arg_invalid_value"),
    (r"expected one argument", "cli_arg_expected_one"),
    (r"expected at most one argument", "cli_arg_expected_at_most_one"),
    (r"expected at least one argument", "cli_arg_expected_some"),
    (r"not allowed with argument (?P<other>.+)", "cli_arg_not_allowed"),
    (r"ignored explicit argument (?P<value>.+)", "cli_arg_ignored"),
)


def _said(message: str, table: tuple[tuple[str, str], ...]) -> str | None:
    for pattern, code in table:
        found = re.fullmatch(pattern, message, re.DOTALL)
        if found is None:
            continue
        params = found.groupdict()
        if code == "cli_arg_problem":
            problem = _said(params["problem"], _PROBLEMS)
            if problem is None:
                return None
            params["problem"] = problem
        return render(code, params)
    return None


def parser_error(message: str) -> str:
    """argparse's error ``message`` in the current language (as it is, for one rummykit doesn't
    know).

    >>> parser_error("the following arguments are required: cards")
    'the following arguments are required: cards'
    >>> parser_error("argument --players: invalid int value: 'two'")
    "argument --players: invalid int value: 'two'"
    >>> from rummykit.language import speaking
    >>> with speaking("pt"):
    ...     parser_error("unrecognized arguments: --fast")
    'argumentos não reconhecidos: --fast'
    """
    return _said(message, _ERRORS) or message


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose errors are said in the current language (its subcommands' too:
    they are made of the same class)."""

    def error(self, message: str) -> Any:  # argparse's signature says NoReturn
        self.print_usage(sys.stderr)
        self.exit(2, render("cli_arg_error", prog=self.prog, message=parser_error(message)) + "\n")
