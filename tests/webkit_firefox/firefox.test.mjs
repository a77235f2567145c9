// The end-to-end scenario (scenario.json) in Firefox, over WebDriver BiDi: puppeteer-core
// drives Debian's firefox-esr (or $FIREFOX; no browser download).
// One browser, one page, for the whole file; each test goes on from the one before.
// The site is _site/ served by tools/serve.py on a free port, stopped for the offline step.
// Run by `make test` (node --test tests/webkit_firefox/); docs/BROWSERS.md says what it covers.
import { existsSync, readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import assert from "node:assert/strict";
import puppeteer from "puppeteer-core";
import { ROOT, serveSite } from "./site.mjs";

const SCENARIO = JSON.parse(readFileSync(new URL("tests/webkit_firefox/scenario.json", ROOT), "utf8"));
// $FIREFOX, else Debian's ESR, else a `firefox` (the GitHub runner's, from Mozilla's packages).
const FIREFOX = process.env.FIREFOX || ["/usr/bin/firefox-esr", "/usr/bin/firefox"].find((p) => existsSync(p)) || "/usr/bin/firefox-esr";
const STEP_TIMEOUT = 60_000;

let server, site, browser, page;
const problems = []; // console errors and page errors: any fails the test that saw it

function linkFragment(save) {
  const packed = deflateRawSync(Buffer.from(JSON.stringify(save), "utf8"));
  return `#c=${packed.toString("base64url")}`;
}

// The condition a step waits for, as a JavaScript expression.
function condition(step) {
  if (step.do === "text") return `document.querySelector(${JSON.stringify(step.css)})?.textContent.trim() === ${JSON.stringify(step.is)}`;
  return step.js;
}

async function until(expression, why, timeout = STEP_TIMEOUT, on = page) {
  try {
    await on.waitForFunction(expression, { timeout, polling: 100 });
  } catch (error) {
    throw new Error(`${why}: not true after ${timeout / 1000} s (${expression})`, { cause: error });
  }
}

// An element that can be tapped: there, shown, enabled, not inert.
const tappable = (css) => `(e => e !== null && !e.disabled && e.getClientRects().length > 0 && !e.closest("[inert]"))(document.querySelector(${JSON.stringify(css)}))`;

async function play(step, on = page) {
  const timeout = (step.timeout ?? STEP_TIMEOUT / 1000) * 1000;
  switch (step.do) {
    case "open": return on.goto(site);
    case "link": return on.goto(site + linkFragment(SCENARIO.save));
    case "reload": return on.reload();
    case "offline": server.child.kill(); return new Promise((r) => server.child.once("exit", r));
    case "click":
      await until(tappable(step.css), `${step.css} can be tapped`, timeout, on);
      return on.locator(step.css).click();
    case "fill":
      await until(tappable(step.css), `${step.css} can be filled`, timeout, on);
      return on.locator(step.css).fill(step.text);
    case "text": return until(condition(step), `${step.css} reads ${JSON.stringify(step.is)}`, timeout, on);
    case "wait": return until(condition(step), step.why, timeout, on);
    default: throw new Error(`unknown step ${step.do}`);
  }
}

before(async () => {
  assert.ok(existsSync(new URL("_site/index.html", ROOT)), "_site/ is not built: run `make site` (make test does)");
  assert.ok(existsSync(FIREFOX), `No Firefox at ${FIREFOX}: install Debian's firefox-esr (.ci/run does) or set $FIREFOX`);
  server = await serveSite();
  site = server.url;
  browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true,
    defaultViewport: { width: 390, height: 844 } });
  page = await browser.newPage();
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
});

after(async () => {
  await browser?.close();
  server?.child.kill();
});

let failed = null; // each test goes on from the one before: no minute-long waits for nothing
for (const { name, steps } of SCENARIO.tests) {
  test(`firefox: ${name}`, async () => {
    assert.equal(failed, null, `not played: ${JSON.stringify(failed)} failed before it`);
    failed = name;
    for (const step of steps) await play(step);
    assert.deepEqual(problems.splice(0), [], "console or page errors");
    failed = null;
  });
}

test("firefox: has what docs/BROWSERS.md says", async () => {
  assert.equal(failed, null, `not checked: ${JSON.stringify(failed)} failed before it`);
  const seen = {};
  for (const f of SCENARIO.features) seen[f.name] = await page.evaluate(`Boolean(${f.js})`);
  assert.deepEqual(seen, Object.fromEntries(SCENARIO.features.map((f) => [f.name, f.firefox])));
});

