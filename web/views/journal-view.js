// The journal screen, and the journal's words: the engine's entries (engine/journal.py)
// worded in the page's language, by round, and as the plain text a copy puts on the
// clipboard. Text only, as always.
import { $, h, isolate } from "../infra/dom.js";
import { actionName, language, t, term } from "../infra/i18n.js";
import { costLabel, testLabel } from "./labels.js";

// One entry in words (the journal screen, a player's phone: web/live/guest-view.js).
export function entryText(e) {
  switch (e.kind) {
    case "joined": return t("jJoined", isolate(e.name), term("sides", e.side));
    case "removed": return t("jRemoved", isolate(e.name));
    case "renamed": return t("jRenamed", isolate(e.name), isolate(e.to));
    case "copies": return [t("jCopies", e.count, isolate(e.name), term("sides", e.side), e.names.map(isolate).join(", ")),
      e.renamed ? t("jRenamed", isolate(e.renamed.name), isolate(e.renamed.to)) : ""].filter(Boolean).join(" ");
    case "out": return t("jOut", isolate(e.name));
    case "back": return t("jBack", isolate(e.name));
    case "round_started": return [t("jRoundStarted", e.round),
      ...e.initiatives.map((i) => (i.d6 === null // a PNJ's, kept by the game master (the live table's players, D26)
        ? t("jRollHidden", isolate(i.name), i.weapon && isolate(i.weapon))
        : t("jRoll", isolate(i.name), i.weapon && isolate(i.weapon), i.d6, i.initiative, i.rolled_by === "engine")))].join("\n  ");
    case "passed": return [e.pi === null ? t("jPassedHidden", isolate(e.name)) : t("jPassed", isolate(e.name), e.pi),
      e.by_player ? t("jByPlayer", isolate(e.name)) : ""].filter(Boolean).join(" · ");
    case "wounds": return t("jWounds", isolate(e.name), e.before, e.after);
    case "hope": return t("jHope", isolate(e.name), e.before, e.after);
    case "notes": return e.notes ? t("jNotes", isolate(e.name), isolate(e.notes)) : t("jNotesCleared", isolate(e.name));
    case "condition": return t("jCondition", isolate(e.name), isolate(e.condition), e.until ?? null);
    case "condition_removed": return t("jConditionRemoved", isolate(e.name), isolate(e.condition));
    case "condition_ended": return t("jConditionEnded", isolate(e.name), isolate(e.condition));
    // The group's rules changed (engine/journal.py): the engine words it in each language.
    case "rules": return e.lines?.[language()] ?? e.lines?.fr ?? "";
    case "round_ended": return t("jRoundEnded", e.reason, (e.holding ?? [])
      .map((f) => (f.pi === null ? isolate(f.name) : t("holdingOf", isolate(f.name), f.pi))).join(", "));
    case "action": {
      const parts = [t("jAction", isolate(e.name), actionName(e.action), costLabel(e, true), e.category === "interruption")];
      if (e.target) parts.push(t("jTarget", isolate(e.target)));
      if (e.distance !== null && e.distance !== undefined) parts.push(t("jDistance", e.distance));
      if (e.against) parts.push(t("jAgainst", isolate(e.against)));
      for (const test of e.tests) parts.push(t("jTest", testLabel(test)));
      if (e.aim) parts.push(t("aimReached", e.aim.bonus, e.aim.capped));
      if (e.aim_lost) parts.push(t("aimLost", e.aim_lost));
      if ("test_result" in e.outcome) parts.push(t("jResult", e.outcome.test_result));
      if ("success" in e.outcome) parts.push(t("jOutcome", e.outcome.success));
      if (e.by_player) parts.push(t("jByPlayer", isolate(e.name)));
      return parts.join(" · ");
    }
    default: return "";
  }
}

export function journalRounds(entries) {
  const rounds = [];
  for (const e of entries) {
    if (!rounds.length || rounds[rounds.length - 1].round !== e.round) rounds.push({ round: e.round, lines: [] });
    rounds[rounds.length - 1].lines.push(entryText(e));
  }
  return rounds;
}

export function journalText(rounds) {
  return rounds.map((r) => [`== ${t("journalRound", r.round)} ==`, ...r.lines].join("\n")).join("\n\n");
}

