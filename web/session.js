// The page's one piece of state: the board the engine last answered, and how many
// commands can be undone and redone. The engine owns the fight (engine/table.py): the
// session keeps what it showed last, writes the save text the engine hands over, and
// tells the screens that listen. No DOM here.
import { EngineFault } from "./engine.js";

export class Session {
  constructor(storage) {
    this.storage = storage;
    this.engine = null; // attached once it has started
    this.board = null;
    this.undo = 0;
    this.redo = 0;
    this.listeners = { change: [], fault: [], words: [] };
  }

  attach(engine) {
    this.engine = engine;
  }

  // "change": a new board (listener(board)); "fault": the engine failed (listener(error));
  // "words": the page's language changed.
  on(event, listener) {
    this.listeners[event].push(listener);
  }

  emit(event, value) {
    for (const listener of this.listeners[event]) listener(value);
  }

  // One request to the engine. A fault stops the tap that met it (it rejects) and is told
  // once, to the "fault" listeners.
  async call(request) {
    try {
      return await this.engine.call(request);
    } catch (error) {
      if (error instanceof EngineFault) this.emit("fault", error);
      throw error;
    }
  }

  // An answer that shows the fight: its board and counts become the session's, its save
  // text (present when the fight changed) is written as it is. Returns what the write
  // did: "ok", "full", "unavailable", or null when there was nothing to write.
  take(answer) {
    this.board = answer.board;
    this.undo = answer.undo ?? 0;
    this.redo = answer.redo ?? 0;
    const stored = typeof answer.save === "string" ? this.storage.save(answer.save) : null;
    this.emit("change", this.board);
    return stored;
  }
}
