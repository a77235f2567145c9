// The list of saved fights (issue #13): each with its name, the date of its last change
// and its round; open, rename, duplicate, delete (with undo), and the whole list exported.
// One set of listeners, on the list's section.
import { $, h, isolate, limitFields, own } from "../infra/dom.js";
import { language, t } from "../infra/i18n.js";

export class FightsView {
  constructor() {
    this.list = $("#fights");
    this.handlers = {};
    const section = $("#fights-group");
    section.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      const id = button.closest("li[data-id]")?.dataset.id;
      const what = button.dataset.fight;
      if (what === "rename") this.renaming(button.closest("li"));
      else if (what === "rename-cancel") this.handlers.redraw?.();
      else if (what) own(this.handlers, what)?.(id);
      else if (button.id === "export-fights") this.handlers.exportAll?.();
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

  // index: store.fights(); the open fight first, then the others by their last change.
  render(index) {
    const fights = [...index.fights].sort((a, b) => (a.id === index.current ? -1 : b.id === index.current ? 1 : String(b.updated).localeCompare(String(a.updated))));
    this.list.replaceChildren(...fights.map((f) => {
      const open = f.id === index.current;
      const name = isolate(f.name);
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

  // A line under the list (what happened), with « Annuler la suppression » after a delete.
  note(text, undo = false) {
    const note = $("#fights-note");
    note.replaceChildren(text, undo ? h("button", { type: "button", dataset: { fight: "restore" } }, t("fightRestore")) : "");
    note.hidden = !text;
  }
}

// "30/11/2026 14:03", in the page's language.
function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(language(), { dateStyle: "short", timeStyle: "short" });
}
