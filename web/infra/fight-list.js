// The list of fights: where each fight is kept, and every change of the
// list as one transaction. No DOM: the storage (a Keys, store.js) and the engine (its
// `call`, and `exclusive`, which keeps other changes away while a switch runs) are passed in,
// so the very same code runs in the page (controllers/fights.js) and under the Hypothesis
// state machine of tests/test_fight_list.py (through tests/fight_list_driver.mjs, in Node).
//
// Storage (docs/RELIABILITY.md, "Several fights"): the open fight's save text in
// riposte.encounter (and its checkpoint beside it), as before the list existed (the storage
// passed in reads it as the text its records compose to, and writes it whole:
// web/infra/open-fight.js); the list
// in riposte.fights, {"version": 1, "current", "next", "fights": [{"id", "name",
// "created", "updated", "round", "fighters"}]}; each other fight's save text in
// riposte.fight.<id>.
//
// What holds:
// - One transaction at a time, in the order asked (`run`): open, new, a file, a link,
//   import, duplicate, rename, delete, undo a delete, and the list's dates after a tap.
// - Each writes the texts it adds first, then the list once (the commit), then drops what
//   the list no longer names. A write refused before the commit: what it wrote is dropped
//   and nothing has changed, the engine included (`revert`: the fight its board shows,
//   with its undo). Refused at the commit: the same. The result says what happened.
// - A tab closed at any point leaves storage that `prepare` reads back with nothing lost:
//   a switch cut short is finished only when the open fight's text is safe elsewhere,
//   fights kept in storage that the list does not name are listed again, an unreadable
//   list is set aside and made again from what storage holds; ids are never given twice.
// - A switch stores the engine's fight, not storage's copy of it (a write that failed
//   before leaves storage behind the board).
import { readable } from "./open-fight.js";
import { CHECKPOINT, FOUND_NAMES, KEY as OPEN, boardOf } from "./store.js";

const INDEX = "riposte.fights";
const INDEX_ASIDE = "riposte.fights.unreadable";
const FIGHT = "riposte.fight.";
const DATE_MAX = 40; // an ISO date is 24: a longer "date" is not one (a 3 MB `updated`)
const ID = /^f([1-9][0-9]{0,8})$/;

// The number of an id ("f12" -> 12), 0 for anything else.
const number = (id) => Number(ID.exec(String(id))?.[1] ?? 0);
// An integer from 0 to `high`, else 0.
const count = (value, high) => (Number.isInteger(value) && value >= 0 && value <= high ? value : 0);

// A name as the list keeps it: text, trimmed, at most `max` characters (the engine's limit
// of a fighter's name, Table.limits: a fight is named as a fighter is), or null.
function cleanName(value, max) {
  if (typeof value !== "string") return null;
  const name = Array.from(value.trim()).slice(0, max).join("").trim();
  return name || null;
}

// `word(name)` (a copy's name, a found fight's) within `max` characters: the name is
// shortened, never the word that says what it is.
function named(word, name, max) {
  const room = max - Array.from(word("")).length;
  return cleanName(word(Array.from(name).slice(0, Math.max(1, room)).join("").trim()), max);
}

// A date as the list keeps it, or null: an ISO date the browser reads.
function cleanDate(value) {
  return typeof value === "string" && value.length <= DATE_MAX && !Number.isNaN(Date.parse(value)) ? value : null;
}

// Round and fighters, from a board (the engine's answer) or a save's board.
function summaryOf(board) {
  const fighters = board?.combatants && typeof board.combatants === "object" ? Object.keys(board.combatants).length : 0;
  return { round: count(board?.round, 1e6), fighters: count(fighters, 1e6) };
}

// Two ISO dates (UTC) within the same minute: the same minute wherever the list is read
// (every time zone is whole minutes off UTC).
function sameMinute(a, b) {
  return typeof a === "string" && typeof b === "string" && a.length >= 16 && a.slice(0, 16) === b.slice(0, 16) && a[16] === ":";
}

