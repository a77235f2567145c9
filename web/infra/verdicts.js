// The board as the engine's worker sends it carries each distinct verdict once
// (engine/wire.py): `board.verdicts` = { actions: [action ids], table: [verdicts] }, and
// each fighter's `actions` the indexes of its verdicts in that table, action by action.
// `unpack` puts each fighter's `actions` back as { action id: verdict } (the fighters that
// share a verdict share its object: never change one) and drops `verdicts`, so every
// screen reads the board as the engine makes it. A board without `verdicts` is left as it is.
export function unpack(board) {
  const verdicts = board?.verdicts;
  if (!verdicts || typeof verdicts !== "object") return board;
  const { actions: ids, table } = verdicts;
  for (const f of Object.values(board.combatants ?? {})) {
    if (!Array.isArray(f?.actions)) continue;
    const actions = {};
    f.actions.forEach((n, i) => {
      actions[ids[i]] = table[n];
    });
    f.actions = actions;
  }
  delete board.verdicts;
  return board;
}

// An answer's text with its board unpacked (the test build's raw bridge, web/app.js).
export function unpackedText(text) {
  const answer = JSON.parse(text);
  unpack(answer?.board);
  return JSON.stringify(answer);
}
