"""Serve the JupyterLite site on this machine only: ``python lite/serve.py [--port 8000] [DIR]``.

For trying the site (``make lite-serve``) and for the browser test. A class is better served by
any static web host (docs/lite.md): the site is plain files.
"""

from __future__ import annotations

import argparse
import functools
import http.server
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent.parent

# The types the browser insists on (an ES module, WebAssembly), whatever the system's tables say.
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **TYPES,
    }

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: a page load is hundreds of requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("site", nargs="?", type=Path, default=ROOT / "build" / "lite")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    if not (args.site / "index.html").exists():
        raise SystemExit(f"no site in {args.site}: run `make lite` first")
    handler = functools.partial(SiteHandler, directory=str(args.site))
    with http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler) as server:
        print(f"JupyterLite: http://127.0.0.1:{server.server_port}/lab/index.html", flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
