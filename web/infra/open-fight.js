// The open fight as storage keeps it (docs/RELIABILITY.md, "Where the fights live"): the
// last whole save text the engine handed over, under riposte.encounter, then each change
// the engine answered since (engine/table.py: an answer's `log`), one record a tap:
// riposte.encounter.step.<n>, n = 1, 2, … in order, none missing, with the board painted
// after the last one and the mark of the whole text they follow (riposte.encounter.board).
// That whole text is kept twice, under riposte.encounter (where any page reads the open
// fight: an older release's, a backup) and under riposte.encounter.base, which only this
// module writes: a text written since under riposte.encounter by another page (an older
// release) is the fight when it reads as JSON (the records are left out), and a text
// there that does not (a save corrupted) is written over with the fight its records give. A tap writes its record and that board (and
// the new checkpoint, when there is one) in one transaction: what it changed, not the
// fight's length. Every reader of the open fight (the start, the list of fights, another
// tab, a backup) gets the one text they compose to (`compose`, as engine/save.py `follow`),
// exactly the save text the engine would write whole. After COMPACT records, or a whole
// text handed over (a fight opened or made), the whole text is written and the records
// dropped, in one transaction.
//
// A record that cannot be written is said ("full", "unavailable") and never leaves a gap:
// the next record holds its change too (`merge`), and a whole text that cannot be written
// makes the next write a whole text. Where storage cannot append (localStorage, the fallback),
// every write is the whole text, as before.
//
// The page's saves land in the order of its taps: one write after the other (`queued`).
// What this tab keeps follows the engine's answers one by one (their `seq`); an answer it
// cannot follow (another tab wrote meanwhile) is refused (`save` answers null) and the page
// asks the engine for the whole text (Session.resync). No DOM: the storage is passed in
// (web/infra/store.js: IndexedDB, or localStorage; tests/fight_list_driver.mjs its own).
//
// What a tab shows is kept when the page goes away before its writes land (a reload right
// after a tap: a write not yet handed to the database is lost with the page). The page
// then keeps, in one synchronous write (`leaving`), the fight this tab shows and the mark
// of the text storage held when its last write landed (`left`: localStorage). The next
// `open` takes that fight when storage still holds that text (the writes never landed),
// writes it whole, and drops it; otherwise (they landed, or another tab wrote since) it
// is only dropped.
export const KEY = "riposte.encounter";
export const CHECKPOINT = "riposte.checkpoint"; // the state after the log's first commands (engine/table.py)
export const STEP = "riposte.encounter.step.";
export const BOARD = "riposte.encounter.board";
export const BASE = "riposte.encounter.base";
// The records found after a gap, set aside for export: { base, from, records, board } (JSON).
export const STEPS_ASIDE = "riposte.encounter.steps.aside";
// What a tab showed and had not written when its page went away: { from, text } (JSON).
export const LEFT = "riposte.encounter.left";
// How many records a whole text may have after it before it is written again whole.
export const COMPACT = 100;
// How a save text ends after its commands (engine/save.py `_joined`).
const END = '],"board":';

// The save text `whole` after `changes` ({ keep, add }, in order) and the board painted
// after the last one (`board`, written): engine/save.py `follow`. `keep` counts UTF-16
// code units, as JavaScript strings do.
export function compose(whole, changes, board) {
  if (!changes.length) return whole;
  let body = whole;
  for (const { keep, add } of changes) body = body.slice(0, keep) + add;
  return `${body}${END}${board}}`;
}

// One change that does what `first` then `second` do ({ keep, add, board }).
export function merge(first, second) {
  if (!first) return second;
  const add = second.keep >= first.keep ? first.add.slice(0, second.keep - first.keep) + second.add : second.add;
  return { keep: Math.min(first.keep, second.keep), add, board: second.board };
}

// A record as stored: "<keep> <add>"; the board: "<n> <mark> <board>" (n: the record it
// follows; mark: the whole text's, `mark`). The texts as they are, not quoted again.
const numbered = (n, text) => `${n} ${text}`;

