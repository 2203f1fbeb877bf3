"""Serve the JupyterLite site: ``python lite/serve.py [--host 127.0.0.1] [--port 8000] [DIR]``.

For trying the site (``make lite-serve``), for a class on a laptop with no other web server,
and for the browser tests; a school is better served by its own web server (docs/lite.md):
the site is plain files. Standard library only.

Each file is sent in the smallest form the browser accepts of those ``make lite`` wrote beside
it (``.br``, ``.gz``), with ``Content-Encoding`` and ``Vary: Accept-Encoding``; and with
``Cache-Control: no-cache`` and its date (``Last-Modified``), so a browser keeps what it fetched
and asks only whether it changed (``304 Not Modified`` when not): a second visit fetches
almost nothing, and a rebuilt site is never mixed with an old one.
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import http.server
import os
import threading
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent.parent

# The types the browser insists on (an ES module, WebAssembly), whatever the system's tables say.
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}
ENCODINGS = ((".br", "br"), (".gz", "gzip"))
"""The precompressed forms, best first: the file's name + suffix, and its Content-Encoding."""
LOG_LOCK = threading.Lock()


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **TYPES,
    }

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: a page load is hundreds of requests

    def _accepted(self) -> set[str]:
        header = self.headers.get("Accept-Encoding", "")
        return {part.split(";")[0].strip().lower() for part in header.split(",")}

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir() or not path.is_file():
            return super().send_head()  # folders (index.html), redirects, 404
        accepted = self._accepted()
        for suffix, encoding in ENCODINGS:
            packed = path.with_name(path.name + suffix)
            if encoding in accepted and packed.is_file():
                return self._send(path, packed, encoding)
        return self._send(path, path, None)

    def _send(self, path: Path, body: Path, encoding: str | None):  # type: ignore[no-untyped-def]
        stat = body.stat()
        modified = email.utils.formatdate(path.stat().st_mtime, usegmt=True)
        since = self.headers.get("If-Modified-Since")
        if since is not None and since == modified:
            self._note(0)
            self.send_response(304)
            self._headers(modified, encoding)
            self.end_headers()
            return None
        handle = open(body, "rb")  # noqa: SIM115 - closed by the server after copyfile
        self._note(stat.st_size)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Length", str(stat.st_size))
        self._headers(modified, encoding)
        self.end_headers()
        return handle

    def _note(self, size: int) -> None:
        """With ``--log FILE``: a line per file sent, its path and the bytes of its body."""
        log = getattr(self.server, "log", None)
        if log is not None:
            with LOG_LOCK:
                log.write(f"{self.path} {size}\n")
                log.flush()

    def _headers(self, modified: str, encoding: str | None) -> None:
        self.send_header("Last-Modified", modified)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Vary", "Accept-Encoding")
        if encoding:
            self.send_header("Content-Encoding", encoding)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("site", nargs="?", type=Path, default=ROOT / "build" / "lite")
    parser.add_argument("--host", default="127.0.0.1", help="0.0.0.0: every network")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log", type=Path, help="write each file sent and its size here")
    args = parser.parse_args()
    if not (args.site / "index.html").exists():
        raise SystemExit(f"no site in {args.site}: run `make lite` first")
    handler = functools.partial(SiteHandler, directory=str(args.site))
    with http.server.ThreadingHTTPServer((args.host, args.port), handler) as server:
        server.log = open(args.log, "a", encoding="utf-8") if args.log else None  # type: ignore[attr-defined]  # noqa: SIM115
        host = args.host if args.host not in ("0.0.0.0", "::") else os.uname().nodename
        print(f"JupyterLite: http://{host}:{server.server_port}/lab/index.html", flush=True)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print(
                "Over plain http from another computer, Python in the page can't see the "
                "notebooks' folder: serve the site over https for a class (docs/lite.md).",
                flush=True,
            )
        server.serve_forever()


if __name__ == "__main__":
    main()
