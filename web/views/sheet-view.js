// The action sheet: a fighter's actions with the engine's verdicts, then the options of
// the one picked. The sheet goes back and forth by itself (Retour, the options' one way
// back; « Fermer » on the list); only a confirmed action leaves it, through the submit handler. One listener, on the dialog.
import { $, h, isolate, labelled, own } from "../infra/dom.js";
import { actionName, refusal, t, term } from "../infra/i18n.js";
import { targetsOf } from "./board-view.js";
import { costLabel, testLabel } from "./labels.js";

export class SheetView {
  constructor() {
    this.dialog = $("#sheet");
    this.body = $("#sheet-body");
    this.onSubmit = null;
    this.shown = null; // { board, id, interruption, action }: what the sheet shows
    this.dialog.addEventListener("click", (event) => {
      const target = event.target;
      if (target.closest("#sheet-close")) return this.dialog.close();
      const action = target.closest("button[data-action]");
      if (action && !action.disabled) return this.showOptions(action.dataset.action);
      if (target.closest("[data-back]")) return this.showActions();
      if (target.closest("fieldset[data-tests]") && target.matches("input")) return this.costNow();
      if (target.closest("[data-submit]")) this.submit();
      return undefined;
    });
    // Enter in an option's field confirms the action, as in any form: a keyboard-only
    // game master types the distance, picks the target, and Enter commits (« Valider »).
    this.dialog.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || event.isComposing || !this.shown?.action) return;
      if (!event.target.closest?.(".options") || !event.target.matches("input, select")) return;
      event.preventDefault();
      this.submit();
    });
  }

  submit() {
    const { id, interruption, action: picked } = this.shown;
    const options = readOptions(this.body, this.shown.board.catalogue[picked].options);
    this.onSubmit?.({ actor: id, action: picked, interruption, options });
  }

  // handler({ actor, action, interruption, options })
  bindSubmit(handler) {
    this.onSubmit = handler;
  }

  // `preset`: option values filled in whatever action is picked (an interruption's
  // attacker: whoever attacked this fighter last this round).
  open(board, id, interruption, preset = {}) {
    this.shown = { board, id, interruption, action: null, preset };
    this.showActions();
  }

  // Straight to one action's options (a charge from the card, an acrobatic dodge in
  // answer to an attack), with `preset` option values (its target, its attacker).
  openAction(board, id, interruption, action, preset) {
    this.shown = { board, id, interruption, action: null, preset };
    this.showOptions(action);
    if (!this.dialog.open) this.dialog.showModal();
    const first = this.body.querySelector("input, select");
    (first ?? this.body.querySelector("[data-submit]")).focus();
  }

  showActions() {
    const { board, id, interruption } = this.shown;
    const f = own(board.combatants, id);
    this.shown.action = null;
    $("#sheet-title").textContent = t("sheetTitle", isolate(f.name), interruption, f.pi, f.hope);
    this.error("");
    // Frequent first (the card's likely actions), then by category; the actions this
    // fighter's sheet can never allow (engine/view.py `never`) folded away at the end.
    const never = new Set(f.never ?? []);
    const frequent = new Set(interruption ? [] : f.likely ?? []);
    const groups = frequent.size ? { frequent: [] } : {};
    const folded = [];
    for (const [actionId, verdict] of Object.entries(f.actions)) {
      if ((verdict.category === "interruption") !== interruption) continue;
      if (never.has(actionId)) folded.push([actionId, verdict]);
      else (groups[frequent.has(actionId) ? "frequent" : verdict.category] ??= []).push([actionId, verdict]);
    }
    if (groups.frequent) groups.frequent.sort((a, b) => f.likely.indexOf(a[0]) - f.likely.indexOf(b[0]));
    // A refused action says why, folded ones too.
    const list = (actions) => h("ul", { class: "actions" }, actions.map(([actionId, v]) => {
      const reasonId = `reason-${actionId}`;
      return h("li", {},
        h("button", { type: "button", dataset: { action: actionId }, disabled: !v.allowed, "aria-describedby": v.allowed ? null : reasonId },
          h("span", {}, actionName(actionId)), h("span", { class: "cost" }, costLabel(v))),
        v.allowed ? null : h("small", { id: reasonId, class: "reason" }, refusal(v)));
    }));
    const sections = Object.entries(groups).map(([category, actions]) => h("section", { class: "action-group" },
      h("h3", {}, category === "frequent" ? t("frequentActions") : term("categories", category)), list(actions)));
    if (folded.length) sections.push(h("details", { class: "action-group folded" }, h("summary", {}, t("otherActions", folded.length)), list(folded)));
    this.body.replaceChildren(...sections);
    $("#sheet-close").hidden = false;
    if (!this.dialog.open) this.dialog.showModal();
    this.body.querySelector("button:not([disabled])")?.focus();
  }

  showOptions(actionId) {
    const { board, id } = this.shown;
    const f = own(board.combatants, id);
    this.shown.action = actionId;
    const verdict = f.actions[actionId];
    const spec = board.catalogue[actionId];
    this.setCost(costLabel(verdict));
    this.error("");
    const fields = spec.options.map((name) => optionField(board, f, actionId, name, spec.required.includes(name)));
    for (const [name, value] of Object.entries(this.shown.preset ?? {})) {
      const el = fields.find((field) => field?.querySelector?.(`#opt-${CSS.escape(name)}`))?.querySelector(`#opt-${CSS.escape(name)}`);
      if (el && value) el.value = value;
    }
    const tests = (verdict.tests ?? []).map((test) => h("li", {}, testLabel(test, f.weapons)));
    this.body.replaceChildren(h("div", { class: "options" },
      tests.length ? h("div", { class: "tests" }, h("h3", {}, t("testToDo")), h("ul", {}, tests)) : null,
      ...fields,
      h("div", { class: "form-tools" },
        h("button", { type: "button", dataset: { back: "1" } }, t("back")),
        h("button", { type: "button", class: "primary", dataset: { submit: "1" } }, t("confirmAction", costLabel(verdict))))));
    $("#sheet-close").hidden = true; // one way back from an action's options: « Retour », to the list (Échap closes)
    const first = this.body.querySelector("input, select");
    (first ?? this.body.querySelector("[data-submit]")).focus();
  }

  // The cost in the title and on « Valider », as the engine priced the action: an
  // acrobatic dodge whose two tests are ticked costs nothing (R4.4, its verdict's `if_passed`).
  setCost(cost) {
    const { board, id, action } = this.shown;
    const f = own(board.combatants, id);
    $("#sheet-title").textContent = t("optionsTitle", isolate(f.name), actionName(action), cost);
    const submit = this.body.querySelector("[data-submit]");
    if (submit) submit.textContent = t("confirmAction", cost);
  }

  costNow() {
    const { board, id, action } = this.shown;
    const verdict = own(board.combatants, id).actions[action];
    const passed = verdict.if_passed && [...this.body.querySelectorAll('fieldset[data-tests] input[type="checkbox"]')].every((box) => box.checked);
    this.setCost(costLabel(passed ? verdict.if_passed : verdict));
  }

  error(text) {
    const el = $("#sheet-error");
    el.textContent = text;
    el.hidden = !text;
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }
}

