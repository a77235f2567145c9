// Pyodide's loader as PyScript sees it (build: copied beside pyodide.mjs), restoring a
// memory snapshot on repeat visits instead of booting Python from scratch.
//
// PyScript imports the module named as the interpreter, uses its `version` and
// `loadPyodide`, with indexURL = this module's folder. The page names this module only
// when it found a snapshot for this exact Pyodide and engine wheel in Cache Storage: the
// heap is restored from it; the virtual file system is not in a snapshot, so the engine
// wheel is unpacked again, and `random` is reseeded (its state is frozen in the
// snapshot). Any restore error (corrupted, foreign, another Pyodide build) falls back to
// a normal boot. (PyScript imports the module without its query string: the choice is
// made by naming this module or pyodide.mjs, not by a parameter.)
import { loadPyodide as boot, version } from "./pyodide.mjs";

export { version };
export const CACHE = "riposte-snapshot";

const here = new URL(import.meta.url);

export async function loadPyodide(options = {}) {
  const meta = await (await fetch(new URL("../snapshot.json", here))).json();
  const key = new URL(meta.key, new URL("../../", here)).href;
  const cache = await caches.open(CACHE);
  let py;
  try {
    const saved = await cache.match(key);
    if (!saved) throw new Error("no snapshot");
    py = await boot({ ...options, _loadSnapshot: saved.arrayBuffer() });
    globalThis.riposteBoot = "restored";
  } catch (error) {
    await cache.delete(key); // never try a bad snapshot twice: the page will make a new one
    py = await boot(options);
    globalThis.riposteBoot = `fallback: ${error?.message ?? error}`;
  }
  const wheel = await fetch(new URL(`../../${meta.wheel}`, here));
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  py.unpackArchive(await wheel.arrayBuffer(), "wheel", { extractDir: sitePackages });
  py.runPython("import importlib, os, random\nimportlib.invalidate_caches()\nrandom.seed(os.urandom(32))");
  return py;
}
