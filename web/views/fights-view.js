// The list of saved fights: each with its name, the date of its last change
// and its round; open, rename, duplicate, delete (each delete undone in turn), and the
// whole list exported.
// One set of listeners, on the list's section.
import { $, h, isolate, limitFields, own, presses } from "../infra/dom.js";
import { fightName, language, t } from "../infra/i18n.js";

// A burst of taps acts once: a tap on the list less than BURST ms after the one before, on
// the same kind of button where that one landed, is dropped (a row moves up under the finger
// when the one above is deleted, a copy comes under it, the list is drawn again); so is a tap
// on the same kind of button, where the last tap that acted landed, less than SETTLE ms after
// it: the row that came there could not be read yet, and five taps in a second at one spot
// are one gesture (a pause of 401 ms inside it does not make it two). Another button, a tap
// elsewhere, a tap after a pause, or the keyboard goes through. Taps are counted as they are
// pressed (`presses`).
const BURST = 400;
const SETTLE = 1500;

function burstGuard(section) {
  const taps = presses((target) => section.contains(target));
  let acted = null; // the press of the last tap that went through, and its kind
  return (event, button) => {
    const { before, last } = taps;
    if (event.detail === 0 || !last) return true; // Enter or Space
    const kind = kindOf(button);
    const burst = before && kindOf(before.target.closest("button")) === kind && last.time - before.time < BURST && taps.over(before, button);
    const settling = acted && acted.kind === kind && last.time - acted.time < SETTLE && taps.over(acted, button);
    if (burst || settling) return false;
    acted = { ...last, kind };
    return true;
  };
}

const kindOf = (button) => button && (button.dataset.fight ?? button.type);

