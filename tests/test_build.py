"""The engine wheel as the browser gets it (tools/build_site.py): its modules
without comments and docstrings, every line where it was, and nothing else changed."""

from __future__ import annotations

import _imp
import ast
import doctest
import importlib.util
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_site  # noqa: E402

MODULES = sorted((ROOT / "engine").rglob("*.py"))


def without_docstrings(tree: ast.AST) -> str:
    """The tree's dump with every docstring emptied: what ``slim`` may change, and only that."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            body[0].value.value = ""
    return ast.dump(tree)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_slimmed_module_is_the_same_code_on_the_same_lines(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    slimmed = build_site.slim(source)
    assert slimmed.count("\n") == source.count("\n")
    assert without_docstrings(ast.parse(slimmed)) == without_docstrings(ast.parse(source))
    assert "#" not in "".join(line for line in slimmed.splitlines() if line.lstrip().startswith("#"))
    assert len(slimmed) < len(source) or ('"""' not in source and "#" not in source)


def test_slim_keeps_a_hash_inside_a_string_and_a_line_after_a_docstring() -> None:
    source = 'def f(x):\n    """Doc: −4 (R4.2)."""; y = "#1"  # why\n    return y\n'
    assert build_site.slim(source) == 'def f(x):\n    ""; y = "#1"\n    return y\n'


def test_the_built_wheel_is_slimmed_and_its_record_fits(tmp_path: Path) -> None:
    import base64
    import hashlib
    import zipfile

    wheel = build_site.engine_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        table = z.read("engine/table.py").decode()
        record = z.read(next(n for n in names if n.endswith("RECORD"))).decode().splitlines()
        for row in record:
            name, digest, size = row.split(",")
            if not digest:
                continue
            data = z.read(name)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert int(size) == len(data)
    assert table == build_site.slim((ROOT / "engine" / "table.py").read_text(encoding="utf-8"))
    assert {f"engine/{p.relative_to(ROOT / 'engine').as_posix()}" for p in MODULES} <= set(names)


def test_the_builds_own_doctests() -> None:
    assert doctest.testmod(build_site).failed == 0


# The standard library the page ships: tools/stdlib.txt's modules in one zip,
# the rest in another, fetched when first imported (web/boot/riposte_stdlib.py).

sys.path.insert(0, str(ROOT / "web" / "boot"))
import riposte_pyscript  # noqa: E402
import riposte_stdlib  # noqa: E402


def test_the_finders_own_doctests() -> None:
    assert doctest.testmod(riposte_stdlib).failed == 0
    assert doctest.testmod(riposte_pyscript).failed == 0


def test_pyscripts_package_compiled_once_is_what_python_imports_while_its_source_is_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """web/boot/riposte_pyscript.py: the bytecode written before the source is used without
    compiling anything; once the source differs, Python compiles it (never a stale module)."""
    import builtins
    import importlib

    sources = {"riposte_fakepkg/__init__.py": "from riposte_fakepkg.part import X\n", "riposte_fakepkg/part.py": "X = 41 + 1\n"}
    assert riposte_pyscript.install(riposte_pyscript.compiled(sources, str(tmp_path))) == 2
    for name, source in sources.items():  # as PyScript does after it
        (tmp_path / name).write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    compiled: list[object] = []
    real = builtins.compile
    monkeypatch.setattr(builtins, "compile", lambda *args, **kwargs: compiled.append(args[1]) or real(*args, **kwargs))
    importlib.invalidate_caches()
    assert importlib.import_module("riposte_fakepkg").X == 42 and compiled == []
    for name in list(sys.modules):
        if name.startswith("riposte_fakepkg"):
            monkeypatch.delitem(sys.modules, name)
    (tmp_path / "riposte_fakepkg" / "part.py").write_text("X = 7\n", encoding="utf-8")  # another PyScript
    importlib.invalidate_caches()
    assert importlib.import_module("riposte_fakepkg").X == 7 and compiled == [str(tmp_path / "riposte_fakepkg" / "part.py")]
    for name in list(sys.modules):
        if name.startswith("riposte_fakepkg"):
            monkeypatch.delitem(sys.modules, name)


