// A player's phone on the live table, opened by the game master's
// invitation (#table=<offer>): no engine starts and the fight saved on this phone is never
// read or written (web/live/follow.js). It answers the offer, shows the answer for the game
// master to scan or paste, then draws every board the game master's engine sends, and
// sends the player's proposals: which PJ they play, its weapon and die at the start of a
// round, an interruption request. No DOM here (web/live/guest-view.js).
//
// How it holds (the game master's page asleep, mates, spares, another tab, a STUN or TURN
// server used only with its user's agreement): docs/LIVE-TABLE.md, « A table that holds ».
import { own } from "../infra/dom.js";
import { expose, HOOKED, TEST_BUILD } from "../infra/hooks.js";
import { actionName, t } from "../infra/i18n.js";
import { around, refused, said } from "../infra/refusals.js";
import { afterPaint } from "../infra/later.js";
import { keepAwake } from "./awake.js";
import { ANSWER_KEY, codeIn, HANDOFF, OFFER_KEY } from "./follow.js";
import { identity } from "./identity.js";
import { accept, answer, hasWebRtc, offer, randomId, resume, ticket } from "./rtc.js";
import { Peer } from "./peer.js";
import { answerRestart } from "./restart.js";
import { unreachable } from "./route.js";
import { Keys } from "../infra/storage-keys.js";
import { fromGm, fromMate, MAX_HOST_MESSAGE, MAX_PROPOSAL, PROTOCOL, Refused } from "./protocol.js";
import { codeRefusal, decode, decoded, encode, isTurn } from "./signal.js";
import { isRemote, replyLink } from "./remote.js";
import { ANSWER_LATE, DOUBLE_TAP, HANDOFF_WAIT, MATE_OFFER_LIFE, REMOTE_AGAIN, REMOTE_LIFE, SPARE_WAIT, TAB_WAIT } from "./timing.js";
import { choose, ring } from "./alert.js";
import { LiveGuestView } from "./guest-view.js";

const TABS = "riposte.live.players";
// This tab's last board of the table it follows (sessionStorage: it lives as long as the
// tab), painted at once when the page reloads, before any connection.
const LAST_BOARD = "riposte.live.board";
// The game master's spare for this tab: {table, invitation, offer (its code), ufrag, pwd
// (this phone's ticket)}; used once.
const SPARE = "riposte.live.spare";

// The reasons of a message the game master's page refused (engine/seating.py `_refused`,
// web/live/protocol.js `Refused`), each by its sentence's key, `live_<reason>`.
const GM_REFUSED = new Set(["live_players_off", "live_gm_refused", "live_fight_switched", "live_target",
  "live_too_big", "live_not_json", "live_version", "live_replayed", "live_shape", "live_rate", "live_not_pj",
  "live_taken", "live_claim_refused", "live_no_claim", "live_muted", "live_dismissed", "live_gm_edited"]);

// What the game master's page refused (its message `refused`), as a refusal: the wire's
// reason, or the engine's (`engine`, its `error` inside); a reason this page does not know,
// as it came.
export function gmRefusal(message) {
  const key = `live_${message.reason}`;
  if (GM_REFUSED.has(key)) return refused("live", key);
  return around("live", "live_refused", message.reason === "engine" ? message.error : { key: message.reason });
}

class LiveGuest {
  constructor({ view, store, awake = keepAwake() }) {
    this.view = view;
    this.store = store;
    this.awake = awake;
    this.table = null; // the game master's fingerprint
    this.gm = null; // the Peer of the game master's page, once open
    this.joining = null; // a connection to it being made
    this.mates = new Map(); // fingerprint → Peer: the other players' phones
    this.offered = new Map(); // fingerprint → {pc, channel, invitation}: offers made to mates
    this.board = null;
    this.claim = null; // the PJ the game master says this phone plays
    this.wanted = null; // the PJ this phone's player chose
    this.server = null; // the STUN or TURN server its user agreed to, for this table
    this.code = "";
    this.remote = false; // the invitation came through the group's chat (web/live/remote.js)
    this.waiting = null; // {offer, ice, invitation, at}: a reply sent through the chat, not yet taken
    this.tab = randomId();
    this.late = null;
    this.pending = false; // a play of this phone waits for the game master's « Appliquer »
    this.last = null; // the board not yet kept for a reload (showBoard, keepLast)
    this.tabStore = new Keys(() => globalThis.sessionStorage);
    view.bind({
      claim: (id, ask) => this.choose(id, ask),
      name: (name) => this.rename(name),
      declare: (fields) => this.gm?.send("declare", fields),
      interrupt: () => this.play("interrupt", {}),
      scanned: (text) => this.scanned(text),
      // The players play their PJ: only ever the PJ the game master says this
      // phone plays (the game master's page builds the command; the actor is never sent).
      act: (action, options) => this.play("act", { action, options }),
      answer: (action, options) => this.play("interrupt", { action, options }),
      pass: () => this.play("pass", {}),
      // How this phone says its PJ's turn: kept on the phone (web/live/alert.js).
      alert: (chosen) => this.store.saveLiveAlert(choose(chosen)),
    });
    view.showAlert(choose(store.liveAlert()));
  }

