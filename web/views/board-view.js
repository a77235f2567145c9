// The board, the game master's cockpit: one compact row per fighter (name,
// side, P.I. and its bar, the badges that matter now; a tap on the row shows the rest,
// with the wounds and Espoir steppers), the likely actions of whoever acts on its own
// card with the fighters as target chips, and a dock that stays on screen: the answers
// of an attacked fighter, the last action, errors, end and new round. Also the players'
// view, read-only. Drawn from the board the engine answers; one listener per container.
import { $, arrange, h, isolate, limitFields, own, presses, setText } from "../infra/dom.js";
import { actionName, refusal, t, term } from "../infra/i18n.js";
import { commandLabel, costLabel, playersTurnText, testsLabel, turnText } from "./labels.js";

export class BoardView {
  constructor() {
    this.list = $("#board");
    this.reactionBox = $("#reaction");
    this.cards = new KeyedCards(); // a tap redraws only what changed
    this.playerCards = new PlayerCards(); // the players' view's
    this.pending = new Map(); // fighter id or "end-round" → taps waiting for the engine
    this.handlers = {};
    this.board = null;
    this.open = new Set(); // the rows shown whole (a tap on the row)
    this.picking = null; // { id, action }: an action waiting for its target
    this.reaction = null; // { attacker, target }: the attacked fighter's answers, in the dock
    this.used = {}; // fighter id → its last action (engine/table.py `used`)
    this.revealing = false; // a reveal waits for the next frame
    const history = [$("#undo"), $("#redo")]; // guarded as the board's buttons
    // A tap taken as the one before it is said in the dock, until a tap goes through.
    const same = $("#board-same");
    const steady = steadyTaps([this.list, this.reactionBox, ...history], (taken) => {
      same.textContent = t("sameTap");
      same.hidden = !taken;
    });
    const tap = (event) => {
      const button = event.target.closest("button[data-do]");
      if (!button || !steady(event, button)) return;
      const { do: what, id } = button.dataset;
      if (what === "toggle") this.toggle(id);
      else if (what === "untarget") {
        const keep = this.keepFocus();
        this.pick(null);
        keep();
      }
      else own(this.handlers, what)?.(id, { ...button.dataset, ...notesOf(button) });
    };
    // Enter in a row's field: its notes recorded (as its « OK »), its wounds or points
    // d'Espoir typed (a total, or « −3 » to take 3), a condition in the game master's words.
    this.list.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      const input = event.target.closest?.("input[data-notes], input[data-typed], input[data-condition]");
      if (!input) return;
      event.preventDefault();
      const { notes, typed, condition } = input.dataset;
      if (notes) own(this.handlers, "notes")?.(notes, { value: input.value });
      else if (typed) this.typed(input);
      else own(this.handlers, "condition")?.(condition, { text: input.value, until: untilOf(input) });
    });
    this.list.addEventListener("change", (event) => {
      const input = event.target.closest?.("input[data-typed]");
      if (input) this.typed(input);
    });
    this.list.addEventListener("click", tap);
    this.reactionBox.addEventListener("click", tap);
    const byId = { "end-round": "endRound", "next-round": "nextRound", undo: "undo", redo: "redo", "close-players": "closePlayers" };
    for (const container of [$(".tools"), $(".board-tools"), $("#screen-players")]) {
      container.addEventListener("click", (event) => {
        const button = event.target.closest("button[id]");
        if (!button || !Object.hasOwn(byId, button.id) || (history.includes(button) && !steady(event, button))) return;
        own(this.handlers, byId[button.id])?.();
      });
    }
  }

  // handlers: act(id), interrupt(id), pass(id), pick(id, {action}), target(id, {action, target}),
  // react(id, {action, against}), ignore(), step(id, {field, by}), out(id, {value}),
  // notes(id, {value}), condition(id, {text, until}), uncondition(id, {text}),
  // endRound, nextRound, undo, redo, closePlayers.
  bind(handlers) {
    this.handlers = handlers;
  }

  // A number typed in a row's wounds or Espoir: the new total, or with a minus sign what
  // is taken off (« −3 »: neither can be below 0). Once: the field shows the value again.
  typed(input) {
    const { typed: id, field, value } = input.dataset;
    const n = Number.parseInt(input.value.replace("−", "-"), 10);
    const by = n < 0 ? n : n - Number(value);
    input.value = value;
    if (Number.isInteger(by) && by !== 0) own(this.handlers, "step")?.(id, { field, by: String(by) });
  }

  // `reveal`: bring whoever acts into view (not when the user opened a row far below).
  render(board, reveal = true) {
    this.board = board;
    if (this.picking && !board.active.includes(this.picking.id)) this.picking = null;
    setText($("#round"), board.round === 0 ? t("noRound") : t("round", board.round, board.round_over));
    setText($("#turn"), turnText(board));
    const fighters = board.order.map((id) => own(board.combatants, id)).filter(Boolean);
    const top = Math.max(1, ...fighters.map((f) => f.initiative ?? 0));
    arrange(this.list, this.cards.draw(board, fighters, top, (f) => this.ui(board, f)));
    limitFields(this.list, this.limits);
    this.renderReaction();
    this.roundOver = board.round_over;
    $("#end-round").disabled = board.round_over;
    $("#next-round").disabled = !board.round_over || fighters.length === 0;
    this.showPending();
    if (reveal) this.reveal();
  }

  // The engine's limits (Table.limits) on the cards' fields (a fighter's notes).
  limit(limits) {
    this.limits = limits;
    limitFields(this.list, limits);
  }

  // What a card shows besides the fighter: its row opened, its likely actions, the
  // action waiting for a target, the targets.
  ui(board, f) {
    const picking = this.picking?.id === f.id ? this.picking.action : null;
    const active = board.active.includes(f.id);
    const verdicts = f.actions ?? {};
    const chips = [];
    // Every fighter who may act now (D4: each one tied at the top) gets its likely actions,
    // as the engine judged them (`likely`, from its verdicts).
    if (active) {
      for (const action of f.likely ?? []) chips.push(action);
      const last = own(this.used, f.id);
      if (last && !chips.includes(last) && own(verdicts, last)?.allowed && own(board.catalogue ?? {}, last)) chips.push(last);
    }
    return { controls: true, open: this.open.has(f.id), picking, active, chips, targets: picking ? targetsOf(board, f) : [] };
  }

  // A row opened is brought on screen whole, clear of the dock (a row near the bottom
  // would open under it).
  toggle(id) {
    const opening = !this.open.has(id);
    if (opening) this.open.add(id);
    else this.open.delete(id);
    if (this.board) this.render(this.board, false);
    const row = this.list.querySelector(`li[data-id="${CSS.escape(id)}"]`);
    row?.querySelector('button[data-do="toggle"]')?.focus({ preventScroll: true });
    if (opening && row) requestAnimationFrame(() => row.scrollIntoView({ block: "nearest", behavior: motion() }));
  }

  // The board as an answer brought it: its cards, the dock's line and the attacked
  // fighter's answers (`keep`: a board shown again, the answers offered stay), drawn once.
  update(board, { last, reaction, keep = false }) {
    if (!keep) {
      this.reaction = reaction;
      this.error("");
    }
    $("#board-last").textContent = last;
    this.render(board);
  }

  // The action waiting for its target is done with: the next drawing leaves the targets out.
  unpick() {
    this.picking = null;
  }

  // An action waiting for its target (null: none): the card shows the fighters as chips.
  pick(picking) {
    this.picking = picking;
    if (this.board) this.render(this.board);
    if (picking) this.list.querySelector(".targets button")?.focus();
  }

  // The attacked fighter's answers, offered in the dock (null: none).
  setReaction(reaction) {
    this.reaction = reaction;
    this.renderReaction();
  }

  // The answers that fit the attack (D23: the catalogue's `answers`; none to a shot or a
  // throw): those allowed as chips with their test and cost, those refused greyed with
  // their reason (one line for those refused alike); « Rien », and every interruption
  // (D16: the game master rules), its sheet naming the attacker.
  renderReaction() {
    const box = this.reactionBox;
    const board = this.board;
    const r = this.reaction;
    const target = r && board ? own(board.combatants, r.target) : null;
    const attacker = r && board ? own(board.combatants, r.attacker) : null;
    if (!target || !attacker || !target.actions) {
      if (box.hidden) return;
      box.hidden = true;
      box.replaceChildren();
      this.reveal();
      return;
    }
    const fitting = (own(board.catalogue ?? {}, r.action)?.answers ?? []).filter((a) => own(target.actions, a));
    const allowed = fitting.filter((a) => target.actions[a].allowed);
    const refused = new Map(); // reason → the answers it refuses
    for (const a of fitting.filter((x) => !target.actions[x].allowed)) {
      const why = refusal(target.actions[a]);
      refused.set(why, [...(refused.get(why) ?? []), actionName(a)]);
    }
    const chip = (a) => h("button", { type: "button", class: "chip", dataset: { do: "react", id: target.id, action: a, against: attacker.id } },
      chipLines(own(t("chips"), a) ?? actionName(a), costLabel(target.actions[a]), testsLabel(target.actions[a].tests, target.weapons)));
    const parts = [
      h("div", { class: "reaction-head" },
        h("p", { class: "reaction-title", id: "reaction-title" }, t("reactTitle", isolate(target.name), isolate(attacker.name))),
        h("button", { type: "button", class: "small", dataset: { do: "ignore", id: target.id } }, t("reactNothing")),
        h("button", { type: "button", class: "small more", dataset: { do: "interrupt", id: target.id }, "aria-label": t("reactAllFor", isolate(target.name)) },
          t("reactAll"))),
      ...[...refused].map(([why, names]) => h("p", { class: "refused" }, h("s", {}, names.join(", ")), " ", why)),
    ];
    if (!fitting.length) parts.push(h("p", { class: "hint" }, t("reactNoFit", actionName(r.action))));
    if (allowed.length) parts.push(h("div", { class: "chips" }, allowed.map(chip)));
    box.replaceChildren(...parts);
    box.setAttribute("aria-labelledby", "reaction-title");
    box.hidden = false;
    // The round's buttons stay below the answers, one tap away: the answers scroll within
    // the dock (web/style.css), which stays within a third of the screen.
    this.reveal();
  }

  // An error in the dock, next to its line.
  error(text) {
    const el = $("#board-error");
    el.textContent = text ?? "";
    el.hidden = !text;
    this.reveal();
  }

  // Whoever acts now is brought on screen (scrollToActive), asked for by every change (a
  // render, the dock's line, an error): done once, at the next frame, where the browser lays
  // the page out anyway, instead of forcing a layout each time (three per tap, and one on the
  // start's path before the page is ready).
  reveal() {
    if (this.revealing) return;
    this.revealing = true;
    requestAnimationFrame(() => {
      this.revealing = false;
      this.scrollToActive();
    });
  }

  // After a start, an action or an undo, the board scrolls just enough, without animation
  // when the user asks for less motion, clear of the sticky header and dock (their heights
  // now, as scroll padding), in one scroll: the cards of whoever acts now (D4: all those
  // tied) all on screen when they fit; when they do not, the first of them, at the top if
  // it was off screen. A board already showing that is left where it is: a tap in a long
  // tie moves nothing while the first to act stays in view.
  scrollToActive() {
    if (this.list.closest("[hidden]")) return;
    // Both heights read before either padding is written: one layout, not one per read.
    const root = document.documentElement;
    const above = $(".top").offsetHeight + 4;
    const below = $(".board-tools").offsetHeight + 4;
    if (root.style.scrollPaddingTop !== `${above}px`) root.style.scrollPaddingTop = `${above}px`;
    if (root.style.scrollPaddingBottom !== `${below}px`) root.style.scrollPaddingBottom = `${below}px`;
    const active = this.list.querySelectorAll("li.active");
    if (!active.length) return;
    const first = active[0];
    const last = active[active.length - 1];
    const head = first.getBoundingClientRect();
    const { bottom } = last.getBoundingClientRect();
    const end = root.clientHeight - below;
    const behavior = motion();
    // One scroll, not two: a smooth scroll asked while another is on its way starts from
    // where the board is, not from where the first one goes.
    const fit = bottom - head.top <= end - above;
    if (head.top < above || (!fit && head.bottom > end)) first.scrollIntoView({ block: "start", behavior });
    else if (fit && bottom > end) last.scrollIntoView({ block: "end", behavior });
  }

  // Taps made before the engine is up: `key` (a fighter's id or "end-round")
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
      const shown = li.querySelector(".badges");
      if (on) shown.prepend(h("span", { class: "badge queued" }, t("queued")));
      else shown.querySelector(".queued")?.remove();
    }
    const end = $("#end-round");
    const waiting = this.pending.has("end-round");
    if (waiting !== end.classList.contains("pending")) {
      end.classList.toggle("pending", waiting);
      end.disabled = waiting || this.roundOver;
      end.textContent = waiting ? `${t("endRound")} (${t("queued")})` : t("endRound");
    }
  }

  // The players' view: the players' board (engine/players.py), drawn when it is on screen.
  renderPlayers(board) {
    $("#players-turn").textContent = playersTurnText(board);
    const cards = this.playerCards.draw(board);
    const list = $("#players-board");
    // How many rows share the screen's height (web/style.css: one column, or two halves).
    list.style.setProperty("--count", String(Math.max(1, cards.length)));
    list.style.setProperty("--half", String(Math.max(1, Math.ceil(cards.length / 2))));
    list.toggleAttribute("data-many", cards.length > 8);
    arrange(list, cards);
  }

  // Undo and redo, labelled with what they would take back or do again.
  // The header: the round, and what undo and redo would do.
  header(session, board) {
    setText($("#round"), board.round === 0 ? t("noRound") : t("round", board.round, board.round_over));
    this.setHistory(session, board);
  }

  setHistory({ undo, redo, last, next, used, gone }, board) {
    this.used = used ?? {};
    const undoButton = $("#undo");
    const redoButton = $("#redo");
    undoButton.disabled = !(undo > 0);
    redoButton.disabled = !(redo > 0);
    // Each label in a span of two lines at most (style.css: the header stays one row).
    setLabel(undoButton, undo > 0 && last ? t("undoWhat", commandLabel(board, last, true, gone)) : t("undo"));
    setLabel(redoButton, redo > 0 && next ? t("redoWhat", commandLabel(board, next, true)) : t("redo"));
  }

  // After an action the board is drawn anew: the focus goes to what the table does next,
  // the attacked fighter's answers when they are offered (R5), else whoever acts now.
  focusTurn() {
    const answer = this.reactionBox.hidden ? null : this.reactionBox.querySelector('button[data-do="react"]');
    const next = answer ?? this.list.querySelector('li.active button[data-do="act"]');
    (next ?? $("#turn")).focus({ preventScroll: true });
  }

  // The focus across a drawing: a board or dock button the drawing replaced passes to the
  // same button drawn anew (a stepper's « +1 »), else to what comes next (focusTurn); the
  // keyboard never falls back to the top of the page. Focus elsewhere stays where it is.
  keepFocus() {
    const was = document.activeElement;
    if (!was || !(this.list.contains(was) || this.reactionBox.contains(was))) return () => undefined;
    const mine = was.matches("button") ? signature(was) : null;
    return () => {
      if (was.isConnected && !was.closest("[hidden]") && !was.disabled) return;
      const same = [...this.list.querySelectorAll("button"), ...this.reactionBox.querySelectorAll("button")]
        .find((b) => mine && !b.disabled && signature(b) === mine);
      if (same) same.focus({ preventScroll: true });
      else this.focusTurn();
    };
  }
}

