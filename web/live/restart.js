// An ICE restart of a live connection: new ICE credentials and candidates on the same
// RTCPeerConnection, its data channel and DTLS session kept (no new pairing, no new board
// to wait for). The game master's page (the offering side) starts it when ICE says an open
// connection is disconnected or failed; its new offer goes over the connection's own data
// channel (a message, `restart`), which still carries what it is given while ICE looks for
// a path: it arrives once one is found again, and the player's answer (`restarted`) comes
// back the same way. A path that is gone for good (the player's phone on another network,
// the data channel dead) is not restarted here: the player's page then comes back through
// the connection the game master's page keeps waiting for it (its spare, web/live/guest.js
// `rescue`), and a phone away is looked for through the others' (web/live/host.js `relay`).
// No DOM here.
import { randomId, reachable } from "./rtc.js";
import { buildSdp, decoded, encode, readSdp } from "./signal.js";
import { GATHER_LIMIT, RESTART_AGAIN } from "./timing.js";

// `describe()` (a new local description of `pc`), then its candidates gathered anew: resolves
// once ICE says it has no more (or after GATHER_LIMIT ms). The gathering state of the first
// description may still say "complete" when the restart's begins: its end is its last event.
function gatheredAnew(pc, describe) {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      pc.removeEventListener("icecandidate", listen);
      resolve();
    };
    const listen = (event) => {
      if (!event.candidate) done();
    };
    const timer = setTimeout(done, GATHER_LIMIT);
    pc.addEventListener("icecandidate", listen);
    describe().catch((error) => {
      clearTimeout(timer);
      pc.removeEventListener("icecandidate", listen);
      reject(error);
    });
  });
}

// The SDP of a code for the `version`th description of a session: each one after the first
// says it is a new one (its `o=` line's version), as a renegotiation must.
function versioned(sdp, version) {
  return sdp.replace(/^o=- 1 2 /m, `o=- 1 ${2 + version} `);
}

// The game master's side of one connection (`peer`, web/live/peer.js): restarts its ICE
// when it is disconnected or failed after it was open; `server()`: the STUN or TURN server
// the offers carry. `restarts` counts the restarts begun, `done` those the player answered.
export class Restarts {
  constructor(peer, server) {
    this.peer = peer;
    this.server = server;
    this.pending = null; // {id, version, at}
    this.version = 0;
    this.restarts = 0;
    this.done = 0;
    this.lastAt = -Infinity;
    const pc = peer.pc;
    pc.addEventListener("iceconnectionstatechange", () => {
      if (["disconnected", "failed"].includes(pc.iceConnectionState)) this.start();
      // A path found again: what a restart not answered left is dropped at the next one.
    });
  }

  // A new offer with new ICE credentials, sent over the connection's channel.
  async start() {
    const { peer } = this;
    const pc = peer.pc;
    const now = performance.now();
    if (!peer.open || pc.signalingState === "closed" || now - this.lastAt < RESTART_AGAIN) return false;
    this.lastAt = now;
    try {
      if (pc.signalingState === "have-local-offer") await pc.setLocalDescription({ type: "rollback" });
      pc.restartIce();
      await gatheredAnew(pc, async () => pc.setLocalDescription(await pc.createOffer({ iceRestart: true })));
      const ice = readSdp(pc.localDescription.sdp);
      if (!ice.candidates.length) return false;
      this.version += 1;
      this.pending = { id: randomId(), version: this.version };
      this.restarts += 1;
      return peer.send("restart", { code: encode({ kind: "offer", invitation: this.pending.id, ice, server: this.server() }) });
    } catch {
      return false; // the connection closed meanwhile: its end is said where it is watched
    }
  }

  // The player's answer to the restart (`code`, from the phone `fp`): applied when it answers
  // the pending restart and carries that phone's fingerprint.
  async answered(code, fp) {
    const read = decoded(code, "answer", fp);
    const pending = this.pending;
    if (!pending || read?.invitation !== pending.id) return false;
    this.pending = null;
    try {
      await this.peer.pc.setRemoteDescription({ type: "answer", sdp: versioned(buildSdp(reachable(read.ice, this.server()), "answer"), pending.version) });
    } catch {
      return false;
    }
    this.done += 1;
    return true;
  }
}

// A player's side: the game master's restart (`code`, over `peer`, the connection to the
// game master's page whose fingerprint is `table`) answered on the same connection; the
// answer's code, or null when the offer is not that page's or cannot be taken.
export async function answerRestart(peer, code, table, server) {
  const read = decoded(code, "offer", table);
  if (!read) return null;
  const pc = peer.pc;
  try {
    peer.restarts = (peer.restarts ?? 0) + 1;
    await pc.setRemoteDescription({ type: "offer", sdp: versioned(buildSdp(reachable(read.ice, server), "offer"), peer.restarts) });
    await gatheredAnew(pc, async () => pc.setLocalDescription(await pc.createAnswer()));
    return encode({ kind: "answer", invitation: read.invitation, ice: readSdp(pc.localDescription.sdp) });
  } catch {
    return null;
  }
}
