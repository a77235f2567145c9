// The route the game master's list shows beside each phone (web/live/route.js), from the
// selected candidate pair's two candidates as getStats gives them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { localAddress, routeOf } from "../../web/live/route.js";

const c = (candidateType, address) => ({ candidateType, address });

test("a relay on either side is TURN, whatever the other", () => {
  assert.equal(routeOf(c("relay", "203.0.113.1"), c("host", "10.0.0.2")), "turn");
  assert.equal(routeOf(c("host", "10.0.0.2"), c("relay", "203.0.113.1")), "turn");
  assert.equal(routeOf(c("srflx", "203.0.113.12"), c("relay", "203.0.113.1"), false), "turn");
});

test("an address a STUN server told, or a far side's public address, is STUN", () => {
  assert.equal(routeOf(c("host", "10.9.1.2"), c("srflx", "203.0.113.12")), "stun");
  assert.equal(routeOf(c("srflx", "203.0.113.11"), c("host", "x.local")), "stun");
  assert.equal(routeOf(c("host", "10.9.1.2"), c("prflx", "203.0.113.12")), "stun");
});

test("a far side's private address, or no server at all, is direct", () => {
  assert.equal(routeOf(c("host", "192.168.1.4"), c("host", "1f2e.local")), "direct");
  assert.equal(routeOf(c("host", "192.168.1.4"), c("prflx", "192.168.1.7")), "direct");
  assert.equal(routeOf(c("host", "192.0.2.2"), c("prflx", "192.0.2.2"), false), "direct");
  assert.equal(routeOf(c("host", "192.0.2.2"), c("srflx", "198.51.100.4"), false), "direct");
});

test("no pair, no route", () => {
  assert.equal(routeOf(undefined, c("host", "10.0.0.1")), null);
  assert.equal(routeOf(c("host", "10.0.0.1"), null), null);
});

test("private addresses and mDNS names never cross the internet", () => {
  for (const a of ["10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.1", "127.0.0.1", "169.254.1.1",
    "100.64.0.1", "fd12::1", "fe80::1", "::1", "0c2f-4a.local"]) assert.equal(localAddress(a), true, a);
  for (const a of ["172.32.0.1", "8.8.8.8", "203.0.113.12", "100.128.0.1", "2001:db8::1", undefined]) assert.equal(localAddress(a), false, String(a));
});
