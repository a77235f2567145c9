"""The rest of Python's standard library, fetched when first imported.

The page ships only the part of the standard library that Riposte, PyScript and micropip
import (tools/stdlib.txt, traced at build: tools/build_site.py), as the zip Pyodide is
given (``stdLibURL``, web/boot/boot.mjs). Every other module of the standard library stays
importable: the first import of one fetches the rest of the library (a second zip, built
beside the first) synchronously, which a worker may do, writes it to Pyodide's file system
and imports from it; the service worker keeps that zip once the page is ready
(web/boot/offline.js), so it imports offline too. The build puts this module in the shipped zip.

>>> finder = Rest("rest.zip", modules={"xml"}, fetch=lambda url: b"")
>>> finder.find_spec("_winapi") is None  # not in the rest: nothing fetched
True
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType

#: Where the rest of the library goes in Pyodide's file system, beside the shipped zip.
REST = "/lib/python_stdlib_rest.zip"
#: The modules the rest holds: written by the build (tools/build_site.py), so that an
#: import of anything else (a module Pyodide does not have, tried in a ``try``) downloads
#: nothing.
MODULES: frozenset[str] = frozenset()


def fetch_sync(url: str) -> bytes:
    """The bytes at ``url``, fetched synchronously (a worker may), through the service worker."""
    from js import XMLHttpRequest  # type: ignore[import-not-found]

    request = XMLHttpRequest.new()
    request.open("GET", url, False)
    request.responseType = "arraybuffer"
    request.send()
    if request.status != 200:
        raise OSError(f"HTTP {request.status}")
    return bytes(request.response.to_bytes())


class Rest:
    """A finder, last on ``sys.meta_path``: a module of the standard library that no other
    finder found is looked up in the rest of the library, fetched from ``url`` the first
    time. ``imported`` lists the modules it found (none on a page that only plays)."""

    def __init__(self, url: str, modules: frozenset[str] | set[str] = MODULES, fetch: Callable[[str], bytes] = fetch_sync,
                 path: str = REST) -> None:
        self.url = url
        self.modules = modules
        self.fetch = fetch
        self.path = path
        self.imported: list[str] = []

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in self.modules:
            return None
        if not os.path.exists(self.path):
            try:
                data = self.fetch(self.url)
            except Exception as error:  # a JavaScript NetworkError too: offline, never kept
                raise ModuleNotFoundError(f"No module named {fullname!r}: it is not in the part of the standard library "
                                          f"Riposte ships, and the rest could not be fetched ({error})", name=fullname) from None
            with open(self.path, "wb") as file:
                file.write(data)
        parent = fullname.rpartition(".")[0]
        where = os.path.join(self.path, *parent.split(".")) if parent else self.path
        spec = PathFinder.find_spec(fullname, [where])
        if spec is not None:
            self.imported.append(fullname)
        return spec


def install(url: str, modules: frozenset[str] | set[str] = MODULES, fetch: Callable[[str], bytes] = fetch_sync,
            path: str = REST) -> Rest:
    """A ``Rest`` finder for ``url`` last on ``sys.meta_path``, in place of any earlier one
    (a memory snapshot holds the one its visit installed)."""
    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, Rest)]
    finder = Rest(url, modules, fetch, path)
    sys.meta_path.append(finder)
    return finder


def imported() -> list[str]:
    """The modules the rest of the library gave, in this interpreter."""
    return [name for finder in sys.meta_path if isinstance(finder, Rest) for name in finder.imported]