def test_the_build_takes_pyscripts_package_as_its_core_writes_it(tmp_path: Path) -> None:
    package = build_site.npm_package("@pyscript/core", build_site.PYSCRIPT_VERSION)
    sources = build_site.pyscript_sources(package)
    assert "pyscript/__init__.py" in sources and "pyscript/context.py" in sources
    # A core that writes one file otherwise: the build says which.
    fake = tmp_path / "core"
    (fake / "dist").mkdir(parents=True)
    (fake / build_site.PYSCRIPT_SOURCES).parent.mkdir(parents=True)
    shutil.copy(package / build_site.PYSCRIPT_SOURCES, fake / build_site.PYSCRIPT_SOURCES)
    core = "".join(p.read_text(encoding="utf-8") for p in (package / "dist").glob("core-*.js"))
    context = json.dumps(sources["pyscript/context.py"], ensure_ascii=False)
    (fake / "dist" / "core-x.js").write_text(core.replace(context, context.replace("import", "import ")), encoding="utf-8")
    with pytest.raises(SystemExit, match=r"PyScript's core does not write pyscript/context\.py as"):
        build_site.pyscript_sources(fake)


def stdlib_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, traced: set[str], listed: set[str] | None = None) -> Path:
    """stdlib-<hash>/ built in tmp_path, the trace (Node, tools/stdlib_trace.mjs) said to
    have found ``traced`` and tools/stdlib.txt to name ``listed`` (by default, the same)."""
    monkeypatch.setattr(build_site, "trace_stdlib", lambda site, wheel: traced)
    monkeypatch.setattr(build_site, "stdlib_list", lambda: traced if listed is None else listed)
    return tmp_path / build_site.stdlib_folder(tmp_path, tmp_path / "engine.whl")


def test_the_shipped_zip_holds_the_list_its_packages_and_the_finder_and_the_rest_the_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import zipfile

    folder = stdlib_folder(tmp_path, monkeypatch, {"json", "email.mime.text"})
    full = zipfile.ZipFile(build_site.npm_package("pyodide", build_site.PYODIDE_VERSION) / "python_stdlib.zip")
    shipped = zipfile.ZipFile(folder / "python_stdlib.zip")
    rest = zipfile.ZipFile(folder / "python_stdlib_rest.zip")
    files = {name for name in full.namelist() if not name.endswith("/")}
    ours = {name for name in shipped.namelist() if not name.endswith("/")}
    theirs = {name for name in rest.namelist() if not name.endswith("/")}
    riposte = {build_site.STDLIB_FINDER, build_site.PYSCRIPT_BYTECODE}
    assert ours == {"json/__init__.pyc", "email/mime/text.pyc",  # what the list names, compiled
                    "email/__init__.pyc", "email/mime/__init__.pyc",  # the packages they are in
                    *riposte}  # Riposte's own, as source
    assert "email/mime/" in shipped.namelist()  # their folders
    assert {"json/decoder.py", "xml/dom/minidom.py", "email/parser.py"} <= theirs  # a module of a listed package too
    assert ours & theirs == set() and {name.removesuffix("c") for name in ours - riposte} | theirs == files
    for name in ours - riposte:
        # Bytecode of Pyodide's own Python (tools/stdlib_bytecode.mjs): its magic number (3.14's,
        # not this Python's), hash-based and unchecked (no source beside it), made from the very
        # source Pyodide ships (the hash Python's importer would compute with that magic).
        pyc = shipped.read(name)
        assert pyc[2:4] == b"\r\n" and pyc[:4] != importlib.util.MAGIC_NUMBER
        assert int.from_bytes(pyc[4:8], "little") == 0b01
        assert pyc[8:16] == _imp.source_hash(int.from_bytes(pyc[:4], "little"), full.read(name.removesuffix("c")))
    # The same sources, the same bytes (hash randomisation off): a rebuild ships nothing new.
    again = build_site.bytecode([(info, full.read(info)) for info in full.infolist() if info.filename in {"json/__init__.py", "enum.py"}])
    assert {info.filename: data for info, data in again}["json/__init__.pyc"] == shipped.read("json/__init__.pyc")
    # PyScript's package, for the cold boot to compile (web/boot/riposte_pyscript.py).
    bytecode: dict[str, object] = {}
    exec(shipped.read(build_site.PYSCRIPT_BYTECODE).decode(), bytecode)
    assert bytecode["SOURCES"] == build_site.pyscript_sources(build_site.npm_package("@pyscript/core", build_site.PYSCRIPT_VERSION))
    # The finder knows what the rest holds, and nothing else.
    namespace: dict[str, object] = {}
    exec(shipped.read(build_site.STDLIB_FINDER).decode(), namespace)
    modules = namespace["MODULES"]
    assert isinstance(modules, frozenset)
    assert {"xml.dom.minidom", "xml", "email.parser", "json.decoder"} <= modules
    assert not modules & {"json", "email", "email.mime.text"}