// A whole text's mark: its length and a hash (FNV-1a) of its last 256 code units, where a
// change of the fight shows (its board).
export function mark(text) {
  return markOf(text.length, text.slice(-256));
}

// The mark of a text of `length` code units that ends with `tail` (256 or all of them).
function markOf(length, tail) {
  let hash = 0x811c9dc5;
  for (let i = Math.max(0, tail.length - 256); i < tail.length; i++) hash = Math.imul(hash ^ tail.charCodeAt(i), 0x01000193) >>> 0;
  return `${length}.${hash.toString(36)}`;
}

// The mark of a text, null for none.
const markOrNull = (text) => (text === null ? null : mark(text));

function unnumbered(value) {
  const space = typeof value === "string" ? value.indexOf(" ") : -1;
  const n = Number(space > 0 ? value.slice(0, space) : NaN);
  return Number.isInteger(n) && n >= 0 ? [n, value.slice(space + 1)] : null;
}

function recordOf(value) {
  const [keep, add] = unnumbered(value) ?? [];
  return add === undefined ? null : { keep, add };
}

function boardOf(value) {
  const [n, rest] = unnumbered(value) ?? [];
  const space = rest?.indexOf(" ") ?? -1;
  return space > 0 ? { n, mark: rest.slice(0, space), board: rest.slice(space + 1) } : null;
}

