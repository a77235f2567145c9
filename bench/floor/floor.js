// The floor: the same vendored PyScript and Pyodide as Riposte, Python in a worker,
// a one-function wheel installed by micropip, one call answered. Nothing else. (The runtime
// folders as tools/build_site.py names them, with their versions.)
import { PyWorker } from "./runtime/pyscript-0.7.31/core.js";

const here = (path) => new URL(path, import.meta.url).href;
await customElements.whenDefined("py-script");
const worker = await PyWorker(here("./floor.py"), {
  type: "pyodide", config: here("./floor.toml"), version: here("./runtime/pyodide-314.0.2/pyodide.mjs"),
});
await worker.sync.call("ping");
performance.mark("riposte:ready");
document.documentElement.dataset.engine = "ready";
