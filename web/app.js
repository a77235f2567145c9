// Riposte's controller: wires the views to the engine and to storage. No DOM here
// beyond what the views expose; no rules here at all (the engine has them).
import { CastView, MAX_COPIES, numberedNames, sheetOf } from "./cast.js";
import { $ } from "./dom.js";
import { EngineFault, makeSnapshot, startEngine } from "./engine.js";
import { download, readFile } from "./files.js";
import { actionName, refusal, setLanguage, t } from "./i18n.js";
import { bindKeys } from "./keys.js";
import { confirm, journalRounds, journalText, openHelp, openShare, renderJournal } from "./panels.js";
import { controlled, registerOffline } from "./offline.js";
import { linkFor, qrSvg, readLink } from "./share.js";
import * as store from "./store.js";
import { View } from "./view.js";

const view = new View();
const castView = new CastView();
let engine = null;
let board = null;
let log = [];
let format = 2; // the save format, as the engine says when it loads
let maxChars = 2_000_000; // the size limit, as the engine says when it loads
let redoCount = 0;
let editing = null; // the fighter being edited, or null for a new one
let checkTimer = 0;
let journal = [];

// --- the engine, and what happens when it fails ------------------------------------------
// A fault stops the tap that met it (it rejects), is shown once in the status bar, and
// is not reported again as an unhandled rejection.
window.addEventListener("unhandledrejection", (event) => {
  if (event.reason instanceof EngineFault) event.preventDefault();
});

async function call(request) {
  try {
    return await engine.call(request);
  } catch (error) {
    if (!(error instanceof EngineFault)) throw error;
    view.setEngine("fault", t("engineFault", error.message));
    throw error;
  }
}

// The board kept for the first paint: what the cards show, not every action's verdict.
function paintable(b) {
  const combatants = Object.fromEntries(Object.entries(b.combatants).map(([id, f]) => {
    const { actions, declarations, ...shown } = f;
    return [id, shown];
  }));
  return { ...b, catalogue: undefined, combatants };
}

function persist() {
  const outcome = store.save(store.saveText(format, log, paintable(board)));
  if (outcome === "full") view.message(t("storageFull"));
  else if (outcome === "unavailable") view.message(t("storageUnavailable"));
  return outcome;
}

function show(answer) {
  board = answer.board;
  redoCount = answer.redo ?? redoCount;
  view.renderBoard(board);
  if (view.screen() === "cast") castView.render(board);
  view.setHistory(log.length > 0, redoCount > 0);
  if (view.screen() === "journal") refreshJournal();
}

async function send(command) {
  const answer = await call({ op: "apply", command });
  if (!answer.ok) return answer;
  log.push(answer.command);
  show(answer);
  if (persist() === "ok") view.message("");
  const taken = answer.events.find((e) => e.type === "action_taken");
  view.announce(taken ? `${board.combatants[taken.actor]?.name ?? taken.actor} : ${paidLine(taken)}. ${view.turnText(board)}` : view.turnText(board));
  return answer;
}

// What the live region says after an action: its name and what it cost.
function paidLine(taken) {
  const paid = taken.pays === "espoir" ? t("costHope") : `${t("costPi", taken.cost)} (${taken.pi_before} → ${taken.pi_after})`;
  return `${actionName(taken.action, board.catalogue[taken.action].name)}, ${paid}`;
}

async function tell(command) {
  const answer = await send(command);
  if (!answer.ok) view.message(refusal(answer.error));
  return answer;
}

// --- the board --------------------------------------------------------------------------
function actions(id, interruption) {
  const pick = (actionId) => {
    const f = board.combatants[id];
    view.openOptions(board, f, actionId, async (options) => {
      const type = interruption ? "interrupt" : "act";
      const answer = await send({ type, actor: id, action: actionId, ...options });
      if (!answer.ok) return view.sheetError(refusal(answer.error));
      view.closeSheet();
      return view.focusTurn();
    }, () => view.openActions(board, board.combatants[id], interruption, pick));
  };
  view.openActions(board, board.combatants[id], interruption, pick);
}

async function history(op) {
  const answer = await call({ op });
  if (op === "undo" && answer.undone) log.pop();
  if (op === "redo" && answer.ok && answer.command) log.push(answer.command);
  show(answer);
  persist();
  view.announce(view.turnText(board));
}

const boardHandlers = {
  act: (id) => actions(id, false),
  interrupt: (id) => actions(id, true),
  pass: (id) => tell({ type: "pass", actor: id }),
  endRound: () => tell({ type: "end_round" }),
  nextRound: () => openRound(),
  undo: () => history("undo"),
  redo: () => history("redo"),
};

function openRound() {
  view.renderDeclarations(board);
  view.bindDeclarations({
    changed: (id) => view.updateBreakdown(board, id),
    start: async (declared) => {
      const answer = await tell({ type: "start_round", ...declared });
      if (answer.ok) showScreen("board");
    },
  });
  view.showScreen("round");
}