// True when `text` reads as JSON (a save cut short does not).
export function readable(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// What storage holds of the open fight (`items`: its keys and values, read at once):
// { text, steps, base, clean } (steps: the records after the whole text `base`, in order;
// clean: false when they are not all usable, or another page wrote, so that the next write
// is a whole text).
export function readOpen(items) {
  const open = items[KEY] ?? null;
  const kept = items[BASE] ?? open;
  const other = open !== null && kept !== open && mark(open) !== mark(kept); // written since by another page
  const whole = other && readable(open) ? open : kept;
  const numbers = Object.keys(items).filter((key) => key.startsWith(STEP)).map((key) => Number(key.slice(STEP.length)));
  const board = boardOf(items[BOARD]);
  const own = whole !== null && whole === kept && board?.mark === mark(whole); // the records follow this whole text
  const changes = [];
  for (let n = 1; own && numbers.includes(n); n++) {
    const change = recordOf(items[STEP + n]);
    if (!change) break;
    changes.push(change);
  }
  const clean = !other && changes.length === numbers.length && (!changes.length || board?.n === changes.length);
  // Records past a missing or unreadable one (a disk error, a hand edit): the fight is the
  // last whole state before it, and they are set aside (`aside`), never dropped unread.
  const after = own ? numbers.filter((n) => n > changes.length).sort((a, b) => a - b) : [];
  const aside = after.length ? { base: mark(whole), from: changes.length + 1, records: Object.fromEntries(after.map((n) => [n, items[STEP + n]])),
    board: items[BOARD] ?? null } : null;
  return { text: whole === null ? null : compose(whole, changes, board?.n === changes.length ? board.board : "null"),
    steps: changes.length, base: whole === null ? null : mark(whole), clean, aside };
}

// The mark of the save text `body` then its board (`board`) make, without making it.
function markAfter({ body, board }) {
  const end = `${END}${board}}`;
  return markOf(body.length + end.length, `${body.slice(-256)}${end}`);
}

export class OpenFight {
  // storage: get(key) -> { value, unavailable }, set, remove, names(prefix) (as
  // web/infra/storage-keys.js), update(puts, drops, prefix) -> "ok" | "full" | "unavailable"
  // (the entries put and the keys dropped, those starting with `prefix` too, all in one
  // transaction), scan(keys, prefix) -> { items, unavailable } (read in one transaction).
  // appends(): whether records may be written there (a promise or a boolean). written(began,
  // chars, stored): told after each write of the open fight. left: where the fight shown
  // and not written is kept when the page goes away (get() -> text or null, set(text) ->
  // "ok" | …, remove(): synchronous, localStorage's Keys), or null.
  // rescue(text): when storage answers "wiped" (emptied under the page: nothing written),
  // the other entries to write with the whole text this tab keeps ([key, value]: the date
  // of the move, the list, the models), and rescued(stored) is told how that write went.
  // told(what, ...params): something storage held that the page must say ("gap").
  // pace(): what the write of a tap's record waits for before it starts (the page: the
  // frame its tap changed painted, web/infra/later.js), a promise or nothing.
  constructor({ storage, appends = () => true, written = () => undefined, left = null, rescue = async () => [], rescued = () => undefined,
    told = () => undefined, pace = () => undefined }) {
    Object.assign(this, { storage, appends, written, left, rescue, rescued, told, pace });
    // What this tab's engine last said the fight is: its last whole text, and after it the
    // save's text up to its board (`body`) and the board, once a change came; `seq`, the
    // answer it followed last (null: unknown, no change may follow until a whole text).
    this.whole = null;
    this.body = null;
    this.board = null;
    this.seq = null;
    // What storage holds: records after its whole text (`steps`); `pending`, the change
    // since that was not written (merged); `gap`: the next write must be a whole text.
    this.steps = 0;
    this.pending = null;
    this.gap = true;
    this.base = null; // the mark of the whole text in storage
    this.landed = null; // the mark of the text storage holds after this tab's last write (or read)
    this.unlanded = 0; // this tab's writes of a change asked and not yet done
    this.listing = 0; // the list of fights' writes of the open fight, not yet done
    this.leftThere = false; // this tab left its fight behind (`leaving`) and lives on (a page frozen, then resumed)

    this.saving = Promise.resolve();
  }

  // --- reading --------------------------------------------------------------------------
  // The open fight's save text as storage holds it: { value, unavailable }.
  // `kept`: what storage holds (readOpen).
  async read() {
    const { items, unavailable } = await this.storage.scan([KEY, BASE, BOARD], STEP);
    const kept = readOpen(items);
    return { value: kept.text, unavailable: Boolean(unavailable), kept };
  }

  // The same, read by the tab that will write it (the start, or a tab that stops following):
  // what it keeps from now on. A fight a page left behind (`leaving`) while storage still
  // holds what that page had written is the fight, written whole now.
  async open() {
    const { value, unavailable, left } = await this.queued(async () => {
      const read = await this.read();
      if (read.kept.aside) await this.setAside(read.kept.aside);
      Object.assign(this, { steps: read.kept.steps, pending: null, gap: !read.kept.clean || read.unavailable, base: read.kept.base });
      this.landed = markOrNull(read.value);
      const behind = read.unavailable ? null : this.leftBehind();
      if (behind?.from === this.landed && typeof behind.text === "string" && behind.text !== read.value) {
        this.know(behind.text, null);
        return { value: behind.text, unavailable: false, left: true };
      }
      if (behind) this.left.remove(LEFT);
      this.know(read.value, null);
      return read;
    });
    if (left) {
      this.writing(() => this.writeWhole(value, undefined)).then((stored) => {
        if (stored === "ok") this.left.remove(LEFT);
      });
    }
    return { value, unavailable };
  }

  // Records past a gap, set aside (STEPS_ASIDE) before the next whole text drops them; told
  // (`gap`: how many, and whether they are kept). Records set aside earlier stay with them.
  async setAside(aside) {
    const raw = (await this.storage.get(STEPS_ASIDE)).value;
    let earlier = [];
    if (raw !== null) {
      try {
        const parsed = JSON.parse(raw);
        earlier = Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        earlier = [raw]; // kept as it is
      }
    }
    const value = JSON.stringify([...earlier, aside]);
    const stored = await this.storage.set(STEPS_ASIDE, value);
    this.gap = true;
    this.told?.("gap", Object.keys(aside.records).length, aside.from - 1, stored === "ok");
  }

  // What a page left behind: { from, text }, or null.
  leftBehind() {
    try {
      const left = JSON.parse(this.left?.get(LEFT)?.value ?? "null");
      return left && typeof left === "object" ? left : null;
    } catch {
      return null;
    }
  }

  // The page goes away: the fight it shows, when a write of it has not landed, kept at
  // once (synchronously) for the next `open`. True when something was left.
  leaving() {
    const text = this.text();
    if (!this.left || this.unlanded === 0 || this.listing > 0 || text === null) return false;
    this.leftThere = this.left.set(LEFT, JSON.stringify({ from: this.landed, text })) === "ok";
    return this.leftThere;
  }

  // What this tab's engine says the fight is now: a whole text (null: not known) and the
  // answer that said it.
  know(whole, seq) {
    Object.assign(this, { whole, body: null, board: null, seq });
  }

  // The fight's text as this tab keeps it (null: not known).
  text() {
    return this.body === null ? this.whole : `${this.body}${END}${this.board}}`;
  }

  // Its length and its last 64 characters, without making the whole text.
  shape() {
    const end = this.body === null ? null : `${END}${this.board}}`;
    if (end !== null && end.length >= 64) return { length: this.body.length + end.length, tail: end.slice(-64) };
    const text = this.text();
    return text === null ? null : { length: text.length, tail: text.slice(-64) };
  }

  // The board the fight's text ends with, as that text holds it (the engine's painted board,
  // without verdicts), with the text's shape; null while only a whole text is known.
  painted() {
    return this.body === null || this.board === null ? null : { board: this.board, ...this.shape() };
  }

  // --- the engine's answers -----------------------------------------------------------------
  // The engine loaded what storage holds (the start): its answer `seq` is that text.
  known(seq) {
    this.seq = seq ?? null;
  }

  // An answer to a change (`save`: a whole text; `log`: a change of the one before), written
  // unless `write` is false (a save held back: written later, whole). Resolves "ok", "full",
  // "unavailable" or "held"; null (at once) when it does not follow what this tab keeps.
  save(answer, write = true) {
    const { checkpoint } = answer;
    if (typeof answer.save === "string") {
      this.know(answer.save, answer.seq ?? null);
      const text = answer.save;
      return write ? this.writing(() => this.writeWhole(text, checkpoint)) : this.hold();
    }
    const log = answer.log;
    if (!log || this.seq === null || this.text() === null || answer.seq !== this.seq + 1) {
      this.know(null, null); // not known until a whole text
      return null;
    }
    this.body = (this.body ?? this.whole).slice(0, log.keep) + log.add;
    this.board = log.board;
    this.seq = answer.seq;
    if (!write) return this.hold();
    const change = { keep: log.keep, add: log.add, board: log.board };
    const parts = { body: this.body, board: this.board };
    return this.writing(() => this.append(change, parts, checkpoint), this.pace());
  }

  // A switch (web/infra/fight-list.js) wrote the fight its answer opened: this tab keeps it.
  wrote(answer) {
    if (typeof answer.save === "string") this.know(answer.save, answer.seq ?? null);
  }

  // Not written now: the next write is the whole text.
  hold() {
    return this.queued(async () => {
      this.gap = true;
      return "held";
    });
  }

  // The whole text written again (a save held back, released); null when not known.
  rewrite() {
    const text = this.text();
    return text === null ? null : this.writing(() => this.writeWhole(text, undefined));
  }

  // --- writing ------------------------------------------------------------------------------
  // One write after the other, in the order asked.
  queued(task) {
    const done = this.saving.then(task);
    this.saving = done.catch(() => null);
    return done;
  }

  // A write of the fight this tab shows, counted until it is done (`leaving`), begun once
  // `paced` resolves (a tap's record: once its board is painted, `pace`). A whole text is
  // written at once: the first write of a tab that took over is one, and until it lands,
  // what storage holds is not what that tab last read. A page that left its fight behind
  // and lives on drops it once its writes are done: the next start reads what they wrote.
  writing(task, paced = undefined) {
    this.unlanded += 1;
    return this.queued(async () => {
      try {
        await paced;
        return await task();
      } finally {
        this.unlanded -= 1;
        if (this.unlanded === 0 && this.leftThere) {
          this.leftThere = false;
          this.left.remove(LEFT);
        }
      }
    });
  }

  // `puts` and `drops` with the checkpoint (undefined: unchanged; null: dropped), in one
  // transaction; refused with it, written without it, then the checkpoint dropped: it is a
  // shortcut (the engine ignores one that does not match the log), the text is the truth.
  async update(puts, drops, prefix, checkpoint) {
    const began = performance.now();
    const marked = typeof checkpoint === "string" ? [[CHECKPOINT, checkpoint]] : [];
    let stored = await this.storage.update([...puts, ...marked], [...drops, ...(checkpoint === null ? [CHECKPOINT] : [])], prefix);
    if (stored !== "ok" && stored !== "wiped" && checkpoint !== undefined) {
      stored = await this.storage.update(puts, drops, prefix);
      if (stored === "ok") await this.storage.remove(CHECKPOINT);
    }
    this.written(began, puts.reduce((n, [, value]) => n + value.length, 0), stored);
    return stored;
  }

  // Storage emptied under the page (it answered "wiped", nothing written): the whole fight
  // this tab keeps is written again, with what the page knows besides (`rescue`), in one
  // transaction; the write asked is then done, since that text holds it. "ok", or why not.
  async again() {
    const text = this.text();
    const puts = [...(await this.rescue(text)), ...(text === null ? [] : [[KEY, text], [BASE, text]])];
    const stored = await this.storage.update(puts, [BOARD, CHECKPOINT], STEP, true);
    if (stored === "ok") Object.assign(this, { steps: 0, pending: null, gap: text === null, base: markOrNull(text), landed: markOrNull(text) });
    else this.gap = true;
    this.rescued(stored, text);
    return stored;
  }

  async writeWhole(text, checkpoint) {
    const stored = await this.update(await this.appends() ? [[KEY, text], [BASE, text]] : [[KEY, text]], [BOARD, BASE], STEP, checkpoint);
    if (stored === "wiped") return this.again();
    if (stored === "ok") Object.assign(this, { steps: 0, pending: null, gap: false, base: mark(text), landed: mark(text) });
    else this.gap = true;
    return stored;
  }

  async append(change, parts, checkpoint) {
    const pending = merge(this.pending, change);
    if (this.gap || this.base === null || this.steps >= COMPACT || !(await this.appends())) {
      return this.writeWhole(`${parts.body}${END}${parts.board}}`, checkpoint);
    }
    const n = this.steps + 1;
    const stored = await this.update([[STEP + n, numbered(pending.keep, pending.add)], [BOARD, numbered(n, `${this.base} ${pending.board}`)]], [], null, checkpoint);
    if (stored === "wiped") return this.again();
    if (stored === "ok") Object.assign(this, { steps: n, pending: null, landed: markAfter(parts) });
    else this.pending = pending;
    return stored;
  }

  // --- the storage as the list of fights takes it (web/infra/fight-list.js) ------------------
  // The open fight composed, its writes whole and in order with the taps' (records dropped).
  async get(key) {
    if (key !== KEY) return this.storage.get(key);
    const { value, unavailable } = await this.read();
    return unavailable ? { value: null, unavailable } : { value };
  }

  set(key, value) {
    if (key === KEY) {
      this.know(value, null);
      this.listing += 1;
      return this.queued(() => this.writeWhole(value, undefined)).finally(() => {
        this.listing -= 1;
      });
    }
    if (key === CHECKPOINT) return this.queued(() => this.storage.set(key, value));
    // Storage emptied under the page: after the writes asked before this one (one of them may
    // have written the fight again already), tried again, and the fight written first if not.
    return this.storage.set(key, value).then((stored) => stored !== "wiped" ? stored : this.queued(async () => {
      const retried = await this.storage.set(key, value);
      if (retried !== "wiped") return retried;
      const again = await this.again();
      return again === "ok" ? this.storage.set(key, value) : again;
    }));
  }

  remove(key) {
    return key === CHECKPOINT ? this.queued(() => this.storage.remove(key)) : this.storage.remove(key);
  }

  names(prefix) {
    return this.storage.names(prefix);
  }
}
