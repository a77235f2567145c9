// « Essayer sur ce combat » (beside the edited rules): the engine's lab (engine/labo.py,
// Table.labo) drawn as it answers: how far its random rounds are, « Arrêter », the
// commands played that would change or be refused, and the two rule sets side by side.
// Numbers and words are the engine's; names are user text, isolated, as text.
import { $, h, isolate, own } from "../infra/dom.js";
import { actionName, language, reason, t } from "../infra/i18n.js";

const SHOWN = 8; // the changed commands listed; the rest counted

export class LaboView {
  constructor() {
    this.handlers = {};
    $("#labo-try").addEventListener("click", () => this.handlers.try?.());
    $("#labo-stop").addEventListener("click", () => this.handlers.stop?.());
  }

  // handlers: try(), stop().
  bind(handlers) {
    this.handlers = handlers;
  }

  // The trial under way (or not): « Essayer » off and « Arrêter » on while it runs.
  running(on) {
    $("#labo-try").disabled = on;
    $("#labo-stop").hidden = !on;
  }

  clear() {
    $("#labo-replay").replaceChildren();
    $("#labo-result").replaceChildren();
    this.state("");
  }

  state(text, progress = null) {
    $("#labo-state").textContent = text;
    const bar = $("#labo-progress");
    bar.hidden = progress === null;
    if (progress) {
      bar.max = progress.total;
      bar.value = progress.done;
    }
  }

  // The replay's verdict (Labo.replay): the first command refused, and those that change.
  replay(verdict, board) {
    const name = (id) => isolate(own(board?.combatants ?? {}, id)?.name ?? id);
    const items = verdict.changed.slice(0, SHOWN).map((c) => {
      const n = c.index + 1;
      if (c.after.action && c.before.action) {
        const [a, b] = [c.before.action, c.after.action];
        return h("li", {}, t("laboAction", n, name(b.actor), actionName(b.action), `${a.cost} → ${b.cost}`, `${a.pi_after} → ${b.pi_after}`));
      }
      const before = c.before.initiatives ?? {};
      const after = c.after.initiatives ?? {};
      const list = Object.keys(after).filter((id) => before[id] !== after[id]).map((id) => `${name(id)} ${before[id]} → ${after[id]}`);
      return h("li", {}, t("laboRound", n, list.join(", ")));
    });
    const more = verdict.changed.length - items.length;
    const parts = [h("h4", {}, t("laboReplayTitle"))];
    if (verdict.refused) {
      const r = verdict.refused;
      parts.push(h("p", { class: "error" }, t("laboRefused", r.index + 1, reason(r.key, r.params))));
    }
    if (verdict.changed.length) parts.push(h("p", {}, t("laboChangedCount", verdict.changed.length)), h("ul", { class: "labo-changes" }, items));
    if (more > 0) parts.push(h("p", { class: "hint" }, t("laboMoreChanged", more)));
    if (!verdict.refused && !verdict.changed.length) parts.push(h("p", {}, t("laboSame")));
    $("#labo-replay").replaceChildren(...parts);
  }

  // The random rounds, side by side (Labo.rounds): the engine's sentences, then its numbers.
  result(result, board) {
    const { a, b } = result;
    const number = (x) => x.toLocaleString(language(), { maximumFractionDigits: 2 });
    const percent = (x) => x.toLocaleString(language(), { style: "percent" });
    const row = (label, x, y) => h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, x), h("td", {}, y));
    const rows = [
      row(t("laboActions"), number(a.actions), number(b.actions)),
      row(t("laboInterruptions"), number(a.interruptions), number(b.interruptions)),
      row(t("laboPossible"), percent(a.interruption_possible), percent(b.interruption_possible)),
      row(t("laboEspoir"), number(a.espoir), number(b.espoir)),
      ...Object.keys(a.by_fighter).map((id) => row(t("laboFirst", isolate(own(board?.combatants ?? {}, id)?.name ?? id)),
        percent(a.by_fighter[id].first), percent(own(b.by_fighter, id)?.first ?? 0))),
    ];
    const lines = result.lines[language()] ?? result.lines.fr;
    $("#labo-result").replaceChildren(
      h("h4", {}, t("laboRoundsTitle")),
      h("ul", { class: "labo-lines" }, lines.map((line) => h("li", {}, line))),
      h("table", { class: "rules-table labo-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("laboMetric")), h("th", { scope: "col" }, t("laboTable")), h("th", { scope: "col" }, t("laboTried")))),
        h("tbody", {}, rows)));
  }
}
