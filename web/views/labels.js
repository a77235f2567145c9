// Words for the engine's values, in the current language (infra/i18n.js): a skill, a cost,
// a test, whose turn it is, a command.
import { isolate, own } from "../infra/dom.js";
import { actionName, t, term } from "../infra/i18n.js";

// A skill of the rules by its word; a weapon's own skill by the weapon's name (the form
// gives it the weapon's id: "epee" is « Épée »); another the user named, as typed (and
// isolated). `weapons`: the fighter's, when known.
export function skillLabel(name, weapons = []) {
  if (own(t("skills"), name) !== undefined) return term("skills", name);
  const weapon = weapons.find((w) => w.skill === name);
  return isolate(weapon ? weapon.name : name);
}

// What an action costs, from the engine's price (a verdict, an action taken, a journal
// entry: its `pays` and `cost`): « 5 P.I. », « 1 point d'Espoir », « rien ». With `paid`,
// what it took too: « 5 P.I. (11 → 6) », « 1 point d'Espoir (Espoir 1 → 0) ». A verdict
// that would lose an aim says so with its price (R4.1, D13: « 5 P.I., perd la visée +2 »).
// The one place a cost is worded (the board's chips and dock, the sheet, the live region,
// the journal).
export function costLabel(price, paid = false) {
  const cost = price.pays === "espoir" ? t("costHope") : price.pays === "rien" ? t("costNothing") : t("costPi", price.cost);
  if (!paid) return price.loses_aim ? t("costLosingAim", cost, price.loses_aim) : cost;
  if (price.pays === "rien") return cost;
  // A PNJ's values kept by the game master (the live table's players' journal, D26): the cost alone.
  if (price.pays === "espoir") return price.hope_before === null ? cost : t("paidHope", cost, price.hope_before, price.hope_after);
  return price.pi_before === null ? cost : t("paidPi", cost, price.pi_before, price.pi_after);
}

// "Mêlée 7 / Épée 3, charge +4, difficulté 2" (D14: the engine names the test). A PNJ's
// values kept by the game master (the live table's players' journal, D26): "Mêlée / Épée".
export function testLabel(test, weapons = []) {
  const parts = [];
  const value = (v) => (v === null || v === undefined ? "" : ` ${v}`);
  const left = test.characteristic ? `${term("characteristics", test.characteristic)}${value(test.characteristic_value)}` : "";
  const right = test.skill ? `${test.skill_name ? isolate(test.skill_name) : skillLabel(test.skill, weapons)}${value(test.skill_level)}` : "";
  parts.push([left, right].filter(Boolean).join(" / "));
  for (const m of test.modifiers) parts.push(`${term("modifiers", m.id)} ${m.value > 0 ? "+" : "−"}${Math.abs(m.value)}`);
  if (test.difficulty !== null && test.difficulty !== undefined) parts.push(t("difficulty", test.difficulty));
  const what = parts.filter(Boolean).join(", ");
  return test.id ? t("testNamed", term("tests", test.id), what) : what;
}

// Every test an action names, in one line (« portée : Mêlée 7 / Course 2 · Mêlée 7 / Épée
// 3, charge +4 »), or "" when it names none.
export function testsLabel(tests = [], weapons = []) {
  return (tests ?? []).map((test) => testLabel(test, weapons)).join(" · ");
}

// Whose turn it is, in words: the board's heading and what the live region says.
export function turnText(board) {
  const fighter = (id) => own(board.combatants, id) ?? { name: String(id), pi: 0 };
  const names = board.active.map((id) => isolate(fighter(id).name));
  if (board.round === 0) return Object.keys(board.combatants).length ? t("turnStart") : t("turnEmpty");
  if (board.round_over) return t("turnOver");
  if (board.phase) return t("turnPhase", isolate(fighter(board.phase).name));
  if (names.length === 1) return t("turnOne", names[0], fighter(board.active[0]).pi);
  return t("turnTie", fighter(board.active[0]).pi, names.join(", "));
}