// Firefox and WebKit both have CompressionStream; Safari before 16.4 does not: a page without
// it makes its link with stored deflate blocks (web/infra/share-links.js), which the page reads as any.
test("firefox: without CompressionStream, a link is still made, and opens", async () => {
  assert.equal(failed, null, `not played: ${JSON.stringify(failed)} failed before it`);
  const bare = await browser.newPage();
  try {
    bare.on("pageerror", (e) => problems.push(`page error (no CompressionStream): ${e.message}`));
    await bare.evaluateOnNewDocument(() => { delete globalThis.CompressionStream; });
    await bare.goto(site); // from the service worker: the server is stopped by now
    await until("document.documentElement.dataset.engine === 'ready'", "the engine is ready", STEP_TIMEOUT, bare);
    assert.equal(await bare.evaluate("typeof CompressionStream"), "undefined");
    for (const css of ['button[data-screen="menu"]', "#open-share"]) await play({ do: "click", css }, bare);
    await until("document.querySelector('#share-link').value.includes('#z=')", "a link is made", STEP_TIMEOUT, bare);
    const link = await bare.$eval("#share-link", (e) => e.value);
    const packed = Buffer.from(link.split("#z=")[1], "base64url");
    assert.equal(packed[0], 1, "one stored block, the last (BFINAL 1, BTYPE 00)");
    const text = JSON.parse(inflateRawSync(packed).toString("utf8")); // engine/link.py: ["r1", …]
    assert.equal(text[0], "r1");
    assert.deepEqual(text.slice(1, 3), SCENARIO.save.commands); // fighters not from the form: kept whole
    await page.goto(link); // read back with DecompressionStream, in the first page
    for (const step of [{ do: "click", css: "#confirm-yes" }, { do: "text", css: '#board li.fighter[data-id="aldric"] .pi', is: "5 P.I." },
      { do: "wait", js: "location.hash === ''", why: "the link left the address" }]) await play(step);
  } finally {
    await bare.close();
  }
  assert.deepEqual(problems.splice(0), [], "console or page errors");
});

// The fights' storage when the browser misbehaves (docs/RELIABILITY.md, « When the database
// misbehaves »), in a profile of its own on a server of its own (the scenario's is stopped):
// IndexedDB refused (its open throws, PyScript's own database too), the page starts, says
// where the fights are kept, and a reload keeps a round started; then, IndexedDB given back, another
// page opens a newer version of the database: the page lets it in at once and says why it
// writes no more.
test("firefox: IndexedDB refused, then a newer version of the database opened elsewhere", async () => {
  const own = await serveSite();
  const context = await browser.createBrowserContext();
  const seen = [];
  const watch = (p) => {
    p.on("console", (m) => { if (m.type() === "error") seen.push(`console: ${m.text()}`); });
    p.on("pageerror", (e) => seen.push(`page error: ${e.message}`));
    return p;
  };
  try {
    const refused = watch(await context.newPage());
    await refused.evaluateOnNewDocument((save) => {
      Object.defineProperty(IDBFactory.prototype, "open", { value() { throw new DOMException("blocked", "InvalidStateError"); } });
      if (localStorage.getItem("riposte.encounter") === null) localStorage.setItem("riposte.encounter", save);
    }, JSON.stringify(SCENARIO.save));
    await refused.goto(own.url);
    await until("document.documentElement.dataset.engine === 'ready'", "the engine is ready without IndexedDB", STEP_TIMEOUT, refused);
    await until("document.querySelector('#storage-note')?.textContent.includes('localStorage')", "where the fights are kept is said", 10_000, refused);
    const round = SCENARIO.tests.find((t) => t.name === "a round starts with typed dice").steps;
    for (const step of round) await play(step, refused);
    const started = "document.querySelector('#round')?.textContent.trim() === 'Tour 1'";
    await until("(localStorage.getItem('riposte.encounter') ?? '').includes('start_round')", "the round kept in localStorage", 10_000, refused);
    await refused.reload();
    await until("document.documentElement.dataset.engine === 'ready'", "the engine is ready again", STEP_TIMEOUT, refused);
    await until(started, "the round kept after a reload", 10_000, refused);
    await refused.close();

    const kept = watch(await context.newPage());
    await kept.goto(own.url);
    await until("document.documentElement.dataset.engine === 'ready'", "the engine is ready with IndexedDB", STEP_TIMEOUT, kept);
    await until(started, "the fight moved into IndexedDB", 10_000, kept);
    const other = await context.newPage();
    await other.goto(`${own.url}no-such-page-here`);
    const opened = await other.evaluate(() => new Promise((resolve) => {
      const request = indexedDB.open("riposte", 2);
      request.onsuccess = () => { request.result.close(); resolve("opened"); };
      request.onerror = () => resolve("failed");
      setTimeout(() => resolve("still blocked"), 8000);
    }));
    assert.equal(opened, "opened");
    await until("document.querySelector('#storage-note')?.textContent.includes(\"n'y écrit plus\")", "the page says why it writes no more", 10_000, kept);
    assert.deepEqual(seen, [], "console or page errors");
  } finally {
    await context.close();
    own.child.kill();
  }
});
