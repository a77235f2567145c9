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

// A duration in words, « 1 min 05 s », « 45 s »; « — » when not known (a fight of an
// earlier release kept no times: engine/summary.py).
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return t("sNoTime");
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? t("sSeconds", s) : t("sMinutes", Math.floor(s / 60), String(s % 60).padStart(2, "0"));
}

// One line per fighter, its parts in words: « Aldric (PJ) : 2 simples, 1 interruption · 1
// passe · 15 P.I. dépensés · 1 blessure reçue · premier à agir 1 fois · temps de jeu 1 min
// 05 s en 3 tours (le plus long : 40 s) ».
export function summaryFighter(f) {
  const time = f.seconds === null || f.seconds === undefined ? t("sTimeNone", duration(null))
    : t("sTime", duration(f.seconds), f.turns_timed, duration(f.longest));
  return [t("sFighter", isolate(f.name), term("sides", f.side)), [t("sActions", f.actions),
    f.passes ? t("sPasses", f.passes) : "", t("sSpent", f.pi_spent, f.hope_spent),
    f.wounds_taken ? t("sWounds", f.wounds_taken) : "", f.first ? t("sFirst", f.first) : "",
    f.out ? t("sOut") : "", f.removed ? t("sRemoved") : "", time].filter(Boolean).join(" · ")].join(t("sColon"));
}

export function summaryRound(r, names) {
  const first = r.first === null ? null : isolate(names.get(r.first) ?? r.first);
  return `${t("sRound", r.round, first, r.actions, r.interruptions, r.passes)} (${term("sEnded", r.ended ?? "on")})${t("sLasted", duration(r.seconds ?? null))}.`;
}

function totals(s) {
  const { rounds, actions, interruptions, hope_spent: hope, seconds = null } = s.totals;
  return `${t("sTotals", rounds, actions, interruptions, hope)} ${t("sTotalTime", duration(seconds))}`;
}

// The summary as the text a copy or a file holds.
export function summaryText(s) {
  if (!s.rounds.length) return [t("summaryTitle"), t("sNone"), "", ...s.fighters.map(summaryFighter)].join("\n");
  const names = new Map(s.fighters.map((f) => [f.id, f.name]));
  return [t("summaryTitle"), totals(s), "", ...s.fighters.map(summaryFighter), "", ...s.rounds.map((r) => summaryRound(r, names))].join("\n");
}

// How many actions a fighter took, every category (R3) together.
const actionCount = (f) => Object.values(f.actions).reduce((a, b) => a + b, 0);

// The charts the summary draws, each from the engine's numbers: its class, its title and
// each fighter's value (null: not known).
export function summaryCharts(s) {
  const charts = [["actions", t("sChartActions"), s.fighters.map(actionCount)],
    ["pi", t("sChartPi"), s.fighters.map((f) => f.pi_spent)]];
  if (s.fighters.some((f) => f.seconds !== null && f.seconds !== undefined)) {
    charts.push(["time", t("sChartTime"), s.fighters.map((f) => f.seconds ?? null)]);
  }
  return charts;
}

export class SummaryView {
  constructor() {
    this.box = $("#summary-box");
    this.root = $("#fight-summary");
    this.handlers = {};
    this.box.addEventListener("toggle", () => this.handlers.open?.(this.box.open));
    $("#copy-summary").addEventListener("click", () => this.handlers.copy?.());
    $("#save-summary").addEventListener("click", () => this.handlers.save?.());
    $("#share-summary").addEventListener("click", () => this.handlers.share?.());
  }

  // copy(), save(), share(), open(isOpen).
  bind(handlers) {
    this.handlers = handlers;
  }

  get open() {
    return this.box.open;
  }

  // « Partager » where the browser shares a file (the Web Share API: a phone's share
  // sheet); elsewhere « Enregistrer » saves the same file.
  showShare(can) {
    $("#share-summary").hidden = !can;
  }

  // The totals, the charts (a bar per fighter: its actions, the P.I. it spent, its time),
  // a line per fighter in words, and a line per round.
  render(s) {
    const names = new Map(s.fighters.map((f) => [f.id, f.name]));
    this.root.replaceChildren(
      h("p", {}, s.rounds.length ? totals(s) : t("sNone")),
      s.fighters.length ? h("div", { class: "summary-charts" }, summaryCharts(s).map(([kind, title, values]) =>
        chart(kind, title, s.fighters.map((f) => f.name), values))) : "",
      h("ul", { class: "summary-fighters" }, s.fighters.map((f) => h("li", {}, summaryFighter(f)))),
      h("ol", { class: "summary-rounds" }, s.rounds.map((r) => h("li", {}, summaryRound(r, names)))));
  }
}

// --- the charts: inline SVG, text labels, the page's colours --------------------------------

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, text = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (text !== null) el.textContent = text;
  return el;
}

// A name short enough for the chart's left column (the whole name is in the lines below
// and in the chart's own words for a screen reader).
const short = (name) => (name.length > 14 ? `${name.slice(0, 13)}…` : name);

// One chart: a figure, its title, and an SVG with a row per fighter: its name, a bar as
// long as its value against the largest, and the value in words (« 1 min 05 s » for a
// time; « — » when not known). A screen reader reads the figure's words instead.
function chart(kind, title, names, values) {
  const row = 24;
  const width = 320;
  const left = 118;
  const room = 150;
  const most = Math.max(1, ...values.map((v) => v ?? 0));
  const said = (v) => (kind === "time" ? duration(v) : v === null ? t("sNoTime") : String(v));
  const picture = svg("svg", { viewBox: `0 0 ${width} ${row * names.length + 4}`, role: "img",
    "aria-label": `${title} : ${names.map((n, i) => `${isolate(n)} ${said(values[i])}`).join(", ")}` });
  names.forEach((name, i) => {
    const y = i * row + 2;
    const value = values[i];
    const long = value ? Math.max(2, Math.round((value / most) * room)) : 0;
    picture.append(svg("text", { x: 0, y: y + 16 }, isolate(short(name))),
      svg("rect", { class: `bar ${kind}`, x: left, y: y + 4, width: long, height: 14, rx: 3, "data-value": value ?? "" }),
      svg("text", { class: "value", x: left + long + 6, y: y + 16 }, said(value)));
  });
  return h("figure", { class: `summary-chart chart-${kind}` }, h("figcaption", {}, title), picture);
}
