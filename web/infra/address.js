// The fragment of the address: where a share link carries its fight (share-links.js).
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

  // True when another page opened this one (window.open) or frames it: it can set this
  // page's address, so a link it puts there is asked about (controllers/menu.js).
  opened() {
    return window.opener !== null || window.top !== window;
  }

  // The link is consumed: a reload does not ask again.
  clear() {
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }
}
