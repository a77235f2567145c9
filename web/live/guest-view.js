// A player's phone on the live table (issues #15, #23): the connection's state, the answer
// to show the game master (QR code, text code, « Copier »), the page's own scanner for a
// new invitation, « Je joue … », the start-of-round declaration with its initiative's
// breakdown, « Demander une interruption », « À toi », and the board drawn by the board's
// own cards (web/board.js), read-only. One listener per container; no rule decided here.
import { playerCards } from "../views/board-view.js";
import { turnText } from "../views/labels.js";
import { $, h, isolate } from "../infra/dom.js";
import { refusal, t } from "../infra/i18n.js";
import { breakdownLabel } from "../views/labels.js";
import { rollDie } from "../infra/die.js";
import { qrSvg } from "../infra/links.js";
import { scanner } from "./scan.js";

// The states a scan of a new invitation is offered in (the page's own camera).
const SCAN_STATES = new Set(["rejoin", "lost", "away", "failed", "removed"]);

export class LiveGuestView {
  constructor() {
    this.root = $("#screen-live");
    this.handlers = {};
    this.chosen = false; // the player picked the weapon themselves (else theirs is not sent)
    this.scan = null;
    this.root.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      if (button.id === "live-answer-copy") this.copy();
      else if (button.dataset.claim) this.handlers.claim?.(button.dataset.claim);
      else if (button.id === "live-unclaim") this.handlers.claim?.(null);
      else if (button.id === "live-roll") {
        $("#live-die").value = String(rollDie());
        this.updateBreakdown();
      } else if (button.id === "live-interrupt") this.handlers.interrupt?.();
      else if (button.id === "live-rejoin") this.startScan();
      else if (button.id === "live-scan-stop") this.stopScan();
    });
    $("#live-declare").addEventListener("input", (event) => {
      if (event.target.id === "live-weapon") this.chosen = true;
      this.updateBreakdown();
    });
    $("#live-declare").addEventListener("submit", (event) => {
      event.preventDefault();
      const raw = $("#live-die").value.trim();
      const die = raw === "" ? null : Number(raw);
      // A die alone keeps the weapon the game master's form has (the engine's suggestion):
      // the player's proposal never changes what it did not say (issue #23).
      this.handlers.declare?.(this.chosen ? { weapon: $("#live-weapon").value || null, die } : { die });
    });
  }

  // handlers: claim(id or null), declare({weapon?, die}), interrupt(), scanned(text).
  bind(handlers) {
    this.handlers = handlers;
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
  }

  // A word under the state: what to try when nothing happens.
  hint(text) {
    const el = $("#live-hint");
    el.textContent = text;
    el.hidden = !text;
  }

  // The answer, shown for the game master: its link as a QR code, its code as text.
  showAnswer(link, code) {
    $("#live-answer").value = code;
    $("#live-answer-qr").replaceChildren();
    qrSvg(link).then((svg) => {
      if (!svg || $("#live-answer").value !== code) return;
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", t("liveAnswerQrAlt"));
      $("#live-answer-qr").replaceChildren(svg);
    });
  }

  copy() {
    const field = $("#live-answer");
    navigator.clipboard.writeText(field.value).then(() => this.note(t("liveCodeCopied")), () => field.select());
  }

  note(text) {
    $("#live-note").textContent = text;
  }

  // An engine refusal, in this page's language (web/i18n.js).
  reason(error) {
    return refusal(error);
  }

  // Asks whether to use the STUN server an invitation names: true to use it.
  askStun(stun) {
    const dialog = $("#live-stun-ask");
    $("#live-stun-ask-text").textContent = t("liveStunAsk", stun);
    dialog.showModal();
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    });
  }

  // The page's own camera, for the game master's invitation.
  async startScan() {
    this.stopScan();
    const video = $("#live-video");
    this.hint(t("liveScanningInvite"));
    try {
      this.scan = await scanner(video, (text) => {
        this.stopScan();
        this.handlers.scanned?.(text);
      });
      video.hidden = false;
      $("#live-scan-stop").hidden = false;
    } catch (error) {
      this.hint(t("liveScanInviteFailed", error?.name === "NotAllowedError" ? t("liveCameraDenied") : t("liveCameraNone")));
    }
  }

  stopScan() {
    this.scan?.stop();
    this.scan = null;
    $("#live-video").hidden = true;
    $("#live-scan-stop").hidden = true;
  }

  // The board the game master's engine computed, the player's own PJ, and what they may do.
  render(board, claim) {
    const pjs = board.order.map((id) => board.combatants[id]).filter((f) => f.side === "pj" && !f.hors_combat);
    const me = claim && Object.hasOwn(board.combatants, claim) ? board.combatants[claim] : null;
    $("#live-claims").hidden = Boolean(me);
    $("#live-claims").replaceChildren(...pjs.map((f) => h("button", { type: "button", class: "wide", dataset: { claim: f.id } },
      t("liveClaim", isolate(f.name)))));
    $("#live-mine").hidden = !me;
    $("#live-mine-name").textContent = me ? t("livePlaying", isolate(me.name)) : "";
    // The start of a round: this PJ's weapon and die, with its breakdown (R1.3).
    const declaring = Boolean(me) && !me.hors_combat && (board.round === 0 || board.round_over);
    const form = $("#live-declare");
    if (declaring && (form.hidden || this.me?.id !== me.id)) this.chosen = false; // a new declaration
    form.hidden = !declaring;
    this.me = me;
    if (declaring) {
      const select = $("#live-weapon");
      const kept = this.chosen ? select.value : null; // the player's choice, kept across boards
      select.replaceChildren(...me.declarations.map((d) => h("option", { value: d.weapon ?? "" }, d.weapon ? isolate(d.name) : t("bareHands"))));
      const has = (value) => me.declarations.some((d) => (d.weapon ?? "") === value);
      select.value = kept !== null && has(kept) ? kept : me.suggested_declaration ?? "";
      if (!has(select.value)) select.value = me.declarations[0]?.weapon ?? "";
      this.updateBreakdown();
    }
    const inPlay = Boolean(me) && board.round > 0 && me.in_round && !me.hors_combat;
    $("#live-interrupt").hidden = !inPlay;
    $("#round").textContent = board.round === 0 ? t("noRound") : t("round", board.round, board.round_over);
    // A PNJ's P.I. may be hidden (null): then only whose turn it is.
    const first = board.active.length ? board.combatants[board.active[0]] : null;
    const hidden = first && first.pi === null && board.round > 0 && !board.round_over && !board.phase;
    $("#live-turn").textContent = hidden ? t("liveTurnHidden", board.active.map((id) => isolate(board.combatants[id].name)).join(", ")) : turnText(board);
    $("#live-board").replaceChildren(...playerCards(board));
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
