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
  return {
    async call(request) {
      let timer;
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new EngineFault("timeout")), TIMEOUT);
      });
      try {
        const answer = JSON.parse(await Promise.race([sync.call(JSON.stringify(request)), late]));
        if (answer?.error?.code === "internal") throw new EngineFault(answer.error.message);
        return answer;
      } catch (error) {
        throw error instanceof EngineFault ? error : new EngineFault(error?.message ?? String(error));
      } finally {
        clearTimeout(timer);
      }
    },
    terminate: () => worker.terminate(),
  };
}
