"""Build the static site into ``_site/``: the page, the engine wheel and the runtime.

The runtime is vendored from the registries, pinned exactly: PyScript, Pyodide and the QR
code libraries from npm (``package.json``, ``package-lock.json``, installed by ``npm ci``;
the build checks the installed versions), micropip's wheel from PyPI at the version
``pyodide-lock.json`` names, checked against the sha256 pinned here. PyPI's micropip wheel
differs from the one Pyodide's lock describes, and Pyodide checks integrity, so the vendored
lock gets the real sha256 (and the build fails loudly if the entry is missing). The page's
lock names micropip alone and is written into ``web/boot/boot.mjs`` (``pyodide_lock``):
nothing fetches Pyodide's. micropip installs the engine wheel on a cold boot
(``web/boot/boot.mjs``, ``pyscript.toml``). Nothing at run time comes from another origin.

Every URL the site serves, but the page itself, its manifest, its icons and ``sw.js``,
carries its version, so that the service worker's precache can take what the page has
already downloaded from the HTTP cache instead of downloading it again (Workbox's
``dontCacheBustURLsMatching``, tools/service_worker.mjs): the runtime under
``runtime/<package>-<version>/``, the app's own files (``web/``, minified by esbuild, with
the engine wheel) under ``web-<hash>/``, the first 12 hex digits of the SHA-256 of what
that folder holds. The build is deterministic: the same sources give the same bytes
(``runtime/SHA256SUMS`` lists every file shipped).

The test build (``--test-hooks``, into ``_site-test/``, made in the same run as ``_site/``
from the same runtime, standard library and wheel): the page's test hooks compiled in
(web/infra/hooks.js: the raw bridge, what the live table sent, the performance marks, the
live table's time scale) and the bridge's (web/boot/bridge_hooks.py). The tests and the
benchmarks serve it; ``_site/``, what ships, has none of them (tests/test_no_hooks.py).

Usage: ``python tools/build_site.py [--out _site] [--no-minify] [--test-hooks [--test-out _site-test]]``
"""

from __future__ import annotations

import argparse
import ast
import base64
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tokenize
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYSCRIPT_VERSION = "0.7.31"
PYODIDE_VERSION = "314.0.2"  # the version PyScript 0.7.31 expects
#: micropip installs the engine wheel on a cold boot (web/boot/boot.mjs); a restored snapshot
#: already holds it.
MICROPIP = "micropip-0.11.1-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
#: Pyodide's files the site serves as they are. Not its python_stdlib.zip: the site serves the
#: part of it the page needs and the rest apart (``stdlib_folder``).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
#: The changes made to a runtime file, each to one call of Pyodide's loader; the
#: build fails if this Pyodide's text is not the one it patches (``vendor_pyodide``).
#: RESTORE: Pyodide's restore of a memory snapshot (``API.restoreSnapshot`` in
#: pyodide.asm.mjs) ends by copying the snapshot whole into Python's memory, pages of zeros
#: too (13.7 MB of 30, made resident for nothing); the vendored copy calls the worker's
#: ``globalThis.riposteRestore`` instead when there is one (web/boot/pages.js).
RESTORE = ("Module.HEAP8.set(t),l}",
           "(globalThis.riposteRestore||((h,s)=>h.set(s)))(Module.HEAP8,t),l}")
#: FETCH: Pyodide's loader fetches its own files (``browser_getBinaryResponse`` in
#: pyodide.mjs: the WebAssembly, the standard library's zip); the vendored copy calls the
#: worker's ``globalThis.riposteFetch`` when there is one, which reads the service worker's
#: precache directly (web/boot/boot.mjs: 20-40 MB less on a warm visit, docs/PERFORMANCE.md).
FETCH = ("return{response:fetch(n,t?{integrity:t}:{})}",
         "return{response:(globalThis.riposteFetch||fetch)(n,t?{integrity:t}:{})}")
#: Each patch: its name, the file it changes, the change, and a text that says the call is the
#: one meant.
PATCHES = (("RESTORE", "pyodide.asm.mjs", RESTORE, "restoreSnapshot=function(t)"),
           ("FETCH", "pyodide.mjs", FETCH, 'o(fe,"browser_getBinaryResponse")'))
