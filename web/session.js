// The page's one piece of state: the board the engine last answered, and how many
// commands can be undone and redone. The engine owns the fight (engine/table.py): the
// session keeps what it showed last, writes the save text the engine hands over, and
// tells the screens that listen. No DOM here.
//
// Two guards on the write (issue #12): a tab that is not the fight's writer (another tab
// is: controllers/tabs.js) is read-only, refuses what would change the fight and writes
// nothing; and an unreadable save that could not be set aside is "held": nothing
// overwrites it until it is downloaded or given up (controllers/start.js).
import { EngineFault } from "./engine.js";
import { t } from "./i18n.js";

// The operations that change the fight: refused in a read-only tab.
const WRITES = new Set(["apply", "undo", "redo", "load", "new"]);

export class Session {
  constructor(storage) {
    this.storage = storage;
    this.engine = null; // attached once it has started
    this.board = null;
    this.undo = 0;
    this.redo = 0;
    this.readOnly = false;
    this.held = null; // the unreadable save not set aside, until downloaded or given up
    this.unwritten = null; // the save text not written because of it
    this.listeners = { change: [], fault: [], words: [], saved: [] };
  }

  attach(engine) {
    this.engine = engine;
  }

  // "change": a new board (listener(board)); "fault": the engine failed (listener(error));
  // "words": the page's language changed; "saved": this tab has a new save text
  // (listener(text)), written or not.
  on(event, listener) {
    this.listeners[event].push(listener);
  }

  emit(event, value) {
    for (const listener of this.listeners[event]) listener(value);
  }

  // One request to the engine. A fault stops the tap that met it (it rejects) and is told
  // once, to the "fault" listeners. In a read-only tab a change is refused, as the engine
  // refuses a command: nothing changes, the answer says why.
  async call(request) {
    if (this.readOnly && WRITES.has(request.op)) {
      return { ok: false, board: this.board, undo: this.undo, redo: this.redo,
        error: { code: "read_only", message: t("readOnlyRefused") } };
    }
    return this.ask(request);
  }

  async ask(request) {
    try {
      return await this.engine.call(request);
    } catch (error) {
      if (error instanceof EngineFault) this.emit("fault", error);
      throw error;
    }
  }

  // The fight another tab wrote: shown here, written nothing (this tab follows it).
  async follow(text) {
    const answer = await this.ask({ op: "load", text });
    if (answer.ok) this.take(answer);
    return answer.ok;
  }

  // An answer that shows the fight: its board and counts become the session's, its save
  // text (present when the fight changed) is written as it is. Returns what the write
  // did: "ok", "full", "unavailable", "held" (not written: an unreadable save waits to
  // be downloaded), or null when there was nothing to write (or this tab is read-only).
  take(answer) {
    this.board = answer.board;
    this.undo = answer.undo ?? 0;
    this.redo = answer.redo ?? 0;
    let stored = null;
    if (typeof answer.save === "string" && !this.readOnly) {
      if (this.held === null) stored = this.storage.save(answer.save);
      else {
        this.unwritten = answer.save;
        stored = "held";
      }
      this.emit("saved", answer.save);
    }
    this.emit("change", this.board);
    return stored;
  }

  // An unreadable save that could not be set aside: nothing overwrites it until release().
  hold(text) {
    this.held = text;
  }

  // The unreadable save is downloaded or given up: the fight is written again. Returns
  // what that write did (as take), or null when nothing was waiting.
  release() {
    this.held = null;
    const text = this.unwritten;
    this.unwritten = null;
    return text === null ? null : this.storage.save(text);
  }
}
