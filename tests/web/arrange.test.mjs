// The board's cards put in the engine's order with as few moves as possible
// (web/infra/dom.js arrange, ordered). Run by `node --test tests/web/`
// (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { arrange, ordered } from "../../web/infra/dom.js";

// A parent with the part of the DOM arrange uses, counting the nodes it moves or removes.
function parent(names) {
  const list = { children: [], moved: [], removed: [] };
  const node = (name) => ({ name, remove() { list.children.splice(list.children.indexOf(this), 1); list.removed.push(name); } });
  list.children = names.map(node);
  list.insertBefore = (child, next) => {
    const at = list.children.indexOf(child);
    if (at >= 0) list.children.splice(at, 1);
    list.children.splice(next === null ? list.children.length : list.children.indexOf(next), 0, child);
    list.moved.push(child.name);
  };
  list.node = node;
  list.named = (name) => list.children.find((c) => c.name === name) ?? node(name);
  return list;
}

test("the longest run in order is kept, new nodes left out", () => {
  assert.deepEqual(ordered([]), []);
  assert.deepEqual(ordered([0, 1, 2]), [0, 1, 2]);
  assert.deepEqual(ordered([1, 2, 0]), [0, 1]);
  assert.deepEqual(ordered([-1, 0, -1, 1]), [1, 3]);
  assert.deepEqual(ordered([3, 0, 1, 2]), [1, 2, 3]);
});

test("one card moved alone is the one node inserted", () => {
  const list = parent(["a", "b", "c", "d", "e"]);
  arrange(list, ["a", "c", "d", "e", "b"].map(list.named));
  assert.deepEqual(list.children.map((c) => c.name), ["a", "c", "d", "e", "b"]);
  assert.deepEqual(list.moved, ["b"]);
  assert.deepEqual(list.removed, []);
});

test("a card replaced in place and one gone: the new one inserted, the old ones removed", () => {
  const list = parent(["a", "b", "c", "d"]);
  const fresh = list.node("b2");
  arrange(list, [list.named("a"), fresh, list.named("d")]);
  assert.deepEqual(list.children.map((c) => c.name), ["a", "b2", "d"]);
  assert.deepEqual(list.moved, ["b2"]);
  assert.deepEqual(list.removed.sort(), ["b", "c"]);
});

test("any order is reached, from any order", () => {
  const names = ["a", "b", "c", "d", "e", "f"];
  for (let seed = 1; seed < 200; seed++) {
    let x = seed;
    const random = () => (x = (x * 16807) % 2147483647) / 2147483647;
    const list = parent(names.filter(() => random() < 0.8));
    const wanted = names.filter(() => random() < 0.8).sort(() => random() - 0.5);
    arrange(list, wanted.map(list.named));
    assert.deepEqual(list.children.map((c) => c.name), wanted);
  }
});
