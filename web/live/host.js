// The game master's side of the live table: invitations, the players' answers (pasted,
// scanned, handed over by another tab, or passed on by another player's phone), the data
// channels, the spares and the relays. Transport and wiring only: who holds which PJ,
// what waits for the game master and what each phone is told are the engine's
// (engine/seating.py): every player's message and every tap of the game master on the
// table is one call (`hear`, `phone`, `host`), and every answer says what to send to whom
// (`live.told`) and what to draw (`live.view`). An answer that changed the fight carries
// the same part (engine/live.py), so one tap on the board is one call too. No DOM here
// (web/live/host-view.js).
//
// How it holds (phones known by their certificate, silent ones kept, mates and relays,
// spares): docs/LIVE-TABLE.md, « A table that holds ».
import { isolate } from "../infra/dom.js";
import { afterPaint } from "../infra/later.js";
import { actionName, language, t } from "../infra/i18n.js";
import { unwritten } from "../infra/refusals.js";
import { costLabel } from "../views/labels.js";
import { HANDOFF, pastedCode } from "./follow.js";
import { accept, close, farAddresses, hasWebRtc, offer, randomId, reoffer } from "./rtc.js";
import { Peer } from "./peer.js";
import { Restarts } from "./restart.js";
import { route, unreachable } from "./route.js";
import { fromPlayer, inOrder, MAX_PROPOSAL, rateLimit, Refused, wired } from "./protocol.js";
import { codeRefusal, decode, decoded, encode, isTurn, validServer } from "./signal.js";
import { invitationLink } from "./remote.js";
import { INVITATION_LIFE, MATE_AGAIN, RELAY_AGAIN, REMOTE_LIFE, REMOVED_WAIT } from "./timing.js";

// The players' plays ("n"), claims, weapons and dice, requests and the phones each reaches:
// the engine's to judge (engine/seating.py `judge`).
const JUDGED = new Set(["claim", "declare", "interrupt", "act", "pass", "mates"]);

export class LiveHost {
  // session: the board the engine last answered (web/infra/session.js); status: the page's
  // messages; store: the live table's storage (web/infra/store.js); view: LiveHostView;
  // awake: the screen's wake lock (web/live/awake.js); took(answer): what the board does
  // with an answer that changed the fight (web/infra/send.js), refused(answer): with one
  // the engine refused.
  constructor({ session, status, store, view, awake, took, refused }) {
    this.session = session;
    this.status = status;
    this.store = store;
    this.view = view;
    this.awake = awake;
    this.took = took;
    this.refused = refused;
    this.listeners = { proposals: [], accept: [], players: [] };
    this.table = null; // the engine's last view of the table (engine/seating.py gm_view)
    this.shown = null; // the players' board it last computed
    this.watching = false;
    this.kept = "";
    this.journals = null; // the live part whose journals wait for this page's paint (deliver)
    this.invitations = new Map(); // id → {pc, channel, at, for: fingerprint or null}
    this.links = new Map(); // fingerprint → the connection to that phone (see `link`)
    this.server = store.liveServer(validServer); // STUN or TURN, or null
    // Players away are looked for again, and mates not yet connected asked again, now and then.
    setInterval(() => this.knit(), RELAY_AGAIN / 2);
    view.bind({
      invite: () => this.invite(),
      inviteRemote: () => this.invite({ remote: true }),
      reinvite: () => this.invite({ scan: true }),
      answer: (text) => this.take(pastedCode(text)),
      scanned: (text) => this.take(pastedCode(text)),
      pnjDetails: (on) => this.ask({ what: "pnj_details", on }),
      server: (fields) => this.setServer(fields),
      acceptRequest: async (id) => {
        await this.ask({ what: "request", id, yes: true });
        this.emit("accept", id);
      },
      dismissRequest: (id) => this.ask({ what: "request", id, yes: false }),
      remove: (fp) => this.remove(fp),
      free: (fp) => this.ask({ what: "free", fp }),
      mute: (fp, on) => this.ask({ what: "mute", fp, on }),
      mode: (mode) => this.ask({ what: "mode", mode }),
      decide: (id, yes) => this.ask({ what: "line", id, yes }),
      decideClaim: (fp, yes) => this.ask({ what: "claim", fp, yes }),
      refuseAll: (fp) => this.ask({ what: "refuse_all", fp }),
    });
    view.showServer(this.server);
    // One answer, one delivery: the live part of every answer that changed the fight. Its
    // messages go to the phones as soon as the answer is taken, before its save is written
    // and this page's board drawn; the players' journals and the rest once the board is
    // drawn (each phone draws its board first).
    session.on("answer", (answer) => {
      if (answer?.live) this.send(answer.live, false);
    });
    session.on("change", (board, answer) => {
      if (answer?.live) this.deliver(answer.live, false);
      // A tab that follows another shows the writer's board as it came, its own engine
      // behind: the players' view shown here asks that engine, which reads the writer's
      // save first (web/infra/session.js `send`), for the players' board of now.
      else if (this.watching && this.session.readOnly) this.ask({ what: "watch", on: true });
    });
    session.on("words", () => this.draw());
    // Another fight opened: the engine tells each phone whether it was shown that fight
    // before (engine/seating.py `switched`: by the list's ids, which no phone is sent).
    session.on("switched", (to, from) => this.ask({ what: "switched", fight: to, from }));
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
    // The table this page kept, given back to the engine (every phone away until it connects).
    this.ask({ what: "restore", kept: store.liveTable() });
  }

