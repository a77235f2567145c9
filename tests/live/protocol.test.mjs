// What travels on the live table (web/live/protocol.js), with no browser: each direction
// takes only its own messages. What the players may see is the engine's (engine/players.py,
// tests/test_players_board.py).
// Run by `node --test tests/live/` (tests/test_live_codes.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { fromGm, fromMate, fromPlayer, inOrder, PROTOCOL, Refused, wired } from "../../web/live/protocol.js";
import { MAX_CODE } from "../../web/live/signal.js";

const FP = "ab".repeat(32);
const say = (t, fields = {}) => JSON.stringify({ v: PROTOCOL, t, ...fields });
const refused = (read, text) => {
  try {
    read(text);
  } catch (error) {
    assert.ok(error instanceof Refused);
    return error.reason;
  }
  return null;
};

test("a player may send proposals and the table's plumbing, and nothing else", () => {
  assert.deepEqual(fromPlayer(say("declare", { die: 4 })), { v: PROTOCOL, t: "declare", die: 4 });
  assert.deepEqual(fromPlayer(say("declare", { die: 4, weapon: "epee" })).weapon, "epee");
  assert.equal(fromPlayer(say("claim", { id: null })).id, null);
  // Asking the game master for a PJ a phone that follows holds (D24): `ask` is true or absent.
  assert.equal(fromPlayer(say("claim", { id: "a", ask: true })).ask, true);
  assert.equal(refused(fromPlayer, say("claim", { id: "a", ask: false })), "shape");
  assert.equal(refused(fromPlayer, say("claim", { id: "a", ask: "yes" })), "shape");
  assert.deepEqual(fromPlayer(say("mates", { list: [FP] })).list, [FP]);
  // The die's faces are the engine's to judge (R1.2, engine/seating.py), not the wire's.
  assert.equal(fromPlayer(say("declare", { die: 7 })).die, 7);
  assert.equal(refused(fromPlayer, say("declare", { die: "4" })), "shape");
  assert.equal(refused(fromPlayer, say("declare", {})), "shape", "the die is required");
  assert.equal(refused(fromPlayer, say("declare", { die: 4, extra: 1 })), "shape");
  assert.equal(refused(fromPlayer, say("board", { seq: 1, claim: null, board: {} })), "shape", "a player sends no board");
  assert.equal(refused(fromPlayer, say("relay", { to: FP, code: "x" })), "shape", "nor asks a relay");
  assert.equal(refused(fromPlayer, say("mates", { list: ["not a fingerprint"] })), "shape");
  // How many mates a phone keeps is the engine's (engine/seating.py MAX_MATES); the message's size bounds the list.
  assert.equal(refused(fromPlayer, say("mates", { list: Array(16).fill(FP) })), "too_big");
  assert.equal(refused(fromPlayer, say("relayed", { from: FP, code: "x".repeat(MAX_CODE + 1) })), "shape");
  assert.equal(refused(fromPlayer, JSON.stringify({ v: 1, t: "hb" })), "version");
  assert.equal(refused(fromPlayer, "x".repeat(2000)), "too_big");
  assert.equal(refused(fromPlayer, "{"), "not_json");
  assert.equal(refused(fromPlayer, "[]"), "shape");
  assert.equal(refused(fromPlayer, say("__proto__")), "shape");
});

test("every play carries its sequence number", () => {
  assert.equal(fromPlayer(say("act", { n: 3, action: "se_deplacer", options: {} })).n, 3);
  assert.equal(fromPlayer(say("pass", { n: 1 })).n, 1);
  assert.equal(fromPlayer(say("interrupt", { n: 2 })).n, 2);
  assert.equal(refused(fromPlayer, say("act", { action: "se_deplacer", options: {} })), "shape", "a play without its number");
  for (const n of [0, -1, 1.5, "2", null]) assert.equal(refused(fromPlayer, say("pass", { n })), "shape", String(n));
  assert.equal(refused(fromPlayer, JSON.stringify({ v: PROTOCOL + 1, t: "pass", n: 1 })), "version");
});

test("a mate may only pass the game master's codes on", () => {
  assert.equal(fromMate(say("gm-offer", { code: "abc" })).code, "abc");
  assert.equal(refused(fromMate, say("board", { seq: 1, claim: null, board: {} })), "shape");
  assert.equal(refused(fromMate, say("claim", { id: "x" })), "shape");
});

test("the game master's board is checked before it is drawn", () => {
  const board = { round: 1, round_over: false, active: [], phase: null, order: ["a"],
    combatants: { a: { weapons: [], in_hand: [], engaged_with: [] } } };
  assert.equal(fromGm(say("board", { seq: 3, claim: null, board })).seq, 3);
  assert.equal(refused(fromGm, say("board", { seq: 3, claim: null, board: { ...board, order: ["b"] } })), "shape");
  // Another fight opened, or one this phone was shown before.
  assert.deepEqual(fromGm(say("opened", {})), { v: PROTOCOL, t: "opened" });
  assert.equal(fromGm(say("opened", { back: true })).back, true);
  assert.equal(refused(fromGm, say("opened", { back: 1 })), "shape");
  assert.equal(refused(fromGm, say("opened", { fight: "f1" })), "shape");
  // An attack on this phone's PJ comes with the answers that fit it (R5.3, D23).
  assert.deepEqual(fromGm(say("attacked", { by: "o", action: "attaque", answers: ["parer", "esquiver"] })).answers, ["parer", "esquiver"]);
  assert.equal(refused(fromGm, say("attacked", { by: "o", action: "attaque" })), "shape");
  assert.equal(refused(fromGm, say("attacked", { by: "o", action: "attaque", answers: [1] })), "shape");
  assert.equal(fromGm(say("refused", { reason: "engine", error: { code: "no_hope", key: "no_hope", params: {}, message: "x" } })).reason, "engine");
});

test("the game master's message as it goes: the players' board and journal put back, each encoded once per answer", () => {
  const board = { round: 1, order: ["a"], active: ["a"], combatants: { a: { name: "Brune « 1 »", weapons: [], in_hand: [], engaged_with: [] } } };
  const live = { shown: board, journal: [{ kind: "action", text: "é\u2028" }] };
  const shared = new Map();
  const first = wired("board", { seq: 3, claim: null, claims: [] }, live, shared);
  assert.deepEqual(fromGm(first), { v: PROTOCOL, t: "board", seq: 3, claim: null, claims: [], board });
  assert.deepEqual(fromGm(wired("board", { seq: 3, claim: "a" }, live, shared)).board, board);
  assert.deepEqual(fromGm(wired("journal", {}, live, shared)), { v: PROTOCOL, t: "journal", entries: live.journal });
  assert.deepEqual([...shared.keys()], ["shown", "journal"]); // each once, for every phone
  // Any other message is its fields, as they are.
  assert.deepEqual(JSON.parse(wired("ok", { what: "done" }, live, shared)), { v: PROTOCOL, t: "ok", what: "done" });
});

test("a player's messages are handled in order, and one that throws does not stop the next", async () => {
  const reported = [];
  const run = inOrder((error) => reported.push(error.message));
  const done = [];
  let release;
  const slow = new Promise((resolve) => {
    release = resolve;
  });
  run(async () => {
    await slow;
    done.push("claim");
  });
  run(() => {
    throw new Error("fault in the second");
  });
  const last = run(() => done.push("act"));
  assert.deepEqual(done, []); // the first still waits: nothing after it ran
  release();
  await last;
  assert.deepEqual(done, ["claim", "act"]);
  assert.deepEqual(reported, ["fault in the second"]);
});