// A board's cards, each kept while its key is the same (`cardKey`): a new board redraws
// only the cards it changed. One per list drawn.
class KeyedCards {
  constructor() {
    this.cards = new Map(); // fighter id → { key, element }
  }

  // The cards of `fighters` (in order; `top`: the highest initiative), `ui(f)` what each
  // shows besides the fighter.
  draw(board, fighters, top, ui) {
    const cards = new Map();
    const drawn = fighters.map((f) => {
      const shown = ui(f);
      const key = cardKey(board, f, top, shown);
      const known = this.cards.get(f.id);
      const element = known?.key === key ? known.element : card(board, f, top, shown);
      cards.set(f.id, { key, element });
      return element;
    });
    this.cards = cards;
    return drawn;
  }
}

// The players' cards, read-only (the players' view, and a player's phone on the live
// table, web/live/guest-view.js, whose board may hide a PNJ's details as null): the
// fighters of the players' board's `order` (engine/players.py: none out of the fight),
// each kept while unchanged.
const READ_ONLY = Object.freeze({ controls: false, chips: [], targets: [] });

export class PlayerCards {
  constructor() {
    this.cards = new KeyedCards();
  }

  draw(board) {
    const fighters = board.order.map((id) => own(board.combatants, id)).filter(Boolean);
    const top = Math.max(1, ...fighters.map((f) => f.initiative ?? 0));
    return this.cards.draw(board, fighters, top, () => READ_ONLY);
  }
}

