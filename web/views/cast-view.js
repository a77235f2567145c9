// The cast screen: the fighters of the encounter, the saved models (add N copies), and
// the fighter form. Sheets go to the engine as typed: the engine names what is wrong.
import { $, h, isolate, labelled, limitFields, own } from "../infra/dom.js";
import { reason, t, term } from "../infra/i18n.js";
import { skillLabel } from "./labels.js";

export class CastView {
  constructor() {
    this.cast = $("#cast");
    this.models = $("#models");
    this.dialog = $("#fighter-dialog");
    this.form = $("#fighter-form");
    this.handlers = {};
    this.editing = null; // the id of the fighter in the form, or null for a new one
    this.limits = null; // the engine's limits of a sheet, once asked (Table.limits)
    this.checkTimer = 0;
    $("#screen-cast").addEventListener("click", (event) => {
      const target = event.target;
      const row = target.closest("button[data-cast]");
      const model = target.closest("button[data-model]");
      if (row) own(this.handlers, row.dataset.cast)?.(row.dataset.id);
      else if (model?.dataset.model === "delete") this.handlers.deleteModel?.(Number(model.dataset.index));
      else if (model) {
        const index = Number(model.dataset.index);
        this.handlers.addCopies?.(index, Number(model.closest("li").querySelector("input.copies").value));
      } else if (target.closest("#new-fighter")) {
        if (this.handlers.newFighter) this.handlers.newFighter();
        else this.openFighter(null);
      }
    });
    // The fighter form: the engine checks the sheet a moment after each change.
    const changed = () => {
      clearTimeout(this.checkTimer);
      this.checkTimer = setTimeout(() => this.handlers.check?.(readFighter(this.form), this.editing), 120);
    };
    this.form.addEventListener("input", changed);
    this.form.addEventListener("change", changed);
    this.form.addEventListener("click", (event) => {
      const target = event.target;
      if (target.closest("#fighter-cancel")) this.closeFighter();
      else if (target.closest("[data-add-weapon]")) {
        $("#weapons", this.form).append(weaponRow(null, false, $("#weapons", this.form).children.length));
      } else if (target.closest("[data-remove-weapon]")) {
        target.closest("li").remove();
        changed();
      }
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(this.checkTimer);
      this.handlers.save?.(readFighter(this.form), this.editing);
    });
  }

  // handlers: newFighter(), edit(id), duplicate(id), model(id), down(id), revive(id), remove(id),
  // addCopies(index, count), deleteModel(index), check(sheet, id), save(sheet, id);
  // id is the fighter edited, or null for a new one.
  bind(handlers) {
    this.handlers = handlers;
  }

  // A refusal shown next to what was tapped: a fighter's row ("cast", id), a model's row
  // ("model", index) or the « Ajouter un combattant » button ("new"). The next drawing
  // of the list clears it.
  note(kind, key, text) {
    let row = null;
    if (kind === "cast") row = [...this.cast.querySelectorAll("button[data-cast]")].find((b) => b.dataset.id === key)?.closest("li");
    else if (kind === "model") row = [...this.models.children].find((li) => li.dataset.index === String(key));
    const note = h("p", { class: "error row-note", role: "alert" }, text);
    if (row) {
      row.querySelector(".row-note")?.remove();
      row.append(note);
    } else if (kind === "new") {
      this.clearNewNote();
      $("#new-fighter").after(note);
    }
  }

  clearNewNote() {
    const next = $("#new-fighter").nextElementSibling;
    if (next?.classList.contains("row-note")) next.remove();
  }

