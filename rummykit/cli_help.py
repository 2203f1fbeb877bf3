"""argparse's own words in rummykit's language: the ``usage:`` prefix, the section headings and
the help of ``-h`` and ``--version``, from the templates.

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
from collections.abc import Iterable
from typing import Any

from rummykit.messages import render

__all__ = ["HelpFormatter"]

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
