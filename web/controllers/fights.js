// Several fights: a game master prepares encounters at home and opens them
// at the table. What a tap on the list does and what the page then says; every change of
// the list is one transaction of web/infra/fight-list.js (one at a time, in order, nothing
// lost whatever write fails, said as it happened), which this controller words.
import { download } from "../infra/files.js";
import { FightList } from "../infra/fight-list.js";
import { isolate } from "../infra/dom.js";
import { keepStorage, sevenDays, storageState } from "../infra/lasting.js";
import { painted } from "../infra/later.js";
import { clause, t } from "../infra/i18n.js";
import { refused, said, unwritten } from "../infra/refusals.js";
import * as store from "../infra/store.js";

const BUNDLE = "fights"; // the `kind` of a file holding the whole list

// The reasons of a change of the list not written (web/infra/fight-list.js: its `why`).
const LIST = Object.freeze({ full: "fights_full", unavailable: "fights_unavailable", held: "fights_held" });
// The reasons of the fights of a file left out of the list once the storage refused a write.
const LEFT = Object.freeze({ full: "fights_left_full", unavailable: "fights_left_unavailable" });

// Why a change of the list did not happen (fight-list.js `why`), as a refusal: the
// engine's (`refused`), the page's own (a read-only tab, a fight no longer stored) or a
// status of the browser's storage, a name the engine refused (Table.name: its reason);
// null for what no button asks (deleting the open fight, restoring when nothing was
// deleted).
export function listRefusal(result) {
  if (result.why === "open" || result.why === "nothing") return null;
  if (result.why === "refused" || result.why === "badName") return { ok: false, error: result.error };
  if (result.why === "readOnly") return refused("read_only", "read_only");
  if (result.why === "missing") return refused("storage", "fight_missing");
  if (result.why === "stopped") return refused("stopped", "stopped");
  return unwritten(result.why, LIST);
}

export class FightsController {
  constructor(parts, view) {
    this.parts = parts;
    this.view = view;
    const { session } = parts;
    this.limits = null; // the engine's (Table.limits): a fight is named as a fighter is
    this.stale = false; // the list changed while not on screen
    session.limits().then((limits) => {
      this.limits = limits;
      view.limit(limits);
      // The engine answers: an earlier release's names that show nothing are named anew.
      this.list.mendNames().then((result) => {
        if (result.mended) this.render();
      });
    });
    this.list = new FightList({
      keys: store.keys,
      engine: { call: (request) => session.send(request), exclusive: (task) => session.exclusive(task) },
      words: { fightN: (n) => t("fightN", n), fightCopy: (name) => t("fightCopy", name),
        fightFound: (n) => t("fightFound", n), fightFoundOf: (name) => t("fightFoundOf", name) },
      blocked: () => (session.readOnly ? "readOnly" : session.held !== null ? "held" : null),
      nameMax: () => this.limits?.name ?? Infinity,
      progress: (work) => parts.status.work(work), // a list imported: how far, with « Arrêter »
      pace: painted, // a tap's date and summary written once its board is painted
    });
    view.bind({
      open: (id) => this.open(id),
      rename: (id, name) => this.rename(id, name),
      duplicate: (id) => this.duplicate(id),
      remove: (id) => this.remove(id),
      restore: () => this.restore(),
      exportAll: () => this.exportAll(),
      redraw: () => this.render(),
    });
    // The open fight's entry follows its saves: date of the last change, round, fighters,
    // written and drawn once the tap's frame is painted (web/infra/later.js), when the list
    // is on screen; else when it shows.
    // The first fight saved in a visit with a fighter in it asks the browser to keep the
    // site's storage (web/infra/lasting.js: not again within a week of a refusal).
    let asked = false;
    session.on("saved", (answer, text) => {
      this.list.touch(answer.board, text).then(() => this.refresh());
      if (asked || session.readOnly || !Object.keys(answer.board?.combatants ?? {}).length) return;
      asked = true;
      keepStorage(store).then(() => this.showStorage(), () => undefined);
    });
    parts.nav.on("menu", () => {
      if (this.stale) this.render();
      this.showStorage();
    });
    store.onFightsChange(() => this.list.reread().then(() => this.render()));
    session.on("words", () => { // drawn on every change, not on arrival (the menu's own); a note said in the other language goes
      this.view.note("");
      this.render();
      this.showStorage();
    });
  }

  get index() {
    return this.list.index;
  }

  // Before the saved fight is read (boot/start.js): the list read back (made on a first
  // visit, a switch cut short finished, fights found again listed); only the writing tab
  // writes. What it found is said.
  async prepare() {
    await store.fightStorage();
    if (store.lostFights()) this.view.lost();
    for (const { key, params } of await this.list.prepare(!this.parts.session.readOnly)) this.parts.status.message(t(key, ...params));
    this.render();
  }

