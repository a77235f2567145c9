// The board, the action sheet and the start of round. The controller (app.js) hands it
// boards from the engine and binds handlers; one listener per container (delegation).
import { $, h, labelled } from "./dom.js";
import { actionName, t, term } from "./i18n.js";
import { costLabel, skillLabel, testLabel } from "./labels.js";

export class View {
  constructor() {
    this.board = $("#board");
    this.cards = new Map(); // fighter id → { key, element }: a tap redraws only what changed
    this.declarations = $("#declarations");
    this.sheet = $("#sheet");
    $("#sheet-close").addEventListener("click", () => this.sheet.close());
  }

  bindScreens(handler) {
    document.querySelector(".tabs").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-screen]");
      if (button) handler(button.dataset.screen);
    });
  }

  // --- engine status --------------------------------------------------------
  setEngine(status, text) {
    document.documentElement.dataset.engine = status;
    $("#engine-status-text").textContent = text;
    $("#engine-status").hidden = status === "ready";
    // No button that does nothing: the controls wake up with the engine.
    for (const el of document.querySelectorAll("main, .tabs, .tools")) el.inert = status !== "ready";
    $("#reload").hidden = status !== "fault";
  }

  offerUpdate(apply) {
    $("#update").hidden = false;
    $("#apply-update").onclick = apply;
  }

  message(text) {
    const el = $("#message");
    el.textContent = text || "";
    el.hidden = !text;
  }

  announce(text) {
    $("#live").textContent = text;
  }

  screen() {
    return document.querySelector("[data-screen-panel]:not([hidden])")?.dataset.screenPanel;
  }

  showScreen(name) {
    for (const panel of document.querySelectorAll("[data-screen-panel]")) panel.hidden = panel.dataset.screenPanel !== name;
    for (const tab of document.querySelectorAll(".tabs button")) {
      if (tab.dataset.screen === name) tab.setAttribute("aria-current", "page");
      else tab.removeAttribute("aria-current");
    }
    document.body.classList.toggle("players", name === "players");
  }

  setHistory(canUndo, canRedo) {
    $("#undo").disabled = !canUndo;
    $("#redo").disabled = !canRedo;
  }

  // --- the board (and the players' view, read-only) ----------------------------
  renderBoard(board) {
    $("#round").textContent = board.round === 0 ? t("noRound") : t("round", board.round, board.round_over);
    const turn = turnText(board);
    $("#turn").textContent = turn;
    $("#players-turn").textContent = turn;
    const fighters = board.order.map((id) => board.combatants[id]);
    const top = Math.max(1, ...fighters.map((f) => f.initiative ?? 0));
    const cards = fighters.map((f) => {
      const key = cardKey(board, f, top);
      const known = this.cards.get(f.id);
      if (known?.key === key) return known.element;
      const element = card(board, f, top, true);
      this.cards.set(f.id, { key, element });
      return element;
    });
    const shown = this.board.children;
    if (shown.length === cards.length && cards.every((c, i) => shown[i].dataset.id === c.dataset.id)) {
      cards.forEach((c, i) => { if (shown[i] !== c) shown[i].replaceWith(c); });
    } else {
      this.board.replaceChildren(...cards);
    }
    if (this.screen() === "players") this.renderPlayers(board);
    $("#end-round").disabled = board.round_over;
    $("#next-round").disabled = !board.round_over || fighters.length === 0;
  }

  // The players' view: drawn when it is on screen.
  renderPlayers(board) {
    const fighters = board.order.map((id) => board.combatants[id]).filter((f) => !f.hors_combat);
    const top = Math.max(1, ...fighters.map((f) => f.initiative ?? 0));
    $("#players-board").replaceChildren(...fighters.map((f) => card(board, f, top, false)));
  }

  turnText(board) {
    return turnText(board);
  }

  bindBoard(handlers) {
    this.board.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-do]");
      if (button) handlers[button.dataset.do](button.dataset.id);
    });
    $("#end-round").addEventListener("click", () => handlers.endRound());
    $("#next-round").addEventListener("click", () => handlers.nextRound());
    $("#undo").addEventListener("click", () => handlers.undo());
    $("#redo").addEventListener("click", () => handlers.redo());
    $("#reload").addEventListener("click", () => window.location.reload());
  }

  // --- the action sheet -------------------------------------------------------
  openActions(board, f, interruption, onPick) {
    $("#sheet-title").textContent = t("sheetTitle", f.name, interruption, f.pi, f.hope);
    this.sheetError("");
    const groups = {};
    for (const [id, verdict] of Object.entries(f.actions)) {
      if ((verdict.category === "interruption") !== interruption) continue;
      (groups[verdict.category] ??= []).push([id, verdict]);
    }
    const body = Object.entries(groups).map(([category, actions]) => h("section", { class: "action-group" },
      h("h3", {}, term("categories", category)),
      h("ul", { class: "actions" }, actions.map(([id, v]) => {
        const reasonId = `reason-${id}`;
        return h("li", {},
          h("button", { type: "button", dataset: { action: id }, disabled: !v.allowed, "aria-describedby": v.allowed ? null : reasonId },
            h("span", {}, actionName(id, v.name)), h("span", { class: "cost" }, costLabel(v))),
          v.allowed ? null : h("small", { id: reasonId, class: "reason" }, v.reason));
      }))));
    const container = $("#sheet-body");
    container.replaceChildren(...body);
    container.onclick = (event) => {
      const button = event.target.closest("button[data-action]");
      if (button && !button.disabled) onPick(button.dataset.action);
    };
    if (!this.sheet.open) this.sheet.showModal();
    container.querySelector("button:not([disabled])")?.focus();
  }

  openOptions(board, f, actionId, onSubmit, onBack) {
    const verdict = f.actions[actionId];
    const spec = board.catalogue[actionId];
    $("#sheet-title").textContent = t("optionsTitle", f.name, actionName(actionId, spec.name), costLabel(verdict));
    this.sheetError("");
    const fields = spec.options.map((name) => optionField(board, f, actionId, name, spec.required.includes(name)));
    const tests = (verdict.tests ?? []).map((test) => h("li", {}, testLabel(test)));
    const form = h("div", { class: "options" },
      tests.length ? h("div", { class: "tests" }, h("h3", {}, t("testToDo")), h("ul", {}, tests)) : null,
      ...fields,
      h("div", { class: "form-tools" },
        h("button", { type: "button", dataset: { back: "1" } }, t("back")),
        h("button", { type: "button", class: "primary", dataset: { submit: "1" } }, t("confirmAction", costLabel(verdict)))));
    const container = $("#sheet-body");
    container.replaceChildren(form);
    container.onclick = (event) => {
      if (event.target.closest("[data-back]")) onBack();
      else if (event.target.closest("[data-submit]")) onSubmit(readOptions(container, spec.options));
    };
    const first = container.querySelector("input, select");
    (first ?? container.querySelector("[data-submit]")).focus();
  }

  sheetError(text) {
    const el = $("#sheet-error");
    el.textContent = text;
    el.hidden = !text;
  }

  closeSheet() {
    if (this.sheet.open) this.sheet.close();
  }

  // After an action the board is drawn anew: the focus goes to whoever acts now.
  focusTurn() {
    const next = this.board.querySelector("li.active button.primary");
    (next ?? $("#turn")).focus();
  }

  // --- start of round -----------------------------------------------------------
  renderDeclarations(board) {
    const fighters = board.order.map((id) => board.combatants[id]).filter((f) => !f.hors_combat);
    fighters.sort((a, b) => a.entry - b.entry);
    this.declarations.replaceChildren(...fighters.map((f) => {
      const select = h("select", { id: `decl-${f.id}`, name: `decl-${f.id}` },
        f.declarations.map((d) => h("option", { value: d.weapon ?? "" }, d.weapon ? d.name : t("bareHands"))));
      // Prefilled with last round's declaration, else the first weapon in hand (R1.1).
      const previous = f.declarations.find((d) => d.weapon === f.declared && f.d6 !== null) ?? f.declarations[1];
      if (previous) select.value = previous.weapon ?? "";
      const die = h("input", { id: `die-${f.id}`, name: `die-${f.id}`, type: "number", inputmode: "numeric", min: 1, max: 6, step: 1 });
      return h("li", { class: "declaration", dataset: { id: f.id } },
        h("span", { class: "name" }, f.name, " ", h("span", { class: `side side-${f.side}` }, term("sides", f.side))),
        h("label", { for: `decl-${f.id}` }, t("weapon")), select,
        h("label", { for: `die-${f.id}` }, t("die")), die,
        h("button", { type: "button", dataset: { roll: f.id }, "aria-label": t("rollFor", f.name) }, t("roll")),
        h("output", { class: "breakdown", for: `decl-${f.id} die-${f.id}` }, ""));
    }));
    for (const li of this.declarations.children) this.updateBreakdown(board, li.dataset.id);
  }

  updateBreakdown(board, id) {
    const f = board.combatants[id];
    const li = this.declarations.querySelector(`li[data-id="${CSS.escape(id)}"]`);
    const weapon = li.querySelector("select").value || null;
    const d = f.declarations.find((x) => x.weapon === weapon);
    const die = Number.parseInt(li.querySelector("input").value, 10);
    const hasDie = Number.isInteger(die) && die >= 1 && die <= 6;
    li.querySelector("output").textContent = t("breakdown", term("characteristics", d.characteristic), d.characteristic_value, d.half,
      d.initiative_bonus, skillLabel(d.skill), d.skill_level, hasDie ? die : "?", d.wounds, hasDie ? d.initiative + die : "?");
  }

  readDeclarations() {
    const declarations = {};
    const rolls = {};
    for (const li of this.declarations.children) {
      const id = li.dataset.id;
      declarations[id] = li.querySelector("select").value || null;
      const raw = li.querySelector("input").value.trim();
      if (raw !== "") rolls[id] = Number(raw);
    }
    return { declarations, rolls };
  }

  bindDeclarations(handlers) {
    this.declarations.oninput = (event) => {
      const li = event.target.closest("li[data-id]");
      if (li) handlers.changed(li.dataset.id);
    };
    this.declarations.onclick = (event) => {
      const button = event.target.closest("button[data-roll]");
      if (!button) return;
      const li = button.closest("li");
      li.querySelector("input").value = String(rollDie());
      handlers.changed(li.dataset.id);
    };
    $("#roll-all").onclick = () => {
      for (const li of this.declarations.children) {
        const input = li.querySelector("input");
        if (input.value.trim() === "") input.value = String(rollDie());
        handlers.changed(li.dataset.id);
      }
    };
    $("#round-form").onsubmit = (event) => {
      event.preventDefault();
      handlers.start(this.readDeclarations());
    };
  }
}

