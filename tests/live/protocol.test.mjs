// What travels on the live table (web/live/protocol.js), with no browser: each direction
// takes only its own messages, and with the PNJ's details hidden the players' view is the
// same whatever those details are (nothing lets a player work them out: issue #23).
// Run by `node --test tests/live/` (tests/test_live_codes.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { fromGm, fromMate, fromPlayer, playersBoard, Refused } from "../../web/live/protocol.js";

const FP = "ab".repeat(32);
const say = (t, fields = {}) => JSON.stringify({ v: 2, t, ...fields });
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
  assert.deepEqual(fromPlayer(say("declare", { die: 4 })), { v: 2, t: "declare", die: 4 });
  assert.deepEqual(fromPlayer(say("declare", { die: 4, weapon: "epee" })).weapon, "epee");
  assert.equal(fromPlayer(say("claim", { id: null })).id, null);
  assert.deepEqual(fromPlayer(say("mates", { list: [FP] })).list, [FP]);
  assert.equal(refused(fromPlayer, say("declare", { die: 7 })), "shape");
  assert.equal(refused(fromPlayer, say("declare", {})), "shape", "the die is required");
  assert.equal(refused(fromPlayer, say("declare", { die: 4, extra: 1 })), "shape");
  assert.equal(refused(fromPlayer, say("board", { seq: 1, claim: null, board: {} })), "shape", "a player sends no board");
  assert.equal(refused(fromPlayer, say("relay", { to: FP, code: "x" })), "shape", "nor asks a relay");
  assert.equal(refused(fromPlayer, say("mates", { list: ["not a fingerprint"] })), "shape");
  assert.equal(refused(fromPlayer, say("mates", { list: Array(13).fill(FP) })), "shape");
  assert.equal(refused(fromPlayer, say("relayed", { from: FP, code: "x".repeat(601) })), "shape");
  assert.equal(refused(fromPlayer, JSON.stringify({ v: 1, t: "hb" })), "version");
  assert.equal(refused(fromPlayer, "x".repeat(2000)), "too_big");
  assert.equal(refused(fromPlayer, "{"), "not_json");
  assert.equal(refused(fromPlayer, "[]"), "shape");
  assert.equal(refused(fromPlayer, say("__proto__")), "shape");
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
  assert.equal(fromGm(say("refused", { reason: "engine", error: { code: "no_hope", key: "no_hope", params: {}, message: "x" } })).reason, "engine");
});

// A board as the engine orders it (engine/initiative.py board_order: P.I., then D4's
// order: d6, PJ before PNJ, entry), with `active` the fighters tied at the top (D4).
function engineBoard(fighters, round = 1) {
  const inRound = fighters.filter((f) => f.pi !== null);
  const order = [...fighters].sort((a, b) => (b.pi ?? -99) - (a.pi ?? -99) || (b.d6 ?? 0) - (a.d6 ?? 0)
    || (a.side === "pj" ? 0 : 1) - (b.side === "pj" ? 0 : 1) || a.entry - b.entry);
  const top = Math.max(...inRound.map((f) => f.pi));
  const active = top > 0 ? order.filter((f) => f.pi === top).map((f) => f.id) : [];
  const combatants = Object.fromEntries(fighters.map((f) => [f.id, {
    ...f, name: f.id, in_round: true, hors_combat: false, passed: false, initiative: (f.pi ?? 0) + 3, declared: null,
    aim_bonus: 0, charged: false, posture: "debout", arrow_nocked: false, cover: false, engaged: false, engaged_with: [],
    in_hand: [], weapons: [], declarations: [], actions: {}, hope: f.hope ?? 1, wounds: f.wounds ?? 0,
  }]));
  return { round, round_over: false, active, phase: null, order: order.map((f) => f.id), combatants };
}

function random(seed) {
  let x = seed;
  return (n) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
}

test("with the PNJ's details hidden, the players' view is the same whatever they are", () => {
  for (let seed = 1; seed <= 2000; seed++) {
    const r = random(seed);
    const pj = Array.from({ length: 1 + r(3) }, (_, i) => ({ id: `pj${i}`, side: "pj", entry: i, pi: r(15) - 2, d6: 1 + r(6) }));
    const pnj = Array.from({ length: 1 + r(3) }, (_, i) => ({ id: `pnj${i}`, side: "pnj", entry: 10 + i }));
    const hidden = () => pnj.map((f) => ({ ...f, pi: r(15) - 2, d6: 1 + r(6), wounds: r(4), hope: r(3) }));
    const a = playersBoard(engineBoard([...pj, ...hidden()]));
    const b = playersBoard(engineBoard([...pj, ...hidden()]));
    for (const view of [a, b]) {
      const acting = view.active.map((id) => view.combatants[id].side);
      assert.ok(!(acting.includes("pj") && acting.includes("pnj")), `seed ${seed}: a tie of a PJ and a PNJ is not shown`);
      assert.ok(acting.filter((s) => s === "pnj").length <= 1, `seed ${seed}: a tie of PNJ is not shown`);
      for (const id of view.order.filter((i) => i.startsWith("pnj"))) {
        for (const k of ["pi", "initiative", "d6", "wounds", "hope"]) assert.equal(view.combatants[id][k], null);
      }
    }
    // What differs between the two is only who acts, when a PNJ acts alone (the table sees it).
    if (JSON.stringify(a.active) === JSON.stringify(b.active)) assert.deepEqual(a, b, `seed ${seed}`);
  }
});

test("with the PNJ's details shown, the view is the board's order and tie", () => {
  const board = engineBoard([{ id: "pj0", side: "pj", entry: 0, pi: 5, d6: 3 }, { id: "pnj0", side: "pnj", entry: 1, pi: 5, d6: 3 }]);
  const view = playersBoard(board, { pnjDetails: true });
  assert.deepEqual(view.active, board.active);
  assert.deepEqual(view.order, board.order);
  assert.equal(view.combatants.pnj0.pi, 5);
});