  render(board) {
    this.clearNewNote();
    const fighters = Object.values(board.combatants).sort((a, b) => a.entry - b.entry);
    this.cast.replaceChildren(...fighters.map((f) => h("li", { class: "cast-row" },
      h("span", { class: "name" }, isolate(f.name)), h("span", { class: `side side-${f.side}` }, term("sides", f.side)),
      h("span", { class: "summary" }, t("castSummary", f.wounds, f.hope, f.hors_combat)),
      h("p", { class: "sheet-line values" }, valuesLine(f)),
      h("p", { class: "sheet-line arms" }, armsLine(f)),
      h("div", { class: "card-tools" },
        h("button", { type: "button", dataset: { cast: "edit", id: f.id }, "aria-label": t("editFor", isolate(f.name)) }, t("edit")),
        h("button", { type: "button", dataset: { cast: "duplicate", id: f.id }, "aria-label": t("duplicateFor", isolate(f.name)) }, t("duplicate")),
        h("button", { type: "button", dataset: { cast: "model", id: f.id }, "aria-label": t("asModelFor", isolate(f.name)) }, t("asModel")),
        h("button", { type: "button", dataset: { cast: f.hors_combat ? "revive" : "down", id: f.id } }, f.hors_combat ? t("revive") : t("down")),
        h("button", { type: "button", dataset: { cast: "remove", id: f.id }, "aria-label": t("removeFor", isolate(f.name)) }, t("remove"))))));
    if (!fighters.length) this.cast.append(h("li", { class: "hint" }, t("noFighter")));
  }

  renderModels(models) {
    this.models.replaceChildren(...models.map((m, i) => h("li", { class: "cast-row model", dataset: { index: i } },
      h("span", { class: "name" }, isolate(m.name)), h("span", { class: `side side-${m.side}` }, term("sides", m.side)),
      h("p", { class: "sheet-line values" }, valuesLine(m)),
      h("p", { class: "sheet-line arms" }, armsLine(m)),
      h("div", { class: "card-tools" },
        h("label", { for: `copies-${i}`, class: "copies-label" }, t("copies"), h("span", { class: "visually-hidden" }, t("copiesOf", isolate(m.name)))),
        h("input", { id: `copies-${i}`, class: "copies", type: "number", inputmode: "numeric", step: 1, value: 1, dataset: { limit: "copies" } }),
        h("button", { type: "button", dataset: { model: "add", index: i }, "aria-label": t("addCopiesFor", isolate(m.name)) }, t("addCopies")),
        h("button", { type: "button", dataset: { model: "delete", index: i }, "aria-label": t("deleteModelFor", isolate(m.name)) }, t("deleteModel"))))));
    if (!models.length) this.models.append(h("li", { class: "hint" }, t("noModel")));
    limitFields(this.models, this.limits);
  }

  // --- the fighter form ---------------------------------------------------------------
  // A fighter of the board to edit, or null for a new one.
  openFighter(f) {
    this.editing = f?.id ?? null;
    $("#fighter-title").textContent = f ? t("editFor", isolate(f.name)) : t("newFighter");
    $("#fighter-fields").replaceChildren(...fighterFields(f));
    this.showErrors([], "");
    this.limit(this.limits);
    this.dialog.showModal();
    $("#f-name").focus();
  }

  // The engine's limits (Table.limits) on the form's fields and on the models' counts of
  // copies, so the keyboard and the browser agree with the engine.
  limit(limits) {
    this.limits = limits ?? null;
    limitFields(this.form, limits);
    limitFields(this.models, limits);
  }

