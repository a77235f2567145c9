// The page's one piece of state: the board the engine last answered, and how many
// commands can be undone and redone. The engine owns the fight (engine/table.py): the
// session keeps what it showed last, writes what the engine says changed in the save
// (storage: web/infra/store.js), and tells the screens that listen. No DOM here.
//
// Two guards on the write: a tab that is not the fight's writer (another tab
// is: controllers/tabs.js) is read-only, refuses what would change the fight and writes
// nothing; and an unreadable save that could not be set aside is "held": nothing
// overwrites it until it is downloaded or given up (boot/start.js).
//
// A tab that follows another one takes the writer's answers as they come (its board, its
// counts: `follow`) without asking its own engine; that engine reads the writer's save
// once, when the tab next asks it something (the journal, an export, taking over):
// a follower never replays the whole log on each of the writer's taps.
//
// Before the engine is up, the saved board takes taps: their requests wait
// in a queue, in order, and go to the engine once it has loaded the save (`open`). The
// first one it refuses answers with how many were left behind (`answer.discarded`), and
// those are dropped: their calls reject with Discarded, nothing is applied out of order.
//
// A tap asks by `ask`, whose answer is always an answer: a refusal of one shape
// (web/infra/refusals.js), whatever refused it.
import { EngineFault } from "../boot/engine.js";
import { refused } from "./refusals.js";

// The operations that change the fight: refused in a read-only tab.
const WRITES = new Set(["apply", "undo", "redo", "load", "new"]);

// What needs no fight, so a follower's engine need not read the writer's save first: the
// idle rebuilding of checkpoints, and the live table's seating given back (web/live/host.js).
const ASIDE = (request) => request.op === "fill" || (request.op === "host" && request.do?.what === "restore");

// A tap made before the engine was up, dropped because one before it was refused.
export class Discarded extends Error {}

export class Session {
  constructor(storage) {
    this.storage = storage;
    this.engine = null; // attached once it has started
    this.opened = false; // requests go to the engine; before, they wait in `queue`
    this.queue = [];
    this.board = null;
    this.undo = 0;
    this.redo = 0;
    this.last = null; // the command undo would take back, the one redo would do again,
    this.next = null; // and each fighter's last action (engine/table.py), for the board
    this.used = {};
    this.attackers = {}; // fighter id → who last attacked it this round (its interruptions' « Attaquant »)
    this.gone = {}; // fighter id → name: the one the last command removed (undo's label names it)
    this.readOnly = false;
    this.switching = null; // while another fight opens: resolves when it is open (exclusive)
    this.held = null; // the unreadable save not set aside, until downloaded or given up
    this.unwritten = false; // a change not written because of it
    this.behind = null; // the writer's save this tab shows, not yet read by its engine
    this.resyncing = null; // the engine asked for the whole save text (resync)
    this.listeners = { answer: [], change: [], fault: [], words: [], saved: [], switched: [], cue: [] };
    this.opening = new Promise((resolve) => {
      this.markOpen = resolve;
    });
  }

  attach(engine) {
    this.engine = engine;
  }

  // The engine's limits (Table.limits: a sheet's, a fight's, a save's), asked once the
  // engine is up (not a tap: never in the queue); null if it could not answer (asked
  // again next time).
  limits() {
    this.limitsAsked ??= this.opening.then(() => this.send({ op: "limits" })).then((answer) => answer.limits ?? null, () => {
      this.limitsAsked = null;
      return null;
    });
    return this.limitsAsked;
  }

  // Taps are being queued: the engine is not up yet.
  waiting() {
    return !this.opened;
  }

  // "answer": an answer that shows the fight, as soon as it is taken, before its save is
  // written and its board drawn (listener(answer): the live table's messages to the
  // players' phones go first);
  // "change": a new board (listener(board, answer): the engine's answer that brought it);
  // "fault": the engine failed (listener(error));
  // "words": the page's language changed; "saved": this tab has a new save text, written
  // or not (listener(answer, text): the engine's answer, and the fight's whole save text).
  // "cue": the engine said a PJ's turn came or a player's answer waits (listener(kind)).
  on(event, listener) {
    this.listeners[event].push(listener);
  }

