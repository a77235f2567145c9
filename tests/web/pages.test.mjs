// The snapshot's copy that leaves pages of zeros alone (web/boot/pages.js): what it
// leaves in memory is exactly what `set` would, whatever was there before, and only the
// pages that are zero on both sides are left alone.
// Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { contents, copyPages, headLength, packed, PAGE, place, restore } from "../../web/boot/pages.js";

// A snapshot of `pages` pages and `tail` bytes: page i holds one byte at `spot(i)` when
// `full(i)`, zeros otherwise.
function snapshot(pages, tail, full, spot = (i) => (i * 977) % PAGE) {
  const bytes = new Uint8Array(pages * PAGE + tail);
  for (let i = 0; i < pages; i++) if (full(i)) bytes[i * PAGE + spot(i)] = (i % 255) + 1;
  bytes.fill(7, pages * PAGE);
  return bytes;
}

test("into fresh memory: the same bytes as set, and every page of zeros left alone", () => {
  const from = snapshot(40, 100, (i) => i % 3 !== 0);
  const into = new Int8Array(from.length + 3 * PAGE);
  const left = copyPages(into, from);
  assert.deepEqual(new Uint8Array(into.buffer, 0, from.length), from);
  assert.equal(left, 14); // pages 0, 3, …, 39
});

test("a page that is zero in the snapshot but not in memory is written", () => {
  const from = snapshot(10, 0, (i) => i >= 5);
  const into = new Uint8Array(from.length);
  into[2 * PAGE + 4095] = 9; // the last byte of page 2
  into[4 * PAGE] = 1; // the first of page 4
  const left = copyPages(into, from);
  assert.deepEqual(into, from);
  assert.equal(left, 3); // pages 0, 1 and 3
});

test("a page with one byte set at its start or its end is copied", () => {
  for (const spot of [() => 0, () => PAGE - 1]) {
    const from = snapshot(6, 0, () => true, spot);
    const into = new Uint8Array(from.length);
    assert.equal(copyPages(into, from), 0);
    assert.deepEqual(into, from);
  }
});

test("views the words cannot read, and a copy too long, are left to set", () => {
  const from = snapshot(4, 10, (i) => i === 1);
  const into = new Uint8Array(from.length + 2);
  assert.equal(copyPages(into.subarray(1), from), 0); // an offset not a multiple of 4
  assert.deepEqual(into.subarray(1, from.length + 1), from);
  assert.throws(() => copyPages(new Uint8Array(from.length - 1), from), RangeError); // as set would
});

test("Pyodide's restore counts what it left alone", () => {
  const from = snapshot(8, 0, (i) => i < 2);
  const heap = new Int8Array(from.length);
  restore(heap, from);
  assert.equal(restore.left, 6);
  assert.deepEqual(new Uint8Array(heap.buffer), from);
});

// The stored form (`packed`, then `contents` and `place` as the worker reads it back).
async function stored(from) {
  return new Uint8Array(await new Blob(packed(from)).arrayBuffer());
}

function readBack(bytes) {
  const { length, kept, start } = contents(bytes.subarray(0, headLength(bytes.subarray(0, 8))), bytes.length);
  const into = new Uint8Array(length);
  place(into, bytes.subarray(start), kept);
  return { into, kept };
}

test("a snapshot stored without its pages of zeros reads back the same, whatever its tail", async () => {
  for (const [pages, tail, full] of [[40, 100, (i) => i % 3 !== 0], [9, 0, () => true], [12, 4095, (i) => i > 10], [5, 0, () => false], [0, 17, () => false]]) {
    const from = snapshot(pages, tail, full);
    const bytes = await stored(from);
    const { into, kept } = readBack(bytes);
    assert.deepEqual(into, from);
    const expected = [...Array(pages).keys()].filter(full).concat(tail ? [pages] : []);
    assert.deepEqual(kept, expected); // only the pages not zero, the tail (7s) among them
    assert.equal(bytes.length, 8 + Math.ceil(Math.ceil(from.length / PAGE) / 8) + expected.length * PAGE);
  }
});

test("a page of zeros at the end is left out, and a partial one kept is padded", async () => {
  const from = snapshot(3, 10, (i) => i === 1);
  from.fill(0, 3 * PAGE); // the tail all zeros too
  const bytes = await stored(from);
  assert.deepEqual(readBack(bytes).kept, [1]);
  from[3 * PAGE + 9] = 5;
  assert.deepEqual(readBack(await stored(from)).into, from);
});

test("anything but a stored snapshot is refused: another form, a cut, a byte more", async () => {
  const bytes = await stored(snapshot(6, 5, (i) => i % 2 === 0));
  assert.throws(() => headLength(new Uint8Array(4096).fill(7)), /not a snapshot/);
  assert.throws(() => headLength(new TextEncoder().encode("pas")), /not a snapshot/);
  assert.throws(() => contents(bytes, bytes.length - 1), /cut short/);
  assert.throws(() => contents(bytes, bytes.length + PAGE), /cut short/);
  assert.throws(() => contents(bytes.subarray(0, 8), bytes.length), /cut short/);
});