// How often a list imported says how far it is (ms).
const PROGRESS_EVERY = 100;

// told(done): `progress` told { done, total } at most every PROGRESS_EVERY ms.
// Said once it has lasted SHOWN_AFTER ms, as the engine's long work is (web/boot/engine.js).
const SHOWN_AFTER = 500;

function progressEvery(progress, total) {
  const clock = () => globalThis.performance?.now() ?? Date.now();
  const began = clock();
  let last = -Infinity;
  return (done) => {
    const now = clock();
    if (now - began < SHOWN_AFTER || (now - last < PROGRESS_EVERY && done < total)) return;
    last = now;
    progress({ done, total });
  };
}

export class FightList {
  // keys: a Keys; engine: { call(request) -> answer, exclusive(task) }; words: { fightN(n),
  // fightCopy(name), fightFound(n), fightFoundOf(name) } (the names the list gives); now():
  // an ISO date; blocked(): why no change may be made now (read-only tab, a save held), or
  // null; nameMax(): the longest name (the engine's limits, once known).
  // progress({ done, total } or null): how far a list imported is. pace(): what `touch`
  // waits for before it writes (the page: the tap's frame painted), a promise or nothing.
  constructor({ keys, engine, words, now = () => new Date().toISOString(), blocked = () => null, nameMax = () => Infinity,
    progress = () => undefined, pace = () => undefined }) {
    Object.assign(this, { keys, engine, words, now, blocked, nameMax, progress, pace });
    this.index = null;
    this.deleted = []; // every fight deleted during this visit, the last one last: { entry, text, at }
    this.tail = Promise.resolve();
    this.running = false;
    this.long = false; // another fight opening or a list imported: work that may be stopped
    this.stopped = false; // and asked to stop: it ends changing nothing
  }

  // Stop the fight opening or the list being imported: it ends as if refused ("stopped"),
  // nothing changed, once the engine answers what it was asked (it cannot be interrupted).
  // True when there was such work to stop.
  stop() {
    if (!this.long) return false;
    this.stopped = true;
    return true;
  }

  // `task` as work that may be stopped (stop).
  async stoppable(task) {
    this.long = true;
    this.stopped = false;
    try {
      return await task();
    } finally {
      this.long = false;
    }
  }

  // One transaction at a time, in the order asked: `task` starts once the one before has
  // ended, whatever its outcome. Resolves what `task` resolves.
  run(task) {
    const done = this.tail.then(async () => {
      this.running = true;
      try {
        return await task();
      } finally {
        this.running = false;
      }
    });
    this.tail = done.catch(() => undefined);
    return done;
  }

  // A change of the list: refused at once (without waiting) when it may not be made now.
  change(task) {
    return this.run(() => {
      const why = this.blocked();
      return why ? { ok: false, why } : task();
    });
  }

  entry(id) {
    return this.index?.fights.find((f) => f.id === id) ?? null;
  }

  // An id never given before: past the list's `next`, every id it names, every fight kept
  // in storage (an index behind them never gives an id twice) and those in `taken`.
  async fresh(taken = []) {
    const ids = [...this.index.fights.map((f) => f.id), ...taken, ...(await this.keys.names(FIGHT)).map((k) => k.slice(FIGHT.length))];
    return `f${Math.max(this.index.next, ...ids.map((id) => number(id) + 1))}`;
  }

  // The list written: the commit of every transaction. "ok", "full" or "unavailable".
  async commit(index) {
    const stored = await this.keys.set(INDEX, JSON.stringify(index));
    if (stored === "ok") this.index = index;
    return stored;
  }

  // The list as another tab left it (read only: nothing written).
  async reread() {
    const index = readIndex((await this.keys.get(INDEX)).value, this.words, this.nameMax());
    if (index) this.index = index.index;
    return this.index;
  }

