// How a live connection reaches the far side, as the game master's list says it beside each
// phone: « direct » (both phones' own addresses: one Wi-Fi, one hotspot), « via STUN » (an
// address a STUN server told a phone behind its router: two homes, no relay) or « relayé
// (TURN) » (through the TURN server's relay). Read from the connection's own statistics
// (RTCPeerConnection.getStats: the selected candidate pair's local and remote candidates).
// And when a connection that was given both codes is said not to go through. No DOM here.
import { CONNECT_LIMIT } from "./timing.js";

// Addresses that never cross the internet: a phone's own network (RFC 1918, loopback,
// link-local, shared address space, IPv6 unique-local and link-local) and mDNS names.
const LOCAL = [/^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^127\./, /^169\.254\./,
  /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./, /^f[cd][0-9a-f]{2}:/i, /^fe[89ab][0-9a-f]:/i, /^::1$/, /\.local$/i];

export function localAddress(address) {
  return typeof address === "string" && LOCAL.some((pattern) => pattern.test(address));
}

// The route of a selected pair, from its two candidates ({candidateType, address}, as
// getStats gives them): "turn" when either is a relay's; "stun" when either is an address
// seen from outside a router (a STUN server's answer, srflx, or a far side's first check
// from a public address, prflx, on a connection that has a server: `served`); "direct"
// otherwise (with no STUN or TURN server, no address came from one); null without a pair.
export function routeOf(local, remote, served = true) {
  if (!local || !remote) return null;
  const types = [local.candidateType, remote.candidateType];
  if (types.includes("relay")) return "turn";
  if (!served) return "direct";
  if (types.includes("srflx")) return "stun";
  if ([local, remote].some((c) => c.candidateType === "prflx" && c.address && !localAddress(c.address))) return "stun";
  return "direct";
}

// The route `pc` takes now (its transport's selected pair), or null when it has none.
export async function route(pc) {
  let stats;
  let served;
  try {
    stats = await pc.getStats();
    served = (pc.getConfiguration().iceServers ?? []).length > 0;
  } catch {
    return null;
  }
  let found = null;
  stats.forEach((s) => {
    if (found || s.type !== "transport" || !s.selectedCandidatePairId) return;
    const pair = stats.get(s.selectedCandidatePairId);
    found = pair ? routeOf(stats.get(pair.localCandidateId), stats.get(pair.remoteCandidateId), served) : null;
  });
  if (found) return found;
  // Firefox names no selected pair on its transport: its pair says `selected`, or is nominated and succeeded.
  stats.forEach((s) => {
    if (found || s.type !== "candidate-pair" || !(s.selected || (s.nominated && s.state === "succeeded"))) return;
    found = routeOf(stats.get(s.localCandidateId), stats.get(s.remoteCandidateId), served);
  });
  return found;
}

// listener() once when `pc`, given both codes, does not connect: ICE or the connection says
// "failed", or it is not connected within `limit` ms (CONNECT_LIMIT, under 20 s: the
// player's phone and the game master's line say it then, never a silent wait). Returns a
// function that stops watching (the connection opened, or another took its place). `limit`
// null: only WebRTC's "failed" (a player's page, which cannot know when the game master
// pastes its code, says its own hint after ANSWER_LATE: web/live/guest.js).
export function unreachable(pc, listener, limit = CONNECT_LIMIT) {
  let done = false;
  const stop = () => {
    done = true;
    clearTimeout(timer);
    pc.removeEventListener("iceconnectionstatechange", check);
    pc.removeEventListener("connectionstatechange", check);
  };
  const fail = () => {
    if (done) return;
    stop();
    listener();
  };
  const check = () => {
    if (pc.iceConnectionState === "failed" || pc.connectionState === "failed") fail();
  };
  const timer = limit === null ? null : setTimeout(fail, limit);
  pc.addEventListener("iceconnectionstatechange", check);
  pc.addEventListener("connectionstatechange", check);
  check();
  return stop;
}
