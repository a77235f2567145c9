// What travels on the live table, over the data channels: every message
// is one JSON object with the protocol version `v` and a type `t`. Three directions:
// - a player to the game master (`fromPlayer`): proposals and the table's plumbing
//   (which PJ they play, its weapon and die, an interruption request, which other players'
//   phones they reach, the codes that connect two phones), and, when the players play their
//   PJ, its action, interruption or pass: never a command itself;
// - the game master to a player (`fromGm`): the players' view of the board, answers, and
//   the codes it asks a player to pass on;
// - a player to another player (`fromMate`): only the codes of a game master's page that
//   came back (web/live/guest.js), passed on.
// Each message is checked (size, JSON, version, exact shape) before anything looks at it.
// The game master's page stays the only authority. No DOM here.
import { MAX_CODE, PROTOCOL } from "./signal.js";

export { PROTOCOL };

// The longest message a player may send (characters): a code to pass on is under 600.
export const MAX_PROPOSAL = 1024;
// The longest message the game master may send once put together (web/live/peer.js): the
// players' view of the largest legal fight (64 PJ with 16 long-named weapons) is about
// 400,000 characters.
export const MAX_HOST_MESSAGE = 2_000_000;
// A player's rate: a burst of RATE_BURST messages, then RATE_PER_SECOND a second.
export const RATE_BURST = 20;
const RATE_PER_SECOND = 4;

// The fields' shapes only: how many, how long and which values are the engine's to judge
// (engine/seating.py `judge`: ids, dice, options, the phones a phone lists), and a message
// is bounded by its size above.
const ID = (value) => typeof value === "string" && value.length > 0;
// A JSON object (not null, not a list).
const OBJECT = (o) => o !== null && typeof o === "object" && !Array.isArray(o);
const IDS = (l) => Array.isArray(l) && l.every(ID);
// A phone's name on the table: its certificate's sha-256 fingerprint (web/live/identity.js).
const FINGERPRINT = (value) => typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
const CODE = (value) => typeof value === "string" && value.length > 0 && value.length <= MAX_CODE;
// An engine refusal as the page words it (web/i18n.js refusal): its code, reason key and
// parameters, and its plain message.
const ERROR = (e) => OBJECT(e) && ID(e.code) && (e.key === null || ID(e.key)) && OBJECT(e.params) && typeof e.message === "string";
// A command's options, as a player's phone sends them with an action (the engine checks
// each: engine/seating.py builds the command, the engine judges it).
const OPTIONS = (o) => OBJECT(o) && Object.keys(o).every(ID);
// What a player's phone gets to play its own PJ: its verdicts, its likely
// actions, the catalogue.
const MINE = (m) => m === null || (OBJECT(m) && OBJECT(m.actions) && Array.isArray(m.likely) && Array.isArray(m.never) && OBJECT(m.catalogue));
// Who holds a PJ (engine/seating.py `_holder`): the holder's number on the table, the PJ
// its phone played before, whether it is away.
const HOLDER = (x) => OBJECT(x) && Object.keys(x).length === 3 && Number.isInteger(x.n)
  && (x.was === null || typeof x.was === "string") && typeof x.away === "boolean";
// The PJ a phone may claim, in the board's order, each free (no holder), held by a phone
// that follows (a claim with `ask` asks the game master), or held by a phone away (any
// claim asks the game master), with who holds it: engine/seating.py `_board_for`.
const CLAIMS = (l) => Array.isArray(l) && l.every((c) => OBJECT(c) && Object.keys(c).length === 3 && ID(c.id)
  && (c.may === "free" ? c.holder === null : ["ask", "held"].includes(c.may) && HOLDER(c.holder)));
const FLAG = (b) => typeof b === "boolean";
// A play's sequence number: each play a phone sends carries the next (web/live/guest.js).
const N = (n) => Number.isSafeInteger(n) && n >= 1;
// The die's faces are the engine's (R1.2): it judges the declaration as the round's start would.
const DIE = (d) => d === null || Number.isInteger(d);

// Each type's fields: required ones, and `optional` ones that may be left out.
const FROM_PLAYER = {
  hb: {},
  // `ask`: the player asks the game master for a PJ a phone that follows holds (D27,
  // engine/seating.py `_claim`); a claim without it of such a PJ is refused.
  claim: { id: (id) => id === null || ID(id), optional: { ask: (a) => a === true } },
  // `weapon` left out: the player did not choose one (the form's own stays).
  declare: { die: DIE, optional: { weapon: (w) => w === null || ID(w) } },
  // Without an action: a request (the players propose); with one: the PJ's
  // interruption, as an answer or a request (they play).
  // Each play carries its sequence number `n`, larger than the last one this connection
  // carried: a replayed or reordered play is refused before anything reads it.
  interrupt: { n: N, optional: { action: ID, options: OPTIONS } },
  act: { n: N, action: ID, options: OPTIONS },
  pass: { n: N },
  bye: {},
  mates: { list: (l) => Array.isArray(l) && l.every(FINGERPRINT) },
  "mate-offer": { peer: FINGERPRINT, code: CODE },
  "mate-answer": { peer: FINGERPRINT, code: CODE },
  relayed: { from: FINGERPRINT, code: CODE },
  // This phone's answer, made ahead of time, to the game master's spare (web/live/host.js).
  ticket: { code: CODE },
  // This phone's answer to the game master's ICE restart (web/live/restart.js).
  restarted: { code: CODE },
};