def test_the_build_fails_when_the_pages_python_imports_a_module_the_list_lacks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listed = build_site.stdlib_list()
    with pytest.raises(SystemExit, match=r"now imports xml\.dom\.minidom .* tools/stdlib\.txt lacks: add it there"):
        stdlib_folder(tmp_path, monkeypatch, listed | {"xml.dom.minidom"}, listed)


def test_the_list_names_only_modules_pyodide_has(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit, match=r"stdlib\.txt names no_such_module, which Pyodide's standard library does not have"):
        stdlib_folder(tmp_path, monkeypatch, {"json"}, {"json", "no_such_module"})


def test_the_list_is_read_without_its_comments(tmp_path: Path) -> None:
    listing = tmp_path / "stdlib.txt"
    listing.write_text("# why\njson  # a comment\n\nemail.mime\n")
    assert build_site.stdlib_list(listing) == {"json", "email.mime"}


@pytest.mark.skipif(not list((ROOT / "_site" / "runtime").glob("pyodide-*/micropip-*.whl")),
                    reason="needs the built site's Pyodide with micropip (make site)")
def test_the_trace_follows_the_pages_imports_in_pyodide(tmp_path: Path) -> None:
    """tools/stdlib_trace.mjs in Node on the built site's Pyodide (about 15 s): a cold
    boot, micropip, the engine, and the modules it is given, each with what it imports."""
    import json
    import subprocess

    names = tmp_path / "names.json"
    names.write_text(json.dumps(["xml.dom.minidom", "json.loads", "polyscript", "engine"]))
    lock = tmp_path / "lock.json"
    lock.write_text(json.dumps(build_site.pyodide_lock()))
    wheel = build_site.engine_wheel(tmp_path / "wheels")
    pyodide = next((ROOT / "_site" / "runtime").glob("pyodide-*"))
    out = subprocess.run(["node", str(ROOT / "tools" / "stdlib_trace.mjs"), str(pyodide),
                          str(build_site.npm_package("pyodide", build_site.PYODIDE_VERSION) / "python_stdlib.zip"),
                          str(wheel), str(names), str(lock)], check=True, capture_output=True, text=True, cwd=ROOT).stdout
    found = json.loads(out)
    assert found["missing"] == []
    modules = set(found["modules"])
    assert {"xml.dom.minidom", "xml.dom", "xml", "json"} <= modules  # given, with their packages
    assert {"dataclasses", "enum", "hashlib"} <= modules  # the engine's
    assert {"email", "importlib.metadata", "zipfile"} <= modules  # micropip installing the wheel
    assert "polyscript" not in modules and not any(name.startswith("engine") for name in modules)
    assert modules - {"xml", "xml.dom", "xml.dom.minidom", "xml.dom.domreg", "xml.dom.minicompat", "xml.dom.xmlbuilder",
                      "xml.dom.NodeFilter"} <= build_site.stdlib_list()


