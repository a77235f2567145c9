"""Build the static site into ``_site/``: the page, the engine wheel and the runtime.

The runtime is vendored from the registries, pinned exactly: PyScript and Pyodide from
npm (``package.json``, ``package-lock.json``, installed by ``npm ci``), micropip's wheel
from PyPI at the version ``pyodide-lock.json`` names, checked against the sha256 pinned
here. PyPI's micropip wheel differs from the one Pyodide's lock describes, and Pyodide
checks integrity, so the vendored lock gets the real sha256 (and the build fails loudly
if the entry is missing). Nothing at run time comes from another origin.

Usage: ``python tools/build_site.py [--out _site]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYSCRIPT_VERSION = "0.7.31"
PYODIDE_VERSION = "314.0.2"  # the version PyScript 0.7.31 expects
MICROPIP = "micropip-0.11.1-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
PAGE = ("index.html", "pyscript.toml", "manifest.webmanifest")
#: Browser libraries vendored as they are (npm name, pinned version, file in the package),
#: each into runtime/<name>/. The QR code reader (« Scanner la réponse », web/live/scan.js,
#: where the browser has no BarcodeDetector): barcode-detector's self-contained ES build and
#: the ZXing WebAssembly file it loads (its own dependency, pinned by package-lock.json).
LIBRARIES = (("qrcode-generator", "2.0.4", "dist/qrcode.mjs"),
             ("barcode-detector", "3.2.2", "dist/es/ponyfill.js"),
             ("barcode-detector", "3.2.2", "dist/es/zxing-exported.js"),
             ("zxing-wasm", "3.1.3", "dist/reader/zxing_reader.wasm"))


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
    return out / name


def vendor_pyodide(site: Path) -> None:
    src = npm_package("pyodide", PYODIDE_VERSION)
    dest = site / "runtime" / "pyodide"
    dest.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(src / name, dest / name)
    wheel = micropip_wheel()
    shutil.copy2(wheel, dest / MICROPIP)
    lock = json.loads((src / "pyodide-lock.json").read_text())
    entry = lock.get("packages", {}).get("micropip")
    if entry is None or entry.get("file_name") != MICROPIP:
        fail(f"pyodide-lock.json has no micropip entry for {MICROPIP}: update MICROPIP")
    entry["sha256"] = MICROPIP_SHA256
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, separators=(",", ":")))


def vendor_pyscript(site: Path) -> None:
    src = npm_package("@pyscript/core", PYSCRIPT_VERSION) / "dist"
    dest = site / "runtime" / "pyscript"
    dest.mkdir(parents=True)
    for f in src.iterdir():
        if f.suffix in (".js", ".css"):
            shutil.copy2(f, dest / f.name)


def vendor_libraries(site: Path) -> None:
    """Small browser libraries, loaded by the page only when needed (the QR code, its reader)."""
    for name, version, file in LIBRARIES:
        dest = site / "runtime" / name
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy2(npm_package(name, version) / file, dest / Path(file).name)


def snapshot_boot(site: Path, wheel: Path) -> None:
    """The loader that restores a memory snapshot (web/boot.mjs, beside pyodide.mjs) and
    ``runtime/snapshot.json``: the snapshot's key names this Pyodide and this wheel."""
    shutil.copy2(ROOT / "web" / "boot.mjs", site / "runtime" / "pyodide" / "boot.mjs")
    meta = {"pyodide": PYODIDE_VERSION, "wheel": f"wheels/{wheel.name}",
            "key": f"runtime/snapshot/{PYODIDE_VERSION}-{sha256(wheel)[:16]}"}
    (site / "runtime" / "snapshot.json").write_text(json.dumps(meta, indent=1) + "\n")


def checksums(site: Path) -> None:
    """``runtime/SHA256SUMS``: what ships, so a deployment can be checked."""
    lines = [f"{sha256(p)}  {p.relative_to(site)}" for p in sorted((site / "runtime").rglob("*")) if p.is_file()]
    (site / "runtime" / "SHA256SUMS").write_text("\n".join(lines) + "\n")


def build(site: Path) -> None:
    if site.exists():
        shutil.rmtree(site)
    site.mkdir(parents=True)
    vendor_pyodide(site)
    vendor_pyscript(site)
    vendor_libraries(site)
    wheel = engine_wheel(site / "wheels")
    for name in PAGE:
        shutil.copy2(ROOT / name, site / name)
    shutil.copytree(ROOT / "web", site / "web", ignore=shutil.ignore_patterns("__pycache__", "boot.mjs"))
    snapshot_boot(site, wheel)
    checksums(site)
    config = (site / "pyscript.toml").read_text()
    if f"./wheels/{wheel.name}" not in config:
        fail(f"pyscript.toml does not name ./wheels/{wheel.name}")
    # The build's id: what ships, hashed (tests and bug reports tell deployments apart).
    build_id = hashlib.sha256((site / "runtime" / "SHA256SUMS").read_bytes() + wheel.read_bytes()
                              + (ROOT / "index.html").read_bytes() + b"".join(
                                  p.read_bytes() for p in sorted((ROOT / "web").rglob("*")) if p.is_file())).hexdigest()[:12]
    index = site / "index.html"
    index.write_text(index.read_text().replace('data-build="dev"', f'data-build="{build_id}"'))
    (site / ".nojekyll").write_text("")
    # Last: the service worker precaches everything above (tools/service_worker.mjs).
    subprocess.run(["node", str(ROOT / "tools" / "service_worker.mjs"), str(site)], check=True, cwd=ROOT)
    print(f"built {site.relative_to(ROOT)}/ with {wheel.name}, PyScript {PYSCRIPT_VERSION}, Pyodide {PYODIDE_VERSION}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Build the static site.")
    parser.add_argument("--out", type=Path, default=ROOT / "_site")
    build(parser.parse_args().out.resolve())
