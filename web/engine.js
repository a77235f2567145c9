// The bridge to the rules engine: Python (engine wheel + web/bridge.py) in a PyScript
// worker on the self-hosted Pyodide. One call per tap, JSON strings in and out.
// A call that throws, or gets no answer in TIMEOUT ms (a dead worker), rejects with
// EngineFault: the page keeps the encounter it saved and offers a reload.
import { PyWorker } from "../runtime/pyscript/core.js";

const here = (path) => new URL(path, import.meta.url).href;
const TIMEOUT = 15_000;

export class EngineFault extends Error {}

export async function startEngine() {
  await customElements.whenDefined("py-script");
  const worker = await PyWorker(here("./bridge.py"), {
    type: "pyodide",
    config: here("../pyscript.toml"),
    version: here("../runtime/pyodide/pyodide.mjs"),
  });
  const sync = worker.sync;
  // The request as text, the answer as text: what crosses the worker boundary.
  async function raw(text) {
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new EngineFault("timeout")), TIMEOUT);
    });
    try {
      return await Promise.race([sync.call(text), late]);
    } catch (error) {
      throw error instanceof EngineFault ? error : new EngineFault(error?.message ?? String(error));
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    raw,
    async call(request) {
      const answer = JSON.parse(await raw(JSON.stringify(request)));
      if (answer?.error?.code === "internal") throw new EngineFault(answer.error.message);
      return answer;
    },
  };
}
