// « Règles de la table » (Partie → Règles de la table): the group's rules, drawn from the
// board's `regles` (those of the next round, with those in force) and the engine's fields
// (Table.limits `regles`), sent as one set_rules: from the next round, or at once. The
// engine checks every field; its refusals are said next to each. The journal words the change.
// « Essayer sur ce combat »: the form's rules tried by the engine's lab (Table.labo) on the
// open fight, which it leaves as it is: its random rounds come a part per call, so that
// their progress shows and « Arrêter » (here, or in the status bar) stops them at once.
// The group's rule sets, kept in this browser, go out as a file (« Exporter ») or one as a
// link (#regles=…), and come back in: the engine reads them (Table.rule_sets) and names
// each field it refuses; nothing is kept unless every set reads, and a link asks first.
import { fromBase64Url, toBase64Url } from "../infra/base64url.js";
import { isolate } from "../infra/dom.js";
import { download, readFile } from "../infra/files.js";
import { t } from "../infra/i18n.js";
import { changeRuleSets, ruleSets } from "../infra/rule-sets.js";
import { said } from "../infra/refusals.js";
import { commands } from "../infra/send.js";

// The fragment's key of a rule set's link.
const LINK = "regles";

export class RulesController {
  constructor(parts, view, labo) {
    this.parts = parts;
    this.view = view;
    const { session, status, nav, dispatch } = parts;
    const { send } = commands(parts);
    const draw = async (board) => {
      const fields = (await session.limits())?.regles;
      if (!fields || !board?.regles) return; // no engine (its fault is said), or a board before the rules
      const { a_venir: next, ...now } = board.regles;
      view.render(fields, next ?? now, now, Boolean(next));
    };
    // The screen opens with the table's rules; while it is on, a change from elsewhere (an
    // undo, another tab) draws them again unless the form holds edits not yet applied.
    nav.on("rules", () => {
      view.dirty = false;
    });
    dispatch.draws("rules", (board) => (view.dirty ? null : draw(board)), { arrival: "always" });
    view.bind({
      apply: async (regles, when) => {
        view.showErrors([]);
        const answer = await send({ type: "set_rules", regles, from_next_round: when !== "now" });
        if (answer.ok) {
          view.dirty = false;
          await draw(session.board);
          status.message(t(answer.events?.length ? "rulesApplied" : "rulesUnchanged"));
          return;
        }
        const text = said(answer);
        if (!text) return; // said elsewhere: a fault, a tap dropped
        const fields = answer.error?.fields ?? answer.fields ?? [];
        view.showErrors(fields, fields.length ? "" : text)?.focus();
      },
      book: () => {
        view.fillBook();
        status.message(t("rulesBookFilled"));
      },
      back: () => nav.go("menu"),
      // A rule set kept: its name (not blank, within the engine's longest name) and the
      // form's rules, checked by the engine first (the same refusals as « Appliquer »).
      keep: async (typed) => {
        const name = typed.trim();
        const max = (await session.limits())?.name;
        view.nameError(!name ? t("ruleSetNameBlank") : max && [...name].length > max ? t("ruleSetNameLong", max) : "");
        if (!name || (max && [...name].length > max)) return;
        const regles = view.read();
        const checked = await session.call({ op: "check", command: { type: "set_rules", regles } });
        if (!checked.ok) {
          view.showErrors(checked.fields ?? [], checked.fields?.length ? "" : said(checked))?.focus();
          return;
        }
        view.showErrors([]);
        const { stored, list } = await changeRuleSets((sets) => [...sets.filter((s) => s.name !== name), { name, regles }]);
        this.sets = list;
        view.renderSets(list);
        status.message(stored === "ok" ? t("ruleSetKept", isolate(name)) : t("ruleSetNotKept"));
      },
      useSet: (index) => {
        const set = this.sets?.[index];
        if (!set) return;
        view.fill(set.regles);
        status.message(t("ruleSetUsed", isolate(set.name)));
      },
      deleteSet: async (index) => {
        const set = this.sets?.[index];
        if (!set) return;
        const { stored, list } = await changeRuleSets((sets) => sets.filter((s) => s.name !== set.name));
        this.sets = list;
        view.renderSets(list);
        if (stored !== "ok") status.message(t("ruleSetNotKept"));
      },
      exportSets: async () => download(t("ruleSetsFile"), `${JSON.stringify({ app: "riposte", regles: await ruleSets() }, null, 1)}\n`),
      importSets: (file) => this.importSets(parts, view, file),
      linkSet: (index) => {
        const set = this.sets?.[index];
        if (!set) return;
        const bytes = new TextEncoder().encode(JSON.stringify({ app: "riposte", name: set.name, regles: set.regles }));
        const url = new URL(window.location.href);
        url.hash = `${LINK}=${toBase64Url(bytes)}`;
        view.showLink(set.name, url.href);
        status.message(t("ruleSetLinkMade", isolate(set.name)));
      },
    });
    this.sets = [];
    nav.on("rules", async () => {
      this.sets = await ruleSets();
      view.renderSets(this.sets);
    });
    this.trying = false; // the lab's rounds under way: the status bar's « Arrêter » stops them too
    this.stopped = false;
    labo.bind({
      try: () => this.tryRules(parts, view, labo),
      stop: () => this.stopTrying(),
    });
  }