  emit(event, ...values) {
    for (const listener of this.listeners[event]) listener(...values);
  }

  // One request to the engine, or to the queue while it starts. In a read-only tab a
  // change is refused, as the engine refuses a command: nothing changes, the answer says
  // why. A fault stops the tap that met it (it rejects) and is told once, to the "fault"
  // listeners.
  call(request) {
    if (this.readOnly && WRITES.has(request.op)) return this.refuse("read_only", "read_only");
    if (this.switching) return WRITES.has(request.op) ? this.refuse("busy", "switching") : this.switching.then(() => this.call(request));
    if (!this.opened) return new Promise((resolve, reject) => this.queue.push({ request, resolve, reject }));
    return this.send(request);
  }

  // The page's own refusal, in the engine's shape (a reason key of engine/lang): nothing changes.
  refuse(code, key) {
    return Promise.resolve({ ...refused(code, key), board: this.board, undo: this.undo, redo: this.redo });
  }

  // A tap's request (call), answered whatever happens: what rejects the call comes back
  // as a refusal of the same shape, a fault of the engine as "internal" (the "fault"
  // listeners have it already) and a tap dropped from the queue as "discarded".
  async ask(request) {
    try {
      return await this.call(request);
    } catch (error) {
      if (error instanceof EngineFault) return refused("internal", "internal", { error: error.message });
      if (error instanceof Discarded) return refused("discarded", "discarded");
      throw error;
    }
  }

  // While `task` runs (another fight opening, web/infra/fight-list.js), a change asked from
  // elsewhere (a tap, a key, a player's die) is refused ("switching"): it was meant for the
  // fight on screen, which is about to change; other requests wait until it ends. The
  // task's own requests go straight (send). Resolves what `task` resolves.
  async exclusive(task) {
    let done;
    this.switching = new Promise((resolve) => {
      done = resolve;
    });
    try {
      return await task();
    } finally {
      this.switching = null;
      done();
    }
  }

  // Straight to the engine, past the queue and the read-only guard (the start's own
  // requests, and a follower loading what the writer wrote). A follower's engine first
  // reads the writer's last save, if it has not yet: not for a load (which replaces it),
  // nor for the idle rebuilding of checkpoints (boot/start.js "fill"), which needs no fight.
  async send(request) {
    try {
      if (request.op === "load") this.behind = null;
      else if (this.behind !== null && !ASIDE(request)) {
        const text = this.behind;
        this.behind = null;
        await this.engine.call(await this.catchUp(text));
      }
      const answer = await this.engine.call(request);
      // A PJ's turn came, or a player's answer waits (engine/table.py `cue`): told to this
      // device's cue (controllers/clock.js), by the tab that asked, never by one that follows.
      if (answer?.cue) this.emit("cue", answer.cue);
      return answer;
    } catch (error) {
      if (error instanceof EngineFault) this.emit("fault", error);
      throw error;
    }
  }

  // The engine is up and holds the save: the queued requests go, in order (each tap
  // takes its answer before the next goes), then every request goes straight.
  async open() {
    while (this.queue.length) {
      const { request, resolve, reject } = this.queue.shift();
      let answer;
      try {
        answer = await this.send(request);
      } catch (error) {
        reject(error);
        this.discard();
        continue;
      }
      if (!answer.ok) {
        answer.discarded = this.queue.length;
        this.discard();
      }
      resolve(answer);
    }
    this.opened = true;
    this.markOpen();
  }

  // Drop every queued request (a refusal before them, or no engine at all).
  discard() {
    for (const { reject } of this.queue.splice(0)) reject(new Discarded());
  }

