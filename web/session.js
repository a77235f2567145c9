// The page's one piece of state: the board the engine last answered, and how many
// commands can be undone and redone. The engine owns the fight (engine/table.py): the
// session keeps what it showed last, writes the save text the engine hands over, and
// tells the screens that listen. No DOM here.
//
// Before the engine is up (issue #14), the saved board takes taps: their requests wait
// in a queue, in order, and go to the engine once it has loaded the save (`open`). The
// first one it refuses answers with how many were left behind (`answer.discarded`), and
// those are dropped: their calls reject with Discarded, nothing is applied out of order.
import { EngineFault } from "./engine.js";

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
    this.listeners = { change: [], fault: [], words: [] };
  }

  attach(engine) {
    this.engine = engine;
  }

  // Taps are being queued: the engine is not up yet.
  waiting() {
    return !this.opened;
  }

  // "change": a new board (listener(board)); "fault": the engine failed (listener(error));
  // "words": the page's language changed.
  on(event, listener) {
    this.listeners[event].push(listener);
  }

  emit(event, value) {
    for (const listener of this.listeners[event]) listener(value);
  }

  // One request to the engine, or to the queue while it starts. A fault stops the tap
  // that met it (it rejects) and is told once, to the "fault" listeners.
  call(request) {
    if (!this.opened) return new Promise((resolve, reject) => this.queue.push({ request, resolve, reject }));
    return this.send(request);
  }

  // Straight to the engine, queue or not (the start's own requests).
  async send(request) {
    try {
      return await this.engine.call(request);
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
  }

  // Drop every queued request (a refusal before them, or no engine at all).
  discard() {
    for (const { reject } of this.queue.splice(0)) reject(new Discarded());
  }

  // An answer that shows the fight: its board and counts become the session's, its save
  // text (present when the fight changed) is written as it is. Returns what the write
  // did: "ok", "full", "unavailable", or null when there was nothing to write.
  take(answer) {
    this.board = answer.board;
    this.undo = answer.undo ?? 0;
    this.redo = answer.redo ?? 0;
    const stored = typeof answer.save === "string" ? this.storage.save(answer.save) : null;
    if (answer.checkpoint !== undefined && stored === "ok") this.storage.saveCheckpoint(answer.checkpoint);
    this.emit("change", this.board);
    return stored;
  }
}
