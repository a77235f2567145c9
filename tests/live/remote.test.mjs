// « Inviter à distance » (web/live/remote.js, web/live/follow.js): the invitation link for
// the group's chat and the player's reply link, what each page reads in them, the reply
// found in what the game master pastes, and both links' lengths (docs/LIVE-TABLE.md).
// Run by `node --test tests/live/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { ANSWER_KEY, codeIn, liveRole, OFFER_KEY, pastedCode } from "../../web/live/follow.js";
import { invitationLink, isRemote, replyLink } from "../../web/live/remote.js";
import { encode, MAX_CODE } from "../../web/live/signal.js";

// A site's address on GitHub Pages (39 characters), as docs/LIVE-TABLE.md measures links.
const SITE = "https://exemple-de-groupe.github.io/rp/";
const mdns = (n) => `${String(n).repeat(8)}-aaaa-bbbb-cccc-${String(n).repeat(12)}.local`;
const ICE = { ufrag: "MyOY", pwd: "J45oYcWq/CcOlwe0fH5tTPph", fingerprint: "1e".repeat(32), candidates: [
  { type: "host", priority: 2113937151, address: mdns(1), port: 54333 },
  { type: "host", priority: 2113942271, address: mdns(2), port: 49826 },
] };

test("the chat's invitation link says so, and reads as an invitation", () => {
  const code = encode({ kind: "offer", invitation: "0a1b2c3d", ice: ICE });
  const remote = new URL(invitationLink(`${SITE}?x=1#z=old`, code, true));
  const table = new URL(invitationLink(SITE, code));
  assert.equal(remote.search, "", "nothing of the game master's own address but the site");
  assert.equal(liveRole(remote), "guest");
  assert.equal(codeIn(remote, OFFER_KEY), code);
  assert.equal(isRemote(remote), true);
  assert.equal(isRemote(table), false, "an invitation at the table is not a chat's");
  assert.equal(codeIn(table, OFFER_KEY), code);
});

test("the reply link opens as a hand-over, and its code is found in whatever is pasted", () => {
  const code = encode({ kind: "answer", invitation: "0a1b2c3d", ice: ICE, name: "Camille" });
  const link = replyLink(`${SITE}#table=abc&loin=1`, code);
  assert.equal(link, `${SITE}#${ANSWER_KEY}=${code}`);
  assert.equal(liveRole(new URL(link)), "handoff");
  for (const pasted of [code, ` ${code}\n`, link, `  ${link}  `, `voilà : ${link} merci !`, `${link}\nà tout de suite`,
    `${SITE}#x=1&${ANSWER_KEY}=${code}`]) {
    assert.equal(pastedCode(pasted), code, pasted);
  }
  // An invitation's link pasted gives its offer's code, which the game master's page
  // refuses as no answer (« C'est un code d'invitation, pas la réponse d'un joueur »).
  assert.equal(pastedCode(`voici ${SITE}#table=${code}&loin=1 !`), code);
  assert.equal(pastedCode("n'importe quoi"), "n'importe quoi", "anything else as it is: refused as damaged");
});

test("both links are short enough for any chat", () => {
  const offer = encode({ kind: "offer", invitation: "0a1b2c3d", ice: ICE });
  const answer = encode({ kind: "answer", invitation: "0a1b2c3d", ice: ICE, name: "Camille" });
  const invitation = invitationLink(SITE, offer, true);
  const reply = replyLink(SITE, answer);
  console.log(`chat invitation link ${invitation.length} characters, reply link ${reply.length} (a site address of ${SITE.length})`);
  assert.equal(invitation.length, SITE.length + "#table=".length + 154 + "&loin=1".length);
  assert.equal(reply.length, SITE.length + "#reponse=".length + 164);
  // The longest a page makes (8 candidates, a TURN server's address, user and password at
  // their longest) is still far under the 2,000 characters a chat or a browser takes.
  const turn = { url: `turn:${"a".repeat(195)}.org:3478`, user: "u".repeat(64), password: "p".repeat(64) };
  const most = { ...ICE, candidates: Array.from({ length: 8 }, (_, i) => ({ type: "srflx", priority: i, address: `2001:db8::${i + 1}`, port: 40000 + i })) };
  const longest = invitationLink(SITE, encode({ kind: "offer", invitation: "0a1b2c3d", ice: most, server: turn }), true);
  assert.ok(longest.length < SITE.length + MAX_CODE + 20 && longest.length < 2000, longest.length);
});

test("the chat's invitations kept across the game master's reload are read back only as written", async () => {
  const kept = new Map();
  globalThis.localStorage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, String(v)) };
  try {
    const store = await import("../../web/infra/store.js");
    assert.deepEqual(store.liveInvitations(), [], "none kept");
    const good = { id: "0a1b2c3d", ufrag: "MyOY", pwd: "J45oYcWq/CcOlwe0fH5tTPph", at: 1 };
    assert.equal(store.saveLiveInvitations([good]), "ok");
    assert.deepEqual(store.liveInvitations(), [good]);
    // What this page would not have written is left out: a bad id, a password that would
    // smuggle a line into an SDP, no time, another shape, a field too many (dropped).
    kept.set("riposte.live.invitations", JSON.stringify([good, { ...good, id: "zz" }, { ...good, pwd: "a\r\na=x" },
      { ...good, at: "1" }, null, "x", { ...good, extra: 1 }]));
    assert.deepEqual(store.liveInvitations(), [good, good]);
    kept.set("riposte.live.invitations", "{not json");
    assert.deepEqual(store.liveInvitations(), []);
    kept.set("riposte.live.invitations", JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ ...good, at: i }))));
    assert.equal(store.liveInvitations().length, 16, "at most 16, the latest");
    assert.equal(store.liveInvitations()[0].at, 4);
  } finally {
    delete globalThis.localStorage;
  }
});
