// Keyboard shortcuts for a GM on a laptop (listed in the help panel: lang/*.js "keys").
// Letters act only outside form fields and dialogs; Ctrl+Z in a field undoes the typing.
import { own } from "./dom.js";

const SCREENS = ["board", "round", "cast", "journal", "menu"];

export function bindKeys(handlers) {
  document.addEventListener("keydown", (event) => {
    if (document.documentElement.dataset.engine !== "ready" || event.altKey) return;
    const target = event.target;
    if (target.closest?.("input, select, textarea, [contenteditable]")) return;
    const key = event.key.toLowerCase();
    if (event.ctrlKey || event.metaKey) {
      if (key === "z" && !event.shiftKey) handlers.undo();
      else if ((key === "z" && event.shiftKey) || key === "y") handlers.redo();
      else return;
      event.preventDefault();
      return;
    }
    if (document.querySelector("dialog[open]")) return;
    const action = own({ a: "act", i: "interrupt", p: "pass", r: "answer", f: "endRound", n: "nextRound", "?": "help" }, key);
    if (action) handlers[action]();
    else if (SCREENS[Number(key) - 1]) handlers.screen(SCREENS[Number(key) - 1]);
    else return;
    event.preventDefault();
  });
}
