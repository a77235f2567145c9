// Which screen is on: a tab, a shortcut or a controller asks for one; the controller of
// that screen draws it as it arrives (Navigation.on).
// `back` (infra/back.js), when given, keeps the phone's back button going to the board
// from any other screen.
export class Navigation {
  constructor(screens, back = null) {
    this.screens = screens;
    this.back = back;
    this.arrivals = {};
    screens.bindPick((name) => this.go(name));
    if (back) back.onBoard = () => this.go("board");
  }

  on(name, arrive) {
    this.arrivals[name] = arrive;
  }

  go(name) {
    this.screens.show(name);
    this.back?.screen(name);
    this.arrivals[name]?.();
  }

  at(name) {
    return this.screens.current() === name;
  }
}
