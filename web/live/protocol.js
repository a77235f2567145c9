// What travels between the game master's phone and a player's, over the data channel
// (issue #15). Every message is one JSON object with the protocol version `v` and a type
// `t`. The game master's page is the only authority: a player's phone can only propose
// (claim a PJ, declare its weapon and die, ask for an interruption; and answer the game
// master's heartbeat); `readProposal`
// checks each one (size, JSON, shape, version) before anything looks at it. No DOM here.
import { PROTOCOL } from "./signal.js";

export { PROTOCOL };

// The longest message a player may send (characters): a proposal is under 150.
export const MAX_PROPOSAL = 512;
// The longest message the game master may send (a board of 64 fighters is under 60 kB).
export const MAX_HOST_MESSAGE = 400_000;
// A player's rate: a burst of RATE_BURST messages, then RATE_PER_SECOND a second.
export const RATE_BURST = 20;
export const RATE_PER_SECOND = 4;

const ID = (value) => typeof value === "string" && value.length > 0 && value.length <= 64;

// A proposal's shape, by type: the fields it must have, each with its check.
const SHAPES = {
  claim: { id: ID },
  declare: { weapon: (w) => w === null || ID(w), die: (d) => d === null || (Number.isInteger(d) && d >= 1 && d <= 6) },
  interrupt: {},
  bye: {},
  pong: {},
};

// Each side says something at least every HEARTBEAT ms (the game master a "ping", the
// player its "pong"); a side heard from for SILENCE ms is taken as gone: a phone asleep or
// out of the Wi-Fi is shown disconnected within seconds, not when ICE gives up (30 s+).
export const HEARTBEAT = 4000;
export const SILENCE = 12_000;

// A proposal refused before it reaches the rules: `reason` is a key of the refusal words
// (lang: liveRefused): "too_big", "not_json", "version", "shape", "rate".
export class Refused extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

// The message a player sent, checked: {t, ...fields}, or throws Refused. Nothing else
// than the fields of its type is accepted (an extra key is a wrong shape).
export function readProposal(text) {
  if (typeof text !== "string" || text.length > MAX_PROPOSAL) throw new Refused("too_big");
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    throw new Refused("not_json");
  }
  if (message === null || typeof message !== "object" || Array.isArray(message)) throw new Refused("shape");
  if (message.v !== PROTOCOL) throw new Refused("version");
  const shape = Object.hasOwn(SHAPES, message.t) ? SHAPES[message.t] : null;
  if (!shape) throw new Refused("shape");
  const keys = Object.keys(message).filter((k) => k !== "v" && k !== "t");
  if (keys.length !== Object.keys(shape).length || !keys.every((k) => Object.hasOwn(shape, k) && shape[k](message[k]))) {
    throw new Refused("shape");
  }
  return message;
}

// A message for the far side, with the protocol's version.
export function say(t, fields = {}) {
  return JSON.stringify({ v: PROTOCOL, t, ...fields });
}

// A token bucket per player: `take()` is false when the player sends too fast.
export function rateLimit(now = () => performance.now()) {
  let tokens = RATE_BURST;
  let last = now();
  return () => {
    const at = now();
    tokens = Math.min(RATE_BURST, tokens + ((at - last) / 1000) * RATE_PER_SECOND);
    last = at;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

// The fields of a fighter a player's phone shows (web/views/board-view.js card): the rest (the
// sheet, the actions' verdicts, the catalogue) stays on the game master's phone.
const SHOWN = ["id", "name", "side", "entry", "in_round", "hors_combat", "passed", "ready", "pi", "initiative", "d6",
  "declared", "aim_bonus", "charged", "posture", "arrow_nocked", "cover", "engaged", "engaged_with", "in_hand",
  "wounds", "hope"];
// What the game master may keep for himself: a PNJ's P.I., initiative, die, wounds, Espoir.
const PNJ_DETAILS = ["pi", "initiative", "d6", "wounds", "hope"];

// The players' view of a board: each fighter's shown fields, weapons by name; a PJ's
// declarations (for its player's start-of-round form: weapon, name, initiative without
// the die); a PNJ's details as null unless `pnjDetails`.
export function playersBoard(board, { pnjDetails = false } = {}) {
  const combatants = {};
  for (const id of board.order) {
    const f = Object.hasOwn(board.combatants, id) ? board.combatants[id] : null;
    if (!f) continue;
    const shown = Object.fromEntries(SHOWN.map((k) => [k, f[k] ?? null]));
    shown.weapons = f.weapons.map((w) => ({ id: w.id, name: w.name }));
    if (f.side === "pj") shown.declarations = f.declarations.map((d) => ({ weapon: d.weapon, name: d.name, initiative: d.initiative }));
    else if (!pnjDetails) for (const k of PNJ_DETAILS) shown[k] = null;
    combatants[id] = shown;
  }
  return { round: board.round, round_over: board.round_over, active: board.active, phase: board.phase, order: board.order, combatants };
}

// A board the game master sent, checked enough to be drawn (the page builds text only).
export function isBoard(board) {
  return board !== null && typeof board === "object" && Number.isInteger(board.round) && Array.isArray(board.order)
    && Array.isArray(board.active) && board.combatants !== null && typeof board.combatants === "object"
    && board.order.every((id) => typeof id === "string" && Object.hasOwn(board.combatants, id)
      && Array.isArray(board.combatants[id].weapons) && Array.isArray(board.combatants[id].in_hand)
      && Array.isArray(board.combatants[id].engaged_with));
}
