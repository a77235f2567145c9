// The turn clock and the cue of a PJ's turn, on the game master's device (both off by
// default, set per device in « Partie » → « Réglages »: web/infra/store.js). The engine
// says who holds the turn and since when (an answer's `turn`, engine/table.py) and when a
// PJ's turn came or a player's answer waits (an answer's `cue`); the page counts the
// seconds, says once when the limit runs out (the live region), and sounds or vibrates.
// Nothing of it is a command: the log, undo and the P.I. never see it.
import { cue } from "../infra/cue.js";
import { t } from "../infra/i18n.js";
import { unwritten } from "../infra/refusals.js";
import { nameOn, TurnClock } from "../views/clock-view.js";

export class ClockController {
  constructor({ session, status }, { store, view, hosting }) {
    this.session = session;
    this.store = store;
    this.hosting = hosting;
    this.limit = store.savedClock();
    this.cue = store.savedCue();
    this.turn = null; // the engine's last word on the turn: { id, since, limit }
    this.board = new TurnClock(document.getElementById("turn-clock"), (name, limit) => status.announce(t("clockOut", name, limit)));
    this.players = new TurnClock(document.getElementById("players-clock"));
    session.on("change", (board, answer) => {
      if (answer?.turn) this.turn = answer.turn;
      this.drawBoard(board);
    });
    session.on("cue", (kind) => cue(kind, this.cue));
    view.bindClock({
      clock: (limit) => {
        this.limit = limit;
        status.refused(unwritten(store.saveClock(limit), "setting_not_kept"));
        this.tell();
        this.drawBoard(session.board);
      },
      cue: (setting) => {
        this.cue = setting;
        status.refused(unwritten(store.saveCue(setting), "setting_not_kept"));
        cue("pj_turn", setting); // heard or felt once: the game master knows what it does
      },
    });
    view.showClock(this.limit, this.cue);
  }

  // The engine told the limit (the players' board carries it to the phones): once the live
  // table's host is made, and at each change of the setting.
  tell() {
    return this.hosting.then((host) => host.ask({ what: "clock", limit: this.limit }));
  }

  drawBoard(board) {
    const turn = this.turn;
    const on = this.limit !== null && turn?.id && typeof turn.since === "number" && board && !board.round_over;
    this.board.show(on ? { id: turn.id, started: turn.since, limit: this.limit } : null, nameOn(board, turn?.id));
  }

  // The players' view on this device: the players' board's clock (engine/live.py: the turn
  // they see, with how long it had run when the engine answered).
  drawPlayers(shown) {
    const clock = shown?.clock;
    this.players.show(clock ? { id: clock.id, started: Date.now() - clock.elapsed, limit: clock.limit } : null, nameOn(shown, clock?.id));
  }
}

