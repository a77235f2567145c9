// The start of a round: the declarations drawn as the screen opens, the round started
// with them (the engine rolls the dice left empty), then back to the board.
import { commands } from "../infra/commands.js";
import { refusal, t } from "../infra/i18n.js";

export class RoundController {
  constructor(parts, view) {
    const { session, nav, status } = parts;
    const { send } = commands(parts);
    nav.on("round", () => view.render(session.board));
    view.bindStart(async (declared) => {
      view.dieError(null, "");
      const answer = await send({ type: "start_round", ...declared });
      if (answer.ok) return nav.go("board");
      // A die refused is said under it; anything else on the message line.
      const field = String(answer.error?.params?.field ?? "");
      if (field.startsWith("rolls.") && !answer.discarded) return view.dieError(field.slice("rolls.".length), refusal(answer.error));
      return status.message(answer.discarded ? t("queueStopped", refusal(answer.error), answer.discarded) : refusal(answer.error));
    });
  }
}
