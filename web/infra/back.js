// The phone's back button closes the open dialog or sheet instead of leaving the app,
// and from another screen goes back to the board first; from the board, it
// leaves. Each dialog that opens pushes one history entry (same address), and so does
// leaving the board for another screen (one entry, whichever screens follow); the back
// button pops it: the dialog on top closes, or the board comes back. A dialog closed by
// its own button (or Escape), or the board reached by its tab, pops its entry too, so the
// back button then does what it would have. One observer per dialog sees it open and
// close, whoever opened it: views need not know. A link put in the address (typed, or by
// another page) is a history entry too and fires popstate as the back button
// does; but it lands on a new address, where the back button lands on the one our entry
// was pushed from. It closes nothing, and our entries, under it now, are forgotten: the
// back button can no longer reach them in order, and a history.back() of ours would walk
// into the addresses put there since (a link each, taken again).
export class BackButton {
  constructor(dialogs = document.querySelectorAll("dialog")) {
    this.stack = []; // the open dialogs that have an entry, the last on top
    this.from = []; // the address each of our entries was pushed from, the last on top
    this.popping = 0; // history.back() calls not yet answered by their popstate
    this.waiting = []; // dialogs opened meanwhile: their entry follows
    this.away = false; // a screen other than the board has its entry
    this.wanted = false; // a screen other than the board is on
    this.onBoard = null; // shows the board (infra/navigation.js)
    window.addEventListener("popstate", () => this.popped());
    for (const dialog of dialogs) {
      new MutationObserver(() => (dialog.open ? this.opened(dialog) : this.closed(dialog)))
        .observe(dialog, { attributes: true, attributeFilter: ["open"] });
    }
  }

  opened(dialog) {
    this.waiting.push(dialog);
    this.settle();
  }

  // The screen now on (infra/navigation.js).
  screen(name) {
    this.wanted = name !== "board";
    this.settle();
  }

  // The entries as they should be, once no history.back() is pending: the screen's (under
  // any dialog's), then each dialog opened meanwhile.
  settle() {
    if (this.popping) return;
    if (!this.stack.length && this.wanted !== this.away) {
      this.away = this.wanted;
      if (!this.away) {
        this.back();
        return;
      }
      this.push({ riposteScreen: true });
    }
    for (const dialog of this.waiting.splice(0)) {
      if (!dialog.open || this.stack.includes(dialog)) continue;
      this.push({ riposteDialog: dialog.id });
      this.stack.push(dialog);
    }
  }

  push(state) {
    this.from.push(window.location.href);
    window.history.pushState(state, "");
  }

  back() {
    this.from.pop();
    this.popping++;
    window.history.back();
  }

  forget() {
    this.stack = [];
    this.from = [];
    this.waiting = [];
    this.away = false;
  }

  // Closed by the page (its own button, Escape, a confirmed action): its entry goes.
  closed(dialog) {
    this.waiting = this.waiting.filter((d) => d !== dialog);
    const at = this.stack.indexOf(dialog);
    if (at < 0) return; // closed by the back button: its entry is gone already
    this.stack.splice(at, 1);
    this.back();
  }

  popped() {
    if (this.popping) {
      this.popping--;
      if (!this.popping) this.settle();
      return;
    }
    if (window.location.href !== this.from.at(-1)) {
      this.forget(); // a new address, not the back button: the open dialogs stay open
      return;
    }
    this.from.pop();
    const top = this.stack.pop();
    if (top) {
      top.close(); // the back button: the dialog on top closes, as with Escape
    } else if (this.away) {
      this.away = false;
      this.wanted = false;
      this.onBoard?.(); // the board again, before the app is left
    }
  }
}
