// The game master's side of the live table (issue #15): invitations (an offer code in a
// link and its QR code), the players' answers (pasted, scanned, or handed over by another
// tab of this origin), the connected players, and what they see. The engine stays the only
// authority: after every change the players get the players' view of the board; what a
// player sends is checked (web/live/protocol.js) and is only ever a proposal: a die and a
// weapon filled into the start-of-round form, an interruption request shown on the board,
// both for the game master to take or leave. No DOM here (web/live/host-view.js).
import { t } from "../infra/i18n.js";
import { HANDOFF, OFFER_KEY, pastedCode } from "./follow.js";
import { accept, CONNECT_LIMIT, offer, onLost, randomId } from "./link.js";
import { HEARTBEAT, playersBoard, rateLimit, readProposal, Refused, SILENCE, say } from "./protocol.js";
import { CodeError, decode, encode, STUN } from "./signal.js";

// How long an invitation waits for its answer (ms); it is single-use either way.
export const INVITATION_LIFE = 15 * 60_000;
export const OPEN_INVITATIONS = 8;
const STUN_KEY = "riposte.live.stun";

function storedStun() {
  try {
    return localStorage.getItem(STUN_KEY) ?? "";
  } catch {
    return "";
  }
}

export class LiveHost {
  constructor(parts, { view, round, board }) {
    this.parts = parts;
    this.view = view;
    this.round = round;
    this.boardController = board;
    this.invitations = new Map(); // id → {pc, channel, at}
    this.players = []; // {id, pc, channel, claim, state, rate, name}
    this.requests = []; // fighter ids asking to interrupt, in order
    this.pnjDetails = false;
    this.stun = storedStun();
    this.seq = 0;
    this.boardRound = null;
    view.bind({
      invite: () => this.invite(),
      answer: (text) => this.take(pastedCode(text)),
      scanned: (text) => this.take(pastedCode(text)),
      pnjDetails: (on) => {
        this.pnjDetails = on;
        this.broadcast();
      },
      stun: (value) => this.setStun(value),
      acceptRequest: (id) => this.acceptRequest(id),
      dismissRequest: (id) => this.dismissRequest(id),
    });
    view.showStun(this.stun);
    parts.session.on("change", (board) => this.changed(board));
    parts.session.on("words", () => this.show());
    // An answer link opened in another tab of this origin (the camera app): taken here.
    if (typeof BroadcastChannel === "function") {
      this.handoff = new BroadcastChannel(HANDOFF);
      this.handoff.addEventListener("message", (event) => {
        if (event.data?.t !== "answer" || typeof event.data.code !== "string") return;
        if (!this.knows(event.data.code)) return; // another game master's tab, maybe
        // Said at once (the answer is this tab's to take); the connection follows here.
        this.handoff.postMessage({ t: "taken", code: event.data.code, ok: true });
        this.take(event.data.code);
      });
    }
    setInterval(() => this.heartbeat(), HEARTBEAT);
    // For the tests and debugging from the console: the players and what each was sent.
    window.riposteLive = Object.freeze({ host: this });
  }

  setStun(value) {
    const stun = String(value ?? "").trim();
    if (stun && !STUN.test(stun)) {
      this.view.stunError(t("liveStunBad"));
      return;
    }
    this.stun = stun;
    this.view.stunError("");
    try {
      if (stun) localStorage.setItem(STUN_KEY, stun);
      else localStorage.removeItem(STUN_KEY);
    } catch {
      /* kept for this visit only */
    }
    this.parts.status.message(stun ? t("liveStunSet", stun) : t("liveStunOff"));
  }