#: The part of Python's standard library the page ships: module names, one a line, checked
#: at every build against a trace of what the page's Python imports (``stdlib_folder``).
STDLIB_LIST = ROOT / "tools" / "stdlib.txt"
#: The page's Python besides the engine: its imports are traced too. PyScript's package
#: as its npm package carries it (its core writes the same files into the worker).
WORKER_PYTHON = ("web/boot/bridge.py", "web/boot/bridge_hooks.py", "web/boot/riposte_stdlib.py", "web/boot/riposte_pyscript.py")
PYSCRIPT_PYTHON = "src/stdlib/pyscript"
#: PyScript's package as one JavaScript object (its npm package's build artifact), which
#: PyScript's core writes into the worker's file system on every visit.
PYSCRIPT_SOURCES = "src/stdlib/pyscript.js"
#: The finder of the rest of the library (web/boot/riposte_stdlib.py), in the shipped zip.
STDLIB_FINDER = "riposte_stdlib.py"
#: PyScript's package compiled once (web/boot/riposte_pyscript.py), in the shipped zip.
PYSCRIPT_BYTECODE = "riposte_pyscript.py"
PAGE = ("index.html", "pyscript.toml", "manifest.webmanifest")
#: The test build's part of the worker's bridge (``app_folder``), in the app's folder.
BRIDGE_HOOKS = "boot/bridge_hooks.py"
#: Browser libraries vendored as they are (npm name, pinned version, file in the package),
#: each into runtime/<name>-<version>/. The QR code reader (« Scanner la réponse »,
#: web/live/scan.js, where the browser has no BarcodeDetector): barcode-detector's
#: self-contained ES build and the ZXing WebAssembly file it loads (its own dependency,
#: pinned by package-lock.json).
LIBRARIES = (("qrcode-generator", "2.0.4", "dist/qrcode.mjs"),
             ("barcode-detector", "3.2.2", "dist/es/ponyfill.js"),
             ("barcode-detector", "3.2.2", "dist/es/zxing-exported.js"),
             ("zxing-wasm", "3.1.3", "dist/reader/zxing_reader.wasm"))


def patched(version: str, patches: tuple[tuple[str, str, tuple[str, str], str], ...]) -> str:
    """Pyodide's version as its folder's name says it: with a digest of the build's changes
    to its files (``PATCHES``). A service worker keys a versioned address by itself and never
    fetches it again, so a file changed under the same address would never reach a returning
    user; a change of the patches is a new folder."""
    digest = hashlib.sha256(repr([patch[:3] for patch in patches]).encode()).hexdigest()
    return f"{version}-{digest[:8]}"


#: The runtime's folders, each named with its version (``runtime/pyodide-314.0.2-<digest>/``,
#: ``runtime/pyscript-0.7.31/``).
RUNTIME = {"pyodide": patched(PYODIDE_VERSION, PATCHES), "pyscript": PYSCRIPT_VERSION,
           **{name: version for name, version, _ in LIBRARIES}}
#: The source names them without their version (``"../runtime/pyodide/pyodide.mjs"``): the
#: build adds it. ``web/`` files and the page are the only ones that name the runtime.
RUNTIME_NAMES = "|".join(map(re.escape, RUNTIME))
RUNTIME_REFERENCE = re.compile(rf"""(?<=["'`])((?:\.\./)*)runtime/({RUNTIME_NAMES})/""")
#: The standard library's folder, named so in the source (``"../stdlib/python_stdlib.zip"``):
#: the build gives it its name, ``stdlib-<hash>`` (``stdlib_folder``).
STDLIB_REFERENCE = re.compile(r"""(?<=["'`])((?:\.\./)*)stdlib/""")
#: The modules index.html names, bundled with what they import (tools/bundle.mjs).
PAGE_MODULES = ("boot/early.js", "app.js")
#: Served as they are, at the same address in every version (the install icons).
STATIC = ("icon.svg", "icons")


def fail(message: str) -> None:
    sys.exit(f"build_site: {message}")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def npm_package(name: str, version: str) -> Path:
    folder = ROOT / "node_modules" / name
    try:
        found = json.loads((folder / "package.json").read_text())["version"]
    except FileNotFoundError:
        fail(f"{name} is not installed: run `npm ci` (make does)")
    if found != version:
        fail(f"{name} {found} installed, {version} pinned: run `npm ci`")
    return folder


