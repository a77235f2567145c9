// A player's phone on the live table: the connection's state, the answer
// to show the game master (QR code, text code, « Copier »), the page's own scanner for a
// new invitation, « Je joue … », the start-of-round declaration with its initiative's
// breakdown, « Demander une interruption », « À toi », and the board drawn by the board's
// own cards (web/board.js), read-only. One listener per container; no rule decided here.
import { chipLines, PlayerCards, targetsOf } from "../views/board-view.js";
import { entryText } from "../views/journal-view.js";
import { breakdownLabel, costLabel, playersTurnText, testsLabel } from "../views/labels.js";
import { $, arrange, h, isolate, own, setText } from "../infra/dom.js";
import { actionName, reason, refusal, t } from "../infra/i18n.js";
import { rollDie } from "../infra/die.js";
import { showQr } from "../infra/share-links.js";
import { buzz } from "./alert.js";
import { cameraTrouble, scanner } from "./scan.js";
import { nameOn, TurnClock } from "../views/clock-view.js";

// A claim's button, by what the engine says a claim of that PJ does (engine/seating.py
// `_board_for`, D27).
const CLAIM_WORDS = Object.freeze({ free: "liveClaim", ask: "liveClaimAway", held: "liveClaimHeld" });
// The states a scan of a new invitation is offered in (the page's own camera).
const SCAN_STATES = new Set(["rejoin", "lost", "away", "failed", "removed"]);

