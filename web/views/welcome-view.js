// The empty board's welcome (« Ajouter un combattant », « Essayer avec un exemple ») and
// the guide « Comment ça marche »: five steps, shown on the board the first time it is
// empty, closed by the game master, reopened from the welcome or the menu. One listener
// per container; the guide's steps are the language's (lang/*.js guideSteps).
import { $, h } from "../infra/dom.js";
import { t } from "../infra/i18n.js";

export class WelcomeView {
  constructor() {
    this.handlers = {};
    this.welcome = $("#welcome");
    this.guide = $("#guide");
    const byId = { "welcome-add": "add", "welcome-example": "example", "welcome-guide": "guide", "open-guide": "guide",
      "guide-close": "close" };
    for (const root of [this.welcome, this.guide, $("#screen-menu")]) {
      root.addEventListener("click", (event) => {
        const button = event.target.closest("button[id]");
        if (button && root.contains(button) && Object.hasOwn(byId, button.id)) this.handlers[byId[button.id]]?.();
      });
    }
  }

  // handlers: add(), example(), guide() (reopen it), close().
  bind(handlers) {
    this.handlers = handlers;
  }

  // `empty`: the fight has no fighter; `guide`: the guide is open.
  render(empty, guide) {
    this.welcome.hidden = !empty;
    if (guide && this.guide.hidden) this.words();
    this.guide.hidden = !guide;
    $("#welcome-guide").hidden = guide; // the guide is there: no button to open it
  }

  // The guide's steps in the page's language (drawn again when it changes).
  words() {
    $("#guide-steps").replaceChildren(...t("guideSteps").map(([title, text]) =>
      h("li", {}, h("strong", {}, title), " ", text)));
  }

  focusGuide() {
    $("#guide-title").focus();
  }
}
