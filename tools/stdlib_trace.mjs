// Which modules of Python's standard library the page's Python needs: run by
// tools/build_site.py in Node, on the vendored Pyodide with its whole standard library.
// It does what a first visit's worker does (Pyodide boots, micropip installs the engine
// wheel, web/boot/boot.mjs's own imports), imports every module named by an import statement
// of the engine, web/boot/bridge.py, web/boot/riposte_stdlib.py and PyScript's own Python package
// (the build finds them, a JSON list in argv[4]), and prints, as JSON, every module then
// loaded from the standard library's zip. The build checks that tools/stdlib.txt holds
// them all. Pyodide gets the page's lock (argv[5]: micropip alone, web/boot/boot.mjs's LOCK).
//
// Usage: node tools/stdlib_trace.mjs <pyodide folder> <python_stdlib.zip> <engine wheel> <modules.json> <lock.json>
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [folder, stdlib, wheel, names, lock] = process.argv.slice(2).map((arg) => resolve(arg));
const { loadPyodide } = await import(pathToFileURL(`${folder}/pyodide.mjs`).href);
const quiet = () => undefined;
const py = await loadPyodide({ indexURL: `${folder}/`, stdLibURL: stdlib, lockFileContents: JSON.parse(readFileSync(lock, "utf8")),
  packageBaseUrl: `${folder}/`, stdout: quiet, stderr: (line) => console.error(line) });
// The cold boot (web/boot/boot.mjs): micropip installs the engine wheel. The browser fetches it
// over HTTP (pyodide.http); here it comes from Pyodide's file system.
await py.loadPackage("micropip", { messageCallback: quiet });
const target = `/tmp/${basename(wheel)}`;
py.FS.writeFile(target, readFileSync(wheel));
py.globals.set("modules", py.toPy(JSON.parse(readFileSync(names, "utf8"))));
py.globals.set("wheel", `emfs:${target}`);
await py.runPythonAsync(`
import importlib, sys
import micropip
import pyodide.http
await micropip.install(wheel)
# web/boot/boot.mjs: the snapshot's imports, the dice reseeded, the installed engine imported whole.
import gc, html, json, os, pkgutil, random, sysconfig
random.seed(os.urandom(32))
import engine
for module in pkgutil.walk_packages(engine.__path__, "engine."):
    importlib.import_module(module.name)
missing = []
for name in modules:
    top = name.partition(".")[0]
    if top not in sys.stdlib_module_names and top not in ("pyodide", "_pyodide"):
        continue
    try:
        importlib.import_module(name)
    except ImportError:
        # "from package import name": name may be a function, not a module
        try:
            importlib.import_module(name.rpartition(".")[0])
        except ImportError:
            missing.append(name)
`);
const found = py.runPython(`
import json, sys
zip_path = next(p for p in sys.path if p.endswith(".zip")) + "/"
json.dumps({"missing": sorted(missing), "modules": sorted(
    name for name, module in list(sys.modules.items())
    if (getattr(getattr(module, "__spec__", None), "origin", None) or "").startswith(zip_path))})
`);
process.stdout.write(`${found}\n`);
