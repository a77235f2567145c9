// « Inviter à distance »: a player at home paired through the group's chat, with no
// server of ours. The game master's page makes an invitation link to paste in the chat
// (`#table=<offer>&loin=1`); the player's page answers it at once and shows a reply link
// (`#reponse=<answer>`) to paste back; the game master opens it in the browser of the
// game master's page (a new tab hands it over: web/live/guest.js handOff) or pastes it
// into « Code du joueur » (web/live/follow.js pastedCode). Minutes, or an hour, may pass
// between the two halves: the game master's page keeps the invitation's connection
// waiting for REMOTE_LIFE (web/live/timing.js), and the player's page, whose ICE checks
// started when it answered, keeps its side waiting with the credentials its reply link
// carries (web/live/guest.js `waitForGm`). Pure functions (tests/live/remote.test.mjs).
import { ANSWER_KEY, OFFER_KEY } from "./follow.js";

// The flag an invitation sent through the chat carries in its fragment, beside the offer.
const REMOTE_KEY = "loin";

function fragment(location) {
  return new URLSearchParams(String(location?.hash ?? "").replace(/^#/, ""));
}

// The invitation's link on this site (`href`: the game master's page's address): the
// offer's code, and for a chat (`remote`) the flag that says so to the player's page.
export function invitationLink(href, code, remote = false) {
  const url = new URL(href);
  url.search = "";
  url.hash = `${OFFER_KEY}=${code}${remote ? `&${REMOTE_KEY}=1` : ""}`;
  return url.href;
}

// The reply's link on this site (`href`: the player's page's address): the answer's code.
export function replyLink(href, code) {
  const url = new URL(href);
  url.search = "";
  url.hash = `${ANSWER_KEY}=${code}`;
  return url.href;
}

// True when the page's address is an invitation sent through the chat.
export function isRemote(location) {
  return fragment(location).get(REMOTE_KEY) === "1";
}