const FROM_GM = {
  hb: {},
  // The players' board, and what this phone may do there (engine/seating.py): the PJ it may
  // claim, and for its own PJ whether it declares now (R1) and whether it is its turn.
  board: { seq: Number.isInteger, claim: (id) => id === null || ID(id), board: isBoard,
    optional: { mine: MINE, claims: CLAIMS, declare: FLAG, turn: FLAG } },
  journal: { entries: Array.isArray },
  // An attack on this phone's PJ, with the answers that fit it (R5.3, D23).
  attacked: { by: ID, action: ID, answers: IDS },
  // The game master undid (or did again) this player's play: its action, null for a pass.
  undone: { action: (a) => a === null || ID(a) },
  redone: { action: (a) => a === null || ID(a) },
  // A claim refused says the PJ this phone still plays (`claim`), and for a PJ another
  // phone holds, who holds it.
  refused: { reason: ID, optional: { error: ERROR, pj: ID, holder: HOLDER, claim: (id) => id === null || ID(id) } },
  ok: { what: ID },
  removed: {},
  // The game master opened another fight (its board follows, or came just before); `back`:
  // one this phone was shown before (engine/seating.py `switched`).
  opened: { optional: { back: (b) => b === true } },
  "mate-open": { peer: FINGERPRINT },
  "mate-offer": { peer: FINGERPRINT, code: CODE },
  "mate-answer": { peer: FINGERPRINT, code: CODE },
  relay: { to: FINGERPRINT, code: CODE },
  // A connection kept waiting for this phone's page if it reloads: its offer, answered
  // ahead of time (a `ticket` back).
  spare: { code: CODE },
  // An ICE restart of this connection: the game master's new offer (web/live/restart.js).
  restart: { code: CODE },
};

const FROM_MATE = {
  hb: {},
  "gm-offer": { code: CODE },
  "gm-answer": { code: CODE },
};

// A message refused before it reaches anything: `reason` is one the player's page words
// (web/live/guest.js `gmRefusal`): "too_big", "not_json", "version", "shape".
export class Refused extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

function read(text, shapes, max) {
  if (typeof text !== "string" || text.length > max) throw new Refused("too_big");
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    throw new Refused("not_json");
  }
  if (!OBJECT(message)) throw new Refused("shape");
  if (message.v !== PROTOCOL) throw new Refused("version");
  const shape = Object.hasOwn(shapes, message.t) ? shapes[message.t] : null;
  if (!shape) throw new Refused("shape");
  const { optional = {}, ...required } = shape;
  for (const key of Object.keys(message)) {
    if (key === "v" || key === "t") continue;
    const check = Object.hasOwn(required, key) ? required[key] : Object.hasOwn(optional, key) ? optional[key] : null;
    if (!check || !check(message[key])) throw new Refused("shape");
  }
  if (!Object.keys(required).every((key) => Object.hasOwn(message, key))) throw new Refused("shape");
  return message;
}

// What a player sent, checked: {t, ...fields}, or throws Refused. Nothing but the fields
// of its type is accepted (an extra key is a wrong shape).
export function fromPlayer(text) {
  return read(text, FROM_PLAYER, MAX_PROPOSAL);
}

export function fromGm(text) {
  return read(text, FROM_GM, MAX_HOST_MESSAGE);
}

export function fromMate(text) {
  return read(text, FROM_MATE, MAX_PROPOSAL);
}

// A player's messages handled one after the other, in the order they came: `run(task)`
// starts `task` once the one before has settled. A task that throws is reported
// (`report`, the page's error by default) and the next ones still run: one message's
// fault never silences a phone for the rest of the evening.
export function inOrder(report = (error) => globalThis.reportError(error)) {
  let last = Promise.resolve();
  return (task) => {
    last = last.then(task).catch(report);
    return last;
  };
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

// The messages whose part is the same for every phone: its field, and where the answer has it.
const SHARED = Object.freeze({ board: ["board", "shown"], journal: ["entries", "journal"] });

// A message of the game master's page as it goes on the wire ({v, t, ...fields}, as
// Peer.send writes it), from the engine's answer (`live`: web/live/host.js): the players'
// board and journal, the same for every phone, come once in that answer (engine/live.py
// `_wire`) and are put back here, each encoded once per answer (`shared`: its texts so far).
export function wired(type, fields, live, shared = new Map()) {
  const text = JSON.stringify({ v: PROTOCOL, t: type, ...fields });
  if (!Object.hasOwn(SHARED, type)) return text;
  const [key, from] = SHARED[type];
  if (!shared.has(from)) shared.set(from, JSON.stringify(live[from] ?? null));
  return `${text.slice(0, -1)},"${key}":${shared.get(from)}}`;
}

// A board the game master sent, checked enough to be drawn (the page builds text only).
function isBoard(board) {
  const fighter = (f) => OBJECT(f) && Array.isArray(f.weapons) && Array.isArray(f.in_hand) && Array.isArray(f.engaged_with);
  return OBJECT(board) && Number.isInteger(board.round) && Array.isArray(board.order) && Array.isArray(board.active)
    && OBJECT(board.combatants)
    && board.order.every((id) => typeof id === "string" && Object.hasOwn(board.combatants, id) && fighter(board.combatants[id]));
}