def micropip_wheel() -> Path:
    cache = ROOT / "build" / "cache"
    wheel = cache / MICROPIP
    if not wheel.exists():
        cache.mkdir(parents=True, exist_ok=True)
        version = MICROPIP.split("-")[1]
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
             "--python-version", "3.14", "-d", str(cache), f"micropip=={version}"],
            check=True,
        )
    if sha256(wheel) != MICROPIP_SHA256:
        fail(f"{MICROPIP}: sha256 {sha256(wheel)} is not the pinned {MICROPIP_SHA256}")
    return wheel


def engine_wheel(out: Path) -> Path:
    from flit_core import buildapi

    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.whl"):
        old.unlink()
    import os

    os.chdir(ROOT)  # flit reads ./pyproject.toml
    name = buildapi.build_wheel(str(out))
    slim_wheel(out / name)
    return out / name


def slim(source: str) -> str:
    """A module as the browser gets it: without its comments and docstrings, every line
    where it was (a traceback in the page names the source's lines). Nothing in the engine
    reads a docstring; the doctests run on the source (pytest), not on the wheel.

    >>> slim("x = 1  # why\\ndef f():\\n    ('Doc,'\\n     ' two lines.')\\n    return x\\n")
    'x = 1\\ndef f():\\n    ""\\n\\n    return x\\n'
    """
    lines = source.splitlines(keepends=True)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            lines[row - 1] = lines[row - 1][:col].rstrip() + "\n"
    lines = [line if line.strip() or not line.endswith("\n") else "\n" for line in lines]
    source = "".join(lines)
    docstrings = [node.body[0] for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str)]
    for doc in sorted(docstrings, key=lambda d: d.lineno, reverse=True):
        first, last = doc.lineno - 1, (doc.end_lineno or doc.lineno) - 1
        # ast counts columns in UTF-8 bytes ("−4" is not 2 of them)
        head = lines[first].encode()[:doc.col_offset].decode()
        tail = lines[last].encode()[doc.end_col_offset or 0:].decode()
        lines[first:last + 1] = [f'{head}""{tail}', *["\n"] * (last - first)]
    return "".join(lines)


def slim_wheel(wheel: Path) -> None:
    """The engine wheel with every module slimmed (``slim``) and its RECORD written again,
    its entries dated as the dist-info's (a build gives the same bytes from any checkout):
    64 KB as flit writes it, about 40 KB so (the first visit's bytes)."""
    with zipfile.ZipFile(wheel) as z:
        members = {info.filename: z.read(info) for info in z.infolist()}
    record = next(name for name in members if name.endswith(".dist-info/RECORD"))
    for name, data in members.items():
        if name.endswith(".py"):
            members[name] = slim(data.decode("utf-8")).encode("utf-8")
    rows = []
    for name, data in members.items():
        if name == record:
            continue
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        rows.append(f"{name},sha256={digest},{len(data)}")
    members[record] = ("\n".join([*rows, f"{record},,"]) + "\n").encode()
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, date_time=(2016, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data, compresslevel=9)


def app_file(site: Path, app: str, name: str) -> str:
    """A file index.html names in web/, quoted as the built site serves it: in the app's
    versioned folder, but the icons (STATIC, at the same address in every version)."""
    if name.split("/")[0] in STATIC:
        return f'"web/{name}"'
    if not (site / app / name).is_file():
        fail(f"index.html names web/{name}, which the build did not ship")
    return f'"{app}/{name}"'


def runtime_folder(site: Path, name: str) -> Path:
    return site / "runtime" / f"{name}-{RUNTIME[name]}"


def vendor_pyodide(site: Path) -> None:
    src = npm_package("pyodide", PYODIDE_VERSION)
    dest = runtime_folder(site, "pyodide")
    dest.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(src / name, dest / name)
    for name, file, (old, new), mark in PATCHES:
        module = dest / file
        text = module.read_text()
        if text.count(old) != 1 or mark not in text:
            fail(f"{file} {PYODIDE_VERSION}: its text is not the one {name} patches: update it")
        module.write_text(text.replace(old, new))
    wheel = micropip_wheel()
    shutil.copy2(wheel, dest / MICROPIP)