class FakeRest:
    """The rest of the library as a zip in tmp_path, and how often it was fetched."""

    def __init__(self, tmp_path: Path) -> None:
        import zipfile

        self.zip = tmp_path / "served.zip"
        with zipfile.ZipFile(self.zip, "w") as z:
            z.writestr("riposte_fake/__init__.py", "")
            z.writestr("riposte_fake/deep.py", "VALUE = 42\n")
        self.fetched: list[str] = []
        self.path = str(tmp_path / "rest.zip")

    def fetch(self, url: str) -> bytes:
        self.fetched.append(url)
        return self.zip.read_bytes()


@pytest.fixture
def finder_installed() -> Iterator[None]:
    meta_path = list(sys.meta_path)
    yield
    sys.meta_path[:] = meta_path
    for name in [name for name in sys.modules if name.startswith("riposte_fake")]:
        del sys.modules[name]


def test_a_module_outside_the_shipped_part_is_fetched_once_then_imported(tmp_path: Path, finder_installed: None) -> None:
    import importlib

    rest = FakeRest(tmp_path)
    riposte_stdlib.install("rest.zip", {"riposte_fake", "riposte_fake.deep"}, rest.fetch, rest.path)
    riposte_stdlib.install("rest.zip", {"riposte_fake", "riposte_fake.deep"}, rest.fetch, rest.path)  # replaces it
    assert sum(isinstance(f, riposte_stdlib.Rest) for f in sys.meta_path) == 1
    assert importlib.import_module("riposte_fake.deep").VALUE == 42
    with pytest.raises(ImportError):
        importlib.import_module("riposte_fake_other")  # not in the rest: nothing fetched for it
    assert rest.fetched == ["rest.zip"]
    assert riposte_stdlib.imported() == ["riposte_fake"]  # the package: its module came by its path


def test_a_module_outside_the_shipped_part_that_cannot_be_fetched_says_why(tmp_path: Path, finder_installed: None) -> None:
    import importlib

    def offline(url: str) -> bytes:
        raise OSError("HTTP 503")

    riposte_stdlib.install("rest.zip", {"riposte_fake"}, offline, str(tmp_path / "rest.zip"))
    with pytest.raises(ModuleNotFoundError, match=r"'riposte_fake': it is not in the part .* could not be fetched \(HTTP 503\)"):
        importlib.import_module("riposte_fake")
    assert not (tmp_path / "rest.zip").exists() and riposte_stdlib.imported() == []


@pytest.mark.parametrize("name, file, change, mark", build_site.PATCHES, ids=[patch[0] for patch in build_site.PATCHES])
def test_the_vendored_pyodide_is_patched_in_one_call_each(tmp_path: Path, name: str, file: str,
                                                            change: tuple[str, str], mark: str) -> None:
    """The calls the build changes in Pyodide (its restore's copy, then
    web/boot/pages.js's when the worker has it; its fetch of its own files, then
    web/boot/boot.mjs's), once each, and nothing else of the file."""
    build_site.vendor_pyodide(tmp_path)
    module = build_site.runtime_folder(tmp_path, "pyodide") / file
    shipped = build_site.npm_package("pyodide", build_site.PYODIDE_VERSION) / file
    text = module.read_text()
    assert text.count(change[1]) == 1 and mark in text
    assert text.replace(*change[::-1]) == shipped.read_text()


@pytest.mark.parametrize("patch", range(len(build_site.PATCHES)))
def test_the_build_fails_when_pyodide_is_not_the_one_it_patches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 patch: int) -> None:
    patches = list(build_site.PATCHES)
    name, file, _, mark = patches[patch]
    patches[patch] = (name, file, ("Module.HEAP8.set(snapshot)", "x"), mark)
    monkeypatch.setattr(build_site, "PATCHES", tuple(patches))
    with pytest.raises(SystemExit, match=f"{file} .*: its text is not the one {name} patches"):
        build_site.vendor_pyodide(tmp_path)


