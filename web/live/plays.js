// The players play their own PJ (issue #24), on the game master's side: what a player's
// phone sends (an action on its PJ's turn, an answer to an attack on it, an interruption,
// a pass) becomes the same command the game master would have sent, for the PJ the player
// plays and no other, checked by the engine first; then, as the game master chose
// (« Les joueurs jouent leur PJ »): refused (« non »), waiting for the game master's
// « Appliquer », at most one line per player (« avec confirmation », the default), or
// applied at once (« aussitôt »; the
// game master can undo as usual). An interruption that answers no attack on the PJ always
// waits for the game master (D16: the game master rules when one is allowed). What was
// decided is told to the player: applied, or refused with the engine's reason in the
// player's own language. No DOM here (web/live/host-view.js draws the waiting lines).
import { t } from "../infra/i18n.js";

export const MODES = ["off", "confirm", "auto"];
export const DEFAULT_MODE = "confirm";

export class Plays {
  // session: the board the engine last answered; run(command): the board's own way to
  // apply a command (web/controllers/board.js run: the dock and undo follow), resolving
  // the engine's answer; view: LiveHostView; tell(player, type, fields): a message to a
  // player's phone; refuse(player, reason, error): a refusal told to it; seen(id): the
  // fighter on the players' board, null for one not there.
  // changed(): the waiting lines changed (the players' list says who has one).
  constructor({ session, run, view, tell, refuse, seen, mode = DEFAULT_MODE, changed = () => {} }) {
    this.changedLines = changed;
    this.session = session;
    this.seen = seen;
    this.run = run;
    this.view = view;
    this.tell = tell;
    this.refuse = refuse;
    this.mode = MODES.includes(mode) ? mode : DEFAULT_MODE;
    this.waiting = []; // {id, player, command, label}: at most one per player, in the order they came
    this.next = 1;
    // player → {key, id}: the play of that player being judged, waiting or applied now
    // (its command as JSON): an identical one meanwhile is the same tap, and one judged
    // after a newer one came is dropped (the latest counts).
    this.latest = new Map();
    this.attack = null; // {attacker, target, action}: the last command, when it attacked
  }

  // The board changed: which attack, if any, the next answers answer (the last command,
  // when it attacked a fighter: R5.3, D23). Waiting lines stay: « Appliquer » asks the
  // engine again, and a line it no longer allows is refused to its player.
  changed(board) {
    const last = this.session.last;
    const spec = last?.type === "act" && last.target ? board.catalogue?.[last.action] : null;
    this.attack = spec?.attack ? { attacker: last.actor, target: last.target, action: last.action } : null;
    this.show();
    return this.attack;
  }

  // A player's act, interrupt (with its action) or pass, for `f`, the PJ it plays. At most
  // one line per player waits: a newer play replaces it; the same play again while the
  // first is judged, waits or is being applied is that one (a double tap, a flood).
  async hear(player, f, message, label) {
    if (this.mode === "off") return this.refuse(player, "players_off");
    const command = this.command(f, message);
    if (!command) return this.refuse(player, "shape");
    // Targets only among the fighters on the players' board (engine/players.py, D26).
    for (const key of ["target", "against"].filter((k) => command[k] !== undefined)) {
      if (!this.seen(command[key])) return this.refuse(player, "target");
    }
    const answers = command.type === "interrupt" && this.attack?.target === f.id;
    if (answers) command.against = this.attack.attacker;
    // An interruption while the last command attacked someone else: its line says whom.
    const elsewhere = command.type === "interrupt" && !answers && this.attack ? this.attack.target : null;
    const key = JSON.stringify(command);
    if (this.latest.get(player)?.key === key) return undefined;
    const id = this.next++;
    this.latest.set(player, { key, id });
    const checked = await this.session.call({ op: "check", command });
    if (this.latest.get(player)?.id !== id) return undefined; // a newer play of this player came meanwhile
    if (!checked.ok) {
      this.latest.delete(player);
      return this.refuse(player, "engine", checked.error);
    }
    // On the PJ's turn, or in answer to an attack on it, as the game master chose; any
    // other interruption waits for the game master (D16).
    const item = { id, player, command, label, elsewhere };
    this.waiting = this.waiting.filter((w) => w.player !== player);
    if (this.mode === "auto" && (command.type !== "interrupt" || answers)) return this.apply(item);
    this.waiting.push(item);
    this.show();
    return this.tell(player, "ok", { what: "waiting" });
  }

  // The engine's command for `f` from a player's message; null for one no PJ action maps to.
  command(f, message) {
    const board = this.session.board;
    if (message.t === "pass") return { type: "pass", actor: f.id, by_player: true };
    const spec = Object.hasOwn(board.catalogue ?? {}, message.action) ? board.catalogue[message.action] : null;
    if (!spec || (spec.category === "interruption") !== (message.t === "interrupt")) return null;
    const options = {};
    for (const [key, value] of Object.entries(message.options ?? {})) {
      if (!spec.options.includes(key)) return null;
      options[key] = value;
    }
    return { type: message.t, actor: f.id, action: message.action, ...options, by_player: true };
  }

  async apply(item) {
    this.waiting = this.waiting.filter((w) => w !== item);
    this.show();
    const answer = await this.run(item.command);
    this.done(item);
    if (answer?.ok) this.tell(item.player, "ok", { what: "applied" });
    else this.refuse(item.player, "engine", answer?.error ?? null);
  }

  // The game master's « Appliquer » or « Refuser » on a waiting line.
  decide(id, yes) {
    const item = this.waiting.find((w) => w.id === id);
    if (!item) return undefined;
    if (yes) return this.apply(item);
    this.waiting = this.waiting.filter((w) => w !== item);
    this.done(item);
    this.show();
    return this.refuse(item.player, "gm_refused");
  }

  // A play answered: the same play again is a new one.
  done(item) {
    if (this.latest.get(item.player)?.id === item.id) this.latest.delete(item.player);
  }

  // The waiting line of `player`, if any.
  of(player) {
    return this.waiting.find((w) => w.player === player) ?? null;
  }

  setMode(mode) {
    if (!MODES.includes(mode)) return;
    this.mode = mode;
    if (mode === "off") {
      for (const item of this.waiting) this.refuse(item.player, "players_off");
      this.waiting = [];
      this.latest.clear();
    }
    this.show();
  }

  // Another fight opened: every waiting line goes, each refused to its player (a play of
  // the fight before is never applied to this one).
  clear(reason) {
    for (const item of this.waiting) this.refuse(item.player, reason);
    this.waiting = [];
    this.latest.clear();
    this.show();
  }

  // A player gone or muted: its waiting lines go.
  drop(player) {
    this.waiting = this.waiting.filter((w) => w.player !== player);
    this.latest.delete(player);
    this.show();
  }

  show() {
    this.view.showWaiting(this.waiting.map((w) => ({ id: w.id, text: w.label(w.command, w.elsewhere) })));
    this.changedLines();
  }
}

// « Brune : Parer → Orque 1 (5 P.I.) », as a waiting line says it: `name(id)` a fighter's
// name; `price(command)` its cost as the verdicts give it; `elsewhere`: the fighter the
// last command attacked, when this interruption does not answer an attack on its actor.
export function waitingLine(command, name, price, actionName, elsewhere = null) {
  const what = command.type === "pass" ? t("pass") : actionName(command.action);
  const whom = command.target ?? command.against;
  const line = t("liveWaitingLine", name(command.actor), what, whom ? name(whom) : null, price(command));
  return elsewhere ? `${line} ${t("liveAttackElsewhere", name(elsewhere))}` : line;
}
