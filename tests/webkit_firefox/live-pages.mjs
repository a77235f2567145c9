// What the live table's Firefox tests share (live-firefox.test.mjs, remote-firefox.test.mjs):
// the fight the game master's page opens, and waiting on a page's state.

export const ALDRIC = { id: "aldric", name: "Aldric", side: "pj", characteristics: { melee: 7 }, skills: { epee: 3 },
  weapons: [{ id: "epee", name: "Épée", kind: "melee", skill: "epee" }], in_hand: ["epee"] };
export const SAVE = JSON.stringify({ app: "riposte", format: 2, board: null, commands: [
  { type: "add_combatant", combatant: ALDRIC }, { type: "add_combatant", combatant: { id: "orque", name: "Orque" } }] });

// `expression` true on the page `on` within `timeout` ms; else an error that says `why` and
// the live table's state on that page.
export async function until(on, expression, why, timeout = 60_000) {
  try {
    await on.waitForFunction(expression, { timeout, polling: 100 });
  } catch (error) {
    const state = await on.evaluate("document.querySelector('#live-state')?.textContent").catch(() => "?");
    throw new Error(`${why}: not true after ${timeout / 1000} s (${expression}); live state: ${state}`, { cause: error });
  }
}

// An expression true when the element `css` says `is`, trimmed.
export const text = (css, is) => `document.querySelector(${JSON.stringify(css)})?.textContent.trim() === ${JSON.stringify(is)}`;
