// The app's own "are you sure?": ask() resolves true (yes) or false (no, or Escape).
import { $, h } from "../infra/dom.js";

export class ConfirmDialog {
  constructor() {
    this.dialog = $("#confirm-dialog");
    this.answer = null;
    this.chosen = null;
    this.dialog.addEventListener("change", (event) => {
      if (event.target.name === "confirm-choice") this.chosen = event.target.value;
    });
    this.dialog.addEventListener("close", () => this.answer?.(this.dialog.returnValue === "yes"));
  }

  // `choice` (optional): { legend, options: [[value, label]…], value } asked as radio
  // buttons under the lines; `chosen` is then the value picked when the answer is yes.
  ask(title, lines, yes, no, choice = null) {
    $("#confirm-title").textContent = title;
    const body = lines.map((line) => h("p", {}, line));
    this.chosen = choice?.value ?? null;
    if (choice) {
      body.push(h("fieldset", { class: "field choice" }, h("legend", {}, choice.legend),
        choice.options.map(([value, label], i) => h("div", { class: "check" },
          h("input", { type: "radio", name: "confirm-choice", id: `confirm-choice-${i}`, value, checked: value === choice.value }),
          h("label", { for: `confirm-choice-${i}` }, label)))));
    }
    $("#confirm-body").replaceChildren(...body);
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

