// Share links: the fight in the fragment, so it never reaches a server. Today's links
// (#z=…) carry the engine's compact log (engine/link.py), deflated and base64url-encoded;
// their QR code carries the same bytes as decimal digits (#n=…), which a QR code's numeric
// mode packs at 3.3 bits a digit against 8 bits a base64 letter: a smaller code. Older
// links (#c=…) carry the save text itself; all three open. The browser's own
// CompressionStream does the deflate; reading stops as soon as the text passes the page's
// transport limit.
import { fromBase64Url, toBase64Url } from "./base64url.js";

const PREFIX = "z=";

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

// Without CompressionStream (Safari before 16.4, Firefox before 113): the same format with
// stored blocks (RFC 1951, 3.2.4), uncompressed, so longer, read as any link (docs/BROWSERS.md).
function storedDeflate(bytes) {
  const size = 0xffff;
  const blocks = Math.max(1, Math.ceil(bytes.length / size));
  const out = new Uint8Array(bytes.length + 5 * blocks);
  let at = 0;
  for (let i = 0; i < blocks; i++) {
    const part = bytes.subarray(i * size, (i + 1) * size);
    out.set([i === blocks - 1 ? 1 : 0, part.length & 0xff, part.length >> 8, ~part.length & 0xff, (~part.length >> 8) & 0xff], at);
    out.set(part, at + 5);
    at += 5 + part.length;
  }
  return out;
}

// Bytes as decimal digits, 7 bytes (56 bits) to 17 digits; a last group of k bytes to
// DIGITS[k] digits. Throws Error("damaged") for digits that are not such a text.
const DIGITS = [0, 3, 5, 8, 10, 13, 15, 17];

export function toDigits(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 7) {
    const group = bytes.subarray(i, i + 7);
    let n = 0n;
    for (const b of group) n = (n << 8n) | BigInt(b);
    out += n.toString().padStart(DIGITS[group.length], "0");
  }
  return out;
}

export function fromDigits(text) {
  if (!/^[0-9]*$/.test(text)) throw new Error("damaged");
  const whole = Math.floor(text.length / 17);
  const last = DIGITS.indexOf(text.length - 17 * whole);
  if (last < 0) throw new Error("damaged");
  const out = new Uint8Array(whole * 7 + last);
  for (let g = 0, at = 0; at < text.length; g++) {
    const size = at + 17 <= text.length ? 7 : last;
    let n = BigInt(text.slice(at, at + DIGITS[size]));
    if (n >> BigInt(8 * size)) throw new Error("damaged");
    for (let b = size - 1; b >= 0; b--, n >>= 8n) out[g * 7 + b] = Number(n & 255n);
    at += DIGITS[size];
  }
  return out;
}

// The link of a fight, from its text as the engine writes it for a link (op "link").
export async function linkFor(saveText, players = false) {
  const bytes = new TextEncoder().encode(saveText);
  const packed = typeof CompressionStream === "function" ? await pipe(bytes, new CompressionStream("deflate-raw")) : storedDeflate(bytes);
  const url = new URL(window.location.href);
  url.hash = `${players ? "vue=joueurs&" : ""}${PREFIX}${toBase64Url(packed)}`;
  return url.href;
}

const KEYS = ["z", "n", "c"]; // the fragment's key of a fight: deflated (z), as digits (n), older (c)

// True when the fragment asks for the players' view (#vue=joueurs, with a fight or alone).
export function playersView(hash) {
  return new URLSearchParams(hash.replace(/^#/, "")).get("vue") === "joueurs";
}

// True when the fragment holds something Riposte takes: a fight (a share link) or the players' view.
export function holdsLink(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  return KEYS.some((k) => params.has(k)) || params.get("vue") === "joueurs";
}

// The fragment's parts: {text, players} for a share link, null when there is none;
// throws Error("damaged") or Error("too_big") for a link that cannot be read. `limit`:
// the longest text inflated; `packedLimit`: the longest fragment (compressed), by default
// the same.
export async function readLink(hash, limit, packedLimit = limit) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const key = KEYS.find((k) => params.has(k));
  if (key === undefined) return null;
  const data = params.get(key);
  if (data.length > (key === "n" ? 2.5 : 1) * packedLimit) throw new Error("too_big");
  let bytes;
  try {
    bytes = key === "n" ? fromDigits(data) : fromBase64Url(data);
  } catch {
    throw new Error("damaged");
  }
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.length > limit) {
        reader.cancel();
        throw new Error("too_big");
      }
    }
    text += decoder.decode();
  } catch (error) {
    throw new Error(error.message === "too_big" ? "too_big" : "damaged", { cause: error });
  }
  return { text, players: params.get("vue") === "joueurs" };
}

// What the QR code of a link holds: the same link with its bytes as digits (#n=…), the
// address in byte mode and the digits in numeric mode. [[text, mode], ...]
export function qrSegments(link) {
  const url = new URL(link);
  const params = new URLSearchParams(url.hash.replace(/^#/, ""));
  const data = params.get("z");
  if (data === null) return [[link, "Byte"]];
  const head = `${url.href.slice(0, url.href.length - url.hash.length)}#${params.get("vue") === "joueurs" ? "vue=joueurs&" : ""}n=`;
  return [[head, "Byte"], [toDigits(fromBase64Url(data)), "Numeric"]];
}

// The QR code of `link` drawn in `place`, an image named `alt`, unless `still()` says
// the link shown there changed while the code was made (nothing drawn when it is too long).
export async function showQr(place, link, alt, still = () => true) {
  const svg = await qrSvg(link);
  if (!svg || !still()) return;
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", alt);
  place.replaceChildren(svg);
}

// The QR code of a link, as SVG built node by node (the library is loaded on first use).
// Returns null when the link is too long for a QR code. The svg's data-version: the QR
// version (its size: 17 + 4 × version modules a side).
export async function qrSvg(link) {
  const { default: qrcode } = await import("../../runtime/qrcode-generator/qrcode.mjs");
  const qr = qrcode(0, "L");
  for (const [text, mode] of qrSegments(link)) qr.addData(text, mode);
  try {
    qr.make();
  } catch {
    return null; // over a version-40 code's capacity
  }
  const n = qr.getModuleCount();
  const quiet = 4;
  let d = "";
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${c + quiet} ${r + quiet}h1v1h-1z`;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${n + 2 * quiet} ${n + 2 * quiet}`);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.dataset.version = String((n - 17) / 4);
  const background = document.createElementNS(ns, "rect");
  background.setAttribute("width", "100%");
  background.setAttribute("height", "100%");
  background.setAttribute("fill", "#fff");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(background, path);
  return svg;
}
