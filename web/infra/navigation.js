// Which screen is on: a tab, a shortcut or a controller asks for one; the controller of
// that screen draws it as it arrives (Navigation.on: each listener of that screen, in turn),
// and so does a screen shown beside it (the journal beside the board on a wide page).
// `back` (infra/back.js), when given, keeps the phone's back button going to the board
// from any other screen.
export class Navigation {
  constructor(screens, back = null) {
    this.screens = screens;
    this.back = back;
    this.arrivals = Object.create(null);
    this.moves = 0; // screens shown so far: a screen asked for after a wait is not forced on a reader who moved meanwhile
    screens.bindPick((name) => this.go(name));
    screens.bindBeside((name) => this.arrive(name));
    if (back) back.onBoard = () => this.go("board");
  }

  on(name, arrive) {
    (this.arrivals[name] ??= []).push(arrive);
  }

  go(name) {
    this.moves += 1;
    this.screens.show(name);
    this.back?.screen(name);
    this.arrive(name);
  }

  // `go(name)` after a wait (the engine's answer, the database), unless the reader went
  // to another screen meanwhile: `since` is `moves` read before the wait.
  goUnlessMoved(name, since) {
    if (this.moves === since) this.go(name);
  }

  // Each listener of the screen `name`, in turn.
  arrive(name) {
    for (const listener of this.arrivals[name] ?? []) listener();
  }

  // Whether `name` is the screen on.
  at(name) {
    return this.screens.current() === name;
  }

  // Whether `name` is on screen: the screen on, or shown beside it.
  shows(name) {
    return this.screens.shows(name);
  }
}
