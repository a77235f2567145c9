// Pyodide's own modules as bytecode (a first visit compiles none of them): run by
// tools/build_site.py in Node, on the vendored Pyodide, whose Python is the one that imports
// them in the page (the same magic number, the same compiler). Every `.py` of the zip it is
// given becomes a `.pyc` of the same name, sourceless (Python's zip importer takes one with no
// source beside it), its hash unchecked: the source is not shipped. The rest of the zip is
// copied as it is.
//
// Compiled without the column tables (PYTHONNODEBUGRANGES: CPython's own switch "for smaller
// code objects and pyc files", whose only other effect is a traceback without its ^^^ marks
// under the failing expression): 372 kB more on the wire for the whole shipped part, not 719.
// Hash randomisation off (PYTHONHASHSEED=0), so that a set or frozenset constant is written in
// the same order by every build: the same sources give the same bytes.
//
// Usage: node tools/stdlib_bytecode.mjs <pyodide folder> <in.zip> <out.zip>
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [folder, input, output] = process.argv.slice(2).map((arg) => resolve(arg));
const { loadPyodide } = await import(pathToFileURL(`${folder}/pyodide.mjs`).href);
const quiet = () => undefined;
const py = await loadPyodide({
  indexURL: `${folder}/`,
  env: { HOME: "/home/pyodide", PYTHONHASHSEED: "0", PYTHONNODEBUGRANGES: "1" },
  stdout: quiet,
  stderr: (line) => console.error(line),
});
py.FS.writeFile("/tmp/in.zip", readFileSync(input));
py.runPython(`
import importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

assert sys.flags.hash_randomization == 0, "PYTHONHASHSEED was not taken"
# Where the page's Pyodide finds the zip: its modules' file names, for tracebacks.
where = next(p for p in sys.path if p.endswith(".zip"))
with zipfile.ZipFile("/tmp/in.zip") as source, zipfile.ZipFile("/tmp/out.zip", "w") as out:
    for info in source.infolist():
        data = source.read(info)
        if info.filename.endswith(".py"):
            code = compile(data, f"{where}/{info.filename}", "exec", dont_inherit=True)
            data = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))
            compiled = zipfile.ZipInfo(info.filename + "c", date_time=info.date_time)
            compiled.compress_type, compiled.external_attr = info.compress_type, info.external_attr
            info = compiled
        out.writestr(info, data)
`);
writeFileSync(output, py.FS.readFile("/tmp/out.zip"));
