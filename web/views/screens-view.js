// The tabs and the screens they show (infra/navigation.js says which is on).
import { $ } from "../infra/dom.js";

export class Screens {
  constructor() {
    this.onPick = null;
    $(".tabs").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-screen]");
      if (button) this.onPick?.(button.dataset.screen);
    });
  }

  bindPick(handler) {
    this.onPick = handler;
  }

  current() {
    return $("[data-screen-panel]:not([hidden])")?.dataset.screenPanel;
  }

  // Another screen opens at its top (its heading in view), not where the last one was scrolled.
  show(name) {
    if (this.current() !== name) window.scrollTo(0, 0);
    for (const panel of document.querySelectorAll("[data-screen-panel]")) panel.hidden = panel.dataset.screenPanel !== name;
    for (const tab of document.querySelectorAll(".tabs button")) {
      if (tab.dataset.screen === name) tab.setAttribute("aria-current", "page");
      else tab.removeAttribute("aria-current");
    }
    document.body.classList.toggle("players", name === "players");
  }
}