// The fighters `f` may target (`target`, `against`), in the engine's order: the board's
// `targets` (engine/view.py `targets`), which the card's chips and the action sheet offer.
// A board painted from a save has none yet: no targets until the engine's.
export function targetsOf(board, f) {
  const ids = own(board.targets ?? {}, f.id);
  return Array.isArray(ids) ? ids.map((id) => own(board.combatants, id)).filter(Boolean) : [];
}

// Everything a card shows, as one string: an unchanged fighter keeps its card. Only what
// `card` reads: of the board, whether this fighter acts (and in a tie), whether a round is
// on or over; of the fighter, not its verdicts, declarations, likely or never actions
// (the chips, in `ui`, are what it shows of them). A tap then redraws the two or three
// cards it changed, not all thirty (tap to board), and the engine's first
// board keeps the cards painted from the save (which has no verdicts).
function cardKey(board, f, top, ui) {
  const active = board.active.includes(f.id);
  return JSON.stringify([document.documentElement.lang, board.round > 0, board.round_over, active, active && board.active.length > 1,
    top, f.engaged_with.map((id) => own(board.combatants, id)?.name), ui.open, ui.picking,
    ui.chips.map((a) => [a, own(f.actions ?? {}, a)]), ui.targets.map((o) => [o.id, o.name])]) + shownText(f);
}

