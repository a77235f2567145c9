// Two tabs on one fight: one writes, the others follow it live, read-only,
// and say so, with « Prendre la main » to take over explicitly (writer.js). Never a
// silent overwrite: a follower refuses every change (Session.readOnly) and writes nothing.
import { ANSWERED } from "../boot/engine.js";
import * as store from "../infra/store.js";
import { shownOf } from "../infra/writer.js";

export class TabsController {
  constructor({ session, status }, writers) {
    this.session = session;
    this.writers = writers;
    this.pending = null; // the writer's latest save, { text, shown }, not yet shown here
    this.running = null;
    this.ready = false; // the engine has started and loaded the saved fight
    this.onWriter = null; // called when this tab becomes the writer after the start
    // The writer's answer goes with its save: a follower shows its board as it is.
    session.on("saved", (answer, text) => writers.publish(text, posted(answer)));
    writers.onSave((text, shown) => this.follow(text, shown));
    writers.onRole((role, how) => {
      session.readOnly = role === "follower";
      status.setWriter(role, how);
      if (role === "follower" && how === "stolen") {
        // What this tab showed may hold a command the new writer never saw: the save is the truth.
        store.load().then(({ text }) => {
          if (text !== null) this.follow(text);
        });
      }
      if (role === "writer" && how !== "start") this.onWriter?.();
    });
    status.bindTakeOver(() => this.takeOver());
    session.on("words", () => status.writerWords());
  }

  // The first role, before the page can be tapped.
  start() {
    return this.writers.start();
  }

  // The engine is ready: saves received meanwhile are shown now.
  started() {
    this.ready = true;
    this.drain();
  }

  follow(text, shown = null) {
    this.pending = { text, shown };
    this.drain();
  }

  // Only the latest save matters: those that came while one was loading are skipped.
  drain() {
    if (!this.ready) return Promise.resolve();
    this.running ??= this.loop();
    return this.running;
  }

  async loop() {
    await null; // this.running is set before the loop can end
    while (this.pending !== null) {
      const { text, shown } = this.pending;
      this.pending = null;
      await this.session.follow(text, shown).catch(() => false);
    }
    this.running = null;
  }

  async takeOver() {
    await this.drain(); // the last save seen is shown before this tab writes
    this.writers.takeOver();
  }
}

// The writer's answer as it goes to the tabs that follow: its text when the page has it
// (web/boot/engine.js ANSWERED), else the fields a follower shows (web/infra/writer.js
// `shownOf`, which the follower keeps of the text too).
function posted(answer) {
  return typeof answer[ANSWERED] === "string" ? answer[ANSWERED] : shownOf(answer);
}
