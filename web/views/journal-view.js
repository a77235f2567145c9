// The journal, the game menu, the share, confirm and help dialogs. Text only, as always.
import { $, h, isolate, own } from "./dom.js";
import { actionName, t, term } from "./i18n.js";
import { costLabel, testLabel } from "./labels.js";

// --- the journal: entries from the engine (engine/journal.py), worded here -------------
function entryText(e, catalogue) {
  switch (e.kind) {
    case "joined": return t("jJoined", isolate(e.name), term("sides", e.side));
    case "removed": return t("jRemoved", isolate(e.name));
    case "renamed": return t("jRenamed", isolate(e.name), isolate(e.to));
    case "out": return t("jOut", isolate(e.name));
    case "back": return t("jBack", isolate(e.name));
    case "round_started": return [t("jRoundStarted", e.round),
      ...e.initiatives.map((i) => t("jRoll", isolate(i.name), i.weapon && isolate(i.weapon), i.d6, i.initiative, i.rolled_by === "engine"))].join("\n  ");
    case "passed": return t("jPassed", isolate(e.name), e.pi);
    case "round_ended": return t("jRoundEnded", e.reason);
    case "action": {
      const parts = [t("jAction", isolate(e.name), actionName(e.action, own(catalogue, e.action)?.name ?? e.action), costLabel(e), e.category === "interruption")];
      if (e.target) parts.push(t("jTarget", isolate(e.target)));
      if (e.against) parts.push(t("jAgainst", isolate(e.against)));
      if (e.pays === "espoir") parts.push(t("jHopeMove", e.hope_before, e.hope_after));
      else parts.push(t("jPiMove", e.pi_before, e.pi_after));
      for (const test of e.tests) parts.push(t("jTest", testLabel(test)));
      if ("test_result" in e.outcome) parts.push(t("jResult", e.outcome.test_result));
      if ("success" in e.outcome) parts.push(t("jOutcome", e.outcome.success));
      return parts.join(" · ");
    }
    default: return "";
  }
}

export function journalRounds(entries, catalogue) {
  const rounds = [];
  for (const e of entries) {
    if (!rounds.length || rounds[rounds.length - 1].round !== e.round) rounds.push({ round: e.round, lines: [] });
    rounds[rounds.length - 1].lines.push(entryText(e, catalogue));
  }
  return rounds;
}

export function journalText(rounds) {
  return rounds.map((r) => [`== ${t("journalRound", r.round)} ==`, ...r.lines].join("\n")).join("\n\n");
}

// The journal screen; copying its text is its own (the clipboard, or a message why not).
export class JournalView {
  constructor() {
    this.root = $("#journal");
    this.onCopy = null;
    $("#copy-journal").addEventListener("click", () => this.onCopy?.());
  }

  bindCopy(handler) {
    this.onCopy = handler;
  }

  render(rounds) {
    this.root.replaceChildren(...rounds.map((r) => h("section", { class: "journal-round" },
      h("h3", {}, t("journalRound", r.round)),
      h("ol", {}, r.lines.map((line) => h("li", {}, line))))));
    if (!rounds.length) this.root.append(h("p", { class: "hint" }, t("journalEmpty")));
  }

  // Resolves true when the text is on the clipboard.
  copy(text) {
    return navigator.clipboard.writeText(text).then(() => true, () => false);
  }
}

// The game menu: share, files, players' view, new fight, settings, the save set aside.
export class MenuView {
  constructor() {
    this.handlers = {};
    const byId = { "open-share": "share", export: "exportFile", "open-players": "players", "new-party": "newParty",
      "new-empty": "newEmpty", "open-help": "help", "export-aside": "exportAside" };
    const menu = $("#screen-menu");
    menu.addEventListener("click", (event) => {
      const button = event.target.closest("button[id]");
      if (button && Object.hasOwn(byId, button.id)) own(this.handlers, byId[button.id])?.();
    });
    menu.addEventListener("change", (event) => {
      if (event.target.id === "language") this.handlers.language?.(event.target.value);
      if (event.target.id === "theme") this.handlers.theme?.(event.target.value);
      if (event.target.id === "import") {
        const [file] = event.target.files;
        event.target.value = "";
        if (file) this.handlers.importFile?.(file);
      }
    });
  }

  // handlers: share, exportFile, players, newParty, newEmpty, help, exportAside,
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

  showAside(kept) {
    $("#aside").hidden = !kept;
  }
}

// The share dialog: the link, its QR code, "players' view" and "copy".
export class ShareView {
  constructor() {
    this.dialog = $("#share-dialog");
    this.handlers = {};
    this.dialog.addEventListener("click", (event) => {
      if (event.target.closest("#share-copy")) this.handlers.copy?.();
      else if (event.target.closest("#share-file")) this.handlers.exportFile?.();
    });
    this.dialog.addEventListener("change", (event) => {
      if (event.target.id === "share-players") this.handlers.players?.(event.target.checked);
    });
  }

  // handlers: copy, exportFile, players(checked).
  bind(handlers) {
    this.handlers = handlers;
  }

  open(link, playersLink, makeQr) {
    $("#share-link").value = link;
    $("#share-players").checked = playersLink;
    $("#share-status").textContent = t("qrLoading");
    $("#share-qr").replaceChildren();
    if (!this.dialog.open) this.dialog.showModal();
    makeQr(link).then((svg) => {
      if (svg) {
        svg.setAttribute("role", "img");
        svg.setAttribute("aria-label", t("qrAlt", link.length));
        $("#share-qr").replaceChildren(svg);
        $("#share-status").textContent = "";
      } else {
        $("#share-status").textContent = t("qrTooLong", link.length);
      }
    });
  }

  // Resolves true when the link is on the clipboard; else selects it, for a copy by hand.
  copy() {
    const field = $("#share-link");
    return navigator.clipboard.writeText(field.value).then(() => true, () => {
      field.select();
      return false;
    });
  }
}

// --- dialogs -----------------------------------------------------------------------------
// The app's own "are you sure?": ask() resolves true (yes) or false (no, or Escape).
export class ConfirmDialog {
  constructor() {
    this.dialog = $("#confirm-dialog");
    this.answer = null;
    this.dialog.addEventListener("close", () => this.answer?.(this.dialog.returnValue === "yes"));
  }

  ask(title, lines, yes, no) {
    $("#confirm-title").textContent = title;
    $("#confirm-body").replaceChildren(...lines.map((line) => h("p", {}, line)));
    $("#confirm-yes").textContent = yes;
    $("#confirm-no").textContent = no;
    this.dialog.returnValue = ""; // Escape leaves it as it was: not a yes from last time
    this.dialog.showModal();
    $("#confirm-no").focus();
    return new Promise((resolve) => {
      this.answer = resolve;
    });
  }
}

export function openHelp() {
  $("#help-keys").replaceChildren(...t("keys").map(([key, what]) => h("div", { class: "key" }, h("dt", {}, h("kbd", {}, key)), h("dd", {}, what))));
  $("#help-dialog").showModal();
}