  // Safari, not opened from the home screen, deletes what Riposte keeps after seven days
  // without a visit (docs/BROWSERS.md): the game master is told once, with a backup of
  // every fight to a file and its restore, each one tap.
  tellSevenDays() {
    if (!sevenDays() || store.sevenDaysTold() !== null || store.lostFights()) return; // the loss is said first
    store.saveSevenDaysTold(new Date().toISOString()); // not kept (storage refused): told again next visit
    this.view.sevenDays(true);
  }

  render() {
    this.stale = false;
    if (this.list.index) this.view.render(this.list.index);
  }

  // The list drawn again if it is on screen, else marked to be when it shows (a tap on the
  // board does not draw a list nobody sees).
  refresh() {
    if (this.parts.nav.shows("menu")) this.render();
    else this.stale = true;
  }

  // Why a change of the list did not happen, said on the message line (followed by `then`).
  why(result, then = "") {
    this.parts.status.refused(listRefusal(result), then);
    if (result.shown) this.parts.session.take(result.shown, true); // the fight it was on, shown again
  }

  // Open another fight: the list's `id`, or a new one from `request` (a load of a file or
  // a link, or a new fight) named `name`. The open fight stays in the list, as the engine
  // has it. Resolves true when the other fight is open.
  async switchTo(id, request, name = null) {
    const from = this.list.index?.current ?? null;
    const result = await this.list.switchTo({ id, request, name });
    if (!result.ok) {
      this.why(result);
      this.render();
      return false;
    }
    if (result.shown) this.parts.session.take(result.shown, true);
    this.parts.session.switched(this.list.index?.current ?? null, from);
    if (result.unsaved) this.parts.status.report(result.unsaved);
    this.render();
    return true;
  }

  async open(id) {
    const name = this.list.entry(id)?.name;
    const since = this.parts.nav.moves;
    if (await this.switchTo(id, null)) {
      this.view.note(t("fightOpened", isolate(name)));
      this.parts.nav.goUnlessMoved("board", since);
    }
  }

  async rename(id, typed) {
    const result = await this.list.rename(id, typed);
    if (result.ok) this.view.note(t("fightRenamed", isolate(result.name)));
    else if (result.why === "badName") {
      // Refused by the engine (too long, blank, showing nothing, half a character): said
      // under the list, the field kept as typed.
      this.view.note(said(listRefusal(result)));
      if (this.view.refusedName(id)) return;
    } else this.why(result);
    this.render();
  }

  async duplicate(id) {
    const result = await this.list.duplicate(id);
    this.render();
    if (result.ok) this.view.note(t("fightDuplicated", isolate(result.name)));
    else this.why(result);
  }

  // Deleting asks nothing: each deleted fight can be brought back (restore), the last first.
  async remove(id) {
    const result = await this.list.remove(id);
    this.render();
    if (result.ok) this.view.note(t("fightRemoved", isolate(result.name)), t("fightRestore"));
    else this.why(result);
  }

  async restore() {
    const result = await this.list.restore();
    this.render();
    if (result.ok) this.view.note(t("fightRestored", isolate(result.name)), result.next === null ? null : t("fightRestoreOf", isolate(result.next)));
    else this.why(result);
  }

  // The whole list in one file: each fight's save text as it is (the open one as the
  // engine exports it now), with its name and dates.
  async exportAll() {
    const fights = await this.list.exportAll();
    const stamp = new Date().toISOString().slice(0, 16).replace(/[T:]/g, "-");
    download(`riposte-combats-${stamp}.json`, JSON.stringify({ app: "riposte", kind: BUNDLE, version: 1, fights }));
    store.saveBackup(new Date().toISOString()); // a convenience: a write that fails is not said
    this.showStorage();
  }

  // What the browser keeps, whether it keeps it for good, the last backup to a file.
  async showStorage() {
    this.view.storage({ ...(await storageState()), backup: store.lastBackup() });
  }

  // A file holding a whole list, if `text` is one (else null): each fight the engine can
  // read goes into the list, none is opened, the open fight is untouched. What was added
  // and what was not is said exactly.
  async importList(text) {
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      return null;
    }
    if (!data || data.app !== "riposte" || data.kind !== BUNDLE || !Array.isArray(data.fights)) return null;
    const result = await this.list.importList(data.fights);
    this.render();
    const { status } = this.parts;
    if (!result.added) this.why(result); // refused before any fight was read
    else if (!result.ok) this.why(result, t("fightsNoneImported", result.left.length + result.refused.length));
    else {
      const why = result.left.length ? clause(said(unwritten(result.why, LEFT))) : "";
      const left = why ? t("fightsNotImported", result.left.length, isolate(result.left[0]), why) : "";
      status.message(t("fightsImported", result.added.length, result.refused.length, left));
    }
    return true;
  }
}