// What a card shows of the fighter itself, as text, once per fighter object: a board's
// fighter is never changed, and a fighter the engine did not change comes back as the same
// object (web/infra/verdicts.js Held), so a tap writes the text of the two or three it changed.
const SHOWN = new WeakMap();

function shownText(f) {
  let text = SHOWN.get(f);
  if (text === undefined) {
    const { actions, declarations, likely, never, ...shown } = f;
    text = JSON.stringify(shown);
    SHOWN.set(f, text);
  }
  return text;
}

// A header button's label, in its span.
function setLabel(button, text) {
  const span = button.firstElementChild;
  if (span?.matches("span.label") && button.childNodes.length === 1) setText(span, text);
  else button.replaceChildren(h("span", { class: "label" }, text));
}

// Scrolling that moves the board smoothly, unless the user asks for less motion.
// (The query made once: its `matches` follows the user's setting.)
let lessMotion;

function motion() {
  lessMotion ??= window.matchMedia?.("(prefers-reduced-motion: reduce)") ?? { matches: false };
  return lessMotion.matches ? "auto" : "smooth";
}

// A chip's words: what it does and its cost, and under them the test to roll (D14, as
// the engine names it: « Mêlée 7 / Épée 3, charge +4 »).
export function chipLines(what, cost, tests) {
  return [h("span", { class: "chip-main" }, what, " ", h("span", { class: "cost" }, cost)),
    tests ? h("span", { class: "chip-test" }, tests) : null];
}

