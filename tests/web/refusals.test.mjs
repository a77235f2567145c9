// Every refusal the page shows has one shape, { ok: false, error: { code, key, params,
// message } }, whatever refused it (web/infra/refusals.js), and each screen says it in one
// place: the engine's refusal, a page guard (half a character, a read-only tab, another
// fight opening, a file or a link not read, a model's copies, a fight's name), a tap
// dropped from the queue, a fault of the engine, a storage status, the game master's page
// refusing a player's message.
// Driven through the real session (web/infra/session.js), the real commands
// (web/infra/send.js) and the real controllers, with an engine and views of the test's
// own. Run by `node --test tests/web/` (tests/test_js_units.py).
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { EngineFault } from "../../web/boot/engine.js";
import { BoardController } from "../../web/controllers/board.js";
import { FightsController, listRefusal } from "../../web/controllers/fights.js";
import { RoundController } from "../../web/controllers/round.js";
import { Dispatcher } from "../../web/infra/dispatch.js";
import { refused, said, SAVE, unopened, unwritten } from "../../web/infra/refusals.js";
import { Session } from "../../web/infra/session.js";
import { StatusView } from "../../web/views/status-view.js";
import { gmRefusal } from "../../web/live/guest.js";
import en from "../../web/lang/en.js";
import fr from "../../web/lang/fr.js";
import { loadLanguage } from "../../web/infra/i18n.js";

// English is fetched once chosen, as the page does (web/infra/i18n.js).
await loadLanguage("en");

const plain = (text) => text.replace(/[\u2066-\u2069]/g, "");
const BOARD = { round: 1, round_over: false, phase: null, active: ["aldric"], combatants: { aldric: { id: "aldric", name: "Aldric", pi: 5 } } };
const NO_PI = { code: "no_pi", key: "no_pi", params: { name: "Aldric" },
  message: "Aldric n'a plus de P.I. : il ne peut plus entamer d'action." };

afterEach(() => {
  delete globalThis.document;
});

// The one shape, exactly; its key one of the catalogue's, its message that key's French sentence.
function assertShape(answer, code, key) {
  assert.equal(answer.ok, false);
  assert.deepEqual(Object.keys(answer.error).sort(), ["code", "key", "message", "params"]);
  assert.equal(answer.error.code, code);
  assert.equal(answer.error.key, key);
  assert.ok(Object.hasOwn(fr.refusals, key) && Object.hasOwn(en.refusals, key), key);
  assert.equal(typeof answer.error.params, "object");
  // Up to its first colon, or up to another refusal told inside it (`refused`).
  const [head, ...inside] = fr.refusals[key].split("{refused}");
  const filled = head.replace(/\{\w+\}/g, (p) => String(answer.error.params[p.slice(1, -1)])).split(":")[0];
  if (inside.length) assert.ok(answer.error.message.startsWith(filled), key);
  else assert.equal(answer.error.message.split(":")[0], filled);
}

// The message line as the page has it (StatusView's own wording), its text recorded.
function statusLine() {
  const status = Object.create(StatusView.prototype);
  status.said = [];
  status.message = (text) => status.said.push(text);
  status.announce = () => undefined;
  return status;
}

// The board's screen with a session whose engine answers `engine(request)` (its limits
// asked by the board, an answer of its own); what the
// dock, the sheet and the message line said, recorded.
async function boardScreen(engine, { open = true, screen = "board", storage = {} } = {}) {
  const session = new Session({ save: () => "ok", saveCheckpoint: () => undefined, checkpoint: () => null, openText: () => "{}",
    known: () => undefined, wrote: () => undefined, ...storage });
  session.attach({ call: async (request) => (request.op === "limits" ? { ok: true, limits: {} } : engine(request)) });
  if (open) await session.open();
  session.board = BOARD;
  const dock = [];
  const sheet = [];
  const view = { bind() {}, limit() {}, setHistory() {}, header() {}, update() {}, keepFocus: () => () => undefined, reveal() {}, pick() {}, unpick() {},
    error: (text) => dock.push(text) };
  const sheetView = { bindSubmit(handler) { this.submit = handler; }, error: (text) => sheet.push(text), close() {} };
  const status = statusLine();
  const nav = { on() {}, at: (name) => name === screen, shows: (name) => name === screen };
  const board = new BoardController({ session, status, nav, dispatch: new Dispatcher(session, nav) }, view, sheetView);
  return { session, board, dock, sheet, status, submit: (options) => sheetView.submit(options) };
}

