// Compact signalling for the live table: an offer or an answer carries only
// what the far side needs to connect, not the whole SDP: the protocol version, the
// invitation's id, the ICE user fragment and password, the DTLS sha-256 fingerprint and
// the candidates (UDP only), packed in bytes and written base64url. The far side rebuilds
// a data-channel SDP from them (buildSdp). Two mDNS host candidates make an offer of 115
// bytes, 154 characters: a link of 184 characters with the site's address here, a QR code
// of version 8 (level L). An offer may carry the server the game master set, STUN or TURN
// (a TURN server with its user name and password, which every player's phone needs to use
// it): with turn:host.example.org:3478, a user and a password of 16 characters, and the
// server's two more candidates, about 190 bytes, 252 characters. An answer may carry the
// name its player gave the phone (« Nom de ce téléphone »: engine/seating.py judges it),
// flagged, so that an answer without one reads as short as before.
// No DOM, no RTCPeerConnection here: pure functions (tests/live/signal.test.mjs).
import { fromBase64Url, toBase64Url } from "../infra/base64url.js";

// The live table's protocol version: in every code and every message. A code or a message
// of another version is refused ("mettez Riposte à jour"), never half understood: a message
// that gains a field is a new version, since each side refuses a field it does not know.
export const PROTOCOL = 6;
// The longest code read (characters): an offer is about 154, 252 with a TURN server; the
// longest a page makes (8 candidates, a server's address, user and password at their
// longest) is under 900. A page never decodes more.
export const MAX_CODE = 900;

const KINDS = { offer: 0, answer: 1 };
const TYPES = ["host", "srflx", "prflx", "relay"];
const ADDRESS = { ipv4: 0, ipv6: 1, mdns: 2, name: 3 };
const MDNS = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/;
// A STUN server as the settings take it: stun:host or stun:host:port (a port from 1 to
// 65535), nothing else; what a code carries (web/live/rtc.js), what storage keeps.
const STUN = /^stuns?:[A-Za-z0-9.-]{1,200}(:\d{1,5})?$/;

function validStun(value) {
  return typeof value === "string" && STUN.test(value) && validPort(value);
}

// A TURN server's address: turn:host, turns:host (TLS), a port, and the transport (UDP or
// TCP) as RTCPeerConnection takes it; its user name and password (long-term credentials,
// RFC 8489): printable ASCII, 64 characters at most each.
const TURN = /^turns?:[A-Za-z0-9.-]{1,200}(:\d{1,5})?(\?transport=(udp|tcp))?$/;
const TURN_LOGIN = /^[\x20-\x7e]{1,64}$/;

function validPort(url) {
  const port = /:(\d+)$/.exec(url.replace(/^(stuns?|turns?):/, "").replace(/\?.*$/, ""));
  return !port || (Number(port[1]) >= 1 && Number(port[1]) <= 65535);
}

// The server the game master set, as the settings, storage and codes take it: {url, user,
// password}, a STUN server with neither user nor password ("" each), a TURN server with both.
export function validServer(server) {
  if (!server || typeof server !== "object") return false;
  const { url, user, password } = server;
  if (validStun(url)) return user === "" && password === "";
  return typeof url === "string" && TURN.test(url) && validPort(url)
    && typeof user === "string" && TURN_LOGIN.test(user) && typeof password === "string" && TURN_LOGIN.test(password);
}

// Whether `server` (a validServer) is a TURN server: a relay, which sees the phones'
// encrypted traffic when they cannot reach each other directly (STUN sees only addresses).
export function isTurn(server) {
  return /^turns?:/.test(server?.url ?? "");
}
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

// A code that cannot be read: `reason` is "damaged" (not a Riposte code, or cut short),
// "version" (another version of Riposte made it) or "kind" (an offer where an answer is
// expected, or the reverse).
export class CodeError extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

// --- SDP: the few lines that matter, read and written ------------------------------------

