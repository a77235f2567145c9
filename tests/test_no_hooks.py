"""The shipped site carries no test hook (web/infra/hooks.js, web/boot/bridge_hooks.py):
none of their names is in ``_site/``, while the test build, ``_site-test/`` (both made by
``tools/build_site.py --test-hooks``), has each of them, so that a name this test looks
for is one the build really writes. The names are read from the source: each exposed
global, each performance mark, each switch a test sets on the page's global, the players'
board's number on the page, the worker's own hook."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "_site"
TESTED = ROOT / "_site-test"
SOURCES = sorted((ROOT / "web").rglob("*.js"))


def hook_names() -> dict[str, str]:
    """Each hook's name as the built site would hold it, from web/'s modules and the
    worker's hook."""
    names: dict[str, str] = {}
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for name in re.findall(r'expose\("(\w+)", \{', text):
            names[f"exposed {name}"] = f'"{name}",{{'  # the call's arguments, minified
        for name in re.findall(r'performance\.(?:mark|measure)\("([\w:-]+)"', text):
            names[f"mark {name}"] = name
        for name in re.findall(r"globalThis\.(__riposte\w+)", text):
            names[f"switch {name}"] = name
        for name in re.findall(r"if \(HOOKED\) document\.documentElement\.dataset\.(\w+)", text):
            names[f"dataset {name}"] = name
    hooks = (ROOT / "web" / "boot" / "bridge_hooks.py").read_text(encoding="utf-8")
    names.update({f"worker {name}": name for name in re.findall(r"^\s*(js\.\w+|sync\.\w+) =", hooks, flags=re.M)})
    return names


HOOKS = hook_names()


def built_text(site: Path) -> str:
    """The site's own text files (the app's folder and the page; not the vendored runtime)."""
    if not (site / "index.html").exists():
        pytest.skip(f"{site.name}/ is not built: `make site` builds it (make test does)")
    files = [site / "index.html", *sorted(p for p in site.glob("web-*/**/*") if p.suffix in (".js", ".mjs", ".py", ".html"))]
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


def test_the_source_has_the_hooks_this_test_looks_for() -> None:
    kinds = {key.split()[0] for key in HOOKS}
    assert kinds == {"exposed", "mark", "switch", "dataset", "worker"}
    assert {"exposed riposte", "exposed ripostePage", "exposed riposteLive", "mark riposte:ready",
            "switch __riposteHooks", "switch __riposteLiveTimeScale", "dataset liveSeq", "worker js.ripostePython"} <= HOOKS.keys()


@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_the_shipped_site_has_no_hook_and_the_test_build_has_it(hook: str) -> None:
    assert HOOKS[hook] not in built_text(SHIPPED)
    assert HOOKS[hook] in built_text(TESTED)


def test_the_shipped_site_ships_no_module_of_the_hooks() -> None:
    assert not list(SHIPPED.glob("web-*/**/hooks.js")) and not list(SHIPPED.glob("web-*/**/bridge_hooks.py"))