// A likely action's chip: the action, short, with its weapon, its cost and its test.
function chipLabel(board, f, action) {
  const verdict = own(f.actions ?? {}, action) ?? {};
  // The weapon is named when the hands hold more than one.
  const weapon = verdict.weapon && f.in_hand.length > 1 ? f.weapons.find((w) => w.id === verdict.weapon) : null;
  const short = own(t("chips"), action) ?? actionName(action);
  return chipLines(weapon ? `${short} · ${isolate(weapon.name)}` : short, costLabel(verdict), testsLabel(verdict.tests, f.weapons));
}

// A name holding combining marks: stacked, they may reach far above and below its line,
// so such a name alone is clipped to its line (web/style.css).
function marked(name) {
  return /\p{M}/u.test(name);
}

// One fighter's row; with ``ui.controls`` its buttons (the board), without (the players' view).
function card(board, f, top, ui) {
  const { controls } = ui;
  const active = board.active.includes(f.id);
  const may = (what) => own(f.may ?? {}, what)?.allowed === true; // the engine's verdicts (D5, D6)
  const classes = ["fighter", active ? "active" : "", f.hors_combat ? "out" : "", f.passed ? "passed" : "", ui.open ? "open" : ""];
  const pi = f.in_round ? f.pi : null;
  const bar = h("span", { class: "pi-bar", "aria-hidden": "true" }, h("span", { class: pi !== null && pi <= 0 ? "empty" : "" }));
  bar.firstChild.style.width = `${pi === null ? 0 : Math.max(0, Math.min(100, (pi / top) * 100))}%`;
  // The row read aloud in the order the table asks: who, which side, how many P.I.
  // (shown apart, beside the bar: said here), whether it acts now, then the badges, with
  // the pauses a screen reader needs (commas read, not seen: web/style.css `.pause`).
  const pause = (text = ",") => h("span", { class: "pause" }, text);
  const who = [
    h("span", { class: marked(f.name) ? "name marked" : "name" }, isolate(f.name)),
    pause(),
    h("span", { class: `side side-${f.side}` }, term("sides", f.side)),
    pi === null ? null : pause(`, ${t("pi", pi)}`),
    active ? pause() : null,
    active ? h("span", { class: "now" }, board.active.length > 1 ? t("nowTie") : t("now")) : null,
    h("span", { class: "badges" }, badges(board, f, !controls).flatMap((b) => [pause(), h("span", { class: `badge ${b[1]}` }, b[0])])),
    bar, // along the row's foot: a row is one line high (9 of 12 fighters in view)
  ];
  const head = h("div", { class: "fighter-head" },
    controls
      ? h("button", { type: "button", class: "row", dataset: { do: "toggle", id: f.id }, "aria-expanded": String(ui.open) }, who)
      : h("span", { class: "row" }, who),
    h("span", { class: "pi", "aria-hidden": "true" }, pi === null ? "—" : t("pi", pi)),
    controls && may("interrupt") ? h("button", { type: "button", class: "small", dataset: { do: "interrupt", id: f.id } }, t("interrupt")) : null);
  const parts = [head];
  if (controls && active) {
    const chips = ui.chips.map((action) => h("button", {
      type: "button", class: `chip${ui.picking === action ? " picked" : ""}`, "aria-pressed": ui.picking === action ? "true" : null,
      dataset: { do: "pick", id: f.id, action },
    }, chipLabel(board, f, action)));
    if (may("pass")) chips.push(h("button", { type: "button", class: "chip", dataset: { do: "pass", id: f.id } }, t("pass")));
    chips.push(h("button", { type: "button", class: "chip more", dataset: { do: "act", id: f.id } }, t("act")));
    parts.push(h("div", { class: "chips card-actions", role: "group", "aria-label": t("likelyFor", isolate(f.name)) }, chips));
  }
  if (controls && ui.picking) {
    const targets = ui.targets.map((o) => h("button", { type: "button", class: "chip target", dataset: { do: "target", id: f.id, action: ui.picking, target: o.id } },
      isolate(o.name)));
    targets.push(h("button", { type: "button", class: "chip", dataset: { do: "target", id: f.id, action: ui.picking, target: "" } }, t("noTarget")));
    targets.push(h("button", { type: "button", class: "chip", dataset: { do: "untarget", id: f.id }, "aria-label": t("cancelTarget") }, "✕"));
    parts.push(h("div", { class: "chips targets", role: "group", "aria-label": t("targetFor", actionName(ui.picking)) },
      h("span", { class: "chips-label" }, t("targetLabel")), targets));
  }
  if (controls && ui.open) parts.push(details(board, f, active && may("pass")));
  return h("li", { class: classes.filter(Boolean).join(" "), dataset: { id: f.id } }, parts);
}

