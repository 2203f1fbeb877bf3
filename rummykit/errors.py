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
'canasta' não é uma variante: escolha uma de hungarian, rommi
"""

from __future__ import annotations

from collections.abc import Mapping

from rummykit.messages import Text, in_language

__all__ = ["RummykitError"]


class RummykitError(ValueError):
    """Bad input, said as a sentence: ``code``, ``field``, ``params`` and :meth:`render`.

    It is made from the sentence :func:`~rummykit.messages.render` returned (its code and
    parameters come with it) and, where one applies, the field at fault.
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
