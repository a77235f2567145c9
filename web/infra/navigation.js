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
    screens.bindPick((name) => this.go(name));
    screens.bindBeside((name) => this.arrive(name));
    if (back) back.onBoard = () => this.go("board");
  }

  on(name, arrive) {
    (this.arrivals[name] ??= []).push(arrive);
  }

  go(name) {
    this.screens.show(name);
    this.back?.screen(name);
    this.arrive(name);
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