export class LiveGuestView {
  // sheet: the page's action sheet (web/views/sheet-view.js), to play this phone's PJ.
  constructor(sheet) {
    this.sheetView = sheet;
    this.sheetBound = false;
    this.root = $("#screen-live");
    this.handlers = {};
    this.chosen = false; // the player picked the weapon themselves (else theirs is not sent)
    this.scan = null;
    this.cards = new PlayerCards(); // the board's, each kept while unchanged
    this.drawn = new Map(); // element → what it shows (`redrawn`): the claims, the chips
    this.entries = []; // the journal's last entries (showJournal)
    $("#live-journal").addEventListener("toggle", (event) => {
      if (event.target.open) this.drawJournal();
    });
    this.root.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      if (button.id === "live-answer-copy") this.copy();
      else if (button.id === "live-answer-link-copy") this.copy("#live-answer-link", "liveReplyCopied");
      else if (button.dataset.claim) this.handlers.claim?.(button.dataset.claim, button.dataset.ask === "held");
      else if (button.id === "live-unclaim") this.handlers.claim?.(null);
      else if (button.id === "live-roll") {
        // The group's die (R1.2): as many faces as the engine's totals by face (`by_die`).
        $("#live-die").value = String(rollDie(undefined, this.me?.declarations[0]?.by_die?.length));
        this.updateBreakdown();
      } else if (button.id === "live-interrupt") this.interrupt();
      else if (button.id === "live-rejoin") this.startScan();
      else if (button.id === "live-scan-stop") this.stopScan();
      else if (button.dataset.play) this.play(button.dataset.play, button.dataset.action);
      else if (button.dataset.target !== undefined) this.aimed(button.dataset.target);
    });
    $("#live-phone-name").addEventListener("input", (event) => this.handlers.name?.(event.target.value));
    $("#live-alert").addEventListener("change", () => this.handlers.alert?.({ vibrate: $("#live-vibrate").checked, sound: $("#live-sound").checked }));
    $("#live-declare").addEventListener("input", (event) => {
      if (event.target.id === "live-weapon") this.chosen = true;
      this.updateBreakdown();
    });
    $("#live-declare").addEventListener("submit", (event) => {
      event.preventDefault();
      const raw = $("#live-die").value.trim();
      // Letters typed are said, never sent as an empty die that would be rolled for the player.
      if (raw !== "" && !/^[0-9]+$/.test(raw)) return this.note(reason("not_a_number", { field: "rolls.die" }));
      const die = raw === "" ? null : Number(raw);
      // A die alone keeps the weapon the game master's form has (the engine's suggestion):
      // the player's proposal never changes what it did not say.
      this.handlers.declare?.(this.chosen ? { weapon: $("#live-weapon").value || null, die } : { die });
    });
  }

  // handlers: claim(id or null, ask), name(text), declare({weapon?, die}), interrupt(), scanned(text);
  // when the players play their PJ: act(action, options), answer(action,
  // options), pass().
  bind(handlers) {
    this.handlers = handlers;
  }

  // How this phone says its PJ's turn, as its player chose (web/live/alert.js).
  showAlert({ vibrate, sound }) {
    $("#live-vibrate").checked = vibrate;
    $("#live-sound").checked = sound;
  }

  // --- the PJ played from this phone ----------------------------------------------

  // The action sheet of the game master's board, on this phone: this PJ's actions (or
  // interruptions) with their cost and verdict, then the options of the one picked.
  sheet() {
    if (!this.sheetBound) {
      this.sheetBound = true;
      this.sheetView.bindSubmit(({ action, interruption, options }) => {
        $("#sheet").close();
        this.picking = null;
        if (interruption) this.handlers.answer?.(action, this.withAttacker(options));
        else this.handlers.act?.(action, options);
        this.drawPlay();
      });
    }
    return this.sheetView;
  }

  // The board the sheet reads: the players' board, this PJ with its verdicts.
  sheetBoard() {
    const me = { ...this.board.combatants[this.claim], ...this.mine };
    return { ...this.board, catalogue: this.mine.catalogue, combatants: { ...this.board.combatants, [this.claim]: me } };
  }

  interrupt() {
    if (!this.mine) return this.handlers.interrupt?.(); // the players propose: a request
    return this.sheet().open(this.sheetBoard(), this.claim, true);
  }

  withAttacker(options) {
    return this.attack ? { ...options, against: this.attack.by } : options;
  }

  // A chip: an action (the sheet when it needs more than a target), an answer, a pass,
  // all the actions, nothing.
  play(what, action) {
    if (what === "pass") return this.handlers.pass?.();
    if (what === "all") return this.sheet().open(this.sheetBoard(), this.claim, false);
    if (what === "nothing") {
      this.attack = null;
      return this.drawPlay();
    }
    const spec = own(this.mine.catalogue, action);
    if (!spec) return undefined;
    const answer = what === "answer";
    if (spec.required.length) {
      return this.sheet().openAction(this.sheetBoard(), this.claim, answer, action, answer && this.attack ? { against: this.attack.by } : {});
    }
    if (answer) {
      this.handlers.answer?.(action, {});
      this.attack = null;
      return this.drawPlay();
    }
    if (spec.options.includes("target")) {
      this.picking = action;
      return this.drawPlay();
    }
    return this.handlers.act?.(action, {});
  }

  aimed(target) {
    const action = this.picking;
    this.picking = null;
    this.drawPlay();
    if (target === "\u2715") return undefined; // cancelled
    return this.handlers.act?.(action, target ? { target } : {});
  }

  // « Orque 1 t'attaque : Attaque au corps à corps », and this PJ's answers that fit it.
  attacked(by, action, answers) {
    this.attack = { by, action, answers, seq: this.seq };
    this.drawPlay();
    buzz([100, 50, 100]);
  }

  // What this phone may play now: its answers to an attack on it, or, on its turn, its
  // likely actions (then the targets of the one picked), « Passer », all its actions.
  drawPlay() {
    const place = $("#live-play");
    const me = this.claim && this.board ? own(this.board.combatants, this.claim) : null;
    if (!this.mine || !me) {
      this.redraw(place, [], () => []);
      place.hidden = true;
      return;
    }
    // What the chips show: the attack and its attacker's name, this PJ, its verdicts, its
    // likely actions, whether it acts now, the action it aims and its targets.
    const attackerName = this.attack ? own(this.board.combatants, this.attack.by)?.name ?? null : null;
    const drawn = [this.attack, attackerName, me, this.mine.actions, this.mine.likely, this.turn, this.picking,
      this.picking ? targetsOf(this.board, me).map((o) => [o.id, o.name]) : null];
    if (!this.redrawn(place, drawn)) return;
    const verdict = (action) => own(this.mine.actions, action) ?? {};
    const chip = (what, action, label, v = verdict(action)) => h("button", {
      type: "button", class: "chip", dataset: { play: what, action }, disabled: v.allowed === false,
      "aria-describedby": v.allowed === false ? `why-${what}-${action}` : null,
    }, ...chipLines(label, costLabel(v), testsLabel(v.tests, me.weapons)));
    const why = (what, action, v = verdict(action)) => (v.allowed === false
      ? h("small", { id: `why-${what}-${action}`, class: "reason" }, t("liveWhyOf", actionName(action), refusal(v))) : null);
    const parts = [];
    if (this.attack) {
      const fits = this.attack.answers;
      parts.push(h("p", { class: "live-attacked", role: "alert" }, t("liveAttacked", isolate(attackerName ?? "?"), actionName(this.attack.action))),
        h("div", { class: "chips", role: "group", "aria-label": t("liveAnswersFor", isolate(me.name)) },
          fits.map((a) => chip("answer", a, actionName(a))),
          h("button", { type: "button", class: "chip", dataset: { play: "nothing" } }, t("liveNothing"))),
        ...fits.map((a) => why("answer", a)).filter(Boolean));
    }
    const mine = this.turn; // its PJ acts now, as the game master's engine said (R2)
    if (mine && this.picking) {
      const targets = targetsOf(this.board, me);
      parts.push(h("div", { class: "chips targets", role: "group", "aria-label": t("targetFor", actionName(this.picking)) },
        h("span", { class: "chips-label" }, t("liveTargetLabel")),
        targets.map((o) => h("button", { type: "button", class: "chip target", dataset: { target: o.id } }, isolate(o.name))),
        h("button", { type: "button", class: "chip", dataset: { target: "" } }, t("liveNoTarget")),
        h("button", { type: "button", class: "chip", dataset: { target: "\u2715" }, "aria-label": t("liveCancel") }, "✕")));
    } else if (mine) {
      parts.push(h("div", { class: "chips", role: "group", "aria-label": t("liveYourActions", isolate(me.name)) },
        this.mine.likely.map((a) => chip("act", a, own(t("chips"), a) ?? actionName(a))),
        me.may?.pass.allowed ? h("button", { type: "button", class: "chip", dataset: { play: "pass" } }, t("pass")) : null,
        h("button", { type: "button", class: "chip more", dataset: { play: "all" } }, t("liveAllActions"))));
    }
    place.replaceChildren(...parts);
    place.hidden = parts.length === 0;
  }

  // Whether `element` shows other things than `what` (JSON values) in this page's
  // language: then it is to be drawn again, and `what` is kept as what it shows. The same
  // claims and chips left as they are cost the phone's frame nothing.
  redrawn(element, what) {
    const key = JSON.stringify([document.documentElement.lang, what]);
    if (this.drawn.get(element) === key) return false;
    this.drawn.set(element, key);
    return true;
  }

  // `element`'s children made by `draw()` anew when `what` they show changed (`redrawn`).
  redraw(element, what, draw) {
    if (this.redrawn(element, what)) element.replaceChildren(...draw());
  }

  // The journal as the players may see it: the last line said at once (« Brune : Parer,
  // 5 P.I., 8 → 3 »), the rest one tap away, its list drawn while it is open (a closed
  // journal costs each command nothing but its last line).
  showJournal(entries) {
    this.entries = entries;
    const last = entries.findLast((e) => e.kind === "action" || e.kind === "passed");
    $("#live-result").textContent = last ? t("liveLastResult", entryText(last)) : "";
    $("#live-journal").hidden = !entries.some((e) => entryText(e));
    if ($("#live-journal").open) this.drawJournal();
  }

  drawJournal() {
    const lines = this.entries.map(entryText).filter(Boolean);
    $("#live-journal-list").replaceChildren(...lines.slice(-40).reverse().map((line) => h("li", {}, line)));
  }

  // The page as a player's: no tabs, no engine status, nothing of the game master's.
  enter() {
    document.body.classList.add("guest");
    $("#engine-status").hidden = true;
    for (const el of document.querySelectorAll("main, main > section")) el.inert = false;
    for (const panel of document.querySelectorAll("[data-screen-panel]")) panel.hidden = panel !== this.root;
  }

  // state: "pairing", "answer", "connected", "silent", "away", "lost", "rejoin", "failed",
  // "refused", "removed", "elsewhere", "handed"; `text`: what to say.
  setState(state, text) {
    const el = $("#live-state");
    el.dataset.state = state;
    el.textContent = text;
    document.documentElement.dataset.live = state;
    $("#live-pair").hidden = state !== "answer";
    $("#live-me").hidden = state !== "connected" && state !== "silent";
    $("#live-rejoin").hidden = !SCAN_STATES.has(state);
    if (state !== "answer") this.hint("");
    if (state === "connected" || state === "answer") this.stopScan();
    if (state === "connected" && this.noted === "copied") this.note("");
  }

  // A word under the state: what to try when nothing happens.
  hint(text) {
    const el = $("#live-hint");
    el.textContent = text;
    el.hidden = !text;
  }

  // The name this phone's player gave it, in its field (not while they type in it).
  showName(name) {
    const field = $("#live-phone-name");
    if (document.activeElement !== field) field.value = name;
  }

  // The answer, shown for the game master: its link as a QR code, its code as text; for an
  // invitation sent through the chat (`remote`), its link alone, to copy and send back.
  showAnswer(link, code, { remote = false } = {}) {
    $("#live-answer").value = code;
    $("#live-answer-link").value = link;
    $("#live-reply").hidden = !remote;
    $("#live-answer-side").hidden = remote;
    $("#live-answer-qr").replaceChildren();
    if (!remote) showQr($("#live-answer-qr"), link, t("liveAnswerQrAlt"), () => $("#live-answer").value === code);
  }

  copy(which = "#live-answer", said = "liveCodeCopied") {
    const field = $(which);
    navigator.clipboard.writeText(field.value).then(() => this.note(t(said), "copied"), () => field.select());
  }

  // `about`: what the note is about, when it is spent by a later state ("copied": the
  // answer's code, spent once connected).
  note(text, about = null) {
    $("#live-note").textContent = text;
    this.noted = about;
  }

  // Who holds a PJ, in this page's language: « joué sur le téléphone de Lyra (absent) ».
  holder({ n, was, away }) {
    return t("liveHeldBy", holderName(n, was), away);
  }

  // A claim refused: « Aldric est déjà joué sur le téléphone de Lyra : le MJ peut le libérer. »
  taken(name, { n, was, away }) {
    return t("liveTaken", isolate(name), holderName(n, was), away);
  }

  // Asks whether to use the STUN or TURN server (`turn`) an invitation names, saying what
  // it would see: true to use it.
  askServer(url, turn) {
    const dialog = $("#live-stun-ask");
    $("#live-stun-ask-title").textContent = t(turn ? "liveTurnAskTitle" : "liveStunAskTitle");
    $("#live-stun-ask-text").textContent = t(turn ? "liveTurnAsk" : "liveStunAsk", url);
    dialog.showModal();
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    });
  }

  // The page's own camera, for the game master's invitation.
  async startScan() {
    this.stopScan();
    this.hint(t("liveScanningInvite"));
    try {
      this.scan = await scanner($("#live-video"), (text) => {
        this.stopScan();
        this.handlers.scanned?.(text);
      });
      $("#live-scan-stop").hidden = false;
    } catch (error) {
      this.hint(t("liveScanInviteFailed", cameraTrouble(error)));
    }
  }

  stopScan() {
    this.scan?.stop();
    this.scan = null;
    $("#live-scan-stop").hidden = true;
  }

  // The game master's board message (web/live/protocol.js `board`), drawn as it came: the
  // board the engine computed, `claim` the PJ this phone plays, `mine` its verdicts,
  // `claims` the PJ it may claim, in order, each free, held by a phone that follows
  // (« Demander … au MJ »: a claim that asks, D27) or by a phone away (a claim that goes to
  // the game master), with who holds it; `declare`: its PJ's weapon and die are asked now
  // (R1); `turn`: its PJ acts now (R2). All the game master's engine's (engine/seating.py
  // `_board_for`). `seq`: the board's number; an attack is answered on its own board only.
  // Returns this phone's PJ as the board shows it, or null.
  render({ seq, claim, board, mine = null, claims = [], declare = false, turn = false }) {
    if (this.attack && this.attack.seq < seq) this.attack = null;
    const me = own(board.combatants, claim) ?? null;
    this.turn = Boolean(me) && turn;
    this.seq = seq;
    this.board = board;
    this.claim = me ? claim : null;
    this.mine = me ? mine : null;
    if (this.picking && !own(this.mine?.actions, this.picking)?.allowed) this.picking = null;
    $("#live-claims").hidden = Boolean(me);
    const claimable = claims.filter((c) => own(board.combatants, c.id)).map((c) => ({ ...c, name: board.combatants[c.id].name }));
    this.redraw($("#live-claims"), [claimable], () => claimable.map(({ id, may, holder, name }) => {
      const button = h("button", { type: "button", class: "wide", dataset: may === "held" ? { claim: id, ask: "held" } : { claim: id },
        "aria-describedby": holder ? `held-${id}` : null }, t(CLAIM_WORDS[may], isolate(name)));
      return holder ? h("p", { class: "live-held" }, button, h("small", { id: `held-${id}`, class: "reason" }, this.holder(holder))) : button;
    }));
    $("#live-mine").hidden = !me;
    setText($("#live-mine-name"), me ? t("livePlaying", isolate(me.name)) : "");
    // The start of a round: this PJ's weapon and die, with its breakdown (R1.3).
    const declaring = Boolean(me) && declare;
    const form = $("#live-declare");
    if (declaring && (form.hidden || this.me?.id !== me.id)) this.chosen = false; // a new declaration
    form.hidden = !declaring;
    this.me = me;
    if (declaring) {
      const select = $("#live-weapon");
      const kept = this.chosen ? select.value : null; // the player's choice, kept across boards
      select.replaceChildren(...me.declarations.map((d) => h("option", { value: d.weapon ?? "" }, d.weapon ? isolate(d.name) : t("bareHands"))));
      const has = (value) => me.declarations.some((d) => (d.weapon ?? "") === value);
      // The engine's suggestion (R1.1, D2: always a weapon it may declare, or bare hands).
      select.value = kept !== null && has(kept) ? kept : me.suggested_declaration ?? "";
      this.updateBreakdown();
    }
    $("#live-interrupt").hidden = me?.may?.interrupt.allowed !== true; // the engine's verdict (R5, D6)
    setText($("#live-interrupt"), this.mine ? t("liveInterruptions") : t("liveInterrupt"));
    this.drawPlay();
    setText($("#round"), board.round === 0 ? t("noRound") : t("round", board.round, board.round_over));
    // Whose turn it is, and when this PJ's comes (the engine's `ahead`: engine/players.py),
    // said again in the page's live region when it changes.
    const text = [playersTurnText(board), comingText(board, this.claim, this.turn)].filter(Boolean).join(" ");
    setText($("#live-turn"), text);
    if (text !== this.said) {
      this.said = text;
      $("#live").textContent = text;
    }
    // The turn clock the game master turned on (engine/live.py players_clock), counted on
    // from when this phone was told (web/live/guest.js: `started`).
    const clock = board.clock;
    this.clock ??= new TurnClock($("#live-clock"));
    this.clock.show(clock && typeof clock.started === "number" ? { id: clock.id, started: clock.started, limit: clock.limit } : null,
      nameOn(board, clock?.id));
    arrange($("#live-board"), this.cards.draw(board));
    return me;
  }

  updateBreakdown() {
    const me = this.me;
    if (!me) return;
    const weapon = $("#live-weapon").value || null;
    const d = me.declarations.find((x) => x.weapon === weapon) ?? me.declarations[0];
    $("#live-breakdown").textContent = d ? breakdownLabel(me, d, Number.parseInt($("#live-die").value, 10)) : "";
  }

  // How many other players' phones this one reaches (`data-mates` on <html>: a page that
  // can bring the others back if the game master's reloads).
  showMates(count) {
    document.documentElement.dataset.mates = String(count);
  }

  // « À toi »: shown while this player's PJ is active (or tied); true when it just began.
  yours(on, name) {
    const el = $("#live-yours");
    const was = !el.hidden;
    el.hidden = !on;
    el.textContent = on ? t("liveYours", isolate(name)) : "";
    return on && !was;
  }
}

// When this phone's PJ (`claim`) acts, from the players' board's `ahead` (engine/players.py:
// how many fighters the players see have more P.I., and whether some PNJ's are hidden):
// « À vous après 2 combattants. »; "" on its turn, with no PJ, or when it acts no more.
function comingText(board, claim, turn) {
  const ahead = board.ahead;
  if (!claim || turn || !ahead || typeof ahead.pj !== "object" || !Object.hasOwn(ahead.pj, claim)) return "";
  const n = ahead.pj[claim];
  if (!Number.isInteger(n) || n < 0) return "";
  return ahead.unseen ? t("liveComingUnseen", n) : t("liveComing", n);
}

// A phone that holds a PJ, named by the PJ it played before, else by its number.
function holderName(n, was) {
  return was === null ? t("livePlayerN", n) : isolate(was);
}
