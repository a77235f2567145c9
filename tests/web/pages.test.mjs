// The memory snapshot's stored form and its restore (web/boot/pages.js, issue #28): what is
// read back is exactly the snapshot, whatever its length, and the restore leaves Python's
// memory exactly as a whole copy would, writing no page that is zero on both sides.
// Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { clear, contents, FIRST, headLength, packed, PAGE, place } from "../../web/boot/pages.js";

// Python's memory as a snapshot holds it: `pages` pages and `tail` bytes; page i holds one
// byte at `spot(i)` when `full(i)`, zeros otherwise; the tail is 7s.
function memory(pages, tail, full, spot = (i) => (i * 977) % PAGE) {
  const bytes = new Uint8Array(pages * PAGE + tail);
  for (let i = 0; i < pages; i++) if (full(i)) bytes[i * PAGE + spot(i)] = (i % 255) + 1;
  bytes.fill(7, pages * PAGE);
  return bytes;
}

// A snapshot as Pyodide makes it: a front of `front` bytes (byte 4 says where the memory
// begins, the rest is its header's text), then the memory.
function snapshot(pages, tail, full, { front = 48, spot } = {}) {
  const mem = memory(pages, tail, full, spot);
  const bytes = new Uint8Array(front + mem.length);
  bytes.fill(3, 8, front);
  new DataView(bytes.buffer).setUint32(4, front, true);
  bytes.set(mem, front);
  return bytes;
}

// The stored form (`packed`, then `contents` and `place` as the worker reads it back).
async function stored(from) {
  return new Uint8Array(await new Blob(packed(from)).arrayBuffer());
}

// Read back as the worker does (web/boot/snapshot.js, `opened`): the head, then the pages
// placed into memory already holding `before`, then the rest cleared.
function readBack(bytes, before = null) {
  const { front, memory: length, kept, start } = contents(bytes.subarray(0, headLength(bytes.subarray(0, FIRST))), bytes.length);
  const into = new Uint8Array(length + 2 * PAGE); // Python's memory may be longer
  if (before) into.set(before);
  place(into, bytes.subarray(start), kept, length);
  const left = clear(into, kept, length);
  const restored = new Uint8Array(front.length + length);
  restored.set(front);
  restored.set(into.subarray(0, length), front.length);
  return { restored, into, kept, left };
}

test("a snapshot stored without its pages of zeros reads back the same, whatever its length", async () => {
  for (const [pages, tail, full, front] of [[40, 100, (i) => i % 3 !== 0, 48], [9, 0, () => true, 4096], [12, 4095, (i) => i > 10, 160],
    [5, 0, () => false, 48], [0, 17, () => false, 64]]) {
    const from = snapshot(pages, tail, full, { front });
    const bytes = await stored(from);
    const { restored, into, kept, left } = readBack(bytes);
    assert.deepEqual(restored, from);
    assert.ok(into.subarray(from.length - front).every((byte) => byte === 0)); // nothing written past the memory
    const expected = [...Array(pages).keys()].filter(full).concat(tail ? [pages] : []);
    assert.deepEqual(kept, expected); // only the pages not zero, the tail (7s) among them
    assert.equal(left, pages - expected.length + (tail ? 1 : 0)); // every page of zeros left alone
    const bitmap = Math.ceil(Math.ceil((from.length - front) / PAGE) / 8);
    assert.equal(bytes.length, FIRST + bitmap + front + expected.length * PAGE);
  }
});

test("a page of zeros at the end is left out, and a partial one kept is padded", async () => {
  const from = snapshot(3, 10, (i) => i === 1);
  from.fill(0, from.length - 10); // the tail all zeros too
  assert.deepEqual(readBack(await stored(from)).kept, [1]);
  from[from.length - 1] = 5;
  assert.deepEqual(readBack(await stored(from)).restored, from);
});

test("what Pyodide's start wrote where the snapshot has zeros is zeroed, and only there", async () => {
  const from = snapshot(10, 0, (i) => i >= 5);
  const before = new Uint8Array(10 * PAGE + PAGE);
  before[2 * PAGE + 4095] = 9; // the last byte of page 2
  before[4 * PAGE] = 1; // the first of page 4
  before[6 * PAGE + 1] = 8; // a page the snapshot has: overwritten
  before[10 * PAGE + 5] = 4; // past the snapshot's memory: left as it was
  const { restored, into, left } = readBack(await stored(from), before);
  assert.deepEqual(restored, from);
  assert.equal(left, 3); // pages 0, 1 and 3
  assert.equal(into[10 * PAGE + 5], 4);
});

test("a page with one byte set at its start or its end is kept", async () => {
  for (const spot of [() => 0, () => PAGE - 1]) {
    const from = snapshot(6, 0, () => true, { spot });
    const { restored, kept } = readBack(await stored(from));
    assert.deepEqual(restored, from);
    assert.equal(kept.length, 6);
  }
});

test("anything but a stored snapshot is refused: another form, a cut, a byte more", async () => {
  const bytes = await stored(snapshot(6, 5, (i) => i % 2 === 0));
  assert.throws(() => headLength(new Uint8Array(4096).fill(7)), /not a snapshot/);
  assert.throws(() => headLength(new TextEncoder().encode("pas")), /not a snapshot/);
  const odd = bytes.slice(0, FIRST);
  new DataView(odd.buffer).setUint32(8, 50, true); // a front not a multiple of 4
  assert.throws(() => headLength(odd), /not a snapshot/);
  assert.throws(() => contents(bytes, bytes.length - 1), /cut short/);
  assert.throws(() => contents(bytes, bytes.length + PAGE), /cut short/);
  assert.throws(() => contents(bytes.subarray(0, FIRST), bytes.length), /cut short/);
  assert.throws(() => packed(new Uint8Array(6)), /not a Pyodide snapshot/);
});
