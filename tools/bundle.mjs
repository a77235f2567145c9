// Bundles the page's modules in the built site with esbuild (pinned in package.json): the
// two modules index.html names (web/boot/early.js, which starts Python, and web/app.js) and
// everything they import, in a few files instead of 51 (a first visit's bytes
// and requests). `splitting` keeps what early.js needs in small chunks of its own, so that
// Python starts before the rest is fetched, and each dynamic import (a live table's player
// page) in a chunk loaded only then. The runtime (../runtime/…) stays outside; the worker's
// modules (boot/boot.mjs, boot/snapshot.js, boot/pages.js, boot/bridge.py) are loaded by address and are
// not bundled. The bundled sources are removed from the folder; the readable source stays
// in web/.
//
// A module's code may land in a file of another folder (web/boot/engine.js in a chunk at
// the folder's top): the addresses it names are kept its own. Each `import.meta.url` is
// the source module's address, and each runtime file it imports is named from where the
// code lands (the esbuild plugin below; esbuild leaves `new URL(…, import.meta.url)` alone).
// Usage: node tools/bundle.mjs FOLDER ENTRY... [--no-minify] [--test-hooks]   (tools/build_site.py calls it)
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join, posix, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

// The repository's own `#` imports (package.json "imports": the engine's language
// catalogues, engine/lang/*.json, which web/lang/*.js import), resolved from the
// repository wherever the folder being bundled is.
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { imports } = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
const ownImports = {
  name: "own-imports",
  setup(b) {
    b.onResolve({ filter: /^#/ }, ({ path }) => {
      for (const [pattern, target] of Object.entries(imports)) {
        const [head, tail] = pattern.split("*");
        if (path.startsWith(head) && path.endsWith(tail)) {
          return { path: join(root, target.replace("*", path.slice(head.length, path.length - tail.length))) };
        }
      }
      return undefined;
    });
  },
};

const [folder, ...args] = process.argv.slice(2);
const minify = !args.includes("--no-minify");
// The test build (web/infra/hooks.js): its hooks compiled in; without, their code is dead
// and goes once minified (esbuild drops a branch on a constant false, its names with it).
const testHooks = args.includes("--test-hooks");
const entries = args.filter((arg) => !arg.startsWith("--"));
// A path from the folder's top, in the bundle until each output file names it from where it is.
const MARK = "@riposte-app/";
const fromTop = (path) => MARK + relative(folder, path).split(sep).join("/");

const ownAddresses = {
  name: "own-addresses",
  setup(b) {
    b.onResolve({ filter: /^(\.\.\/)+runtime\// }, (found) => ({ path: fromTop(resolve(found.resolveDir, found.path)), external: true }));
    b.onLoad({ filter: /\.m?js$/ }, async (module) => {
      const text = await readFile(module.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      return { contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(fromTop(module.path))}, import.meta.url).href`), loader: "js" };
    });
  },
};

const out = join(folder, ".bundle");
const result = await build({
  entryPoints: entries.map((name) => join(folder, name)),
  bundle: true,
  splitting: true,
  format: "esm",
  outdir: out,
  outbase: folder, // web/boot/early.js is served as boot/early.js, as index.html names it
  write: false,
  plugins: [ownAddresses, ownImports],
  minify,
  define: { RIPOSTE_TEST_BUILD: String(testHooks) },
  charset: "utf8", // French words as they are: shorter than \u escapes
  legalComments: "none",
  target: "es2022",
  metafile: true,
  logLevel: "warning",
});
if (result.warnings.length) process.exit(1);
// The folder's own modules, bundled, are removed from it (not the repository's files): each
// one read, even one whose code all went (web/infra/hooks.js in the shipped build).
const inputs = new Set(Object.keys(result.metafile.inputs).filter((input) => !relative(folder, input).startsWith("..")));
for (const input of inputs) await rm(input);
for (const file of result.outputFiles) {
  const name = relative(out, file.path).split(sep).join("/");
  const here = posix.dirname(name);
  const text = file.text.replace(/@riposte-app\/([^"'`]*)/g, (_, path) => {
    const to = posix.relative(here, path);
    return to.startsWith(".") ? to : `./${to}`;
  });
  await mkdir(dirname(join(folder, name)), { recursive: true });
  await writeFile(join(folder, name), text);
}

// Folders left empty (controllers/, views/, infra/, lang/, live/) go too.
async function prune(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const sub = join(dir, entry.name);
    await prune(sub);
    if ((await readdir(sub)).length === 0) await rmdir(sub);
  }
}
await prune(folder);
console.log(`bundled ${inputs.size} modules into ${result.outputFiles.length} files`
  + ` (${relative(process.cwd(), folder)})`);
