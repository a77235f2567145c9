"""PyScript's Python package, compiled once and kept in the memory snapshot.

On every visit PyScript writes its package's source (``pyscript/*.py``, 30 kB) into the
worker's file system, under the current directory, and imports it: Python compiled those
files on every visit, about 50 ms of a warm start (docs/PERFORMANCE.md). A cold boot
(web/boot/boot.mjs) now compiles the same sources before it makes the snapshot
(``prepare``), so the snapshot holds their bytecode; every boot then writes it where Python
looks for it (``install``), before PyScript runs. The files are hash-checked ``.pyc`` files
(PEP 552): Python reads each source PyScript wrote, hashes it, and uses the bytecode only
when the hash is the one compiled, compiling the source otherwise. A PyScript whose package
differs costs the compile again, never a wrong module.

The build writes ``SOURCES``, PyScript's package as its npm package ships it, into the copy
of this module the standard library's zip holds (tools/build_site.py); it checks that
PyScript's core writes the same text.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as root:
...     pycs = compiled({"pyscript/__init__.py": "X = 1\\n"}, root)
...     install(pycs) == 1 and os.path.exists(os.path.join(root, "pyscript", "__pycache__"))
True
"""

from __future__ import annotations

import importlib.util
import marshal
import os

#: PyScript's package, path (under the current directory) to source: written by the build.
SOURCES: dict[str, str] = {}
#: The ``.pyc`` files made from ``SOURCES`` (``prepare``), path to bytes: in the snapshot.
PYCS: dict[str, bytes] = {}
#: A hash-based ``.pyc`` whose source Python checks (PEP 552: bit 0, hash-based; bit 1, checked).
CHECKED_HASH = (0b11).to_bytes(4, "little")


def pyc(source: str, path: str) -> bytes:
    """The checked-hash ``.pyc`` of ``source`` as Python would write it for ``path``."""
    data = source.encode("utf-8")
    code = compile(data, path, "exec", dont_inherit=True)
    return importlib.util.MAGIC_NUMBER + CHECKED_HASH + importlib.util.source_hash(data) + marshal.dumps(code)


def compiled(sources: dict[str, str], root: str) -> dict[str, bytes]:
    """Each source's ``.pyc``, keyed by where Python looks for it under ``root``; a source
    that does not compile has none (Python says why when PyScript imports it, as it would
    have: the cold boot goes on).

    >>> [os.path.basename(p).split(".")[0] for p in compiled({"a.py": "x = 1", "b.py": "x ="}, "/tmp")]
    ['a']
    """
    out = {}
    for name, source in sources.items():
        path = os.path.join(root, name)
        try:
            out[importlib.util.cache_from_source(path)] = pyc(source, path)
        except (SyntaxError, ValueError):
            continue
    return out


def prepare() -> None:
    """Compile PyScript's package for the files it writes under the current directory (a
    cold boot, before the snapshot)."""
    PYCS.update(compiled(SOURCES, os.getcwd()))


def install(pycs: dict[str, bytes] | None = None) -> int:
    """Write the ``.pyc`` files (``PYCS`` by default) where Python will look for them;
    how many were written. A write that fails leaves Python to compile that file."""
    written = 0
    for path, data in (PYCS if pycs is None else pycs).items():
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as file:
                file.write(data)
            written += 1
        except OSError:
            continue
    return written
