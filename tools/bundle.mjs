// Bundles the page's modules in the built site with esbuild (pinned in package.json): the
// two modules index.html names (web/early.js, which starts Python, and web/app.js) and
// everything they import, in a few files instead of 48 (issue #14: a first visit's bytes
// and requests). `splitting` keeps what early.js needs in small chunks of its own, so that
// Python starts before the rest is fetched, and each dynamic import (a live table's player
// page) in a chunk loaded only then. The runtime (../runtime/…) stays outside; the worker's
// modules (boot.mjs, snapshot.js) are loaded by address and are not bundled. The bundled
// sources are removed from the folder; the readable source stays in web/.
// Usage: node tools/bundle.mjs FOLDER ENTRY... [--no-minify]   (tools/build_site.py calls it)
import { mkdtemp, readdir, rename, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { build } from "esbuild";

const [folder, ...args] = process.argv.slice(2);
const minify = !args.includes("--no-minify");
const entries = args.filter((arg) => arg !== "--no-minify");
const out = await mkdtemp(join(folder, ".bundle-"));
const result = await build({
  entryPoints: entries.map((name) => join(folder, name)),
  bundle: true,
  splitting: true,
  format: "esm",
  outdir: out,
  external: ["../runtime/*"],
  minify,
  charset: "utf8", // French words as they are: shorter than \u escapes
  legalComments: "none",
  target: "es2022",
  metafile: true,
  logLevel: "warning",
});
if (result.warnings.length) process.exit(1);
const inputs = new Set(Object.values(result.metafile.outputs).flatMap((o) => Object.keys(o.inputs)));
for (const input of inputs) await rm(input);
for (const name of await readdir(out)) await rename(join(out, name), join(folder, name));
await rm(out, { recursive: true });
// Folders left empty (controllers/, lang/, live/) go too.
for (const entry of await readdir(folder, { withFileTypes: true })) {
  if (entry.isDirectory() && (await readdir(join(folder, entry.name))).length === 0) await rm(join(folder, entry.name), { recursive: true });
}
console.log(`bundled ${inputs.size} modules into ${Object.keys(result.metafile.outputs).length} files`
  + ` (${relative(process.cwd(), folder)})`);
