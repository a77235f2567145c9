// The cast: fighters added, edited (the engine checks the sheet as it is typed),
// duplicated, put out of the fight or back, removed after asking; models kept by the
// browser and added in numbered copies.
import { sheetOf } from "../views/cast-view.js";
import { isolate, own } from "../infra/dom.js";
import { t } from "../infra/i18n.js";
import { said, unwritten } from "../infra/refusals.js";
import * as store from "../infra/store.js";
import { commands, halves } from "../infra/send.js";

export class CastController {
  constructor(parts, view) {
    const { session, status, ask, dispatch } = parts;
    const { send, tell } = commands(parts);
    const fighter = (id) => own(session.board.combatants, id);
    const command = (sheet, id) => (id ? { type: "update_combatant", id, changes: sheet } : { type: "add_combatant", combatant: sheet });
    const showModels = () => view.renderModels(store.models());
    // A refusal said next to what was tapped: the cast's button ("new"), a fighter's row
    // ("cast", its id), a model's ("model", its index); nothing when said elsewhere.
    const refusedAt = (kind, key, answer) => {
      const text = said(answer);
      if (text) view.note(kind, key, text);
    };
    const showErrors = (answer) => {
      // A field the engine refused already for half a character (a name) is said once.
      const fields = (answer.fields ?? []).filter((f, i, all) => all.findIndex((g) => g.field === f.field && g.key === f.key) === i);
      view.showErrors(fields, fields.length ? "" : said(answer));
    };
    // The engine's limits of a sheet and of a model's copies, for the form's and the models' fields.
    const limits = async () => {
      if (!view.limits) view.limit(await session.limits());
    };
    // A fighter added where the user tapped (the cast's button, the empty board's): a
    // refusal (64 fighters at most, a fight too long to save) is shown next to the cast's.
    this.newFighter = async () => {
      const answer = await session.call({ op: "check", command: { type: "add_combatant", combatant: { name: "?" } } });
      if (answer.error?.code === "too_many_fighters" || answer.error?.code === "too_long" || answer.error?.code === "too_big") {
        refusedAt("new", null, answer);
      } else {
        view.openFighter(null);
        limits();
      }
    };
    view.bind({
      edit: (id) => {
        view.openFighter(fighter(id));
        limits();
      },
      // Every field the engine refuses, at once, next to its field (Table.check "fields").
      check: async (sheet, id) => {
        const answer = await session.call({ op: "check", command: command(sheet, id) });
        const half = halves(sheet); // half a character: refused here, as typed
        showErrors(half.length ? { ...answer, ok: false, fields: [...(answer.fields ?? []), ...half] } : answer);
      },
      save: async (sheet, id) => {
        const answer = await send(command(sheet, id));
        if (answer.ok) {
          view.closeFighter();
          return;
        }
        if (!said(answer)) return; // said elsewhere: a fault, a tap dropped
        const checked = await session.call({ op: "check", command: command(sheet, id) });
        showErrors({ ...checked, fields: [...(checked.fields ?? []), ...halves(sheet)], error: answer.error, ok: false });
        view.focusError();
      },
      newFighter: () => this.newFighter(),
      // Numbered from the original by the engine: "Orque" becomes "Orque 1", the copy "Orque 2".
      duplicate: async (id) => {
        const answer = await send({ type: "duplicate_combatant", id });
        if (!answer.ok) refusedAt("cast", id, answer);
        return answer;
      },
      // Said as it happened: a model the browser refused to keep is not "enregistré".
      model: async (id) => {
        // Named as the engine names a model (« Garde 1 », a copy, makes the model « Garde »).
        const sheet = { ...sheetOf(fighter(id)), name: fighter(id).model_name ?? fighter(id).name };
        const stored = await store.changeModels((list) => [...list.filter((m) => m.name !== sheet.name), sheet]);
        const failed = unwritten(stored, "model_not_saved", { name: sheet.name });
        showModels();
        if (failed) status.refused(failed);
        else status.message(t("modelSaved", isolate(sheet.name)));
      },
      // One command, one undo: the engine judges the count as typed (an integer, 1 or more,
      // within the fighters a fight holds: its refusal says how many may still come) and
      // numbers the copies with the fighters of the same name ("Orque" on the board becomes
      // "Orque 1"): never "Orque" beside "Orque 1".
      addCopies: async (index, count) => {
        const model = store.models()[index];
        if (!model) return;
        const answer = await send({ type: "add_copies", combatant: model, count });
        if (answer.ok) status.report(answer.stored, t("copiesAdded", count, isolate(model.name)));
        else refusedAt("model", index, answer);
      },
      deleteModel: async (index) => {
        const stored = await store.changeModels((list) => list.filter((_, i) => i !== index));
        showModels();
        status.refused(unwritten(stored, "model_not_deleted"));
      },
      down: (id) => tell({ type: "update_combatant", id, changes: { hors_combat: true } }),
      revive: (id) => tell({ type: "update_combatant", id, changes: { hors_combat: false } }),
      remove: async (id) => {
        if (await ask.ask(t("removeConfirm", isolate(fighter(id).name)), [], t("remove"), t("cancel"))) await tell({ type: "remove_combatant", id });
      },
    });
    limits(); // on the models' counts of copies too
    dispatch.draws("cast", (board) => view.render(board), { arrival: "always" });
    session.on("words", showModels);
    showModels();
    this.showModels = showModels;
  }

  // The models kept with the fights, read and shown, then followed in other tabs: the game
  // master's page only (a player's page leaves the fights' storage alone).
  readModels() {
    store.readModels().then(this.showModels);
    store.onModelsChange(this.showModels);
  }
}