def pyodide_lock() -> dict[str, Any]:
    """Pyodide's lock as the page gives it (``LOCK`` in web/boot/boot.mjs): its ``info`` and
    the one package the site ships, micropip, with the sha256 of the wheel vendored. Pyodide
    reads a lock at every start; npm's names 354 packages the site does not have (26 KB on
    the wire before the engine is ready), so none is fetched: ``lockFileContents``."""
    lock = json.loads((npm_package("pyodide", PYODIDE_VERSION) / "pyodide-lock.json").read_text())
    entry = lock.get("packages", {}).get("micropip")
    if entry is None or entry.get("file_name") != MICROPIP or entry.get("depends"):
        fail(f"pyodide-lock.json has no micropip entry for {MICROPIP} without dependencies: update MICROPIP")
    return {"info": lock["info"], "packages": {"micropip": {**entry, "sha256": MICROPIP_SHA256}}}


def vendor_pyscript(site: Path) -> None:
    src = npm_package("@pyscript/core", PYSCRIPT_VERSION) / "dist"
    dest = runtime_folder(site, "pyscript")
    dest.mkdir(parents=True)
    for f in src.iterdir():
        if f.suffix in (".js", ".css"):
            shutil.copy2(f, dest / f.name)


def vendor_libraries(site: Path) -> None:
    """Small browser libraries, loaded by the page only when needed (the QR code, its reader)."""
    for name, version, file in LIBRARIES:
        dest = runtime_folder(site, name)
        dest.mkdir(parents=True, exist_ok=True)  # a package may give several files
        shutil.copy2(npm_package(name, version) / file, dest / Path(file).name)


def versioned(text: str, name: str, stdlib: str | None = None) -> str:
    """``text`` with each runtime folder it names given its version, and the standard
    library's folder (``"../stdlib/…"``) its name, ``stdlib``."""
    out = RUNTIME_REFERENCE.sub(lambda m: f"{m.group(1) or ''}runtime/{m.group(2)}-{RUNTIME[m.group(2)]}/", text)
    if stdlib:
        out = STDLIB_REFERENCE.sub(lambda m: f"{m.group(1) or ''}{stdlib}/", out)
    left = re.search(rf"""["'`][./]*runtime/({RUNTIME_NAMES})/""", out)
    if left:
        fail(f"{name} names {left.group(0)} in a way the build cannot version (write \"../runtime/…\")")
    return out


def snapshot_boot(app: Path, wheel: Path, stdlib: str) -> None:
    """web/boot/boot.mjs, the loader PyScript is given (it restores the memory snapshot), with
    the engine wheel's address, Pyodide's lock (``pyodide_lock``) and the snapshot's key
    written in: the key names this
    Pyodide, this wheel, this standard library's zip (a restored heap reads the zip it
    was made with) and the code that stores and reads it (its stored form), so a new
    engine never restores an old heap, nor a new reader an old form."""
    boot = app / "boot" / "boot.mjs"
    text = boot.read_text()
    form = hashlib.sha256(b"".join((app / "boot" / name).read_bytes() for name in ("pages.js", "snapshot.js"))).hexdigest()
    key = f"runtime/snapshot/{PYODIDE_VERSION}-{sha256(wheel)[:16]}-{stdlib.removeprefix('stdlib-')}-{form[:8]}"
    for name, value in (("WHEEL", json.dumps(f"../wheels/{wheel.name}")), ("KEY", json.dumps(key)),
                        ("LOCK", json.dumps(pyodide_lock(), separators=(",", ":"), sort_keys=True))):
        line = f"export const {name} = {value};"
        text, n = re.subn(rf"^export const {name} = .*;$", lambda _, line=line: line, text, flags=re.M)
        if n != 1:
            fail(f"web/boot/boot.mjs has no line `export const {name} = …;`")
    boot.write_text(text)


def python_imports(source: str) -> set[str]:
    """The absolute module names a source's import statements name (``from a import b``
    gives ``a`` and ``a.b``: b may be a module).

    >>> sorted(python_imports("import os.path\\nfrom json import loads\\nfrom . import x\\ndef f():\\n    import html"))
    ['html', 'json', 'json.loads', 'os.path']
    """
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names if alias.name != "*")
    return names


def stdlib_list(path: Path = STDLIB_LIST) -> set[str]:
    """tools/stdlib.txt: module names, one a line; ``#`` starts a comment."""
    return {line.split("#")[0].strip() for line in path.read_text().splitlines()} - {""}


