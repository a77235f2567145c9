// The WebRTC side of the live table (issue #15): one RTCPeerConnection per player, one
// ordered data channel on it, non-trickle (every candidate is gathered before a code is
// made, so one scan each way is enough). No DOM here.
import { buildSdp, readSdp } from "./signal.js";

// How long candidates are gathered before the code is made with those found (ms).
export const GATHER_LIMIT = 3000;
// How long a pairing may take once both codes are in, before the page says it failed (ms).
export const CONNECT_LIMIT = 15_000;
export const CHANNEL = "riposte";

// The connection's settings: no ICE server unless the game master set a STUN server.
function connection(stun) {
  return new RTCPeerConnection({ iceServers: stun ? [{ urls: stun }] : [] });
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

// The game master's side: {pc, channel, ice} (ice: what the offer code carries).
export async function offer(stun) {
  const pc = connection(stun);
  const channel = pc.createDataChannel(CHANNEL, { ordered: true });
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  return { pc, channel, ice: readSdp(pc.localDescription.sdp) };
}

// The game master takes the player's answer (what its code carried).
export function accept(pc, ice) {
  return pc.setRemoteDescription({ type: "answer", sdp: buildSdp(ice, "answer") });
}

// The player's side: {pc, channel (a promise), ice} from the offer's ice.
export async function answer(offerIce, stun) {
  const pc = connection(stun);
  const channel = new Promise((resolve) => {
    pc.addEventListener("datachannel", (event) => resolve(event.channel), { once: true });
  });
  await pc.setRemoteDescription({ type: "offer", sdp: buildSdp(offerIce, "offer") });
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  return { pc, channel, ice: readSdp(pc.localDescription.sdp) };
}

// listener() once, as soon as the connection is lost: the channel closes, or ICE says
// disconnected, failed or closed.
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
  const check = () => {
    if (["disconnected", "failed", "closed"].includes(pc.connectionState)
      || ["disconnected", "failed", "closed"].includes(pc.iceConnectionState)) tell();
  };
  pc.addEventListener("connectionstatechange", check);
  pc.addEventListener("iceconnectionstatechange", check);
}

// A random id of `bytes` bytes, in hex.
export function randomId(bytes = 4) {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}
