// One connection of the live table (web/live/peer.js), with no browser: a message of any
// size arrives whole, a silent far side is told silent and kept, only the connection's end
// ends it, and a page whose own timers stopped gives the far side a fresh wait.
// Run by `node --test tests/live/` (tests/test_live_codes.py runs it under pytest).
import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { PART, Peer } from "../../web/live/peer.js";
import { PROTOCOL } from "../../web/live/protocol.js";
import { HEARTBEAT, SILENT } from "../../web/live/timing.js";

// Two data channels joined to each other, and their connections: what one sends, the other
// receives (in order, as an ordered RTCDataChannel does).
function pair() {
  const make = () => {
    const channel = new EventTarget();
    channel.readyState = "open";
    channel.sent = [];
    const pc = new EventTarget();
    pc.connectionState = "connected";
    pc.close = () => {
      pc.connectionState = "closed";
      pc.dispatchEvent(new Event("connectionstatechange"));
    };
    return { channel, pc };
  };
  const a = make();
  const b = make();
  const wire = (from, to) => {
    from.channel.send = (text) => {
      from.channel.sent.push(text);
      const event = new Event("message");
      event.data = text;
      to.channel.dispatchEvent(event);
    };
  };
  wire(a, b);
  wire(b, a);
  return [a, b];
}

function listen(peer) {
  const seen = { messages: [], silent: 0, heard: 0, lost: 0, oversized: 0 };
  peer.on("message", ({ text }) => seen.messages.push(JSON.parse(text)));
  for (const event of ["silent", "heard", "lost", "oversized"]) peer.on(event, () => { seen[event] += 1; });
  return seen;
}

test("a message longer than a data channel takes arrives whole, in parts", async () => {
  const [a, b] = pair();
  const sender = new Peer(a.pc, a.channel, { maxIncoming: 2_000_000 });
  const receiver = new Peer(b.pc, b.channel, { maxIncoming: 2_000_000 });
  await Promise.resolve();
  const seen = listen(receiver);
  const big = "é".repeat(400_000); // 800 kB in UTF-8: no data channel takes that in one message
  assert.equal(sender.send("board", { big }), true);
  assert.ok(a.channel.sent.length >= Math.ceil(400_000 / PART), "sent in parts");
  for (const part of a.channel.sent) assert.ok(part.length <= PART + 10, `a part of ${part.length} characters`);
  assert.equal(seen.messages.length, 1);
  assert.equal(seen.messages[0].big, big);
  // A short one after it still goes whole.
  sender.send("ok", { what: "x" });
  assert.deepEqual(seen.messages[1], { v: PROTOCOL, t: "ok", what: "x" });
  sender.end();
  receiver.end();
});

test("a message longer than the far side accepts is dropped and said, not half read", async () => {
  const [a, b] = pair();
  const sender = new Peer(a.pc, a.channel, { maxIncoming: 1000 });
  const receiver = new Peer(b.pc, b.channel, { maxIncoming: 1000 });
  await Promise.resolve();
  const seen = listen(receiver);
  sender.send("claim", { id: "x".repeat(5000) });
  sender.send("claim", { id: "x".repeat(200_000) });
  assert.equal(seen.messages.length, 0);
  assert.equal(seen.oversized, 2);
  sender.send("claim", { id: "brune" });
  assert.deepEqual(seen.messages, [{ v: PROTOCOL, t: "claim", id: "brune" }]);
  sender.end();
  receiver.end();
});

test("silence is told and the connection kept; only its end ends it", async () => {
  mock.timers.enable({ apis: ["setInterval"] });
  let now = 0;
  const clock = () => now;
  const [a, b] = pair();
  const far = new Peer(a.pc, a.channel, { maxIncoming: 1000, now: clock });
  const near = new Peer(b.pc, b.channel, { maxIncoming: 1000, now: clock });
  await Promise.resolve();
  const seen = listen(near);
  // The far side's page freezes: it says nothing from now on.
  a.channel.send = () => {};
  const step = (ms) => {
    for (let t = 0; t < ms; t += HEARTBEAT / 4) {
      now += HEARTBEAT / 4;
      mock.timers.tick(HEARTBEAT / 4);
    }
  };
  step(SILENT - HEARTBEAT);
  assert.equal(seen.silent, 0, "not silent before SILENT");
  step(2 * HEARTBEAT);
  assert.equal(seen.silent, 1, "silent once");
  assert.equal(near.state, "silent");
  step(60_000);
  assert.equal(seen.silent, 1, "told once");
  assert.equal(seen.lost, 0, "a minute of silence does not end the connection");
  assert.ok(near.open);
  // It wakes: heard again at its first word.
  const event = new Event("message");
  event.data = JSON.stringify({ v: PROTOCOL, t: "hb" });
  b.channel.dispatchEvent(event);
  assert.equal(seen.heard, 1);
  assert.equal(near.state, "open");
  assert.equal(seen.messages.length, 0, "a heartbeat is not a message");
  // WebRTC gives up: now it is over.
  b.pc.connectionState = "failed";
  b.pc.dispatchEvent(new Event("connectionstatechange"));
  assert.equal(seen.lost, 1);
  assert.equal(near.open, false);
  far.end();
  mock.timers.reset();
});