// The rest of a row, on demand: what it holds, its initiative, wounds and Espoir (a tap
// adds or takes one or more, or a number typed: « 3 », « −3 »), conditions with their
// end, notes, out of the fight or back, and passing for a fighter whose turn it is not
// (`chipped`: its card already offers it).
function details(board, f, chipped) {
  const name = isolate(f.name);
  const info = heldAndInitiative(f);
  const step = (field, by, label, more = {}) => h("button", { type: "button", class: "small step", dataset: { do: "step", id: f.id, field, by: String(by) }, ...more },
    label);
  const stepper = (field, label, value, adds) => h("div", { class: "stepper", role: "group", "aria-label": t(`${field}Of`, name), dataset: { field } },
    h("label", { class: "stepper-label" }, label, " ",
      h("input", { type: "number", class: "stepper-value", step: 1, value: String(value), autocomplete: "off", "aria-label": t(`${field}Typed`, name),
        dataset: { typed: f.id, field, value: String(value) } })),
    step(field, -1, "−1", { disabled: value <= 0, "aria-label": t(`${field}Less`, name) }),
    adds.map((n) => step(field, n, `+${n}`, { "aria-label": t(`${field}Add`, name, n) })));
  const tools = [h("button", { type: "button", class: "small", dataset: { do: "out", id: f.id, value: f.hors_combat ? "" : "1" } },
    f.hors_combat ? t("revive") : t("down")),
  // Hidden from the live table's players (an ambush, D26), or shown again.
  h("button", { type: "button", class: "small", dataset: { do: "hide", id: f.id, value: f.hidden ? "" : "1" } },
    f.hidden ? t("reveal") : t("hide"))];
  if (!chipped && own(f.may ?? {}, "pass")?.allowed) tools.push(h("button", { type: "button", class: "small", dataset: { do: "pass", id: f.id } }, t("pass")));
  const notes = h("div", { class: "notes" },
    h("label", {}, h("span", { class: "stepper-label" }, t("notesLabel")), " ",
      h("input", { type: "text", autocomplete: "off", value: f.notes ?? "", dataset: { notes: f.id, limit: "notes" }, placeholder: t("notesHint") })),
    h("button", { type: "button", class: "small", dataset: { do: "notes", id: f.id }, "aria-label": t("notesSave", name) }, t("notesOk")));
  return h("div", { class: "more" },
    h("p", { class: "more-info" }, info.join(" · ")),
    h("div", { class: "steppers" }, stepper("wounds", t("woundsShort"), f.wounds, [1, 2, 3]), stepper("hope", t("hopeShort"), f.hope, [1])),
    conditionsOf(board, f),
    notes,
    h("div", { class: "more-tools" }, tools));
}

