// « Inviter à distance » with a player's page in Firefox: Debian's Chromium holds the game
// master's page (puppeteer-core over CDP), Debian's firefox-esr a player's (over WebDriver
// BiDi). The player opens the invitation link and makes their reply link at once; the game
// master pastes it two minutes later, as a chat between two homes gives it: the player's page
// follows the table. Real time (ICE's own timers are what is tested): about 2 min 30 s.
// Run by `make test-firefox`; docs/LIVE-TABLE.md « Inviter à distance ».
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import puppeteer from "puppeteer-core";
import { ROOT, serveSite } from "./site.mjs";
import { SAVE, text, until } from "./live-pages.mjs";

const FIREFOX = process.env.FIREFOX || ["/usr/bin/firefox-esr", "/usr/bin/firefox"].find((p) => existsSync(p)) || "/usr/bin/firefox-esr";
const CHROMIUM = process.env.CHROMIUM || ["/usr/bin/chromium", "/usr/bin/google-chrome"].find((p) => existsSync(p)) || "/usr/bin/chromium";
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup",
  "--js-flags=--liftoff-only"];
// How long the reply takes to come back through the chat: the player's page has set its
// answer (its ICE checks started) two minutes before the game master's page learns it.
const REPLY_AFTER = Number(process.env.RIPOSTE_REPLY_AFTER ?? 120_000);

let server, chromium, firefox, gm, player;
const problems = [];


before(async () => {
  assert.ok(existsSync(new URL("_site-test/index.html", ROOT)), "_site-test/ is not built: run `make site` (make test does)");
  server = await serveSite("_site-test/");
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
  player = await firefox.newPage();
  for (const [who, page] of [["game master", gm], ["player", player]]) {
    page.on("console", (m) => { if (m.type() === "error") problems.push(`${who} console: ${m.text()}`); });
    page.on("pageerror", (e) => problems.push(`${who} page error: ${e.message}`));
  }
  await gm.goto(server.url);
  await until(gm, "document.documentElement.dataset.engine === 'ready'", "the game master's engine is ready", 120_000);
});

after(async () => {
  await chromium?.close();
  await firefox?.close();
  server?.child.kill();
});

test("firefox: a player at home replies by link, pasted by the game master two minutes later", async () => {
  await gm.locator('button[data-screen="menu"]').click();
  await gm.locator("#live-invite-remote").click();
  await until(gm, "/#table=[A-Za-z0-9_-]+&loin=1$/.test(document.querySelector('#invite-link').value)", "the chat's invitation is made");
  const invitation = await gm.$eval("#invite-link", (e) => e.value);
  await player.goto(invitation);
  await until(player, text("#live-state", "Envoyez ce lien de réponse au MJ"), "the player's page shows its reply link");
  await until(player, "/#reponse=[A-Za-z0-9_-]+$/.test(document.querySelector('#live-answer-link')?.value ?? '')", "the player's reply link is made");
  const reply = await player.$eval("#live-answer-link", (e) => e.value);
  const made = Date.now();
  // The chat's two minutes (the time between the two halves, not a wait for a page).
  await new Promise((r) => setTimeout(r, Math.max(0, REPLY_AFTER - (Date.now() - made))));
  await gm.locator("#invite-answer").fill(reply);
  await gm.locator("#invite-take").click();
  await until(player, text("#live-state", "Connecté à la table"), "the player's page follows the table");
  await player.locator('button[data-claim="aldric"]').click();
  await until(player, text("#live-mine-name", "Vous jouez Aldric."), "the player plays Aldric");
  assert.deepEqual(problems.splice(0), [], "console or page errors");
});
