// The bridge to the rules engine: Python (engine wheel + web/bridge.py) in a PyScript
// worker on the self-hosted Pyodide. One call per tap, JSON strings in and out.
import { PyWorker } from "../runtime/pyscript/core.js";

const here = (path) => new URL(path, import.meta.url).href;

export async function startEngine() {
  await customElements.whenDefined("py-script");
  const worker = await PyWorker(here("./bridge.py"), {
    type: "pyodide",
    config: here("../pyscript.toml"),
    version: here("../runtime/pyodide/pyodide.mjs"),
  });
  const sync = worker.sync;
  return {
    async call(request) {
      const answer = await sync.call(JSON.stringify(request));
      return JSON.parse(answer);
    },
  };
}
