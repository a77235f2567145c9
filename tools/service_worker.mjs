// Writes _site/sw.js: a Workbox service worker that precaches the whole built site,
// runtime included, so that a second visit needs no network at all; and _site/sw-player.js,
// the live table's player's page's own: only what that page loads, never the
// Python runtime (web/boot/offline.js registerPlayerOffline).
// Usage: node tools/service_worker.mjs _site
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateSW } from "workbox-build";

const site = process.argv[2] ?? "_site";
// Addresses that carry their version (tools/build_site.py): the runtime's folders
// (runtime/pyscript-0.7.31/…; Pyodide's with a digest of the build's changes to its files,
// runtime/pyodide-314.0.2-<digest>/…), the standard library's and the app's (stdlib-<hash>/…,
// web-<hash>/…: the hash of their content). Workbox keys
// them by their address alone and fetches them without bypassing the HTTP cache, so a
// first visit's precache takes what the page has already downloaded, and a new
// deployment downloads only the folders that changed. The page, its manifest and icon
// keep a revision (a hash of their content) and are fetched again.
const VERSIONED = /^(runtime\/[a-z-]+-\d+\.\d+\.\d+(-[0-9a-f]{8})?|(web|stdlib)-[0-9a-f]{12})\//;
// Each precached file with its Subresource Integrity digest: Workbox then puts back in its
// cache a file it finds missing there (the origin's Cache Storage cleared while the
// service worker stays), from the network, on the next online visit, checked against
// that digest; without one, it serves the network's answer and never caches it again, so
// the next offline visit fails.
function withIntegrity(entries) {
  const manifest = entries.map((entry) => ({
    ...entry,
    integrity: `sha384-${createHash("sha384").update(readFileSync(join(site, entry.url))).digest("base64")}`,
  }));
  return { manifest, warnings: [] };
}
// What both service workers share: the Workbox runtime inside (nothing from a CDN), the
// page served for ./ with or without a link's fragment or query, old caches dropped.
const COMMON = {
  manifestTransforms: [withIntegrity],
  globDirectory: site,
  dontCacheBustURLsMatching: VERSIONED,
  inlineWorkboxRuntime: true,
  mode: "production",
  sourcemap: false,
  clientsClaim: true,
  cleanupOutdatedCaches: true,
  directoryIndex: "index.html",
  ignoreURLParametersMatching: [/.*/],
};
const { count, size, warnings } = await generateSW({
  ...COMMON,
  globPatterns: ["**/*"],
  // PyScript's chunks that the page never loads are not precached (1.1 MB less on a first
  // visit): the terminal (xterm, and its py and mpy plugins), the editor (codemirror and its
  // index chunk), zip, the TOML parsers (the config is given inline), the package graph (no
  // package to install), its IndexedDB storage, its own service worker and core.css, and the
  // plugins index.html's py-config and mpy-config leave out. The
  // offline test plays a whole fight with no network and tests/browser/test_versions.py
  // checks that every file the page loads is precached: a chunk missing here fails them.
  // The install icons are fetched by the browser when the app is installed, online.
  globIgnores: ["sw.js", "sw-player.js", "runtime/SHA256SUMS", "web/icons/*",
    "runtime/pyscript-*/{xterm,codemirror,zip,index-,pyodide_graph,py-D,mpy-}*",
    "runtime/pyscript-*/{storage.js,service-worker.js,core.css}",
    "runtime/pyscript-*/{py-editor,py-terminal,py-game,donkey,deprecations-manager}-*",
    // The QR code reader (1.1 MB of WebAssembly) loads only when a game master scans a
    // player's answer in a browser without BarcodeDetector: fetched then, not on every first visit.
    "runtime/{barcode-detector,zxing-wasm}-*/*",
    // The rest of Python's standard library: not on a first visit's wire. The
    // page has it fetched once it is ready (web/boot/offline.js keepStdlib), and the route
    // below keeps it.
    "stdlib-*/python_stdlib_rest.zip"],
  runtimeCaching: [{
    urlPattern: /\/stdlib-[0-9a-f]{12}\/python_stdlib_rest\.zip$/,
    handler: "CacheFirst",
    // One at a time: a new deployment's replaces the last one's.
    options: { cacheName: "riposte-stdlib", expiration: { maxEntries: 1 } },
  }],
  swDest: `${site}/sw.js`,
  // Workbox's default (2 MiB) would silently skip pyodide.asm.wasm (9.6 MB).
  maximumFileSizeToCacheInBytes: 32 * 1024 * 1024,
  // A new version waits until the user accepts it (the page asks), then takes over
  // every tab at once: never old and new files mixed in one page.
  skipWaiting: false,
});
// The player's page: the page, its modules and style (not the worker's, not the wheel),
// the QR code generator for its answer, the manifest and icon. It loads all of them at once
// (the QR code generator when its answer shows), so a new version takes over at once.
const player = await generateSW({
  ...COMMON,
  globPatterns: ["index.html", "manifest.webmanifest", "web/icon.svg", "web-*/**/*.{js,css}", "runtime/qrcode-generator-*/*"],
  globIgnores: ["web-*/boot/{boot.mjs,snapshot.js,pages.js}"],
  swDest: `${site}/sw-player.js`,
  skipWaiting: true,
});
if (warnings.length || player.warnings.length) {
  console.error([...warnings, ...player.warnings].join("\n"));
  process.exit(1);
}
console.log(`sw.js precaches ${count} files, ${(size / 1e6).toFixed(1)} MB; sw-player.js ${player.count} files, ${(player.size / 1e3).toFixed(0)} kB`);
