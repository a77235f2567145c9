// The WebRTC side of the live table: RTCPeerConnections made with this
// phone's certificate (web/live/identity.js), one ordered data channel on each,
// non-trickle (every candidate is gathered before a code is made, so one scan each way,
// or one relayed message each way, is enough). No DOM here.
import { identity } from "./identity.js";
import { buildSdp, readSdp } from "./signal.js";
import { GATHER_LIMIT } from "./timing.js";

export const CHANNEL = "riposte";

// Whether this browser can make a direct connection at all (Debian's WebKitGTK and some
// in-app browsers cannot: they have no RTCPeerConnection).
export function hasWebRtc() {
  return typeof globalThis.RTCPeerConnection === "function";
}

// A new connection: no ICE server unless one was chosen (`stun`), this phone's certificate.
async function connection(stun) {
  const { certificate } = await identity();
  const config = { iceServers: stun ? [{ urls: stun }] : [] };
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
export async function offer(stun = "") {
  const pc = await connection(stun);
  const channel = pc.createDataChannel(CHANNEL, { ordered: true });
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  return { pc, channel, ice: readSdp(pc.localDescription.sdp) };
}

// The offering side takes the answer (what its code carried).
export function accept(pc, ice) {
  return pc.setRemoteDescription({ type: "answer", sdp: buildSdp(ice, "answer") });
}

// The answering side: {pc, channel (a promise), ice} from the offer's ice.
export async function answer(offerIce, stun = "") {
  const pc = await connection(stun);
  const channel = new Promise((resolve) => {
    pc.addEventListener("datachannel", (event) => resolve(event.channel), { once: true });
  });
  await pc.setRemoteDescription({ type: "offer", sdp: buildSdp(offerIce, "offer") });
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
  const pc = await connection("");
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
export async function resume(offerIce, { ufrag, pwd }, stun = "") {
  const pc = await connection(stun);
  const channel = new Promise((resolve) => {
    pc.addEventListener("datachannel", (event) => resolve(event.channel), { once: true });
  });
  await pc.setRemoteDescription({ type: "offer", sdp: buildSdp(offerIce, "offer") });
  const own = (await pc.createAnswer()).sdp;
  const sdp = own.replace(/^a=ice-ufrag:.*$/m, `a=ice-ufrag:${ufrag}`).replace(/^a=ice-pwd:.*$/m, `a=ice-pwd:${pwd}`);
  await pc.setLocalDescription({ type: "answer", sdp });
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
