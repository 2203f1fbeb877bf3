"""Teaching with rummykit in a class: lesson editions, nbgrader assignments, the class report.

- :mod:`rummykit.grading.editions`: the student and teacher editions of a lesson notebook
  (``rummykit notebooks DIR --edition teacher``);
- :mod:`rummykit.grading.assignments`: a lesson as an nbgrader source assignment
  (``rummykit assignment NOTEBOOK COURSE_DIR``), and :func:`grade`, which its hidden tests call;
- :mod:`rummykit.grading.report`: what a class got right and wrong, per student and per rule
  (``rummykit class-report COURSE_DIR``, :func:`rummykit.class_report`).

Nothing here imports nbgrader or Jupyter until a function that needs it is called.
"""

from __future__ import annotations

from typing import Any

__all__ = ["class_report", "grade", "make_assignment", "student_edition"]

_HOME = {
    "class_report": "rummykit.grading.report",
    "grade": "rummykit.grading.assignments",
    "make_assignment": "rummykit.grading.assignments",
    "student_edition": "rummykit.grading.editions",
}


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(__import__(home, fromlist=(name,)), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})
