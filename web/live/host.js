// The game master's side of the live table (issues #15, #23): invitations, the players'
// answers (pasted, scanned, handed over by another tab, or passed on by another player's
// phone), the players who follow and what they see. No DOM here (web/live/host-view.js):
// what the round form and the board must show is said to the page through `on`
// ("proposals", "accept").
//
// The engine stays the only authority: after every change the players get the players'
// view of the board; what a player sends is checked (web/live/protocol.js) and is only
// ever a proposal: a die and a weapon filled into the start-of-round form, an interruption
// request shown on the board, both for the game master to take or leave.
//
// A table that holds (issue #23):
// - Each player is known by their phone's certificate (web/live/identity.js): one row per
//   phone, whatever happens to its connections; kept in storage (web/store.js) with the PJ
//   it plays, so that a reload of this page forgets nobody.
// - A silent phone is shown silent and kept: only WebRTC ends a connection (web/live/peer.js).
// - The players' phones are connected with each other too ("mates", brokered here): when
//   a player's connection to this page is gone (this page reloaded, or that phone's link
//   failed) while a mate still reaches it, this page makes a new offer for it and the mate
//   passes it on, and its answer back. The fingerprints in those codes are checked here and
//   on the player's phone: a player can pass codes on, not forge them (the DTLS handshake
//   proves each side holds its certificate's key).
// - A player's page that reloads comes back by itself: while it follows, this page keeps
//   one more connection waiting for it (its `spare`), whose offer that phone answered ahead
//   of time (its ticket, kept by the tab); the reloaded page answers with the same, and
//   the waiting connection opens with no scan (web/live/rtc.js ticket, resume).
import { isolate } from "../infra/dom.js";
import { actionName, t } from "../infra/i18n.js";
import { costLabel } from "../views/labels.js";
import { HANDOFF, OFFER_KEY, pastedCode } from "./follow.js";
import { accept, close, hasWebRtc, offer, randomId } from "./rtc.js";
import { Peer } from "./peer.js";
import { Plays, waitingLine } from "./plays.js";
import { fromPlayer, MAX_MATES, MAX_PROPOSAL, rateLimit, Refused } from "./protocol.js";
import { CodeError, decode, encode, validStun } from "./signal.js";
import { CONNECT_LIMIT, INVITATION_LIFE, JOURNAL_WAIT, MATE_AGAIN, RELAY_AGAIN, REMOVED_WAIT } from "./timing.js";

export const OPEN_INVITATIONS = 8;
// The players' journal: its last commands' entries, sent once the game master's taps pause
// (JOURNAL_WAIT).
const JOURNAL_LAST = 60;

export class LiveHost {
  // session: the board the engine last answered (web/session.js); status: the page's
  // messages; store: the live table's storage (web/store.js); view: LiveHostView; awake:
  // the screen's wake lock (web/live/awake.js).
  // run(command): the board's way to apply a command (what a player plays); watching():
  // whether the players' view is on this device's screen (it is drawn from the same board).
  constructor({ session, status, store, view, awake, run, watching = () => false }) {
    this.session = session;
    this.status = status;
    this.store = store;
    this.view = view;
    this.awake = awake;
    this.watching = watching;
    this.listeners = { proposals: [], accept: [], players: [] };
    this.shown = null; // the engine's last players' board: {board, mine, catalogue, attack} (engine/players.py)
    this.invitations = new Map(); // id → {pc, channel, at, for: fingerprint or null}
    this.players = new Map(); // fingerprint → player (see `player`)
    this.requests = []; // fighter ids asking to interrupt, in order
    this.proposals = new Map(); // fighter id → {weapon?, die, round, from, edited}
    this.knitting = new Map(); // "fpA fpB" → when the game master asked A to reach B
    const kept = store.liveTable();
    this.pnjDetails = kept.pnjDetails;
    for (const p of kept.players) this.players.set(p.fp, this.player(p, true));
    this.stun = store.liveStun(validStun);
    this.seq = 0;
    this.plays = new Plays({ session, run, view, mode: kept.mode, seen: (id) => this.seen(id),
      tell: (p, type, fields) => p.peer?.send(type, fields), changed: () => this.show(),
      refuse: (p, reason, error) => this.refuse(p, reason, error) });
    this.journalTimer = null;
    // Players away are looked for again, and mates not yet connected asked again, now and then.
    setInterval(() => this.knit(), RELAY_AGAIN / 2);
    view.bind({
      invite: () => this.invite(),
      reinvite: () => this.invite({ scan: true }),
      answer: (text) => this.take(pastedCode(text)),
      scanned: (text) => this.take(pastedCode(text)),
      pnjDetails: (on) => {
        this.pnjDetails = on;
        this.keep();
        this.refresh();
      },
      stun: (value) => this.setStun(value),
      acceptRequest: (id) => this.acceptRequest(id),
      dismissRequest: (id) => this.dismissRequest(id),
      remove: (fp) => this.remove(fp),
      free: (fp) => this.free(fp),
      mute: (fp, on) => this.mute(fp, on),
      mode: (mode) => {
        this.plays.setMode(mode);
        this.keep();
        this.refresh();
      },
      decide: (id, yes) => this.plays.decide(id, yes),
      decideClaim: (fp, yes) => this.decideClaim(fp, yes),
      refuseAll: (fp) => this.refuseAll(fp),
    });
    view.showMode(this.plays.mode);
    view.showStun(this.stun);
    view.showPnjDetails(this.pnjDetails);
    session.on("change", (board, answer) => this.changed(board, answer));
    session.on("words", () => this.show());
    session.on("switched", () => this.switched());
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
    this.show();
  }