def trace_stdlib(site: Path, wheel: Path) -> set[str]:
    """The standard library's modules the page's Python loads, traced in Node on the vendored
    Pyodide (tools/stdlib_trace.mjs): a cold boot, micropip installing the engine wheel, and
    every module an import statement of the engine, the worker's glue or PyScript's package
    names. Fails on one the standard library does not have."""
    sources = [*sorted((ROOT / "engine").rglob("*.py")), *(ROOT / name for name in WORKER_PYTHON),
               *sorted((npm_package("@pyscript/core", PYSCRIPT_VERSION) / PYSCRIPT_PYTHON).glob("*.py"))]
    names = sorted(set().union(*(python_imports(p.read_text(encoding="utf-8")) for p in sources)))
    listing = site / "stdlib-trace.json"
    listing.write_text(json.dumps(names))
    lock = site / "stdlib-trace-lock.json"
    lock.write_text(json.dumps(pyodide_lock()))
    try:
        out = subprocess.run(["node", str(ROOT / "tools" / "stdlib_trace.mjs"), str(runtime_folder(site, "pyodide")),
                              str(npm_package("pyodide", PYODIDE_VERSION) / "python_stdlib.zip"), str(wheel), str(listing),
                              str(lock)], check=True, cwd=ROOT, capture_output=True, text=True).stdout
    finally:
        listing.unlink()
        lock.unlink()
    found = json.loads(out)
    if found["missing"]:
        fail(f"the page's Python imports {', '.join(found['missing'])}, which Pyodide's standard library does not have")
    return set(found["modules"])


def zip_entries(names: list[str]) -> set[str]:
    """The folders that hold these files, as zip entries (``email/``)."""
    return {"/".join(name.split("/")[:i]) + "/" for name in names for i in range(1, name.count("/") + 1)}


def write_zip(path: Path, members: list[tuple[zipfile.ZipInfo, bytes]]) -> None:
    with zipfile.ZipFile(path, "w") as z:
        for info, data in members:
            z.writestr(info, data, compress_type=info.compress_type, compresslevel=9)


def filled(module: str, line: str, value: str) -> str:
    """web/boot/``module`` with its placeholder ``line`` (``NAME: type = empty``) given ``value``."""
    source = (ROOT / "web" / "boot" / module).read_text()
    head = line.rpartition(" = ")[0]
    source, n = re.subn(f"^{re.escape(line)}$", lambda _: f"{head} = {value}", source, flags=re.M)
    if n != 1:
        fail(f"web/boot/{module} has no line `{line}`")
    return source


def rest_finder(files: list[str]) -> str:
    """web/boot/riposte_stdlib.py with the names of the modules the rest of the library holds."""
    modules = sorted(f.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for f in files if f.endswith(".py"))
    return filled(STDLIB_FINDER, "MODULES: frozenset[str] = frozenset()", f"frozenset({modules!r})")


def pyscript_sources(package: Path) -> dict[str, str]:
    """PyScript's Python package, path (as its core writes it, under the worker's current
    directory) to source, read from its npm package's artifact; the build fails unless
    PyScript's core carries each file's text as it is (the bytecode made from it would
    then never be used: web/boot/riposte_pyscript.py)."""
    text = (package / PYSCRIPT_SOURCES).read_text(encoding="utf-8")
    start = text.find("export default")
    try:
        tree = json.loads(text[start + len("export default"):].strip().removesuffix(";")) if start >= 0 else None
    except ValueError:
        tree = None
    if not isinstance(tree, dict):
        fail(f"{PYSCRIPT_SOURCES} of @pyscript/core {PYSCRIPT_VERSION} is not one object of PyScript's files")

    def files(folder: str, node: dict[str, object]) -> dict[str, str]:
        out: dict[str, str] = {}
        for name, value in node.items():
            out.update({f"{folder}{name}": value} if isinstance(value, str) else files(f"{folder}{name}/", value))  # type: ignore[arg-type]
        return out

    sources = files("", tree)
    core = "".join(p.read_text(encoding="utf-8") for p in sorted((package / "dist").glob("core-*.js")))
    differ = sorted(name for name, source in sources.items() if json.dumps(source, ensure_ascii=False) not in core)
    if not sources or differ:
        fail(f"PyScript's core does not write {', '.join(differ) or 'any file'} as {PYSCRIPT_SOURCES} has it")
    return sources