  // The sets of a file, read by the engine: all kept (a set of the same name replaced), or
  // none, every field refused said under the list.
  async importSets({ session, status }, view, file) {
    view.setsError("");
    const limit = (await session.limits())?.rule_sets;
    if (!limit) return; // no engine: its fault is said already
    const read = await readFile(file, limit);
    if (read.error) {
      view.setsError(t(read.error === "too_big" ? "ruleSetsFileTooBig" : "ruleSetsFileUnread"));
      return;
    }
    const answer = await session.call({ op: "rule_sets", text: read.text });
    if (!answer.ok) {
      view.setsError(answer.fields?.length ? t("ruleSetsNotImported") : said(answer) ?? "", answer.fields ?? []);
      return;
    }
    const { stored, list } = await this.keepSets(answer.sets);
    view.renderSets(list);
    status.message(stored === "ok" ? t("ruleSetsImported", answer.sets.length) : t("ruleSetNotKept"));
  }

  async keepSets(sets) {
    const names = new Set(sets.map((s) => s.name));
    const done = await changeRuleSets((kept) => [...kept.filter((s) => !names.has(s.name)), ...sets]);
    this.sets = done.list;
    return done;
  }

  // A rule set's link in the address (#regles=…): read by the engine, then offered to keep;
  // « Annuler » keeps nothing. The address is cleared either way (taken once).
  async openLink(address) {
    const params = new URLSearchParams(address.hash().replace(/^#/, ""));
    if (!params.has(LINK)) return;
    address.clear();
    const { session, status, ask } = this.parts;
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(fromBase64Url(params.get(LINK)));
    } catch {
      text = null;
    }
    const answer = text === null ? null : await session.call({ op: "rule_sets", text });
    if (!answer?.ok || answer.sets.length !== 1) {
      status.message(t("ruleSetLinkRefused"));
      return;
    }
    const [set] = answer.sets;
    if (!(await ask.ask(t("ruleSetLinkTitle"), [t("ruleSetLinkLine", isolate(set.name))], t("ruleSetLinkKeep"), t("cancel")))) return;
    const { stored, list } = await this.keepSets([set]);
    this.view.renderSets(list);
    status.message(stored === "ok" ? t("ruleSetLinkKept", isolate(set.name)) : t("ruleSetNotKept"));
  }

  // Stop the lab's rounds (none asked after this); true when there were some.
  stopTrying() {
    if (!this.trying) return false;
    this.stopped = true;
    return true;
  }

  async tryRules({ session, status }, view, labo) {
    if (this.trying) return;
    view.showErrors([]);
    labo.clear();
    this.trying = true;
    this.stopped = false;
    labo.running(true);
    try {
      let answer = await session.call({ op: "labo", regles: view.read() });
      if (!answer.ok) {
        const fields = answer.fields ?? answer.error?.fields ?? [];
        const first = view.showErrors(fields, fields.length ? "" : said(answer));
        first?.focus();
        return;
      }
      labo.replay(answer.replay, session.board);
      while (answer.ok && !answer.result && !this.stopped) {
        labo.state(t("laboWorking", answer.progress.done, answer.progress.total), answer.progress);
        answer = await session.call({ op: "labo", more: true });
      }
      if (this.stopped) {
        await session.call({ op: "labo" }); // its rounds dropped by the engine
        labo.state(t("laboStopped"));
      } else if (answer.ok) {
        labo.state(t("laboDone", answer.result.a.rounds));
        labo.result(answer.result, session.board);
      } else status.refused(answer);
    } finally {
      this.trying = false;
      labo.running(false);
    }
  }
}