  // --- the start -----------------------------------------------------------------------
  // Before the saved fight is read (boot/start.js): the list read and checked, made from
  // the open fight on a first visit (a returning user's fight becomes "Combat 1", nothing
  // moved), a switch cut short finished, fights in storage that the list does not name
  // listed again. Writes only when `writable` (the tab that writes). Returns what to say:
  // [{ key, params }] (keys of web/lang: fightsListUnreadable, fightsFound).
  // `words` has two more names for these: fightFound(n), fightFoundOf(name).
  async prepare(writable) {
    const { keys } = this;
    const said = [];
    const stored = (await keys.get(INDEX)).value;
    const read = readIndex(stored, this.words, this.nameMax());
    const changed = (read?.changed ?? true) || read.index.switching !== undefined;
    if (stored !== null && read === null) {
      said.push({ key: "fightsListUnreadable", params: [] });
      if (writable) await keys.set(INDEX_ASIDE, stored); // set aside, never lost: its fights are found below
    }
    this.index = read?.index ?? { version: 1, current: null, next: 1, fights: [] };
    if (this.index.current === null) {
      // A first visit since the list exists, or a list unreadable: the open fight is its first entry.
      const id = await this.fresh();
      this.index = { ...this.index, current: id, next: number(id) + 1,
        fights: [...this.index.fights, this.newEntry(id, this.words.fightN(number(id)), summaryOf(boardOf((await keys.get(OPEN)).value)))] };
    }
    const { current } = this.index;
    const found = []; // texts in storage that the list does not name: { id, text, name }
    const left = (await keys.get(FIGHT + current)).value;
    const open = (await keys.get(OPEN)).value;
    const { switching } = this.index;
    if (switching !== undefined) delete this.index.switching; // read once: the start finishes or keeps
    if (left !== null && left !== open) {
      // A switch cut short (the list names the fight switched from, `switching`): the fight
      // opened was written under its id, maybe not yet where the open fight lives. That
      // text is the truth only if the open fight's key still holds the fight switched from,
      // kept under its own id too, and if it reads as JSON. Else (a left-over of an older
      // page, a hand edit, a save a tap wrote since) both are kept: nothing overwrites the
      // open fight.
      const finish = open === null || (switching !== undefined && (await keys.get(FIGHT + switching)).value === open && readable(left));
      if (!finish) found.push({ id: current, text: left, name: named(this.words.fightFoundOf, this.entry(current).name, this.nameMax()) });
      else if (writable && await keys.set(OPEN, left) === "ok") {
        await keys.remove(CHECKPOINT); // the checkpoint of the fight switched from
        await keys.remove(FIGHT + current);
      }
    } else if (left !== null && writable) await keys.remove(FIGHT + current); // the same text twice
    const ids = new Set(this.index.fights.map((f) => f.id));
    const names = foundNames((await keys.get(FOUND_NAMES)).value); // web/infra/store.js keepLeft
    for (const key of (await keys.names(FIGHT))) {
      const id = key.slice(FIGHT.length);
      const text = ids.has(id) ? null : (await keys.get(key)).value;
      const name = typeof names[key] === "string" ? named(this.words.fightFoundOf, names[key], this.nameMax()) : null;
      if (text !== null) found.push({ id, text, name });
    }
    if (!writable) return said;
    const base = this.index;
    const copies = []; // [the key's id, the id it is listed under] of fights given a new id
    for (const fight of found) {
      // Listed under its own id when it is a free one, else under a new id (written first).
      let id = fight.id;
      if (!ID.test(id) || ids.has(id)) {
        id = await this.fresh([...ids]);
        if (await keys.set(FIGHT + id, fight.text) !== "ok") continue; // left where it is: found again next time
        copies.push([fight.id, id]);
      }
      ids.add(id);
      const name = cleanName(fight.name, this.nameMax()) ?? this.words.fightFound(number(id));
      this.index = { ...this.index, next: Math.max(this.index.next, number(id) + 1),
        fights: [...this.index.fights, this.newEntry(id, name, summaryOf(boardOf(fight.text)))] };
    }
    if (!changed && this.index === base) return said;
    if (await this.commit(this.index) !== "ok") {
      for (const [, id] of copies) await keys.remove(FIGHT + id); // where they were, they are found again
      this.index = base;
      return said;
    }
    for (const [was] of copies) await keys.remove(FIGHT + was);
    if (Object.keys(names).length) await keys.remove(FOUND_NAMES); // given: the list names them now
    const listed = this.index.fights.length - base.fights.length;
    if (listed) said.push({ key: "fightsFound", params: [listed] });
    return said;
  }

