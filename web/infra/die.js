// The one die of the app (R1.1: each fighter rolls 1d6 at the start of a round): the game
// master's « Lancer » and « Tout lancer » (views/round-view.js) and a player's « Lancer »
// on the live table. Unbiased: a 32-bit word from the browser's CSPRNG, drawn again when
// it falls in the last 4 words of the range, which `% 6` would give to 1 to 4 (the rest,
// 4,294,967,292 words, is a whole number of sixes). No DOM here (tests/web/die.test.mjs
// runs it in Node).
const RANGE = 2 ** 32;
// The words below it map evenly onto the six faces.
export const LIMIT = RANGE - (RANGE % 6);

// The face a word gives, or null for a word drawn again.
export function face(word) {
  return word < LIMIT ? (word % 6) + 1 : null;
}

function randomWord() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

// A roll: 1 to 6, each with probability 1/6. `draw`: the source of uniform 32-bit words.
// `faces`: the group's die (R1.2, the engine's `de_initiative`: the length of a
// declaration's `by_die`), drawn again in the same way above the last whole run of faces.
export function rollDie(draw = randomWord, faces = 6) {
  if (faces === 6) {
    for (;;) {
      const rolled = face(draw());
      if (rolled !== null) return rolled;
    }
  }
  const limit = RANGE - (RANGE % faces);
  for (;;) {
    const word = draw();
    if (word < limit) return (word % faces) + 1;
  }
}