// Whose turn it is on the players' board (engine/players.py), on their phones and on the
// players' view alike: a PNJ's P.I. kept by the game master (null) leave its name alone; a
// round going on with nobody shown acting is a fighter hidden from the players acting (D26).
export function playersTurnText(board) {
  const first = board.active.length ? board.combatants[board.active[0]] : null;
  const going = board.round > 0 && !board.round_over;
  if (going && board.active.length === 0) return t("liveTurnGm");
  if (going && !board.phase && first?.pi === null) {
    return t("liveTurnHidden", board.active.map((id) => isolate(board.combatants[id].name)).join(", "));
  }
  return turnText(board);
}

// A command in a few words: « Aldric — Attaque au corps à corps → Orque 1 » (the dock's
// last line); `short`, an action by its chip's word (« Aldric — Attaquer → Orque 1 »: undo
// and redo, two buttons side by side). `gone`: the names of fighters no longer on the
// board (the engine's answer: the one the last command removed), by id.
export function commandLabel(board, command, short = false, gone = {}) {
  const name = (id) => {
    const f = own(board?.combatants ?? {}, id);
    const left = f ? null : own(gone ?? {}, id);
    return f ? isolate(f.name) : typeof left === "string" ? isolate(left) : t("someone");
  };
  const action = (id) => (short ? own(t("chips"), id) : undefined) ?? actionName(id);
  switch (command?.type) {
    case "act":
      return t("labelAct", name(command.actor), action(command.action), command.target ? name(command.target) : null);
    case "interrupt":
      return t("labelInterrupt", name(command.actor), action(command.action), command.against ? name(command.against) : null);
    case "pass":
      return t("labelPass", name(command.actor));
    case "start_round":
      return t("labelStart");
    case "end_round":
      return t("labelEnd");
    case "add_combatant":
      return t("labelAdd", isolate(command.combatant?.name ?? "?"));
    case "remove_combatant":
      return t("labelRemove", name(command.id));
    case "add_combatants": {
      const sheets = Array.isArray(command.combatants) ? command.combatants : [];
      return t("labelAddMany", isolate(sheets[0]?.name ?? "?"), Math.max(0, sheets.length - 1));
    }
    case "add_copies":
      return t("labelAddCopies", isolate(command.combatant?.name ?? "?"), command.ids?.length ?? command.count ?? 1);
    case "duplicate_combatant":
      return t("labelCopy", name(command.id), command.ids?.length ?? command.count ?? 1);
    case "add_condition":
      return t("labelCondition", name(command.id), isolate(String(command.condition ?? "")));
    case "remove_condition":
      return t("labelUncondition", name(command.id), isolate(String(command.condition ?? "")));
    case "set_rules":
      return t("labelRules");
    case "update_combatant": {
      const changes = command.changes ?? {};
      const keys = Object.keys(changes);
      if (keys.length === 1 && keys[0] === "wounds") return t("labelWounds", name(command.id), changes.wounds);
      if (keys.length === 1 && keys[0] === "hope") return t("labelHope", name(command.id), changes.hope);
      if (keys.length === 1 && keys[0] === "notes") return t("labelNotes", name(command.id));
      if (keys.length === 1 && keys[0] === "hors_combat") return t(changes.hors_combat ? "labelOut" : "labelBack", name(command.id));
      return t("labelUpdate", name(command.id));
    }
    default:
      return t("labelSettings");
  }
}

// The initiative's breakdown for one declaration (R1.3): « Mêlée 7 → 3 + bonus 1 + Épée 3
// + dé 4 − blessures 2 = 9 »; `die` not a face of the d6: the die still to roll (« ? »).
// The game master's round form and a player's phone show the same: the engine's numbers
// (its declarations, the total for each face in `by_die`).
export function breakdownLabel(f, d, die) {
  const total = Number.isInteger(die) ? d.by_die?.[die - 1] : undefined;
  const known = total !== undefined;
  return t("breakdown", term("characteristics", d.characteristic), d.characteristic_value, d.half, d.initiative_bonus,
    skillLabel(d.skill, f.weapons), d.skill_level, known ? die : "?", d.wounds, known ? total : "?");
}
