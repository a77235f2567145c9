"""Serve the built site at http://127.0.0.1:8000 with the MIME types Pyodide needs
(``.wasm`` as ``application/wasm``, ``.mjs`` as JavaScript).

Usage: ``python tools/serve.py [--port 8000] [--dir _site]``
"""

from __future__ import annotations

import argparse
import contextlib
import email.utils
import functools
import gzip
import http.server
import os
import sys
from pathlib import Path
from typing import Any

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

    def cache_control(self) -> str | None:
        """``sw.js`` and ``sw-player.js`` are checked with the server every time (the page registers it with
        ``updateViaCache: "all"``: without this, the browser's own guess at how long a file
        with no expiry stays fresh could hide a rebuilt site for a few seconds)."""
        return "no-cache" if self.path.split("?")[0].endswith(("/sw.js", "/sw-player.js")) else None

    def end_headers(self) -> None:
        value = self.cache_control()
        if value:
            self.send_header("Cache-Control", value)
        super().end_headers()


class PagesHandler(Handler):
    """Serves as GitHub Pages does, for the benchmark (bench/page_bench.py): text gzipped
    when the browser accepts it (HTML, JavaScript, CSS, JSON, SVG, TOML, Python; not the
    WebAssembly, zip files and wheels, which are sent as they are), and every response
    fresh for 10 minutes (``Cache-Control: max-age=600``). ``make serve`` and the tests use
    the plain Handler: a rebuilt site is seen at once."""

    COMPRESSED = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".webmanifest", ".toml", ".py", ".txt")
    MAX_AGE = 600
    _gzipped: dict[tuple[str, float], bytes] = {}  # noqa: RUF012  (a cache shared by every request)

    def cache_control(self) -> str | None:
        return f"max-age={self.MAX_AGE}"

    def served_file(self) -> str:
        """The file this request names (a folder: its index.html)."""
        path = self.translate_path(self.path)
        return os.path.join(path, "index.html") if os.path.isdir(path) else path

    def do_GET(self) -> None:
        path = self.served_file()
        if not (path.endswith(self.COMPRESSED) and os.path.isfile(path) and "gzip" in self.headers.get("Accept-Encoding", "")):
            super().do_GET()
            return
        mtime = os.stat(path).st_mtime
        since = self.headers.get("If-Modified-Since")
        if since and email.utils.parsedate_to_datetime(since).timestamp() >= int(mtime):
            self.send_response(304)
            self.end_headers()
            return
        body = self._gzipped.get((path, mtime))
        if body is None:
            body = self._gzipped[(path, mtime)] = gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(mtime)))
        self.end_headers()
        self.wfile.write(body)


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that closed the connection in the middle of an answer (a page closed
        while it loads) is no error of the server's: nothing printed."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def serve(directory: Path, port: int, host: str = "127.0.0.1",
          handler_class: type[Handler] = Handler) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(handler_class, directory=str(directory))
    return Server((host, port), handler)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Serve the built site.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent.parent / "_site")
    args = parser.parse_args()
    server = serve(args.dir, args.port)
    print(f"Riposte: http://127.0.0.1:{args.port}/ (Ctrl+C to stop)")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
