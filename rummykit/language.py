"""Which language rummykit speaks, and its catalogue of sentences (standard library only).

English is built in; Portuguese (``pt``) and Finnish (``fi``) come from the gettext catalogues
compiled into ``rummykit/locale/<lang>/LC_MESSAGES/rummykit.mo``. The language is, in order:
the one given to a call (``render(..., language="fi")``, ``Table(..., language="fi")``,
``--lang fi``), the one of the innermost :func:`speaking` block, the one set with
:func:`set_language`, else the locale's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.

:func:`set_language` sets the default of the whole process (a notebook's first cell); a
:func:`speaking` block holds for the code inside it alone — its thread, its asyncio task —
so two threads, or two widgets, that speak different languages at once never see each
other's (one mechanism, :mod:`contextvars`, behind every block and every widget's own
language).

>>> from rummykit.messages import render  # the sentences, the refusal's included
>>> from rummykit.language import language_from_environment, set_language, get_language
>>> language_from_environment({"LANG": "pt_BR.UTF-8"}), language_from_environment({"LANG": "C"})
('pt', 'en')
>>> set_language("fi"); get_language()
'fi'
>>> set_language(None)  # back to the locale's language
>>> set_language("de")
Traceback (most recent call last):
...
rummykit.language.UnknownLanguage: 'de' is not a language rummykit speaks: choose one of en, fi, pt

Nothing is read until a sentence is first wanted in a language other than English, and
English costs no catalogue at all.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: importing typing costs milliseconds
if TYPE_CHECKING:
    import gettext
    from collections.abc import Callable
    from typing import ParamSpec, TypeVar

    P = ParamSpec("P")
    R = TypeVar("R")

__all__ = [
    "LANGUAGE_NAMES",
    "UnknownLanguage",
    "available",
    "catalogue",
    "check_language",
    "describe_unknown_with",
    "get_language",
    "language_from_environment",
    "local_letters",
    "register",
    "set_language",
    "speaking",
    "speaks_own_language",
]

LOCALE_DIR = os.path.join(os.path.dirname(__file__), "locale")  # no pathlib: import stays cheap
DOMAIN = "rummykit"

LANGUAGE_NAMES = {"en": "English", "pt": "Português", "fi": "Suomi"}
"""The languages rummykit ships, by code, each named in its own language."""

ENVIRONMENT = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The variables that give the default language, first set one first (as gettext reads them)."""

_chosen: str | None = None
_locale: str | None = None  # the locale's language, read when first needed
_local = False  # the process default of local_letters
# the innermost speaking() block's language and letters (None: the process default)
_within: ContextVar[str | None] = ContextVar("rummykit_language_within", default=None)
_letters: ContextVar[bool | None] = ContextVar("rummykit_local_letters_within", default=None)
_registered: dict[str, gettext.NullTranslations] = {}
_loaded: dict[str, gettext.NullTranslations | None] = {}


class UnknownLanguage(ValueError):
    """A language code rummykit has no sentences for."""


def available() -> tuple[str, ...]:
    """Every language code accepted: the shipped ones and any :func:`register` added.

    >>> available()[:3]
    ('en', 'fi', 'pt')
    """
    return tuple(sorted(LANGUAGE_NAMES, key=lambda c: (c != "en", c))) + tuple(
        sorted(c for c in _registered if c not in LANGUAGE_NAMES)
    )


def _normal(code: str) -> str:
    """``pt_BR.UTF-8`` → ``pt``; ``FI`` → ``fi``."""
    return code.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0].lower()


def check_language(code: str) -> str:
    """The language code for ``code`` (``"pt-BR"`` → ``"pt"``), or :class:`UnknownLanguage`
    naming the languages accepted."""
    normal = _normal(code) if isinstance(code, str) else ""
    if normal in LANGUAGE_NAMES or normal in _registered:
        return normal
    raise UnknownLanguage(_describe_unknown[0](str(code), available()))


_describe_unknown: list[Callable[[str, tuple[str, ...]], str]] = [
    lambda code, accepted: f"'{code}' ∉ {{{', '.join(accepted)}}}"  # until messages says it
]


def describe_unknown_with(describe: Callable[[str, tuple[str, ...]], str]) -> None:
    """How the refusal of an unknown language is said: :mod:`rummykit.messages` gives its
    sentence (this module sits below the sentences and imports none)."""
    _describe_unknown[0] = describe


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of the locale: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is
    set decides; a language rummykit doesn't speak, ``C`` or ``POSIX`` mean English."""
    env = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = env.get(name, "")
        if value:
            normal = _normal(value)
            return normal if normal in LANGUAGE_NAMES or normal in _registered else "en"
    return "en"


