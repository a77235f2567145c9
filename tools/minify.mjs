// Minifies the app's own modules and style sheet in the built site, in place, with esbuild
// (pinned in package.json): each file on its own (no bundling, the module graph and the
// file names stay as in web/), no source maps. The readable source stays in web/. A
// vendored library (under runtime/: the QR code generator) keeps its leading comment, its
// copyright and licence, as it is.
// Usage: node tools/minify.mjs FILE...   (tools/build_site.py calls it)
import { readFile, writeFile } from "node:fs/promises";
import { transform } from "esbuild";

let before = 0;
let after = 0;
for (const file of process.argv.slice(2)) {
  const code = await readFile(file, "utf8");
  const notice = file.includes("/runtime/") ? /^(?:\/\/.*\n)+/.exec(code)?.[0] ?? "" : "";
  const loader = file.endsWith(".css") ? "css" : "js";
  const out = await transform(code, {
    loader,
    minify: true,
    charset: "utf8", // French words as they are: shorter than \u escapes
    legalComments: "none",
    target: "es2022",
    ...(loader === "js" ? { format: "esm" } : {}),
  });
  if (out.warnings.length) {
    console.error(`${file}: ${out.warnings.map((w) => w.text).join("; ")}`);
    process.exit(1);
  }
  await writeFile(file, notice + out.code);
  before += Buffer.byteLength(code);
  after += Buffer.byteLength(out.code);
}
console.log(`minified ${process.argv.length - 2} files: ${before} → ${after} bytes`);
