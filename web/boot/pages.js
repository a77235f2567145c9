// A memory snapshot stored and restored page by page, its pages of zeros left out (issue #28:
// a warm visit's memory and time, docs/PERFORMANCE.md). Memory the browser has just given
// (Python's memory as a restored start finds it) reads as zeros and takes no resident memory
// until written; of Python's 30 MB in a snapshot, 13.7 MB are pages of zeros, which are
// neither stored, read nor written.
//
// Pyodide's snapshot is a front (its header: a magic number, at byte 4 where Python's memory
// begins, a JSON text, padded to 16 bytes) and then Python's memory, whole. Its stored form:
// "RSP2", the snapshot's length and its front's (32 bits each, little-endian), a bit per
// 4 KiB page of Python's memory (set: the page is kept), the front, then the pages kept, in
// order, the last one padded to a whole page. Anything else is not a snapshot of this build.
export const PAGE = 4096;
const WORDS = PAGE / 4;
const MAGIC = 0x32505352; // "RSP2" read little-endian
export const FIRST = 12; // the magic and the two lengths

function zero(words, from) {
  for (let i = from, end = from + WORDS; i < end; i++) if (words[i] !== 0) return false;
  return true;
}

function zeroBytes(bytes) {
  for (const byte of bytes) if (byte !== 0) return false;
  return true;
}

// Whether the bitmap `bits` says page `i` is kept.
const marked = (bits, i) => (bits[i >> 3] & (1 << (i & 7))) !== 0;

// What the first 12 bytes of a stored snapshot say (throws if they are not a stored
// snapshot's): the snapshot's length, its front's, how many pages Python's memory has, and
// where the bitmap, the front and the pages begin.
function first(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < FIRST || view.getUint32(0, true) !== MAGIC) throw new Error("not a snapshot of this build");
  const length = view.getUint32(4, true);
  const front = view.getUint32(8, true);
  if (front > length || front % 4) throw new Error("not a snapshot of this build");
  const count = Math.ceil((length - front) / PAGE);
  const bitmap = FIRST + Math.ceil(count / 8);
  return { length, front, count, bitmap, start: bitmap + front };
}

// The stored form of `snapshot` (a Uint8Array, Pyodide's), in parts for a Blob: its head,
// its front, then each run of pages kept, as views of `snapshot` (nothing copied until the
// Blob is made).
export function packed(snapshot) {
  if (snapshot.byteOffset % 4 || snapshot.length < 8) throw new Error("not a Pyodide snapshot");
  const front = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true); // where Python's memory begins
  if (front > snapshot.length || front % 4) throw new Error("not a Pyodide snapshot");
  const memory = snapshot.subarray(front);
  const count = Math.ceil(memory.length / PAGE);
  const head = new Uint8Array(FIRST + Math.ceil(count / 8));
  const view = new DataView(head.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, snapshot.length, true);
  view.setUint32(8, front, true);
  const bits = head.subarray(FIRST);
  const whole = Math.floor(memory.length / PAGE);
  const words = new Int32Array(memory.buffer, memory.byteOffset, (whole * PAGE) / 4);
  const parts = [head, snapshot.subarray(0, front)];
  let run = -1; // the first page of the run being kept
  const empty = (i) => (i < whole ? zero(words, i * WORDS) : zeroBytes(memory.subarray(i * PAGE)));
  for (let i = 0; i <= count; i++) {
    const kept = i < count && !empty(i);
    if (kept) bits[i >> 3] |= 1 << (i & 7);
    if (kept && run < 0) run = i;
    if (!kept && run >= 0) {
      parts.push(memory.subarray(run * PAGE, i * PAGE));
      run = -1;
    }
  }
  const tail = memory.length % PAGE;
  if (tail && marked(bits, count - 1)) parts.push(new Uint8Array(PAGE - tail));
  return parts;
}

// How long the head of a stored snapshot is (its bitmap and its front included), from its
// first 12 bytes; throws if they are not a stored snapshot's.
export function headLength(bytes) {
  return first(bytes).start;
}

// What a stored snapshot's head says: its front (Pyodide's header, what its loader reads),
// the length of Python's memory, the pages kept (their numbers, in order), and where they
// begin; throws unless the stored form is `size` bytes long, as it says.
export function contents(head, size) {
  const { length, front, count, bitmap, start } = first(head);
  if (head.byteLength < start) throw new Error("a snapshot cut short");
  const bits = head.subarray(FIRST, bitmap);
  const kept = [];
  for (let i = 0; i < count; i++) if (marked(bits, i)) kept.push(i);
  if (size !== start + kept.length * PAGE) throw new Error("a snapshot cut short");
  return { front: head.subarray(bitmap, start), memory: length - front, kept, start };
}

// Puts `pages`, stored pages one after the other, where `numbers` says in `into` (Python's
// memory, `length` bytes of it: the last page's padding is dropped).
export function place(into, pages, numbers, length = into.length) {
  numbers.forEach((n, k) => {
    const at = n * PAGE;
    into.set(pages.subarray(k * PAGE, k * PAGE + Math.min(PAGE, length - at)), at);
  });
}

// Zeroes every page of `into`'s first `length` bytes that is not in `kept` (sorted) and not
// zero already: what Pyodide's start wrote there before the restore. A page never written is
// read, not written, and stays out of resident memory. Returns how many pages it left alone.
export function clear(into, kept, length) {
  const whole = Math.floor(length / PAGE);
  const words = new Int32Array(into.buffer, into.byteOffset, (whole * PAGE) / 4);
  let left = 0;
  for (let i = 0, k = 0, count = Math.ceil(length / PAGE); i < count; i++) {
    if (kept[k] === i) {
      k++;
      continue;
    }
    const page = into.subarray(i * PAGE, Math.min((i + 1) * PAGE, length));
    if (i < whole ? zero(words, i * WORDS) : zeroBytes(page)) left++;
    else page.fill(0);
  }
  return left;
}