  on(event, listener) {
    this.listeners[event].push(listener);
  }

  emit(event, value) {
    for (const listener of this.listeners[event]) listener(value);
  }

  // A player as this page keeps it; `fp`, `number`, `claim` and `muted` are stored.
  // `kept`: known from storage (it followed this table before this page loaded).
  player({ fp, number, claim = null, muted = false, name = null }, kept = false) {
    return { fp, number, claim, muted, name, state: "away", peer: null, rate: rateLimit(), throttled: false, mates: [],
      dismissed: null, relayAt: 0, known: kept, asks: null, was: null, played: 0, spare: null };
  }

  keep() {
    this.store.saveLiveTable({
      pnjDetails: this.pnjDetails,
      mode: this.plays.mode,
      players: [...this.players.values()].map((p) => ({ fp: p.fp, number: p.number, claim: p.claim, muted: p.muted, name: this.label(p) })),
    });
  }

  setStun(value) {
    const stun = String(value ?? "").trim();
    if (stun && !validStun(stun)) {
      this.view.stunError(t("liveStunBad"));
      return;
    }
    this.stun = stun;
    this.view.stunError("");
    this.store.saveLiveStun(stun);
    this.status.message(stun ? t("liveStunSet", stun) : t("liveStunOff"));
  }

  // --- invitations and answers -------------------------------------------------------------

  // A new invitation, shown with its QR code in the invitation dialog (`scan`: with the
  // camera on, for a table to gather again: web/live/host-view.js).
  async invite({ scan = false } = {}) {
    this.view.openInvite(null, { scan });
    if (!hasWebRtc()) {
      this.view.inviteStatus(t("liveNoWebRtc"));
      return null;
    }
    const made = await this.offer(null);
    if (!made) return null;
    const url = new URL(window.location.href);
    url.search = "";
    url.hash = `${OFFER_KEY}=${made.code}`;
    this.view.openInvite(url.href, { scan });
    return url.href;
  }