// --- helpers (pure DOM builders) ---------------------------------------------------------

function rollDie() {
  const values = new Uint32Array(1);
  do crypto.getRandomValues(values); while (values[0] >= 4294967292); // no modulo bias
  return (values[0] % 6) + 1;
}

function turnText(board) {
  const names = board.active.map((id) => board.combatants[id].name);
  if (board.round === 0) return Object.keys(board.combatants).length ? t("turnStart") : t("turnEmpty");
  if (board.round_over) return t("turnOver");
  if (board.phase) return t("turnPhase", board.combatants[board.phase].name);
  if (names.length === 1) return t("turnOne", names[0], board.combatants[board.active[0]].pi);
  return t("turnTie", board.combatants[board.active[0]].pi, names.join(", "));
}

// Everything a card shows, as one string: an unchanged fighter keeps its card.
function cardKey(board, f, top) {
  const { actions, declarations, ...shown } = f;
  return JSON.stringify([document.documentElement.lang, board.round, board.round_over, board.active, top,
    f.engaged_with.map((id) => board.combatants[id]?.name), shown]);
}

// One fighter's card; with ``controls`` its buttons (the board), without (the players' view).
function card(board, f, top, controls) {
  const active = board.active.includes(f.id);
  const inPlay = board.round > 0 && f.in_round && !f.hors_combat;
  const classes = ["fighter", active ? "active" : "", f.hors_combat ? "out" : "", f.passed ? "passed" : ""];
  const pi = f.in_round ? f.pi : null;
  const bar = h("span", { class: "pi-bar", "aria-hidden": "true" }, h("span", { class: pi !== null && pi <= 0 ? "empty" : "" }));
  bar.firstChild.style.width = `${pi === null ? 0 : Math.max(0, Math.min(100, (pi / top) * 100))}%`;
  const buttons = [];
  if (controls && active) buttons.push(h("button", { type: "button", class: "primary", dataset: { do: "act", id: f.id } }, t("act")));
  if (controls && inPlay) buttons.push(h("button", { type: "button", dataset: { do: "interrupt", id: f.id } }, t("interrupt")));
  if (controls && inPlay && !f.passed && !board.round_over) buttons.push(h("button", { type: "button", dataset: { do: "pass", id: f.id } }, t("pass")));
  return h("li", { class: classes.filter(Boolean).join(" "), dataset: { id: f.id } },
    h("div", { class: "fighter-head" },
      h("span", { class: "name" }, f.name),
      h("span", { class: `side side-${f.side}` }, term("sides", f.side)),
      active ? h("span", { class: "now" }, board.active.length > 1 ? t("nowTie") : t("now")) : null,
      h("span", { class: "pi" }, pi === null ? "—" : t("pi", pi))),
    bar,
    h("ul", { class: "badges", "aria-label": t("state") }, badges(board, f).map((b) => h("li", { class: `badge ${b[1]}` }, b[0]))),
    buttons.length ? h("div", { class: "card-tools" }, buttons) : null);
}

