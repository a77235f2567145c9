// The app's own "are you sure?": ask() resolves true (yes) or false (no, or Escape).
import { $, h } from "../infra/dom.js";

export class ConfirmDialog {
  constructor() {
    this.dialog = $("#confirm-dialog");
    this.answer = null;
    this.dialog.addEventListener("close", () => this.answer?.(this.dialog.returnValue === "yes"));
  }

  ask(title, lines, yes, no) {
    $("#confirm-title").textContent = title;
    $("#confirm-body").replaceChildren(...lines.map((line) => h("p", {}, line)));
    $("#confirm-yes").textContent = yes;
    $("#confirm-no").textContent = no;
    this.dialog.returnValue = ""; // Escape leaves it as it was: not a yes from last time
    this.dialog.showModal();
    $("#confirm-no").focus();
    return new Promise((resolve) => {
      this.answer = resolve;
    });
  }
}