def pyscript_bytecode(sources: dict[str, str]) -> str:
    """web/boot/riposte_pyscript.py with PyScript's package in it, for the cold boot to compile."""
    return filled(PYSCRIPT_BYTECODE, "SOURCES: dict[str, str] = {}", repr(sources))


def zip_text(name: str, text: str) -> tuple[zipfile.ZipInfo, bytes]:
    """A module of Riposte's own for the standard library's zip, as the zip's own are dated."""
    info = zipfile.ZipInfo(name, date_time=(2016, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info, text.encode()


def bytecode(members: list[tuple[zipfile.ZipInfo, bytes]]) -> list[tuple[zipfile.ZipInfo, bytes]]:
    """These zip members with every module as the bytecode Pyodide's own Python makes of it
    (tools/stdlib_bytecode.mjs, in Node: ``name.py`` becomes ``name.pyc``, with no source),
    the rest as they are, in the same order. A first visit then compiles none of Pyodide's
    modules (about 2 s of its cold start on this machine, docs/PERFORMANCE.md)."""
    with tempfile.TemporaryDirectory() as tmp:
        source, compiled = Path(tmp) / "source.zip", Path(tmp) / "bytecode.zip"
        write_zip(source, members)
        done = subprocess.run(["node", str(ROOT / "tools" / "stdlib_bytecode.mjs"), str(npm_package("pyodide", PYODIDE_VERSION)),
                               str(source), str(compiled)], cwd=ROOT, capture_output=True, text=True)
        if done.returncode:
            fail(f"Pyodide did not compile its standard library (tools/stdlib_bytecode.mjs): {done.stderr.strip()[-2000:]}")
        with zipfile.ZipFile(compiled) as z:
            return [(info, z.read(info)) for info in z.infolist()]


def stdlib_folder(site: Path, wheel: Path) -> str:
    """``stdlib-<hash>/``: Pyodide's standard library in two zips. The one the
    page gives Pyodide (web/boot/boot.mjs) holds the modules tools/stdlib.txt names and their
    packages, compiled (``bytecode``), the finder of the rest (web/boot/riposte_stdlib.py)
    and PyScript's package to compile once (web/boot/riposte_pyscript.py); the other holds
    the rest, as source, fetched when a module of it is first imported. The build fails when the trace finds a
    module the list lacks (the engine imports something new: add it to the list)."""
    wanted = stdlib_list()
    missing = trace_stdlib(site, wheel) - wanted
    if missing:
        fail(f"the page's Python now imports {', '.join(sorted(missing))} from the standard library, "
             f"which {STDLIB_LIST.relative_to(ROOT)} lacks: add {'them' if len(missing) > 1 else 'it'} there")
    with zipfile.ZipFile(npm_package("pyodide", PYODIDE_VERSION) / "python_stdlib.zip") as full:
        files = {info.filename: info for info in full.infolist() if not info.is_dir()}
        chosen: set[str] = set()
        for name in sorted(wanted):
            parts = name.split(".")
            for depth in range(1, len(parts) + 1):  # the module and every package it is in
                stem = "/".join(parts[:depth])
                found = next((f for f in (f"{stem}.py", f"{stem}/__init__.py") if f in files), None)
                if found is None:
                    fail(f"{STDLIB_LIST.relative_to(ROOT)} names {name}, which Pyodide's standard library does not have")
                chosen.add(found)
        folders = zip_entries(sorted(chosen))
        shipped = [(info, full.read(info)) for info in full.infolist() if info.filename in chosen | folders]
        rest = [(info, full.read(info)) for info in full.infolist() if info.filename not in chosen
                and (not info.is_dir() or info.filename in zip_entries([f for f in files if f not in chosen]))]
    shipped = bytecode(shipped)  # Riposte's own two below stay source (their tests read them)
    shipped.append(zip_text(STDLIB_FINDER, rest_finder([info.filename for info, _ in rest])))
    shipped.append(zip_text(PYSCRIPT_BYTECODE, pyscript_bytecode(pyscript_sources(npm_package("@pyscript/core", PYSCRIPT_VERSION)))))
    staging = site / "stdlib-staging"
    staging.mkdir()
    write_zip(staging / "python_stdlib.zip", shipped)
    write_zip(staging / "python_stdlib_rest.zip", rest)
    name = f"stdlib-{folder_hash(staging)[:12]}"
    staging.rename(site / name)
    return name


def folder_hash(folder: Path) -> str:
    """The SHA-256 of a folder's files (their paths and bytes), in a fixed order."""
    digest = hashlib.sha256()
    for p in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(p.relative_to(folder).as_posix().encode() + b"\0" + sha256(p).encode() + b"\n")
    return digest.hexdigest()


def app_staging(site: Path) -> tuple[Path, Path]:
    """The app's own files, staged in ``web-staging/`` before they are bundled: web/, the
    engine wheel; web/'s icons go to ``web/`` (the manifest names them). Returns the staging
    folder and the wheel."""
    staging = site / "web-staging"
    shutil.copytree(ROOT / "web", staging, ignore=shutil.ignore_patterns("__pycache__", *STATIC))
    for name in STATIC:
        (site / "web").mkdir(exist_ok=True)
        src = ROOT / "web" / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, site / "web" / name)
    wheel = engine_wheel(staging / "wheels")
    stdlib = stdlib_folder(site, wheel)
    for name in (STDLIB_FINDER, PYSCRIPT_BYTECODE):
        (staging / "boot" / name).unlink()  # it ships in the standard library's zip
    for p in sorted(p for p in staging.rglob("*") if p.suffix in (".js", ".mjs")):
        p.write_text(versioned(p.read_text(), f"web/{p.relative_to(staging)}", stdlib))
    snapshot_boot(staging, wheel, stdlib)
    return staging, wheel


def app_folder(site: Path, staging: Path, minify: bool, test_hooks: bool = False, qrcode: bool = True) -> str:
    """The staged app (``app_staging``) as it ships, in ``web-<hash>/`` of ``site``: the
    page's modules bundled and minified. ``test_hooks``: the test build, with the page's test
    hooks (web/infra/hooks.js) and the bridge's (web/boot/bridge_hooks.py, appended to
    web/boot/bridge.py); without, both are left out. ``qrcode``: the vendored QR code
    generator minified too (once: the test build's runtime is a copy). Returns the folder's
    name."""
    hooks = staging / BRIDGE_HOOKS
    if test_hooks:
        bridge = staging / "boot" / "bridge.py"
        bridge.write_text(f"{bridge.read_text()}\n\n# {BRIDGE_HOOKS}, the test build's:\n{hooks.read_text()}")
    hooks.unlink()
    scripts = sorted(p for p in staging.rglob("*") if p.suffix in (".js", ".mjs"))
    # The page's modules in a few files (tools/bundle.mjs); the worker's stay as they are.
    subprocess.run(["node", str(ROOT / "tools" / "bundle.mjs"), str(staging), *PAGE_MODULES, *([] if minify else ["--no-minify"]),
                    *(["--test-hooks"] if test_hooks else [])], check=True, cwd=ROOT)
    if minify:
        # What is not bundled (the worker's modules, the theme, the style sheet), and the QR
        # code generator (52 KB as npm ships it, 22 KB minified): it is precached.
        generator = [runtime_folder(site, "qrcode-generator") / "qrcode.mjs"] if qrcode else []
        # the bundler removed what it bundled, and minified its own files
        left = [p for p in scripts if p.exists() and p.relative_to(staging).as_posix() not in PAGE_MODULES]
        files = [str(p) for p in [*left, staging / "style.css", *generator]]
        subprocess.run(["node", str(ROOT / "tools" / "minify.mjs"), *files], check=True, cwd=ROOT)
    name = f"web-{folder_hash(staging)[:12]}"
    staging.rename(site / name)
    return name


def checksums(site: Path) -> None:
    """``runtime/SHA256SUMS``: every file that ships, so a deployment can be checked."""
    files = sorted(p for p in site.rglob("*") if p.is_file() and p.name not in ("SHA256SUMS", "sw.js", "sw-player.js"))
    lines = [f"{sha256(p)}  {p.relative_to(site).as_posix()}" for p in files]
    (site / "runtime" / "SHA256SUMS").write_text("\n".join(lines) + "\n")


def service_worker(site: Path) -> None:
    """``sw.js`` and ``sw-player.js``, precaching the site as it is (tools/service_worker.mjs)."""
    service_worker_started(site)()


def service_worker_started(site: Path) -> Callable[[], None]:
    """``service_worker`` begun in a process of its own (Workbox bundles each worker: the
    build's longest step after Pyodide's), and the call that waits for it to end. Workbox
    bundles in a folder of the system's temporary one and leaves it there: it is given one
    of ours, removed after."""
    tmp = tempfile.TemporaryDirectory()
    args = ["node", str(ROOT / "tools" / "service_worker.mjs"), str(site)]
    process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "TMPDIR": tmp.name})

    def ended() -> None:
        out, err = process.communicate()
        tmp.cleanup()
        if process.returncode:
            raise subprocess.CalledProcessError(process.returncode, args, out, err)

    return ended


