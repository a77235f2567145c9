// What every screen shares: the engine's status, the message line, the live region, the
// writer's banner, the update and the unreadable save's offers. Each view owns its DOM
// and binds its listeners once, in its constructor.
import { $, h } from "../infra/dom.js";
import { t } from "../infra/i18n.js";
import { said, unwritten } from "../infra/refusals.js";

export class StatusView {
  constructor() {
    this.root = document.documentElement;
    this.onUpdate = null;
    this.onTakeOver = null;
    this.onHeld = null;
    $("#reload").addEventListener("click", () => window.location.reload());
    $("#apply-update").addEventListener("click", () => this.onUpdate?.());
    $("#take-over").addEventListener("click", () => this.onTakeOver?.());
    // A message belongs to the screen it was said on: another tab clears it.
    $(".tabs").addEventListener("click", (event) => {
      if (event.target.closest("button[data-screen]")) this.message("");
    });
    $("#held").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-held]");
      if (button) this.onHeld?.(button.dataset.held);
    });
  }

  // Who writes the fight (controllers/tabs.js): this tab ("writer") or another one
  // ("follower": this tab follows it read-only, with « Prendre la main »). `how` says why
  // it changed: "start", "stolen", "took", "freed".
  setWriter(role, how) {
    this.writer = [role, how];
    this.root.dataset.writer = role;
    $("#writer").hidden = role === "writer";
    $("#writer-text").textContent = role === "follower" ? t(how === "stolen" ? "writerStolen" : "writerOther") : "";
    if (role === "writer" && how !== "start") this.message(t(how === "took" ? "writerTook" : "writerFreed"));
  }

  // The language changed: the banner's words too.
  writerWords() {
    const [role, how] = this.writer ?? ["writer", "start"];
    if (role === "follower") $("#writer-text").textContent = t(how === "stolen" ? "writerStolen" : "writerOther");
  }

  bindTakeOver(handler) {
    this.onTakeOver = handler;
  }

  // « Arrêter » beside the progress of a long piece of work, when `stoppable()` says it can
  // be stopped (another fight opening, a list imported): `stop()` asks, and the page says
  // the open fight stays as it is.
  bindStop(stoppable, stop) {
    this.stoppable = stoppable;
    $("#engine-work-stop").addEventListener("click", (event) => {
      event.currentTarget.hidden = true;
      if (stop()) this.message(t("workStopping"));
    });
  }

  // An unreadable save that could not be set aside: download it, or give it up.
  offerHeld() {
    $("#held").hidden = false;
  }

  hideHeld() {
    $("#held").hidden = true;
  }

  // handler("download" or "discard")
  bindHeld(handler) {
    this.onHeld = handler;
  }

  // `early`: the saved board is shown and takes taps while the engine starts (they are
  // queued, web/infra/session.js): its cards and « Finir le tour » wake up at once, the rest
  // with the engine.
  setEngine(status, text, early = false) {
    this.root.dataset.engine = status;
    $("#engine-status-text").textContent = text;
    $("#engine-status").hidden = status === "ready";
    // No button that does nothing: the controls wake up with the engine.
    const live = status === "ready" || (early && status === "loading");
    for (const el of document.querySelectorAll("main, .tabs, .tools")) el.inert = status !== "ready" && !(live && el.matches("main"));
    for (const el of document.querySelectorAll("main > section:not(#screen-board), #next-round")) el.inert = status !== "ready";
    if (live && status !== "ready") this.root.dataset.early = "";
    else delete this.root.dataset.early;
    $("#reload").hidden = status !== "fault" && status !== "error";
  }

  // How far the engine is in a long piece of work ({ done, total }), or null: none.
  work(work) {
    const box = $("#engine-work");
    box.hidden = work === null;
    if (work === null) return;
    $("#engine-work-stop").hidden = !this.stoppable?.();
    const bar = $("#engine-work-bar");
    bar.max = work.total;
    bar.value = work.done;
    $("#engine-work-text").textContent = t("engineWork", work.done, work.total);
  }

  // How the page started, for the tests and the benchmark: data-boot, data-snapshot.
  mark(name, value) {
    this.root.dataset[name] = value;
  }

  offerUpdate(apply) {
    this.onUpdate = apply;
    $("#update").hidden = false;
  }

  message(text) {
    const el = $("#message");
    el.textContent = text || "";
    el.hidden = !text;
    // Said where it is seen: a message set while the page is scrolled down (a file refused
    // at the bottom of the menu) is brought into view, below the sticky header.
    if (text) {
      const { top, bottom } = el.getBoundingClientRect();
      if (top < $(".top").getBoundingClientRect().bottom || bottom > window.innerHeight) el.scrollIntoView({ block: "center" });
    }
  }

  // A refusal said on the message line (web/infra/refusals.js), followed by `then` (what
  // else the tap did): nothing when there is nothing to say there (an answer that was not
  // refused, a fault, a tap dropped).
  refused(answer, then = "") {
    const text = said(answer);
    if (text) this.message(then ? `${text} ${then}` : text);
  }

  // What a tap did, as the user must hear it: `done`, when given, replaces the message at
  // once; a save that could not be written (`stored`, Session.take: what the write did, or
  // its promise) is said when the write answers, over any success.
  report(stored, done) {
    if (done !== undefined) this.message(done);
    Promise.resolve(stored).then((write) => {
      const failed = unwritten(write);
      if (failed) this.refused(failed);
    });
  }

  // What the browser's storage told the page (web/infra/store.js onNotice: where the
  // fights are kept, a database emptied or taken by another version, fights found again):
  // kept on screen, one paragraph each, apart from the message line that each tap rewrites,
  // until its « ✕ » closes it (a new notice shows it again).
  storageNote(text) {
    const el = $("#storage-note");
    let close = el.querySelector(".note-close");
    if (!close) {
      close = h("button", { type: "button", class: "small note-close", "aria-label": t("storageNoteClose") }, "✕");
      close.addEventListener("click", () => {
        el.hidden = true;
        for (const line of el.querySelectorAll("p")) line.remove();
      });
      el.append(close);
    }
    close.setAttribute("aria-label", t("storageNoteClose"));
    el.append(h("p", {}, text));
    el.hidden = false;
  }

    announce(text) {
    $("#live").textContent = text;
  }
}