test("a page whose own timers stopped gives the far side a fresh wait", async () => {
  mock.timers.enable({ apis: ["setInterval"] });
  let now = 0;
  const [a, b] = pair();
  const near = new Peer(b.pc, b.channel, { maxIncoming: 1000, now: () => now });
  new Peer(a.pc, a.channel, { maxIncoming: 1000, now: () => now });
  await Promise.resolve();
  const seen = listen(near);
  // This page was frozen 40 s: its interval fires once, late; what the far side sent
  // meanwhile is still in the queue behind it.
  now += 40_000;
  mock.timers.tick(HEARTBEAT / 4);
  assert.equal(seen.silent, 0, "not called silent for its own sleep");
  mock.timers.reset();
  near.end();
});

test("the end of the channel or of the connection ends it once; a closed channel sends nothing", async () => {
  const [a, b] = pair();
  const peer = new Peer(b.pc, b.channel, { maxIncoming: 1000 });
  await Promise.resolve();
  const seen = listen(peer);
  b.channel.dispatchEvent(new Event("close"));
  b.pc.close();
  assert.equal(seen.lost, 1);
  b.channel.readyState = "closed";
  assert.equal(peer.send("hb"), false);
  void a;
});

// Two channels as WebRTC carries them: a message sent is on its way until the next turn of
// the event loop; closing the connection drops what is still on its way, closing the
// channel sends it first, then closes both ends (a far side that `answers`).
function webrtc({ answers = true } = {}) {
  const [a, b] = pair();
  const onTheWay = [];
  a.channel.send = (text) => {
    a.channel.sent.push(text);
    onTheWay.push(text);
    setImmediate(() => {
      if (!onTheWay.includes(text) || a.pc.connectionState === "closed") return;
      onTheWay.splice(onTheWay.indexOf(text), 1);
      const event = new Event("message");
      event.data = text;
      b.channel.dispatchEvent(event);
    });
  };
  const pcClose = a.pc.close;
  a.pc.close = () => {
    onTheWay.length = 0;
    pcClose();
  };
  a.channel.close = () => {
    a.channel.readyState = "closing";
    if (!answers) return;
    setImmediate(() => setImmediate(() => {
      for (const end of [a, b]) {
        end.channel.readyState = "closed";
        end.channel.dispatchEvent(new Event("close"));
      }
    }));
  };
  return [a, b];
}

const turns = (n = 4) => new Promise((resolve) => {
  const next = (left) => (left ? setImmediate(() => next(left - 1)) : resolve());
  next(n);
});

test("a last message before the end arrives: finish closes the channel, then the connection", async () => {
  // The end alone drops it (the connection closed under it): what finish is for.
  {
    const [a, b] = webrtc();
    const sender = new Peer(a.pc, a.channel, { maxIncoming: 1000 });
    const receiver = new Peer(b.pc, b.channel, { maxIncoming: 1000 });
    await Promise.resolve();
    const seen = listen(receiver);
    sender.send("removed");
    sender.end();
    await turns();
    assert.deepEqual(seen.messages, []);
    receiver.end();
  }
  const [a, b] = webrtc();
  const sender = new Peer(a.pc, a.channel, { maxIncoming: 1000 });
  const receiver = new Peer(b.pc, b.channel, { maxIncoming: 1000 });
  await Promise.resolve();
  const seen = listen(receiver);
  const ended = listen(sender);
  sender.send("removed");
  sender.finish(60_000);
  assert.equal(sender.send("board"), false, "nothing more goes once it is finishing");
  assert.equal(ended.lost, 0, "the connection waits for the channel's close");
  await turns();
  assert.deepEqual(seen.messages, [{ v: PROTOCOL, t: "removed" }]);
  assert.equal(seen.lost, 1, "the far side is told the end after the message");
  assert.equal(ended.lost, 1);
  assert.equal(a.pc.connectionState, "closed");
});

test("a connection finishing with a far side that never answers ends after its limit", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  const [a] = webrtc({ answers: false });
  const sender = new Peer(a.pc, a.channel, { maxIncoming: 1000 });
  await Promise.resolve();
  const ended = listen(sender);
  sender.finish(5000);
  mock.timers.tick(4999);
  assert.equal(ended.lost, 0);
  mock.timers.tick(1);
  assert.equal(ended.lost, 1);
  assert.equal(a.pc.connectionState, "closed");
  mock.timers.reset();
});

test("a heartbeat of another version or shape is a message, for the protocol's checks to refuse", async () => {
  const [a, b] = pair();
  const receiver = new Peer(b.pc, b.channel, { maxIncoming: 1000 });
  await Promise.resolve();
  const seen = listen(receiver);
  for (const hb of [{ v: PROTOCOL, t: "hb" }, { v: PROTOCOL + 1, t: "hb" }, { v: PROTOCOL, t: "hb", extra: 1 }]) {
    const event = new Event("message");
    event.data = JSON.stringify(hb);
    b.channel.dispatchEvent(event);
  }
  assert.deepEqual(seen.messages, [{ v: PROTOCOL + 1, t: "hb" }, { v: PROTOCOL, t: "hb", extra: 1 }]);
  receiver.end();
  a.pc.close();
});
