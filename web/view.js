// Every DOM reference of the page lives here. The controller (app.js) hands it boards
// from the engine and binds handlers; one listener per container (event delegation).
import { $, h } from "./dom.js";
import { CATEGORIES, CHARACTERISTICS, KINDS, POSTURES, SIDES, SKILLS, costLabel, skillLabel, testLabel } from "./labels.js";

const OPTION_FIELDS = {
  target: "Cible", against: "Attaquant", weapon: "Arme", distance: "Distance (m)",
  test_result: "Résultat du test", difficulty: "Difficulté", success: "Résultat",
  familier: "Familier de la communication gestuelle", skill: "Compétence utilisée",
  posture: "Posture", items: "Objets", tests: "Tests",
};

export class View {
  constructor() {
    this.board = $("#board");
    this.cast = $("#cast");
    this.declarations = $("#declarations");
    this.sheet = $("#sheet");
    this.fighterDialog = $("#fighter-dialog");
    $("#sheet-close").addEventListener("click", () => this.sheet.close());
    $("#fighter-cancel").addEventListener("click", () => this.fighterDialog.close());
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
  }

  message(text) {
    const el = $("#message");
    el.textContent = text || "";
    el.hidden = !text;
  }

  announce(text) {
    $("#live").textContent = text;
  }

  showScreen(name) {
    for (const panel of document.querySelectorAll("[data-screen-panel]")) panel.hidden = panel.dataset.screenPanel !== name;
    for (const tab of document.querySelectorAll(".tabs button")) {
      if (tab.dataset.screen === name) tab.setAttribute("aria-current", "page");
      else tab.removeAttribute("aria-current");
    }
  }

  setHistory(canUndo, canRedo) {
    $("#undo").disabled = !canUndo;
    $("#redo").disabled = !canRedo;
  }

  // --- the board ------------------------------------------------------------
  renderBoard(board) {
    const round = board.round === 0 ? "Aucun tour" : `Tour ${board.round}${board.round_over ? " — terminé" : ""}`;
    $("#round").textContent = round;
    $("#turn").textContent = turnText(board);
    const fighters = board.order.map((id) => board.combatants[id]);
    const top = Math.max(1, ...fighters.map((f) => f.initiative ?? 0));
    this.board.replaceChildren(...fighters.map((f) => this.card(board, f, top)));
    $("#end-round").disabled = board.round_over;
    $("#next-round").disabled = !board.round_over || fighters.length === 0;
  }

  card(board, f, top) {
    const active = board.active.includes(f.id);
    const inPlay = board.round > 0 && f.in_round && !f.hors_combat;
    const classes = ["fighter", active ? "active" : "", f.hors_combat ? "out" : "", f.passed ? "passed" : ""];
    const pi = f.in_round ? f.pi : null;
    const bar = h("span", { class: "pi-bar", "aria-hidden": "true" }, h("span", { class: pi !== null && pi <= 0 ? "empty" : "" }));
    bar.firstChild.style.width = `${pi === null ? 0 : Math.max(0, Math.min(100, (pi / top) * 100))}%`;
    const buttons = [];
    if (active) buttons.push(h("button", { type: "button", class: "primary", dataset: { do: "act", id: f.id } }, "Agir"));
    if (inPlay) buttons.push(h("button", { type: "button", dataset: { do: "interrupt", id: f.id } }, "Interrompre"));
    if (inPlay && !f.passed && !board.round_over) buttons.push(h("button", { type: "button", dataset: { do: "pass", id: f.id } }, "Passer"));
    return h("li", { class: classes.filter(Boolean).join(" "), dataset: { id: f.id } },
      h("div", { class: "fighter-head" },
        h("span", { class: "name" }, f.name),
        h("span", { class: `side side-${f.side}` }, SIDES[f.side]),
        active ? h("span", { class: "now" }, board.active.length > 1 ? "prêt" : "agit") : null,
        h("span", { class: "pi" }, pi === null ? "—" : `${pi} P.I.`)),
      bar,
      h("ul", { class: "badges", "aria-label": "État" }, badges(board, f).map((b) => h("li", { class: `badge ${b[1]}` }, b[0]))),
      buttons.length ? h("div", { class: "card-tools" }, buttons) : null);
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
  }

