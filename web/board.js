// The board (the fighters' cards, end and new round, undo and redo) and the players'
// view, read-only. Drawn from the board the engine answers; one listener per container.
import { $, h, isolate, own } from "./dom.js";
import { t, term } from "./i18n.js";

export class BoardView {
  constructor() {
    this.list = $("#board");
    this.cards = new Map(); // fighter id → { key, element }: a tap redraws only what changed
    this.pending = new Map(); // fighter id or "end-round" → taps waiting for the engine
    this.handlers = {};
    const steady = steadyTaps(this.list);
    this.list.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-do]");
      if (button && steady(event, button)) own(this.handlers, button.dataset.do)?.(button.dataset.id);
    });
    const byId = { "end-round": "endRound", "next-round": "nextRound", undo: "undo", redo: "redo", "close-players": "closePlayers" };
    for (const container of [$(".tools"), $(".board-tools"), $("#screen-players")]) {
      container.addEventListener("click", (event) => {
        const button = event.target.closest("button[id]");
        if (button && Object.hasOwn(byId, button.id)) own(this.handlers, byId[button.id])?.();
      });
    }
  }

  // handlers: act(id), interrupt(id), pass(id), endRound, nextRound, undo, redo, closePlayers.
  bind(handlers) {
    this.handlers = handlers;
  }

  render(board) {
    $("#round").textContent = board.round === 0 ? t("noRound") : t("round", board.round, board.round_over);
    const turn = turnText(board);
    $("#turn").textContent = turn;
    $("#players-turn").textContent = turn;
    const fighters = board.order.map((id) => own(board.combatants, id)).filter(Boolean);
    const top = Math.max(1, ...fighters.map((f) => f.initiative ?? 0));
    const cards = fighters.map((f) => {
      const key = cardKey(board, f, top);
      const known = this.cards.get(f.id);
      if (known?.key === key) return known.element;
      const element = card(board, f, top, true);
      this.cards.set(f.id, { key, element });
      return element;
    });
    const shown = this.list.children;
    if (shown.length === cards.length && cards.every((c, i) => shown[i].dataset.id === c.dataset.id)) {
      cards.forEach((c, i) => { if (shown[i] !== c) shown[i].replaceWith(c); });
    } else {
      this.list.replaceChildren(...cards);
    }
    this.roundOver = board.round_over;
    $("#end-round").disabled = board.round_over;
    $("#next-round").disabled = !board.round_over || fighters.length === 0;
    this.showPending();
  }

  // Taps made before the engine is up (issue #14): `key` (a fighter's id or "end-round")
  // is marked « en attente », its buttons off, until the engine took or dropped them.
  setPending(key, on) {
    const count = (this.pending.get(key) ?? 0) + (on ? 1 : -1);
    if (count > 0) this.pending.set(key, count);
    else this.pending.delete(key);
    this.showPending();
  }

  showPending() {
    for (const li of this.list.children) {
      const on = this.pending.has(li.dataset.id);
      if (on === li.classList.contains("pending")) continue;
      li.classList.toggle("pending", on);
      li.setAttribute("aria-busy", String(on));
      for (const button of li.querySelectorAll("button")) button.disabled = on;
      const badges = li.querySelector(".badges");
      if (on) badges.prepend(h("li", { class: "badge queued" }, t("queued")));
      else badges.querySelector(".queued")?.remove();
    }
    const end = $("#end-round");
    const waiting = this.pending.has("end-round");
    if (waiting !== end.classList.contains("pending")) {
      end.classList.toggle("pending", waiting);
      end.disabled = waiting || this.roundOver;
      end.textContent = waiting ? `${t("endRound")} (${t("queued")})` : t("endRound");
    }
  }

  // The players' view: drawn when it is on screen.
  renderPlayers(board) {
    $("#players-board").replaceChildren(...playerCards(board));
  }

  setHistory(canUndo, canRedo) {
    $("#undo").disabled = !canUndo;
    $("#redo").disabled = !canRedo;
  }

  // After an action the board is drawn anew: the focus goes to whoever acts now.
  focusTurn() {
    const next = this.list.querySelector("li.active button.primary");
    (next ?? $("#turn")).focus();
  }
}

// The players' cards, read-only (the players' view, and a player's phone on the live
// table, web/live/guest-view.js, whose board may hide a PNJ's details as null).
export function playerCards(board) {
  const fighters = board.order.map((id) => own(board.combatants, id)).filter((f) => f && !f.hors_combat);
  const top = Math.max(1, ...fighters.map((f) => f.initiative ?? 0));
  return fighters.map((f) => card(board, f, top, false));
}

// Whose turn it is, in words: the board's heading and what the live region says.
export function turnText(board) {
  const fighter = (id) => own(board.combatants, id) ?? { name: String(id), pi: 0 };
  const names = board.active.map((id) => isolate(fighter(id).name));
  if (board.round === 0) return Object.keys(board.combatants).length ? t("turnStart") : t("turnEmpty");
  if (board.round_over) return t("turnOver");
  if (board.phase) return t("turnPhase", isolate(fighter(board.phase).name));
  if (names.length === 1) return t("turnOne", names[0], fighter(board.active[0]).pi);
  return t("turnTie", fighter(board.active[0]).pi, names.join(", "));
}

