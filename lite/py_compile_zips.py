"""Run by lite/py_compile.mjs inside Pyodide (Python 3.14 in WebAssembly, in Node): each zip
given gets, for each ``.py`` it holds that a kernel imports when it starts, that module's
bytecode (``py_compile``), compiled by this very Python, so the browser's Python imports it
without compiling the source again on every visit. Which: those this Python has imported after
importing the modules it is given (IPython, jedi, …) from the site's own wheels; the other
modules stay sources, so the site grows by the bytecode that saves time and no more.

- in place of the source, as Pyodide's own distribution ships its standard library and
  packages: ``NAME.pyc`` for ``NAME.py`` (a wheel's ``RECORD`` says so), which Python imports
  from a folder or from the standard library's zip with no source beside it. Beside the
  source (``__pycache__/NAME.cpython-314.pyc``) the bytecode would take a first visit from
  10.0 MB to 13.6 MB (brotli); in place of it, about 2 MB more, and tracebacks through these
  modules (IPython's, the standard library's; not rummykit's) show no source line.

The same bytes every build: no date inside, the members in the zip's own order and dated as
their source.
"""

import base64
import hashlib
import importlib
import py_compile
import site
import sys
import tempfile
import warnings
import zipfile
from pathlib import Path

STDLIB = "/lib/python314.zip"  # where Pyodide puts python_stdlib.zip on sys.path
SITE = site.getsitepackages()[0]  # where it unpacks the wheels
UNCHECKED = py_compile.PycInvalidationMode.UNCHECKED_HASH


def bytecode(source: bytes, where: str) -> bytes | None:
    """The module's .pyc (named ``where`` in tracebacks), or None when this Python can't
    compile it. Unchecked-hash (PEP 552): no date inside, the same bytes every build."""
    with tempfile.TemporaryDirectory() as folder:
        py, pyc = Path(folder) / "module.py", Path(folder) / "module.pyc"
        py.write_bytes(source)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                py_compile.compile(
                    str(py), str(pyc), where, doraise=True, invalidation_mode=UNCHECKED
                )
        except py_compile.PyCompileError:
            return None  # a file for another Python (a test, a template): imported by nobody
        return pyc.read_bytes()


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
    """A wheel's RECORD with the line of each source compiled in its place replaced by its
    bytecode's."""
    out = []
    for line in text.decode().splitlines(keepends=True):
        new = lines.get(line.rsplit(",", 2)[0], line.encode())
        out.append(new if new.endswith(b"\n") else new + b"\n")
    return b"".join(out)


def compile_zip(path: str, wanted: set[str]) -> int:
    """Rewrite the zip at ``path`` with the bytecode in place of those of its sources
    ``wanted`` names; how many modules."""
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
        if pyc is None:
            out.append((info, data))
            continue
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