  // A new invitation: its link, shown with its QR code in the invitation dialog.
  async invite() {
    this.expire();
    this.view.openInvite(null);
    const id = randomId();
    let made;
    try {
      made = await offer(this.stun);
    } catch (error) {
      this.view.inviteStatus(t("liveNoWebRtc", error?.message ?? String(error)));
      return null;
    }
    if (made.ice.candidates.length === 0) {
      made.pc.close();
      this.view.inviteStatus(t("liveNoNetwork"));
      return null;
    }
    // At most OPEN_INVITATIONS wait at once (each holds a connection): the oldest goes.
    if (this.invitations.size >= OPEN_INVITATIONS) {
      const [oldest, inv] = this.invitations.entries().next().value;
      inv.pc.close();
      this.invitations.delete(oldest);
    }
    this.invitations.set(id, { pc: made.pc, channel: made.channel, at: Date.now() });
    const code = encode({ kind: "offer", invitation: id, ice: made.ice, stun: this.stun });
    const url = new URL(window.location.href);
    url.search = "";
    url.hash = `${OFFER_KEY}=${code}`;
    this.view.openInvite(url.href);
    return url.href;
  }

  expire() {
    const now = Date.now();
    for (const [id, inv] of this.invitations) {
      if (now - inv.at > INVITATION_LIFE) {
        inv.pc.close();
        this.invitations.delete(id);
      }
    }
  }

  // True when `code` is an answer to one of this tab's open invitations.
  knows(code) {
    try {
      return this.invitations.has(decode(code, "answer").invitation);
    } catch {
      return false;
    }
  }

  // A player's answer code, pasted, scanned or handed over: true when it pairs.
  async take(code) {
    this.expire();
    let read;
    try {
      read = decode(code, "answer");
    } catch (error) {
      const reason = error instanceof CodeError ? error.reason : "damaged";
      this.view.inviteStatus(t(reason === "version" ? "liveUpdate" : reason === "kind" ? "liveNotAnswer" : "liveCodeDamaged"));
      return false;
    }
    const inv = this.invitations.get(read.invitation);
    if (!inv) {
      this.view.inviteStatus(t("liveUnknownInvitation"));
      return false;
    }
    this.invitations.delete(read.invitation); // single-use
    const player = { id: read.invitation, pc: inv.pc, channel: inv.channel, claim: null, state: "connecting", rate: rateLimit(),
      number: this.players.length + 1, sent: 0, bytes: 0 };
    this.players.push(player);
    this.view.inviteStatus(t("liveConnecting"));
    this.show();
    const timer = setTimeout(() => {
      if (player.state === "connecting") this.lost(player, true);
    }, CONNECT_LIMIT);
    inv.channel.addEventListener("open", () => {
      clearTimeout(timer);
      player.state = "connected";
      player.heard = performance.now();
      this.view.inviteStatus(t("livePaired"));
      this.view.closeInvite();
      this.parts.status.message(t("livePlayerJoined", this.label(player)));
      this.sendBoard(player);
      this.show();
    });
    inv.channel.addEventListener("message", (event) => this.hear(player, event.data));
    onLost(inv.pc, inv.channel, () => this.lost(player, player.state === "connecting"));
    try {
      await accept(inv.pc, read.ice);
    } catch {
      this.lost(player, true);
      return false;
    }
    return true;
  }

  lost(player, failed) {
    if (player.state === "gone") return;
    player.state = "gone";
    try {
      player.pc.close();
    } catch {
      /* already closed */
    }
    this.requests = this.requests.filter((id) => id !== player.claim || this.players.some((p) => p !== player && p.claim === id && p.state === "connected"));
    if (failed) this.view.inviteStatus(t("liveFailed"));
    this.parts.status.message(failed ? t("liveFailed") : t("livePlayerLost", this.label(player)));
    this.show();
  }

  // A ping to each player; a player silent for SILENCE ms (asleep, gone) is disconnected.
  heartbeat() {
    const now = performance.now();
    for (const player of this.players) {
      if (player.state !== "connected") continue;
      if (now - player.heard > SILENCE) this.lost(player, false);
      else this.send(player, say("ping"));
    }
  }

  label(player) {
    const f = player.claim && this.fighter(player.claim);
    return f ? f.name : t("livePlayerN", player.number);
  }

  fighter(id) {
    const board = this.parts.session.board;
    return board && Object.hasOwn(board.combatants, id) ? board.combatants[id] : null;
  }

  show() {
    this.view.showPlayers(this.players.filter((p) => p.state !== "removed").map((p) => ({ label: this.label(p), state: p.state })));
    this.view.showRequests(this.requests.map((id) => ({ id, name: this.fighter(id)?.name ?? id })));
  }