  // The list without the mark of a switch under way.
  settled() {
    const { switching, ...index } = this.index;
    return index;
  }

  newEntry(id, name, summary) {
    const now = this.now();
    return { id, name, created: now, updated: now, ...summary };
  }

  // --- switching ---------------------------------------------------------------------
  // Another fight opens: the list's `id`, or a new one the engine makes from `request` (a
  // file or a link: a load; a new fight) named `name`. Resolves { ok, why, error, shown,
  // unsaved, name }: `shown`, the engine's answer for the fight now open (the one
  // opened, or the one before, back) when the board must be drawn again; `unsaved`: the
  // fight opened is listed and kept under its id but its write where the open fight lives
  // failed ("full"/"unavailable"); the next start opens it from there.
  switchTo({ id = null, request = null, name = null }) {
    return this.change(() => this.engine.exclusive(() => this.stoppable(() => this.switchNow(id, request, name))));
  }

  async switchNow(id, request, name) {
    const { keys } = this;
    const before = this.index;
    const from = before.current;
    if (id !== null) {
      const text = (await keys.get(FIGHT + id)).value;
      if (id === from) return { ok: true, same: true, name: this.entry(id).name };
      if (text === null || !this.entry(id)) return { ok: false, why: "missing" };
      request = { op: "load", text };
    }
    // The engine's fight, as the board shows it: what goes into the list.
    const here = await this.engine.call({ op: "export", board: true });
    const answer = await this.engine.call(request);
    if (!answer.ok) return { ok: false, why: "refused", error: answer.error };
    if (this.stopped) return { ok: false, why: "stopped", shown: await this.engine.call({ op: "revert" }) };
    const target = id ?? await this.fresh();
    const written = [];
    // Refused before the commit: what was written is dropped, the engine reopens its fight.
    const back = async (why) => {
      for (const key of written) await keys.remove(key);
      return { ok: false, why, shown: await this.engine.call({ op: "revert" }) };
    };
    for (const [key, text] of [[FIGHT + from, here.text], ...(id === null ? [[FIGHT + target, answer.save]] : [])]) {
      const stored = await keys.set(key, text);
      if (stored !== "ok") return back(stored);
      written.push(key);
    }
    const entryName = id === null ? (await this.names([name]))[0] ?? this.words.fightN(number(target)) : this.entry(id).name;
    const summary = summaryOf(answer.board);
    const fights = id === null ? [...before.fights, this.newEntry(target, entryName, summary)]
      : before.fights.map((f) => (f.id === id ? { ...f, ...summary } : f));
    // The commit names the fight switched from: a start that finds this switch cut short
    // finishes it only while the open fight's key still holds that fight (prepare).
    const committed = await this.commit({ ...before, current: target, next: Math.max(before.next, number(target) + 1), fights, switching: from });
    if (committed !== "ok") return back(committed);
    const open = await keys.set(OPEN, answer.save);
    if (open !== "ok") {
      // Undone if the list can be put back; else the switch stands, its fight kept under its id.
      if (await this.commit(before) === "ok") return back(open);
      return { ok: true, unsaved: open, shown: answer, name: entryName };
    }
    await keys.remove(FIGHT + target);
    if (typeof answer.checkpoint !== "string" || await keys.set(CHECKPOINT, answer.checkpoint) !== "ok") await keys.remove(CHECKPOINT);
    await this.commit(this.settled()); // done: a start has nothing to finish (kept in memory if refused)
    // A link or a file opened over a fight never touched (nothing in it, nothing undone:
    // the engine's `untouched`) under the name the list gave it: that empty fight is not
    // left behind in the list (a new phone's « Combat 1 · 0 combattant »). Its own
    // transaction, after the switch: refused, the empty fight merely stays.
    if (id === null && request.op === "load" && here.untouched === true && before.fights.find((f) => f.id === from)?.name === this.words.fightN(number(from))) {
      const without = { ...this.index, fights: this.index.fights.filter((f) => f.id !== from) };
      if (await this.commit(without) === "ok") await keys.remove(FIGHT + from);
    }
    return { ok: true, shown: answer, name: entryName };
  }

