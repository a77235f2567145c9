// « Règles de la table »: the group's rules as a table, one row per field of the engine's
// (Table.limits `regles`: its label with its rule's number, its kind, its bounds or its
// choices, the book's value), each editable within the engine's bounds; the refusals
// next to their field, as the fighter form shows its own. The page knows no rule: the
// fields, their order, their bounds and their words are the engine's.
import { $, h, isolate } from "../infra/dom.js";
import { language, reason, t } from "../infra/i18n.js";

export class RulesView {
  constructor() {
    this.form = $("#rules-form");
    this.fields = []; // the engine's fields (regles.screen), once known
    this.handlers = {};
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.handlers.apply?.(this.read(), $("#rules-now").checked ? "now" : "next");
    });
    this.form.addEventListener("input", () => {
      this.dirty = true;
    });
    $("#rules-book").addEventListener("click", () => this.handlers.book?.());
    $("#rules-back").addEventListener("click", () => this.handlers.back?.());
    $("#rule-set-keep").addEventListener("click", () => this.handlers.keep?.($("#rule-set-name").value));
    $("#rule-sets-export").addEventListener("click", () => this.handlers.exportSets?.());
    $("#rule-sets-file").addEventListener("change", (event) => {
      const [file] = event.target.files;
      event.target.value = "";
      if (file) this.handlers.importSets?.(file);
    });
    const chosen = { use: "useSet", delete: "deleteSet", link: "linkSet" };
    $("#rule-set-list").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-set]");
      if (button) this.handlers[chosen[button.dataset.set]]?.(Number(button.dataset.index));
    });
  }

  // handlers: apply(regles, when), book(), back(), keep(name), useSet(index), deleteSet(index),
  // linkSet(index), exportSets(), importSets(file).
  bind(handlers) {
    this.handlers = handlers;
  }

  // The label of a field in the page's language (the engine's words, French by default).
  label(field) {
    return field.label[language()] ?? field.label.fr;
  }

  // A value in words: a boolean, the aim's cap of the skill level (null), a choice, a set of categories.
  worded(field, value) {
    const words = field.words?.[language()] ?? field.words?.fr ?? {};
    if (typeof value === "boolean") return t(value ? "rulesYes" : "rulesNo");
    if (value === null) return words.null ?? "";
    if (field.kind === "table") return value.map(([low, metres]) => `${low} → ${metres} m`).join(", ") || t("rulesNone");
    if (Array.isArray(value)) return value.map((x) => words[x] ?? x).join(", ") || t("rulesNone");
    return String(words[value] ?? value);
  }

  // The rules shown: `shown`, those the next round starts with (what « Appliquer » changes),
  // `inForce`, those of this round (each number that differs said under its field).
  render(fields, shown, inForce, pending) {
    this.fields = fields;
    this.dirty = false;
    $("#rules-pending").hidden = !pending;
    $("#rules-fields").replaceChildren(...fields.map((f) => this.row(f, shown[f.name], inForce[f.name])));
    this.showErrors([]);
  }

  row(f, value, now) {
    const id = `rule-${f.name}`;
    const notes = [];
    if (JSON.stringify(now) !== JSON.stringify(value)) notes.push(t("rulesInForce", this.worded(f, now)));
    if (JSON.stringify(f.default) !== JSON.stringify(value)) notes.push(t("rulesBookValue", this.worded(f, f.default)));
    // The aim's cap left empty is the weapon's skill level (R4.1): said under it, in full.
    if (f.kind === "cap") notes.unshift(t("rulesEmptyIs", f.words?.[language()]?.null ?? f.words?.fr?.null ?? ""));
    const note = notes.length ? h("small", { class: "hint rule-note" }, notes.join(" · ")) : null;
    const hint = f.kind === "table" ? h("small", { class: "hint", id: `${id}-hint` }, t("rulesTableHint")) : null;
    const cell = h("td", { class: "field" }, this.control(f, id, value), hint, note);
    const label = f.kind === "categories"
      ? h("span", { id: `${id}-label` }, this.label(f))
      : h("label", { for: id }, this.label(f));
    return h("tr", { dataset: { rule: f.name } }, h("th", { scope: "row" }, label), cell);
  }

  control(f, id, value) {
    const words = f.words?.[language()] ?? f.words?.fr ?? {};
    switch (f.kind) {
      case "boolean":
        return h("input", { id, type: "checkbox", checked: value === true });
      case "choice": {
        const select = h("select", { id }, f.choice.map((c) => h("option", { value: c }, words[c] ?? c)));
        select.value = value;
        return select;
      }
      case "categories":
        return h("div", { id, role: "group", "aria-labelledby": `${id}-label`, class: "rule-choices" },
          f.choice.map((c) => h("div", { class: "check" },
            h("input", { id: `${id}-${c}`, type: "checkbox", value: c, checked: value.includes(c) }),
            h("label", { for: `${id}-${c}` }, words[c] ?? c))));
      case "table":
        // R4.3's run table as text, « 5 → 6, 10 → 12 » (read back by `read`).
        return h("input", { id, type: "text", autocomplete: "off",
          value: value.map(([low, metres]) => `${low} → ${metres}`).join(", "), "aria-describedby": `${id}-hint` });
      default:
        // An integer within the engine's bounds; the aim's cap may be left empty: the skill level.
        return h("input", { id, type: "number", inputmode: "numeric", step: 1, min: f.low, max: f.high,
          value: value ?? "" });
    }
  }

  // The rules as typed, as set_rules takes them: numbers as the engine reads them (a number
  // the browser cannot read goes as text, so that the engine names it), an empty cap null.
  read() {
    const out = Object.create(null);
    for (const f of this.fields) {
      const el = $(`#rule-${f.name}`);
      if (!el) continue;
      if (f.kind === "boolean") out[f.name] = el.checked;
      else if (f.kind === "choice") out[f.name] = el.value;
      else if (f.kind === "categories") out[f.name] = [...el.querySelectorAll("input:checked")].map((c) => c.value);
      else if (f.kind === "table") out[f.name] = this.runTable(el.value);
      else {
        const raw = el.value.trim();
        out[f.name] = el.validity?.badInput ? "?" : raw === "" ? (f.kind === "cap" ? null : "") : Number(raw);
      }
    }
    return out;
  }

  // The run table as typed, « 5 → 6, 10 → 12 » (or « 5:6 »), as set_rules takes it: rows of
  // two integers; a text that does not read so goes as it is, for the engine to refuse.
  runTable(text) {
    const rows = text.split(/[,;\n]/).map((row) => row.trim()).filter(Boolean)
      .map((row) => /^(-?\d+)\s*(?:→|->|:|=)\s*(-?\d+)\s*m?$/.exec(row));
    return rows.every(Boolean) ? rows.map((m) => [Number(m[1]), Number(m[2])]) : text;
  }

  // The book's rules in the form (the engine's defaults), not yet applied.
  fillBook() {
    this.fill({});
  }

  // `values` in the form (a kept rule set), each field missing the book's, not yet applied.
  fill(values) {
    const filled = Object.fromEntries(this.fields.map((f) => [f.name, Object.hasOwn(values, f.name) ? values[f.name] : f.default]));
    $("#rules-fields").replaceChildren(...this.fields.map((f) => this.row(f, filled[f.name], filled[f.name])));
    this.dirty = true;
    this.showErrors([]);
  }

  // The kept rule sets, each with « Reprendre » and « Supprimer » (names are user text).
  renderSets(sets) {
    const list = $("#rule-set-list");
    list.replaceChildren(...sets.map((s, i) => h("li", { class: "cast-row" },
      h("span", { class: "name" }, isolate(s.name)),
      h("div", { class: "card-tools" },
        h("button", { type: "button", dataset: { set: "use", index: i }, "aria-label": t("ruleSetUseFor", isolate(s.name)) }, t("ruleSetUse")),
        h("button", { type: "button", dataset: { set: "link", index: i }, "aria-label": t("ruleSetLinkFor", isolate(s.name)) }, t("ruleSetLink")),
        h("button", { type: "button", dataset: { set: "delete", index: i }, "aria-label": t("ruleSetDeleteFor", isolate(s.name)) }, t("ruleSetDelete"))))));
    if (!sets.length) list.append(h("li", { class: "hint" }, t("ruleSetsNone")));
  }

  // A rule set's link, under the list, selected to copy ("" hides it).
  showLink(name, link) {
    $("#rule-set-link-line").hidden = !link;
    $("#rule-set-link-label").textContent = link ? t("ruleSetLinkOf", isolate(name)) : "";
    const input = $("#rule-set-link");
    input.value = link;
    if (link) input.select();
  }

  // Why a file of rule sets was not imported: the engine's refusal, or each field it
  // refuses in each set (its name, or its number), in the page's words ("" clears it).
  setsError(text, fields = []) {
    const byName = new Map(this.fields.map((f) => [f.name, f]));
    const labelOf = (path) => {
      const name = String(path).replace(/^regles\[\d+\]\./, "").replace(/^regles\./, "").replace(/\[.*$/, "");
      return name === "name" ? t("ruleSetName") : byName.has(name) ? this.label(byName.get(name)) : String(path);
    };
    const lines = fields.map((f) => t("ruleSetInSet", f.name ? `« ${isolate(f.name)} »` : t("ruleSetUnnamed", f.set + 1),
      reason(f.key, { ...f.params, field: f.field }, labelOf)));
    const box = $("#rule-sets-error");
    box.replaceChildren(...[text, ...lines].filter(Boolean).map((line) => h("span", { class: "line" }, line)));
    box.hidden = !text && !lines.length;
  }

  // The name's refusal under its field ("" clears it).
  nameError(text) {
    const input = $("#rule-set-name");
    $("#rule-set-name-error")?.remove();
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
    if (!text) return;
    const note = h("p", { class: "error field-error", id: "rule-set-name-error" }, text);
    input.closest(".field").append(note);
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", note.id);
    input.focus();
  }

  // Every field the engine refuses, next to its field, in the page's words; `general`:
  // what names no field.
  showErrors(errors, general = "") {
    for (const note of this.form.querySelectorAll(".field-error")) note.remove();
    for (const el of this.form.querySelectorAll("[aria-invalid]")) {
      el.removeAttribute("aria-invalid");
      el.removeAttribute("aria-describedby");
    }
    const byName = new Map(this.fields.map((f) => [f.name, f]));
    const labelOf = (path) => {
      const f = byName.get(String(path).replace(/^regles\./, "").replace(/\[.*$/, ""));
      return f ? this.label(f) : String(path);
    };
    const unplaced = [];
    let first = null;
    for (const error of errors) {
      const name = String(error.field).replace(/^regles\./, "").replace(/\[.*$/, "");
      const params = { ...error.params, field: error.field };
      if (typeof params.other === "string" && byName.has(params.other)) params.other = this.label(byName.get(params.other));
      const text = reason(error.key, params, labelOf);
      const el = byName.has(name) ? $(`#rule-${name}`) : null;
      if (!el || el.getAttribute("aria-invalid")) {
        if (!el) unplaced.push(text);
        continue;
      }
      const note = h("p", { class: "error field-error", id: `rule-${name}-error` }, text);
      el.closest("td").append(note);
      el.setAttribute("aria-invalid", "true");
      el.setAttribute("aria-describedby", note.id);
      first ??= el;
    }
    const summary = [errors.length ? t("fieldsToFix", errors.length) : "", ...unplaced, general].filter(Boolean).join(" ");
    const box = $("#rules-error");
    box.textContent = summary;
    box.hidden = !summary;
    return first;
  }
}
