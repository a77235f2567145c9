// The game master's live-table controls: the menu's « Table en direct »
// group (invite, the players with their controls, PNJ details, the STUN or TURN server), the
// invitation dialog (QR code, link, « Code du joueur », « Scanner la réponse », which stays
// on for several answers in a row) and, on the board, the live bar and the players'
// interruption requests (one compact line each). One listener per container.
import { $, h, isolate } from "../infra/dom.js";
import { t } from "../infra/i18n.js";
import { showQr } from "../infra/share-links.js";
import { cameraTrouble, scanner } from "./scan.js";

export class LiveHostView {
  constructor() {
    this.handlers = {};
    this.dialog = $("#invite-dialog");
    this.scan = null;
    this.reading = false; // an answer being taken: the camera waits
    this.paired = ""; // who the camera just paired, said with the next invitation
    this.lines = { plays: [], asks: [] }; // the lines waiting for the game master (showWaiting, showAsks)
    this.players = []; // as last shown (showPlayers)
    this.barClosed = null; // the players (fingerprints) all away when the bar was closed
    for (const place of [$("#live-menu"), $("#live-bar")]) {
      place.addEventListener("click", (event) => {
        const button = event.target.closest("button");
        if (!button) return;
        if (button.matches("#live-invite")) this.handlers.invite?.();
        else if (button.matches("#live-invite-remote")) this.handlers.inviteRemote?.();
        else if (button.matches("#live-bar-invite")) (button.dataset.again ? this.handlers.reinvite : this.handlers.invite)?.();
        else if (button.matches("#live-bar-close")) this.closeBar();
        else if (button.dataset.player) this.playerControl(button);
      });
    }
    $("#live-menu").addEventListener("change", (event) => {
      if (event.target.id === "live-pnj") this.handlers.pnjDetails?.(event.target.checked);
      if (["live-stun", "live-turn-user", "live-turn-password"].includes(event.target.id)) {
        this.handlers.server?.({ url: $("#live-stun").value, user: $("#live-turn-user").value, password: $("#live-turn-password").value });
      }
      if (event.target.name === "live-mode") this.handlers.mode?.(event.target.value);
    });
    $("#live-waiting").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-decide]");
      if (!button) return;
      const line = button.closest("li");
      if (line.dataset.fp) this.handlers.decideClaim?.(line.dataset.fp, button.dataset.decide === "apply");
      else this.handlers.decide?.(Number(line.dataset.id), button.dataset.decide === "apply");
    });
    this.dialog.addEventListener("click", (event) => {
      if (event.target.closest("#invite-copy")) this.copy();
      else if (event.target.closest("#invite-take")) this.handlers.answer?.($("#invite-answer").value);
      else if (event.target.closest("#invite-scan")) (this.scan ? this.stopScan() : this.startScan());
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

  // handlers: invite, reinvite, answer(text), scanned(text), pnjDetails(on), server({url, user, password}),
  // acceptRequest(id), dismissRequest(id), remove(fp), free(fp), mute(fp, on), refuseAll(fp), mode(mode),
  // decide(id, yes), decideClaim(fp, yes).
  bind(handlers) {
    this.handlers = handlers;
  }

  playerControl(button) {
    const fp = button.closest("li").dataset.fp;
    const what = button.dataset.player;
    if (what === "free") this.handlers.free?.(fp);
    else if (what === "mute") this.handlers.mute?.(fp, button.getAttribute("aria-pressed") !== "true");
    else if (what === "remove") this.handlers.remove?.(fp);
    else if (what === "refuse-all") this.handlers.refuseAll?.(fp);
  }

  // The invitation dialog, with `link` (null while the offer is being made); `scan`: the
  // camera on at once (a table gathering again: one scan each way, no other tap).
  // `remote`: « Inviter à distance », the link for the group's chat (web/live/remote.js): no
  // QR code, no camera; the player's reply link is opened in this browser or pasted here.
  openInvite(link, { scan = false, remote = false } = {}) {
    if (!link && !this.dialog.open) {
      $("#invite-answer").value = "";
      this.remote = remote;
      const words = remote ? ["liveInviteRemote", "liveInviteRemoteHint", "liveReplyLabel", "liveReplyTake"]
        : ["liveInvite", "liveInviteHint", "liveAnswerLabel", "liveAnswerTake"];
      ["#invite-title", "#invite-hint", "label[for='invite-answer']", "#invite-take"].forEach((css, i) => {
        const el = $(css);
        el.dataset.i18n = words[i]; // kept when the language changes (web/infra/i18n.js)
        el.textContent = t(words[i]);
      });
      $("#invite-qr").hidden = remote;
      $("#invite-scan").hidden = remote;
      this.dialog.showModal();
      if (scan) this.startScan();
    }
    // An invitation made after the dialog was closed is not shown (it stays valid).
    if (!this.dialog.open) return;
    $("#invite-link").value = link ?? "";
    $("#invite-copy").disabled = !link;
    $("#invite-qr").replaceChildren();
    if (!link) {
      this.inviteStatus(t("liveMaking"));
      return;
    }
    // After a player paired with the camera on: who, and that the next one may scan.
    this.inviteStatus(this.paired ? `${this.paired} ${t("liveNextReady")}` : "");
    this.paired = "";
    if (!this.remote) showQr($("#invite-qr"), link, t("liveQrAlt"), () => $("#invite-link").value === link);
  }

  // A player paired (`text` says who): with the camera on, the next invitation is made at
  // once (the scanner stays on for the next player's answer); else the dialog closes.
  invited(text) {
    this.inviteStatus(text);
    if (this.scan) {
      this.paired = text;
      this.handlers.invite?.();
    } else if (this.dialog.open) this.dialog.close();
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
    this.inviteStatus(t("liveScanning"));
    let seen = "";
    try {
      this.scan = await scanner($("#invite-video"), async (text) => {
        // The same code seen again while it is being taken, or once taken: read once.
        if (text === seen || this.reading) return;
        seen = text;
        $("#invite-answer").value = text;
        this.reading = true;
        try {
          await this.handlers.scanned?.(text);
        } finally {
          this.reading = false;
        }
      }, { keep: true });
      $("#invite-scan").textContent = t("liveScanStop");
    } catch (error) {
      this.inviteStatus(t("liveScanFailed", cameraTrouble(error)));
    }
  }

  stopScan() {
    this.scan?.stop();
    this.scan = null;
    $("#invite-scan").textContent = t("liveScan");
  }

  // players: [{fp, label, state ("connecting", "connected", "silent", "away"), claim, muted,
  // waiting (something of theirs waits for the game master: « Refuser tout »)}]
  showPlayers(players) {
    $("#live-players").replaceChildren(...players.map((p) => {
      const name = isolate(p.label);
      // The route its connection takes (web/live/route.js), beside its state while it follows.
      const route = p.route ? h("span", { class: "live-route", dataset: { route: p.route } }, t(`liveRoute_${p.route}`)) : null;
      return h("li", { class: `live-player live-${p.state}`, dataset: { fp: p.fp } },
        h("span", { class: "live-dot", "aria-hidden": "true" }),
        h("span", { class: "live-who" }, name, " — ", t(`liveState_${p.state}`), p.muted ? ` · ${t("liveMuted")}` : ""),
        route,
        h("span", { class: "live-tools" },
          p.waiting ? h("button", { type: "button", class: "small", dataset: { player: "refuse-all" }, "aria-label": t("liveRefuseAllFor", name) },
            t("liveRefuseAll")) : null,
          p.claim ? h("button", { type: "button", class: "small", dataset: { player: "free" }, "aria-label": t("liveFreeFor", name) }, t("liveFree")) : null,
          h("button", { type: "button", class: "small", dataset: { player: "mute" }, "aria-pressed": String(p.muted), "aria-label": t("liveMuteFor", name) },
            t("liveMute")),
          h("button", { type: "button", class: "small", dataset: { player: "remove" }, "aria-label": t("liveRemoveFor", name) }, t("liveRemove"))));
    }));
    this.players = players;
    const bar = $("#live-bar");
    const names = (state) => players.filter((p) => p.state === state).map((p) => isolate(p.label));
    const on = players.filter((p) => p.state === "connected" || p.state === "silent").length;
    const silent = names("silent");
    const away = names("away");
    // Every player away: the bar can be closed, and stays so while they all stay away.
    const allAway = on === 0 && away.length === players.length && away.length > 0;
    const who = allAway ? players.map((p) => p.fp).join(" ") : null;
    if (who !== this.barClosed) this.barClosed = null;
    $("#live-bar-close").hidden = !allAway;
    bar.hidden = players.length === 0 || (allAway && this.barClosed === who);
    bar.dataset.state = away.length ? "lost" : silent.length ? "silent" : on ? "connected" : "connecting";
    const words = allAway
      ? [t("liveBarAway", away.join(", "), away.length)]
      : [t("liveBar", on), silent.length ? t("liveBarSilent", silent.join(", ")) : "", away.length ? t("liveBarLost", away.join(", ")) : ""];
    $("#live-bar-text").textContent = words.filter(Boolean).join(" ");
    const invite = $("#live-bar-invite");
    invite.textContent = away.length ? t("liveReinvite") : t("liveInviteShort");
    invite.setAttribute("aria-label", away.length ? t("liveReinvite") : t("liveInvite"));
    if (away.length) invite.dataset.again = "1";
    else delete invite.dataset.again;
  }

  // The bar closed by the game master while every player is away (« ✕ »): it comes back
  // when one of them is back, or another joins.
  closeBar() {
    const players = this.players;
    this.barClosed = players.map((p) => p.fp).join(" ");
    this.showPlayers(players);
  }

  // requests: [{id, name}]: one chip each on one line (it scrolls across when many): the
  // name accepts (the interruption sheet opens), « ✕ » ignores.
  showRequests(requests) {
    $("#live-asks").hidden = requests.length === 0;
    $("#live-requests").replaceChildren(...requests.map((r) => h("li", { dataset: { id: r.id } },
      h("button", { type: "button", dataset: { request: "accept" }, "aria-label": t("liveRequestAcceptFor", isolate(r.name)) }, isolate(r.name)),
      h("button", { type: "button", dataset: { request: "dismiss" }, "aria-label": t("liveRequestDismissFor", isolate(r.name)) }, "✕"))));
  }

  // « Les joueurs jouent leur PJ »: "off", "confirm" or "auto".
  showMode(mode) {
    for (const input of document.querySelectorAll('input[name="live-mode"]')) input.checked = input.value === mode;
  }

  // What the players played and the game master has to confirm, in the order it came:
  // « Brune : Parer → Orque 1 (5 P.I.) — Appliquer / Refuser », one line each.
  showWaiting(lines) {
    this.lines.plays = lines;
    this.drawWaiting();
  }

  // The claims of a PJ held by a phone away, each a line to accept or refuse: « Le
  // téléphone de Lyra veut jouer Dorian (absent) — Accepter / Refuser », with when that phone
  // first paired. asks: [{fp, text, detail}].
  showAsks(asks) {
    this.lines.asks = asks;
    this.drawWaiting();
  }

  drawWaiting() {
    const { plays, asks } = this.lines;
    const list = $("#live-waiting");
    list.hidden = plays.length + asks.length === 0;
    const line = (data, text, yes, yesFor, no, noFor, detail = "") => h("li", { dataset: data },
      h("span", {}, text),
      ...(detail ? [h("small", { class: "reason" }, detail)] : []),
      h("button", { type: "button", class: "small primary", dataset: { decide: "apply" }, "aria-label": yesFor }, yes),
      h("button", { type: "button", class: "small", dataset: { decide: "reject" }, "aria-label": noFor }, no));
    list.replaceChildren(
      ...asks.map((a) => line({ fp: a.fp }, a.text, t("liveRequestAccept"), t("liveClaimAcceptFor", a.text), t("liveReject"), t("liveRejectFor", a.text), a.detail)),
      ...plays.map((p) => line({ id: p.id }, p.text, t("liveApply"), t("liveApplyFor", p.text), t("liveReject"), t("liveRejectFor", p.text))));
  }

  // The server set ({url, user, password}, or null): its address, and a TURN server's user
  // name and password.
  showServer(server) {
    $("#live-stun").value = server?.url ?? "";
    $("#live-turn-user").value = server?.user ?? "";
    $("#live-turn-password").value = server?.password ?? "";
    if (server?.url) $("#live-network").open = true; // a server set shows itself: not folded away
  }

  showPnjDetails(on) {
    $("#live-pnj").checked = on;
  }

  serverError(text) {
    const el = $("#live-stun-error");
    el.textContent = text;
    el.hidden = !text;
    if (text) $("#live-network").open = true;
  }
}
