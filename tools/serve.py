"""Serve the built site at http://127.0.0.1:8000 with the MIME types Pyodide needs
(``.wasm`` as ``application/wasm``, ``.mjs`` as JavaScript).

Usage: ``python tools/serve.py [--port 8000] [--dir _site]``
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
from pathlib import Path

TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".toml": "text/plain; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
    ".whl": "application/zip",
    ".zip": "application/zip",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    # The base class's own attribute, extended.
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}  # noqa: RUF012

    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(directory: Path, port: int, host: str = "127.0.0.1",
          handler_class: type[Handler] = Handler) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(handler_class, directory=str(directory))
    return http.server.ThreadingHTTPServer((host, port), handler)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Serve the built site.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent.parent / "_site")
    args = parser.parse_args()
    server = serve(args.dir, args.port)
    print(f"Riposte: http://127.0.0.1:{args.port}/ (Ctrl+C to stop)")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
