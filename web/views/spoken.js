// What the live region (index.html #live, aria-live polite) says after an answer: the
// event in words a screen reader reads well (no arrows, no dashes), once, then whose turn
// it is. From the engine's answer alone: its command, its events and its board.
import { isolate, own } from "../infra/dom.js";
import { actionName, t } from "../infra/i18n.js";
import { commandLabel, turnText } from "./labels.js";

export function spoken(board, answer) {
  if (!board) return "";
  const name = (id) => isolate(own(board.combatants, id)?.name ?? own(answer?.gone ?? {}, id) ?? t("someone"));
  if (answer?.undone) return `${t("saidUndone", said(board, answer.undone, name, answer.gone))} ${turnText(board)}`;
  if (answer?.redone) return `${t("saidRedone", said(board, answer.redone, name, answer.gone))} ${turnText(board)}`;
  const command = answer?.command;
  if (!command) return turnText(board);
  const events = answer.events ?? [];
  const parts = [];
  const taken = events.find((e) => e.type === "action_taken");
  if (taken) parts.push(t("saidAction", said(board, command, name), paid(taken)));
  else if (command.type === "start_round") parts.push(t("saidStart", board.round));
  else if (command.type === "pass") parts.push(t("saidPass", name(command.actor)));
  else if (command.type === "update_combatant" && Object.keys(command.changes ?? {}).join() === "hors_combat") {
    parts.push(t(command.changes.hors_combat ? "saidOut" : "saidBack", name(command.id))); // D6
  }
  else if (command.type !== "end_round") parts.push(t("saidDone", said(board, command, name, answer.gone))); // the end: said below
  const waiting = answers(board, command);
  if (waiting) parts.push(waiting);
  const ended = events.find((e) => e.type === "round_ended");
  for (const e of events.filter((x) => x.type === "condition_ended")) parts.push(t("saidConditionEnded", name(e.id), isolate(e.text)));
  if (ended) {
    const kept = (ended.unspent ?? []).map((id) => own(board.combatants, id)).filter(Boolean);
    parts.push(t("saidRoundEnded", ended.round, ended.reason === "mj", kept.map((f) => t("saidKept", isolate(f.name), f.pi)).join(", ")));
  } else parts.push(turnText(board));
  return parts.join(" ");
}

// A command in words: « Lyra : Tir à l'arc, sur Brigand 1 », « Brigand 3 passe »; the
// others as the dock names them.
function said(board, command, name, gone = {}) {
  switch (command.type) {
    case "act":
      return t("saidAct", name(command.actor), actionName(command.action), command.target ? name(command.target) : null);
    case "interrupt":
      return t("saidInterrupt", name(command.actor), actionName(command.action), command.against ? name(command.against) : null);
    default:
      return commandLabel(board, command, false, gone);
  }
}

// What an action took, and what is left: « 5 P.I., il en reste 7 ».
function paid(taken) {
  if (taken.pays === "rien") return t("saidFree");
  if (taken.pays === "espoir") return t("saidHope", taken.hope_after);
  return t("saidPi", taken.cost, taken.pi_after);
}

// An attack's target and the answers it may give (R5, D23: the catalogue's `answers`, those
// the engine allows it), or null when the command is no attack or none fits.
function answers(board, command) {
  const spec = command.type === "act" && command.target ? own(board.catalogue ?? {}, command.action) : null;
  const target = spec?.attack ? own(board.combatants, command.target) : null;
  if (!target?.actions) return null;
  const fitting = (spec.answers ?? []).filter((a) => own(target.actions, a));
  if (!fitting.length) return null;
  const allowed = fitting.filter((a) => target.actions[a].allowed).map(actionName);
  return allowed.length ? t("saidAnswers", isolate(target.name), allowed.join(", ")) : t("saidNoAnswer", isolate(target.name));
}