  // Every field the engine refuses, at once, next to its field (aria-invalid,
  // aria-describedby), in the page's words; `general`: what names no field (a full
  // fight, a limit of the save). The folded part opens when a field in it is wrong.
  showErrors(fields, general) {
    for (const note of this.form.querySelectorAll(".field-error")) note.remove();
    for (const input of this.form.querySelectorAll("[aria-invalid]")) {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
    const unplaced = [];
    for (const error of fields) {
      const input = fieldInput(this.form, error.field);
      const text = fieldError(error, this.form);
      if (!input || input.getAttribute("aria-invalid")) {
        if (!input) unplaced.push(text);
        continue;
      }
      const note = h("p", { class: "error field-error", id: `${input.id}-error` }, text);
      input.closest(".field, .check").append(note);
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", note.id);
      if (input.closest("details") && !input.closest("details").open) input.closest("details").open = true;
    }
    const summary = [fields.length ? t("fieldsToFix", fields.length) : "", ...unplaced, general].filter(Boolean).join(" ");
    const el = $("#fighter-error");
    el.textContent = summary;
    el.hidden = !summary;
    $("#fighter-save").setAttribute("aria-describedby", summary ? "fighter-error" : "fighter-title");
  }

  // The first field in error, brought into view and focused (after a refused save).
  focusError() {
    const first = this.form.querySelector("[aria-invalid]");
    if (first) first.focus();
    else $("#fighter-error").scrollIntoView({ block: "nearest" });
  }

  closeFighter() {
    clearTimeout(this.checkTimer);
    this.dialog.close();
  }
}

// The sheet of a fighter on the board, as add_combatant takes it.
export function sheetOf(f) {
  return {
    name: f.name, side: f.side, characteristics: f.characteristics, skills: f.skills,
    initiative_bonus: f.initiative_bonus, wounds: f.wounds, hope: f.hope, weapons: f.weapons, in_hand: f.in_hand,
  };
}

// A number field; `dataset` says what it holds (a skill's name is user text: it is kept
// in a data attribute, never in an id or a selector). Its limits are the engine's
// (Table.limits), set once they are known (CastView.limit).
// Empty means 0 (its placeholder): a tap and a digit, nothing to erase first.
function numberField(id, text, value, kind = "value", dataset = undefined) {
  return labelled(id, text, h("input", { id, name: id, type: "number", inputmode: "numeric", step: 1, value: value ?? "", placeholder: "0", dataset: { ...dataset, limit: kind } }));
}

// A weapon's skill is named by the sheet: left blank, it is the weapon's own
// name (« Épée »), never a slug. A weapon of an earlier release whose skill is its name's
// slug (« epee ») shows a blank skill too and keeps that skill (its level stays with it).
function weaponRow(w, held, index, optional = false) {
  const id = `w${index}-${Math.random().toString(36).slice(2, 7)}`;
  const ownName = w && (w.skill === w.name || w.skill === slug(w.name, new Set()));
  const kind = h("select", { id: `${id}-kind`, class: "w-kind" }, Object.entries(t("kinds")).map(([k, text]) => h("option", { value: k }, text)));
  kind.value = w?.kind ?? "melee";
  // A new fighter's first row is there to be filled or left empty (then it is no weapon).
  return h("li", { class: "weapon-row", dataset: { weaponId: w?.id ?? "", optional: optional ? "1" : "", skill: ownName ? w.skill : "" } },
    labelled(`${id}-name`, t("weaponName"), h("input", { id: `${id}-name`, class: "w-name", type: "text", value: w?.name ?? "", autocomplete: "off", dataset: { limit: "name" } })),
    labelled(`${id}-kind`, t("kind"), kind),
    labelled(`${id}-level`, t("level"), h("input", { id: `${id}-level`, class: "w-level", type: "number", inputmode: "numeric", step: 1, value: w?.level ?? "", placeholder: "0", dataset: { limit: "value" } })),
    labelled(`${id}-skill`, t("skill"), h("input", { id: `${id}-skill`, class: "w-skill", type: "text", value: ownName ? "" : w?.skill ?? "", autocomplete: "off", placeholder: t("skillFromName"), dataset: { limit: "name" } })),
    h("div", { class: "check" }, h("input", { id: `${id}-stowed`, class: "w-stowed", type: "checkbox", checked: w ? w.stowed : true }), h("label", { for: `${id}-stowed` }, t("stowed"))),
    h("div", { class: "check" }, h("input", { id: `${id}-held`, class: "w-held", type: "checkbox", checked: held }), h("label", { for: `${id}-held` }, t("held"))),
    h("button", { type: "button", dataset: { removeWeapon: "1" } }, t("removeWeapon")));
}

// The form of a fighter: what a PNJ needs in view (name, side, characteristics, one
// weapon), the rest folded away (skills, bonus, wounds, Espoir), unfolded to edit.
function fighterFields(f) {
  const side = h("select", { id: "f-side", name: "side" }, Object.entries(t("sides")).map(([v, text]) => h("option", { value: v }, text)));
  side.value = f?.side ?? "pnj";
  const skills = t("skills");
  const weaponSkills = new Set((f?.weapons ?? []).map((w) => w.skill));
  const level = (skill) => (Object.hasOwn(f.skills, skill) ? f.skills[skill] : 0);
  const weapons = f ? f.weapons.map((w, i) => weaponRow({ ...w, level: level(w.skill) }, f.in_hand.includes(w.id), i)) : [weaponRow(null, true, 0, true)];
  return [
    labelled("f-name", t("name"), h("input", { id: "f-name", name: "name", type: "text", required: true, value: f?.name ?? "", autocomplete: "off", dataset: { limit: "name" } })),
    labelled("f-side", t("side"), side),
    h("fieldset", { class: "grid" }, h("legend", {}, t("characteristicsLegend")),
      Object.entries(t("characteristics")).map(([k, text]) => numberField(`c-${k}`, text, f?.characteristics[k], "value", { characteristic: k }))),
    h("fieldset", {}, h("legend", {}, t("weaponsLegend")), h("ul", { id: "weapons", class: "weapons" }, weapons),
      h("button", { type: "button", dataset: { addWeapon: "1" } }, t("addWeapon"))),
    h("details", { id: "f-more", class: "more", open: Boolean(f) }, h("summary", {}, t("moreDetails")),
      h("fieldset", { class: "grid" }, h("legend", {}, t("skillsLegend")),
        Object.entries(skills).map(([k, text]) => numberField(`s-${k}`, text, f && level(k), "value", { skill: k })),
        Object.entries(f?.skills ?? {}).filter(([k]) => !Object.hasOwn(skills, k) && !weaponSkills.has(k))
          .map(([k, v], i) => numberField(`s-own-${i}`, isolate(k), v, "value", { skill: k }))),
      h("fieldset", { class: "grid" }, h("legend", {}, t("combatLegend")),
        numberField("f-bonus", t("initiativeBonus"), f?.initiative_bonus, "initiative_bonus"),
        numberField("f-wounds", t("wounds"), f?.wounds),
        numberField("f-hope", t("hope"), f?.hope))),
  ];
}

function slug(text, taken) {
  const base = text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "") || "arme";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

// The input of an engine's field path ("characteristics.tir", "weapons[0].name", ...),
// found by element reference (user text is never a selector), or null.
function fieldInput(form, path) {
  const direct = { name: "#f-name", side: "#f-side", initiative_bonus: "#f-bonus", wounds: "#f-wounds", hope: "#f-hope" };
  if (Object.hasOwn(direct, path)) return form.querySelector(direct[path]);
  const [, group, rest] = /^(characteristics|skills)\.(.+)$/s.exec(path) ?? [];
  if (group === "characteristics") return [...form.querySelectorAll("input[data-characteristic]")].find((i) => i.dataset.characteristic === rest) ?? null;
  if (group === "skills") {
    const row = weaponRows(form).find((r) => weaponSkill(r) === rest);
    return row?.querySelector(".w-level") ?? [...form.querySelectorAll("input[data-skill]")].find((i) => i.dataset.skill === rest) ?? null;
  }
  const weapon = /^weapons\[(\d+)\]\.(\w+)$/.exec(path);
  if (weapon) {
    const row = weaponRows(form)[Number(weapon[1])];
    const part = { name: ".w-name", id: ".w-name", kind: ".w-kind", skill: ".w-skill", stowed: ".w-stowed" };
    return row && Object.hasOwn(part, weapon[2]) ? row.querySelector(part[weapon[2]]) : null;
  }
  return null;
}

// A field error in words a player understands (the engine's reason), naming the field as
// the form labels it.
function fieldError(error, form) {
  return reason(error.key, { ...error.params, field: error.field }, (path) => fieldLabel(path, form) ?? t("sheetField"));
}

function fieldLabel(path, form) {
  const labels = { name: t("name"), side: t("side"), initiative_bonus: t("initiativeBonus"), wounds: t("wounds"), hope: t("hope"), weapons: t("weaponsLegend"), in_hand: t("held") };
  if (Object.hasOwn(labels, path)) return labels[path];
  const [, group, rest] = /^(characteristics|skills)\.(.+)$/s.exec(path) ?? [];
  if (group === "characteristics") return term("characteristics", rest);
  if (group === "skills") {
    const row = form && weaponRows(form).find((r) => weaponSkill(r) === rest);
    return row ? t("weaponLevel", isolate(row.querySelector(".w-name").value.trim())) : skillLabel(rest);
  }
  const weapon = /^weapons\[(\d+)\](?:\.(\w+))?$/.exec(path);
  if (weapon) {
    const parts = { name: t("weaponName"), id: t("weaponName"), kind: t("kind"), skill: t("skill"), stowed: t("stowed") };
    return t("weaponPart", Number(weapon[1]) + 1, own(parts, weapon[2]) ?? "");
  }
  return null;
}

// The skill a weapon row names: the one typed, else the one it had by its name (an earlier
// release's slug, kept while the name is unchanged), else the weapon's name.
function weaponSkill(row) {
  const typed = row.querySelector(".w-skill").value.trim();
  if (typed) return typed;
  const name = row.querySelector(".w-name").value.trim();
  const kept = row.dataset.skill;
  return kept && (kept === name || kept === slug(name, new Set())) ? kept : name;
}

// The weapon rows the sheet holds, in its order: a blank optional row (no name, no skill,
// no level) is no weapon. A row with a skill or a level but no name is one: it goes to the
// engine, which refuses its empty name next to the field, rather than dropped unsaid.
function weaponRows(form) {
  const blank = (row) => [".w-name", ".w-skill", ".w-level"].every((field) => {
    const input = row.querySelector(field);
    return input.value.trim() === "" && !input.validity?.badInput;
  });
  return [...form.querySelectorAll(".weapon-row")].filter((row) => !(row.dataset.optional && blank(row)));
}

// The sheet as the engine takes it; numbers left as typed so the engine names bad ones
// (a number field the browser cannot read goes as text: the engine says it is no number).
function readFighter(form) {
  const num = (input) => {
    if (input.validity?.badInput) return "?";
    const raw = input.value.trim();
    return raw === "" ? 0 : Number(raw);
  };
  // Keys typed by the user (skills) go in objects with no prototype: a skill named
  // "__proto__" or "constructor" is a skill like any other.
  const characteristics = Object.create(null);
  for (const input of form.querySelectorAll("input[data-characteristic]")) characteristics[input.dataset.characteristic] = num(input);
  const skills = Object.create(null);
  for (const input of form.querySelectorAll("input[data-skill]")) skills[input.dataset.skill] = num(input);
  const taken = new Set();
  const weapons = [];
  const inHand = [];
  for (const row of weaponRows(form)) {
    const name = row.querySelector(".w-name").value;
    const skill = weaponSkill(row);
    const id = row.dataset.weaponId && !taken.has(row.dataset.weaponId) ? (taken.add(row.dataset.weaponId), row.dataset.weaponId) : slug(name, taken);
    weapons.push({ id, name, kind: row.querySelector(".w-kind").value, skill, stowed: row.querySelector(".w-stowed").checked });
    skills[skill] = num(row.querySelector(".w-level"));
    if (row.querySelector(".w-held").checked) inHand.push(id);
  }
  return {
    name: form.querySelector("#f-name").value,
    side: form.querySelector("#f-side").value,
    characteristics, skills,
    initiative_bonus: num(form.querySelector("#f-bonus")), wounds: num(form.querySelector("#f-wounds")), hope: num(form.querySelector("#f-hope")),
    weapons, in_hand: inHand,
  };
}

// A fighter's characteristics as the cast shows them: those it has, in the rules' order,
// each with its value (« Mêlée 8 · Tir 3 »).
function valuesLine(f) {
  const shown = Object.keys(t("characteristics")).filter((c) => (own(f.characteristics ?? {}, c) ?? 0) > 0)
    .map((c) => `${term("characteristics", c)} ${f.characteristics[c]}`);
  return shown.length ? shown.join(" · ") : t("castNoValue");
}

// A fighter's weapons as the cast shows them: each with its skill's level, those in hand said.
function armsLine(f) {
  const weapons = f.weapons ?? [];
  if (!weapons.length) return t("castNoWeapon");
  return t("castWeapons", weapons.map((w) => {
    const level = own(f.skills ?? {}, w.skill) ?? 0;
    return `${isolate(w.name)} ${level}${(f.in_hand ?? []).includes(w.id) ? ` ${t("castInHand")}` : ""}`;
  }).join(" · "));
}
