// A memory snapshot copied page by page, the pages of zeros left alone (issue #28: a warm
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