// A row's conditions (D25): each with its end and a way to take it off; the end for the
// next one (until removed, the end of this round or of a round to come), the usual words
// in one tap, or the game master's own.
function conditionsOf(board, f) {
  const name = isolate(f.name);
  const first = board.conditions_from; // the first round a condition may end with (the engine's, D25)
  const rounds = Number.isInteger(first) ? [0, 1, 2, 3] : []; // a board painted from an older save: until removed only
  const ends = [["", t("untilRemoved")], ...rounds.map((k) => [String(first + k), t("untilRound", first + k, k === 0 && !board.round_over)])];
  const until = h("select", { class: "until", "aria-label": t("conditionEnd", name) }, ends.map(([value, text]) => h("option", { value }, text)));
  return h("div", { class: "conditions", role: "group", "aria-label": t("conditionsOf", name) },
    h("span", { class: "stepper-label" }, t("conditionsLabel")),
    (f.conditions ?? []).map((c) => h("button", { type: "button", class: "small condition", dataset: { do: "uncondition", id: f.id, text: c.text },
      "aria-label": t("conditionRemove", isolate(c.text), name) }, conditionText(c), " ✕")),
    until,
    t("conditionWords").map((word) => h("button", { type: "button", class: "small", dataset: { do: "condition", id: f.id, text: word } }, word)),
    h("input", { type: "text", autocomplete: "off", placeholder: t("conditionOther"), "aria-label": t("conditionOwn", name),
      dataset: { condition: f.id, limit: "condition" } }));
}

// A condition and its end: « étourdi (→ tour 2) ».
function conditionText(c) {
  return c.until === null || c.until === undefined ? isolate(c.text) : t("conditionUntil", isolate(c.text), c.until);
}

// The end chosen in a row for its next condition (a round, or null: until removed).
function untilOf(element) {
  const value = element.closest("li")?.querySelector("select.until")?.value ?? "";
  return value === "" ? null : Number(value);
}

// What a fighter holds and its initiative this round (a row's details; the badges of a
// card that cannot be opened).
function heldAndInitiative(f) {
  const held = f.weapons.filter((w) => f.in_hand.includes(w.id)).map((w) => isolate(w.name));
  const info = [held.length ? t("badgeHeld", held.join(", ")) : t("badgeBare")];
  if (f.in_round && f.d6) info.push(t("badgeInit", f.initiative, f.d6));
  return info;
}

