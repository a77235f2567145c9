// The start of a round: the declarations drawn as the screen opens and again when the
// board changes under it (an undo just sent, another tab, the live table), the round
// started with them (the engine rolls the dice left empty), then back to the board (from
// the form: a screen picked meanwhile stays on).
import { commands } from "../infra/send.js";
import { reason } from "../infra/i18n.js";

export class RoundController {
  constructor(parts, view) {
    const { nav, status, dispatch } = parts;
    const { send } = commands(parts);
    let starting = false; // this form's own start, answered by the board screen
    dispatch.draws("round", (board) => {
      if (!starting) view.render(board);
    }, { arrival: "always" });
    view.bindStart(async (declared) => {
      // A die typed that is not a number is said under it: nothing is rolled nor sent (the
      // engine would roll an empty die itself, R1.1).
      const typos = view.notNumbers();
      view.dieErrors(new Map(typos.map((id) => [id, reason("not_a_number", { field: `rolls.${id}` })])));
      if (typos.length) return undefined;
      starting = true;
      const answer = await send({ type: "start_round", ...declared }).finally(() => {
        starting = false;
      });
      // Started: the board, unless another screen was picked while the engine answered.
      if (answer.ok) return nav.at("round") ? nav.go("board") : undefined;
      return refused(answer);
    });

    // Why the start was refused (web/infra/refusals.js): every die refused under it (the
    // engine's `fields`: R1.2, each fighter's); anything else on the message line.
    function refused(answer) {
      const error = answer.error ?? {};
      const fields = error.fields ?? (error.params?.field ? [{ field: error.params.field, key: error.key, params: error.params }] : []);
      const dice = new Map(fields.filter((f) => String(f.field).startsWith("rolls."))
        .map((f) => [String(f.field).slice("rolls.".length), reason(f.key, { ...f.params, field: f.field })]));
      if (dice.size && !answer.discarded) return view.dieErrors(dice);
      return status.refused(answer);
    }
  }
}