function optionField(board, f, actionId, name, required) {
  const id = `opt-${name}`;
  const label = t("options")[name] + (required ? t("required") : "");
  const select = (choices) => h("select", { id, name }, choices.map(([v, text]) => h("option", { value: v }, text)));
  switch (name) {
    case "target":
    case "against": // intercepter's is whom it stops, not an attacker (R4 table)
      return labelled(id, name === "against" && actionId === "intercepter" ? t("intercepted") : label,
        select([["", t("none")], ...targetsOf(board, f).map((o) => [o.id, isolate(o.name)])]));
    case "weapon": {
      const preferred = f.actions[actionId].weapon;
      const el = select([["", t("byDefault")], ...f.weapons.map((w) => [w.id, `${isolate(w.name)} (${term("kinds", w.kind)})`])]);
      if (preferred) el.value = preferred;
      return labelled(id, label, el);
    }
    case "distance":
    case "test_result":
    case "difficulty":
      return labelled(id, label, h("input", { id, name, type: "number", inputmode: "decimal", step: name === "distance" ? "any" : 1, required }));
    case "success":
      return labelled(id, label, select([["", t("notNoted")], ["true", t("succeeded")], ["false", t("failed")]]));
    case "familier":
      return h("div", { class: "field check" }, h("input", { id, name, type: "checkbox" }), h("label", { for: id }, label));
    case "skill":
      return labelled(id, label, h("input", { id, name, type: "text", required, autocomplete: "off" }));
    case "posture":
      return labelled(id, label, select(Object.entries(t("postureChoices"))));
    case "items": {
      const weapons = actionId === "lacher_objet" ? f.weapons.filter((w) => f.in_hand.includes(w.id)) : f.weapons;
      return h("fieldset", { class: "field" }, h("legend", {}, actionId === "lacher_objet" ? t("dropped") : t("takenOrPut")),
        weapons.map((w, i) => h("div", { class: "check" },
          h("input", { id: `item-${i}`, type: "checkbox", name: "items", value: w.id }), h("label", { for: `item-${i}` }, isolate(w.name)))));
    }
    case "tests":
      return h("fieldset", { class: "field", dataset: { tests: "1" } }, h("legend", {}, t("twoTests")),
        h("div", { class: "check" }, h("input", { id: "test-esquive", type: "checkbox", name: "esquive" }), h("label", { for: "test-esquive" }, t("dodgeOk"))),
        h("div", { class: "check" }, h("input", { id: "test-acrobatie", type: "checkbox", name: "acrobatie" }), h("label", { for: "test-acrobatie" }, t("acrobaticsOk"))));
    default:
      return null;
  }
}

function readOptions(root, names) {
  const options = {};
  for (const name of names) {
    if (name === "items") {
      const items = [...root.querySelectorAll('input[name="items"]:checked')].map((i) => i.value);
      if (items.length) options.items = items;
    } else if (name === "tests") {
      options.tests = { esquive: root.querySelector("#test-esquive").checked, acrobatie: root.querySelector("#test-acrobatie").checked };
    } else if (name === "familier") {
      if (root.querySelector("#opt-familier").checked) options.familier = true;
    } else {
      const el = root.querySelector(`#opt-${CSS.escape(name)}`);
      const raw = el ? el.value.trim() : "";
      if (raw === "") continue;
      if (name === "success") options.success = raw === "true";
      else if (["distance", "test_result", "difficulty"].includes(name)) options[name] = Number(raw);
      else options[name] = raw;
    }
  }
  return options;
}