  on(event, listener) {
    this.listeners[event].push(listener);
  }

  emit(event, value) {
    for (const listener of this.listeners[event]) listener(value);
  }

  // The players' view is on this device's screen: the engine computes its board too.
  watch() {
    this.watching = true;
    return this.ask({ what: "watch", on: true });
  }

  // --- the engine's answers ------------------------------------------------------------------

  // A tap of the game master on the table, to the engine; its answer delivered.
  ask(what) {
    return this.answered(this.session.call({ op: "host", do: what, writer: !this.session.readOnly }));
  }

  // What `request` (a call to the engine) answered: an answer that changed the fight goes
  // where the board's own do (its live part is delivered with the change), any other is
  // delivered here.
  async answered(request) {
    let answer;
    try {
      answer = await request;
    } catch {
      return null; // a fault: said by the session's listeners
    }
    if (answer.seq !== undefined) this.took(answer);
    else if (answer.live) this.deliver(answer.live);
    if (!answer.ok) this.refused(answer);
    return answer;
  }

  // The engine's live part: its messages sent (the journals last; `boards` false: the
  // others went first), the table drawn, the seating kept. After a change, the journals
  // go once this page's board is painted, not while the phones draw their boards; each
  // is the whole journal, so only the last of a burst goes (`journals`: it waits).
  deliver(live, boards = true) {
    if (boards) this.send(live, false);
    if (boards && this.journals === null) this.send(live, true);
    else {
      if (this.journals === null) afterPaint(() => {
        const last = this.journals;
        this.journals = null;
        this.send(last, true);
      });
      this.journals = live;
    }
    for (const [fp, type, fields] of live.told) {
      if (fp === "") this.say(type, fields, live.view);
    }
    this.table = live.view;
    this.shown = live.shown;
    const kept = JSON.stringify(live.kept);
    if (kept !== this.kept) {
      this.kept = kept;
      this.store.saveLiveTable(live.kept);
    }
    if (this.watching && live.shown) this.emit("players", live.shown);
    this.emit("proposals", new Map(Object.entries(live.view.proposals)));
    for (const [away, by] of live.relays ?? []) this.relay(away, by);
    this.draw();
  }

  // The engine's messages to the phones, each on its connection: the journals (`journals`
  // true) or all the others. The players' board and journal, the same for every phone,
  // encoded once (`wired`).
  send(live, journals) {
    const shared = new Map();
    for (const [fp, type, fields] of live.told) {
      if (fp !== "" && (type === "journal") === journals) this.links.get(fp)?.peer?.sendText(wired(type, fields, live, shared));
    }
  }