// The journal screen; copying its text is its own (the clipboard, or a message why not).
export class JournalView {
  constructor() {
    this.root = $("#journal");
    this.onCopy = null;
    $("#copy-journal").addEventListener("click", () => this.onCopy?.());
  }

  bindCopy(handler) {
    this.onCopy = handler;
  }

  render(rounds) {
    this.root.replaceChildren(...rounds.map((r) => h("section", { class: "journal-round" },
      h("h3", {}, t("journalRound", r.round)),
      h("ol", {}, r.lines.map((line) => h("li", {}, line))))));
    if (!rounds.length) this.root.append(h("p", { class: "hint" }, t("journalEmpty")));
    // Beside the board, the journal shows its end: what was just done.
    if (this.root.closest(".companion")) this.root.scrollTop = this.root.scrollHeight;
  }

  // Resolves true when the text is on the clipboard.
  copy(text) {
    return navigator.clipboard.writeText(text).then(() => true, () => false);
  }
}


// --- the fight's summary (engine/summary.py), worded; text only ------------------------------

// One line per fighter, its parts in words: « Aldric (PJ) : 2 simples, 1 interruption · 1
// passe · 15 P.I. dépensés · 1 blessure reçue · premier à agir 1 fois ».
export function summaryFighter(f) {
  return [t("sFighter", isolate(f.name), term("sides", f.side)), [t("sActions", f.actions),
    f.passes ? t("sPasses", f.passes) : "", t("sSpent", f.pi_spent, f.hope_spent),
    f.wounds_taken ? t("sWounds", f.wounds_taken) : "", f.first ? t("sFirst", f.first) : "",
    f.out ? t("sOut") : "", f.removed ? t("sRemoved") : ""].filter(Boolean).join(" · ")].join(t("sColon"));
}

export function summaryRound(r, names) {
  const first = r.first === null ? null : isolate(names.get(r.first) ?? r.first);
  return `${t("sRound", r.round, first, r.actions, r.interruptions, r.passes)} (${term("sEnded", r.ended ?? "on")}).`;
}

// The summary as the text a copy or a file holds.
export function summaryText(s) {
  if (!s.rounds.length) return [t("summaryTitle"), t("sNone"), "", ...s.fighters.map(summaryFighter)].join("\n");
  const names = new Map(s.fighters.map((f) => [f.id, f.name]));
  const { rounds, actions, interruptions, hope_spent: hope } = s.totals;
  return [t("summaryTitle"), t("sTotals", rounds, actions, interruptions, hope), "",
    ...s.fighters.map(summaryFighter), "", ...s.rounds.map((r) => summaryRound(r, names))].join("\n");
}

export class SummaryView {
  constructor() {
    this.box = $("#summary-box");
    this.root = $("#fight-summary");
    this.handlers = {};
    this.box.addEventListener("toggle", () => this.handlers.open?.(this.box.open));
    $("#copy-summary").addEventListener("click", () => this.handlers.copy?.());
    $("#save-summary").addEventListener("click", () => this.handlers.save?.());
  }

  bind(handlers) {
    this.handlers = handlers;
  }

  get open() {
    return this.box.open;
  }

  // The totals, a bar per fighter for the P.I. it spent (its width against the most any
  // spent), its line in words, and a line per round.
  render(s) {
    const names = new Map(s.fighters.map((f) => [f.id, f.name]));
    const most = Math.max(1, ...s.fighters.map((f) => f.pi_spent));
    const { rounds, actions, interruptions, hope_spent: hope } = s.totals;
    this.root.replaceChildren(
      h("p", {}, rounds ? t("sTotals", rounds, actions, interruptions, hope) : t("sNone")),
      h("ul", { class: "summary-fighters" }, s.fighters.map((f) => h("li", {}, bar(f.pi_spent / most), summaryFighter(f)))),
      h("ol", { class: "summary-rounds" }, s.rounds.map((r) => h("li", {}, summaryRound(r, names)))));
  }
}

// A bar as wide as `share` (0 to 1) of its line: the P.I. a fighter spent, drawn.
function bar(share) {
  const el = h("span", { class: "summary-bar", "aria-hidden": "true" });
  el.style.setProperty("--share", String(share));
  return el;
}