  // The fight another tab wrote: shown here, written nothing (this tab follows it). With
  // the writer's answer (`shown`: its board and counts), taken as it is: the engine is
  // not asked (it reads `text` when next asked something, send). Without it (the writer's
  // tab had no BroadcastChannel, or this tab must start again from the save), the engine
  // reads the save now. Resolves true when the fight is shown.
  async follow(text, shown = null) {
    if (shown) {
      this.behind = text;
      this.take(shown);
      return true;
    }
    const answer = await this.send(await this.catchUp(text));
    if (answer.ok) this.take(answer);
    return answer.ok;
  }

  // The request by which a follower's engine reads the save this tab shows, from the
  // checkpoint the writer keeps beside it (engine/table.py: only the commands after it
  // are replayed).
  async catchUp(text) {
    return { op: "load", text, checkpoint: await this.storage.checkpoint() };
  }

  // An answer that shows the fight: its board and counts become the session's, and what
  // changed in its save (present when the fight changed: the whole `save` text or its
  // `log`) is written, with the last checkpoint when it changed (engine/table.py). Returns
  // what the write did, once it is done (a promise): "ok", "full", "unavailable", "held"
  // (not written: an unreadable save waits to be downloaded), or null when there was
  // nothing to write (or this tab is read-only). `written`: the list of fights wrote it
  // already (a switch, web/infra/fight-list.js): told, not written again.
  take(answer, written = false) {
    this.emit("answer", answer);
    this.board = answer.board;
    this.undo = answer.undo ?? 0;
    this.redo = answer.redo ?? 0;
    this.last = answer.last ?? null;
    this.next = answer.next ?? null;
    this.used = answer.used ?? {};
    this.attackers = answer.attackers ?? {};
    this.gone = answer.gone ?? {};
    let stored = null;
    let saved = false;
    if ((typeof answer.save === "string" || answer.log) && !this.readOnly) {
      if (written) {
        stored = "ok";
        this.storage.wrote(answer);
      } else if (this.held === null) stored = this.storage.save(answer);
      else {
        this.unwritten = true;
        stored = this.storage.follow(answer) && "held";
      }
      saved = stored !== null;
      if (stored === null && this.held === null) stored = this.resync(); // said once written whole
      else if (stored === null) stored = "held";
    } else if (answer.seq !== undefined && !this.readOnly && this.held === null) {
      // The start's answer leaves out a save text the autosave already holds (`kept`): the
      // changes that follow are that text's. Not a new checkpoint.
      this.storage.known(answer.seq);
      if (answer.checkpoint !== undefined) this.storage.saveCheckpoint(answer.checkpoint);
    }
    if (saved) this.emit("saved", answer, this.storage.openText());
    this.emit("change", this.board, answer);
    return Promise.resolve(stored);
  }

  // What this tab keeps of the fight no longer follows the engine's answers (it followed
  // another tab meanwhile): the engine hands over the whole save text (engine/table.py
  // `whole`), written as it is. Resolves what that write did.
  async resync() {
    this.resyncing ??= this.send({ op: "whole" }).then((answer) => {
      this.resyncing = null;
      const stored = answer.ok ? this.storage.save(answer) : null;
      if (stored) this.emit("saved", answer, this.storage.openText());
      return stored ?? "unavailable";
    }, () => {
      this.resyncing = null;
      return "unavailable";
    });
    return this.resyncing;
  }

  // Another fight was opened (the list of fights): its board was just taken. Said to the
  // listeners that hold what belonged to the fight before (the live table's waiting lines),
  // with the list's ids of the fight opened (`to`) and of the one left (`from`).
  switched(to = null, from = null) {
    this.emit("switched", to, from);
  }

  // An unreadable save that could not be set aside: nothing overwrites it until release().
  hold(text) {
    this.held = text;
  }

  // The unreadable save is downloaded or given up: the fight is written again, whole.
  // Resolves what that write did (as take), or null when nothing was waiting.
  release() {
    this.held = null;
    const waiting = this.unwritten;
    this.unwritten = false;
    return Promise.resolve(waiting ? this.storage.rewrite() ?? this.resync() : null);
  }
}
