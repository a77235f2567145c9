// The one way the page builds elements: text always goes in as text (textContent),
// attributes through setAttribute, so no user text can ever become HTML.
// The engine's limits (Table.limits) on the fields under `root` that name one in
// `data-limit`: a number's bounds, so that the keyboard and the browser agree with the
// engine (the page knows no limit of its own). A text's longest length is not set as the
// field's maxlength, which cuts what is typed or pasted with no word: a text too long is
// kept as typed and refused, the engine's refusal saying the limit where it was typed.
export function limitFields(root, limits) {
  if (!limits) return;
  for (const input of root.querySelectorAll("input[data-limit]")) {
    const limit = own(limits, input.dataset.limit);
    if (limit && typeof limit === "object") {
      input.min = String(limit.low);
      input.max = String(limit.high);
    }
  }
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

// A form field: its label and its control.
export function labelled(id, text, control) {
  return h("div", { class: "field" }, h("label", { for: id }, text), control);
}

// User text (a name, a skill, a weapon) as the page shows it, in any sentence or attribute:
// its explicit direction controls (LRE…RLO, LRI…PDI) dropped, so an unclosed override
// cannot reverse the page's own words, and text with right-to-left letters isolated
// (FSI…PDI: the plain-text <bdi>). Left-to-right text comes back as it was typed.
const CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const RTL = /[\u0590-\u08FF\u200F\uFB1D-\uFDFF\uFE70-\uFEFC\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

export function isolate(text) {
  const shown = plain(text);
  return RTL.test(shown) ? `\u2068${shown}\u2069` : shown;
}

// True when `text` is whole: no half of a surrogate pair (a file, a link or the
// clipboard would silently turn one into U+FFFD, so text holding one is refused where typed).
export function wellFormed(text) {
  return !/\p{Cs}/u.test(text);
}

// A whole text that may hold user text (an engine message naming a fighter): without its
// direction controls, read in the page's direction.
export function plain(text) {
  return String(text ?? "").replace(CONTROLS, "");
}

// `table[key]` when `key` is the table's own (not "constructor", "__proto__" or another
// name its prototype knows): every lookup by a key from storage, a file or a link.
export function own(table, key) {
  return table !== null && typeof table === "object" && Object.hasOwn(table, key) ? table[key] : undefined;
}

// `element`'s text, written only when it differs: the same words left as they are cost
// the frame nothing.
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

// `parent`'s children made `children`, in that order, moving as few of them as it can:
// the longest run of those already there that keeps its order stays where it is, every
// other child is inserted beside it, and a child not in `children` is removed. A node that
// stays keeps its layout and its focus (a fighter's card that moved alone in the order is
// the one node the browser lays out again).
export function arrange(parent, children) {
  const wanted = new Set(children);
  for (const child of [...parent.children]) if (!wanted.has(child)) child.remove();
  const at = new Map([...parent.children].map((child, i) => [child, i]));
  const stay = new Set(ordered(children.map((child) => at.get(child) ?? -1)).map((i) => children[i]));
  let next = null;
  for (let i = children.length - 1; i >= 0; i--) {
    if (!stay.has(children[i])) parent.insertBefore(children[i], next);
    next = children[i];
  }
}

// The indices of the longest increasing run of `positions` (each -1 left out: a new node),
// in order (patience sorting: O(n log n)).
export function ordered(positions) {
  const tails = []; // tails[k]: the index ending the best run of length k + 1 found so far
  const before = new Array(positions.length).fill(-1);
  positions.forEach((position, i) => {
    if (position < 0) return;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (positions[tails[mid]] < position) low = mid + 1;
      else high = mid;
    }
    before[i] = low > 0 ? tails[low - 1] : -1;
    tails[low] = i;
  });
  const run = [];
  for (let i = tails.at(-1) ?? -1; i >= 0; i = before[i]) run.push(i);
  return run.reverse();
}

// The presses of a finger (pointerdown) on what `ours(target)` accepts: `last`, and `before`
// it, each { x, y, time, target }, and whether a press of them `over(press, element)` landed
// on an element where it is now. Taps are counted as they are pressed: a press whose release
// meets a view drawn anew gives the browser no click, yet is a tap all the same. `forget()`
// makes the next press a first one.
export function presses(ours) {
  const seen = {
    before: null,
    last: null,
    forget() {
      seen.before = seen.last = null;
    },
    over(press, element) {
      const box = element.getBoundingClientRect();
      return press.x >= box.left && press.x <= box.right && press.y >= box.top && press.y <= box.bottom;
    },
  };
  document.addEventListener("pointerdown", (event) => {
    if (!ours(event.target)) return;
    seen.before = seen.last;
    seen.last = { x: event.clientX, y: event.clientY, time: performance.now(), target: event.target };
  }, true);
  return seen;
}