// {ufrag, pwd, fingerprint (64 hex digits), candidates: [{type, priority, address, port}]}
// from a local description's SDP (non-trickle: every candidate is in it).
export function readSdp(sdp) {
  const line = (name) => sdp.match(new RegExp(`^a=${name}:(.*)$`, "m"))?.[1]?.trim();
  const ufrag = line("ice-ufrag");
  const pwd = line("ice-pwd");
  const fingerprint = /^sha-256 ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})$/i.exec(line("fingerprint") ?? "")?.[1];
  if (!ufrag || !pwd || !fingerprint) throw new CodeError("damaged");
  const candidates = [];
  for (const [, text] of sdp.matchAll(/^a=candidate:(.*)$/gm)) {
    const parts = text.trim().split(/\s+/);
    const [, component, protocol, priority, address, port, typ, type] = parts;
    if (component !== "1" || protocol.toLowerCase() !== "udp" || typ !== "typ" || !TYPES.includes(type)) continue;
    candidates.push({ type, priority: Number(priority) >>> 0, address, port: Number(port) });
  }
  return { ufrag, pwd, fingerprint: fingerprint.replaceAll(":", "").toLowerCase(), candidates };
}

// The SDP of a data channel from what a code carries. `kind`: "offer" (the game master's,
// DTLS role actpass) or "answer" (the player's, role active).
export function buildSdp({ ufrag, pwd, fingerprint, candidates }, kind) {
  const colons = fingerprint.toUpperCase().match(/../g).join(":");
  const lines = ["v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0", "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"];
  candidates.forEach((c, i) => {
    const related = c.type === "host" ? "" : " raddr 0.0.0.0 rport 0";
    lines.push(`a=candidate:${i + 1} 1 udp ${c.priority} ${c.address} ${c.port} typ ${c.type}${related} generation 0`);
  });
  lines.push("a=end-of-candidates", `a=ice-ufrag:${ufrag}`, `a=ice-pwd:${pwd}`, `a=fingerprint:sha-256 ${colons}`,
    `a=setup:${kind === "offer" ? "actpass" : "active"}`, "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144");
  return `${lines.join("\r\n")}\r\n`;
}

// --- bytes -------------------------------------------------------------------------------

class Writer {
  constructor() {
    this.bytes = [];
  }

  u8(n) {
    this.bytes.push(n & 0xff);
  }

  u16(n) {
    this.u8(n >> 8);
    this.u8(n);
  }

  u32(n) {
    this.u16(n >>> 16);
    this.u16(n & 0xffff);
  }

  raw(bytes) {
    for (const b of bytes) this.u8(b);
  }

  text(s) {
    const bytes = new TextEncoder().encode(s);
    if (bytes.length > 255) throw new CodeError("damaged");
    this.u8(bytes.length);
    this.raw(bytes);
  }
}

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.at = 0;
  }

  take(n) {
    if (this.at + n > this.bytes.length) throw new CodeError("damaged");
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  u8() {
    return this.take(1)[0];
  }

  u16() {
    const [a, b] = this.take(2);
    return (a << 8) | b;
  }

  u32() {
    return ((this.u16() << 16) >>> 0) + this.u16();
  }

  text() {
    return new TextDecoder("utf-8", { fatal: true }).decode(this.take(this.u8()));
  }
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text) => Uint8Array.from(text.match(/../g) ?? [], (p) => Number.parseInt(p, 16));

function writeAddress(w, address) {
  const v4 = IPV4.exec(address);
  const mdns = MDNS.exec(address.toLowerCase());
  if (v4 && v4.slice(1).every((p) => Number(p) <= 255)) return [ADDRESS.ipv4, () => w.raw(v4.slice(1).map(Number))];
  if (mdns) return [ADDRESS.mdns, () => w.raw(unhex(mdns.slice(1).join("")))];
  if (address.includes(":")) {
    const bytes = ipv6Bytes(address);
    if (bytes) return [ADDRESS.ipv6, () => w.raw(bytes)];
  }
  return [ADDRESS.name, () => w.text(address)];
}

