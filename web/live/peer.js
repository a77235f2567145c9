// One connection of the live table, as the controllers see it: messages in and
// out, a heartbeat, silence told but never taken for an end, and messages of any size.
// No DOM, no page: `Peer` takes a data channel (or a promise of one) and its connection.
//
// - Heartbeat: each side says something at least every HEARTBEAT ms (a "hb" when it has
//   nothing else to say). A far side not heard from for SILENT ms (both in
//   web/live/timing.js) is "silent" (a phone asleep, a page frozen, out of the Wi-Fi):
//   said to the controller, which shows it, and the connection is kept. Only WebRTC ends it (web/live/rtc.js onLost: the channel
//   closes, the connection fails), then "lost". A page whose own timers stopped (frozen,
//   asleep) gives the far side a fresh wait when it wakes: what arrived meanwhile is read
//   before anyone is called silent.
// - Size: a message longer than what one data-channel message may carry (the far side's
//   max-message-size, 256 KiB in our codes) goes in parts of at most PART characters,
//   framed `~<parts>:` + text, put back together on arrival, up to `maxIncoming` characters.
import { onLost } from "./rtc.js";
import { PROTOCOL } from "./signal.js";
import { HEARTBEAT, SILENT } from "./timing.js";

// One part of a long message (characters): at most 3 bytes each in UTF-8, under 256 KiB.
export const PART = 60_000;
// The heartbeat as `send("hb")` writes it.
const HEARTBEAT_TEXT = JSON.stringify({ v: PROTOCOL, t: "hb" });

export class Peer {
  // channel: an RTCDataChannel or a promise of one; pc: its RTCPeerConnection;
  // maxIncoming: the longest message accepted (characters, parts put together).
  constructor(pc, channel, { maxIncoming, now = () => performance.now() }) {
    this.pc = pc;
    this.channel = null;
    this.maxIncoming = maxIncoming;
    this.now = now;
    this.state = "connecting"; // "open", "silent", "lost"
    this.listeners = { open: [], message: [], silent: [], heard: [], lost: [], oversized: [] };
    this.heard = now();
    this.spoke = now();
    this.parts = null; // {left, texts}: a long message being put back together
    this.sent = 0;
    this.bytes = 0;
    this.timer = null;
    this.finishing = null; // the limit of `finish`
    this.failed = false; // once lost: WebRTC found no path any more (see `end`)
    // A connection that fails before its channel arrives (a pairing that does not go
    // through) ends here too.
    pc?.addEventListener("connectionstatechange", () => {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") this.end();
    });
    Promise.resolve(channel).then((ch) => this.attach(ch), () => this.end());
  }

  on(event, listener) {
    this.listeners[event].push(listener);
    return this;
  }

  emit(event, value) {
    for (const listener of this.listeners[event]) listener(value);
  }

  attach(channel) {
    if (this.state === "lost") return;
    this.channel = channel;
    onLost(this.pc, channel, () => this.end());
    channel.addEventListener("message", (event) => this.receive(event.data));
    if (channel.readyState === "open") this.opened();
    else channel.addEventListener("open", () => this.opened(), { once: true });
  }

  opened() {
    if (this.state !== "connecting") return;
    this.state = "open";
    this.heard = this.spoke = this.now();
    let last = this.now();
    this.timer = setInterval(() => {
      // A connection closed on this side fires nothing here (RTCPeerConnection.close()).
      if (this.channel.readyState === "closed" || this.pc?.connectionState === "closed") return this.end();
      const at = this.now();
      // Our own timers stopped (this page was frozen or asleep): what arrived meanwhile
      // waits in the queue behind this call, so the far side is given a fresh wait.
      if (at - last > 2 * HEARTBEAT) this.heard = at;
      last = at;
      if (at - this.spoke >= HEARTBEAT) this.send("hb");
      if (this.state === "open" && at - this.heard > SILENT) {
        this.state = "silent";
        this.emit("silent");
      }
      return undefined;
    }, HEARTBEAT / 4);
    this.emit("open");
  }

  get open() {
    return this.state === "open" || this.state === "silent";
  }

  // One message: {v, t, ...fields} as JSON, in parts if long. False when it could not go.
  send(type, fields = {}) {
    return this.sendText(JSON.stringify({ v: PROTOCOL, t: type, ...fields }));
  }

  sendText(text) {
    if (!this.channel || this.channel.readyState !== "open") return false;
    try {
      if (text.length <= PART) this.channel.send(text);
      else {
        const count = Math.ceil(text.length / PART);
        for (let i = 0; i < count; i++) this.channel.send(`~${count - i}:${text.slice(i * PART, (i + 1) * PART)}`);
      }
    } catch {
      return false; // closing: onLost says so
    }
    this.spoke = this.now();
    this.sent += 1;
    this.bytes += text.length;
    return true;
  }

  receive(data) {
    this.heard = this.now();
    if (this.state === "silent") {
      this.state = "open";
      this.emit("heard");
    }
    if (typeof data !== "string") return;
    const text = this.assemble(data);
    if (text === null) return;
    // A heartbeat of this protocol, as `send` writes it, stops here: any other message goes
    // on to be checked whole (web/live/protocol.js), read once.
    if (text === HEARTBEAT_TEXT) return;
    this.emit("message", { text });
  }

  // The whole text of a message, or null while its parts arrive (or when it is too long:
  // its parts are then skipped to its end, and the far side's next message read as usual).
  assemble(data) {
    const part = /^~(\d{1,5}):/.exec(data);
    if (!part) {
      this.parts = null; // a whole message after a cut one: the cut one is dropped
      if (data.length <= this.maxIncoming) return data;
      this.emit("oversized");
      return null;
    }
    const left = Number(part[1]);
    if (!this.parts || this.parts.left !== left + 1) this.parts = { texts: [], length: 0, dropped: false };
    const parts = this.parts;
    parts.left = left;
    if (!parts.dropped) {
      parts.length += data.length - part[0].length;
      if (parts.length > this.maxIncoming) {
        parts.dropped = true;
        parts.texts = [];
        this.emit("oversized");
      } else parts.texts.push(data.slice(part[0].length));
    }
    if (left > 1) return null;
    this.parts = null;
    return parts.dropped ? null : parts.texts.join("");
  }

  // Ends the connection once what was sent has reached the far side: the channel is closed
  // first, which sends what it holds before it closes (closing the connection itself drops
  // it: a last message sent just before would never arrive), then the connection, when the
  // channel says it is closed or after `limit` ms (a far side that no longer answers).
  finish(limit) {
    if (this.state === "lost") return;
    if (this.channel?.readyState !== "open") {
      this.end();
      return;
    }
    this.channel.close();
    this.finishing = setTimeout(() => this.end(), limit);
  }

  end() {
    if (this.state === "lost") return;
    // Ended because WebRTC found no path any more (not closed by either side): `failed`.
    this.failed = this.pc?.connectionState === "failed" || this.pc?.iceConnectionState === "failed";
    this.state = "lost";
    clearInterval(this.timer);
    clearTimeout(this.finishing);
    try {
      this.pc?.close();
    } catch {
      /* already closed */
    }
    this.emit("lost");
  }
}
