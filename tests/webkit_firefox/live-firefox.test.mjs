// The live table with a player's page in Firefox: Debian's Chromium holds the
// game master's page (puppeteer-core over CDP), Debian's firefox-esr a player's (over
// WebDriver BiDi), connected for real over WebRTC. The game master's phone asleep 20 s of
// the table's time and its page reloaded: the player's page in Firefox comes back, its PJ
// claimed by itself; the player's page reloaded: it comes back with no scan. Both pages run the table's timings a tenth of real ones
// (web/live/timing.js, the switch set before their scripts run): 20 s asleep in 2.
// Run by `make test` (node --test tests/webkit_firefox/); docs/BROWSERS.md says what it covers.
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import puppeteer from "puppeteer-core";
import { ROOT, serveSite } from "./site.mjs";
import { SAVE, text, until } from "./live-pages.mjs";

const FIREFOX = process.env.FIREFOX || ["/usr/bin/firefox-esr", "/usr/bin/firefox"].find((p) => existsSync(p)) || "/usr/bin/firefox-esr";
const CHROMIUM = process.env.CHROMIUM || ["/usr/bin/chromium", "/usr/bin/google-chrome"].find((p) => existsSync(p)) || "/usr/bin/chromium";
// The flags of tools/find_chromium.py TEST_FLAGS (the address bar's popups turned off, WebAssembly
// compiled by Liftoff alone).
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup",
  "--js-flags=--liftoff-only"];
// The live table's timings on both pages, every one scaled alike (web/live/timing.js).
const TIME_SCALE = 0.1;
const scaled = (scale) => { globalThis.__riposteLiveTimeScale = scale; };

let server, site, chromium, firefox, gm, player;
const problems = [];

const starts = (css, is) => `(document.querySelector(${JSON.stringify(css)})?.textContent ?? "").startsWith(${JSON.stringify(is)})`;

async function invite(again = false) {
  if (again) await gm.locator("#live-bar-invite").click();
  else {
    await gm.locator('button[data-screen="menu"]').click();
    await gm.locator("#live-invite").click();
  }
  await until(gm, "/#table=[A-Za-z0-9_-]+$/.test(document.querySelector('#invite-link').value)", "an invitation is made");
  return gm.$eval("#invite-link", (e) => e.value);
}

async function answer() {
  await until(player, text("#live-state", "Montrez ce code au MJ"), "the player's answer shows");
  await until(player, "document.querySelector('#live-answer').value.length > 100", "its code is made");
  const code = await player.$eval("#live-answer", (e) => e.value);
  await gm.locator("#invite-answer").fill(code);
  await gm.locator("#invite-take").click();
  await until(player, text("#live-state", "Connecté à la table"), "the player's page follows the table");
}

before(async () => {
  assert.ok(existsSync(new URL("_site-test/index.html", ROOT)), "_site-test/ is not built: run `make site` (make test does)");
  server = await serveSite("_site-test/"); // the test build: riposteLive, the time scale
  site = server.url;
  chromium = await puppeteer.launch({ browser: "chrome", executablePath: CHROMIUM, headless: true, args: FLAGS,
    defaultViewport: { width: 390, height: 844 } });
  firefox = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true,
    defaultViewport: { width: 390, height: 844 } });
  gm = await chromium.newPage();
  await gm.evaluateOnNewDocument((save) => {
    if (!sessionStorage.getItem("seeded")) {
      localStorage.setItem("riposte.encounter", save);
      sessionStorage.setItem("seeded", "1");
    }
  }, SAVE);
  await gm.evaluateOnNewDocument(scaled, TIME_SCALE);
  await gm.evaluateOnNewDocument(() => { globalThis.__riposteHooks = true; }); // riposteLive (web/infra/hooks.js)
  player = await firefox.newPage();
  await player.evaluateOnNewDocument(scaled, TIME_SCALE);
  for (const [who, page] of [["game master", gm], ["player", player]]) {
    page.on("console", (m) => { if (m.type() === "error") problems.push(`${who} console: ${m.text()}`); });
    page.on("pageerror", (e) => problems.push(`${who} page error: ${e.message}`));
  }
  await gm.goto(site);
  await until(gm, "document.documentElement.dataset.engine === 'ready'", "the game master's engine is ready", 120_000);
});

after(async () => {
  await chromium?.close();
  await firefox?.close();
  server?.child.kill();
});

test("firefox: a player's page pairs, follows a sleeping game master, and comes back after its reload", async () => {
  await player.goto(await invite());
  await answer();
  await player.locator('button[data-claim="aldric"]').click();
  await until(player, text("#live-mine-name", "Vous jouez Aldric."), "the player plays Aldric");
  for (const page of [gm, player]) assert.equal(await page.evaluate("globalThis.__riposteLiveTimeScale"), TIME_SCALE, "the table's timings scaled");

  // The game master's phone asleep 20 s of the table's time: said, and the connection kept.
  const cdp = await gm.createCDPSession();
  await cdp.send("Debugger.enable");
  await cdp.send("Debugger.pause");
  const asleep = Date.now();
  await until(player, starts("#live-state", "Le téléphone du MJ ne répond plus"), "the player's page says the game master is silent", 20_000);
  // The rest of the sleep (how long the phone sleeps, not a wait for a page).
  await new Promise((r) => setTimeout(r, Math.max(0, 20_000 * TIME_SCALE - (Date.now() - asleep))));
  await cdp.send("Debugger.resume");
  await cdp.detach();
  await until(player, text("#live-state", "Connecté à la table"), "the player's page follows again, with no scan");

  // The game master's page reloads: a new invitation opened in the player's tab (only the
  // fragment changes: no reload) brings it back, playing Aldric by itself.
  await gm.reload();
  await until(gm, "document.documentElement.dataset.engine === 'ready'", "the game master's engine is ready again", 120_000);
  await until(player, starts("#live-state", "Déconnecté de la table"), "the player's page says the table is gone");
  await player.evaluate("window.__same_page = true");
  await player.goto(await invite(true));
  await answer();
  await until(player, text("#live-mine-name", "Vous jouez Aldric."), "the player plays Aldric again, by itself");
  assert.equal(await player.evaluate("window.__same_page"), true, "the invitation was taken without a reload");

  // The player's page reloads: it comes back by itself, through the connection the game
  // master's page kept waiting for it (answered ahead of time), with no scan.
  await until(gm, "window.riposteLive.spares() === 1", "the game master's page keeps a connection waiting for the player");
  await player.reload();
  await until(player, text("#live-state", "Connecté à la table"), "the player's page follows again, with no scan");
  await until(player, text("#live-mine-name", "Vous jouez Aldric."), "the player plays Aldric again, by itself");
  assert.deepEqual(problems.splice(0), [], "console or page errors");
});
