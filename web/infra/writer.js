// One writer per fight across the browser's tabs: each tab writes the whole
// save, so two writers would silently overwrite each other. The writer holds the Web Lock
// "riposte.writer" (navigator.locks: Chromium, Firefox, Safari 15.4+) for as long as its
// tab lives; another tab follows it read-only, waits in the lock's queue (it becomes the
// writer when the first tab closes), or takes the lock explicitly (steal: the first tab
// then follows). Each save the writer makes is sent to the others with what the writer's
// tab shows of it (BroadcastChannel), or alone where there is none (the storage event).
// A tab that starts as the writer sends nothing until a tab says it follows (each one
// says so as it becomes a follower): then its last save at once, and every save after.
// No DOM here.
//
// Where Web Locks are missing, tabs agree over the BroadcastChannel: a new tab asks who
// writes and follows if a writer answers; taking over tells the writer to follow.
// Where both are missing, each tab writes, as before.
import { afterPaint } from "./later.js";
import { unpack } from "./verdicts.js";

const LOCK = "riposte.writer";
const CHANNEL = "riposte.fight";
const SAVE_KEY = "riposte.encounter"; // store.js
const ASK_WAIT = 250; // ms: how long a new tab waits for a writer to answer (fallback only)

export class Writers {
  constructor() {
    this.role = null; // "writer" or "follower"
    this.channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
    this.locks = globalThis.navigator?.locks ?? null;
    this.waiting = null; // the queued lock request (an AbortController)
    this.roleListeners = [];
    this.saveListeners = [];
    this.answer = null; // fallback: resolves the question "who writes?"
    this.outgoing = null; // the save waiting for this tab's frame (publish)
    this.latest = null; // the last save made here, sent when a tab says it follows
    this.followed = false; // a tab follows this one, or may (see `set`)
    this.channel?.addEventListener("message", (event) => this.message(event.data));
    if (!this.channel) {
      window.addEventListener("storage", (event) => {
        if (event.key === SAVE_KEY && typeof event.newValue === "string" && this.role === "follower") this.emitSave(event.newValue);
      });
    }
  }

  // listener(role, how): how = "start", "stolen" (another tab took over), "took" (this
  // tab took over), "freed" (the writer's tab closed).
  onRole(listener) {
    this.roleListeners.push(listener);
  }

  // listener(text, shown): the save the writer just made and what its tab shows of it (the
  // board and counts, Session.take), or null when only the save came (followers only).
  onSave(listener) {
    this.saveListeners.push(listener);
  }

  emitSave(text, shown = null) {
    for (const listener of this.saveListeners) listener(text, shown);
  }

  set(role, how) {
    if (role === this.role) return;
    this.role = role;
    // A writer by a lock taken at its start has no follower yet (a tab waiting for the lock
    // would have had it first); one that took over or was handed the lock may have some,
    // as may any writer where tabs agree without Web Locks.
    if (role === "writer" && (how !== "start" || !this.locks)) this.followed = true;
    this.latest = null; // a save made in another role is not the fight any more
    if (role === "follower") this.channel?.postMessage({ type: "following" });
    for (const listener of this.roleListeners) listener(role, how);
  }

  // This tab's first role. Resolves "writer" or "follower".
  async start() {
    if (this.locks) {
      const first = await new Promise((resolve) => {
        this.request({ ifAvailable: true }, resolve);
      });
      if (first === "follower") this.queue();
      this.set(first, "start");
    } else if (this.channel) {
      const answered = new Promise((resolve) => {
        this.answer = resolve;
        setTimeout(() => resolve(false), ASK_WAIT);
      });
      this.channel.postMessage({ type: "who" });
      this.set((await answered) ? "follower" : "writer", "start");
    } else {
      this.set("writer", "start");
    }
    return this.role;
  }

  // A lock request: granted, this tab writes until it closes or the lock is stolen.
  request(options, first = null, how = "freed") {
    let held = false;
    this.locks.request(LOCK, options, (lock) => {
      if (!lock) {
        first?.("follower");
        return null;
      }
      held = true;
      if (first) first("writer");
      else this.set("writer", how);
      return new Promise(() => {}); // held for the life of the tab
    }).catch(() => {
      if (!held) return; // a queued request withdrawn by this tab
      this.set("follower", "stolen");
      this.queue();
    });
  }

  // Wait in the lock's queue: the writer's tab closing makes this one the writer.
  queue() {
    this.waiting = new AbortController();
    this.request({ signal: this.waiting.signal });
  }

  // "Prendre la main": this tab writes now, the other one follows.
  takeOver() {
    if (this.role === "writer") return;
    if (this.locks) {
      this.waiting?.abort();
      this.waiting = null;
      this.request({ steal: true }, null, "took");
    } else {
      this.channel?.postMessage({ type: "take" });
      this.set("writer", "took");
    }
  }

  // The writer's new save and what its tab shows of it (the engine's answer as text, or
  // the board and counts), for the tabs that follow: sent once this tab's frame is painted
  // (web/infra/later.js). Saves made before it goes are one message, the last: each save
  // holds the whole fight.
  publish(text, shown) {
    if (this.role !== "writer" || !this.channel) return;
    this.latest = { type: "save", text, shown };
    if (!this.followed) return; // no tab to tell: kept for the first that follows (followedBy)
    const waiting = this.outgoing !== null;
    this.outgoing = this.latest;
    if (waiting) return;
    const send = () => {
      const message = this.outgoing;
      this.outgoing = null;
      if (message && this.role === "writer") this.channel.postMessage(message);
    };
    afterPaint(send);
  }

  message(data) {
    if (!data || typeof data !== "object") return;
    if (data.type === "save" && typeof data.text === "string" && this.role === "follower") this.emitSave(data.text, shownBoard(data.shown));
    else if (data.type === "following" && this.role === "writer") this.followedBy();
    else if (!this.locks && data.type === "who" && this.role === "writer") this.channel.postMessage({ type: "writer" });
    else if (!this.locks && data.type === "writer") this.answer?.(true);
    else if (!this.locks && data.type === "take" && this.role === "writer") this.set("follower", "stolen");
  }

  // A tab said it follows this writer: every save is sent from now on, and the last one at
  // once (the follower may have read storage before that save's write landed).
  followedBy() {
    this.followed = true;
    if (this.latest !== null && this.outgoing === null) this.channel.postMessage(this.latest);
  }
}

// What a follower shows of the writer's answer (Session.take): the board, the counts, the
// answers an attack awaits (`attackers`, `used`), the fighter just removed (`gone`) and the
// turn's clock (`turn`: who holds it since when); never its save, which a follower never
// writes, nor its `cue`, which sounds on the writer's device alone.
export function shownOf(answer) {
  const { board, undo, redo, last, next, used, attackers, gone, turn } = answer;
  return { board, undo, redo, last, next, used, attackers, gone, turn };
}

// What a writer's tab shows, as a message carries it (the engine's answer as its text, or
// its board and counts): used when it holds a board, else null (an older tab's message, a
// text that does not read: the follower's engine reads the save instead).
function shownBoard(shown) {
  if (typeof shown === "string") {
    try {
      const fields = shownOf(JSON.parse(shown) ?? {});
      unpack(fields.board); // the engine's text: each verdict once (web/infra/verdicts.js)
      return shownBoard(fields);
    } catch {
      return null;
    }
  }
  const board = shown?.board;
  return board && typeof board === "object" && Array.isArray(board.order) && board.combatants ? shown : null;
}
