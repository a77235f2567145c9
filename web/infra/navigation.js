// Which screen is on: a tab, a shortcut or a controller asks for one; the controller of
// that screen draws it as it arrives (Navigation.on: each listener of that screen, in turn).
// `back` (infra/back.js), when given, keeps the phone's back button going to the board
// from any other screen.
export class Navigation {
  constructor(screens, back = null) {
    this.screens = screens;
    this.back = back;
    this.arrivals = Object.create(null);
    screens.bindPick((name) => this.go(name));
    if (back) back.onBoard = () => this.go("board");
  }

  on(name, arrive) {
    (this.arrivals[name] ??= []).push(arrive);
  }

  go(name) {
    this.screens.show(name);
    this.back?.screen(name);
    for (const arrive of this.arrivals[name] ?? []) arrive();
  }

  at(name) {
    return this.screens.current() === name;
  }
}