  // --- the action sheet -------------------------------------------------------
  openActions(board, f, interruption, onPick) {
    $("#sheet-title").textContent = `${f.name} — ${interruption ? "interrompre" : "agir"} (${f.pi} P.I., Espoir ${f.hope})`;
    this.sheetError("");
    const groups = {};
    for (const [id, verdict] of Object.entries(f.actions)) {
      if ((verdict.category === "interruption") !== interruption) continue;
      (groups[verdict.category] ??= []).push([id, verdict]);
    }
    const body = Object.entries(groups).map(([category, actions]) => h("section", { class: "action-group" },
      h("h3", {}, CATEGORIES[category]),
      h("ul", { class: "actions" }, actions.map(([id, v]) => {
        const reasonId = `reason-${id}`;
        return h("li", {},
          h("button", { type: "button", dataset: { action: id }, disabled: !v.allowed, "aria-describedby": v.allowed ? null : reasonId },
            h("span", {}, v.name), h("span", { class: "cost" }, costLabel(v))),
          v.allowed ? null : h("small", { id: reasonId, class: "reason" }, v.reason));
      }))));
    const container = $("#sheet-body");
    container.replaceChildren(...body);
    container.onclick = (event) => {
      const button = event.target.closest("button[data-action]");
      if (button && !button.disabled) onPick(button.dataset.action);
    };
    if (!this.sheet.open) this.sheet.showModal();
  }

