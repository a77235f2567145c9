// Makes the memory snapshot that later visits restore (web/boot/boot.mjs), in a worker of its
// own, once the app is ready: a Pyodide instance made for snapshotting, with the engine
// wheel unpacked and imported (micropip cannot run in such an instance, Pyodide issue
// 5729), stored in Cache Storage under a key naming the Pyodide version and the wheel's
// hash, so a new deployment never restores an old engine.
import { loadPyodide } from "../../runtime/pyodide/pyodide.mjs";
import { CACHE, WHEEL, key } from "./boot.mjs";

async function make() {
  const quiet = () => undefined;
  const py = await loadPyodide({ indexURL: new URL("../../runtime/pyodide/", import.meta.url).href, _makeSnapshot: true,
    stdout: quiet, stderr: quiet });
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  py.unpackArchive(await (await fetch(new URL(WHEEL, import.meta.url))).arrayBuffer(), "wheel", { extractDir: sitePackages });
  // Every module of the engine imported, and said so: a restore that finds the mark needs
  // no engine file (web/boot/boot.mjs then skips the unpack). And `html`, the one module of
  // the standard library that PyScript's own package imports (display.py) and a fresh
  // Python has not: PyScript imports its package after every restore (issue #14).
  py.runPython(`import html, importlib, json, os, pkgutil, random
import engine
for module in pkgutil.walk_packages(engine.__path__, "engine."):
    importlib.import_module(module.name)
riposte_engine_imported = True`);
  const snapshot = py.makeMemorySnapshot();
  const cache = await caches.open(CACHE);
  for (const old of await cache.keys()) await cache.delete(old);
  await cache.put(key, new Response(snapshot));
  return snapshot.byteLength;
}

make().then((bytes) => postMessage({ ok: true, bytes }), (error) => postMessage({ ok: false, error: String(error) }));
