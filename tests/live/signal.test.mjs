// The live table's codes (web/live/signal.js): what an offer or an answer carries survives
// the round trip, the SDP rebuilt holds it, and a damaged or foreign code is refused.
// Run by `node --test tests/live/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { toBase64Url } from "../../web/infra/base64url.js";
import { CodeError, MAX_CODE, PROTOCOL, buildSdp, decode, encode, readSdp, validServer } from "../../web/live/signal.js";

// A non-trickle data-channel offer as Chromium makes it (two mDNS host candidates).
const OFFER = `v=0
o=- 7691890518470589473 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS
m=application 9 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=candidate:2722840585 1 udp 2113937151 ecf17e30-e12e-4ab0-acc4-462e4cafe846.local 54333 typ host generation 0 network-cost 999
a=candidate:2771987641 1 udp 2113942271 1a6dc687-d494-4057-90b6-e310365f5089.local 49826 typ host generation 0 network-cost 999
a=candidate:9 1 tcp 1518280447 192.168.1.4 9 typ host tcptype active generation 0
a=ice-ufrag:MyOY
a=ice-pwd:J45oYcWq/CcOlwe0fH5tTPph
a=ice-options:trickle
a=fingerprint:sha-256 1E:EA:19:09:DB:1D:10:A4:34:AD:EE:C5:D8:54:F1:44:72:2A:0A:31:3D:29:F9:EC:A2:17:71:FD:25:5B:78:8C
a=setup:actpass
a=mid:0
a=sctp-port:5000
a=max-message-size:262144
`.replaceAll("\n", "\r\n");

test("an offer survives the round trip, and is short", () => {
  const ice = readSdp(OFFER);
  assert.equal(ice.candidates.length, 2, "TCP candidates are left out");
  const code = encode({ kind: "offer", invitation: "0a1b2c3d", ice });
  assert.equal(code.length, 154, "115 bytes: two mDNS host candidates");
  assert.match(code, /^[A-Za-z0-9_-]+$/);
  const back = decode(code, "offer");
  assert.deepEqual(back, { kind: "offer", invitation: "0a1b2c3d", ice, server: null, name: "" });
  const sdp = buildSdp(back.ice, "offer");
  assert.deepEqual(readSdp(sdp), ice);
  assert.match(sdp, /a=setup:actpass\r\n/);
  assert.match(sdp, /a=fingerprint:sha-256 1E:EA:19:09:DB:1D:10:A4:34:AD:EE:C5:D8:54:F1:44:72:2A:0A:31:3D:29:F9:EC:A2:17:71:FD:25:5B:78:8C\r\n/);
});

test("addresses of every kind and the STUN server come back as they were", () => {
  const ice = { ufrag: "abcd", pwd: "0123456789abcdefghij+/", fingerprint: "ab".repeat(32), candidates: [
    { type: "host", priority: 2122260223, address: "192.168.1.20", port: 50000 },
    { type: "host", priority: 2122262783, address: "2a01:e0a:1:2:0:0:0:9", port: 443 },
    { type: "srflx", priority: 1686052607, address: "203.0.113.7", port: 61000 },
    { type: "host", priority: 1, address: "phone.local", port: 1 },
  ] };
  const stun = { url: "stun:stun.example.org:3478", user: "", password: "" };
  const back = decode(encode({ kind: "answer", invitation: "ffffffff", ice, server: stun }));
  assert.equal(back.kind, "answer");
  assert.deepEqual(back.server, stun);
  assert.deepEqual(back.ice.candidates.map((c) => c.address), ["192.168.1.20", "2a01:e0a:1:2:0:0:0:9", "203.0.113.7", "phone.local"]);
  assert.deepEqual(back.ice.candidates.map((c) => [c.type, c.priority, c.port]), ice.candidates.map((c) => [c.type, c.priority, c.port]));
  assert.match(buildSdp(back.ice, "answer"), /typ srflx raddr 0\.0\.0\.0 rport 0 generation 0\r\n[^]*a=setup:active\r\n/);
});

test("a damaged, foreign, wrong-kind or newer code is refused with its reason", () => {
  const code = encode({ kind: "offer", invitation: "01020304", ice: readSdp(OFFER) });
  const reason = (text, kind) => {
    try {
      decode(text, kind);
    } catch (error) {
      assert.ok(error instanceof CodeError);
      return error.reason;
    }
    return "read";
  };
  assert.equal(reason(code, "offer"), "read");
  assert.equal(reason(code, "answer"), "kind");
  assert.equal(reason(code.slice(0, -3), "offer"), "damaged");
  assert.equal(reason(`${code}AAAA`, "offer"), "damaged");
  assert.equal(reason("", "offer"), "damaged");
  assert.equal(reason("héllo", "offer"), "damaged");
  assert.equal(reason("A".repeat(MAX_CODE + 1), "offer"), "damaged");
  const bytes = Uint8Array.from(atob(code.replaceAll("-", "+").replaceAll("_", "/").padEnd(Math.ceil(code.length / 4) * 4, "=")), (c) => c.charCodeAt(0));
  bytes[0] = PROTOCOL + 1;
  assert.equal(reason(toBase64Url(bytes), "offer"), "version");
  // A line break smuggled into the ICE password never reaches the SDP.
  const evil = encode({ kind: "offer", invitation: "01020304", ice: { ...readSdp(OFFER), pwd: "abcdefghijklmnopqrstuv\r\na=x" } });
  assert.equal(reason(evil, "offer"), "damaged");
});