  // A play of this phone's PJ, sent with its sequence number; the same tap twice within
  // DOUBLE_TAP is one, unless the game master refused or dismissed the first in between (a
  // tap after that is the player's new one).
  play(type, fields) {
    const key = JSON.stringify([type, fields]);
    const now = performance.now();
    if (this.tapped?.key === key && now - this.tapped.at < DOUBLE_TAP) return;
    this.tapped = { key, at: now };
    this.gm?.send(type, { ...fields, n: this.nextPlay() });
  }

  // The next play's sequence number: larger than every one this page sent before.
  nextPlay() {
    this.played = (this.played ?? 0) + 1;
    return this.played;
  }

  start() {
    this.view.enter();
    window.addEventListener("hashchange", () => this.fromAddress(true));
    // Leaving the page says goodbye at once, and keeps its last board.
    window.addEventListener("pagehide", () => {
      this.keepLast();
      this.gm?.send("bye");
    });
    if (typeof BroadcastChannel === "function") {
      this.tabs = new BroadcastChannel(TABS);
      this.tabs.addEventListener("message", (event) => this.fromTab(event.data));
    }
    return this.fromAddress(false);
  }

  // The invitation in the page's address: taken at the start, and whenever it changes (a
  // new invitation opened in this tab: only the fragment changes, the page does not reload).
  fromAddress(changed) {
    const code = codeIn(window.location, OFFER_KEY);
    if (!code || (changed && code === this.code)) return Promise.resolve();
    this.code = code;
    this.remote = isRemote(window.location);
    return this.take(code, { first: !changed });
  }

  // An invitation read by the page's own scanner (a link, or a bare code).
  scanned(text) {
    const at = String(text).indexOf("#");
    const code = at === -1 ? String(text).trim() : new URLSearchParams(String(text).slice(at + 1)).get(OFFER_KEY) ?? "";
    this.code = code;
    this.remote = at !== -1 && isRemote({ hash: String(text).slice(at) });
    return this.take(code, { first: false });
  }

  async take(code, { first }) {
    let read;
    try {
      read = decode(code, "offer");
    } catch (error) {
      this.view.setState("refused", t(codeRefusal(error, "liveNotInvitation", "liveInvitationDamaged")));
      return;
    }
    if (!hasWebRtc()) {
      this.view.setState("failed", t("liveNoWebRtcBrowser"));
      return;
    }
    if (this.table !== read.ice.fingerprint) this.leave();
    this.table = read.ice.fingerprint;
    const kept = this.kept();
    this.wanted = kept.claim;
    if (!this.board) this.paintLast();
    // A reload of a page that already paired with this invitation: it is spent, a new one
    // is needed (the game master's « Réinviter »), read with the page's own scanner.
    if (kept.used.includes(read.invitation) && !this.gm?.open) {
      if (!(await this.resume())) this.view.setState("rejoin", t("liveRejoinHint"));
      return;
    }
    if (first && (await this.elsewhere(code))) return;
    this.server = await this.agreedServer(read.server);
    await this.answerOffer(read);
  }

  // What this phone keeps of the current table.
  kept() {
    return this.store.liveTables()[this.table] ?? { claim: null, used: [] };
  }

  keep(changes) {
    this.store.saveLiveTableOf(this.table, { ...this.kept(), ...changes });
  }

