"""Run by lite/py_compile.mjs inside Pyodide (Python 3.14 in WebAssembly, in Node): each zip
given gets, beside each ``.py`` it holds that a kernel imports when it starts, that module's
bytecode, compiled by this very Python, so the browser's Python imports it without compiling
the source again on every visit. Which: those this Python has imported after importing the
modules it is given (IPython, rummykit, …) from the site's own wheels; the other modules stay
sources only, so the site grows by the bytecode that saves time and no more.

- in place of the source, as Pyodide's own distribution ships its standard library and
  packages: ``NAME.pyc`` for ``NAME.py`` (a wheel's ``RECORD`` says so), which Python imports
  from a folder or from the standard library's zip with no source beside it. Beside the
  source (``__pycache__/NAME.cpython-314.pyc`` in a wheel, ``NAME.pyc`` in the zip) the
  bytecode would make the site a first visit downloads a third larger (13.6 MB instead of
  10.0 MB, brotli); in place of it, tracebacks through these modules show no source line.
- rummykit's own modules keep their source (``KEEP_SOURCE``): a learner reads its tracebacks,
  and ``inspect.getsource`` of a rule's code; its bytecode goes beside the source, as an
  installer writes it, *unchecked-hash* (PEP 552): Python loads it without comparing it with
  the source's date (an unpacked wheel's files are dated when they were unpacked).

The same bytes every build: no date inside, the members in the zip's own order and dated as
their source.
"""

import base64
import hashlib
import importlib.util
import site
import sys
import warnings
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]

STDLIB = "/lib/python314.zip"  # where Pyodide puts python_stdlib.zip on sys.path
SITE = site.getsitepackages()[0]  # where it unpacks the wheels
KEEP_SOURCE = ("rummykit/",)


def bytecode(source: bytes, where: str) -> bytes | None:
    """The module's unchecked-hash .pyc, or None when this Python can't compile it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = compile(source, where, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None  # a file for another Python (a test, a template): imported by nobody here
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), False))


def record_line(name: str, data: bytes) -> bytes:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n".encode()


def imported() -> set[str]:
    """The sources of the modules imported so far, as members of the standard library's zip
    (``json/decoder.py``) or of a wheel (``IPython/core/shell.py``)."""
    names = set()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None) or ""
        for root in (f"{STDLIB}/", f"{SITE}/"):
            if file.startswith(root) and file.endswith(".py"):
                names.add(file.removeprefix(root))
    return names


def record(text: bytes, lines: dict[str, bytes]) -> bytes:
    """A wheel's RECORD with each source compiled in its place named by its bytecode's line,
    and each bytecode kept beside its source added."""
    out = []
    for line in text.decode().splitlines(keepends=True):
        name = line.rsplit(",", 2)[0]
        out.append(lines.pop(name, line.encode()) if name.endswith(".py") else line.encode())
        if not out[-1].endswith(b"\n"):
            out[-1] += b"\n"
    return b"".join(out) + b"".join(lines[name] for name in sorted(lines))


def compile_zip(path: str, wanted: set[str]) -> int:
    """Rewrite the zip at ``path`` with the bytecode beside those of its sources ``wanted``
    names; how many modules."""
    wheel = path.endswith(".whl")
    with zipfile.ZipFile(path) as source:
        members = [(info, source.read(info)) for info in source.infolist()]
    if any(info.filename.endswith(".pyc") for info, _ in members):
        return 0  # compiled already
    out: list[tuple[zipfile.ZipInfo, bytes]] = []
    records: dict[str, bytes] = {}  # a wheel's RECORD line for a source, by its name
    for info, data in members:
        where = f"{SITE if wheel else STDLIB}/{info.filename}"
        pyc = bytecode(data, where) if info.filename in wanted else None
        beside = info.filename.startswith(KEEP_SOURCE)
        if pyc is None or beside:
            out.append((info, data))
        if pyc is None:
            continue
        if beside:
            name = importlib.util.cache_from_source(info.filename)
            records[name] = record_line(name, pyc)
        else:
            name = info.filename + "c"
            records[info.filename] = record_line(name, pyc)
        compiled = zipfile.ZipInfo(name, info.date_time)
        compiled.external_attr = info.external_attr
        compiled.create_system = info.create_system
        compiled.compress_type = info.compress_type
        out.append((compiled, pyc))
    with zipfile.ZipFile(path, "w") as target:
        for info, data in out:
            copy = zipfile.ZipInfo(info.filename, info.date_time)
            copy.external_attr = info.external_attr
            copy.create_system = info.create_system
            copy.compress_type = info.compress_type
            if wheel and info.filename.endswith(".dist-info/RECORD"):
                data = record(data, records)
            target.writestr(copy, data)
    return sum(1 for info, _ in out if info.filename.endswith(".pyc"))


def main(modules: list[str], paths: list[str]) -> None:
    """Import ``modules`` (their packages loaded already), then compile in each zip of
    ``paths`` the sources of every module imported."""
    for module in modules:
        importlib.import_module(module)
    wanted = imported()
    for path in paths:
        count = compile_zip(path, wanted)
        print(f"{path.rsplit('/', 1)[-1]}: {count} modules compiled")
