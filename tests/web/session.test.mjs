// The session's order on an answer that changed the fight (web/infra/session.js `take`):
// the "answer" listeners first (the live table's messages to the players' phones), then
// the save written, then the board drawn ("change"). Run by `node --test tests/web/`.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Session } from "../../web/infra/session.js";

test("an answer goes to the phones before its save is written and its board drawn", () => {
  const order = [];
  const storage = { save: () => order.push("save") && Promise.resolve("ok"), openText: () => "text" };
  const session = new Session(storage);
  session.on("change", () => order.push("change"));
  session.on("answer", (answer) => order.push(`answer ${answer.seq}`));
  session.on("saved", () => order.push("saved"));
  session.take({ ok: true, board: {}, seq: 3, log: ["c"] });
  assert.deepEqual(order, ["answer 3", "save", "saved", "change"]);
});
