// The board: acting and interrupting through the action sheet, passing, ending the
// round, undo and redo; the players' view draws the same board.
import { turnText } from "../board.js";
import { refusal } from "../i18n.js";
import { commands } from "./commands.js";

export class BoardController {
  constructor(parts, view, sheet) {
    const { session, nav } = parts;
    const { send, tell } = commands(parts);
    this.parts = parts;
    this.view = view;
    this.sheet = sheet;
    this.tell = tell;
    // A tap on a card while the last one is still with the engine is dropped: the board it
    // was aimed at is about to change (two taps on « Passer » pass one fighter, not two).
    // Before the engine is up, taps are queued instead, in order, each shown as pending
    // (its card's buttons off): the queue keeps them apart (issue #14).
    let busy = false;
    const one = (run) => async (...args) => {
      if (session.waiting()) return run(...args);
      if (busy) return;
      busy = true;
      try {
        await run(...args);
      } finally {
        busy = false;
      }
    };
    view.bind({
      act: (id) => this.actions(id, false),
      interrupt: (id) => this.actions(id, true),
      pass: one((id) => this.pass(id)),
      endRound: one(() => this.endRound()),
      nextRound: () => nav.go("round"),
      undo: () => this.history("undo"),
      redo: () => this.history("redo"),
      closePlayers: () => nav.go("board"),
    });
    sheet.bindSubmit(async ({ actor, action, interruption, options }) => {
      const answer = await send({ type: interruption ? "interrupt" : "act", actor, action, ...options });
      if (!answer.ok) return sheet.error(refusal(answer.error));
      sheet.close();
      return view.focusTurn();
    });
    session.on("change", (board) => {
      view.render(board);
      view.setHistory(session.undo > 0, session.redo > 0);
      if (nav.at("players")) view.renderPlayers(board);
    });
    nav.on("players", () => view.renderPlayers(session.board));
  }

  // The board saved with the fight, drawn before the engine is ready (a first paint).
  paint(board) {
    this.view.render(board);
  }

  // The action sheet needs every action's verdict, which only the engine gives: a tap on
  // « Agir » before it is up waits its turn in the queue, then the sheet opens.
  actions(id, interruption) {
    const { session } = this.parts;
    if (!session.waiting()) return this.sheet.open(session.board, id, interruption);
    return this.early(id, () => session.call({ op: "show" })).then(() => this.sheet.open(session.board, id, interruption));
  }

  pass(id) {
    return this.early(id, () => this.tell({ type: "pass", actor: id }));
  }

  endRound() {
    return this.early("end-round", () => this.tell({ type: "end_round" }));
  }

  // A tap before the engine is up: what it touched is shown as pending (`key`: a
  // fighter's id, or "end-round") until the engine has answered it or dropped it.
  async early(key, run) {
    if (!this.parts.session.waiting()) return run();
    this.view.setPending(key, true);
    try {
      return await run();
    } finally {
      this.view.setPending(key, false);
    }
  }

  async history(op) {
    const { session, status } = this.parts;
    const answer = await session.call({ op });
    if (!answer.ok) {
      status.message(refusal(answer.error));
      return;
    }
    status.report(session.take(answer));
    status.announce(turnText(session.board));
  }
}