  // The STUN or TURN server an invitation asks for, if this phone's user agrees (asked once
  // per server's address); null otherwise: the phones then find each other on the local
  // network only, and this phone sends nothing to that server.
  async agreedServer(server) {
    if (!server) return null;
    if (this.store.stunAgreed(server.url)) return server;
    if (!(await this.view.askServer(server.url, isTurn(server)))) return null;
    this.store.agreeToStun(server.url);
    return server;
  }

  // Answers the game master's offer: the answer's code shown for the game master, and the
  // connection waited for. Returns the answer's link and code (another tab shows them).
  async answerOffer(read, relayedBy = null) {
    if (!relayedBy) this.view.setState("pairing", t("livePairing"));
    let made;
    try {
      made = await answer(read.ice, this.server);
    } catch {
      this.view.setState("failed", t("liveNoWebRtcBrowser"));
      return null;
    }
    if (made.ice.candidates.length === 0) {
      made.pc.close();
      this.view.setState("failed", t("liveNoNetwork"));
      return null;
    }
    // The name this phone's player gave it travels in the answer (the game master's page
    // names the phone by it: engine/seating.py phone_name); typed again, the code is made again.
    this.answered = relayedBy ? null : { invitation: read.invitation, ice: made.ice };
    this.waiting = relayedBy || !this.remote ? null : { offer: read.ice, ice: made.ice, invitation: read.invitation, at: Date.now() };
    const code = encode({ kind: "answer", invitation: read.invitation, ice: made.ice, name: this.store.liveName().trim() });
    this.join(made.pc, made.channel, read.invitation);
    if (relayedBy) {
      relayedBy.send("gm-answer", { code });
      return null;
    }
    const link = replyLink(window.location.href, code);
    this.view.showName(this.store.liveName());
    this.view.showAnswer(link, code, { remote: this.remote });
    this.view.setState("answer", t(this.remote ? "liveRemoteSend" : "liveShowGm"));
    clearTimeout(this.late);
    // Through the chat, the game master may open the reply much later: said at once.
    if (this.remote) this.view.hint(t("liveRemoteKeep"));
    else {
      this.late = setTimeout(() => {
        if (!this.gm?.open) this.view.hint(t("liveAnswerLate"));
      }, ANSWER_LATE);
    }
    if (TEST_BUILD) performance.mark("riposte:live-answer");
    return { link, code };
  }

  // The player typed a name for this phone: kept on this phone (prefilled next time), and
  // the answer shown made again with it, while it waits for the game master.
  rename(name) {
    this.store.saveLiveName(name);
    if (!this.answered || this.gm?.open) return;
    let code;
    try {
      code = encode({ kind: "answer", ...this.answered, name: name.trim() });
    } catch {
      return; // longer than a code carries: the code shown stays
    }
    this.view.showAnswer(replyLink(window.location.href, code), code, { remote: this.remote });
  }

