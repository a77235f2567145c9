// The live table's timings (ms), all in one place.
//
// The table's own rhythm (its heartbeat, when a phone is called silent, how long an
// invitation or an answer waits for a person) runs on one factor, `SCALE`: 1 on every
// phone. The end-to-end tests run a whole table faster by setting
// `globalThis.__riposteLiveTimeScale` (a number in (0, 1]) before the page's scripts run (a
// Playwright init script, on every phone of the table), so that a phone asleep 20 s shows
// in 2 s what it shows in 20, every threshold scaled alike. Only the test build reads it
// (web/infra/hooks.js): the shipped build's factor is 1, and anything but such a number
// leaves it at 1 in the test build too.
//
// The limits on what real time governs do not follow the factor: a faster table does not
// make the browser faster. These are WebRTC gathering its candidates and connecting (a
// pairing, a connection between two players' phones, a player looked for through the
// others'), another tab of the phone answering, and the camera's frames.
import { TEST_BUILD } from "../infra/hooks.js";

const asked = TEST_BUILD ? globalThis.__riposteLiveTimeScale : undefined;
export const SCALE = typeof asked === "number" && asked > 0 && asked <= 1 ? asked : 1;

const rhythm = (ms) => ms * SCALE;

// Each side says something at least this often (web/live/peer.js: a "hb" when it has
// nothing else to say).
export const HEARTBEAT = rhythm(4000);
// A far side not heard from for this long is shown silent (its connection is kept).
export const SILENT = rhythm(10_000);
// How long an invitation waits for its answer; it is single-use either way.
export const INVITATION_LIFE = rhythm(15 * 60_000);
// How long an invitation sent through the group's chat (« Inviter à distance ») waits for
// its reply: an evening's game, the minutes between the two halves of a chat included.
export const REMOTE_LIFE = rhythm(8 * 3600_000);
// A player's page whose connection gave up before the game master took its reply (sent
// through the chat) makes its side again after this long (web/live/guest.js waitForGm).
export const REMOTE_AGAIN = 2000;
// After this long showing its answer without a connection (20 s on a phone), the player's
// page says what to try: never a silent wait (the game master's side: CONNECT_LIMIT).
export const ANSWER_LATE = rhythm(20_000);

// How long candidates are gathered before the code is made with those found.
export const GATHER_LIMIT = 3000;
// How long a pairing may take once both codes are in, before it is said to have failed.
export const CONNECT_LIMIT = 15_000;
// How long a reloaded player's page waits for the game master's spare connection before
// it asks for a new invitation.
export const SPARE_WAIT = 8000;
// How long a removed player's connection stays open for its last message (« removed ») to
// arrive, before it is closed anyway.
export const REMOVED_WAIT = 5000;
// An offer a player's phone made to another's, closed if no connection came of it by then.
export const MATE_OFFER_LIFE = 20_000;
// A connection between two players' phones not made within this time may be tried again.
export const MATE_AGAIN = 20_000;
// A player who is away is looked for through the others' phones at most this often (a new
// offer passed on by a mate: one still being answered is replaced).
export const RELAY_AGAIN = 10_000;
// How long a tab waits for another tab of this phone following the same table.
export const TAB_WAIT = 600;
// How long the game master's tab (maybe in the background) may take to say it took an
// answer handed over by the camera app's tab.
export const HANDOFF_WAIT = 5000;
// Two identical taps of a player's play closer than this are one (as on the board): a
// finger's time, not the table's rhythm.
export const DOUBLE_TAP = 400;
// Between two looks at the camera's picture for a QR code.
export const SCAN_EVERY = 250;
// A connection that was open and that ICE says is disconnected or failed (a phone moved from
// Wi-Fi to mobile data, a router that changed its mapping) is restarted at once (an ICE
// restart, web/live/restart.js) and again at most this often while it does not come back.
export const RESTART_AGAIN = 10_000;
