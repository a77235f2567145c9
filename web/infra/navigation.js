// Which screen is on: a tab, a shortcut or a controller asks for one; the controller of
// that screen draws it as it arrives (Navigation.on).
export class Navigation {
  constructor(screens) {
    this.screens = screens;
    this.arrivals = {};
    screens.bindPick((name) => this.go(name));
  }

  on(name, arrive) {
    this.arrivals[name] = arrive;
  }

  go(name) {
    this.screens.show(name);
    this.arrivals[name]?.();
  }

  at(name) {
    return this.screens.current() === name;
  }
}