  // The game master's spare, answered ahead of time by this tab before it reloaded: true
  // once this page follows again through it, false when there is none or it did not go
  // through within SPARE_WAIT (nothing said: the caller says what to do).
  async resume() {
    let spare;
    try {
      spare = JSON.parse(this.tabStore.get(SPARE).value ?? "null");
    } catch {
      spare = null;
    }
    this.tabStore.remove(SPARE);
    if (spare?.table !== this.table || typeof spare.offer !== "string") return false;
    const read = this.gmOffer(spare.offer);
    if (!read || read.invitation !== spare.invitation) return false;
    this.view.setState("pairing", t("liveResuming"));
    let made;
    try {
      made = await resume(read.ice, spare, this.server);
    } catch {
      return false;
    }
    const peer = this.join(made.pc, made.channel, read.invitation, { quiet: true });
    return new Promise((resolve) => {
      const timer = setTimeout(() => peer.end(), SPARE_WAIT);
      peer.on("open", () => {
        clearTimeout(timer);
        resolve(true);
      });
      peer.on("lost", () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  }

  // The game master's spare (web/live/host.js): answered now, ahead of time, and kept by
  // this tab with the answer's user fragment and password, for its reload. Only with a
  // certificate kept across reloads (else the reloaded page is another phone).
  async takeSpare(code) {
    const read = this.gmOffer(code);
    if (!read) return;
    const { kept } = await identity();
    if (!kept) return;
    let ice;
    try {
      ice = await ticket(read.ice);
    } catch {
      return;
    }
    const stored = this.tabStore.set(SPARE, JSON.stringify({ table: this.table, invitation: read.invitation, offer: code, ufrag: ice.ufrag, pwd: ice.pwd }));
    if (stored === "ok") this.gm?.send("ticket", { code: encode({ kind: "answer", invitation: read.invitation, ice }) });
  }

  // The connection to the game master's page being made: it replaces the one there is once
  // open (a relayed offer comes while the old one may still linger). `quiet`: a failure is
  // the caller's to say.
  join(pc, channel, invitation, { quiet = false } = {}) {
    this.joining?.end();
    const peer = new Peer(pc, channel, { maxIncoming: MAX_HOST_MESSAGE });
    this.joining = peer;
    // ICE says it failed: said at once, not after WebRTC's own wait (web/live/route.js).
    const watching = unreachable(pc, () => {
      if (peer.state === "connecting") peer.end();
    }, null);
    peer.on("open", () => {
      watching();
      if (this.joining !== peer) return peer.end();
      this.joining = null;
      this.waiting = null;
      const previous = this.gm;
      this.gm = peer;
      previous?.end();
      clearTimeout(this.late);
      this.view.hint("");
      this.keep({ used: [...this.kept().used, invitation].slice(-16) });
      this.view.setState("connected", t("liveConnected"));
      this.awake.on();
      if (this.wanted) peer.send("claim", { id: this.wanted });
      this.reportMates();
      return undefined;
    });
    peer.on("message", ({ text }) => this.fromGm(peer, text));
    peer.on("silent", () => {
      if (this.gm === peer) this.view.setState("silent", t("liveGmSilent"));
    });
    peer.on("heard", () => {
      if (this.gm === peer) this.view.setState("connected", t("liveConnected"));
    });
    peer.on("lost", () => {
      if (this.joining === peer) {
        this.joining = null;
        if (!this.gm && this.waitForGm(invitation)) return;
        if (!this.gm && !quiet) this.view.setState("failed", t("liveFailed"));
      } else if (this.gm === peer) {
        this.gm = null;
        if (peer.failed) this.rescue();
        else this.gmGone();
      }
    });
    return peer;
  }

  // WebRTC found no path to the game master's page any more (this phone moved to another
  // network, and no ICE restart got through: web/live/restart.js): this page comes back
  // through the connection the game master's page keeps waiting for it (its spare, as after
  // a reload), from wherever it is now; else as below.
  async rescue() {
    if (await this.resume()) return;
    if (!this.gm && !this.joining) this.gmGone();
  }

  // A reply sent through the chat reaches the game master's page when the game master
  // opens or pastes it, maybe long after this page answered: the connection made then may
  // have given up meanwhile (ICE's checks time out, Firefox ends them). True when this
  // page waits on for it: its side made again (after REMOTE_AGAIN) with the reply's own
  // user fragment and password, and this phone's certificate (its fingerprint), so that the
  // reply link stays good; the game master's page learns this page's address from its
  // first check. Until REMOTE_LIFE after the answer, as long as the game master's page keeps
  // the invitation.
  waitForGm(invitation) {
    const waiting = this.waiting;
    if (!waiting || waiting.invitation !== invitation || Date.now() - waiting.at > REMOTE_LIFE) return false;
    setTimeout(async () => {
      if (this.waiting !== waiting || this.gm || this.joining) return;
      let made;
      try {
        made = await resume(waiting.offer, waiting.ice, this.server);
      } catch {
        this.view.setState("failed", t("liveFailed"));
        return;
      }
      if (this.waiting === waiting && !this.gm && !this.joining) this.join(made.pc, made.channel, invitation);
      else made.pc.close();
    }, REMOTE_AGAIN);
    return true;
  }

  // The game master's page is gone (closed, reloaded, or WebRTC gave up): with mates, this
  // phone waits for it (it comes back through them); without, a new invitation is needed.
  gmGone() {
    this.awake.off();
    this.view.yours(false, "");
    const waiting = [...this.mates.values()].some((m) => m.open);
    this.view.setState(waiting ? "away" : "lost", t(waiting ? "liveGmAway" : "liveLost"));
    if (this.pending) this.view.note(t("liveWaitingLost")); // the game master's waiting lines went with its page
    this.pending = false;
  }

  // Leaves the table: every connection closed (another table's invitation, or removed).
  leave() {
    for (const peer of [this.gm, this.joining, ...this.mates.values()]) peer?.end();
    for (const pending of this.offered.values()) pending.pc.close();
    this.gm = this.joining = this.waiting = null;
    this.mates.clear();
    this.offered.clear();
    this.board = null;
    this.claim = null;
    this.awake.off();
  }

  // `ask`: the PJ a phone that follows holds, asked of the game master (D27).
  choose(id, ask = false) {
    this.wanted = id;
    this.keep({ claim: id });
    this.gm?.send("claim", ask ? { id, ask: true } : { id });
  }

  fromGm(peer, text) {
    let message;
    try {
      message = fromGm(text);
    } catch (error) {
      if (error instanceof Refused && error.reason === "version") {
        this.view.setState("refused", t("liveUpdate"));
        peer.end();
      }
      return;
    }
    if (peer !== this.gm) return; // a connection being replaced says nothing more
    switch (message.t) {
      case "board":
        return this.showBoard(message);
      case "journal":
        return this.view.showJournal(message.entries);
      case "attacked":
        return this.view.attacked(message.by, message.action, message.answers);
      case "undone":
      case "redone":
        return this.view.note(t(message.t === "undone" ? "liveUndone" : "liveRedone", message.action === null ? t("pass") : actionName(message.action)));
      case "refused":
        if (message.reason === "version") return this.view.setState("refused", t("liveUpdate"));
        this.pending = false;
        this.tapped = null;
        // A claim that did not go through: this phone keeps the PJ the engine says it plays
        // (none, or the one it had), and says who holds the one it asked for.
        if (message.claim !== undefined) {
          this.wanted = message.claim;
          this.keep({ claim: message.claim });
        }
        return this.view.note(message.holder ? this.view.taken(own(this.board?.combatants, message.pj)?.name ?? message.pj, message.holder)
          : said(gmRefusal(message)));
      case "ok":
        this.pending = message.what === "waiting"; // a play waiting for the game master's « Appliquer »
        if (message.what === "interruptDismissed") this.tapped = null;
        return this.view.note(t(`liveOk_${message.what}`) ?? "");
      case "opened":
        this.pending = false;
        this.tapped = null;
        // Back to a fight this phone was shown: the note says so (its name is the game master's).
        return this.view.note(t(message.back ? "liveFightBack" : "liveFightOpened"));
      case "removed":
        this.keep({ claim: null });
        this.tabStore.remove(SPARE); // the game master closed it: a reload does not wait for it
        this.leave();
        return this.view.setState("removed", t("liveRemoved"));
      case "mate-open":
        return this.offerMate(message.peer);
      case "mate-offer":
        return this.answerMate(message.peer, message.code);
      case "mate-answer":
        return this.acceptMate(message.peer, message.code);
      case "relay":
        return this.mates.get(message.to)?.send("gm-offer", { code: message.code });
      case "spare":
        return this.takeSpare(message.code);
      case "restart":
        return this.restarted(peer, message.code);
      default:
        return undefined;
    }
  }

  // The game master's page restarts this connection's ICE (its network changed: web/live/restart.js):
  // answered on the same connection.
  async restarted(peer, code) {
    const answered = await answerRestart(peer, code, this.table, this.server);
    if (answered && this.gm === peer) peer.send("restarted", { code: answered });
  }

  // The players' board, with what this phone may do there (engine/seating.py `_board_for`:
  // the PJ it may claim, its PJ's verdicts, whether it declares now, whether it is its
  // turn), drawn as it came; kept by this tab, read-only (`paintLast`).
  showBoard(message) {
    const { seq, claim, board, claims = [] } = message;
    if (this.board && this.board.round !== board.round) this.view.note(""); // last round's word is spent
    // The game master freed the PJ this phone played: the player chooses again.
    if (this.claim && this.claim === this.wanted && claim === null) {
      this.wanted = null;
      this.keep({ claim: null });
    }
    // The turn clock (engine/live.py players_clock) counts on from now: how long the turn
    // had run when the game master's engine answered, whatever this phone's own clock says.
    if (board.clock && Number.isInteger(board.clock.elapsed)) board.clock.started = Date.now() - board.clock.elapsed;
    this.board = board;
    const me = this.view.render(message);
    this.claim = me ? claim : null;
    if (this.view.yours(message.turn && Boolean(me), me?.name ?? "")) ring();
    if (TEST_BUILD) performance.mark("riposte:live-board", { detail: seq });
    if (HOOKED) document.documentElement.dataset.liveSeq = String(seq); // the board's number, for the tests (web/infra/hooks.js)
    // The tab's copy for a reload, encoded once the board is painted (the last one of a
    // burst only), or at once when the page goes (`keepLast`): the message as it came.
    const waiting = this.last !== null;
    this.last = { table: this.table, last: { v: PROTOCOL, t: "board", seq, claim, board, claims } };
    if (!waiting) afterPaint(() => this.keepLast());
  }

  keepLast() {
    if (this.last === null) return;
    this.tabStore.set(LAST_BOARD, JSON.stringify({ table: this.last.table, last: JSON.stringify(this.last.last) }));
    this.last = null;
  }

  // The board this tab last had of this table, drawn as it was (read-only: nothing to play
  // until the game master's page answers again), checked as the game master's message was.
  paintLast() {
    try {
      const kept = JSON.parse(this.tabStore.get(LAST_BOARD).value ?? "null");
      const last = kept?.table === this.table ? fromGm(kept.last) : null;
      if (last?.t === "board") this.view.render(last);
    } catch {
      // none kept, or not a board of this version: nothing painted before the game master's
    }
  }

  // --- the other players' phones --------------------------------------------------------------

  reportMates() {
    const list = [...this.mates].filter(([, m]) => m.open).map(([fp]) => fp);
    this.view.showMates(list.length);
    this.gm?.send("mates", { list });
  }

  // The game master asks this phone to connect to `fp`'s: an offer, sent through it. How
  // many phones each connects to is the game master's engine's to say (engine/seating.py knit).
  async offerMate(fp) {
    if (this.mates.get(fp)?.open || this.offered.has(fp)) return;
    const made = await offer(this.server);
    const invitation = randomId();
    this.offered.set(fp, { ...made, invitation });
    setTimeout(() => {
      if (this.offered.get(fp)?.pc === made.pc && !this.mates.has(fp)) {
        this.offered.delete(fp);
        made.pc.close();
      }
    }, MATE_OFFER_LIFE);
    this.gm?.send("mate-offer", { peer: fp, code: encode({ kind: "offer", invitation, ice: made.ice }) });
  }

  // `fp`'s phone offers to connect (through the game master's page, which checked its
  // fingerprint): answered when the code is that phone's.
  async answerMate(fp, code) {
    const read = decoded(code, "offer", fp);
    if (!read || this.mates.get(fp)?.open) return;
    const made = await answer(read.ice, this.server);
    this.addMate(fp, made.pc, made.channel);
    this.gm?.send("mate-answer", { peer: fp, code: encode({ kind: "answer", invitation: read.invitation, ice: made.ice }) });
  }

  acceptMate(fp, code) {
    const offered = this.offered.get(fp);
    const read = decoded(code, "answer", fp);
    if (!offered || read?.invitation !== offered.invitation) return;
    this.offered.delete(fp);
    this.addMate(fp, offered.pc, offered.channel);
    accept(offered.pc, read.ice, this.server).catch(() => offered.pc.close());
  }

  addMate(fp, pc, channel) {
    this.mates.get(fp)?.end();
    const peer = new Peer(pc, channel, { maxIncoming: MAX_PROPOSAL });
    this.mates.set(fp, peer);
    peer.on("open", () => this.reportMates());
    peer.on("message", ({ text }) => this.fromMate(fp, peer, text));
    peer.on("lost", () => {
      if (this.mates.get(fp) !== peer) return;
      this.mates.delete(fp);
      this.reportMates();
      if (!this.gm && !this.joining && this.table) this.gmGone();
    });
  }

  async fromMate(fp, peer, text) {
    let message;
    try {
      message = fromMate(text);
    } catch (error) {
      if (error instanceof Refused && error.reason === "version") this.view.note(t("liveMateUpdate"));
      return;
    }
    if (message.t === "gm-answer") {
      // A mate's answer to the game master's offer this phone passed on: back to it.
      this.gm?.send("relayed", { from: fp, code: message.code });
      return;
    }
    // The game master's page, looking for this phone through a mate.
    const read = this.gmOffer(message.code);
    if (read) await this.answerOffer(read, peer);
  }

  // An offer of this table's game master's page that came another way than a scan (through
  // a mate, or another tab): what it carries when its fingerprint is that page's, else null
  // (nobody else's offer is answered). Its STUN or TURN server is used only if this phone's
  // user agreed to it before (nobody is there to ask).
  gmOffer(code) {
    const read = decoded(code, "offer", this.table);
    if (!read) return null;
    this.server = read.server && this.store.stunAgreed(read.server.url) ? read.server : null;
    return read;
  }

  // --- another tab of this phone ------------------------------------------------------------

  // True when another tab of this phone follows this table: the invitation is handed to it
  // (it keeps its connections with the other players), its answer shown here.
  elsewhere(code) {
    if (!this.tabs) return Promise.resolve(false);
    return new Promise((resolve) => {
      let other = null;
      const done = (value) => {
        this.tabs.removeEventListener("message", listen);
        resolve(value);
      };
      const listen = (event) => {
        const m = event.data;
        if (m?.to !== this.tab) return;
        if (m.t === "here" && !other) {
          other = m.from;
          this.tabs.postMessage({ t: "offer", to: other, from: this.tab, code, remote: this.remote });
        } else if (m.t === "answer" && m.from === other && typeof m.link === "string" && typeof m.code === "string") {
          this.view.showAnswer(m.link, m.code, { remote: this.remote });
          this.view.setState("answer", t(this.remote ? "liveRemoteSend" : "liveShowGm"));
        } else if (m.t === "joined" && m.from === other) {
          this.view.setState("elsewhere", t("liveElsewhere"));
          done(true);
        }
      };
      this.tabs.addEventListener("message", listen);
      this.tabs.postMessage({ t: "who", table: this.table, from: this.tab });
      setTimeout(() => {
        if (!other) done(false);
      }, TAB_WAIT);
    });
  }

  async fromTab(m) {
    if (!m || typeof m !== "object" || typeof m.from !== "string") return;
    const following = this.table !== null && (this.gm || [...this.mates.values()].some((p) => p.open));
    if (m.t === "who" && following && m.table === this.table) {
      this.tabs.postMessage({ t: "here", to: m.from, from: this.tab });
    } else if (m.t === "offer" && m.to === this.tab && typeof m.code === "string") {
      const read = this.gmOffer(m.code);
      if (!read) return;
      this.remote = m.remote === true; // through the chat: the reply waits here (waitForGm)
      const shown = await this.answerOffer(read);
      if (!shown) return;
      this.tabs.postMessage({ t: "answer", to: m.from, from: this.tab, ...shown });
      const handed = m.from;
      const joined = () => this.tabs.postMessage({ t: "joined", to: handed, from: this.tab });
      this.joining?.on("open", joined);
    }
  }
}

// The game master's camera app opened a player's answer link (#reponse=<answer>): it is
// handed to the Riposte tab open on this origin, which pairs; this tab says to go back
// (unless the game master's tab says nothing within HANDOFF_WAIT).

export function handOff(view) {
  view.enter();
  const code = codeIn(window.location, ANSWER_KEY);
  if (typeof BroadcastChannel !== "function") {
    view.setState("refused", t("liveHandoffNone"));
    return Promise.resolve(false);
  }
  const channel = new BroadcastChannel(HANDOFF);
  view.setState("pairing", t("liveHandoffSending"));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      view.setState("refused", t("liveHandoffNone"));
      resolve(false);
    }, HANDOFF_WAIT);
    channel.addEventListener("message", (event) => {
      if (event.data?.t !== "taken" || event.data.code !== code) return;
      clearTimeout(timer);
      view.setState(event.data.ok ? "handed" : "refused", t(event.data.ok ? "liveHandoffDone" : "liveHandoffRefused"));
      resolve(event.data.ok);
    });
    channel.postMessage({ t: "answer", code });
  });
}

// The page of a live link (web/live/follow.js liveRole): "guest" or "handoff".
export function startGuest(role, store, sheet) {
  const view = new LiveGuestView(sheet);
  if (role !== "guest") return handOff(view);
  const guest = new LiveGuest({ view, store });
  // For the tests (web/infra/hooks.js): what this page sends, raw; `next()`: the sequence
  // number this page's next play would carry (and takes it).
  if (HOOKED) expose("riposteLive", { raw: (text) => guest.gm?.sendText(text), next: () => guest.nextPlay() });
  return guest.start();
}
