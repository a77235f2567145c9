// The cast: fighters added, edited (the engine checks the sheet as it is typed),
// duplicated, put out of the fight or back, removed after asking; models kept by the
// browser and added in numbered copies.
import { MAX_COPIES, numberedNames, sheetOf } from "../cast.js";
import { isolate, own } from "../dom.js";
import { refusal, t } from "../i18n.js";
import * as store from "../store.js";
import { commands } from "./commands.js";

export class CastController {
  constructor(parts, view) {
    const { session, status, nav, ask } = parts;
    const { send, tell } = commands(parts);
    const fighter = (id) => own(session.board.combatants, id);
    const taken = () => new Set(Object.values(session.board.combatants).map((f) => f.name));
    const command = (sheet, id) => (id ? { type: "update_combatant", id, changes: sheet } : { type: "add_combatant", combatant: sheet });
    const showModels = () => view.renderModels(store.models());
    view.bind({
      edit: (id) => view.openFighter(fighter(id)),
      check: async (sheet, id) => {
        const answer = await session.call({ op: "check", command: command(sheet, id) });
        view.fighterError(answer.ok ? "" : refusal(answer.error));
      },
      save: async (sheet, id) => {
        const answer = await send(command(sheet, id));
        if (answer.ok) view.closeFighter();
        else view.fighterError(refusal(answer.error));
      },
      duplicate: (id) => {
        const f = fighter(id);
        const [name] = numberedNames(f.name, 1, taken()).filter((n) => n !== f.name);
        return tell({ type: "add_combatant", combatant: { ...sheetOf(f), name } });
      },
      model: (id) => {
        const sheet = sheetOf(fighter(id));
        const stored = store.saveModels([...store.models().filter((m) => m.name !== sheet.name), sheet]);
        showModels();
        status.report(stored, t("modelSaved", isolate(sheet.name)));
      },
      addCopies: async (index, count) => {
        const model = store.models()[index];
        if (!model) return;
        if (!Number.isInteger(count) || count < 1 || count > MAX_COPIES) {
          status.message(t("badCopies"));
          return;
        }
        let stored = null;
        for (const name of numberedNames(model.name, count, taken())) {
          const answer = await tell({ type: "add_combatant", combatant: { ...model, name } });
          if (!answer.ok) return;
          stored = answer.stored;
        }
        status.report(stored, t("copiesAdded", count, isolate(model.name)));
      },
      deleteModel: (index) => {
        status.report(store.saveModels(store.models().filter((_, i) => i !== index)));
        showModels();
      },
      down: (id) => tell({ type: "update_combatant", id, changes: { hors_combat: true } }),
      revive: (id) => tell({ type: "update_combatant", id, changes: { hors_combat: false } }),
      remove: async (id) => {
        if (await ask.ask(t("removeConfirm", isolate(fighter(id).name)), [], t("remove"), t("cancel"))) await tell({ type: "remove_combatant", id });
      },
    });
    nav.on("cast", () => view.render(session.board));
    session.on("change", (board) => {
      if (nav.at("cast")) view.render(board);
    });
    session.on("words", showModels);
    showModels();
  }
}
