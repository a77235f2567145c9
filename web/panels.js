// The journal, the game menu, the share, confirm and help dialogs. Text only, as always.
import { $, h } from "./dom.js";
import { actionName, t, term } from "./i18n.js";
import { costLabel, testLabel } from "./labels.js";

// --- the journal: entries from the engine (engine/journal.py), worded here -------------
function entryText(e, catalogue) {
  switch (e.kind) {
    case "joined": return t("jJoined", e.name, term("sides", e.side));
    case "removed": return t("jRemoved", e.name);
    case "out": return t("jOut", e.name);
    case "back": return t("jBack", e.name);
    case "round_started": return [t("jRoundStarted", e.round),
      ...e.initiatives.map((i) => t("jRoll", i.name, i.weapon, i.d6, i.initiative, i.rolled_by === "engine"))].join("\n  ");
    case "passed": return t("jPassed", e.name, e.pi);
    case "round_ended": return t("jRoundEnded", e.reason);
    case "action": {
      const parts = [t("jAction", e.name, actionName(e.action, catalogue[e.action]?.name ?? e.action), costLabel(e), e.category === "interruption")];
      if (e.target) parts.push(t("jTarget", e.target));
      if (e.against) parts.push(t("jAgainst", e.against));
      if (e.pays === "espoir") parts.push(t("jHopeMove", e.hope_before, e.hope_after));
      else parts.push(t("jPiMove", e.pi_before, e.pi_after));
      for (const test of e.tests) parts.push(t("jTest", testLabel(test)));
      if ("test_result" in e.outcome) parts.push(t("jResult", e.outcome.test_result));
      if ("success" in e.outcome) parts.push(t("jOutcome", e.outcome.success));
      return parts.join(" · ");
    }
    default: return "";
  }
}

export function journalRounds(entries, catalogue) {
  const rounds = [];
  for (const e of entries) {
    if (!rounds.length || rounds[rounds.length - 1].round !== e.round) rounds.push({ round: e.round, lines: [] });
    rounds[rounds.length - 1].lines.push(entryText(e, catalogue));
  }
  return rounds;
}

export function journalText(rounds) {
  return rounds.map((r) => [`== ${t("journalRound", r.round)} ==`, ...r.lines].join("\n")).join("\n\n");
}

export function renderJournal(rounds) {
  const root = $("#journal");
  root.replaceChildren(...rounds.map((r) => h("section", { class: "journal-round" },
    h("h3", {}, t("journalRound", r.round)),
    h("ol", {}, r.lines.map((line) => h("li", {}, line))))));
  if (!rounds.length) root.append(h("p", { class: "hint" }, t("journalEmpty")));
}

// --- dialogs -----------------------------------------------------------------------------
// Ask before replacing the encounter: resolves true (replace) or false (keep).
export function confirm(title, lines, yes, no) {
  const dialog = $("#confirm-dialog");
  $("#confirm-title").textContent = title;
  $("#confirm-body").replaceChildren(...lines.map((line) => h("p", {}, line)));
  $("#confirm-yes").textContent = yes;
  $("#confirm-no").textContent = no;
  dialog.showModal();
  $("#confirm-no").focus();
  return new Promise((resolve) => {
    dialog.onclose = () => resolve(dialog.returnValue === "yes");
  });
}

export function openHelp() {
  $("#help-keys").replaceChildren(...t("keys").map(([key, what]) => h("div", { class: "key" }, h("dt", {}, h("kbd", {}, key)), h("dd", {}, what))));
  $("#help-dialog").showModal();
}

export function openShare({ link, makeQr, playersLink }) {
  $("#share-link").value = link;
  $("#share-players").checked = playersLink;
  $("#share-status").textContent = t("qrLoading");
  $("#share-qr").replaceChildren();
  const dialog = $("#share-dialog");
  if (!dialog.open) dialog.showModal();
  makeQr(link).then((svg) => {
    if (svg) {
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", t("qrAlt", link.length));
      $("#share-qr").replaceChildren(svg);
      $("#share-status").textContent = "";
    } else {
      $("#share-status").textContent = t("qrTooLong", link.length);
    }
  });
}
