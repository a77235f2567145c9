// The share dialog: the link, its QR code, "players' view" and "copy".
import { $ } from "../infra/dom.js";
import { t } from "../infra/i18n.js";

export class ShareView {
  constructor() {
    this.dialog = $("#share-dialog");
    this.handlers = {};
    this.dialog.addEventListener("click", (event) => {
      if (event.target.closest("#share-copy")) this.handlers.copy?.();
      else if (event.target.closest("#share-file")) this.handlers.exportFile?.();
    });
    this.dialog.addEventListener("change", (event) => {
      if (event.target.id === "share-players") this.handlers.players?.(event.target.checked);
    });
  }

  // handlers: copy, exportFile, players(checked).
  bind(handlers) {
    this.handlers = handlers;
  }

  open(link, playersLink, makeQr) {
    $("#share-link").value = link;
    $("#share-players").checked = playersLink;
    $("#share-status").textContent = t("qrLoading");
    $("#share-qr").replaceChildren();
    if (!this.dialog.open) this.dialog.showModal();
    makeQr(link).then((svg) => {
      if (svg) {
        svg.setAttribute("role", "img");
        svg.setAttribute("aria-label", t("qrAlt", link.length));
        $("#share-qr").replaceChildren(svg);
        $("#share-status").textContent = "";
      } else {
        $("#share-status").textContent = t("qrTooLong", link.length);
      }
    });
  }

  // Said in the dialog, where the user looks (not behind it, on the page).
  say(text) {
    $("#share-status").textContent = text;
  }

  // Resolves true when the link is on the clipboard; else selects it, for a copy by hand.
  copy() {
    const field = $("#share-link");
    return navigator.clipboard.writeText(field.value).then(() => true, () => {
      field.select();
      return false;
    });
  }
}

