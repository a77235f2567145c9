// A built site served by tools/serve.py on a free port, for the tests that Node runs
// (tests/webkit_firefox/*.test.mjs): `folder`, _site/ (what ships) or _site-test/ (the test
// build, with the page's test hooks: tools/build_site.py --test-hooks); `child` is the
// server's process (killed to go offline).
import { spawn } from "node:child_process";
import { createServer } from "node:net";

export const ROOT = new URL("../../", import.meta.url);
const PYTHON = process.env.PYTHON || "python3";

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    }).on("error", reject);
  });
}

export async function serveSite(folder = "_site/") {
  const port = await freePort();
  const child = spawn(PYTHON, [new URL("tools/serve.py", ROOT).pathname, "--port", String(port), "--dir", new URL(folder, ROOT).pathname],
    { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 200; i++) { // until it answers (10 s at most)
    try {
      if ((await fetch(url)).ok) return { child, url };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error(`tools/serve.py never answered on ${url}`);
}