  // Names from a file, a link or an earlier release's list, as the engine keeps them
  // (Table.names): trimmed, cut, half characters made U+FFFD; null for one that shows
  // nothing (only spaces, controls, invisible characters) or is not text: the list then
  // names the fight itself (« Combat 3 »).
  async names(texts) {
    const answer = await this.engine.call({ op: "names", texts: texts.map((text) => (typeof text === "string" ? text : null)) });
    return answer.ok && Array.isArray(answer.names) ? answer.names : texts.map(() => null);
  }

  // The list's names as an earlier release may have kept them (showing nothing, half a
  // character), made names that show, once the engine answers: the list written again
  // when one changed. A write refused leaves the list as it was (mended again next time).
  mendNames() {
    return this.change(async () => {
      if (!this.index) return { ok: true, mended: 0 };
      const { fights } = this.index;
      const names = await this.names(fights.map((f) => f.name));
      const mended = fights.map((f, i) => ({ ...f, name: names[i] ?? this.words.fightN(number(f.id)) }));
      if (mended.every((f, i) => f.name === fights[i].name)) return { ok: true, mended: 0 };
      const stored = await this.commit({ ...this.index, fights: mended });
      return stored === "ok" ? { ok: true, mended: mended.filter((f, i) => f.name !== fights[i].name).length } : { ok: false, why: stored };
    });
  }

  // --- the list's other changes ---------------------------------------------------------
  // A name typed is judged by the engine as a fighter's is (Table.name): too long, blank,
  // showing nothing (only spaces, controls, invisible characters), half a character:
  // refused with its reason (`error`), never cut.
  rename(id, typed) {
    return this.change(async () => {
      if (!this.entry(id)) return { ok: false, why: "missing" };
      const judged = await this.engine.call({ op: "name", text: String(typed ?? "") });
      if (!judged.ok) return { ok: false, why: "badName", error: judged.error };
      const { name } = judged;
      const stored = await this.commit({ ...this.index, fights: this.index.fights.map((f) => (f.id === id ? { ...f, name } : f)) });
      return stored === "ok" ? { ok: true, name } : { ok: false, why: stored };
    });
  }

  duplicate(id) {
    return this.change(async () => {
      const entry = this.entry(id);
      const text = id === this.index?.current ? (await this.engine.call({ op: "export", board: true })).text : (await this.keys.get(FIGHT + id)).value;
      if (!entry || typeof text !== "string") return { ok: false, why: "missing" };
      const copy = await this.fresh();
      const name = named(this.words.fightCopy, entry.name, this.nameMax());
      let stored = await this.keys.set(FIGHT + copy, text);
      if (stored === "ok") {
        stored = await this.commit({ ...this.index, next: number(copy) + 1, fights: [...this.index.fights, { ...entry, id: copy, name, created: this.now() }] });
        if (stored !== "ok") await this.keys.remove(FIGHT + copy);
      }
      return stored === "ok" ? { ok: true, name } : { ok: false, why: stored };
    });
  }

