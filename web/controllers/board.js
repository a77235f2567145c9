// The board: acting from the card (its likely actions, the fighters as targets) or through
// the action sheet, the attacked fighter's answers, passing, wounds and Espoir, ending the
// round, undo and redo; the players' view draws the same board.
import { commandLabel, costLabel, testsLabel } from "../views/labels.js";
import { spoken } from "../views/spoken.js";
import { isolate, own } from "../infra/dom.js";
import { t } from "../infra/i18n.js";
import { said } from "../infra/refusals.js";
import { commands } from "../infra/send.js";

export class BoardController {
  constructor(parts, view, sheet) {
    const { session, nav, dispatch } = parts;
    const { send } = commands(parts);
    this.parts = parts;
    this.view = view;
    this.sheet = sheet;
    this.send = send;
    session.limits().then((limits) => view.limit(limits));
    // A tap on a card while the last one is still with the engine is dropped: the board it
    // was aimed at is about to change (two taps on « Passer » pass one fighter, not two).
    // Before the engine is up, taps are queued instead, in order, each shown as pending
    // (its card's buttons off): the queue keeps them apart.
    let busy = false;
    const one = (run) => async (...args) => {
      if (session.waiting()) return run(...args);
      if (busy) return undefined;
      busy = true;
      try {
        return await run(...args);
      } finally {
        busy = false;
      }
    };
    view.bind({
      act: (id) => this.actions(id, false),
      interrupt: (id) => this.actions(id, true),
      pass: one((id) => this.pass(id)),
      pick: one((id, { action }) => this.pick(id, action)),
      target: one(async (id, { action, target }) => {
        view.unpick(); // the answer's drawing leaves the targets out
        let answer = null;
        try {
          answer = await this.run({ type: "act", actor: id, action, ...(target ? { target } : {}) });
        } finally {
          if (!answer?.ok) view.pick(null); // no new board (refused, or dropped): drawn without the targets
        }
        return answer;
      }),
      react: one((id, { action, against }) => {
        const spec = own(session.board.catalogue, action);
        if (spec?.required.length) return this.sheet.openAction(session.board, id, true, action, { against });
        return this.run({ type: "interrupt", actor: id, action, against });
      }),
      ignore: () => {
        view.setReaction(null);
        view.focusTurn();
      },
      // Wounds and Espoir from the row: one command, a step the engine turns into the total
      // (never below 0: engine/commands.py), undone as one, told in the journal.
      step: one((id, { field, by }) => this.run({ type: "update_combatant", id, changes: { [field]: { by: Number(by) } } })),
      notes: one((id, { value }) => this.run({ type: "update_combatant", id, changes: { notes: value } })),
      condition: one((id, { text, until }) => {
        if (!text?.trim()) return undefined;
        return this.run({ type: "add_condition", id, condition: text, ...(until === null ? {} : { until }) });
      }),
      uncondition: one((id, { text }) => this.run({ type: "remove_condition", id, condition: text })),
      out: one((id, { value }) => this.run({ type: "update_combatant", id, changes: { hors_combat: value === "1" } })),
      hide: one((id, { value }) => this.run({ type: "update_combatant", id, changes: { hidden: value === "1" } })),
      endRound: one(() => this.endRound()),
      nextRound: () => nav.go("round"),
      undo: () => this.history("undo"),
      redo: () => this.history("redo"),
      closePlayers: () => nav.go("board"),
    });
    sheet.bindSubmit(async ({ actor, action, interruption, options }) => {
      const answer = await send({ type: interruption ? "interrupt" : "act", actor, action, ...options });
      if (!answer.ok) return this.refused(answer, "sheet");
      sheet.close();
      return view.focusTurn();
    });
    // One answer, one drawing (web/infra/dispatch.js): the header's round and undo and redo
    // labels; the board with the dock's line and, after an attack, the target's answers
    // (R5.3, D23), from the answer that brought the board.
    dispatch.draws(null, (board) => view.header(session, board));
    dispatch.draws("board", (board, answer) => {
      const keep = view.keepFocus();
      view.update(board, dock(board, answer, session.last));
      keep();
    });
    // The board shown while the focus is on a screen now hidden (a round just started, a
    // shortcut « 1 »): the focus comes to whoever acts, not back to the page's top.
    nav.on("board", () => {
      view.reveal();
      const focus = document.activeElement;
      if (focus?.closest("main > section[hidden]")) view.focusTurn();
    });
  }

  // The players' board (engine/players.py), drawn on the players' view while it is on screen.
  players(shown) {
    if (this.parts.nav.at("players")) this.view.renderPlayers(shown);
  }

  // The board saved with the fight, drawn before the engine is ready (a first paint).
  paint(board) {
    this.view.render(board);
  }

  // The action sheet needs every action's verdict, which only the engine gives: a tap on
  // « Agir » before it is up waits its turn in the queue, then the sheet opens.
  // An interruption's sheet names its attacker first: whoever attacked this fighter last
  // this round (engine/table.py `attackers`), from the card, the dock or a player's request.
  actions(id, interruption) {
    const { session } = this.parts;
    const open = () => {
      const attacker = interruption ? own(session.attackers, id) : undefined;
      return this.sheet.open(session.board, id, interruption, attacker ? { against: attacker } : {});
    };
    if (!session.waiting()) return open();
    return this.early(id, () => session.call({ op: "show" })).then(open);
  }

