// The game master's live-table controls (issue #15): the menu's « Table en direct »
// group (invite, the players connected, PNJ details, the STUN setting), the invitation
// dialog (QR code, link, « Code du joueur », « Scanner la réponse ») and, on the board,
// the live bar and the players' interruption requests. One listener per container.
import { $, h, isolate } from "../infra/dom.js";
import { t } from "../infra/i18n.js";
import { qrSvg } from "../infra/links.js";
import { scanner } from "./scan.js";

export class LiveHostView {
  constructor() {
    this.handlers = {};
    this.dialog = $("#invite-dialog");
    this.scan = null;
    for (const place of [$("#live-menu"), $("#live-bar")]) {
      place.addEventListener("click", (event) => {
        if (event.target.closest("#live-invite, #live-bar-invite")) this.handlers.invite?.();
      });
    }
    $("#live-menu").addEventListener("change", (event) => {
      if (event.target.id === "live-pnj") this.handlers.pnjDetails?.(event.target.checked);
      if (event.target.id === "live-stun") this.handlers.stun?.(event.target.value);
    });
    this.dialog.addEventListener("click", (event) => {
      if (event.target.closest("#invite-copy")) this.copy();
      else if (event.target.closest("#invite-take")) this.handlers.answer?.($("#invite-answer").value);
      else if (event.target.closest("#invite-scan")) this.startScan();
    });
    $("#invite-answer").addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.handlers.answer?.($("#invite-answer").value);
      }
    });
    this.dialog.addEventListener("close", () => this.stopScan());
    $("#live-requests").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-request]");
      if (!button) return;
      const id = button.closest("li").dataset.id;
      if (button.dataset.request === "accept") this.handlers.acceptRequest?.(id);
      else this.handlers.dismissRequest?.(id);
    });
  }

  // handlers: invite, answer(text), scanned(text), pnjDetails(on), stun(value),
  // acceptRequest(id), dismissRequest(id).
  bind(handlers) {
    this.handlers = handlers;
  }

  // The invitation dialog, with `link` (null while the offer is being made).
  openInvite(link) {
    if (!this.dialog.open) {
      $("#invite-answer").value = "";
      this.dialog.showModal();
    }
    $("#invite-link").value = link ?? "";
    $("#invite-copy").disabled = !link;
    $("#invite-qr").replaceChildren();
    this.inviteStatus(link ? "" : t("liveMaking"));
    if (!link) return;
    qrSvg(link).then((svg) => {
      if (!svg || $("#invite-link").value !== link) return;
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", t("liveQrAlt"));
      $("#invite-qr").replaceChildren(svg);
    });
  }

  closeInvite() {
    if (this.dialog.open) this.dialog.close();
  }

  inviteStatus(text) {
    $("#invite-status").textContent = text;
  }

  copy() {
    const field = $("#invite-link");
    navigator.clipboard.writeText(field.value).then(() => this.inviteStatus(t("linkCopied")), () => field.select());
  }

  async startScan() {
    this.stopScan();
    const video = $("#invite-video");
    this.inviteStatus(t("liveScanning"));
    try {
      this.scan = await scanner(video, (text) => {
        this.stopScan();
        $("#invite-answer").value = text;
        this.handlers.scanned?.(text);
      });
      video.hidden = false;
    } catch (error) {
      this.inviteStatus(t("liveScanFailed", error?.name === "NotAllowedError" ? t("liveCameraDenied") : error?.message ?? String(error)));
    }
  }

  stopScan() {
    this.scan?.stop();
    this.scan = null;
    $("#invite-video").hidden = true;
  }

  // players: [{label, state: "connecting", "connected" or "gone"}]
  showPlayers(players) {
    $("#live-players").replaceChildren(...players.map((p) => h("li", { class: `live-player live-${p.state}` },
      h("span", { class: "live-dot", "aria-hidden": "true" }), isolate(p.label), " — ", t(`liveState_${p.state}`))));
    const bar = $("#live-bar");
    const on = players.filter((p) => p.state === "connected").length;
    const off = players.filter((p) => p.state === "gone").map((p) => isolate(p.label));
    bar.hidden = players.length === 0;
    bar.dataset.state = off.length ? "lost" : on ? "connected" : "connecting";
    $("#live-bar-text").textContent = [t("liveBar", on), off.length ? t("liveBarLost", off.join(", ")) : ""].filter(Boolean).join(" ");
  }

  // requests: [{id, name}]: « Brune demande à interrompre » with « Accepter » / « Ignorer ».
  showRequests(requests) {
    const list = $("#live-requests");
    list.hidden = requests.length === 0;
    list.replaceChildren(...requests.map((r) => h("li", { dataset: { id: r.id } },
      h("span", {}, t("liveRequest", isolate(r.name))),
      h("button", { type: "button", class: "primary", dataset: { request: "accept" }, "aria-label": t("liveRequestAcceptFor", isolate(r.name)) }, t("liveRequestAccept")),
      h("button", { type: "button", dataset: { request: "dismiss" }, "aria-label": t("liveRequestDismissFor", isolate(r.name)) }, t("liveRequestDismiss")))));
  }

  showStun(value) {
    $("#live-stun").value = value;
  }

  stunError(text) {
    const el = $("#live-stun-error");
    el.textContent = text;
    el.hidden = !text;
  }
}
