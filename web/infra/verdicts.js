// The board as the engine's worker sends it carries each distinct verdict once
// (engine/wire.py): `board.verdicts` = { actions: [action ids], table: [verdicts] }, and
// each fighter's `actions` the indexes of its verdicts in that table, action by action.
// `unpack` puts each fighter's `actions` back as { action id: verdict } (the fighters that
// share a verdict share its object: never change one) and drops `verdicts`, so every
// screen reads the board as the engine makes it. A board without `verdicts` is left as it is.
//
// A board the worker packs is numbered (`mark`); a request says the board the page holds
// (`held`), and when the worker packed none since, a fighter unchanged is sent as `0` and
// the board names the one it keeps it from (`since`): `unpack` takes that fighter, the
// same object, from `held` ({ mark, combatants }: `Held`). A `0` without that board is a
// fault (thrown): nothing is drawn from a board the page does not hold.
export function unpack(board, held = null) {
  const verdicts = board?.verdicts;
  if (!verdicts || typeof verdicts !== "object") return board;
  const kept = board.since === undefined ? null : held;
  if (kept && kept.mark !== board.since) throw new Error(`board ${board.mark} keeps the fighters of board ${board.since}, not held`);
  const { actions: ids, table } = verdicts;
  const fighters = board.combatants ?? {};
  for (const [id, f] of Object.entries(fighters)) {
    if (f === 0) {
      const same = kept?.combatants?.[id];
      if (!same || !Object.hasOwn(kept.combatants, id)) throw new Error(`board ${board.mark}: fighter ${id} kept, not held`);
      fighters[id] = same;
      continue;
    }
    if (!Array.isArray(f?.actions)) continue;
    const actions = {};
    f.actions.forEach((n, i) => {
      actions[ids[i]] = table[n];
    });
    f.actions = actions;
  }
  delete board.verdicts;
  delete board.mark;
  delete board.since;
  return board;
}

// The last board the page's engine put back ({ mark, combatants }), whose fighters the
// next one may keep (web/boot/engine.js: one per worker). `take` unpacks an answer's board
// against it and holds that board next when the worker numbered it.
export class Held {
  constructor() {
    this.mark = null;
    this.combatants = null;
  }

  take(board) {
    const mark = board?.mark;
    try {
      unpack(board, this);
    } catch (error) {
      this.mark = this.combatants = null; // the next board comes whole
      throw error;
    }
    if (Number.isSafeInteger(mark)) {
      this.mark = mark;
      this.combatants = board.combatants;
    }
    return board;
  }
}

// An answer's text with its board unpacked (the test build's raw bridge, web/app.js).
export function unpackedText(text) {
  const answer = JSON.parse(text);
  unpack(answer?.board);
  return JSON.stringify(answer);
}