  // An offer for `fp` (a player who is away, through a mate), or for anyone (null): its
  // code, the invitation kept until answered, expired or pushed out by newer ones.
  async offer(fp) {
    this.expire();
    let made;
    let code;
    const id = randomId();
    try {
      made = await offer(this.stun);
      code = made.ice.candidates.length ? encode({ kind: "offer", invitation: id, ice: made.ice, stun: this.stun }) : null;
    } catch {
      made?.pc.close();
      this.view.inviteStatus(t("liveNoWebRtc"));
      return null;
    }
    if (!code) {
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
    this.invitations.set(id, { pc: made.pc, channel: made.channel, at: Date.now(), for: fp });
    return { id, code };
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
    let read;
    try {
      read = decode(code, "answer");
    } catch (error) {
      const reason = error instanceof CodeError ? error.reason : "damaged";
      this.view.inviteStatus(t(reason === "version" ? "liveUpdate" : reason === "kind" ? "liveNotAnswer" : "liveCodeDamaged"));
      return false;
    }
    this.expire();
    const inv = this.invitations.get(read.invitation);
    if (!inv || inv.for !== null) {
      this.view.inviteStatus(t("liveUnknownInvitation"));
      return false;
    }
    this.invitations.delete(read.invitation); // single-use
    const fp = read.ice.fingerprint;
    const known = this.players.get(fp);
    const player = known ?? this.player({ fp, number: this.nextNumber() });
    this.players.set(fp, player);
    this.view.inviteStatus(t("liveConnecting"));
    const ok = await this.connect(player, inv, read.ice);
    if (ok) this.view.invited(t(known ? "livePairedAgain" : "livePaired", this.label(player)));
    else this.view.inviteStatus(t("liveFailed"));
    return ok;
  }

  nextNumber() {
    const taken = new Set([...this.players.values()].map((p) => p.number));
    let n = 1;
    while (taken.has(n)) n += 1;
    return n;
  }

  // The connection to `player` from an invitation and its answer (`ice`; null: the answer
  // is already in, a spare's): resolves true once open, false when it fails or takes
  // longer than CONNECT_LIMIT.
  connect(player, inv, ice) {
    player.peer?.end();
    const peer = new Peer(inv.pc, inv.channel, { maxIncoming: MAX_PROPOSAL });
    player.peer = peer;
    player.state = "connecting";
    this.show();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (peer.state === "connecting") peer.end();
      }, CONNECT_LIMIT);
      peer.on("open", () => {
        clearTimeout(timer);
        player.state = "connected";
        player.known = true;
        player.relayAt = 0;
        player.played = 0; // the plays' sequence numbers of this connection
        this.keep();
        this.status.announce(t("livePlayerJoined", this.label(player)));
        if (this.shown) this.sendBoards();
        else this.refresh();
        this.pushJournal();
        this.show();
        this.spare(player);
        resolve(true);
      });
      peer.on("message", ({ text }) => this.hear(player, text));
      peer.on("silent", () => {
        player.state = "silent";
        this.show();
      });
      peer.on("heard", () => {
        player.state = "connected";
        this.show();
      });
      peer.on("oversized", () => this.refuse(player, "too_big"));
      peer.on("lost", () => {
        clearTimeout(timer);
        resolve(false);
        if (player.peer !== peer) return; // replaced by a newer connection
        const was = player.state;
        player.peer = null;
        player.state = "away";
        player.mates = [];
        // A first pairing that failed leaves no row: nobody was there.
        if (!player.known) this.players.delete(player.fp);
        else if (was !== "connecting") this.status.announce(t("livePlayerLost", this.label(player)));
        this.dropRequests(player);
        this.sendBoards(); // its PJ is now held by a phone away
        this.show();
        this.knit();
      });
      if (ice) accept(inv.pc, ice).catch(() => peer.end());
    });
  }

  // A connection kept waiting for `player`'s page to come back after a reload: its offer
  // goes to that phone, which answers it ahead of time (`ticket`).
  async spare(player) {
    this.dropSpare(player);
    let made;
    try {
      made = await offer(this.stun);
    } catch {
      return;
    }
    if (!made.ice.candidates.length || !player.peer?.open || player.spare) {
      close(made.pc);
      return;
    }
    const id = randomId();
    player.spare = { id, pc: made.pc, channel: made.channel, answered: false };
    player.peer.send("spare", { code: encode({ kind: "offer", invitation: id, ice: made.ice, stun: this.stun }) });
  }

  // `player`'s answer to its spare, made ahead of time: the spare waits with it, and
  // becomes that player's connection when its page answers (after a reload).
  ticket(player, code) {
    const spare = player.spare;
    let read;
    try {
      read = decode(code, "answer");
    } catch {
      return;
    }
    if (!spare || spare.answered || read.invitation !== spare.id || read.ice.fingerprint !== player.fp) return;
    spare.answered = true;
    spare.channel.addEventListener("open", () => {
      if (player.spare !== spare || !this.players.has(player.fp)) return close(spare.pc);
      player.spare = null;
      return this.connect(player, spare, null);
    }, { once: true });
    accept(spare.pc, read.ice).catch(() => this.dropSpare(player));
  }

  dropSpare(player) {
    close(player.spare?.pc);
    player.spare = null;
  }

  // --- the players' phones, connected with each other ----------------------------------------

  // Asks each pair of players following whose phones are not connected yet to connect (the
  // one with the smaller fingerprint offers), and looks for each player who is away
  // through a mate that still reaches them.
  knit() {
    const open = [...this.players.values()].filter((p) => p.peer?.open);
    const now = Date.now();
    for (const a of open) {
      for (const b of open) {
        if (a.fp >= b.fp || a.mates.includes(b.fp) || b.mates.includes(a.fp)) continue;
        if (a.mates.length >= MAX_MATES || b.mates.length >= MAX_MATES) continue;
        const key = `${a.fp} ${b.fp}`;
        if (now - (this.knitting.get(key) ?? -Infinity) < MATE_AGAIN) continue;
        this.knitting.set(key, now);
        a.peer.send("mate-open", { peer: b.fp });
      }
    }
    for (const away of this.players.values()) {
      if (away.state !== "away" || now < away.relayAt) continue;
      const mate = open.find((p) => p.mates.includes(away.fp));
      if (mate) this.relay(away, mate);
    }
  }

  // A new offer for `away`, passed on by `mate`'s phone; its answer comes back the same way.
  async relay(away, mate) {
    away.relayAt = Date.now() + RELAY_AGAIN;
    const made = await this.offer(away.fp);
    if (made && mate.peer?.open) mate.peer.send("relay", { to: away.fp, code: made.code });
  }

  // The answer of `fp`'s phone to a relayed offer, passed on by a mate: taken only when it
  // answers the offer made for that phone and carries that phone's fingerprint.
  relayed(fp, code) {
    let read;
    try {
      read = decode(code, "answer");
    } catch {
      return;
    }
    const inv = this.invitations.get(read.invitation);
    const player = this.players.get(fp);
    if (!inv || inv.for !== fp || read.ice.fingerprint !== fp || !player || player.peer?.open) return;
    this.invitations.delete(read.invitation);
    this.connect(player, inv, read.ice);
  }

  // A code one player's phone asks to pass to another's (`to`), checked: it must be an
  // offer or answer of the sender's own phone, and the two must be meant to connect.
  pass(from, to, type, code) {
    const target = this.players.get(to);
    let read;
    try {
      read = decode(code, type === "mate-offer" ? "offer" : "answer");
    } catch {
      return;
    }
    const key = from.fp < to ? `${from.fp} ${to}` : `${to} ${from.fp}`;
    if (read.ice.fingerprint !== from.fp || !this.knitting.has(key) || !target?.peer?.open) return;
    target.peer.send(type, { peer: from.fp, code });
  }

  // --- what the players see ----------------------------------------------------------------

  changed(board, answer) {
    if (!board) return;
    // A proposal is for one round: kept until a later one has started (an undone start
    // of round shows it again), then dropped.
    for (const [id, p] of this.proposals) {
      if (p.round < board.round || !Object.hasOwn(board.combatants, id)) this.proposals.delete(id);
    }
    this.emit("proposals", this.proposals);
    this.requests = this.requests.filter((id) => {
      const f = this.fighter(id);
      return f && !interruptionRefused(f);
    });
    this.plays.changed(board);
    this.undoneSaid(answer);
    this.refresh(true);
    this.pushJournal();
    this.show();
  }

  // Another fight opened on this page: what the players asked in the fight before goes
  // (waiting plays refused, requests and dice dropped), and every phone is told (not which
  // fight: its name is the game master's), after the new fight's board.
  async switched() {
    this.plays.clear("fight_switched");
    this.requests = [];
    this.proposals.clear();
    this.emit("proposals", this.proposals);
    this.show();
    await this.refresh();
    for (const p of this.players.values()) p.peer?.send("opened");
  }

  // The game master's undo (or redo) of a player's play, said on the phone of the player
  // who plays that PJ: the engine's answer names the command undo took back (`undone`) or
  // redo did again (`redone`).
  undoneSaid(answer) {
    for (const type of ["undone", "redone"]) {
      const command = answer?.[type];
      if (!command?.by_player) continue;
      for (const p of this.players.values()) {
        if (p.claim === command.actor && p.peer?.open) p.peer.send(type, { action: command.type === "pass" ? null : command.action });
      }
    }
  }

  // The players' board as the engine makes it (engine/players.py: D26, D4, the PNJ's values
  // as the game master chose), asked after every change while someone sees it (a player's
  // phone, or the players' view on this device), sent to every player's phone and drawn on
  // this device's players' view alike. `changed`: the fight changed (an attack the players
  // see is then told to its target's phone, with its answers).
  async refresh(changed = false) {
    const open = [...this.players.values()].filter((p) => p.peer?.open);
    if (!this.session.board || (!open.length && !this.watching())) {
      this.shown = null;
      return;
    }
    let answer;
    try {
      answer = await this.session.call({ op: "show", players: true, pnj_details: this.pnjDetails });
    } catch {
      return; // a fault: said by the session's listeners
    }
    if (!answer.ok) return;
    const { mine, catalogue, ...board } = answer.board;
    this.shown = { board, mine, catalogue, attack: answer.attack };
    this.seq += 1;
    this.sendBoards();
    this.emit("players", board);
    const attack = changed ? this.shown.attack : null;
    const target = attack && [...this.players.values()].find((p) => p.claim === attack.target && p.peer?.open);
    if (target && this.plays.mode !== "off") target.peer.send("attacked", { by: attack.by, action: attack.action });
  }

  // A fighter on the players' board (null: not there, hidden from them).
  seen(id) {
    const combatants = this.shown?.board.combatants;
    return combatants && Object.hasOwn(combatants, id) ? combatants[id] : null;
  }

  // The players' board, with what this player's phone needs to play its own PJ: the
  // engine's `mine` for it, a PJ the players see.
  // `held`: the PJ other phones play, each with who holds it (`holder`), so that this
  // phone's list greys them (or, for a phone away, offers to ask the game master).
  sendBoard(player) {
    if (!this.shown || !player.peer?.open) return;
    const { board, mine, catalogue } = this.shown;
    const claim = player.claim && Object.hasOwn(mine, player.claim) ? player.claim : null;
    const its = claim && this.plays.mode !== "off" ? { ...mine[claim], catalogue } : null;
    const held = {};
    for (const p of this.players.values()) {
      if (p !== player && p.claim && Object.hasOwn(mine, p.claim)) held[p.claim] = this.holder(p);
    }
    player.peer.send("board", { seq: this.seq, claim, board, held, ...(its ? { mine: its } : {}) });
  }

  sendBoards() {
    for (const player of this.players.values()) this.sendBoard(player);
  }

  // Who holds a PJ, as a player's phone words it: the holder's number on the table, the
  // PJ its phone played before (a name on the players' board), and whether it is away.
  holder(p) {
    const was = p.was && this.seen(p.was) ? this.seen(p.was).name : null;
    return { n: p.number, was, away: p.state === "away" };
  }

  // A phone as the game master's page names it in a sentence: by the PJ it plays, else
  // by the one it played before, else by its number.
  phoneName(player) {
    const f = player.claim ? this.fighter(player.claim) : player.was && this.fighter(player.was);
    return f ? f.name : t("livePlayerN", player.number);
  }

  // The journal as the players may see it (engine/journal.py, D26): its last entries, to
  // every player's phone, once the game master's taps are done.
  pushJournal() {
    clearTimeout(this.journalTimer);
    this.journalTimer = setTimeout(async () => {
      const open = [...this.players.values()].filter((p) => p.peer?.open);
      if (!open.length || !this.session.board) return;
      const answer = await this.session.call({ op: "journal", players: true, pnj_details: this.pnjDetails, last: JOURNAL_LAST });
      if (!answer.ok) return;
      for (const player of open) player.peer?.send("journal", { entries: answer.entries });
    }, JOURNAL_WAIT);
  }

  // A refusal told to the player: `reason` one the player's page knows (web/live/guest.js
  // `gmRefusal`: a reason of the engine's catalogues, live_…), or "engine" with the engine's
  // `error` ({code, key, params, message}), worded on the player's phone in its own language.
  refuse(player, reason, error = null, fields = {}) {
    player.peer?.send("refused", error ? { reason, error: { code: error.code, key: error.key ?? null, params: error.params ?? {},
      message: error.reason ?? error.message ?? "" } } : { reason, ...fields });
  }

  // A player by the PJ it plays, else by its number; before the engine's first board (this
  // page just reloaded), by the name kept with the table.
  label(player) {
    const f = player.claim && this.fighter(player.claim);
    if (f) return f.name;
    if (!this.session.board && player.claim && player.name) return player.name;
    return t("livePlayerN", player.number);
  }

  fighter(id) {
    const board = this.session.board;
    return board && Object.hasOwn(board.combatants, id) ? board.combatants[id] : null;
  }

  show() {
    const players = [...this.players.values()].sort((a, b) => a.number - b.number);
    this.view.showPlayers(players.map((p) => ({ fp: p.fp, label: this.label(p), state: p.state, claim: p.claim, muted: p.muted,
      waiting: this.waitingOf(p) })));
    this.view.showRequests(this.requests.map((id) => ({ id, name: this.fighter(id)?.name ?? id })));
    this.view.showAsks(players.filter((p) => p.asks && this.fighter(p.asks))
      .map((p) => ({ fp: p.fp, text: t("liveClaimAsk", isolate(this.phoneName(p)), isolate(this.fighter(p.asks).name)) })));
    if (players.some((p) => p.peer?.open)) this.awake.on();
    else this.awake.off();
  }

  // --- what the players send ---------------------------------------------------------------

  hear(player, text) {
    if (!player.peer?.open) return undefined;
    // Too fast: refused unread, and said once per burst (a flood gets no flood back).
    if (!player.rate()) {
      if (!player.throttled) this.refuse(player, "rate");
      player.throttled = true;
      return undefined;
    }
    player.throttled = false;
    let message;
    try {
      message = fromPlayer(text);
    } catch (error) {
      const reason = error instanceof Refused ? error.reason : "shape";
      if (reason === "version") this.status.message(t("livePlayerVersion", this.label(player)));
      return this.refuse(player, reason);
    }
    if (Object.hasOwn(message, "n")) {
      // A play replayed, or older than one already heard on this connection: refused
      // before anything reads it (the game master's engine judges each play once).
      if (message.n <= player.played) return this.refuse(player, "replayed");
      player.played = message.n;
    }
    switch (message.t) {
      case "bye":
        return player.peer.end();
      case "claim":
        return this.claim(player, message.id);
      case "mates":
        player.mates = message.list.filter((fp) => this.players.has(fp) && fp !== player.fp);
        this.show();
        return this.knit();
      case "mate-offer":
      case "mate-answer":
        return this.pass(player, message.peer, message.t, message.code);
      case "relayed":
        return this.relayed(message.from, message.code);
      case "ticket":
        return this.ticket(player, message.code);
      case "act":
      case "pass":
        return this.play(player, message);
      case "interrupt":
        return Object.hasOwn(message, "action") ? this.play(player, message) : this.propose(player, message);
      default:
        return this.propose(player, message);
    }
  }

  // A PJ belongs to the phone that claimed it until that phone lets it go or the game
  // master frees it: a claim of a PJ another phone holds is refused with who holds it
  // when that phone follows, and goes to the game master as a line to accept when it is
  // away (it may be asleep, or this player's own phone under a new certificate).
  async claim(player, id) {
    if (id !== null && !this.shown) await this.refresh(); // a phone back before anyone saw the board
    player.asks = null;
    if (id === null) {
      if (player.claim) this.status.announce(t("livePlayerReleased", this.label(player)));
      this.letGo(player);
    } else {
      const f = this.fighter(id);
      if (!f || !this.shown || !Object.hasOwn(this.shown.mine, id)) return this.refuse(player, "not_pj"); // a PJ the players see
      const holder = [...this.players.values()].find((p) => p !== player && p.claim === id);
      if (holder && holder.state !== "away") return this.refuse(player, "taken", null, { pj: id, holder: this.holder(holder) });
      if (holder) {
        player.asks = id;
        this.status.announce(t("liveClaimAsk", isolate(this.phoneName(player)), isolate(f.name)));
        this.show();
        return player.peer?.send("ok", { what: "claimAsked" });
      }
      this.letGo(player);
      player.claim = id;
      this.status.announce(t("livePlayerClaimed", f.name));
    }
    this.keep();
    this.sendBoards();
    this.tellAttack(player);
    return this.show();
  }

  // The attack on the PJ `player` just claimed, while it is the last command (a phone back
  // after a reload): told again, with its answers.
  tellAttack(player) {
    const attack = this.shown?.attack;
    if (attack && player.claim === attack.target && this.plays.mode !== "off" && player.peer?.open) {
      player.peer.send("attacked", { by: attack.by, action: attack.action });
    }
  }

  // A player's PJ let go (« Changer », freed, handed to another phone): remembered as the
  // one its phone played before, to name that phone.
  letGo(player) {
    if (player.claim) player.was = player.claim;
    player.claim = null;
  }

  // The game master's answer to a claim of a PJ held by a phone away: accepted, the PJ
  // goes to the asking phone and the phone away keeps its row, without a PJ (told who
  // holds it when it comes back); refused, the asking phone is told.
  decideClaim(fp, yes) {
    const player = this.players.get(fp);
    const id = player?.asks;
    if (!id) return undefined;
    player.asks = null;
    const f = this.fighter(id);
    if (!yes || !f || !player.peer?.open) {
      this.show();
      return this.refuse(player, "claim_refused");
    }
    for (const holder of this.players.values()) {
      if (holder !== player && holder.claim === id) {
        this.dropRequests(holder);
        this.letGo(holder);
      }
    }
    this.dropRequests(player);
    this.letGo(player);
    player.claim = id;
    this.status.announce(t("liveClaimGiven", isolate(f.name), isolate(this.phoneName(player))));
    this.keep();
    this.sendBoards();
    return this.show();
  }

  // A player's own action, interruption or pass (issue #24): for the PJ it plays only.
  play(player, message) {
    const f = player.claim && this.seen(player.claim) && this.fighter(player.claim);
    if (!f) return this.refuse(player, "no_claim");
    if (player.muted) return this.refuse(player, "muted");
    const name = (id) => isolate(this.fighter(id)?.name ?? id);
    const price = (command) => {
      const verdict = command.action ? this.fighter(command.actor)?.actions?.[command.action] : null;
      return verdict ? costLabel(verdict) : "";
    };
    return this.plays.hear(player, f, message, (command, elsewhere) => waitingLine(command, name, price, actionName, elsewhere));
  }

  async propose(player, message) {
    const f = player.claim && this.seen(player.claim) && this.fighter(player.claim);
    if (!f) return this.refuse(player, "no_claim");
    if (player.muted) return this.refuse(player, "muted");
    if (message.t === "declare") {
      // The engine judges the declaration as the start of the round would (R1, D2, D6):
      // a round going on, a PJ out of the fight, a weapon not in hand are its refusals.
      const declared = Object.hasOwn(message, "weapon") ? { declarations: { [f.id]: message.weapon } } : {};
      const checked = await this.session.call({ op: "check", command: { type: "start_round", rolls: { [f.id]: message.die }, ...declared } });
      if (!checked.ok) return this.refuse(player, "engine", checked.error);
      const board = this.session.board;
      const round = board.round + 1;
      const earlier = this.proposals.get(f.id);
      if (earlier?.round === round && earlier.edited) return this.refuse(player, "gm_edited");
      const proposal = { die: message.die, round, from: player.fp, edited: false };
      if (Object.hasOwn(message, "weapon")) proposal.weapon = message.weapon;
      this.proposals.set(f.id, proposal);
      this.emit("proposals", this.proposals);
      this.status.announce(t("liveDeclared", f.name, message.die));
      return player.peer?.send("ok", { what: "declare" });
    }
    if (message.t === "interrupt") {
      // An interruption is possible when the engine allows one to this PJ now (R5.1, D20):
      // the verdicts the board carries, whatever the attack (the answers' own reasons
      // come when the game master opens them).
      const refused = interruptionRefused(f);
      if (refused) return this.refuse(player, "engine", refused);
      if (player.dismissed === this.seq) return this.refuse(player, "dismissed");
      if (!this.requests.includes(f.id)) this.requests.push(f.id);
      this.status.announce(t("liveRequest", f.name)); // shown on the board, where it is accepted
      this.show();
      return player.peer?.send("ok", { what: "interrupt" });
    }
    return this.refuse(player, "shape");
  }

  // The game master edited a proposed row of the round form: the player's next proposal for
  // that round does not overwrite it (it is refused, and the player told why).
  edited(id) {
    const p = this.proposals.get(id);
    if (p) p.edited = true;
  }

  acceptRequest(id) {
    this.dismissRequest(id, "interruptAccepted");
    this.emit("accept", id);
  }

  dismissRequest(id, what = "interruptDismissed") {
    this.requests = this.requests.filter((r) => r !== id);
    for (const p of this.players.values()) {
      if (p.claim !== id || !p.peer?.open) continue;
      if (what === "interruptDismissed") p.dismissed = this.seq; // not again until the board changes
      p.peer.send("ok", { what });
    }
    this.show();
  }

  dropRequests(player) {
    player.asks = null;
    this.plays.drop(player);
    const others = [...this.players.values()].filter((p) => p !== player && p.peer?.open).map((p) => p.claim);
    this.requests = this.requests.filter((id) => id !== player.claim || others.includes(id));
  }

  // --- the game master's hand on the table ---------------------------------------------------

  // Removes a player from the table: told, disconnected, forgotten (a new invitation may
  // bring them back). Its connection is no longer the player's (nothing more is heard from
  // it or said on it) and closes once « removed » has gone (Peer.finish); its spare is
  // closed, so that its page cannot come back through it.
  remove(fp) {
    const player = this.players.get(fp);
    if (!player) return;
    this.players.delete(fp);
    this.dropSpare(player);
    const { peer } = player;
    player.peer = null;
    peer?.send("removed");
    peer?.finish(REMOVED_WAIT);
    if (player.claim) this.sendBoards(); // its PJ is free
    this.dropRequests(player);
    this.status.announce(t("livePlayerRemoved", this.label(player)));
    this.keep();
    this.show();
  }

  // Whether `player` has anything waiting for the game master: a play, an interruption
  // request, a claim.
  waitingOf(player) {
    return Boolean(this.plays.of(player) || player.asks || (player.claim && this.requests.includes(player.claim)));
  }

  // « Refuser tout »: everything `fp`'s player has waiting is refused, and the player told.
  refuseAll(fp) {
    const player = this.players.get(fp);
    if (!player) return;
    const line = this.plays.of(player);
    if (line) this.plays.decide(line.id, false);
    if (player.claim && this.requests.includes(player.claim)) this.dismissRequest(player.claim);
    if (player.asks) this.decideClaim(fp, false);
    this.show();
  }

  // Frees the PJ a player plays: the player chooses again.
  free(fp) {
    const player = this.players.get(fp);
    if (!player?.claim) return;
    this.dropRequests(player);
    this.status.announce(t("livePlayerReleased", this.label(player)));
    this.letGo(player);
    this.keep();
    this.sendBoards();
    this.show();
  }

  // A muted player's requests and declarations are refused (and the player told so).
  mute(fp, on) {
    const player = this.players.get(fp);
    if (!player) return;
    player.muted = on;
    if (on) this.dropRequests(player);
    this.keep();
    this.show();
  }
}

// Why `f` may not interrupt now (its first interruption's verdict, as the engine judged
// it: R5.1, R5.2, D6, D20), or null when one of its interruptions is allowed. The page
// decides nothing: these are the verdicts the board carries (engine/view.py).
function interruptionRefused(f) {
  const verdicts = Object.values(f.actions ?? {}).filter((v) => v.category === "interruption");
  return verdicts.some((v) => v.allowed) || verdicts.length === 0 ? null : verdicts[0];
}
