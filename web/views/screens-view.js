// The tabs and the screens they show (infra/navigation.js says which is on). From 50rem
// wide (a tablet, a laptop) the board has a companion beside it: the journal.
import { $ } from "../infra/dom.js";

const WIDE = "(min-width: 50rem)";
const COMPANIONS = { board: ["journal"] };

export class Screens {
  constructor() {
    this.onPick = null;
    this.onBeside = null;
    $(".tabs").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-screen]");
      if (button) this.onPick?.(button.dataset.screen);
    });
    this.wide = window.matchMedia?.(WIDE) ?? null;
    this.wide?.addEventListener("change", () => this.arrange());
    this.arrange();
  }

  bindPick(handler) {
    this.onPick = handler;
  }

  // handler(name): a screen's panel now shown beside the one on.
  bindBeside(handler) {
    this.onBeside = handler;
  }

  // The screen on (not a companion shown beside it).
  current() {
    return $("[data-screen-panel]:not([hidden]):not(.companion)")?.dataset.screenPanel;
  }

  // Whether a screen's panel is on screen: the screen on, or a companion beside it.
  shows(name) {
    return !$(`[data-screen-panel="${CSS.escape(name)}"]`)?.hidden;
  }

  // Another screen opens at its top (its heading in view), not where the last one was scrolled.
  show(name) {
    if (this.current() !== name) window.scrollTo(0, 0);
    this.arrange(name);
    for (const tab of document.querySelectorAll(".tabs button")) {
      if (tab.dataset.screen === name) tab.setAttribute("aria-current", "page");
      else tab.removeAttribute("aria-current");
    }
    document.body.classList.toggle("players", name === "players");
  }

  // The screen `name` on, with its companions beside it where the page is wide.
  arrange(name = this.current()) {
    const beside = this.wide?.matches ? COMPANIONS[name] ?? [] : [];
    const arrived = [];
    for (const panel of document.querySelectorAll("[data-screen-panel]")) {
      const which = panel.dataset.screenPanel;
      const companion = beside.includes(which);
      if (companion && (panel.hidden || !panel.classList.contains("companion"))) arrived.push(which);
      panel.hidden = which !== name && !companion;
      panel.classList.toggle("companion", companion);
    }
    $("main").classList.toggle("beside", beside.length > 0);
    for (const which of arrived) this.onBeside?.(which);
  }
}