const refuseEverything = (request) => (request.op === "apply" ? { ok: false, error: NO_PI, board: BOARD } : { ok: true, board: BOARD });

test("the engine's refusal keeps its shape and is said on the board's dock, once", async () => {
  const { board, dock, status } = await boardScreen(refuseEverything);
  const answer = await board.run({ type: "pass", actor: "aldric" });
  assertShape(answer, "no_pi", "no_pi");
  assert.deepEqual(dock.map(plain), [NO_PI.message]);
  assert.deepEqual(status.said, []);
});

test("the sheet's refusal is said on the sheet's own line", async () => {
  const { dock, sheet, submit } = await boardScreen(refuseEverything);
  await submit({ actor: "aldric", action: "dire_phrase", interruption: false, options: {} });
  assert.deepEqual(sheet.map(plain), [NO_PI.message]);
  assert.deepEqual(dock, []);
});

test("half a character is refused by the page in the same shape, its field named, never sent", async () => {
  const sent = [];
  const { board, dock } = await boardScreen((request) => sent.push(request));
  const answer = await board.run({ type: "update_combatant", id: "aldric", changes: { notes: "coupé \ud83d" } });
  assertShape(answer, "bad_value", "half_character");
  assert.deepEqual(answer.fields, [{ field: "changes.notes", key: "half_character", params: { field: "changes.notes" } }]);
  assert.deepEqual(sent, []);
  assert.equal(dock.length, 1);
  assert.match(plain(dock[0]), /une moitié de caractère/);
});

test("a read-only tab and another fight opening refuse in the same shape, said on the dock", async () => {
  const { session, board, dock } = await boardScreen(() => assert.fail("nothing reaches the engine"));
  session.readOnly = true;
  assertShape(await board.run({ type: "pass", actor: "aldric" }), "read_only", "read_only");
  session.readOnly = false;
  let opened;
  const opening = session.exclusive(() => new Promise((resolve) => {
    opened = resolve;
  }));
  assertShape(await board.run({ type: "pass", actor: "aldric" }), "busy", "switching");
  opened();
  await opening;
  assert.deepEqual(dock, [fr.refusals.read_only, fr.refusals.switching]);
});

test("undo refused is said on the dock on the board, on the message line elsewhere", async () => {
  const { session, board, dock, status } = await boardScreen(() => assert.fail("nothing reaches the engine"), { screen: "cast" });
  session.readOnly = true;
  await board.history("undo");
  assert.deepEqual(dock, []);
  assert.deepEqual(status.said, [fr.refusals.read_only]);
});

test("a fault of the engine is an answer of the same shape (internal), said by the fault screen alone", async () => {
  const faults = [];
  const { session, board, dock, status } = await boardScreen(() => {
    throw new EngineFault("KeyError: 'règle cassée'");
  });
  session.on("fault", (error) => faults.push(error.message));
  const answer = await board.run({ type: "pass", actor: "aldric" });
  assertShape(answer, "internal", "internal");
  assert.deepEqual(answer.error.params, { error: "KeyError: 'règle cassée'" });
  assert.deepEqual(faults, ["KeyError: 'règle cassée'"]);
  assert.deepEqual([dock, status.said], [[], []]);
});

test("taps made before the engine is up: the first refused says how many were dropped, the dropped ones say nothing", async () => {
  const { session, board, dock } = await boardScreen(refuseEverything, { open: false });
  const first = board.run({ type: "pass", actor: "aldric" });
  const second = board.run({ type: "end_round" });
  await session.open();
  assertShape(await first, "no_pi", "no_pi");
  assert.equal((await first).discarded, 1);
  assertShape(await second, "discarded", "discarded");
  assert.deepEqual(dock.map(plain), [fr.queueStopped(NO_PI.message, 1)]);
});

