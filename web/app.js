// Riposte's controller: wires the view to the engine. It never touches the DOM itself.
import { startEngine } from "./engine.js";
import { View } from "./view.js";
import { load, save } from "./store.js";

const view = new View();
let engine = null;
let board = null;
let log = [];
let redoCount = 0;
let editing = null; // the fighter being edited, or null for a new one
let checkTimer = 0;

function show(answer) {
  board = answer.board;
  redoCount = answer.redo ?? redoCount;
  view.renderBoard(board);
  view.renderCast(board);
  view.setHistory(log.length > 0, redoCount > 0);
  view.announce(document.querySelector("#turn").textContent);
}

async function send(command) {
  const answer = await engine.call({ op: "apply", command });
  if (!answer.ok) return answer;
  log.push(answer.command);
  save(log);
  show(answer);
  view.message("");
  const taken = answer.events.find((e) => e.type === "action_taken");
  if (taken) {
    const who = board.combatants[taken.actor]?.name ?? taken.actor;
    const paid = taken.pays === "espoir" ? "1 point d'Espoir" : taken.pays === "rien" ? "rien" : `${taken.cost} P.I. (${taken.pi_before} → ${taken.pi_after})`;
    view.announce(`${who} : ${board.catalogue[taken.action].name}, ${paid}. ${document.querySelector("#turn").textContent}`);
  }
  return answer;
}

async function tell(command) {
  const answer = await send(command);
  if (!answer.ok) view.message(answer.error.message);
  return answer;
}

function actions(id, interruption) {
  const pick = (actionId) => {
    const f = board.combatants[id];
    view.openOptions(board, f, actionId, async (options) => {
      const type = interruption ? "interrupt" : "act";
      const answer = await send({ type, actor: id, action: actionId, ...options });
      if (answer.ok) view.closeSheet();
      else view.sheetError(answer.error.message);
    }, () => view.openActions(board, board.combatants[id], interruption, pick));
  };
  view.openActions(board, board.combatants[id], interruption, pick);
}

const boardHandlers = {
  act: (id) => actions(id, false),
  interrupt: (id) => actions(id, true),
  pass: (id) => tell({ type: "pass", actor: id }),
  endRound: () => tell({ type: "end_round" }),
  nextRound: () => openRound(),
  undo: async () => {
    const answer = await engine.call({ op: "undo" });
    if (answer.undone) log.pop();
    save(log);
    show(answer);
  },
  redo: async () => {
    const answer = await engine.call({ op: "redo" });
    if (answer.ok && answer.command) log.push(answer.command);
    save(log);
    show(answer);
  },
};

function openRound() {
  view.renderDeclarations(board);
  view.bindDeclarations({
    changed: (id) => view.updateBreakdown(board, id),
    start: async (declared) => {
      const answer = await tell({ type: "start_round", ...declared });
      if (answer.ok) view.showScreen("board");
    },
  });
  view.showScreen("round");
}

function numbered(name) {
  const base = name.replace(/\s+\d+$/, "");
  const used = new Set(Object.values(board.combatants).map((f) => f.name));
  let n = 2;
  while (used.has(`${base} ${n}`)) n++;
  return `${base} ${n}`;
}

function sheetOf(f) {
  return {
    name: f.name, side: f.side, characteristics: f.characteristics, skills: f.skills,
    initiative_bonus: f.initiative_bonus, wounds: f.wounds, hope: f.hope, weapons: f.weapons, in_hand: f.in_hand,
  };
}

function fighterCommand(sheet) {
  return editing ? { type: "update_combatant", id: editing, changes: sheet } : { type: "add_combatant", combatant: sheet };
}

function editFighter(id) {
  editing = id;
  view.openFighter(id ? board.combatants[id] : null, {
    onInput: (sheet) => {
      clearTimeout(checkTimer);
      checkTimer = setTimeout(async () => {
        const answer = await engine.call({ op: "check", command: fighterCommand(sheet) });
        view.fighterError(answer.ok ? "" : answer.error.message);
      }, 120);
    },
    onSave: async (sheet) => {
      clearTimeout(checkTimer);
      const answer = await send(fighterCommand(sheet));
      if (answer.ok) view.closeFighter();
      else view.fighterError(answer.error.message);
    },
  });
}

const castHandlers = {
  create: () => editFighter(null),
  edit: (id) => editFighter(id),
  duplicate: (id) => tell({ type: "add_combatant", combatant: { ...sheetOf(board.combatants[id]), name: numbered(board.combatants[id].name) } }),
  down: (id) => tell({ type: "update_combatant", id, changes: { hors_combat: true } }),
  revive: (id) => tell({ type: "update_combatant", id, changes: { hors_combat: false } }),
  remove: (id) => {
    if (window.confirm(`Retirer ${board.combatants[id].name} du combat ?`)) tell({ type: "remove_combatant", id });
  },
};

async function main() {
  view.bindScreens((name) => (name === "round" ? openRound() : view.showScreen(name)));
  view.bindBoard(boardHandlers);
  view.bindCast(castHandlers);
  try {
    engine = await startEngine();
  } catch (error) {
    view.setEngine("error", `Le moteur de règles n'a pas pu démarrer (${error?.message ?? error}). Rechargez la page.`);
    return;
  }
  const saved = load();
  let answer = await engine.call({ op: "load", log: saved.commands });
  if (saved.error) view.message(saved.error);
  if (!answer.ok) {
    view.message(`La sauvegarde n'a pas pu être relue (${answer.error.message}) : elle est mise de côté, un nouveau combat commence.`);
    save([], { keepAside: saved.raw });
    answer = await engine.call({ op: "load", log: [] });
  }
  log = saved.commands && answer.ok ? [...saved.commands] : [];
  show(answer);
  view.setEngine("ready", "Moteur prêt.");
}

main();
