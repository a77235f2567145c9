// The start: paint the saved board at once, start the engine (after the service worker
// holds the site, on a first visit), load the save (or set it aside), then let the page
// be tapped. Resolves the engine, or null when it could not start.
import { snapshotWhenIdle, startEngine } from "../engine.js";
import { refusal, t } from "../i18n.js";
import { controlled, firstVisit, registerOffline } from "../offline.js";
import * as store from "../store.js";

export async function start({ session, status }, board) {
  const saved = store.load();
  if (saved.board?.order && saved.board.combatants) {
    try {
      board.paint(saved.board);
      performance.mark("riposte:saved-board");
    } catch {
      /* a board from another version: the engine's own comes in a moment */
    }
  }
  const registration = await registerOffline({ onUpdate: (apply) => status.offerUpdate(apply) }).catch(() => null);
  if (firstVisit(registration)) {
    status.setEngine("loading", t("firstVisit"));
    await controlled(registration);
  }
  status.setEngine("loading", t("loading"));
  let engine;
  try {
    engine = await startEngine();
  } catch (error) {
    status.setEngine("error", t("engineFailed", error?.message ?? error));
    return null;
  }
  session.attach(engine);
  // Reading the saved fight is no change: done in a tab that follows another one too.
  let answer = await session.ask({ op: "load", text: saved.text });
  if (saved.unavailable) status.message(t("storageUnavailable"));
  let held = false;
  if (!answer.ok) {
    const why = refusal(answer.error);
    answer = await session.ask({ op: "load", text: null });
    if (store.keepAside(saved.text) === "ok") status.message(t("saveUnreadable", why));
    else {
      // Not set aside (storage full or unavailable): said so, and nothing overwrites it
      // (not the empty fight now, not the next command) until it is downloaded or given up.
      session.hold(saved.text);
      held = true;
      status.message(t("saveUnreadableNotKept", why));
    }
  }
  const stored = session.take(answer);
  if (held) status.offerHeld();
  else status.report(stored);
  status.setEngine("ready", t("ready"));
  performance.mark("riposte:ready");
  status.mark("boot", answer.boot ?? "cold");
  // In the background, once the page is idle: a second Python boots in its own worker.
  if (answer.boot !== "restored") snapshotWhenIdle().then((made) => status.mark("snapshot", made.ok ? "made" : "failed"));
  return engine;
}
