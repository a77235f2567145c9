// The app's die (web/infra/die.js, R1.1): every face as likely, exactly, for the words it
// keeps; the few words it draws again are the only ones that would favour a face; a
// roll from the browser's generator falls evenly on the six faces.
// Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { face, LIMIT, rollDie } from "../../web/infra/die.js";

const RANGE = 2 ** 32;

// How many of `words` give each face (index 0: drawn again).
function tally(words) {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const word of words) counts[face(word) ?? 0]++;
  return counts;
}

function* span(from, to) {
  for (let word = from; word < to; word++) yield word;
}

test("the words kept are a whole number of sixes, and the fewest drawn again", () => {
  assert.equal(LIMIT % 6, 0);
  assert.ok(RANGE - LIMIT < 6);
  // Every run of six words kept gives each face once: at the start, in the middle and at
  // the end of the range (face is word % 6 + 1 below the limit).
  for (const from of [0, 6 * 123_456_789, LIMIT - 6 * 1000]) assert.deepEqual(tally(span(from, from + 6 * 1000)), [0, 1000, 1000, 1000, 1000, 1000, 1000]);
  assert.deepEqual(tally(span(LIMIT, RANGE)), [RANGE - LIMIT, 0, 0, 0, 0, 0, 0]);
});

test("a word drawn again is drawn again, not turned into a face", () => {
  const words = [RANGE - 1, LIMIT, RANGE - 2, 11];
  assert.equal(rollDie(() => words.shift()), 6); // 11 % 6 + 1
  assert.deepEqual(words, []);
});

test("the browser's generator gives the six faces evenly (chi-squared, 5 degrees of freedom)", () => {
  const rolls = 600_000;
  const counts = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < rolls; i++) counts[rollDie() - 1]++;
  const expected = rolls / 6;
  const chi2 = counts.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
  // 35.9: exceeded by chance once in a million runs; a die that never gives 6, or gives
  // 1 twice as often, scores in the thousands.
  assert.ok(chi2 < 35.9, `faces ${counts.join(", ")}: chi-squared ${chi2.toFixed(1)}`);
});
