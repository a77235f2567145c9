// Keyboard shortcuts (shortcut-keys.js): the board's own handlers, one after the other.
import { bindKeys } from "../infra/shortcut-keys.js";
import { openHelp } from "../views/help-dialog.js";

export class Shortcuts {
  constructor({ session, nav }, board) {
    // Keys come faster than the engine answers: each shortcut waits for the one before, and
    // reads the board only when its turn comes (two quick "P" pass two fighters, not one twice).
    this.pending = Promise.resolve();
    const serial = (handler) => (...args) => {
      this.pending = this.pending.then(() => handler(...args)).catch(() => undefined);
      return this.pending;
    };
    const current = () => session.board.active[0];
    const keys = {
      undo: () => session.undo > 0 && board.history("undo"),
      redo: () => session.redo > 0 && board.history("redo"),
      act: () => current() && board.actions(current(), false),
      interrupt: () => current() && board.actions(current(), true),
      pass: () => current() && board.pass(current()),
      answer: () => {
        if (!nav.at("board")) nav.go("board");
        board.view.focusTurn();
      },
      endRound: () => !session.board.round_over && board.endRound(),
      nextRound: () => session.board.round_over && nav.go("round"),
      help: openHelp,
      screen: (name) => nav.go(name),
    };
    bindKeys(Object.fromEntries(Object.entries(keys).map(([name, handler]) => [name, serial(handler)])));
  }
}