  // A likely action tapped on the card: done at once, or its targets shown, or (with
  // options the card cannot ask for: a charge's distance) the sheet at that action.
  pick(id, action) {
    const { session } = this.parts;
    const spec = own(session.board.catalogue ?? {}, action);
    if (!spec) return undefined;
    if (spec.required.length) return this.sheet.openAction(session.board, id, false, action, {});
    if (spec.options.includes("target")) return this.view.pick({ id, action });
    return this.run({ type: "act", actor: id, action });
  }

  pass(id) {
    return this.early(id, () => this.run({ type: "pass", actor: id }));
  }

  endRound() {
    return this.early("end-round", () => this.run({ type: "end_round" }));
  }

  // A command from the board: accepted, the board's drawing says what it did (the
  // session's "change"); refused, `refused` says why.
  async run(command) {
    const answer = await this.send(command);
    if (!answer.ok) this.refused(answer);
    return answer;
  }

  // Why the board's command, undo or redo was refused (web/infra/refusals.js), said on
  // the board's dock (`where` "dock"), the action sheet's own line ("sheet": its submit),
  // or where the user is ("here": the dock, or the message line on another screen).
  // Nothing when it is said elsewhere (a fault, a tap dropped).
  refused(answer, where = "dock") {
    const text = said(answer);
    if (!text) return;
    if (where === "sheet") this.sheet.error(text);
    else if (where === "dock" || this.parts.nav.at("board")) this.view.error(text);
    else this.parts.status.message(text);
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
    const answer = await session.ask({ op });
    if (!answer.ok) {
      this.refused(answer, "here");
      return;
    }
    status.report(session.take(answer));
    status.announce(spoken(session.board, answer));
  }
}

// What the dock says of the answer that brought `board`: the command it applied (its line,
// and after an attack the target's answers), the one undo took back or redo did again;
// else the last command (`last`: a fight loaded, a reload, another tab's change), and when
// it is an attack its target's answers, still waiting; a board drawn again with no answer
// (a switch of language) keeps the answers as they were.
function dock(board, answer, last) {
  if (answer?.undone) return { last: t("undone", commandLabel(board, answer.undone)), reaction: null };
  if (answer?.redone) return { last: t("redone", commandLabel(board, answer.redone, false, answer.gone)), reaction: null };
  const command = answer?.command;
  if (!command) {
    const waiting = answer ? attackOf(board, last) : null;
    return { last: last ? t("lastDone", commandLabel(board, last, false, answer?.gone)) : "", reaction: waiting, keep: !waiting };
  }
  return { last: lastLine(board, command, answer.events ?? [], answer.gone), reaction: attackOf(board, command) };
}

// The answers an attack calls for (the catalogue's `attack`: R5, D23), or null.
function attackOf(board, command) {
  const attack = command?.type === "act" && command.target && own(board.catalogue ?? {}, command.action)?.attack;
  return attack ? { attacker: command.actor, target: command.target, action: command.action } : null;
}

// The dock's line for an accepted command: what was done and what it cost, the tests to
// roll (the engine's, D14), the aim reached (« visée déjà au maximum », D17) or lost (R4.1,
// D13); a round the
// game master ended while fighters could still act (the engine's `holding`, R2.4), who
// they were, with undo to take it back; then the conditions whose end came (D25).
export function lastLine(board, command, events, gone = {}) {
  const taken = events.find((e) => e.type === "action_taken");
  let line = t("lastDone", commandLabel(board, command, false, gone));
  if (taken) {
    const extras = [];
    const weapons = own(board.combatants, taken.actor)?.weapons ?? [];
    if (taken.tests.length) extras.push(t("lastTests", testsLabel(taken.tests, weapons), taken.tests.length));
    const aim = events.find((e) => e.type === "aim_adjusted");
    if (aim) extras.push(t("aimReached", aim.bonus, aim.capped));
    const lost = events.find((e) => e.type === "aim_lost");
    if (lost) extras.push(t("aimLost", lost.bonus));
    line = t("lastAction", commandLabel(board, command), costLabel(taken, true), extras);
  }
  const holding = events.find((e) => e.type === "round_ended")?.holding ?? [];
  const held = holding.map((id) => own(board.combatants, id)).filter(Boolean);
  if (held.length) line += ` ${t("endedHolding", held.map((f) => t("holdingOf", isolate(f.name), f.pi)).join(", "))}`;
  // A copy renames its original (« Garde » becomes « Garde 1 »): said.
  if (command.type === "duplicate_combatant") {
    const renamed = events.find((e) => e.type === "combatant_updated" && e.id === command.id && typeof e.changes?.name === "string");
    if (renamed) line += ` ${t("originalRenamed", isolate(renamed.changes.name))}`;
  }
  const ended = events.filter((e) => e.type === "condition_ended");
  if (ended.length) {
    const name = (id) => isolate(own(board.combatants, id)?.name ?? id);
    line += ` ${t("conditionsEnded", ended.map((e) => t("conditionEndedOf", name(e.id), isolate(e.text))).join(", "))}`;
  }
  return line;
}

