// The phone's back button closes the open dialog or sheet instead of leaving the app.
// Each dialog that opens pushes one history entry (same address); the back button pops it
// and closes the dialog on top. A dialog closed by its own button (or Escape) pops its
// entry too, so the back button then leaves the app as it would have. One observer per
// dialog sees it open and close, whoever opened it: views need not know.
export class BackButton {
  constructor(dialogs = document.querySelectorAll("dialog")) {
    this.stack = []; // the open dialogs that have an entry, the last on top
    this.popping = 0; // history.back() calls not yet answered by their popstate
    this.waiting = []; // dialogs opened while popping: their entry follows
    window.addEventListener("popstate", () => this.popped());
    for (const dialog of dialogs) {
      new MutationObserver(() => (dialog.open ? this.opened(dialog) : this.closed(dialog)))
        .observe(dialog, { attributes: true, attributeFilter: ["open"] });
    }
  }

  opened(dialog) {
    if (this.popping) this.waiting.push(dialog);
    else this.push(dialog);
  }

  push(dialog) {
    if (!dialog.open || this.stack.includes(dialog)) return;
    window.history.pushState({ riposteDialog: dialog.id }, "");
    this.stack.push(dialog);
  }

  // Closed by the page (its own button, Escape, a confirmed action): its entry goes.
  closed(dialog) {
    this.waiting = this.waiting.filter((d) => d !== dialog);
    const at = this.stack.indexOf(dialog);
    if (at < 0) return; // closed by the back button: its entry is gone already
    this.stack.splice(at, 1);
    this.popping++;
    window.history.back();
  }

  popped() {
    if (this.popping) {
      this.popping--;
      if (!this.popping) for (const dialog of this.waiting.splice(0)) this.push(dialog);
      return;
    }
    this.stack.pop()?.close(); // the back button: the dialog on top closes, as with Escape
  }
}
