"""Widgets for JupyterLab and Voilà: the card table, the AI stepper, the meld checker.

Importing this module needs the notebook extras (``pip install rummykit[notebook]``);
``import rummykit`` alone never imports it.
"""

from rummykit.widgets.checker import MeldChecker
from rummykit.widgets.puzzle import PuzzleWidget, QuizWidget
from rummykit.widgets.review import ReviewWidget
from rummykit.widgets.stepper import AIStepper
from rummykit.widgets.table import Table

__all__ = ["AIStepper", "MeldChecker", "PuzzleWidget", "QuizWidget", "ReviewWidget", "Table"]
