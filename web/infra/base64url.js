// Bytes as base64url text (RFC 4648, section 5, without padding) and back: the one
// codec of the app's share links (infra/share-links.js) and the live table's codes
// (live/signal.js). No DOM here (tests/web/base64url.test.mjs runs it in Node).

// A long array is passed to String.fromCharCode in slices (its arguments are limited).
const SLICE = 0x8000;

export function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += SLICE) binary += String.fromCharCode(...bytes.subarray(i, i + SLICE));
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

// The bytes of a base64url text; throws Error("damaged") for a text that is not one (a
// letter outside the alphabet, padding, a length that no bytes give).
export function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Error("damaged");
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