// The badges that matter now (the rest is in the row's details; a read-only card, which
// has none, shows what it holds and its initiative too: the players' and the live views).
function badges(board, f, readOnly = false) {
  const out = [];
  if (readOnly) {
    const [held, ...initiative] = heldAndInitiative(f);
    out.push([held, "muted long"], ...initiative.map((text) => [text, "muted"])); // the weapons held: the group's words
  }
  if (f.hidden) out.push([t("badgeHidden"), "warn"]);
  if (f.hors_combat) out.push([t("badgeOut"), "bad"]);
  if (f.passed) out.push([t("badgePassed"), "muted"]);
  if (f.aim_bonus) out.push([t("badgeAim", f.aim_bonus), "good"]);
  if (f.charged) out.push([t("badgeCharged"), "warn"]);
  if (f.posture !== "debout") out.push([term("postures", f.posture), "warn"]);
  if (f.arrow_nocked) out.push([t("badgeArrow"), "good"]);
  if (f.cover) out.push([t("badgeCover"), "good"]);
  if (f.engaged) {
    const names = f.engaged_with.map((id) => own(board.combatants, id)?.name).filter(Boolean).map(isolate);
    out.push([names.length ? t("badgeEngagedWith", names.join(", ")) : t("badgeEngaged"), names.length ? "warn long" : "warn"]);
  }
  if (f.wounds) out.push([t("badgeWounds", f.wounds), "bad"]);
  for (const c of f.conditions ?? []) out.push([conditionText(c), "condition long"]);
  for (const note of (f.notes ?? "").split(",").map((n) => n.trim()).filter(Boolean)) out.push([isolate(note), "jotted long"]);
  if (f.hope !== null) out.push([t("badgeHope", f.hope), "muted"]); // null: hidden from the players (live table)
  return out;
}

// Quick taps land on what the user saw: a tap on a board button that was not
// under the finger at the board tap just before it (it moved there, or appeared, when the
// board was drawn anew) is ignored while the taps come less than GUARD ms apart; a tap
// after a pause, after a tap outside the board (the action sheet, a tab) or the focus gone
// there, or anywhere else goes through at once. Two taps on the same button less than
// GUARD ms apart are one (a double tap on « Se déplacer » moves once), and so
// is a burst of them, each less than GUARD ms after the one before: `same(true)` for each
// tap taken as the one before it, so that the page says so, `same(false)` for a tap that
// goes through. Taps from the keyboard
// are not guarded. The dock's answers to an attack and « Annuler » and « Rétablir » count
// as the board.
const GUARD = 400;

// What a row's button takes from its row: the notes typed beside « OK », the end chosen
// for a condition.
function notesOf(button) {
  if (button.dataset.do === "condition") return { until: untilOf(button) };
  if (button.dataset.do !== "notes") return {};
  return { value: button.closest("li")?.querySelector("input[data-notes]")?.value ?? "" };
}

// A button as the user sees it, the same across a redraw (a stepper's « + » stays itself).
function signature(button) {
  const { do: what, id, action, field, by, target, text } = button.dataset;
  return JSON.stringify([button.id, what, id, action, field, by, target, text]);
}

function steadyTaps(roots, same) {
  const inBoard = (target) => roots.some((root) => root.contains(target));
  const taps = presses(inBoard); // counted as they are pressed
  let aim = null; // the button the taps of this burst were meant for
  const forget = (event) => {
    if (inBoard(event.target)) return;
    taps.forget();
    aim = null;
  };
  document.addEventListener("pointerdown", forget, true);
  document.addEventListener("click", forget, true);
  // The focus gone elsewhere (a sheet or a dialog opened by the tap): the next tap is new.
  document.addEventListener("focusin", forget);
  return (event, button) => {
    if (event.detail === 0) return true; // Enter or Space: the focus does not move under a finger
    const { before, last } = taps;
    const mine = signature(button);
    const quick = before !== null && aim !== null && last.time - before.time < GUARD;
    const moved = quick && aim !== mine && taps.over(before, button);
    const again = quick && aim === mine; // two identical taps: one (« Se déplacer » applied once)
    aim = moved ? aim : mine;
    if (again) same(true);
    else if (!moved) same(false);
    return !moved && !again;
  };
}
