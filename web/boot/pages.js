// A memory snapshot copied page by page, the pages of zeros left alone (a warm
// visit's memory, docs/PERFORMANCE.md). Memory the browser has just given (a new
// ArrayBuffer, or Python's memory grown to the snapshot's size) reads as zeros and takes no
// resident memory until written; `TypedArray.set` writes every byte, zeros too, so a restore
// made Python's 30 MB wholly resident where 13.7 MB of it is pages of zeros. Reading a page
// never written costs no memory (Linux maps its one page of zeros).
export const PAGE = 4096;
const WORDS = PAGE / 4;

function zero(words, from) {
  for (let i = from, end = from + WORDS; i < end; i++) if (words[i] !== 0) return false;
  return true;
}

// Copies the bytes `from` into `into` (as long or longer), as `into.set(from)` would, but
// writes no 4 KiB page that is zero in both. Returns how many pages it left alone.
export function copyPages(into, from) {
  if (into.byteOffset % 4 || from.byteOffset % 4 || into.length < from.length) {
    into.set(from); // a view the words cannot read (or a copy that must throw): byte by byte
    return 0;
  }
  const whole = from.length - (from.length % PAGE);
  const source = new Int32Array(from.buffer, from.byteOffset, whole / 4);
  const target = new Int32Array(into.buffer, into.byteOffset, whole / 4);
  let left = 0;
  for (let at = 0; at < source.length; at += WORDS) {
    if (zero(source, at) && zero(target, at)) {
      left++;
      continue;
    }
    target.set(source.subarray(at, at + WORDS), at);
  }
  into.set(from.subarray(whole), whole);
  return left;
}

// Pyodide's restore, `API.restoreSnapshot`, ends with `Module.HEAP8.set(snapshot)`; the build
// (tools/build_site.py, `vendor_pyodide`) makes it call `globalThis.riposteRestore` instead
// when there is one. This is it: the pages it left alone are counted, for the tests.
export function restore(heap, snapshot) {
  restore.left = copyPages(heap, snapshot);
}

// The snapshot as Cache Storage keeps it (a warm visit reads less), its pages of
// zeros left out (13.7 MB of 31.5): "RSP1", the snapshot's length (32 bits, little-endian), a
// bit per 4 KiB page (set: the page is kept), then the pages kept, in order, the last one
// padded to a whole page. Anything else is not a snapshot of this build.
const MAGIC = 0x31505352; // "RSP1" read little-endian
const FRONT = 8; // the magic and the length

function zeroBytes(bytes) {
  for (const byte of bytes) if (byte !== 0) return false;
  return true;
}

// Whether the head says page `i` is kept.
const marked = (head, i) => (head[FRONT + (i >> 3)] & (1 << (i & 7))) !== 0;

// What the first 8 bytes of a stored snapshot say: the snapshot's length, and where its
// pages begin (after the bitmap); throws if they are not a stored snapshot's.
function front(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < FRONT || view.getUint32(0, true) !== MAGIC) throw new Error("not a snapshot of this build");
  const length = view.getUint32(4, true);
  return { length, start: FRONT + Math.ceil(Math.ceil(length / PAGE) / 8) };
}

// The stored form of `snapshot` (a Uint8Array), in parts for a Blob: its head, then each run
// of pages kept, as views of `snapshot` (nothing copied until the Blob is made).
export function packed(snapshot) {
  const count = Math.ceil(snapshot.length / PAGE);
  const head = new Uint8Array(FRONT + Math.ceil(count / 8));
  const view = new DataView(head.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, snapshot.length, true);
  const whole = Math.floor(snapshot.length / PAGE);
  const words = snapshot.byteOffset % 4 ? null : new Int32Array(snapshot.buffer, snapshot.byteOffset, (whole * PAGE) / 4);
  const parts = [head];
  let run = -1; // the first page of the run being kept
  const empty = (i) => (words && i < whole ? zero(words, i * WORDS) : zeroBytes(snapshot.subarray(i * PAGE, (i + 1) * PAGE)));
  for (let i = 0; i <= count; i++) {
    const kept = i < count && !empty(i);
    if (kept) head[FRONT + (i >> 3)] |= 1 << (i & 7);
    if (kept && run < 0) run = i;
    if (!kept && run >= 0) {
      parts.push(snapshot.subarray(run * PAGE, i * PAGE));
      run = -1;
    }
  }
  const tail = snapshot.length % PAGE;
  if (tail && marked(head, count - 1)) parts.push(new Uint8Array(PAGE - tail));
  return parts;
}

// How long the head of a stored snapshot is, from its first 8 bytes; throws if they are not
// a stored snapshot's.
export function headLength(bytes) {
  return front(bytes).start;
}

// What a stored snapshot's head says: the snapshot's length and the pages kept (their
// numbers, in order); throws unless the stored form is `size` bytes long, as it says.
export function contents(head, size) {
  const { length, start } = front(head);
  if (head.byteLength < start) throw new Error("a snapshot cut short");
  const kept = [];
  for (let i = 0, count = Math.ceil(length / PAGE); i < count; i++) if (marked(head, i)) kept.push(i);
  if (size !== start + kept.length * PAGE) throw new Error("a snapshot cut short");
  return { length, kept, start };
}

// Puts `pages`, stored pages one after the other, where `numbers` says in `into` (the
// snapshot, `into.length` long: the last page's padding is dropped).
export function place(into, pages, numbers) {
  numbers.forEach((n, k) => {
    const at = n * PAGE;
    into.set(pages.subarray(k * PAGE, k * PAGE + Math.min(PAGE, into.length - at)), at);
  });
}