def page(site: Path, app: str) -> Callable[[], None]:
    """The page and what names the app's folder ``app``: index.html (its build's id
    written in), the manifest, the checksums, the service workers (begun: the call
    returned waits for them, ``service_worker_started``)."""
    for name in PAGE:
        shutil.copy2(ROOT / name, site / name)
    # The page names its files as in the source (web/app.js): here, the versioned ones.
    index = site / "index.html"
    text = versioned(index.read_text(), "index.html")
    for name in ("web/app.js", "web/style.css"):
        if f'"{name}"' not in text:
            fail(f"index.html does not name {name}")
    text = re.sub(r'"web/([^"]+)"', lambda m: app_file(site, app, m.group(1)), text)
    # The build's id: what ships, hashed (tests and bug reports tell deployments apart).
    build_id = hashlib.sha256(f"{app}\n{folder_hash(site / 'runtime')}\n{text}".encode()).hexdigest()[:12]
    index.write_text(text.replace('data-build="dev"', f'data-build="{build_id}"'))
    (site / ".nojekyll").write_text("")
    checksums(site)
    return service_worker_started(site)  # last: it precaches everything above


#: What the shipped site holds that its test build makes anew (``build``).
OWN = {*PAGE, ".nojekyll", "sw.js", "sw-player.js", "SHA256SUMS"}


