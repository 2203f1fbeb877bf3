"""The base of rummykit's errors: a code a program can switch on, the field at fault, and the
sentence again in any language.

Every error rummykit raises for bad input is a :class:`RummykitError` (and a ``ValueError``):
``code`` is the stable key of its sentence (the same in every language), ``field`` the part of
the input at fault where one applies (``"position.hands[1]"``, ``"cut"``), ``params`` what the
sentence says of it, and :meth:`~RummykitError.render` says it again in another language.

>>> from rummykit import variant
>>> try:
...     variant("canasta")
... except RummykitError as error:
...     print(error.code, error.params["name"])
...     print(error.render("pt"))
unknown_variant canasta
'canasta' não é uma variante: escolha uma entre hungarian, rommi
"""

from __future__ import annotations

from collections.abc import Mapping

from rummykit.messages import Text, in_language

__all__ = ["RummykitError", "Said", "sentence_of"]


class Said(Exception):
    """An error said as a sentence: ``code``, ``field``, ``params`` and :meth:`render`.

    It is made from the sentence :func:`~rummykit.messages.render` returned (its code and
    parameters come with it) and, where one applies, the field at fault. Bad input is a
    :class:`RummykitError`; an error of another kind (a run that failed, a program that
    couldn't be imported) mixes this in with its own kind.
    """

    code: str
    field: str | None
    params: Mapping[str, object]

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = message.code if isinstance(message, Text) else type(self).__name__
        self.params = message.params if isinstance(message, Text) else {}
        self.field = field

    @property
    def message(self) -> str:
        """The sentence as it was said when the error was raised."""
        text: str = self.args[0]
        return text

    def render(self, language: str | None = None) -> str:
        """The sentence in ``language`` (default: the current one)."""
        return in_language(self.message, language)


class RummykitError(Said, ValueError):
    """Bad input, said as a sentence (see :class:`Said`)."""


def sentence_of(error: BaseException) -> str:
    """What ``error`` says, as the :class:`~rummykit.messages.Text` it was made from where it
    has one (so that an error that wraps it can be said again in another language)."""
    if isinstance(error, Said):
        return error.message
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Text) else str(error)