  openOptions(board, f, actionId, onSubmit, onBack) {
    const verdict = f.actions[actionId];
    const spec = board.catalogue[actionId];
    $("#sheet-title").textContent = `${f.name} — ${spec.name} (${costLabel(verdict)})`;
    this.sheetError("");
    const fields = spec.options.map((name) => optionField(board, f, actionId, name, spec.required.includes(name)));
    const tests = (verdict.tests ?? []).map((t) => h("li", {}, testLabel(t)));
    const form = h("div", { class: "options" },
      tests.length ? h("div", { class: "tests" }, h("h3", {}, "Test à faire"), h("ul", {}, tests)) : null,
      ...fields,
      h("div", { class: "form-tools" },
        h("button", { type: "button", dataset: { back: "1" } }, "Retour"),
        h("button", { type: "button", class: "primary", dataset: { submit: "1" } }, `Valider — ${costLabel(verdict)}`)));
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

  // --- start of round -----------------------------------------------------------
  renderDeclarations(board) {
    const fighters = board.order.map((id) => board.combatants[id]).filter((f) => !f.hors_combat);
    fighters.sort((a, b) => a.entry - b.entry);
    this.declarations.replaceChildren(...fighters.map((f) => {
      const select = h("select", { id: `decl-${f.id}`, name: `decl-${f.id}` },
        f.declarations.map((d) => h("option", { value: d.weapon ?? "" }, d.name)));
      // Prefilled with last round's declaration, else the first weapon in hand (R1.1).
      const previous = f.declarations.find((d) => d.weapon === f.declared && f.d6 !== null) ?? f.declarations[1];
      if (previous) select.value = previous.weapon ?? "";
      const die = h("input", { id: `die-${f.id}`, name: `die-${f.id}`, type: "number", inputmode: "numeric", min: 1, max: 6, step: 1 });
      return h("li", { class: "declaration", dataset: { id: f.id } },
        h("span", { class: "name" }, f.name, " ", h("span", { class: `side side-${f.side}` }, SIDES[f.side])),
        h("label", { for: `decl-${f.id}` }, "Arme"), select,
        h("label", { for: `die-${f.id}` }, "Dé"), die,
        h("button", { type: "button", dataset: { roll: f.id }, "aria-label": `Lancer le dé de ${f.name}` }, "Lancer"),
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
    const characteristic = CHARACTERISTICS[d.characteristic];
    const text = `⌊${characteristic} ${d.characteristic_value}/2⌋ ${d.half} + bonus ${d.initiative_bonus} + ${skillLabel(d.skill)} ${d.skill_level}`
      + ` + dé ${hasDie ? die : "?"} − blessures ${d.wounds} = ${hasDie ? d.initiative + die : "?"}`;
    li.querySelector("output").textContent = text;
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

  // --- the cast ---------------------------------------------------------------------
  renderCast(board) {
    const fighters = Object.values(board.combatants).sort((a, b) => a.entry - b.entry);
    this.cast.replaceChildren(...fighters.map((f) => h("li", { class: "cast-row" },
      h("span", { class: "name" }, f.name), h("span", { class: `side side-${f.side}` }, SIDES[f.side]),
      h("span", { class: "summary" }, `Blessures ${f.wounds} · Espoir ${f.hope}${f.hors_combat ? " · hors combat" : ""}`),
      h("div", { class: "card-tools" },
        h("button", { type: "button", dataset: { cast: "edit", id: f.id }, "aria-label": `Modifier ${f.name}` }, "Modifier"),
        h("button", { type: "button", dataset: { cast: "duplicate", id: f.id }, "aria-label": `Dupliquer ${f.name}` }, "Dupliquer"),
        h("button", { type: "button", dataset: { cast: f.hors_combat ? "revive" : "down", id: f.id } }, f.hors_combat ? "Remettre en jeu" : "Hors combat"),
        h("button", { type: "button", dataset: { cast: "remove", id: f.id }, "aria-label": `Retirer ${f.name}` }, "Retirer")))));
    if (!fighters.length) this.cast.append(h("li", { class: "hint" }, "Aucun combattant pour l'instant."));
  }

  bindCast(handlers) {
    this.cast.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-cast]");
      if (button) handlers[button.dataset.cast](button.dataset.id);
    });
    $("#new-fighter").addEventListener("click", () => handlers.create());
  }

  // --- the fighter form ---------------------------------------------------------------
  openFighter(f, { onInput, onSave }) {
    $("#fighter-title").textContent = f ? `Modifier ${f.name}` : "Nouveau combattant";
    this.fighterError("");
    const fields = $("#fighter-fields");
    fields.replaceChildren(...fighterFields(f));
    const form = $("#fighter-form");
    form.oninput = () => onInput(readFighter(form));
    form.onchange = () => onInput(readFighter(form));
    form.onclick = (event) => {
      if (event.target.closest("[data-add-weapon]")) {
        $("#weapons", form).append(weaponRow(null, false, $("#weapons", form).children.length));
      } else if (event.target.closest("[data-remove-weapon]")) {
        event.target.closest("li").remove();
        onInput(readFighter(form));
      }
    };
    form.onsubmit = (event) => {
      event.preventDefault();
      onSave(readFighter(form));
    };
    this.fighterDialog.showModal();
    $("#f-name").focus();
  }

  fighterError(text) {
    const el = $("#fighter-error");
    el.textContent = text;
    el.hidden = !text;
    $("#fighter-save").setAttribute("aria-describedby", text ? "fighter-error" : "fighter-title");
  }

  closeFighter() {
    this.fighterDialog.close();
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
  if (board.round === 0) return Object.keys(board.combatants).length ? "Lancez l'initiative pour commencer le combat." : "Ajoutez des combattants, puis lancez l'initiative.";
  if (board.round_over) return "Tour terminé : les interruptions restent possibles. Lancez le tour suivant.";
  if (board.phase) return `${board.combatants[board.phase].name} termine sa phase (action gratuite prise).`;
  if (names.length === 1) return `À ${names[0]} d'agir (${board.combatants[board.active[0]].pi} P.I.).`;
  return `Égalité à ${board.combatants[board.active[0]].pi} P.I. : ${names.join(", ")} — le MJ choisit qui agit (ordre suggéré).`;
}

function badges(board, f) {
  const out = [];
  if (f.hors_combat) out.push(["hors combat", "bad"]);
  if (f.passed) out.push(["a passé", "muted"]);
  if (f.aim_bonus) out.push([`visée +${f.aim_bonus}`, "good"]);
  if (f.charged) out.push(["a chargé", "warn"]);
  if (f.posture !== "debout") out.push([POSTURES[f.posture], "warn"]);
  if (f.arrow_nocked) out.push(["flèche encochée", "good"]);
  if (f.cover) out.push(["à couvert", "good"]);
  if (f.engaged) {
    const names = f.engaged_with.map((id) => board.combatants[id]?.name).filter(Boolean);
    out.push([names.length ? `engagé : ${names.join(", ")}` : "engagé", "warn"]);
  }
  const held = f.weapons.filter((w) => f.in_hand.includes(w.id)).map((w) => w.name);
  out.push([held.length ? `en main : ${held.join(", ")}` : "mains nues", "muted"]);
  if (f.wounds) out.push([`blessures ${f.wounds}`, "bad"]);
  out.push([`Espoir ${f.hope}`, "muted"]);
  if (f.in_round && f.d6) out.push([`init. ${f.initiative} (d6 ${f.d6})`, "muted"]);
  return out;
}

function labelled(id, text, control, extra = null) {
  return h("div", { class: "field" }, h("label", { for: id }, text), control, extra);
}

function optionField(board, f, actionId, name, required) {
  const id = `opt-${name}`;
  const label = OPTION_FIELDS[name] + (required ? " (obligatoire)" : "");
  const others = board.order.filter((x) => x !== f.id).map((x) => board.combatants[x]);
  const select = (choices) => h("select", { id, name }, choices.map(([v, t]) => h("option", { value: v }, t)));
  switch (name) {
    case "target":
    case "against":
      return labelled(id, label, select([["", "—"], ...others.map((o) => [o.id, o.name])]));
    case "weapon": {
      const preferred = f.actions[actionId].weapon;
      const el = select([["", "Par défaut"], ...f.weapons.map((w) => [w.id, `${w.name} (${KINDS[w.kind]})`])]);
      if (preferred) el.value = preferred;
      return labelled(id, label, el);
    }
    case "distance":
    case "test_result":
    case "difficulty":
      return labelled(id, label, h("input", { id, name, type: "number", inputmode: "decimal", step: name === "distance" ? "any" : 1, required }));
    case "success":
      return labelled(id, label, select([["", "— (non noté)"], ["true", "Réussi"], ["false", "Raté"]]));
    case "familier":
      return h("div", { class: "field check" }, h("input", { id, name, type: "checkbox" }), h("label", { for: id }, label));
    case "skill":
      return labelled(id, label, h("input", { id, name, type: "text", required, autocomplete: "off" }));
    case "posture":
      return labelled(id, label, select([["a_terre", "À terre"], ["a_genoux", "À genoux"]]));
    case "items": {
      const weapons = actionId === "lacher_objet" ? f.weapons.filter((w) => f.in_hand.includes(w.id)) : f.weapons;
      return h("fieldset", { class: "field" }, h("legend", {}, actionId === "lacher_objet" ? "Objets lâchés (aucun coché : tout)" : "Armes prises ou posées"),
        weapons.map((w) => h("div", { class: "check" },
          h("input", { id: `item-${w.id}`, type: "checkbox", name: "items", value: w.id }), h("label", { for: `item-${w.id}` }, w.name))));
    }
    case "tests":
      return h("fieldset", { class: "field" }, h("legend", {}, "Résultats des deux tests (obligatoire)"),
        h("div", { class: "check" }, h("input", { id: "test-esquive", type: "checkbox", name: "esquive" }), h("label", { for: "test-esquive" }, "Test d'esquive réussi")),
        h("div", { class: "check" }, h("input", { id: "test-acrobatie", type: "checkbox", name: "acrobatie" }), h("label", { for: "test-acrobatie" }, "Test d'acrobatie réussi")));
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

function numberField(id, text, value, min = 0) {
  return labelled(id, text, h("input", { id, name: id, type: "number", inputmode: "numeric", step: 1, min, value: value ?? 0 }));
}

function weaponRow(w, held, index) {
  const id = `w${index}-${Math.random().toString(36).slice(2, 7)}`;
  const kind = h("select", { id: `${id}-kind`, class: "w-kind" }, Object.entries(KINDS).map(([k, t]) => h("option", { value: k }, t)));
  kind.value = w?.kind ?? "melee";
  return h("li", { class: "weapon-row", dataset: { weaponId: w?.id ?? "" } },
    labelled(`${id}-name`, "Nom de l'arme", h("input", { id: `${id}-name`, class: "w-name", type: "text", value: w?.name ?? "", autocomplete: "off" })),
    labelled(`${id}-kind`, "Type", kind),
    labelled(`${id}-skill`, "Compétence", h("input", { id: `${id}-skill`, class: "w-skill", type: "text", value: w?.skill ?? "", autocomplete: "off" })),
    labelled(`${id}-level`, "Niveau", h("input", { id: `${id}-level`, class: "w-level", type: "number", min: 0, step: 1, value: w?.level ?? 0 })),
    h("div", { class: "check" }, h("input", { id: `${id}-stowed`, class: "w-stowed", type: "checkbox", checked: w ? w.stowed : true }), h("label", { for: `${id}-stowed` }, "Bien rangée")),
    h("div", { class: "check" }, h("input", { id: `${id}-held`, class: "w-held", type: "checkbox", checked: held }), h("label", { for: `${id}-held` }, "En main")),
    h("button", { type: "button", dataset: { removeWeapon: "1" } }, "Retirer l'arme"));
}

function fighterFields(f) {
  const side = h("select", { id: "f-side", name: "side" }, Object.entries(SIDES).map(([v, t]) => h("option", { value: v }, t)));
  side.value = f?.side ?? "pnj";
  const weaponSkills = new Set((f?.weapons ?? []).map((w) => w.skill));
  const weapons = (f?.weapons ?? []).map((w, i) => weaponRow({ ...w, level: f.skills[w.skill] ?? 0 }, f.in_hand.includes(w.id), i));
  return [
    labelled("f-name", "Nom", h("input", { id: "f-name", name: "name", type: "text", maxlength: 60, required: true, value: f?.name ?? "", autocomplete: "off" })),
    labelled("f-side", "Camp", side),
    h("fieldset", { class: "grid" }, h("legend", {}, "Caractéristiques"),
      Object.entries(CHARACTERISTICS).map(([k, t]) => numberField(`c-${k}`, t, f?.characteristics[k]))),
    h("fieldset", { class: "grid" }, h("legend", {}, "Compétences"),
      Object.entries(SKILLS).map(([k, t]) => numberField(`s-${k}`, t, f?.skills[k])),
      Object.entries(f?.skills ?? {}).filter(([k]) => !(k in SKILLS) && !weaponSkills.has(k)).map(([k, v]) => numberField(`s-${k}`, k, v))),
    h("fieldset", { class: "grid" }, h("legend", {}, "Combat"),
      numberField("f-bonus", "Bonus d'initiative", f?.initiative_bonus, -99),
      numberField("f-wounds", "Points de vie perdus", f?.wounds),
      numberField("f-hope", "Points d'Espoir", f?.hope)),
    h("fieldset", {}, h("legend", {}, "Armes"), h("ul", { id: "weapons", class: "weapons" }, weapons),
      h("button", { type: "button", dataset: { addWeapon: "1" } }, "Ajouter une arme")),
  ];
}

function slug(text, taken) {
  const base = text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "") || "arme";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

// The sheet as the engine takes it; numbers left as typed so the engine names bad ones.
function readFighter(form) {
  const num = (id) => {
    const raw = form.querySelector(`#${id}`).value.trim();
    return raw === "" ? 0 : Number(raw);
  };
  const characteristics = Object.fromEntries(Object.keys(CHARACTERISTICS).map((k) => [k, num(`c-${k}`)]));
  const skills = {};
  for (const input of form.querySelectorAll('input[id^="s-"]')) skills[input.id.slice(2)] = num(input.id);
  const taken = new Set();
  const weapons = [];
  const inHand = [];
  for (const row of form.querySelectorAll(".weapon-row")) {
    const name = row.querySelector(".w-name").value;
    const skill = row.querySelector(".w-skill").value.trim() || slug(name, new Set());
    const id = row.dataset.weaponId && !taken.has(row.dataset.weaponId) ? (taken.add(row.dataset.weaponId), row.dataset.weaponId) : slug(name, taken);
    weapons.push({ id, name, kind: row.querySelector(".w-kind").value, skill, stowed: row.querySelector(".w-stowed").checked });
    const level = row.querySelector(".w-level").value.trim();
    skills[skill] = level === "" ? 0 : Number(level);
    if (row.querySelector(".w-held").checked) inHand.push(id);
  }
  return {
    name: form.querySelector("#f-name").value,
    side: form.querySelector("#f-side").value,
    characteristics, skills,
    initiative_bonus: num("f-bonus"), wounds: num("f-wounds"), hope: num("f-hope"),
    weapons, in_hand: inHand,
  };
}