  // --- what the players see --------------------------------------------------------------

  changed(board) {
    if (!board) return;
    // A round started (or the fight changed): the proposals made for it are spent.
    if (this.boardRound !== null && board.round !== this.boardRound) this.round.clearProposals();
    this.boardRound = board.round;
    this.requests = this.requests.filter((id) => {
      const f = this.fighter(id);
      return f && f.in_round && !f.hors_combat && !board.round_over;
    });
    this.broadcast();
    this.show();
  }

  broadcast() {
    const board = this.parts.session.board;
    if (!board) return;
    this.seq += 1;
    this.shown = JSON.stringify(playersBoard(board, { pnjDetails: this.pnjDetails }));
    for (const player of this.players) if (player.state === "connected") this.sendBoard(player);
  }

  sendBoard(player) {
    if (!this.parts.session.board) return;
    this.shown ??= JSON.stringify(playersBoard(this.parts.session.board, { pnjDetails: this.pnjDetails }));
    this.send(player, `{"v":1,"t":"board","seq":${this.seq},"claim":${JSON.stringify(player.claim)},"board":${this.shown}}`);
  }

  send(player, text) {
    if (player.channel.readyState !== "open") return;
    player.channel.send(text);
    player.sent += 1;
    player.bytes += text.length;
  }

  refuse(player, reason) {
    this.send(player, say("refused", { reason }));
  }

  // --- what the players propose ------------------------------------------------------------

  hear(player, text) {
    if (player.state !== "connected") return;
    player.heard = performance.now();
    // Too fast: refused unread, and said once per burst (a flood gets no flood back).
    if (!player.rate()) {
      if (!player.throttled) this.refuse(player, "rate");
      player.throttled = true;
      return;
    }
    player.throttled = false;
    let message;
    try {
      message = readProposal(text);
    } catch (error) {
      return this.refuse(player, error instanceof Refused ? error.reason : "shape");
    }
    const board = this.parts.session.board;
    if (message.t === "pong") return undefined;
    if (message.t === "bye") return this.lost(player, false);
    if (message.t === "claim") {
      const f = this.fighter(message.id);
      if (!f || f.side !== "pj") return this.refuse(player, "not_pj");
      if (this.players.some((p) => p !== player && p.claim === message.id && p.state === "connected")) return this.refuse(player, "taken");
      player.claim = message.id;
      this.parts.status.message(t("livePlayerClaimed", f.name));
      this.sendBoard(player);
      return this.show();
    }
    const f = player.claim && this.fighter(player.claim);
    if (!f) return this.refuse(player, "no_claim");
    if (message.t === "declare") {
      if (board.round !== 0 && !board.round_over) return this.refuse(player, "not_now");
      if (f.hors_combat) return this.refuse(player, "out");
      if (message.weapon !== null && !f.declarations.some((d) => d.weapon === message.weapon)) return this.refuse(player, "weapon");
      this.round.propose(f.id, { weapon: message.weapon, die: message.die, note: t("liveFromPlayer") });
      this.parts.status.message(t("liveDeclared", f.name, message.die));
      return this.send(player, say("ok", { what: "declare" }));
    }
    if (message.t === "interrupt") {
      if (board.round === 0 || board.round_over || !f.in_round || f.hors_combat) return this.refuse(player, "not_now");
      if (!this.requests.includes(f.id)) this.requests.push(f.id);
      this.parts.status.message(t("liveRequest", f.name)); // said on every screen, accepted on the board
      this.show();
      return this.send(player, say("ok", { what: "interrupt" }));
    }
    return this.refuse(player, "shape");
  }

  acceptRequest(id) {
    this.dismissRequest(id, "interruptAccepted");
    this.boardController.actions(id, true);
  }

  dismissRequest(id, what = "interruptDismissed") {
    this.requests = this.requests.filter((r) => r !== id);
    for (const p of this.players) if (p.claim === id && p.state === "connected") this.send(p, say("ok", { what }));
    this.show();
  }
}