function badges(board, f) {
  const out = [];
  if (f.hors_combat) out.push([t("badgeOut"), "bad"]);
  if (f.passed) out.push([t("badgePassed"), "muted"]);
  if (f.aim_bonus) out.push([t("badgeAim", f.aim_bonus), "good"]);
  if (f.charged) out.push([t("badgeCharged"), "warn"]);
  if (f.posture !== "debout") out.push([term("postures", f.posture), "warn"]);
  if (f.arrow_nocked) out.push([t("badgeArrow"), "good"]);
  if (f.cover) out.push([t("badgeCover"), "good"]);
  if (f.engaged) {
    const names = f.engaged_with.map((id) => board.combatants[id]?.name).filter(Boolean);
    out.push([names.length ? t("badgeEngagedWith", names.join(", ")) : t("badgeEngaged"), "warn"]);
  }
  const held = f.weapons.filter((w) => f.in_hand.includes(w.id)).map((w) => w.name);
  out.push([held.length ? t("badgeHeld", held.join(", ")) : t("badgeBare"), "muted"]);
  if (f.wounds) out.push([t("badgeWounds", f.wounds), "bad"]);
  out.push([t("badgeHope", f.hope), "muted"]);
  if (f.in_round && f.d6) out.push([t("badgeInit", f.initiative, f.d6), "muted"]);
  return out;
}

