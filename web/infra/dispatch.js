// One answer, one drawing: each board the session takes goes here once, and is drawn on
// what is on screen (the header, the screen on, a screen shown beside it); a screen not
// on screen is drawn when it shows (Navigation's arrival), from the session's board and
// the last answer. Each controller says how its screen draws (`draws`); what is not a
// drawing (the live table's messages) listens to the session itself. No DOM here.
export class Dispatcher {
  // session: web/infra/session.js; nav: web/infra/navigation.js.
  constructor(session, nav) {
    this.session = session;
    this.nav = nav;
    this.screens = new Map(); // name (null: the header, always on screen) → [draw(board, answer)]
    this.stale = new Set(); // screens not drawn since the last answer
    this.last = null;
    this.renders = 0; // the answers drawn since the page opened (read by the benchmark)
    session.on("change", (board, answer) => this.changed(board, answer));
  }

  // `draw(board, answer)` draws `name`'s screen (null: the header). `arrival`: "always",
  // the screen is drawn each time it shows (its content is asked for then: the journal);
  // "stale", only when an answer came while it was not on screen.
  draws(name, draw, { arrival = "stale" } = {}) {
    if (!this.screens.has(name)) {
      this.screens.set(name, []);
      if (name !== null) this.nav.on(name, () => this.arrived(name));
    }
    this.screens.get(name).push({ draw, arrival });
  }

  changed(board, answer) {
    this.last = answer;
    this.renders += 1;
    for (const [name, draws] of this.screens) {
      if (name === null || this.nav.shows(name)) {
        this.stale.delete(name);
        for (const { draw } of draws) draw(board, answer);
      } else this.stale.add(name);
    }
  }

  arrived(name) {
    const board = this.session.board;
    const stale = this.stale.delete(name);
    if (!board) return;
    for (const { draw, arrival } of this.screens.get(name)) {
      if (stale || arrival === "always") draw(board, this.last);
    }
  }
}
