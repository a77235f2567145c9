// The warm visit's read of a stored snapshot (web/boot/snapshot.js, issue #28): every byte
// read into one buffer, with a BYOB reader or in slices where the browser has none, and
// `opened` then `place` leave Python's memory as Pyodide's own restore would.
// Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { packed, PAGE } from "../../web/boot/pages.js";
import { opened, readAll } from "../../web/boot/snapshot.js";

const noise = (length) => Uint8Array.from({ length }, (_, i) => (i * 7919) % 251);

// A Blob whose stream has no byte reader (as in a browser without one).
function withoutByob(blob) {
  return {
    size: blob.size,
    slice: (...range) => blob.slice(...range),
    stream: () => ({ getReader: () => { throw new TypeError("no byob"); } }),
  };
}

test("a blob read whole, with a BYOB reader or in 4 MB slices", async () => {
  for (const length of [0, 1, PAGE + 3, (4 << 20) + 5, 9 << 20]) {
    const bytes = noise(length);
    assert.deepEqual(await readAll(new Blob([bytes])), bytes);
    assert.deepEqual(await readAll(withoutByob(new Blob([bytes]))), bytes);
  }
});

test("a blob that ends early is refused", async () => {
  const short = { size: 10, slice: () => new Blob([new Uint8Array(4)]), stream: () => new Blob([new Uint8Array(4)]).stream() };
  await assert.rejects(readAll(short), /cut short/);
});

// A snapshot as Pyodide makes it: 48 bytes of header (byte 4: where the memory begins),
// then `pages` pages of memory, every third page zeros.
function snapshot(pages) {
  const bytes = new Uint8Array(48 + pages * PAGE);
  new DataView(bytes.buffer).setUint32(4, 48, true);
  bytes.fill(5, 8, 48);
  for (let i = 0; i < pages; i++) if (i % 3) bytes.set(noise(PAGE).map((b) => b | 1), 48 + i * PAGE);
  return bytes;
}

test("opened, then placed: the header for Pyodide, the memory as a copy would leave it", async () => {
  const from = snapshot(40);
  const stored = await opened(new Response(new Blob(packed(from))));
  assert.deepEqual(stored.front, from.subarray(0, 48));
  const heap = new Int8Array(48 * PAGE); // Python's memory, longer than the snapshot's
  heap[0] = 1; // a page the snapshot has as zeros, written by Pyodide's start
  heap[45 * PAGE] = 2; // past the snapshot's memory: left alone
  assert.throws(() => stored.restore(heap, new Uint8Array(0)), /not placed/);
  await stored.place(heap);
  stored.restore(heap, new Uint8Array(0));
  assert.deepEqual(new Uint8Array(heap.buffer, 0, 40 * PAGE), from.subarray(48));
  assert.equal(heap[45 * PAGE], 2);
  assert.equal(stored.restore.left, 13); // 14 pages of zeros, all but page 0 (zeroed) never written
});

test("a memory smaller than the snapshot's is refused, not overrun", async () => {
  const stored = await opened(new Response(new Blob(packed(snapshot(8)))));
  await assert.rejects(stored.place(new Int8Array(4 * PAGE)), RangeError);
});