// Everything a card shows, as one string: an unchanged fighter keeps its card.
function cardKey(board, f, top) {
  const { actions, declarations, ...shown } = f;
  return JSON.stringify([document.documentElement.lang, board.round, board.round_over, board.active, top,
    f.engaged_with.map((id) => own(board.combatants, id)?.name), shown]);
}

// One fighter's card; with ``controls`` its buttons (the board), without (the players' view).
function card(board, f, top, controls) {
  const active = board.active.includes(f.id);
  const inPlay = board.round > 0 && f.in_round && !f.hors_combat;
  const classes = ["fighter", active ? "active" : "", f.hors_combat ? "out" : "", f.passed ? "passed" : ""];
  const pi = f.in_round ? f.pi : null;
  const bar = h("span", { class: "pi-bar", "aria-hidden": "true" }, h("span", { class: pi !== null && pi <= 0 ? "empty" : "" }));
  bar.firstChild.style.width = `${pi === null ? 0 : Math.max(0, Math.min(100, (pi / top) * 100))}%`;
  const buttons = [];
  if (controls && active) buttons.push(h("button", { type: "button", class: "primary", dataset: { do: "act", id: f.id } }, t("act")));
  if (controls && inPlay) buttons.push(h("button", { type: "button", dataset: { do: "interrupt", id: f.id } }, t("interrupt")));
  if (controls && inPlay && !f.passed && !board.round_over) buttons.push(h("button", { type: "button", dataset: { do: "pass", id: f.id } }, t("pass")));
  return h("li", { class: classes.filter(Boolean).join(" "), dataset: { id: f.id } },
    h("div", { class: "fighter-head" },
      h("span", { class: "name" }, isolate(f.name)),
      h("span", { class: `side side-${f.side}` }, term("sides", f.side)),
      active ? h("span", { class: "now" }, board.active.length > 1 ? t("nowTie") : t("now")) : null,
      h("span", { class: "pi" }, pi === null ? "—" : t("pi", pi))),
    bar,
    h("ul", { class: "badges", "aria-label": t("state") }, badges(board, f).map((b) => h("li", { class: `badge ${b[1]}` }, b[0]))),
    buttons.length ? h("div", { class: "card-tools" }, buttons) : null);
}

function badges(board, f) {
  const out = [];
  if (f.hors_combat) out.push([t("badgeOut"), "bad"]);
  if (f.passed) out.push([t("badgePassed"), "muted"]);
  if (f.aim_bonus) out.push([t("badgeAim", f.aim_bonus), "good"]);
  if (f.charged) out.push([t("badgeCharged"), "warn"]);
  if (f.posture !== "debout") out.push([term("postures", f.posture), "warn"]);
  if (f.arrow_nocked) out.push([t("badgeArrow"), "good"]);
  if (f.cover) out.push([t("badgeCover"), "good"]);
  if (f.engaged) {
    const names = f.engaged_with.map((id) => own(board.combatants, id)?.name).filter(Boolean).map(isolate);
    out.push([names.length ? t("badgeEngagedWith", names.join(", ")) : t("badgeEngaged"), "warn"]);
  }
  const held = f.weapons.filter((w) => f.in_hand.includes(w.id)).map((w) => isolate(w.name));
  out.push([held.length ? t("badgeHeld", held.join(", ")) : t("badgeBare"), "muted"]);
  if (f.wounds) out.push([t("badgeWounds", f.wounds), "bad"]);
  if (f.hope !== null) out.push([t("badgeHope", f.hope), "muted"]); // null: hidden from the players (live table)
  if (f.in_round && f.d6) out.push([t("badgeInit", f.initiative, f.d6), "muted"]);
  return out;
}

// Quick taps land on what the user saw (issue 12): a tap on a board button that was not
// under the finger at the board tap just before it (it moved there, or appeared, when the
// board was drawn anew) is ignored while the taps come less than GUARD ms apart; a tap
// after a pause, after a tap outside the board (the action sheet, a tab), or anywhere
// else goes through at once. Taps from the keyboard are not guarded.
const GUARD = 400;

function steadyTaps(list) {
  let last = null; // { x, y, time, button }: the last tap, and the button it was meant for
  document.addEventListener("click", (event) => {
    if (!list.contains(event.target)) last = null;
  }, true);
  return (event, button) => {
    if (event.detail === 0) return true; // Enter or Space: the focus does not move under a finger
    const now = performance.now();
    const box = button.getBoundingClientRect();
    const inside = (x, y) => x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
    const moved = last && now - last.time < GUARD && last.button !== button && inside(last.x, last.y);
    last = { x: event.clientX, y: event.clientY, time: now, button: moved ? last.button : button };
    return !moved;
  };
}
