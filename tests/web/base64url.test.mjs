// The app's base64url (web/infra/base64url.js): what Node's own base64url writes, for any
// bytes (a share link of 100 KB too), back to the same bytes; a text that is not base64url
// is refused, never read as other bytes.
// Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { fromBase64Url, toBase64Url } from "../../web/infra/base64url.js";

test("bytes of every length, as Node writes them, and back", () => {
  for (const length of [0, 1, 2, 3, 4, 5, 62, 63, 64, 65, 0x8000 - 1, 0x8000, 0x8000 + 1, 100_000]) {
    const bytes = new Uint8Array(randomBytes(length));
    const text = toBase64Url(bytes);
    assert.equal(text, Buffer.from(bytes).toString("base64url"), `length ${length}`);
    assert.deepEqual(fromBase64Url(text), bytes);
  }
  assert.equal(toBase64Url(Uint8Array.from([0xfb, 0xff, 0xbf])), "-_-_");
});

test("a text that is not base64url is damaged", () => {
  for (const text of ["a", "abcde", "ab+c", "ab/c", "abc=", "ab c", "é", "AAAA="]) {
    assert.throws(() => fromBase64Url(text), { message: "damaged" }, text);
  }
});