test("a command accepted but not saved: the storage's status said on the message line, as a refusal", async () => {
  for (const [status, key] of [["full", "storage_full"], ["unavailable", "storage_unavailable"]]) {
    // The database answers after the tap (web/infra/store.js): the status is said then.
    const screen = await boardScreen(() => ({ ok: true, board: BOARD, save: "{}", events: [] }), { storage: { save: async () => status } });
    const answer = await screen.board.run({ type: "pass", actor: "aldric" });
    assert.equal(await answer.stored, status);
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.deepEqual(screen.status.said.filter(Boolean), [fr.refusals[key]]);
  }
});

test("each storage status is one refusal: its code, a reason of the place it is said", async () => {
  assert.equal(unwritten("ok"), null);
  assert.equal(unwritten(null), null);
  assertShape(unwritten("full"), "storage", "storage_full");
  assertShape(unwritten("unavailable"), "storage", "storage_unavailable");
  assertShape(unwritten("held"), "held", "held");
  assertShape(unwritten("blocked"), "storage", "storage_unavailable"); // a status it does not know: the write was not done
  assertShape(unwritten("full", "model_not_saved", { name: "Garde" }), "storage", "model_not_saved");
  for (const key of Object.values(SAVE)) assert.ok(Object.hasOwn(fr.refusals, key), key);
  const status = statusLine();
  // What was done is said at once; a write's failure when the write answers, over it.
  for (const stored of ["ok", null, "full", "unavailable", "held"]) {
    status.report(Promise.resolve(stored), "fait");
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  assert.deepEqual(status.said, ["fait", "fait", "fait", fr.refusals.storage_full, "fait", fr.refusals.storage_unavailable, "fait",
    fr.refusals.held]);
});

test("every change of the list refused is one refusal, said once on the message line", () => {
  const cases = [
    [{ why: "readOnly" }, "read_only", "read_only"],
    [{ why: "held" }, "held", "fights_held"],
    [{ why: "full" }, "storage", "fights_full"],
    [{ why: "unavailable" }, "storage", "fights_unavailable"],
    [{ why: "missing" }, "storage", "fight_missing"],
  ];
  for (const [result, code, key] of cases) assertShape(listRefusal(result), code, key);
  assert.deepEqual(listRefusal({ why: "refused", error: NO_PI }), { ok: false, error: NO_PI });
  assert.equal(listRefusal({ why: "open" }), null);
  assert.equal(said(listRefusal({ why: "nothing" })), "");
});

test("a page's refusal is said in the page's language, from its key", () => {
  const answer = refused("storage", "model_not_saved", { name: "Garde" });
  assert.equal(answer.error.message, "« Garde » n'est pas enregistré comme modèle : le stockage du navigateur refuse l'écriture (plein ou indisponible).");
  globalThis.document = { documentElement: { lang: "en" } };
  assert.equal(plain(said(answer)), "“Garde” is not saved as a model: the browser's storage refuses the write (full or unavailable).");
  assert.equal(said({ ok: false, error: NO_PI }), "Aldric has no I.P. left: cannot start an action.");
  assert.equal(said({ ok: true }), "");
});

test("the start of a round: a die refused is said under it, anything else on the message line", async () => {
  const session = new Session({});
  const rolls = { ok: false, error: { code: "bad_value", key: "range", params: { field: "rolls.aldric", low: 1, high: 6 },
    message: "", fields: [{ field: "rolls.aldric", key: "range", params: { low: 1, high: 6 } }] } };
  const answers = [rolls, { ok: false, error: { code: "round_in_progress", key: "round_in_progress", params: { round: 2 }, message: "" } }];
  session.attach({ call: async () => answers.shift() });
  await session.open();
  session.board = BOARD;
  const dice = [];
  const view = { render() {}, bindStart(handler) { this.start = handler; }, dieErrors: (errors) => dice.push(errors), notNumbers: () => [] };
  const status = statusLine();
  const nav = { on() {}, at: () => true, shows: () => true, go() {} };
  new RoundController({ session, status, nav, dispatch: new Dispatcher(session, nav) }, view);
  await view.start({ rolls: { aldric: 9 } });
  await view.start({ rolls: { aldric: 3 } });
  assert.deepEqual(dice.filter((errors) => errors.size).map((errors) => [...errors.keys()]), [["aldric"]]);
  assert.deepEqual(status.said, ["Le tour 2 est en cours : terminez-le d'abord."]);
});

test("the start of a round: letters typed into a die are said under it, nothing sent", async () => {
  const session = new Session({});
  let sent = 0;
  session.attach({ call: async () => { sent += 1; return { ok: true }; } });
  await session.open();
  session.board = BOARD;
  const sentAtOpen = sent;
  const dice = [];
  const view = { render() {}, bindStart(handler) { this.start = handler; }, dieErrors: (errors) => dice.push(errors), notNumbers: () => ["aldric"] };
  const nav = { on() {}, at: () => true, shows: () => true, go() {} };
  new RoundController({ session, status: statusLine(), nav, dispatch: new Dispatcher(session, nav) }, view);
  await view.start({ rolls: {} });
  assert.deepEqual(dice.map((errors) => [...errors]), [[["aldric", "Dé : pas un nombre."]]]);
  assert.equal(sent, sentAtOpen);
});

test("a file, a link, the saved fight not opened: the page's refusal, the engine's inside, in today's words", () => {
  const tooLong = { code: "too_long", key: "too_long", params: { count: 40064, max: 12000 }, message: "" };
  const cases = [
    [refused("too_big", "file_too_big", { kb: 2101, max: 2000 }), "too_big",
      "Fichier trop gros : 2101 ko (au plus 2000 ko). Le combat en cours est intact."],
    [refused("unreadable", "file_unreadable"), "unreadable", "Ce fichier n'a pas pu être lu. Le combat en cours est intact."],
    [refused("unreadable", "link_damaged"), "unreadable", "Lien de partage refusé : le lien est tronqué ou abîmé. Le combat en cours est intact."],
    [refused("too_big", "link_too_big"), "too_big",
      "Lien de partage refusé : le combat qu'il contient est trop gros. Le combat en cours est intact."],
    [unopened("link_refused", tooLong), "unreadable",
      "Lien de partage refusé : Combat trop long : 40064 commandes (au plus 12000, pour qu'il se rejoue vite). Le combat en cours est intact."],
    [unopened("file_refused", tooLong), "unreadable",
      "Fichier refusé : Combat trop long : 40064 commandes (au plus 12000, pour qu'il se rejoue vite). Le combat en cours est intact."],
    [unopened("save_unreadable", { code: "newer_format", key: "newer_format", params: {} }), "unreadable",
      `La sauvegarde n'a pas pu être relue (${fr.refusals.newer_format}) : elle est mise de côté (menu Partie), un nouveau combat commence.`],
    [refused("read_only", "read_only_link"), "read_only", fr.refusals.read_only_link],
    [refused("too_many_fighters", "too_many_copies", { max: 64, room: 2 }), "too_many_fighters",
      "Au plus 64 combattants dans un combat : on peut encore en ajouter 2."],
  ];
  for (const [answer, code, words] of cases) {
    assertShape(answer, code, answer.error.key);
    assert.equal(answer.error.message, words);
    assert.equal(plain(said(answer)), words); // the page says what the engine's French says
  }
  assert.deepEqual(cases[4][0].error.params, { refused: { key: "too_long", params: tooLong.params } });
  globalThis.document = { documentElement: { lang: "en" } };
  assert.equal(plain(said(cases[4][0])),
    "Share link refused: Fight too long: 40064 commands (at most 12000, so that it replays quickly). The current fight is untouched.");
});

test("the saved fight unreadable at start, taps dropped: one line, the refusal then the dropped taps", () => {
  const status = statusLine();
  status.refused(unopened("save_unreadable_not_kept", { code: "newer_format", key: "newer_format", params: {} }), fr.queueDropped);
  assert.equal(status.said.length, 1);
  assert.match(status.said[0], /^La sauvegarde n'a pas pu être relue \(.*\) et le stockage du navigateur refuse de la mettre de côté/);
  assert.ok(status.said[0].endsWith(` ${fr.queueDropped}`));
  status.refused(null, fr.queueDropped); // nothing refused: nothing said
  assert.equal(status.said.length, 1);
});

// The list of fights' screen with a list of the test's own (`result` its every answer).
function fightsScreen(result) {
  const fights = Object.create(FightsController.prototype);
  const notes = [];
  const status = statusLine();
  fights.list = { rename: async () => result, importList: async () => result };
  fights.view = { note: (text) => notes.push(text), refusedName: () => true };
  fights.render = () => undefined;
  fights.parts = { status, session: {} };
  return { fights, notes, status };
}

test("a fight's name refused by the engine: its refusal, said under the list, the field kept", async () => {
  for (const [key, params] of [["text_length", { field: "name", min: 1, max: 60 }], ["required", { field: "name" }],
    ["invisible", { field: "name" }], ["half_character", { field: "name" }]]) {
    const { error } = refused("bad_value", key, params); // as Table.name answers
    const result = { ok: false, why: "badName", error };
    assertShape(listRefusal(result), "bad_value", key);
    const { fights, notes, status } = fightsScreen(result);
    await fights.rename("f1", "x");
    assert.deepEqual(notes, [said({ ok: false, error })]);
    assert.ok(notes[0].length > 0);
    assert.deepEqual(status.said, []);
  }
});

test("a file of fights partly or not at all added: the storage's refusal said on the message line, with what was done", async () => {
  const file = JSON.stringify({ app: "riposte", kind: "fights", version: 1, fights: [] });
  const left = { ok: true, why: "full", added: ["Embuscade 1"], left: ["Embuscade 2", "Embuscade 3"], refused: [] };
  let screen = fightsScreen(left);
  assert.equal(await screen.fights.importList(file), true);
  assert.deepEqual(screen.status.said.map(plain),
    ["1 combat ajouté à la liste ; 2 non ajoutés, à partir de « Embuscade 2 » : le stockage du navigateur est plein. Le combat ouvert n'a pas changé."]);
  screen = fightsScreen({ ...left, why: "unavailable" });
  await screen.fights.importList(file);
  assert.match(plain(screen.status.said[0]), /: le stockage du navigateur refuse l'écriture\. Le combat ouvert/);
  screen = fightsScreen({ ok: false, why: "full", added: [], left: ["a", "b"], refused: ["c"] });
  await screen.fights.importList(file);
  assert.deepEqual(screen.status.said, [`${fr.refusals.fights_full} Aucun des 3 combats du fichier n'a été ajouté.`]);
});

test("a player's message the game master refused: one refusal on the player's phone, the wire's message as it was", () => {
  const cases = [
    [{ t: "refused", reason: "gm_refused" }, "live_gm_refused", "Refusé par le MJ : le MJ ne l'a pas appliqué."],
    [{ t: "refused", reason: "shape" }, "live_shape", "Refusé par le MJ : message inattendu."],
    [{ t: "refused", reason: "taken", pj: "lyra", holder: { number: 2 } }, "live_taken", "Refusé par le MJ : un autre joueur joue déjà ce personnage."],
    [{ t: "refused", reason: "engine", error: NO_PI }, "live_refused", `Refusé par le MJ : ${NO_PI.message}`],
    [{ t: "refused", reason: "engine" }, "live_refused", "Refusé par le MJ : "], // no refusal of the engine's inside
    [{ t: "refused", reason: "later" }, "live_refused", "Refusé par le MJ : later"], // a reason of another version, as it came
  ];
  for (const [message, key, words] of cases) {
    const answer = gmRefusal(message);
    assertShape(answer, "live", key);
    assert.equal(answer.error.message, words);
    assert.equal(plain(said(answer)), words);
  }
  assert.deepEqual(gmRefusal(cases[3][0]).error.params, { refused: { key: "no_pi", params: { name: "Aldric" } } });
  globalThis.document = { documentElement: { lang: "en" } };
  assert.equal(plain(said(gmRefusal(cases[0][0]))), "Refused by the GM: the GM did not apply it.");
  assert.equal(plain(said(gmRefusal(cases[3][0]))), "Refused by the GM: Aldric has no I.P. left: cannot start an action.");
});
