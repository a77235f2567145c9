// Share links: the encounter's save text, deflated and base64url-encoded in the
// fragment (#c=…), so it never reaches a server. The browser's own CompressionStream
// does the deflate; reading stops as soon as the text passes the page's transport limit.
const PREFIX = "c=";

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("damaged");
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
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

export async function linkFor(saveText, players = false) {
  const bytes = new TextEncoder().encode(saveText);
  const packed = typeof CompressionStream === "function" ? await pipe(bytes, new CompressionStream("deflate-raw")) : storedDeflate(bytes);
  const url = new URL(window.location.href);
  url.hash = `${players ? "vue=joueurs&" : ""}${PREFIX}${toBase64Url(packed)}`;
  return url.href;
}

// True when the fragment asks for the players' view (#vue=joueurs, with a fight or alone).
export function playersView(hash) {
  return new URLSearchParams(hash.replace(/^#/, "")).get("vue") === "joueurs";
}

// The fragment's parts: {text, players} for a share link, null when there is none;
// throws Error("damaged") or Error("too_big") for a link that cannot be read. `limit`:
// the longest text inflated; `packedLimit`: the longest fragment (compressed), by default
// the same.
export async function readLink(hash, limit, packedLimit = limit) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const data = params.get("c");
  if (data === null) return null;
  if (data.length > packedLimit) throw new Error("too_big");
  let bytes;
  try {
    bytes = fromBase64Url(data);
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
    throw new Error(error.message === "too_big" ? "too_big" : "damaged");
  }
  return { text, players: params.get("vue") === "joueurs" };
}

// The QR code of a link, as SVG built node by node (the library is loaded on first use).
// Returns null when the link is too long for a QR code.
export async function qrSvg(link) {
  const { default: qrcode } = await import("../runtime/qrcode-generator/qrcode.mjs");
  const qr = qrcode(0, "L");
  qr.addData(link, "Byte");
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