  // Deleting asks nothing: every fight deleted during the visit can be brought back.
  remove(id) {
    return this.change(async () => {
      const entry = this.entry(id);
      if (id === this.index.current) return { ok: false, why: "open" };
      if (!entry) return { ok: false, why: "missing" };
      const text = (await this.keys.get(FIGHT + id)).value;
      const at = this.index.fights.indexOf(entry);
      const stored = await this.commit({ ...this.index, fights: this.index.fights.filter((f) => f !== entry) });
      if (stored !== "ok") return { ok: false, why: stored };
      await this.keys.remove(FIGHT + id);
      this.deleted.push({ entry, text, at });
      return { ok: true, name: entry.name };
    });
  }

  // The last fight deleted, back where it was; `next`: the name of the one before it, if any.
  restore() {
    return this.change(async () => {
      const last = this.deleted.at(-1);
      if (!last) return { ok: false, why: "nothing" };
      const { entry, text, at } = last;
      const id = this.entry(entry.id) || (await this.keys.get(FIGHT + entry.id)).value !== null ? await this.fresh() : entry.id;
      let stored = text === null ? "ok" : await this.keys.set(FIGHT + id, text);
      if (stored === "ok") {
        const fights = [...this.index.fights];
        fights.splice(Math.min(at, fights.length), 0, { ...entry, id });
        stored = await this.commit({ ...this.index, next: Math.max(this.index.next, number(id) + 1), fights });
        if (stored !== "ok" && text !== null) await this.keys.remove(FIGHT + id);
      }
      if (stored !== "ok") return { ok: false, why: stored };
      this.deleted.pop();
      return { ok: true, name: entry.name, next: this.deleted.at(-1)?.entry.name ?? null };
    });
  }

  // A file's list of fights (`fights`: its array): each fight the engine reads is added,
  // none opened, the open fight untouched. Resolves { ok, why, added: [names], left:
  // [names not added: `why`, the storage], refused: [names the engine cannot read] }.
  // Linear in the fights of the file: each read by the engine, then written (one
  // transaction each, so that a full storage says from which fight on), ids given in turn
  // from one free id; the list written once. How far it is goes to `progress` ({ done, total }, then null); stopped
  // (stop), what it wrote is dropped and nothing has changed.
  importList(fights) {
    return this.change(() => this.stoppable(async () => {
      const total = fights.length * 2; // read, then written
      const told = progressEvery(this.progress, total);
      try {
        const refused = [];
        const ready = [];
        const names = await this.names(fights.map((fight) => fight?.name)); // the engine's judgement
        for (const [n, fight] of fights.entries()) {
          if (this.stopped) return { ok: false, why: "stopped" };
          const name = names[n];
          const seen = typeof fight?.save === "string" ? await this.engine.call({ op: "inspect", text: fight.save }) : { ok: false };
          const label = name ?? `#${n + 1}`; // how the message names it
          if (seen.ok) ready.push({ text: fight.save, name, label, updated: cleanDate(fight.updated), summary: { round: count(seen.summary.round, 1e6), fighters: seen.summary.fighters.length } });
          else refused.push(label);
          told(n + 1);
        }
        if (this.stopped) return { ok: false, why: "stopped" };
        const kept = [];
        let why = null;
        let next = number(await this.fresh()); // every later id is free too: past every id
        const drop = async () => {
          for (const f of kept) await this.keys.remove(FIGHT + f.id);
        };
        for (const fight of ready) {
          if (this.stopped) {
            await drop();
            return { ok: false, why: "stopped" };
          }
          const id = `f${next}`;
          why = await this.keys.set(FIGHT + id, fight.text);
          if (why !== "ok") break;
          why = null;
          kept.push({ ...fight, id });
          next += 1;
          told(fights.length + kept.length);
        }
        if (this.stopped) {
          await drop();
          return { ok: false, why: "stopped" };
        }
        const entries = kept.map((f) => ({ ...this.newEntry(f.id, f.name ?? this.words.fightN(number(f.id)), f.summary), updated: f.updated ?? this.now() }));
        const stored = kept.length ? await this.commit({ ...this.index, next: number(kept.at(-1).id) + 1, fights: [...this.index.fights, ...entries] }) : why ?? "ok";
        if (stored !== "ok") {
          await drop();
          return { ok: false, why: stored, added: [], left: ready.map((f) => f.label), refused };
        }
        return { ok: true, why, added: entries.map((e) => e.name), left: ready.slice(kept.length).map((f) => f.label), refused };
      } finally {
        this.progress(null);
      }
    }));
  }

