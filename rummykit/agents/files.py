"""Agents named in text: ``path/to/file.py:Name`` or ``package.module:Name``.

``Name`` is a class or a zero-argument function that makes an agent. A file is loaded as a
module of its own (its folder goes on the import path while it loads, so it may import its
neighbours); a module name is looked up in the current directory too.

>>> make = import_agent("rummykit.ai:EasyAgent")
>>> make().name
'easy'
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rummykit.ai.agents import Agent
from rummykit.errors import Said
from rummykit.messages import render

__all__ = ["AgentImportError", "FileAgent", "import_agent"]


class AgentImportError(Said, ImportError):
    """An agent named as ``file.py:Name`` or ``module:Name`` could not be loaded."""


def import_agent(text: str, folder: str | os.PathLike[str] | None = None) -> Callable[[], Agent]:
    """The class or factory ``text`` names; a relative file is looked up in ``folder``."""
    where, sep, attr = text.strip().rpartition(":")
    if not sep or not where or not attr.isidentifier():
        raise AgentImportError(render("agent_spec_form", spec=text))
    if where.endswith(".py"):
        factory = FileAgent(str((Path(folder or ".") / where).resolve()), attr)
        factory.load()  # refuse a bad file now, not in the middle of a league
        return factory
    try:
        try:
            module = importlib.import_module(where)
        except ModuleNotFoundError:
            if os.getcwd() in sys.path:
                raise
            sys.path.insert(0, os.getcwd())  # run from a project directory
            module = importlib.import_module(where)
    except (ImportError, ValueError) as exc:
        raise AgentImportError(render("tournament_import_failed", spec=text, error=exc)) from exc
    return _factory(module, attr, text)


def _factory(module: object, attr: str, spec: str) -> Callable[[], Agent]:
    found = getattr(module, attr, None)
    if found is None:
        error = render("agent_no_attribute", attr=attr)
        raise AgentImportError(render("tournament_import_failed", spec=spec, error=error))
    if not callable(found):
        raise AgentImportError(render("tournament_not_factory", spec=spec))
    return found  # type: ignore[no-any-return]


@dataclass(frozen=True)
class FileAgent:
    """Makes the agent a Python file defines: ``FileAgent("/abs/my_agent.py", "MyAgent")()``.

    It holds only the path and the name, so it can be sent to another process (or a Dask
    worker that sees the same files) and load the file there.
    """

    path: str
    attr: str

    def load(self) -> Callable[[], Agent]:
        """The class or factory the file defines under :attr:`attr`."""
        spec = f"{self.path}:{self.attr}"
        try:
            module = _load_file(Path(self.path))
        except Exception as exc:  # the file's own code may raise anything while it loads
            raise AgentImportError(
                render("tournament_import_failed", spec=spec, error=exc)
            ) from exc
        return _factory(module, self.attr, spec)

    @property
    def name(self) -> str:
        """The agent class's ``name`` (or the attribute's)."""
        return str(getattr(self.load(), "name", self.attr))

    def __call__(self) -> Agent:
        return self.load()()


def _load_file(path: Path) -> object:
    path = path.resolve()
    name = f"rummykit_agent_{path.stem}_{abs(hash(str(path))):x}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None or not path.is_file():
        raise FileNotFoundError(render("agent_no_file", path=path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    finally:
        sys.path.remove(str(path.parent))
    return module
