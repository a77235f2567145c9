"""The engine wheel as the browser gets it (tools/build_site.py, issue #14): its modules
without comments and docstrings, every line where it was, and nothing else changed."""

from __future__ import annotations

import ast
import doctest
import sys
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
