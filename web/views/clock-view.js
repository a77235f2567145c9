// The turn clock, drawn (controllers/clock.js on the game master's board and the players'
// view; web/live/guest.js on a player's phone): how long the fighter who holds the turn has
// had it, against the limit the group set. The engine says who holds the turn and since
// when (engine/table.py `turn`, engine/live.py `players_clock`); this only counts on from
// there with the page's clock, once a second. Never a rule: it changes no P.I.
import { isolate, own } from "../infra/dom.js";
import { t } from "../infra/i18n.js";

// « 1:05 », from ms.
export function minutes(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const clocks = new Set();
let ticking = null;

// The next tick, on the second of the turn's time (its start + k s) of the first clock that
// runs, so that each second is drawn as it comes, not up to a second late.
function schedule() {
  clearTimeout(ticking);
  ticking = null;
  const first = [...clocks][0];
  if (!first) return;
  const since = Date.now() - first.turn.started;
  ticking = setTimeout(tick, 1000 - (((since % 1000) + 1000) % 1000));
}

// One clock on one element (a <p role="timer">): `show(turn, names)` with `turn`
// `{ id, started, limit }` (started: ms on this page's clock; limit: s), or null to hide
// it. `onOut(name, limit)` is told once per turn when its limit runs out.
export class TurnClock {
  constructor(element, onOut = null) {
    this.el = element;
    this.onOut = onOut;
    this.turn = null;
    this.name = "";
    this.out = null; // the turn whose running out was told (its id and start)
  }

  show(turn, name) {
    const same = this.turn && turn && this.turn.id === turn.id && this.turn.started === turn.started;
    this.turn = turn && Number.isInteger(turn.limit) && turn.limit > 0 && typeof turn.started === "number" ? turn : null;
    this.name = name ?? "";
    if (!same && this.turn) this.out = null;
    if (this.turn) clocks.add(this);
    else clocks.delete(this);
    this.draw(Date.now());
    schedule();
  }

  draw(now) {
    this.el.hidden = !this.turn;
    if (!this.turn) return;
    const elapsed = now - this.turn.started;
    const over = elapsed >= this.turn.limit * 1000;
    const who = isolate(this.name);
    this.el.textContent = over ? t("clockOver", who, minutes(elapsed), minutes(this.turn.limit * 1000))
      : t("clockRunning", who, minutes(elapsed), minutes(this.turn.limit * 1000));
    this.el.classList.toggle("over", over);
    const key = `${this.turn.id} ${this.turn.started}`;
    if (over && this.out !== key) {
      this.out = key;
      this.onOut?.(who, this.turn.limit);
    }
  }
}

function tick() {
  const now = Date.now();
  for (const clock of clocks) clock.draw(now);
  schedule();
}

// The name of fighter `id` on `board`, or "".
export function nameOn(board, id) {
  return own(board?.combatants ?? {}, id)?.name ?? "";
}
