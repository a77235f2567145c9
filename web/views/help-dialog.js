// The help dialog: the keyboard shortcuts (lang/*.js "keys"), from the menu or "?".
import { $, h } from "../infra/dom.js";
import { t } from "../infra/i18n.js";

export function openHelp() {
  $("#help-keys").replaceChildren(...t("keys").map(([key, what]) => h("div", { class: "key" }, h("dt", {}, h("kbd", {}, key)), h("dd", {}, what))));
  $("#help-dialog").showModal();
}