function optionField(board, f, actionId, name, required) {
  const id = `opt-${name}`;
  const label = t("options")[name] + (required ? t("required") : "");
  const others = board.order.filter((x) => x !== f.id).map((x) => board.combatants[x]);
  const select = (choices) => h("select", { id, name }, choices.map(([v, text]) => h("option", { value: v }, text)));
  switch (name) {
    case "target":
    case "against":
      return labelled(id, label, select([["", t("none")], ...others.map((o) => [o.id, o.name])]));
    case "weapon": {
      const preferred = f.actions[actionId].weapon;
      const el = select([["", t("byDefault")], ...f.weapons.map((w) => [w.id, `${w.name} (${term("kinds", w.kind)})`])]);
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
        weapons.map((w) => h("div", { class: "check" },
          h("input", { id: `item-${w.id}`, type: "checkbox", name: "items", value: w.id }), h("label", { for: `item-${w.id}` }, w.name))));
    }
    case "tests":
      return h("fieldset", { class: "field" }, h("legend", {}, t("twoTests")),
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
      const el = root.querySelector(`#opt-${name}`);
      const raw = el ? el.value.trim() : "";
      if (raw === "") continue;
      if (name === "success") options.success = raw === "true";
      else if (["distance", "test_result", "difficulty"].includes(name)) options[name] = Number(raw);
      else options[name] = raw;
    }
  }
  return options;
}
