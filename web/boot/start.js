// The start: paint the saved board at once (it takes taps from then on: they wait in the
// session's queue), wait for the engine web/boot/early.js started before this module was even
// fetched (on a first visit too: the service worker is registered once it is up), load the save (or set it aside), apply the queued taps in
// order, then let the whole page be tapped. Resolves the engine, or null when it could
// not start (or was not to start).
import { whenIdle } from "../infra/later.js";
import { within } from "./engine.js";
import { TEST_BUILD } from "../infra/hooks.js";
import { t } from "../infra/i18n.js";
import { unopened } from "../infra/refusals.js";
import { firstVisit, keepStdlib, registerOffline } from "./offline.js";
import * as store from "../infra/store.js";

// Why the engine did not start, in the page's words.
function why(error) {
  if (error?.reason === "timeout") return t("startTimeout", error.detail);
  if (error?.reason === "missing") return t("startMissing", error.detail.file, error.detail.status);
  return error?.detail ?? error?.message ?? String(error);
}

function fillWhenIdle(session) {
  whenIdle(async () => {
    const answer = await session.call({ op: "fill" }).catch(() => null);
    if (answer?.left > 0) fillWhenIdle(session);
  }, { timeout: 2000 });
}

// A saved board painted (it takes taps from then on, while the engine starts): true when
// it could be.
function paint(board, saved) {
  if (!saved?.order || !saved.combatants) return false;
  try {
    board.paint(saved);
    if (TEST_BUILD) performance.mark("riposte:saved-board");
    return true;
  } catch {
    return false; // a board from another version: the engine's own comes in a moment
  }
}

// The saved board, painted before anything else is read (the copy store.js keeps of the
// open fight's last board), and the engine said loading in the page's language. Returns
// what start() checks it against: { painted, board, matches(text) }.
export function paintSaved({ status }, board) {
  store.onNotice(({ key, params }) => status.storageNote(t(key, ...params)));
  const first = store.firstBoard();
  const painted = paint(board, first.board);
  status.setEngine("loading", t("loading"), painted);
  return { ...first, painted };
}

export async function start({ session, status }, board, launched, cached) {
  const saved = await store.load();
  // The board painted is the saved fight's, or it is not (a copy older than the fight,
  // which a switch or another tab wrote): the fight's own board then, and the taps made
  // on the other one dropped.
  const same = cached.painted && cached.matches(saved.text);
  if (cached.painted && !same) session.discard();
  const shown = same ? cached.board : store.boardOf(saved.text);
  const early = same || paint(board, shown);
  // What the painted board lets one do meanwhile: pass or end the round, or nothing when
  // the round is over (the next one needs the engine).
  const meanwhile = shown?.round_over ? "loading" : "loadingEarly";
  const offline = () => registerOffline({ onUpdate: (apply) => status.offerUpdate(apply) }).catch(() => null);
  const first = firstVisit();
  // A repeat visit looks for a new version at once; a first visit registers the service
  // worker once the engine is up, so that its precache finds the files the page has just
  // downloaded in the HTTP cache (web/boot/offline.js) instead of competing with the start.
  if (!first) offline();
  status.setEngine("loading", t(early ? meanwhile : first ? "firstVisit" : "loading"), early);
  let engine;
  try {
    // Too long: the reason and the reload button, while the start goes on.
    engine = await within(launched, (error) => status.setEngine("error", t("engineLate", why(error))));
  } catch (error) {
    // Said in the page's words, with a reload button; the save is not touched (nothing
    // was loaded, nothing is written), the taps made meanwhile are dropped.
    session.discard();
    status.setEngine("error", t("engineFailed", why(error)));
    return null;
  }
  session.attach(engine);
  engine.onWork((work) => status.work(work)); // long work (a big fight opening) shows how far it is
  if (status.root.dataset.engine === "error") status.setEngine("loading", t("loading")); // late, but here
  // With the checkpoint kept beside the log, if any: the engine replays only what follows.
  // Reading the saved fight is no change: done in a tab that follows another one too.
  // `kept`: this is the autosave; when the engine would write the same text, it does not
  // send it back (engine/table.py): nothing to write, half the answer.
  let answer = await session.send({ op: "load", text: saved.text, checkpoint: await store.checkpoint(), kept: true });
  if (saved.unavailable) status.report("unavailable");
  let held = false;
  if (!answer.ok) {
    const { error } = answer;
    const dropped = session.queue.length > 0;
    session.discard(); // taps made on a board that is not the fight now
    answer = await session.send({ op: "load", text: null });
    // Not set aside (storage full or unavailable): said so, and nothing overwrites it
    // (not the empty fight now, not the next command) until it is downloaded or given up.
    held = (await store.keepAside(saved.text)) !== "ok";
    if (held) session.hold(saved.text);
    status.refused(unopened(held ? "save_unreadable_not_kept" : "save_unreadable", error), dropped ? t("queueDropped") : "");
  }
  const stored = session.take(answer);
  if (answer.ok && !answer.save && !held) store.cacheBoard(answer.board, saved.text); // the next start paints it at once
  if (held) status.offerHeld();
  else status.report(stored);
  if (TEST_BUILD && session.queue.length) performance.mark("riposte:queued", { detail: session.queue.length });
  await session.open(); // the taps made while the engine started, in order
  status.setEngine("ready", t("ready"));
  if (TEST_BUILD) performance.mark("riposte:ready");
  status.mark("boot", answer.boot ?? "cold");
  if (first) whenIdle(offline, { timeout: 1000 });
  // Then the rest of the standard library, kept by the service worker for offline imports.
  whenIdle(() => keepStdlib().then((kept) => status.mark("stdlib", kept ? "kept" : "not kept"), () => status.mark("stdlib", "not kept")),
    { timeout: 3000 });
  // When idle, the checkpoints before the restored one are rebuilt, a few at a time.
  fillWhenIdle(session);
  // A cold boot's worker made the memory snapshot for the next visit (web/boot/snapshot.js).
  if (answer.boot !== "restored") engine.snapshot.then((made) => status.mark("snapshot", made.ok ? "made" : "failed"));
  return engine;
}