async function refreshJournal() {
  const answer = await call({ op: "journal" });
  journal = journalRounds(answer.entries, board.catalogue);
  renderJournal(journal);
}

function showScreen(name) {
  if (name === "round") return openRound();
  view.showScreen(name);
  if (name === "cast") castView.render(board);
  if (name === "players") view.renderPlayers(board);
  if (name === "journal") refreshJournal();
  if (name === "menu") $("#aside").hidden = store.aside() === null;
  return undefined;
}

// --- the cast -----------------------------------------------------------------------------
function fighterCommand(sheet) {
  return editing ? { type: "update_combatant", id: editing, changes: sheet } : { type: "add_combatant", combatant: sheet };
}

function editFighter(id) {
  editing = id;
  castView.openFighter(id ? board.combatants[id] : null, {
    onInput: (sheet) => {
      clearTimeout(checkTimer);
      checkTimer = setTimeout(async () => {
        const answer = await call({ op: "check", command: fighterCommand(sheet) });
        castView.fighterError(answer.ok ? "" : refusal(answer.error));
      }, 120);
    },
    onSave: async (sheet) => {
      clearTimeout(checkTimer);
      const answer = await send(fighterCommand(sheet));
      if (answer.ok) castView.closeFighter();
      else castView.fighterError(refusal(answer.error));
    },
  });
}

const takenNames = () => new Set(Object.values(board.combatants).map((f) => f.name));

const castHandlers = {
  create: () => editFighter(null),
  edit: (id) => editFighter(id),
  duplicate: (id) => {
    const f = board.combatants[id];
    const [name] = numberedNames(f.name, 1, takenNames()).filter((n) => n !== f.name);
    return tell({ type: "add_combatant", combatant: { ...sheetOf(f), name } });
  },
  model: (id) => {
    const sheet = sheetOf(board.combatants[id]);
    const models = store.models().filter((m) => m.name !== sheet.name);
    store.saveModels([...models, sheet]);
    castView.renderModels(store.models());
    view.message(t("modelSaved", sheet.name));
  },
  addCopies: async (index, count) => {
    const model = store.models()[index];
    if (!model) return;
    if (!Number.isInteger(count) || count < 1 || count > MAX_COPIES) {
      view.message(t("badCopies"));
      return;
    }
    for (const name of numberedNames(model.name, count, takenNames())) {
      const answer = await tell({ type: "add_combatant", combatant: { ...model, name } });
      if (!answer.ok) return;
    }
    view.message(t("copiesAdded", count, model.name));
  },
  deleteModel: (index) => {
    store.saveModels(store.models().filter((_, i) => i !== index));
    castView.renderModels(store.models());
  },
  down: (id) => tell({ type: "update_combatant", id, changes: { hors_combat: true } }),
  revive: (id) => tell({ type: "update_combatant", id, changes: { hors_combat: false } }),
  remove: (id) => {
    if (window.confirm(t("removeConfirm", board.combatants[id].name))) tell({ type: "remove_combatant", id });
  },
};

// --- files, links, new encounters ---------------------------------------------------------
async function replaceWith(text, source, why) {
  const seen = await call({ op: "inspect", text });
  if (!seen.ok) {
    view.message(why(refusal(seen.error)));
    return false;
  }
  const s = seen.summary;
  const yes = await confirm(t("confirmTitle"), [t("summary", s.round, s.fighters)], t("confirmReplace"), t("confirmKeep"));
  if (!yes) {
    view.message(t("kept"));
    return false;
  }
  return load(text, t("opened", source));
}

// The bridge started another encounter (a save opened, a new fight): take its log, show it, save it.
function adopt(answer, done) {
  log = [...answer.commands];
  show(answer);
  persist();
  view.message(done);
}

async function load(text, done) {
  const answer = await call({ op: "load", text });
  if (!answer.ok) {
    view.message(refusal(answer.error));
    return false;
  }
  adopt(answer, done);
  return true;
}

async function exportText(board) {
  return (await call({ op: "export", board })).text;
}

async function importFile(file) {
  const read = await readFile(file, maxChars);
  if (read.error === "too_big") view.message(t("fileTooBig", Math.ceil(read.size / 1000), maxChars / 1000));
  else if (read.error) view.message(t("fileUnreadable"));
  else await replaceWith(read.text, t("fromFile"), (why) => t("fileRefused", why));
}

async function openLink() {
  let link;
  try {
    link = await readLink(window.location.hash, maxChars);
  } catch (error) {
    view.message(t("linkRefused", error.message === "too_big" ? t("linkTooBig") : t("linkDamaged")));
  }
  if (!link) return;
  clearFragment();
  const opened = await replaceWith(link.text, t("fromLink"), (why) => t("linkRefused", why));
  if (opened && link.players) showScreen("players");
}

function clearFragment() {
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
}

async function share(players) {
  const link = await linkFor(await exportText(false), players);
  openShare({ link, makeQr: qrSvg, playersLink: players });
}

