// The WebRTC side of the live table: RTCPeerConnections made with this
// phone's certificate (web/live/identity.js), one ordered data channel on each,
// non-trickle (every candidate is gathered before a code is made, so one scan each way,
// or one relayed message each way, is enough). No DOM here.
import { identity } from "./identity.js";
import { buildSdp, isTurn, readSdp } from "./signal.js";
import { GATHER_LIMIT } from "./timing.js";

export const CHANNEL = "riposte";

// Whether this browser can make a direct connection at all (Debian's WebKitGTK and some
// in-app browsers cannot: they have no RTCPeerConnection).
export function hasWebRtc() {
  return typeof globalThis.RTCPeerConnection === "function";
}

// The ICE servers of a connection: none, or the one chosen (`server`: web/live/signal.js
// validServer), a TURN server with its user name and password.
export function iceServers(server) {
  if (!server?.url) return [];
  return [server.user ? { urls: server.url, username: server.user, credential: server.password } : { urls: server.url }];
}

// A new connection: no ICE server unless one was chosen (`server`), this phone's certificate.
async function connection(server) {
  const { certificate } = await identity();
  const config = { iceServers: iceServers(server) };
  if (certificate) config.certificates = [certificate];
  return new RTCPeerConnection(config);
}

// Resolves once ICE gathering is complete, or after GATHER_LIMIT ms.
function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const timer = setTimeout(resolve, GATHER_LIMIT);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

// The offering side: {pc, channel, ice} (ice: what the offer code carries).
export async function offer(server = null) {
  const pc = await connection(server);
  const channel = pc.createDataChannel(CHANNEL, { ordered: true });
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  return { pc, channel, ice: readSdp(pc.localDescription.sdp) };
}

// What of the far side's candidates (`ice`) this phone may reach with `server`: a relay
// candidate is a TURN server's address, so a phone that uses no TURN server (its user did
// not agree to the one the invitation named) leaves them out and sends that server nothing.
export function reachable(ice, server) {
  return isTurn(server) ? ice : { ...ice, candidates: ice.candidates.filter((c) => c.type !== "relay") };
}

// The offering side takes the answer (what its code carried).
export function accept(pc, ice, server = null) {
  return pc.setRemoteDescription({ type: "answer", sdp: buildSdp(reachable(ice, server), "answer") });
}

// The answering side's connection with the offer's ice set: {pc, channel (a promise)}.
async function answering(offerIce, server) {
  const pc = await connection(server);
  const channel = new Promise((resolve) => {
    pc.addEventListener("datachannel", (event) => resolve(event.channel), { once: true });
  });
  await pc.setRemoteDescription({ type: "offer", sdp: buildSdp(reachable(offerIce, server), "offer") });
  return { pc, channel };
}

// The answering side: {pc, channel (a promise), ice} from the offer's ice.
export async function answer(offerIce, server = null) {
  const { pc, channel } = await answering(offerIce, server);
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  return { pc, channel, ice: readSdp(pc.localDescription.sdp) };
}

// An answer made ahead of time, for a page that may reload before it is used: what this
// phone's answer to `offerIce` carries (its ICE user fragment and password, its
// certificate's fingerprint), with no connection made. The offering side keeps its offer
// waiting with it; `resume` answers with the same, later, from this page or its reload
// (the certificate is kept across reloads: web/live/identity.js).
export async function ticket(offerIce) {
  const pc = await connection(null);
  try {
    await pc.setRemoteDescription({ type: "offer", sdp: buildSdp(offerIce, "offer") });
    return readSdp((await pc.createAnswer()).sdp);
  } finally {
    pc.close();
  }
}

// The answer of a `ticket`, given now: {pc, channel (a promise)}. The connection's own
// user fragment and password are replaced by the ticket's, which the offering side already
// holds; it learns this phone's address from ICE's first check (a peer-reflexive candidate).
export async function resume(offerIce, ice, server = null) {
  const { pc, channel } = await answering(offerIce, server);
  await pc.setLocalDescription({ type: "answer", sdp: credentials((await pc.createAnswer()).sdp, ice) });
  return { pc, channel };
}

// An offering side made again for an offer already sent (`ice`: what its code carried), with
// that offer's user fragment and password and this phone's certificate: what the far
// side's answer checks against. {pc, channel}; its address is learnt by the far side from
// its first check (a peer-reflexive candidate), as `resume` does the other way.
export async function reoffer(ice, server = null) {
  const pc = await connection(server);
  const channel = pc.createDataChannel(CHANNEL, { ordered: true });
  await pc.setLocalDescription({ type: "offer", sdp: credentials((await pc.createOffer()).sdp, ice) });
  await gathered(pc);
  return { pc, channel };
}

// listener() once, when the connection is over: its channel closed, or the connection
// failed or was closed. « disconnected » is not the end: ICE says it after a few seconds
// without an answer (a phone asleep, a page frozen) and comes back to « connected » by
// itself; WebRTC says « failed » when it gives up (about 30 s of silence).
export function onLost(pc, channel, listener) {
  let told = false;
  const tell = () => {
    if (!told) {
      told = true;
      listener();
    }
  };
  channel.addEventListener("close", tell);
  channel.addEventListener("error", tell);
  pc.addEventListener("connectionstatechange", () => {
    if (pc.connectionState === "failed" || pc.connectionState === "closed") tell();
  });
}

// The far side's addresses a connection knows (its remote candidates with an IP address,
// 8 at most), as a code carries candidates. A TURN server forwards to a relay only what
// comes from an address it was told of: a connection kept waiting for a phone's page to
// come back after a reload (a spare) is told these, so that the reloaded page, which
// sends no candidate of its own, reaches it through the relay from the same router or the
// same TURN server.
export async function farAddresses(pc) {
  const found = [];
  try {
    (await pc.getStats()).forEach((s) => {
      if (s.type !== "remote-candidate" || !/^[0-9a-f.:]+$/i.test(s.address ?? "") || !Number.isInteger(s.port)) return;
      found.push({ type: ["host", "srflx", "prflx", "relay"].includes(s.candidateType) ? s.candidateType : "prflx",
        priority: (s.priority ?? 0) >>> 0, address: s.address, port: s.port });
    });
  } catch {
    return [];
  }
  return found.slice(0, 8);
}

// Closes a connection, whatever state it is in.
export function close(pc) {
  try {
    pc?.close();
  } catch {
    /* already closed */
  }
}

// A random id of `bytes` bytes, in hex.
export function randomId(bytes = 4) {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// `sdp` with the ICE user fragment and password `ufrag` and `pwd` instead of its own.
function credentials(sdp, { ufrag, pwd }) {
  return sdp.replace(/^a=ice-ufrag:.*$/m, `a=ice-ufrag:${ufrag}`).replace(/^a=ice-pwd:.*$/m, `a=ice-pwd:${pwd}`);
}