function ipv6Bytes(address) {
  const [head, tail, extra] = address.split("::");
  if (extra !== undefined) return null;
  const groups = (s) => (s ? s.split(":") : []);
  const a = groups(head);
  const b = groups(tail);
  const all = tail === undefined ? a : [...a, ...Array(8 - a.length - b.length).fill("0"), ...b];
  if (all.length !== 8 || !all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  return all.flatMap((g) => [Number.parseInt(g, 16) >> 8, Number.parseInt(g, 16) & 0xff]);
}

function readAddress(r, kind) {
  if (kind === ADDRESS.ipv4) return Array.from(r.take(4)).join(".");
  if (kind === ADDRESS.ipv6) {
    const b = r.take(16);
    return Array.from({ length: 8 }, (_, i) => ((b[2 * i] << 8) | b[2 * i + 1]).toString(16)).join(":");
  }
  if (kind === ADDRESS.mdns) {
    const h = hex(r.take(16));
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}.local`;
  }
  return r.text();
}

// --- codes -------------------------------------------------------------------------------

// A code: `kind` "offer" or "answer"; `invitation`: 8 hex digits; `ice`: readSdp's
// answer; `server`: the optional STUN or TURN server the game master set (validServer, or
// null when none), carried in the offer so that the player's phone may use the same one
// (once its user agreed: web/live/guest.js); `name`: the name the player gave their phone
// ("" when none), carried in the answer.
export function encode({ kind, invitation, ice, server = null, name = "" }) {
  const w = new Writer();
  w.u8(PROTOCOL);
  w.u8(KINDS[kind] | (server ? 2 : 0) | (name ? 4 : 0));
  w.raw(unhex(invitation));
  w.text(ice.ufrag);
  w.text(ice.pwd);
  w.raw(unhex(ice.fingerprint));
  const candidates = ice.candidates.slice(0, 8);
  w.u8(candidates.length);
  for (const c of candidates) {
    const [addressKind, writeIt] = writeAddress(w, c.address);
    w.u8(addressKind | (TYPES.indexOf(c.type) << 2));
    w.u32(c.priority);
    w.u16(c.port);
    writeIt();
  }
  if (server) {
    w.text(server.url);
    if (isTurn(server)) {
      w.text(server.user);
      w.text(server.password);
    }
  }
  if (name) w.text(name);
  return toBase64Url(Uint8Array.from(w.bytes));
}

// The words' key for a code `decode` refused (`error`): one of another version (« mettez
// Riposte à jour »), one of the other kind (`kind`), else a damaged one (`damaged`).
export function codeRefusal(error, kind, damaged) {
  return error?.reason === "version" ? "liveUpdate" : error?.reason === "kind" ? kind : damaged;
}

// A code of `kind` decoded, or null when it is none (damaged, of another version or kind)
// or, with `from`, not made by the phone of that fingerprint: a code passed on by another
// phone is taken only when it is its maker's own (the DTLS handshake proves the rest).
export function decoded(code, kind, from = null) {
  try {
    const read = decode(code, kind);
    return from === null || read.ice.fingerprint === from ? read : null;
  } catch {
    return null;
  }
}

// What a code carries (as encode takes it), or CodeError. `expected`: the kind this page
// waits for; a code of the other kind is refused with reason "kind".
export function decode(code, expected) {
  const text = String(code ?? "").trim();
  if (text.length === 0 || text.length > MAX_CODE) throw new CodeError("damaged");
  let bytes;
  try {
    bytes = fromBase64Url(text);
  } catch {
    throw new CodeError("damaged");
  }
  const r = new Reader(bytes);
  try {
    if (r.u8() !== PROTOCOL) throw new CodeError("version");
    const flags = r.u8();
    const kind = flags & 1 ? "answer" : "offer";
    if (flags & ~7) throw new CodeError("damaged");
    if (expected && kind !== expected) throw new CodeError("kind");
    const invitation = hex(r.take(4));
    const ufrag = r.text();
    const pwd = r.text();
    const fingerprint = hex(r.take(32));
    const candidates = [];
    for (let n = r.u8(); n > 0; n--) {
      const flag = r.u8();
      const priority = r.u32();
      const port = r.u16();
      candidates.push({ type: TYPES[(flag >> 2) & 3], priority, port, address: readAddress(r, flag & 3) });
    }
    let server = null;
    if (flags & 2) {
      const url = r.text();
      server = /^turns?:/.test(url) ? { url, user: r.text(), password: r.text() } : { url, user: "", password: "" };
      if (!validServer(server)) throw new CodeError("damaged");
    }
    const name = flags & 4 ? r.text() : "";
    if (r.at !== r.bytes.length) throw new CodeError("damaged");
    // What goes into the SDP: ICE's own alphabet only (RFC 8839), no line break smuggled in.
    const safe = /^[A-Za-z0-9+/]{4,256}$/;
    if (!safe.test(ufrag) || !safe.test(pwd) || !candidates.every((c) => /^[A-Za-z0-9.:-]{1,253}$/.test(c.address))) {
      throw new CodeError("damaged");
    }
    return { kind, invitation, ice: { ufrag, pwd, fingerprint, candidates }, server, name };
  } catch (error) {
    throw error instanceof CodeError ? error : new CodeError("damaged");
  }
}
