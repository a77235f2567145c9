// The game menu: share, files, players' view, new fight, settings, the save set aside.
import { $, h, own } from "../infra/dom.js";

export class MenuView {
  constructor() {
    this.handlers = {};
    this.clockHandlers = {};
    const byId = { "open-share": "share", export: "exportFile", "open-players": "players", "open-rules": "rules", "new-party": "newParty",
      "new-empty": "newEmpty", "open-help": "help", "export-aside": "exportAside" };
    const menu = $("#screen-menu");
    menu.addEventListener("click", (event) => {
      const button = event.target.closest("button[id]");
      if (button && Object.hasOwn(byId, button.id)) own(this.handlers, byId[button.id])?.();
    });
    menu.addEventListener("change", (event) => {
      if (event.target.id === "language") this.handlers.language?.(event.target.value);
      if (event.target.id === "theme") this.handlers.theme?.(event.target.value);
      if (event.target.id === "clock-limit") this.clockHandlers.clock?.(event.target.value === "off" ? null : Number(event.target.value));
      if (event.target.id === "cue") this.clockHandlers.cue?.(event.target.value);
      if (event.target.id === "import") this.imported(event.target);
    });
    // Safari's seven days, said (views/fights-view.js): its restore is a file imported.
    $("#seven-days-file").addEventListener("change", (event) => this.imported(event.target));
  }

  imported(input) {
    const [file] = input.files;
    input.value = "";
    if (file) this.handlers.importFile?.(file);
  }

  // handlers: share, exportFile, players, rules, newParty, newEmpty, help, exportAside,
  // language(code), theme("system", "light" or "dark"), importFile(file).
  bind(handlers) {
    this.handlers = handlers;
  }

  showLanguage(code) {
    $("#language").value = code;
  }

  // The theme on the page at once (web/theme.js sets the saved one before the first paint).
  showTheme(theme) {
    $("#theme").value = theme;
    const root = document.documentElement;
    if (theme === "light" || theme === "dark") root.dataset.theme = theme;
    else delete root.dataset.theme;
    document.querySelector('meta[name="color-scheme"]')?.setAttribute("content", root.dataset.theme ?? "light dark");
  }

  // The turn clock and the cue of a PJ's turn (controllers/clock.js): clock(limit in s, or
  // null: off), cue("off", "sound", "vibrate" or "both").
  bindClock(handlers) {
    this.clockHandlers = handlers;
  }

  showClock(limit, cue) {
    const select = $("#clock-limit");
    if (limit !== null && ![...select.options].some((o) => o.value === String(limit))) {
      select.append(h("option", { value: String(limit) }, `${limit} s`));
    }
    select.value = limit === null ? "off" : String(limit);
    $("#cue").value = cue;
  }

  showAside(kept) {
    $("#aside").hidden = !kept;
  }
}