  // After a change of the open fight (`text`, its save, and its `board`): its entry's date,
  // round and fighters. A convenience: a write that fails is not reported (the fight's own
  // write is). The copy a switch left under the open fight's id goes once the fight is
  // written where the open one lives. Begun once `pace` allows, in its turn. An entry
  // whose round and fighters are the same, changed within the minute its date says (the
  // list shows it to the minute), is not written again: the taps of a minute write their
  // fight, and its entry once.
  touch(board, text) {
    const paced = this.pace();
    return this.run(async () => {
      await paced;
      const current = this.index?.current;
      const entry = this.entry(current);
      if (!entry || this.blocked()) return;
      const now = this.now();
      const summary = summaryOf(board);
      if (this.index.switching === undefined && sameMinute(entry.updated, now) && entry.round === summary.round && entry.fighters === summary.fighters) return;
      if (this.index.switching !== undefined && (await this.keys.get(OPEN)).value === text) await this.keys.remove(FIGHT + current);
      await this.commit({ ...this.settled(), fights: this.index.fights.map((f) => (f.id === current ? { ...f, updated: now, ...summary } : f)) });
    });
  }

  // Every fight with its save text (the open one as the engine exports it now), for a file.
  exportAll() {
    return this.run(async () => {
      const open = (await this.engine.call({ op: "export", board: true })).text;
      const fights = [];
      for (const f of this.index.fights) fights.push({ ...f, save: f.id === this.index.current ? open : (await this.keys.get(FIGHT + f.id)).value });
      return fights.filter((f) => typeof f.save === "string");
    });
  }
}

// The list from its stored text, checked: { index, changed } (changed: something had to be
// mended), or null when there is none or it is not a list at all. Every field is checked
// as it is read: ids once each and of the form f<n>, names and dates cut to their sizes,
// `next` past every id, `current` one of the fights (null when it names none).
// The names web/infra/store.js gave the fights it found left in localStorage ({ key: name }).
function foundNames(text) {
  try {
    const names = JSON.parse(text ?? "null");
    return names && typeof names === "object" && !Array.isArray(names) ? names : {};
  } catch {
    return {};
  }
}

export function readIndex(text, words, nameMax = Infinity) {
  let data;
  try {
    data = JSON.parse(text ?? "null");
  } catch {
    return null;
  }
  if (!data || typeof data !== "object" || !Array.isArray(data.fights)) return null;
  const seen = new Set();
  const fights = [];
  for (const f of data.fights) {
    if (!f || typeof f !== "object" || !ID.test(f.id) || seen.has(f.id)) continue;
    seen.add(f.id);
    fights.push({ id: f.id, name: cleanName(f.name, nameMax) ?? words.fightN(number(f.id)), created: cleanDate(f.created),
      updated: cleanDate(f.updated), round: count(f.round, 1e6), fighters: count(f.fighters, 1e6) });
  }
  const next = Math.max(Number.isSafeInteger(data.next) && data.next > 0 ? data.next : 1, ...fights.map((f) => number(f.id) + 1));
  const current = seen.has(data.current) ? data.current : null;
  const index = { version: 1, current, next, fights };
  if (seen.has(data.switching) && data.switching !== current) index.switching = data.switching;
  const { version, switching } = data;
  return { index, changed: JSON.stringify(index) !== JSON.stringify({ version, current: data.current, next: data.next, fights: data.fights, switching }) };
}