def build(site: Path, minify: bool = True, test_site: Path | None = None) -> None:
    """The shipped site in ``site``; with ``test_site``, the test build there too, from the
    same run: the runtime, the standard library and the engine wheel are the shipped ones,
    copied; the app's folder is bundled again with the test hooks (``app_folder``)."""
    for folder in (site, test_site):
        if folder is not None and folder.exists():
            shutil.rmtree(folder)
    site.mkdir(parents=True)
    vendor_pyodide(site)
    vendor_pyscript(site)
    vendor_libraries(site)
    staging, wheel = app_staging(site)
    if test_site is not None:
        test_site.mkdir(parents=True)
        shutil.copytree(staging, test_site / staging.name)
    app = app_folder(site, staging, minify)
    shipped = page(site, app)  # its service workers made while the test build is
    built = [f"{site.relative_to(ROOT) if site.is_relative_to(ROOT) else site}/ with {app}/"]
    if test_site is not None:
        for entry in site.iterdir():
            if entry.name not in OWN and not entry.name.startswith("web-"):
                if entry.is_dir():
                    shutil.copytree(entry, test_site / entry.name, ignore=shutil.ignore_patterns("SHA256SUMS"))
                else:
                    shutil.copy2(entry, test_site / entry.name)
        test_app = app_folder(test_site, test_site / staging.name, minify, test_hooks=True, qrcode=False)
        page(test_site, test_app)()
        built.append(f"its test build {test_site.relative_to(ROOT) if test_site.is_relative_to(ROOT) else test_site}/ with {test_app}/")
    shipped()
    print(f"built {' and '.join(built)} ({wheel.name}{', minified' if minify else ''}), "
          f"PyScript {PYSCRIPT_VERSION}, Pyodide {PYODIDE_VERSION}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Build the static site.")
    parser.add_argument("--out", type=Path, default=ROOT / "_site")
    parser.add_argument("--no-minify", action="store_true", help="ship web/'s modules as they are (to measure)")
    parser.add_argument("--test-hooks", action="store_true",
                        help="also the test build, with the page's test hooks, in --test-out (the tests and benchmarks serve it)")
    parser.add_argument("--test-out", type=Path, default=ROOT / "_site-test")
    args = parser.parse_args()
    build(args.out.resolve(), minify=not args.no_minify, test_site=args.test_out.resolve() if args.test_hooks else None)
