// Which page this is, from its address alone, before anything starts:
// - `#table=<offer>`: a player's phone following the game master's table ("guest");
// - `#reponse=<answer>`: a player's answer opened by the game master's camera app, handed
//   to the Riposte tab already open on this origin ("handoff").
// Either way the page starts no engine (no Python, no PyScript) and never reads or writes
// the fight saved on this device: it is not this phone's fight. web/boot/early.js asks
// `followsLiveTable` before it starts Python, app.js `liveRole` before it reads the fight.
export const OFFER_KEY = "table";
export const ANSWER_KEY = "reponse";
// The BroadcastChannel over which a "handoff" page gives its answer to the game master's tab.
export const HANDOFF = "riposte.live";

function fragment(location) {
  return new URLSearchParams(String(location?.hash ?? "").replace(/^#/, ""));
}

// "guest", "handoff" or null (the game master's page, or a page of its own).
export function liveRole(location) {
  const params = fragment(location);
  if (params.has(OFFER_KEY)) return "guest";
  if (params.has(ANSWER_KEY)) return "handoff";
  return null;
}

// True when the page must start no engine and leave the saved fight alone.
export function followsLiveTable(location) {
  return liveRole(location) !== null;
}

// The code a live link carries (`key`: OFFER_KEY or ANSWER_KEY), or "".
export function codeIn(location, key) {
  return fragment(location).get(key) ?? "";
}

// The code in what the game master pasted: a bare code, or a whole answer link, also with
// the words a chat puts around it (« voilà : https://…#reponse=… merci »). An invitation's
// link gives its offer's code, which the game master's page refuses as no answer.
export function pastedCode(text) {
  const value = String(text ?? "").trim();
  const inLink = (key) => new RegExp(`#(?:[^\\s#]*&)?${key}=([A-Za-z0-9_-]*)`).exec(value)?.[1];
  return inLink(ANSWER_KEY) ?? inLink(OFFER_KEY) ?? value;
}