export class FightsView {
  constructor() {
    this.list = $("#fights");
    this.handlers = {};
    const section = $("#fights-group");
    const steady = burstGuard(section);
    section.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button || !steady(event, button)) return;
      const id = button.closest("li[data-id]")?.dataset.id;
      const what = button.dataset.fight;
      if (what === "rename") this.renaming(button.closest("li"));
      else if (what === "rename-cancel") this.handlers.redraw?.();
      else if (what) own(this.handlers, what)?.(id);
      else if (button.id === "export-fights") this.handlers.exportAll?.();
    });
    $("#seven-days").addEventListener("click", (event) => {
      const what = event.target.closest("button[data-seven]")?.dataset.seven;
      if (what === "backup") this.handlers.exportAll?.();
      if (what === "done") this.sevenDays(false);
    });
    section.addEventListener("submit", (event) => {
      event.preventDefault();
      const li = event.target.closest("li[data-id]");
      this.handlers.rename?.(li.dataset.id, event.target.querySelector("input").value);
    });
  }

  // handlers: open(id), rename(id, name), duplicate(id), remove(id), restore(), exportAll(), redraw().
  bind(handlers) {
    this.handlers = handlers;
  }

  // index: the list (web/infra/fight-list.js); the open fight first, then the others by their last change.
  render(index) {
    const fights = [...index.fights].sort((a, b) => (a.id === index.current ? -1 : b.id === index.current ? 1 : String(b.updated ?? "").localeCompare(String(a.updated ?? ""))));
    this.list.replaceChildren(...fights.map((f) => {
      const open = f.id === index.current;
      const name = isolate(fightName(f.name, Number(f.id.slice(1))));
      return h("li", { class: `cast-row fight${open ? " open" : ""}`, dataset: { id: f.id } },
        h("span", { class: "name" }, name), open ? h("span", { class: "badge" }, t("fightOpen")) : null,
        h("span", { class: "summary" }, t("fightSummary", f.round ?? 0, f.fighters ?? 0, when(f.updated))),
        h("div", { class: "card-tools" },
          open ? null : h("button", { type: "button", class: "primary", dataset: { fight: "open" }, "aria-label": t("fightOpenFor", name) }, t("fightOpenButton")),
          h("button", { type: "button", dataset: { fight: "rename" }, "aria-label": t("fightRenameFor", name) }, t("fightRename")),
          h("button", { type: "button", dataset: { fight: "duplicate" }, "aria-label": t("fightDuplicateFor", name) }, t("duplicate")),
          open ? null : h("button", { type: "button", dataset: { fight: "remove" }, "aria-label": t("fightRemoveFor", name) }, t("fightRemove"))));
    }));
  }

  // The engine's limits (Table.limits): a fight is named as a fighter is.
  limit(limits) {
    this.limits = limits;
  }

  // The row's name becomes a field (its label says whose), with Enregistrer and Annuler.
  renaming(li) {
    const name = li.querySelector(".name").textContent;
    const id = `fight-name-${li.dataset.id.replace(/[^a-z0-9]/gi, "")}`;
    const input = h("input", { id, type: "text", value: name, autocomplete: "off", required: true, dataset: { limit: "name" } });
    li.replaceChildren(h("form", { class: "rename", novalidate: true },
      h("label", { for: id, class: "visually-hidden" }, t("fightNewName", name)), input,
      h("div", { class: "card-tools" },
        h("button", { type: "submit", class: "primary" }, t("save")),
        h("button", { type: "button", dataset: { fight: "rename-cancel" } }, t("cancel")))));
    limitFields(li, this.limits);
    input.focus();
    input.select();
  }

  // A name the list refused: its field stays as typed, marked and focused, the note under
  // the list saying why. False when the field is no longer there.
  refusedName(id) {
    const input = [...this.list.querySelectorAll("li")].find((li) => li.dataset.id === id)?.querySelector("form.rename input");
    if (!input) return false;
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", "fights-note");
    input.focus();
    return true;
  }

  // Safari's seven days, said (or no longer): with a backup of every fight and a restore,
  // each one tap.
  sevenDays(shown) {
    $("#seven-days").hidden = !shown;
  }

  // The fights deleted by the browser (or by hand) since the last visit, said with a
  // restore from a backup file, one tap (the banner of the seven days, without its backup:
  // there is nothing left to back up).
  lost() {
    const banner = $("#seven-days");
    const text = banner.querySelector("p");
    text.dataset.i18n = "fightsLost";
    text.textContent = t("fightsLost");
    banner.querySelector("[data-seven=backup]").hidden = true;
    banner.hidden = false;
  }

  // What the browser keeps: `used` and `quota` in bytes (null: not said), `persisted`
  // (true, false, null: not said), `backup`: the date of the last backup to a file, or null.
  storage({ used, quota, persisted, backup }) {
    const lines = [used !== null && quota !== null ? t("storageUse", size(used), size(Math.max(0, quota - used))) : t("storageUnknown")];
    if (persisted !== null) lines.push(t(persisted ? "storageKept" : "storageNotKept"));
    lines.push(backup ? t("lastBackup", when(backup)) : t("noBackup"));
    $("#fights-storage").textContent = lines.join(" ");
  }

  // A line under the list (what happened), with a button that brings back the last fight
  // deleted (`restore`: its label) after a delete, or after one came back while more wait.
  note(text, restore = null) {
    const note = $("#fights-note");
    note.replaceChildren(text, restore ? h("button", { type: "button", dataset: { fight: "restore" } }, restore) : "");
    note.hidden = !text;
    // Below a long list the note (and its undo) may be under the fold: brought into view.
    if (text) note.scrollIntoView({ block: "nearest" });
  }
}

// "1,2 Mo", "1.2 MB": bytes in the page's language, by thousands.
function size(bytes) {
  const units = t("sizeUnits");
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${new Intl.NumberFormat(language(), { maximumFractionDigits: unit ? 1 : 0 }).format(value)} ${units[unit]}`;
}

// "30/11/2026 14:03", in the page's language.
function when(iso) {
  const date = new Date(iso ?? NaN);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(language(), { dateStyle: "short", timeStyle: "short" });
}