def test_pyodides_folder_is_new_when_the_builds_changes_to_it_are() -> None:
    """A returning user's service worker never fetches a versioned address again
    (tools/service_worker.mjs): a file the build changes under the same address would never
    reach them. Pyodide's folder carries a digest of the changes."""
    version = build_site.PYODIDE_VERSION
    name = build_site.RUNTIME["pyodide"]
    assert name == build_site.patched(version, build_site.PATCHES) and name.startswith(f"{version}-")
    label, file, (old, new), mark = build_site.PATCHES[0]
    assert build_site.patched(version, ((label, file, (old, new + ";"), mark),)) != name
    assert build_site.patched(version, (*build_site.PATCHES, ("READ", "pyodide.mjs", ("a", "b"), "c"))) != name
    assert build_site.runtime_folder(Path("site"), "pyodide") == Path("site", "runtime", f"pyodide-{name}")


def boot_folder(tmp_path: Path) -> tuple[Path, Path]:
    """A built site's ``web/boot`` with the sources of boot.mjs, pages.js and snapshot.js, and
    a stand-in wheel beside it: what ``build_site.snapshot_boot`` writes into."""
    app = tmp_path / "web"
    (app / "boot").mkdir(parents=True)
    for name in ("boot.mjs", "pages.js", "snapshot.js"):
        (app / "boot" / name).write_text((build_site.ROOT / "web" / "boot" / name).read_text())
    wheel = tmp_path / "riposte_engine-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"wheel")
    return app, wheel


def test_pyodides_lock_is_the_pages_own_with_micropip_alone(tmp_path: Path) -> None:
    """Pyodide reads a lock at every start; npm's names hundreds of packages the site does
    not ship. The build writes one with micropip alone (its vendored wheel's sha256) into
    boot.mjs, given to Pyodide as ``lockFileContents``, and ships none in Pyodide's folder:
    nothing fetches one before the engine is ready (docs/PERFORMANCE.md)."""
    import json

    lock = build_site.pyodide_lock()
    npm = json.loads((build_site.npm_package("pyodide", build_site.PYODIDE_VERSION) / "pyodide-lock.json").read_text())
    assert lock["info"] == npm["info"] and list(lock["packages"]) == ["micropip"]
    assert lock["packages"]["micropip"] == {**npm["packages"]["micropip"], "sha256": build_site.MICROPIP_SHA256}
    build_site.vendor_pyodide(tmp_path)
    assert not (build_site.runtime_folder(tmp_path, "pyodide") / "pyodide-lock.json").exists()
    app, wheel = boot_folder(tmp_path)
    build_site.snapshot_boot(app, wheel, "stdlib-0123456789ab")
    line = next(x for x in (app / "boot" / "boot.mjs").read_text().splitlines() if x.startswith("export const LOCK"))
    assert json.loads(line.removeprefix("export const LOCK = ").removesuffix(";")) == lock


def test_the_snapshot_key_names_the_code_that_stores_and_reads_it(tmp_path: Path) -> None:
    """A snapshot stored by other code (its stored form, web/boot/pages.js and snapshot.js) is
    never read: the key the build writes into boot.mjs changes with either file, and with
    the wheel, not with anything else."""
    app, wheel = boot_folder(tmp_path)

    def key() -> str:
        (app / "boot" / "boot.mjs").write_text((build_site.ROOT / "web" / "boot" / "boot.mjs").read_text())
        build_site.snapshot_boot(app, wheel, "stdlib-0123456789ab")
        line = next(x for x in (app / "boot" / "boot.mjs").read_text().splitlines() if x.startswith("export const KEY"))
        return line.split('"')[1]

    first = key()
    assert first.startswith(f"runtime/snapshot/{build_site.PYODIDE_VERSION}-") and "-0123456789ab-" in first
    assert key() == first
    (app / "boot" / "snapshot.js").write_text((app / "boot" / "snapshot.js").read_text() + "\n// another reader\n")
    second = key()
    assert second != first
    (app / "boot" / "pages.js").write_text((app / "boot" / "pages.js").read_text() + "\n// another form\n")
    third = key()
    assert third not in (first, second)
    wheel.write_bytes(b"another wheel")
    assert key() not in (first, second, third)