async function newEncounter(party) {
  const yes = await confirm(t("confirmNewTitle"), [party ? t("newWithParty") : t("newEmpty")], t("confirmNew"), t("cancel"));
  if (!yes) return;
  adopt(await call({ op: "new", party }), t("newDone"));
  showScreen("cast");
}

const stamp = () => new Date().toISOString().slice(0, 16).replace(/[T:]/g, "-");
const exportFile = async () => download(`riposte-${stamp()}.json`, await exportText(true));

function bindMenu() {
  $("#open-share").addEventListener("click", () => share(false));
  $("#share-players").addEventListener("change", (event) => share(event.target.checked));
  $("#share-copy").addEventListener("click", async () => {
    await navigator.clipboard.writeText($("#share-link").value).then(() => view.message(t("linkCopied")), () => $("#share-link").select());
  });
  $("#share-file").addEventListener("click", exportFile);
  $("#export").addEventListener("click", exportFile);
  $("#export-aside").addEventListener("click", () => download(`riposte-illisible-${stamp()}.json`, store.aside() ?? ""));
  $("#import").addEventListener("change", async (event) => {
    const [file] = event.target.files;
    event.target.value = "";
    if (file) await importFile(file);
  });
  $("#new-party").addEventListener("click", () => newEncounter(true));
  $("#new-empty").addEventListener("click", () => newEncounter(false));
  $("#open-players").addEventListener("click", () => showScreen("players"));
  $("#close-players").addEventListener("click", () => showScreen("board"));
  $("#open-help").addEventListener("click", openHelp);
  $("#copy-journal").addEventListener("click", () => {
    navigator.clipboard.writeText(journalText(journal)).then(() => view.message(t("journalCopied")), () => view.message(t("journalCopyFailed")));
  });
  const language = $("#language");
  language.value = setLanguage(store.savedLanguage());
  language.addEventListener("change", () => {
    store.saveLanguage(setLanguage(language.value));
    show({ board, redo: redoCount });
    castView.renderModels(store.models());
  });
}

// Keys come faster than the engine answers: each shortcut waits for the one before, and
// reads the board only when its turn comes (two quick "P" pass two fighters, not one twice).
let pending = Promise.resolve();
function serial(handler) {
  return (...args) => {
    pending = pending.then(() => handler(...args)).catch(() => undefined);
    return pending;
  };
}

function bindShortcuts() {
  const current = () => board.active[0];
  const keys = {
    undo: () => !$("#undo").disabled && history("undo"),
    redo: () => !$("#redo").disabled && history("redo"),
    act: () => current() && boardHandlers.act(current()),
    interrupt: () => current() && boardHandlers.interrupt(current()),
    pass: () => current() && boardHandlers.pass(current()),
    endRound: () => !board.round_over && boardHandlers.endRound(),
    nextRound: () => board.round_over && openRound(),
    help: openHelp,
    screen: showScreen,
  };
  bindKeys(Object.fromEntries(Object.entries(keys).map(([name, handler]) => [name, serial(handler)])));
}

// --- start: paint the saved board, start the engine, load the save, open a link ----------
async function main() {
  bindMenu();
  view.bindScreens(showScreen);
  view.bindBoard(boardHandlers);
  castView.bind(castHandlers);
  castView.renderModels(store.models());
  bindShortcuts();
  const saved = store.load();
  if (saved.board?.order && saved.board.combatants) {
    try {
      view.renderBoard(saved.board);
      performance.mark("riposte:saved-board");
    } catch {
      /* a board from another version: the engine's own comes in a moment */
    }
  }
  const registration = await registerOffline({ onUpdate: (apply) => view.offerUpdate(apply) }).catch(() => null);
  if (registration && !navigator.serviceWorker.controller) {
    view.setEngine("loading", t("firstVisit"));
    await controlled(registration);
  }
  view.setEngine("loading", t("loading"));
  try {
    engine = await startEngine();
  } catch (error) {
    view.setEngine("error", t("engineFailed", error?.message ?? error));
    return;
  }
  // The raw bridge, for the fuzz tests and for debugging from the console: text in, text out.
  window.riposte = Object.freeze({ raw: engine.raw });
  let answer = await call({ op: "load", text: saved.text });
  format = answer.format ?? format;
  maxChars = answer.max_chars ?? maxChars;
  if (saved.unavailable) view.message(t("storageUnavailable"));
  if (!answer.ok) {
    store.keepAside(saved.text);
    view.message(t("saveUnreadable", refusal(answer.error)));
    answer = await call({ op: "load", text: null });
  }
  log = [...answer.commands];
  show(answer);
  view.setEngine("ready", t("ready"));
  performance.mark("riposte:ready");
  document.documentElement.dataset.boot = answer.boot ?? "cold";
  if (answer.boot !== "restored") {
    // In the background, once the page is idle: a second Python boots in its own worker.
    const make = () => makeSnapshot().then((made) => { document.documentElement.dataset.snapshot = made.ok ? "made" : "failed"; });
    setTimeout(() => requestIdleCallback(make, { timeout: 5000 }), 2000);
  }
  await openLink();
  window.addEventListener("hashchange", openLink);
}

main();
