"""Where rummykit runs: a desktop Python, or a browser page (Pyodide: JupyterLite) that can't
start worker processes or programs.

What needs a process degrades with a sentence there, never a traceback: a tournament plays
its games one after another in the page (:class:`BrowserLimit`, a warning), and an agent that
is a program of its own can't be made (:class:`NeedsDesktop`, whose sentence is all IPython
shows of it).

>>> in_browser()  # this Python is a desktop one
False
>>> print(NeedsDesktop("browser_no_programs", command="python bot.py")._render_traceback_()[0])
NeedsDesktop: python bot.py is a program of its own, and a browser page can't start programs: ...
"""

from __future__ import annotations

import sys

from rummykit.errors import Said
from rummykit.messages import render

__all__ = ["BrowserLimit", "NeedsDesktop", "in_browser"]


def in_browser() -> bool:
    """Whether this Python runs in a browser page (Pyodide, as in JupyterLite)."""
    return sys.platform == "emscripten"


class BrowserLimit(UserWarning):
    """Something asked for a desktop's resources in a browser page, which does without them."""


class NeedsDesktop(Said, RuntimeError):
    """What was asked needs a desktop Python: a browser page can't start a process."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(render(code, **params))

    def _render_traceback_(self) -> list[str]:
        """What IPython shows instead of a traceback: the sentence, as the error's one line."""
        return [f"{type(self).__name__}: {self}"]
