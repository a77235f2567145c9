// The start of a round: each fighter's die and declared weapon, with the initiative's
// breakdown as it is typed (R1.1), one short row per fighter, the die first. The rows come
// in the engine's order (the board's `declaring`: the same every round), each keyed by its
// fighter's id. The breakdown is this view's own, the die the app's (infra/die.js); only
// the declarations go out, through the start handler. One set of listeners, on the form.
import { rollDie } from "../infra/die.js";
import { $, h, isolate, own } from "../infra/dom.js";
import { refusal, t, term } from "../infra/i18n.js";
import { breakdownLabel } from "./labels.js";

export class RoundView {
  constructor() {
    this.list = $("#declarations");
    this.board = null;
    this.onStart = null;
    this.proposals = new Map(); // fighter id → {weapon?, die, round, edited}: from a player's phone (web/live/host.js)
    this.onEdited = null;
    const form = $("#round-form");
    // R1.3's breakdown whole in every row, wrapped (a phone's row shows its end, the total;
    // a title is never seen on a touch screen), or back to one line per fighter.
    $("#breakdowns-whole").addEventListener("click", (event) => {
      const whole = event.currentTarget.getAttribute("aria-pressed") !== "true";
      event.currentTarget.setAttribute("aria-pressed", String(whole));
      this.list.classList.toggle("whole", whole);
    });
    form.addEventListener("input", (event) => {
      const li = event.target.closest("li[data-id]");
      if (!li) return;
      // A die typed over the one « Lancer » rolled is the table's own again.
      if (event.target.matches("input")) delete event.target.dataset.rolled;
      // The game master's own change of a row a player proposed: theirs now.
      if (li.classList.contains("proposed")) this.onEdited?.(li.dataset.id);
      this.updateBreakdown(li);
    });
    form.addEventListener("click", (event) => {
      const one = event.target.closest("button[data-roll]");
      if (one) {
        const li = one.closest("li");
        rollInto(li.querySelector("input"));
        this.updateBreakdown(li);
      } else if (event.target.closest("#roll-all")) {
        for (const li of this.list.children) {
          const input = li.querySelector("input");
          if (input.value.trim() === "") rollInto(input);
          this.updateBreakdown(li);
        }
      }
    });
    // Enter in a die goes to the next fighter's die (the form is sent by its button).
    form.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || !event.target.matches("li[data-id] input")) return;
      event.preventDefault();
      const next = event.target.closest("li").nextElementSibling?.querySelector("input");
      (next ?? $("#start-round")).focus();
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.onStart?.(this.read());
    });
  }

  // handler({ declarations, rolls, app_rolled }): app_rolled, the fighters whose die the
  // page rolled (« Lancer », « Tout lancer »): the engine records them as rolled by the app.
  bindStart(handler) {
    this.onStart = handler;
  }

  // handler(id): the game master changed the weapon or die a player proposed for `id`.
  bindEdited(handler) {
    this.onEdited = handler;
  }

  // The fighters who declare, in the engine's order (`declaring`: the PJ, then the PNJ, in
  // the cast's order, every round; a board painted from an older save has only `order`).
  // What was typed or rolled for the round to come stays with its fighter when the form is
  // drawn again (another tab and back, a fighter added): only a round started clears it.
  // The field in focus keeps it, on its fighter's row.
  render(board) {
    const focused = document.activeElement?.closest?.("#declarations li[data-id]") ? document.activeElement : null;
    const focus = focused ? { id: focused.closest("li").dataset.id, tag: focused.tagName.toLowerCase() } : null;
    const typed = this.typedFor === board.round ? this.typed() : new Map();
    this.typedFor = board.round;
    this.board = board;
    // A round still running is said before it is replaced.
    const running = $("#round-running");
    running.textContent = board.round > 0 && !board.round_over ? t("roundRunning", board.round) : "";
    running.hidden = !running.textContent;
    const fighters = (board.declaring ?? board.order).map((id) => own(board.combatants, id)).filter((f) => f && !f.hors_combat);
    // Ids by position, never from a fighter's id (it comes from a file or a link).
    this.list.replaceChildren(...fighters.map((f, i) => {
      // The weapons it may not declare (D2: not in hand) listed after, greyed, with why.
      const select = h("select", { id: `decl-${i}`, name: `decl-${i}` },
        f.declarations.map((d) => h("option", { value: d.weapon ?? "" }, d.weapon ? isolate(d.name) : t("bareHands"))),
        (f.not_declarable ?? []).map((d) => h("option", { value: d.weapon, disabled: true, title: refusal(d) }, t("notInHand", isolate(d.name)))));
      // Prefilled with the declaration the engine offers first (R1.1, D2: the board's
      // suggested_declaration, the same for a player's phone).
      select.value = f.suggested_declaration ?? "";
      // The die's faces are the group's (R1.2): the engine's total for each face, `by_die`.
      const faces = f.declarations[0]?.by_die?.length ?? 6;
      // A text field with the digits' keyboard: what is typed stays as typed, so that letters
      // are said « pas un nombre » (a number field drops them, and the die would be rolled).
      const die = h("input", { id: `die-${i}`, name: `die-${i}`, type: "text", inputmode: "numeric", autocomplete: "off",
        maxlength: 4, placeholder: `1–${faces}`, enterkeyhint: "next", dataset: { faces } });
      return h("li", { class: "declaration", dataset: { id: f.id } },
        h("label", { for: `die-${i}`, class: "visually-hidden" }, t("dieOf", isolate(f.name))), die,
        h("div", { class: "who" },
          h("span", { class: "name", title: f.name }, h("span", { class: "label" }, isolate(f.name)), " ", h("span", { class: `side side-${f.side}` }, term("sides", f.side))),
          h("output", { class: "breakdown", for: `decl-${i} die-${i}` }, "")),
        h("label", { for: `decl-${i}`, class: "visually-hidden" }, t("weaponOf", isolate(f.name))), select,
        h("button", { type: "button", dataset: { roll: f.id }, "aria-label": t("rollFor", isolate(f.name)) }, h("span", {}, t("roll"))));
    }));
    for (const li of this.list.children) {
      const kept = typed.get(li.dataset.id);
      if (kept) {
        const select = li.querySelector("select");
        if ([...select.options].some((o) => o.value === kept.weapon)) select.value = kept.weapon;
        const input = li.querySelector("input");
        input.value = kept.die;
        if (kept.rolled !== undefined) input.dataset.rolled = kept.rolled;
      }
      this.updateBreakdown(li);
    }
    for (const id of this.proposals.keys()) this.showProposal(id);
    if (focus) this.row(focus.id)?.querySelector(focus.tag)?.focus();
  }

  // What the form holds now, by fighter: weapon, die, and the die « Lancer » rolled.
  typed() {
    const out = new Map();
    for (const li of this.list.children) {
      const input = li.querySelector("input");
      out.set(li.dataset.id, { weapon: li.querySelector("select").value, die: input.value, rolled: input.dataset.rolled });
    }
    return out;
  }

  // The dice the engine refused (« Dé : de 1 à 6 »), each said under its own, all at once,
  // in the page's words (the browser's own bubble is off: its words follow the browser's
  // language); `errors`: fighter id → text. The first one in the form has the focus.
  dieErrors(errors) {
    let first = null;
    for (const li of this.list.children) {
      li.querySelector(".field-error")?.remove();
      const input = li.querySelector("input");
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
      if (!errors.has(li.dataset.id)) continue;
      const note = h("p", { class: "error field-error", id: `${input.id}-error` }, errors.get(li.dataset.id));
      li.append(note);
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", note.id);
      first ??= input;
    }
    first?.focus();
  }

  // The players' declarations from their phones (the live table): each fighter's die, and
  // its weapon when the player chose one, filled in and marked as the player's; the game
  // master may change them and still starts the round. Each is for one round: shown while
  // the form is for that round (an undone start of round shows them again).
  showProposals(proposals) {
    this.proposals = proposals;
    for (const li of this.list.children) {
      if (!proposals.has(li.dataset.id)) {
        li.classList.remove("proposed");
        li.querySelector(".proposal")?.remove();
      }
    }
    for (const id of proposals.keys()) this.showProposal(id);
  }

  showProposal(id) {
    const li = this.row(id);
    const p = this.proposals.get(id);
    if (!li || !p || !this.board || p.round !== this.board.round + 1 || (this.board.round > 0 && !this.board.round_over)) return;
    if (!p.edited) {
      const select = li.querySelector("select");
      if (Object.hasOwn(p, "weapon") && Array.prototype.some.call(select.options, (o) => o.value === (p.weapon ?? ""))) select.value = p.weapon ?? "";
      li.querySelector("input").value = p.die === null ? "" : String(p.die);
    }
    li.classList.add("proposed");
    const note = li.querySelector(".proposal") ?? li.querySelector(".name").appendChild(h("span", { class: "proposal badge good" }));
    note.textContent = t("liveFromPlayer");
    this.updateBreakdown(li);
  }

  // The form's row of fighter `id`, if it has one.
  row(id) {
    return Array.prototype.find.call(this.list.children, (li) => li.dataset.id === id);
  }

  updateBreakdown(li) {
    const f = own(this.board.combatants, li.dataset.id);
    const weapon = li.querySelector("select").value || null;
    const d = f.declarations.find((x) => x.weapon === weapon);
    // In a row too narrow for it, the breakdown's end shows (its total): web/style.css.
    const text = breakdownLabel(f, d, Number.parseInt(li.querySelector("input").value, 10));
    const output = li.querySelector("output");
    output.replaceChildren(h("bdi", { dir: "ltr" }, text));
    output.title = text;
  }

  // The fighters whose die holds something typed that is not a whole number (letters): said
  // under it, never left to the engine, which would roll an empty die.
  notNumbers() {
    return [...this.list.children].filter((li) => {
      const raw = li.querySelector("input").value.trim();
      return raw !== "" && !/^[0-9]+$/.test(raw);
    }).map((li) => li.dataset.id);
  }

  // Keyed by fighter ids, which come from files and links: objects with no prototype, so
  // a fighter whose id is "__proto__" keeps its weapon and its die.
  read() {
    const declarations = Object.create(null);
    const rolls = Object.create(null);
    const rolled = [];
    for (const li of this.list.children) {
      const id = li.dataset.id;
      declarations[id] = li.querySelector("select").value || null;
      const input = li.querySelector("input");
      const raw = input.value.trim();
      if (raw !== "") rolls[id] = Number(raw);
      if (raw !== "" && input.dataset.rolled === raw) rolled.push(id);
    }
    return rolled.length ? { declarations, rolls, app_rolled: rolled } : { declarations, rolls };
  }
}

// A die rolled by the page, marked as such (the value it rolled: typed over, it is typed).
function rollInto(input) {
  input.value = String(rollDie(undefined, Number(input.dataset.faces) || 6));
  input.dataset.rolled = input.value;
}
