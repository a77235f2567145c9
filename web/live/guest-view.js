// A player's phone following the live table (issue #15): the connection's state, the
// answer to show the game master (QR code, text code, « Copier »), « Je joue … », the
// start-of-round declaration, « Demander une interruption », « À toi », and the board
// drawn by the board's own cards (web/views/board-view.js), read-only. One listener per container.
import { playerCards } from "../views/board-view.js";
import { turnText } from "../views/labels.js";
import { $, h, isolate } from "../infra/dom.js";
import { t } from "../infra/i18n.js";
import { qrSvg } from "../infra/links.js";

export class LiveGuestView {
  constructor() {
    this.root = $("#screen-live");
    this.handlers = {};
    this.root.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      if (button.id === "live-answer-copy") this.copy();
      else if (button.dataset.claim) this.handlers.claim?.(button.dataset.claim);
      else if (button.id === "live-unclaim") this.handlers.claim?.(null);
      else if (button.id === "live-roll") $("#live-die").value = String(1 + (crypto.getRandomValues(new Uint8Array(1))[0] % 6));
      else if (button.id === "live-interrupt") this.handlers.interrupt?.();
    });
    $("#live-declare").addEventListener("submit", (event) => {
      event.preventDefault();
      const raw = $("#live-die").value.trim();
      this.handlers.declare?.($("#live-weapon").value || null, raw === "" ? null : Number(raw));
    });
  }

  // handlers: claim(id or null), declare(weapon, die), interrupt.
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

  // state: "pairing", "answer", "connected", "lost", "failed", "refused"; `text`: what to say.
  setState(state, text) {
    const el = $("#live-state");
    el.dataset.state = state;
    el.textContent = text;
    document.documentElement.dataset.live = state;
    $("#live-pair").hidden = state !== "answer";
    $("#live-me").hidden = state !== "connected";
  }

  // The answer, shown for the game master: its link as a QR code, its code as text.
  showAnswer(link, code) {
    $("#live-answer").value = code;
    $("#live-answer-qr").replaceChildren();
    qrSvg(link).then((svg) => {
      if (!svg) return;
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

  // The board the game master's engine computed, the player's own PJ, and what they may do.
  render(board, claim) {
    const pjs = board.order.map((id) => board.combatants[id]).filter((f) => f.side === "pj" && !f.hors_combat);
    const me = claim && Object.hasOwn(board.combatants, claim) ? board.combatants[claim] : null;
    $("#live-claims").hidden = Boolean(me);
    $("#live-claims").replaceChildren(...pjs.map((f) => h("button", { type: "button", class: "wide", dataset: { claim: f.id } },
      t("liveClaim", isolate(f.name)))));
    $("#live-mine").hidden = !me;
    $("#live-mine-name").textContent = me ? t("livePlaying", isolate(me.name)) : "";
    // The start of a round: this PJ's weapon and die.
    const declaring = Boolean(me) && !me.hors_combat && (board.round === 0 || board.round_over);
    $("#live-declare").hidden = !declaring;
    if (declaring) {
      const select = $("#live-weapon");
      const chosen = select.options.length ? select.value : null; // the player's choice, kept across boards
      const options = me.declarations.map((d) => h("option", { value: d.weapon ?? "" }, d.weapon ? isolate(d.name) : t("bareHands")));
      select.replaceChildren(...options);
      const fallback = me.declarations.find((d) => d.weapon === me.declared) ?? me.declarations[1] ?? me.declarations[0];
      select.value = chosen !== null && me.declarations.some((d) => (d.weapon ?? "") === chosen) ? chosen : fallback?.weapon ?? "";
    }
    const inPlay = Boolean(me) && board.round > 0 && !board.round_over && me.in_round && !me.hors_combat;
    $("#live-interrupt").hidden = !inPlay;
    $("#round").textContent = board.round === 0 ? t("noRound") : t("round", board.round, board.round_over);
    // A PNJ's P.I. may be hidden (null): then only whose turn it is.
    const first = board.active.length ? board.combatants[board.active[0]] : null;
    const hidden = first && first.pi === null && board.round > 0 && !board.round_over && !board.phase;
    $("#live-turn").textContent = hidden ? t("liveTurnHidden", board.active.map((id) => isolate(board.combatants[id].name)).join(", ")) : turnText(board);
    $("#live-board").replaceChildren(...playerCards(board));
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