  // What the game master's status line says of the table (engine/seating.py `_said`); `view`:
  // the table as it is now (a claim's line as the list of claims says it).
  say(kind, { pj = null, fp = null, die = null }, view = null) {
    const name = isolate(this.fighterName(pj));
    const ask = view?.asks.find((a) => a.fp === fp);
    const said = {
      claimed: () => t("livePlayerClaimed", name),
      released: () => t("livePlayerReleased", name),
      asked: () => (ask ? askText(ask) : ""),
      given: () => t("liveClaimGiven", name, called(this.phone(fp))),
      declared: () => t("liveDeclared", name, die),
      request: () => t("liveRequest", name),
    }[kind];
    const text = said?.();
    if (text) this.status.announce(text);
  }

  phone(fp) {
    return this.table?.phones.find((p) => p.fp === fp) ?? null;
  }

  fighterName(id) {
    const board = this.session.board;
    return board && Object.hasOwn(board.combatants, id) ? board.combatants[id].name : id ?? "";
  }

  // A phone on the players' list: by the PJ it plays and the name its player gave it
  // (engine/seating.py phone_name), either alone, else by its number.
  label(p) {
    if (p?.name && p.pj) return t("livePhoneOf", isolate(p.pj), isolate(p.name));
    return p?.name ?? p?.pj ?? t("livePlayerN", p?.number ?? 0);
  }

  draw() {
    const table = this.table;
    if (!table) return;
    this.view.showMode(table.mode);
    this.view.showPnjDetails(table.pnj_details);
    this.view.showPlayers(table.phones.map((p) => {
      const link = this.links.get(p.fp);
      return { fp: p.fp, label: this.label(p), state: link?.connecting ? "connecting" : p.state,
        claim: p.claim, muted: p.muted, waiting: p.waiting, route: link?.peer?.open ? link.route ?? null : null };
    }));
    this.view.showRequests(table.requests);
    // When the asking phone first paired: a player's own phone back under a new certificate
    // paired just now, as would a stranger's; the game master tells them apart at the table.
    const time = (at) => new Date(at).toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" });
    this.view.showAsks(table.asks.map((a) => ({ fp: a.fp, text: askText(a), detail: a.since === null ? "" : t("liveFirstPaired", time(a.since)) })));
    this.view.showWaiting(table.lines.map((line) => ({ id: line.id, text: waitingLine(line) })));
    if (table.following) this.awake.on();
    else this.awake.off();
  }

  // --- the connections -----------------------------------------------------------------------

  // The connection to a phone, as this page keeps it.
  link(fp) {
    let link = this.links.get(fp);
    if (!link) {
      link = { fp, peer: null, rate: rateLimit(), throttled: false, spare: null, connecting: false, heard: inOrder() };
      this.links.set(fp, link);
    }
    return link;
  }

  // The server the game master typed ({url, user, password}, as the settings show them):
  // a STUN server's address alone, or a TURN server's with its user name and password; the
  // next invitations carry it. An address left empty: no server.
  setServer({ url = "", user = "", password = "" }) {
    url = String(url).trim();
    const turn = /^turns?:/.test(url);
    const server = !url ? null : turn ? { url, user: String(user).trim(), password: String(password) } : { url, user: "", password: "" };
    if (server && !validServer(server)) {
      this.view.serverError(t(turn && validServer({ ...server, user: "x", password: "x" }) ? "liveTurnLogin" : "liveStunBad"));
      return;
    }
    this.view.serverError("");
    if (!server && this.server === null) return; // a user name or password typed first: nothing to say yet
    this.server = server;
    // Said kept only once written: a write refused says the setting holds for this visit only.
    const failed = unwritten(this.store.saveLiveServer(server), "stun_not_kept");
    if (failed) this.status.refused(failed);
    else this.status.message(!server ? t("liveStunOff") : turn ? t("liveTurnSet", url, server.user) : t("liveStunSet", url));
  }

