// Several fights (issue #13): a game master prepares encounters at home and opens them at
// the table. The open fight is the engine's, saved where it always was; the others wait in
// the browser's storage (store.js, docs/RELIABILITY.md "Several fights"). Opening another
// fight, a new one, a file or a link never destroys the open one: it goes back into the
// list first, and if anything on the way fails (storage full, a save refused), the fight
// that was open stays open and nothing is lost.
import { download } from "../infra/files.js";
import { reason, refusal, t } from "../infra/i18n.js";
import * as store from "../infra/store.js";

const now = () => new Date().toISOString();
const BUNDLE = "fights"; // the `kind` of a file holding the whole list

export class FightsController {
  constructor(parts, view) {
    this.parts = parts;
    this.view = view;
    this.index = null;
    this.deleted = null; // the last fight deleted: { entry, text, at }, until undone or replaced
    const { session } = parts;
    this.limits = null; // the engine's (Table.limits): a fight is named as a fighter is
    session.limits().then((limits) => {
      this.limits = limits;
      view.limit(limits);
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
    // The open fight's entry follows its saves: date of the last change, round, fighters.
    session.on("saved", () => this.touch());
    store.onFightsChange(() => {
      this.index = store.fights() ?? this.index;
      this.render();
    });
    session.on("words", () => this.render()); // drawn on every change, not on arrival (the menu's own)
  }

  // Before the saved fight is read (boot/start.js): the list made from the open
  // fight on a first visit after the update (migration), and a switch that was cut short
  // (the tab closed half-way) finished. Only the writing tab writes.
  prepare() {
    this.made();
    this.render();
  }

  made() {
    const index = store.fights();
    if (index) {
      this.index = index;
      const left = store.fightText(index.current);
      if (left !== null && !this.parts.session.readOnly) {
        // The open fight was being swapped: its own text is the truth, not the slot's.
        if (store.save(left) === "ok") {
          store.saveCheckpoint(null);
          store.dropFight(index.current);
        }
      }
      return;
    }
    const saved = store.load();
    const board = saved.board;
    this.index = {
      version: 1, current: "f1", next: 2,
      fights: [{ id: "f1", name: t("fightN", 1), created: now(), updated: now(),
        round: board?.round ?? 0, fighters: board?.combatants ? Object.keys(board.combatants).length : 0 }],
    };
    if (!this.parts.session.readOnly) store.saveFights(this.index);
  }

  entry(id) {
    return this.index?.fights.find((f) => f.id === id) ?? null;
  }

  render() {
    if (this.index) this.view.render(this.index);
  }

  refused() {
    const { session, status } = this.parts;
    if (session.readOnly) status.message(reason("read_only"));
    else if (session.held !== null) status.message(t("fightsHeld"));
    else return false;
    return true;
  }

  // Write the list; says plainly when storage refused.
  write(index) {
    const stored = store.saveFights(index);
    if (stored !== "ok") this.parts.status.message(t(stored === "full" ? "fightsFull" : "fightsUnavailable"));
    return stored === "ok";
  }

  touch() {
    const { session } = this.parts;
    const entry = this.entry(this.index?.current);
    if (!entry || !session.board) return;
    Object.assign(entry, { updated: now(), round: session.board.round ?? 0, fighters: Object.keys(session.board.combatants).length });
    store.saveFights(this.index); // the list's dates only: the fight itself is reported by its own write
    this.render();
  }

  // Open another fight: `request` is what the engine opens (a load of a save, or a new
  // fight); `id` the fight of the list, or null for a new entry named `name`. The open
  // fight goes into the list first. Resolves true when the other fight is open.
  async switchTo(id, request, name = null) {
    const { session, status } = this.parts;
    if (this.refused()) return false;
    const before = this.index;
    const current = before.current;
    const text = store.load().text;
    // 1. The open fight into the list (nothing else has changed if that fails).
    if (text !== null) {
      const kept = store.saveFightText(current, text);
      if (kept !== "ok") {
        status.message(t(kept === "full" ? "fightsFull" : "fightsUnavailable"));
        return false;
      }
    }
    // 2. The engine opens the other one.
    const answer = await session.call(request);
    if (!answer.ok) {
      store.dropFight(current);
      status.message(refusal(answer.error));
      return false;
    }
    // 3. The list says which is open; 4. the fight opened is written where the open one lives.
    const target = id ?? `f${before.next ?? before.fights.length + 1}`;
    const entries = id ? before.fights : [...before.fights, { id: target, name: name ?? t("fightN", before.next ?? 1), created: now(), updated: now(), round: 0, fighters: 0 }];
    const after = { ...before, current: target, next: id ? before.next : (before.next ?? before.fights.length + 1) + 1, fights: entries.map((f) => ({ ...f })) };
    let stored = this.write(after) ? "ok" : "refused";
    if (stored === "ok") {
      this.index = after;
      store.saveCheckpoint(null); // the checkpoint of the fight that was open
      stored = session.take(answer);
    }
    if (stored !== "ok" && stored !== null) {
      // Back as it was: the fight that was open, open again (its text was never overwritten
      // unless this write succeeded, and then it did not get here).
      this.index = before;
      store.saveFights(before);
      if (text !== null) {
        const back = await session.call({ op: "load", text });
        if (back.ok) session.take(back);
      }
      store.dropFight(current);
      if (stored !== "refused") status.message(t(stored === "full" ? "fightsFull" : "fightsUnavailable"));
      this.render();
      return false;
    }
    if (id) store.dropFight(id);
    this.render();
    return true;
  }

  async open(id) {
    if (id === this.index.current || this.refused()) return;
    const text = store.fightText(id);
    const entry = this.entry(id);
    if (text === null || !entry) {
      this.parts.status.message(t("fightMissing"));
      return;
    }
    if (await this.switchTo(id, { op: "load", text })) {
      this.view.note(t("fightOpened", entry.name));
      this.parts.nav.go("board");
    }
  }

  rename(id, typed) {
    if (this.refused()) return;
    const name = String(typed ?? "").trim();
    const entry = this.entry(id);
    if (!entry) return;
    if (name.length < 1 || (this.limits && name.length > this.limits.name)) {
      this.view.note(t("fightBadName"));
      return;
    }
    const after = { ...this.index, fights: this.index.fights.map((f) => (f.id === id ? { ...f, name } : f)) };
    if (this.write(after)) {
      this.index = after;
      this.view.note(t("fightRenamed", name));
    }
    this.render();
  }

  async duplicate(id) {
    if (this.refused()) return;
    const entry = this.entry(id);
    const text = id === this.index.current ? store.load().text : store.fightText(id);
    if (!entry || text === null) return;
    const copy = `f${this.index.next}`;
    const kept = store.saveFightText(copy, text);
    if (kept !== "ok") {
      this.parts.status.message(t(kept === "full" ? "fightsFull" : "fightsUnavailable"));
      return;
    }
    const name = t("fightCopy", entry.name).slice(0, this.limits?.name);
    const after = { ...this.index, next: this.index.next + 1, fights: [...this.index.fights, { ...entry, id: copy, name, created: now() }] };
    if (!this.write(after)) {
      store.dropFight(copy);
      return;
    }
    this.index = after;
    this.render();
    this.view.note(t("fightDuplicated", name));
  }

  remove(id) {
    if (id === this.index.current || this.refused()) return;
    const entry = this.entry(id);
    if (!entry) return;
    const after = { ...this.index, fights: this.index.fights.filter((f) => f.id !== id) };
    if (!this.write(after)) return;
    this.deleted = { entry, text: store.fightText(id), at: this.index.fights.indexOf(entry) };
    this.index = after;
    store.dropFight(id);
    this.render();
    this.view.note(t("fightRemoved", entry.name), true);
  }

  restore() {
    if (!this.deleted || this.refused()) return;
    const { entry, text, at } = this.deleted;
    if (text !== null) {
      const kept = store.saveFightText(entry.id, text);
      if (kept !== "ok") {
        this.parts.status.message(t(kept === "full" ? "fightsFull" : "fightsUnavailable"));
        return;
      }
    }
    const fights = [...this.index.fights];
    fights.splice(at, 0, entry);
    const after = { ...this.index, fights };
    if (!this.write(after)) return;
    this.index = after;
    this.deleted = null;
    this.render();
    this.view.note(t("fightRestored", entry.name));
  }

  // The whole list in one file: each fight's save text as it is (the open one as the
  // engine exports it now), with its name and dates.
  async exportAll() {
    const { session } = this.parts;
    const open = (await session.call({ op: "export", board: true })).text;
    const fights = this.index.fights.map((f) => ({ ...f, save: f.id === this.index.current ? open : store.fightText(f.id) }))
      .filter((f) => typeof f.save === "string");
    const stamp = now().slice(0, 16).replace(/[T:]/g, "-");
    download(`riposte-combats-${stamp}.json`, JSON.stringify({ app: "riposte", kind: BUNDLE, version: 1, fights }));
  }

  // A file holding a whole list, if `text` is one (else null): each fight the engine can
  // read goes into the list, none is opened, the open fight is untouched.
  async importList(text) {
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      return null;
    }
    if (!data || data.app !== "riposte" || data.kind !== BUNDLE || !Array.isArray(data.fights)) return null;
    if (this.refused()) return true;
    const { session, status } = this.parts;
    let added = 0;
    let refusedCount = 0;
    for (const fight of data.fights) {
      const seen = typeof fight?.save === "string" ? await session.call({ op: "inspect", text: fight.save }) : { ok: false };
      if (!seen.ok) {
        refusedCount++;
        continue;
      }
      const id = `f${this.index.next}`;
      const kept = store.saveFightText(id, fight.save);
      if (kept !== "ok") {
        status.message(t("fightsImportStopped", added, t(kept === "full" ? "fightsFull" : "fightsUnavailable")));
        this.render();
        return true;
      }
      const name = typeof fight.name === "string" && fight.name.trim() ? fight.name.trim().slice(0, this.limits?.name) : t("fightN", this.index.next);
      const updated = typeof fight.updated === "string" ? fight.updated : now();
      const after = { ...this.index, next: this.index.next + 1, fights: [...this.index.fights,
        { id, name, created: now(), updated, round: seen.summary.round, fighters: seen.summary.fighters.length }] };
      if (!this.write(after)) {
        store.dropFight(id);
        break;
      }
      this.index = after;
      added++;
    }
    this.render();
    status.message(t("fightsImported", added, refusedCount));
    return true;
  }
}
