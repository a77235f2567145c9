// The journal: asked of the engine when the screen opens (or is shown beside the board)
// and after each change while it is on screen; copied as plain text. The fight's summary
// beside it (engine/summary.py), asked of the engine while it is open; copied, saved as a
// text file, or shared as that file where the browser shares files.
import { download } from "../infra/files.js";
import { t } from "../infra/i18n.js";
import { journalRounds, journalText, summaryText } from "../views/journal-view.js";

// The summary as a text file, for the browser's share sheet.
function summaryFile(text) {
  return new File([text], t("summaryFile"), { type: "text/plain" });
}

// Whether this browser shares a file (the Web Share API, level 2: most phones).
function canShareFile() {
  try {
    return typeof navigator.share === "function" && navigator.canShare?.({ files: [summaryFile("")] }) === true;
  } catch {
    return false;
  }
}

export class JournalController {
  constructor({ session, status, dispatch }, view, summaryView) {
    this.rounds = []; // what the screen shows, for the copy
    this.summary = null; // the summary shown, for the copy and the file
    const refresh = async () => {
      const answer = await session.call({ op: "journal" });
      this.rounds = journalRounds(answer.entries);
      view.render(this.rounds);
      if (summaryView.open) await summed();
    };
    const summed = async () => {
      const answer = await session.call({ op: "summary" });
      if (!answer.ok) return;
      this.summary = answer.summary;
      summaryView.render(this.summary);
    };
    dispatch.draws("journal", refresh, { arrival: "always" });
    view.bindCopy(async () => {
      const copied = await view.copy(journalText(this.rounds));
      status.message(copied ? t("journalCopied") : t("journalCopyFailed"));
    });
    summaryView.bind({
      open: (open) => (open ? summed() : null),
      copy: async () => {
        if (!this.summary) return;
        const copied = await view.copy(summaryText(this.summary));
        status.message(copied ? t("summaryCopied") : t("summaryCopyFailed"));
      },
      save: () => this.summary && download(t("summaryFile"), summaryText(this.summary), "text/plain"),
      share: async () => {
        if (!this.summary) return;
        const file = summaryFile(summaryText(this.summary));
        try {
          await navigator.share({ files: [file], title: t("summaryTitle") });
        } catch (error) {
          if (error?.name !== "AbortError") download(t("summaryFile"), summaryText(this.summary), "text/plain");
        }
      },
    });
    summaryView.showShare(canShareFile());
  }
}