  // A new invitation, shown with its QR code in the invitation dialog (`scan`: with the
  // camera on, for a table to gather again: web/live/host-view.js). `remote`: « Inviter à
  // distance », a link for the group's chat (web/live/remote.js): it waits for its reply
  // for REMOTE_LIFE (an evening) instead of INVITATION_LIFE, and tells the player's page
  // that the reply goes back as a link, maybe minutes later.
  async invite({ scan = false, remote = false } = {}) {
    this.view.openInvite(null, { scan, remote });
    if (!hasWebRtc()) {
      this.view.inviteStatus(t("liveNoWebRtc"));
      return null;
    }
    const made = await this.offer(null, { remote });
    if (!made) return null;
    const link = invitationLink(window.location.href, made.code, remote);
    this.view.openInvite(link, { scan, remote });
    return link;
  }

  // An offer for `fp` (a player who is away, through a mate), or for anyone (null): its
  // code, the invitation kept until answered, expired or pushed out by newer ones.
  async offer(fp, { remote = false } = {}) {
    this.expire();
    let made;
    let code;
    const id = randomId();
    try {
      made = await offer(this.server);
      code = made.ice.candidates.length ? encode({ kind: "offer", invitation: id, ice: made.ice, server: this.server }) : null;
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
    // Room for this one: the engine names those that go (engine/live.py invitations_to_close).
    const open = [...this.invitations].map(([waiting, inv]) => ({ id: waiting, remote: inv.remote }));
    const room = await this.ask({ what: "invite", open });
    for (const gone of room?.live?.close ?? []) {
      this.invitations.get(gone)?.pc.close();
      this.invitations.delete(gone);
    }
    this.invitations.set(id, { pc: made.pc, channel: made.channel, ice: made.ice, at: Date.now(), for: fp, remote });
    if (remote) this.remoteKept((list) => [...list, { id, ufrag: made.ice.ufrag, pwd: made.ice.pwd, at: Date.now() }]);
    return { id, code };
  }

  expire() {
    const now = Date.now();
    for (const [id, inv] of this.invitations) {
      if (now - inv.at > (inv.remote ? REMOTE_LIFE : INVITATION_LIFE)) {
        inv.pc.close();
        this.invitations.delete(id);
      }
    }
    if (this.remoteKept().length !== this.store.liveInvitations().length) this.remoteKept((list) => list);
  }

  // The chat's invitations waiting, as kept in storage (web/infra/store.js
  // liveInvitations), those past REMOTE_LIFE left out; `change(list)`: the list to keep.
  remoteKept(change = null) {
    const now = Date.now();
    const list = this.store.liveInvitations().filter((inv) => now - inv.at <= REMOTE_LIFE);
    if (change) this.store.saveLiveInvitations(change(list));
    return list;
  }

  // A chat's invitation this page made before it reloaded (its connection gone with that
  // page), as an invitation with no connection: `again` makes one from its credentials.
  keptInvitation(id) {
    const kept = this.remoteKept().find((inv) => inv.id === id);
    return kept ? { pc: null, channel: null, ice: { ufrag: kept.ufrag, pwd: kept.pwd }, at: kept.at, for: null, remote: true } : null;
  }

  // True when `code` is an answer to one of this tab's open invitations.
  knows(code) {
    const read = decoded(code, "answer");
    return read !== null && (this.invitations.has(read.invitation) || this.keptInvitation(read.invitation) !== null);
  }

  // A player's answer code, pasted, scanned or handed over: true when it pairs.
  async take(code) {
    if (code === "") {
      this.view.inviteStatus(t("liveNothingPasted"));
      return false;
    }
    let read;
    try {
      read = decode(code, "answer");
    } catch (error) {
      this.view.inviteStatus(t(codeRefusal(error, "liveNotAnswer", "liveCodeDamaged")));
      return false;
    }
    this.expire();
    const inv = this.invitations.get(read.invitation) ?? this.keptInvitation(read.invitation);
    if (!inv || inv.for !== null) {
      this.view.inviteStatus(t("liveUnknownInvitation"));
      return false;
    }
    this.invitations.delete(read.invitation); // single-use
    if (inv.remote) this.remoteKept((list) => list.filter((kept) => kept.id !== read.invitation));
    const fp = read.ice.fingerprint;
    const known = this.phone(fp);
    this.view.inviteStatus(t("liveConnecting"));
    let ok = inv.pc ? await this.connect(fp, inv, read.ice, read.name) : false;
    if (!ok && inv.remote) ok = await this.again(fp, inv, read);
    if (ok) this.view.invited(t(known ? "livePairedAgain" : "livePaired", this.label(this.phone(fp))));
    else this.view.inviteStatus(t("liveFailed"));
    return ok;
  }

  // A reply sent through the chat comes minutes or hours after its invitation: the
  // connection kept waiting may not open with it (the player's page checked it long before;
  // Chromium says « failed » at once when the reply comes after a Firefox player's checks
  // gave up), or be gone with the page that made it (a reload). Once more then, or at
  // once, on a connection made again with the invitation's own user fragment, password and
  // certificate (kept across reloads), which the reply answers (web/live/rtc.js reoffer).
  async again(fp, inv, read) {
    let made;
    try {
      made = await reoffer(inv.ice, this.server);
    } catch {
      return false;
    }
    this.view.inviteStatus(t("liveConnecting"));
    return this.connect(fp, { ...inv, pc: made.pc, channel: made.channel }, read.ice, read.name);
  }

  // The connection to `fp`'s phone from an invitation and its answer (`ice`; null: the
  // answer is already in, a spare's): resolves true once open, false when it fails or takes
  // longer than CONNECT_LIMIT. The engine hears when it opens (with the name the answer
  // carried, `name`: "" for none, and then the engine keeps the one it had), goes silent,
  // is heard again, and is lost.
  connect(fp, inv, ice, name = "") {
    const link = this.link(fp);
    link.peer?.end();
    const peer = new Peer(inv.pc, inv.channel, { maxIncoming: MAX_PROPOSAL });
    link.peer = peer;
    link.connecting = true;
    this.draw();
    const state = (what) => this.answered(this.session.call({ op: "phone", fp, state: what, at: Date.now(),
      ...(what === "open" && name ? { name } : {}) }));
    return new Promise((resolve) => {
      // Not connected within CONNECT_LIMIT, or ICE failed: said at once (web/live/route.js).
      const watching = unreachable(inv.pc, () => {
        if (peer.state === "connecting") peer.end();
      });
      peer.on("open", async () => {
        watching();
        link.connecting = false;
        this.measure(link, peer);
        // Its ICE restarted when the player's network changes (web/live/restart.js).
        link.restarts = new Restarts(peer, () => this.server);
        await state("open");
        this.status.announce(t("livePlayerJoined", this.label(this.phone(fp))));
        this.spare(link);
        this.knit();
        resolve(true);
      });
      peer.on("message", ({ text }) => this.hear(link, peer, text));
      peer.on("silent", () => state("silent"));
      peer.on("heard", () => state("heard"));
      peer.on("oversized", () => peer.send("refused", { reason: "too_big" }));
      peer.on("lost", async () => {
        watching();
        resolve(false);
        if (link.peer !== peer) return; // replaced by a newer connection
        const was = link.connecting;
        link.peer = null;
        link.connecting = false;
        const known = this.phone(fp);
        await state("lost");
        if (known && !was) this.status.announce(t("livePlayerLost", this.label(known)));
        if (!this.phone(fp)) this.links.delete(fp);
        this.knit();
      });
      if (ice) accept(inv.pc, ice, this.server).catch(() => peer.end());
    });
  }

  // The route of `fp`'s connection (web/live/route.js: direct, via STUN, relayed), shown
  // beside it on the players' list; measured again whenever ICE says it connected anew.
  measure(link, peer) {
    const again = async () => {
      const found = await route(peer.pc);
      if (link.peer !== peer) return;
      link.route = found;
      this.draw();
    };
    again();
    peer.pc.addEventListener("iceconnectionstatechange", () => {
      if (["connected", "completed"].includes(peer.pc.iceConnectionState)) again();
    });
  }

  // A connection kept waiting for a phone's page to come back after a reload: its offer
  // goes to that phone, which answers it ahead of time (`ticket`).
  async spare(link) {
    this.dropSpare(link);
    let made;
    try {
      made = await offer(this.server);
    } catch {
      return;
    }
    if (!made.ice.candidates.length || !link.peer?.open || link.spare) {
      close(made.pc);
      return;
    }
    const id = randomId();
    link.spare = { id, pc: made.pc, channel: made.channel, answered: false };
    link.peer.send("spare", { code: encode({ kind: "offer", invitation: id, ice: made.ice, server: this.server }) });
  }

  // A phone's answer to its spare, made ahead of time: the spare waits with it, and
  // becomes that phone's connection when its page answers (after a reload).
  async ticket(link, code) {
    const spare = link.spare;
    const read = decoded(code, "answer", link.fp);
    if (!spare || spare.answered || read?.invitation !== spare.id) return;
    spare.answered = true;
    spare.channel.addEventListener("open", () => {
      if (link.spare !== spare || this.links.get(link.fp) !== link) return close(spare.pc);
      link.spare = null;
      return this.connect(link.fp, spare, null);
    }, { once: true });
    // Through a TURN server, the addresses this page reaches that phone at now: its relay
    // then lets the reloaded page's checks in (rtc.js farAddresses).
    const known = isTurn(this.server) && link.peer ? await farAddresses(link.peer.pc) : [];
    const ice = { ...read.ice, candidates: [...read.ice.candidates, ...known].slice(0, 8) };
    accept(spare.pc, ice, this.server).catch(() => this.dropSpare(link));
  }

  dropSpare(link) {
    close(link.spare?.pc);
    link.spare = null;
  }

  // --- the players' phones, connected with each other ----------------------------------------

  // The engine names the pairs of phones to connect and the phones away to look for
  // through a phone that reaches them (engine/seating.py `knit`), on this page's clock;
  // asked only while its last answer says there is something to knit.
  knit() {
    if (!this.table?.knit) return;
    this.ask({ what: "knit", now: Date.now(), again: MATE_AGAIN, relay_again: RELAY_AGAIN });
  }

  // A new offer for `away`, passed on by `mate`'s phone; its answer comes back the same way.
  async relay(away, mate) {
    const made = await this.offer(away);
    const peer = this.links.get(mate)?.peer;
    if (made && peer?.open) peer.send("relay", { to: away, code: made.code });
  }

  // The answer of `fp`'s phone to a relayed offer, passed on by a mate: taken only when it
  // answers the offer made for that phone, carries that phone's fingerprint, and that
  // phone is away.
  async relayed(fp, code) {
    const read = decoded(code, "answer", fp);
    const inv = read && this.invitations.get(read.invitation);
    if (!inv || inv.for !== fp) return;
    const answer = await this.ask({ what: "relayed", fp });
    if (!answer?.live?.relayed || !this.invitations.has(read.invitation)) return;
    this.invitations.delete(read.invitation);
    this.connect(fp, inv, read.ice, read.name);
  }

  // A code one phone asks to pass to another's (`to`): it must be an offer or answer of
  // the sender's own phone, and the engine must have introduced the two.
  async pass(from, to, type, code) {
    if (!decoded(code, type === "mate-offer" ? "offer" : "answer", from.fp)) return;
    const answer = await this.ask({ what: "pass", fp: from.fp, to });
    if (answer?.live?.pass) this.links.get(to)?.peer?.send(type, { peer: from.fp, code });
  }

  // --- what the players send ---------------------------------------------------------------

  // A phone's messages are heard in the order they came, each after the engine answered
  // the one before (what the phone is told keeps that order too).
  hear(link, peer, text) {
    if (link.peer !== peer || !peer.open) return;
    const allowed = link.rate();
    link.heard(() => this.heed(link, peer, text, allowed));
  }

  heed(link, peer, text, allowed) {
    if (link.peer !== peer || !peer.open) return undefined;
    // Too fast: refused unread, and said once per burst (a flood gets no flood back).
    if (!allowed) {
      if (!link.throttled) peer.send("refused", { reason: "rate" });
      link.throttled = true;
      return undefined;
    }
    link.throttled = false;
    let message;
    try {
      message = fromPlayer(text);
    } catch (error) {
      const reason = error instanceof Refused ? error.reason : "shape";
      if (reason === "version") this.status.message(t("livePlayerVersion", this.label(this.phone(link.fp))));
      return peer.send("refused", { reason });
    }
    const { t: type, v: _version, ...fields } = message;
    if (JUDGED.has(type)) {
      const heard = this.answered(this.session.call({ op: "hear", fp: link.fp, message: { t: type, ...fields }, writer: !this.session.readOnly }));
      // The phones a phone reaches changed: the pairs still to connect are asked at once.
      return type === "mates" ? heard.then(() => this.knit()) : heard;
    }
    switch (type) {
      case "bye":
        return peer.end();
      case "mate-offer":
      case "mate-answer":
        return this.pass(link, message.peer, type, message.code);
      case "relayed":
        return this.relayed(message.from, message.code);
      case "ticket":
        return this.ticket(link, message.code);
      case "restarted":
        return link.restarts?.peer === peer ? link.restarts.answered(message.code, link.fp) : undefined;
      default:
        return undefined;
    }
  }

  // --- the game master's hand on the table ---------------------------------------------------

  // Removes a player from the table: told, disconnected, forgotten (a new invitation may
  // bring them back). Its connection is no longer the player's (nothing more is heard from
  // it or said on it) and closes once « removed » has gone (Peer.finish); its spare is
  // closed, so that its page cannot come back through it.
  async remove(fp) {
    const gone = this.phone(fp);
    await this.ask({ what: "remove", fp });
    const link = this.links.get(fp);
    this.links.delete(fp);
    if (link) {
      this.dropSpare(link);
      const { peer } = link;
      link.peer = null;
      peer?.finish(REMOVED_WAIT);
    }
    if (gone) this.status.announce(t("livePlayerRemoved", this.label(gone)));
  }
}


// A phone in the game master's sentences, as the engine names it (engine/seating.py
// gm_view `called`), else by its number.
function called(p) {
  return isolate(p?.called ?? t("livePlayerN", p?.number ?? 0));
}

// A claim of a PJ whose phone is away, or of one a phone that follows holds (D27: the
// player back on a new phone asks the game master): « Le téléphone de Camille veut jouer
// Aldric, joué sur le téléphone de Lyra ».
function askText(a) {
  return a.holder && !a.holder.away ? t("liveClaimAskHeld", called(a), isolate(a.pj), called(a.holder)) : t("liveClaimAsk", called(a), isolate(a.pj));
}

// « Brune : Parer → Orque 1 (5 P.I.) », as a waiting line says it (engine/seating.py
// gm_view's `lines`: names, the action, its verdict, and the fighter the last command
// attacked when this interruption does not answer an attack on its actor).
function waitingLine(line) {
  const what = line.type === "pass" ? t("pass") : actionName(line.action);
  const text = t("liveWaitingLine", isolate(line.actor ?? ""), what, line.whom === null ? null : isolate(line.whom),
    line.verdict ? costLabel(line.verdict) : "");
  return line.elsewhere ? `${text} ${t("liveAttackElsewhere", isolate(line.elsewhere))}` : text;
}