def set_language(code: str | None, *, local_letters: bool | None = None) -> None:
    """Speak ``code`` from now on (``"en"``, ``"pt"``, ``"fi"``); ``None`` goes back to the
    locale's language (read from the environment again). An unknown code raises
    :class:`UnknownLanguage` and changes nothing.

    ``local_letters=True`` writes cards in sentences with the language's rank letters
    (Portuguese V D R, Finnish D R for J Q K, Q K); English letters are the default, so saved
    games and what tests compare stay the same.
    """
    global _chosen, _local, _locale
    checked = None if code is None else check_language(code)
    _chosen = checked
    _locale = None  # the locale is read again when next needed
    if local_letters is not None:
        _local = local_letters


@contextmanager
def speaking(language: str | None, *, local_letters: bool | None = None) -> Iterator[None]:
    """Speak ``language`` (``None``: as now) inside a ``with`` block, then as before — in
    this thread or asyncio task only: another thread speaking another language at the same
    time keeps its own. An unknown code raises :class:`UnknownLanguage` before the block.

    >>> from rummykit.messages import render
    >>> with speaking("en"):
    ...     render("label_valid")
    '✔ valid'
    >>> with speaking("pt"):
    ...     with speaking(None, local_letters=True):
    ...         get_language(), local_letters()
    ('pt', True)
    """
    code = None if language is None else check_language(language)
    said = None if code is None else _within.set(code)
    lettered = None if local_letters is None else _letters.set(local_letters)
    try:
        yield
    finally:
        if lettered is not None:
            _letters.reset(lettered)
        if said is not None:
            _within.reset(said)


def speaks_own_language(method: Callable[P, R]) -> Callable[P, R]:
    """A method of an object with a ``language`` (a widget) that speaks that language while it
    runs; the language is read from ``self.language``, or the ``language=`` keyword of the
    ``__init__`` it decorates. ``None`` speaks the current language."""
    import functools

    @functools.wraps(method)
    def speak(*args: P.args, **kwargs: P.kwargs) -> R:
        language = kwargs.get("language") or getattr(args[0], "language", None)
        if language is None:
            return method(*args, **kwargs)
        with speaking(str(language)):
            return method(*args, **kwargs)

    return speak


def local_letters() -> bool:
    """Whether sentences write cards with the language's rank letters (see :func:`set_language`)."""
    inside = _letters.get()
    return _local if inside is None else inside


def get_language() -> str:
    """The language rummykit speaks now: the one set, else the locale's."""
    inside = _within.get()
    if inside is not None:
        return inside
    if _chosen is not None:
        return _chosen
    global _locale
    if _locale is None:
        _locale = language_from_environment()
    return _locale


def within(language: str) -> contextlib.AbstractContextManager[None]:
    """:func:`speaking` ``language``: while a sentence is written in it, objects that write
    themselves (an action, a card's label) inside it speak it too."""
    return speaking(language)


def resolve(language: str | None) -> str:
    """``language`` checked, or the current language when ``None``."""
    return get_language() if language is None else check_language(language)


def register(code: str, translations: gettext.NullTranslations | None) -> None:
    """Speak a language from a catalogue you loaded yourself (a ``gettext`` translations
    object, e.g. the pseudo-locale of the tests); ``None`` forgets it again."""
    normal = _normal(code)
    _loaded.pop(normal, None)
    if translations is None:
        _registered.pop(normal, None)
    else:
        _registered[normal] = translations


def catalogue(language: str) -> gettext.NullTranslations | None:
    """The compiled catalogue of ``language``, read on first use; ``None`` for English.

    A shipped language whose ``.po`` has not been compiled raises a clear error (run
    ``make mo`` in a source checkout); one with no ``.po`` yet speaks English.
    """
    if language == "en" and language not in _registered:
        return None
    if language not in _loaded:  # two threads may both read it: the same catalogue, harmless
        _loaded[language] = _registered.get(language) or _read(language)
    return _loaded[language]


def _read(language: str) -> gettext.NullTranslations | None:
    import gettext

    folder = os.path.join(LOCALE_DIR, language, "LC_MESSAGES")
    mo = os.path.join(folder, f"{DOMAIN}.mo")
    if os.path.exists(mo):
        with open(mo, "rb") as f:
            return gettext.GNUTranslations(f)
    if os.path.exists(os.path.join(folder, f"{DOMAIN}.po")):
        raise FileNotFoundError(
            f"{mo} is missing: the {language} sentences are not compiled (run make mo)"
        )
    return None
