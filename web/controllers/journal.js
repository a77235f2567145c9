// The journal: asked of the engine when the screen opens (or is shown beside the board)
// and after each change while it is on screen; copied as plain text.
import { t } from "../infra/i18n.js";
import { journalRounds, journalText } from "../views/journal-view.js";

export class JournalController {
  constructor({ session, status, dispatch }, view) {
    this.rounds = []; // what the screen shows, for the copy
    const refresh = async () => {
      const answer = await session.call({ op: "journal" });
      this.rounds = journalRounds(answer.entries);
      view.render(this.rounds);
    };
    dispatch.draws("journal", refresh, { arrival: "always" });
    view.bindCopy(async () => {
      const copied = await view.copy(journalText(this.rounds));
      status.message(copied ? t("journalCopied") : t("journalCopyFailed"));
    });
  }
}
