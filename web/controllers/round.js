// The start of a round: the declarations drawn as the screen opens, the round started
// with them (the engine rolls the dice left empty), then back to the board.
import { commands } from "../infra/commands.js";

export class RoundController {
  constructor(parts, view) {
    const { session, nav } = parts;
    const { tell } = commands(parts);
    nav.on("round", () => view.render(session.board));
    view.bindStart(async (declared) => {
      const answer = await tell({ type: "start_round", ...declared });
      if (answer.ok) nav.go("board");
    });
  }
}