// An answer without a name (a player who typed none), from OFFER's ICE: the same bytes as
// before answers could carry one, but for the protocol's version.
const OLD_ANSWER = "BgEKGyw9BE15T1kYSjQ1b1ljV3EvQ2NPbHdlMGZINXRUUHBoHuoZCdsdEKQ0re7F2FTxRHIqCjE9Kfnsohdx_SVbeIwCAn4AHv_UPezxfjDhLkqwrMRGLkyv6EYCfgAy_8KiGm3Gh9SUQFeQtuMQNl9QiQ";

test("an answer carries the name its player gave the phone; one without a name is as short as before", () => {
  const ice = readSdp(OFFER);
  const old = decode(OLD_ANSWER, "answer");
  assert.deepEqual(old, { kind: "answer", invitation: "0a1b2c3d", ice, server: null, name: "" });
  assert.equal(encode({ kind: "answer", invitation: "0a1b2c3d", ice }), OLD_ANSWER, "no name: no byte more");
  const named = encode({ kind: "answer", invitation: "0a1b2c3d", ice, name: "Camille" });
  assert.equal(named.length, 164, "115 bytes and the name's 1 + 7: docs/LIVE-TABLE.md");
  assert.deepEqual(decode(named, "answer"), { ...old, name: "Camille" });
  const long = encode({ kind: "answer", invitation: "0a1b2c3d", ice, name: "Éléonore-Marguerite 🎲🎲🎲" });
  assert.equal(decode(long, "answer").name, "Éléonore-Marguerite 🎲🎲🎲");
  assert.ok(long.length < MAX_CODE);
  // Half a name (its length says more than the code holds) is a damaged code.
  const bytes = Buffer.from(named, "base64url");
  assert.throws(() => decode(toBase64Url(bytes.subarray(0, bytes.length - 2)), "answer"), (e) => e instanceof CodeError && e.reason === "damaged");
});

// A TURN server as docs/LIVE-TABLE.md « At a distance » sets it up: its address, the group's user
// name and a password of 16 characters.
const TURN = { url: "turn:turn.example.org:3478", user: "riposte", password: "0123456789abcdef" };

test("an offer carries a TURN server with its user name and password, and stays short", () => {
  const ice = readSdp(OFFER);
  // Through a TURN server a phone gathers two more candidates: its public address, the relay's.
  ice.candidates.push({ type: "srflx", priority: 1686052607, address: "203.0.113.7", port: 61000 },
    { type: "relay", priority: 41885439, address: "198.51.100.3", port: 49200 });
  const code = encode({ kind: "offer", invitation: "0a1b2c3d", ice, server: TURN });
  assert.equal(code.length, 252, "189 bytes: docs/LIVE-TABLE.md « At a distance »");
  const back = decode(code, "offer");
  assert.deepEqual(back.server, TURN);
  assert.deepEqual(back.ice, ice);
  assert.match(buildSdp(back.ice, "offer"), /typ relay raddr 0\.0\.0\.0 rport 0/);
  // The longest a page makes: 8 mDNS candidates, a server's address, user and password at their longest.
  const longest = { url: `turns:${"a".repeat(200)}:65535?transport=tcp`, user: "u".repeat(64), password: "p".repeat(64) };
  assert.ok(validServer(longest));
  const many = { ...readSdp(OFFER), candidates: Array(8).fill(readSdp(OFFER).candidates[0]) };
  assert.ok(encode({ kind: "offer", invitation: "0a1b2c3d", ice: many, server: longest }).length <= MAX_CODE);
});

test("a server is STUN alone or TURN with a user name and a password, else refused", () => {
  assert.ok(validServer({ url: "stun:stun.example.org", user: "", password: "" }));
  assert.ok(validServer(TURN));
  assert.ok(validServer({ ...TURN, url: "turns:turn.example.org:5349?transport=tcp" }));
  for (const wrong of [
    { ...TURN, user: "" }, { ...TURN, password: "" }, { ...TURN, password: "é" }, { ...TURN, user: "x".repeat(65) },
    { ...TURN, url: "turn:x:0" }, { ...TURN, url: "turn:x:65536" }, { ...TURN, url: "turn:x?transport=sctp" },
    { url: "stun:stun.example.org", user: "u", password: "p" }, { ...TURN, url: "http://turn.example.org" }, null, "turn:x",
  ]) assert.equal(validServer(wrong), false, JSON.stringify(wrong));
  // A code whose TURN server is not one (a forged password with a line break) is damaged.
  const forged = encode({ kind: "offer", invitation: "0a1b2c3d", ice: readSdp(OFFER), server: { ...TURN, password: "a\r\nb" } });
  assert.throws(() => decode(forged, "offer"), (e) => e instanceof CodeError && e.reason === "damaged");
});
