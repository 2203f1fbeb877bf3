"""Widgets for JupyterLab and Voilà: the card table, the AI stepper, the meld checker.

Importing this module needs the notebook extras (``pip install rummykit[notebook]``);
``import rummykit`` alone never imports it. Each widget's module is imported when the widget
is first asked for, so a page that shows only the Table (``rummykit classroom``) starts its
kernel without the others.

>>> from rummykit.widgets import MeldChecker
>>> MeldChecker.__module__
'rummykit.widgets.checker'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rummykit.widgets.checker import MeldChecker
    from rummykit.widgets.puzzle import PuzzleWidget, QuizWidget
    from rummykit.widgets.review import ReviewWidget
    from rummykit.widgets.stepper import AIStepper
    from rummykit.widgets.table import Table

__all__ = ["AIStepper", "MeldChecker", "PuzzleWidget", "QuizWidget", "ReviewWidget", "Table"]

_MODULES = {
    "AIStepper": "stepper",
    "MeldChecker": "checker",
    "PuzzleWidget": "puzzle",
    "QuizWidget": "puzzle",
    "ReviewWidget": "review",
    "Table": "table",
}


def __getattr__(name: str) -> Any:
    """The widget ``name``, its module imported on first use."""
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"rummykit.widgets.{_MODULES[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
