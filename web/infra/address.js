// The fragment of the address: where a share link carries its fight (links.js).
export class Address {
  constructor() {
    this.onChange = null;
    window.addEventListener("hashchange", () => this.onChange?.());
  }

  bindChange(handler) {
    this.onChange = handler;
  }

  hash() {
    return window.location.hash;
  }

  // The link is consumed: a reload does not ask again.
  clear() {
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }
}
