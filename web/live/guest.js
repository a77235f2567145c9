// A player's phone on the live table (issue #15), opened by the game master's invitation
// (#table=<offer>): no engine starts and the fight saved on this phone is never read or
// written (web/live/follow.js). It answers the offer, shows the answer for the game
// master to scan or paste, then draws every board the game master's engine sends, and
// sends the player's proposals: which PJ they play, its weapon and die at the start of a
// round, an interruption request. It keeps the screen awake while it follows.
import { t } from "../infra/i18n.js";
import { ANSWER_KEY, codeIn, HANDOFF, OFFER_KEY } from "./follow.js";
import { answer, onLost } from "./link.js";
import { LiveGuestView } from "./guest-view.js";
import { HEARTBEAT, isBoard, MAX_HOST_MESSAGE, PROTOCOL, SILENCE, say } from "./protocol.js";
import { CodeError, decode, encode } from "./signal.js";

const CLAIM_KEY = "riposte.live.claim"; // sessionStorage: this tab's PJ, claimed again after a re-pairing
const USED_KEY = "riposte.live.used"; // sessionStorage: the invitation this tab paired with (single-use)

function session(key, value) {
  try {
    if (value === undefined) return sessionStorage.getItem(key);
    sessionStorage.setItem(key, value);
  } catch {
    /* this visit only */
  }
  return null;
}

function remembered() {
  try {
    return sessionStorage.getItem(CLAIM_KEY);
  } catch {
    return null;
  }
}

function remember(id) {
  try {
    if (id) sessionStorage.setItem(CLAIM_KEY, id);
    else sessionStorage.removeItem(CLAIM_KEY);
  } catch {
    /* this visit only */
  }
}

// The screen kept awake while the player follows (Screen Wake Lock, where there is one);
// taken again when the page comes back to the front (the browser drops it when hidden).
// `data-awake` on <html> says where it stands: "on", "off", "refused" or "unavailable".
function keepAwake() {
  let lock = null;
  let wanted = false;
  const mark = (state) => {
    document.documentElement.dataset.awake = state;
  };
  const take = async () => {
    if (!navigator.wakeLock) return mark("unavailable");
    if (!wanted || lock || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
      mark("on");
      lock.addEventListener("release", () => {
        lock = null;
        mark("off");
      });
    } catch {
      mark("refused"); // battery saver, no permission: the phone may sleep
    }
  };
  document.addEventListener("visibilitychange", take);
  return {
    on() {
      wanted = true;
      take();
    },
    off() {
      wanted = false;
      lock?.release().catch(() => {});
      lock = null;
    },
  };
}

export async function followTable(view) {
  view.enter();
  view.setState("pairing", t("livePairing"));
  let offer;
  try {
    offer = decode(codeIn(window.location, OFFER_KEY), "offer");
  } catch (error) {
    const reason = error instanceof CodeError ? error.reason : "damaged";
    view.setState("refused", t(reason === "version" ? "liveUpdate" : "liveInvitationDamaged"));
    return;
  }
  // A reload of a page that already paired: its invitation is spent, a new one is needed.
  if (session(USED_KEY) === offer.invitation) {
    view.setState("refused", t("liveInvitationUsed"));
    return;
  }
  let made;
  try {
    made = await answer(offer.ice, offer.stun);
  } catch (error) {
    view.setState("failed", t("liveNoWebRtc", error?.message ?? String(error)));
    return;
  }
  if (made.ice.candidates.length === 0) {
    view.setState("failed", t("liveNoNetwork"));
    return;
  }
  const code = encode({ kind: "answer", invitation: offer.invitation, ice: made.ice });
  const url = new URL(window.location.href);
  url.search = "";
  url.hash = `${ANSWER_KEY}=${code}`;
  view.showAnswer(url.href, code);
  view.setState("answer", t("liveShowGm"));
  performance.mark("riposte:live-answer");

  const awake = keepAwake();
  let board = null;
  let claim = null;
  let connected = false;
  // ICE may fail before the channel ever opens (the phones cannot reach each other): said.
  made.pc.addEventListener("connectionstatechange", () => {
    if (!connected && made.pc.connectionState === "failed") view.setState("failed", t("liveFailed"));
  });
  const channel = await made.channel;
  const send = (type, fields) => {
    if (channel.readyState === "open") channel.send(say(type, fields));
  };
  view.bind({
    claim: (id) => {
      remember(id);
      if (id) send("claim", { id });
      else {
        claim = null;
        if (board) view.render(board, null);
      }
    },
    declare: (weapon, die) => send("declare", { weapon, die }),
    interrupt: () => send("interrupt"),
  });
  // For the tests (and a curious player at the console): what this page sends, raw.
  window.riposteLive = Object.freeze({ raw: (text) => channel.send(text) });
  const opened = () => {
    connected = true;
    session(USED_KEY, offer.invitation);
    view.setState("connected", t("liveConnected"));
    awake.on();
    const again = remembered();
    if (again) send("claim", { id: again });
  };
  if (channel.readyState === "open") opened();
  else channel.addEventListener("open", opened, { once: true });
  // The game master's heartbeat: silent for SILENCE ms while this page is on screen, the
  // connection is taken as lost (a page just back from the background gets a fresh wait).
  let heard = performance.now();
  document.addEventListener("visibilitychange", () => {
    heard = performance.now();
  });
  let gone = false;
  const lost = () => {
    if (gone) return;
    gone = true;
    clearInterval(watch);
    awake.off();
    view.yours(false, "");
    view.setState(connected ? "lost" : "failed", t(connected ? "liveLost" : "liveFailed"));
    made.pc.close();
  };
  const watch = setInterval(() => {
    if (connected && document.visibilityState === "visible" && performance.now() - heard > SILENCE) lost();
  }, HEARTBEAT);
  // Leaving the page says goodbye at once.
  window.addEventListener("pagehide", () => send("bye"));
  onLost(made.pc, channel, lost);
  channel.addEventListener("message", (event) => {
    heard = performance.now();
    if (typeof event.data !== "string" || event.data.length > MAX_HOST_MESSAGE) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message?.v !== PROTOCOL) {
      view.setState("refused", t("liveUpdate"));
      made.pc.close();
      return;
    }
    if (message.t === "ping") send("pong");
    else if (message.t === "board" && isBoard(message.board)) {
      if (board && board.round !== message.board.round) view.note(""); // last round's word is spent
      board = message.board;
      claim = typeof message.claim === "string" && Object.hasOwn(board.combatants, message.claim) ? message.claim : null;
      view.render(board, claim);
      const me = claim ? board.combatants[claim] : null;
      const mine = Boolean(me) && board.round > 0 && !board.round_over && board.active.includes(claim);
      if (view.yours(mine, me?.name ?? "") && typeof navigator.vibrate === "function") navigator.vibrate(200);
      performance.mark("riposte:live-board", { detail: message.seq });
      document.documentElement.dataset.liveSeq = String(message.seq);
    } else if (message.t === "refused" && typeof message.reason === "string") {
      if (message.reason === "version") view.setState("refused", t("liveUpdate"));
      else view.note(t("liveRefused", t(`liveWhy_${message.reason}`) ?? message.reason));
    } else if (message.t === "ok" && typeof message.what === "string") {
      view.note(t(`liveOk_${message.what}`) ?? "");
    }
  });
}

// The game master's camera app opened a player's answer link (#reponse=<answer>): it is
// handed to the Riposte tab open on this origin, which pairs; this tab says to go back.
const HANDOFF_WAIT = 5000; // ms for the game master's tab (maybe in the background) to say it took the answer

export function handOff(view) {
  view.enter();
  const code = codeIn(window.location, ANSWER_KEY);
  if (typeof BroadcastChannel !== "function") {
    view.setState("refused", t("liveHandoffNone"));
    return Promise.resolve(false);
  }
  const channel = new BroadcastChannel(HANDOFF);
  view.setState("pairing", t("liveHandoffSending"));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      view.setState("refused", t("liveHandoffNone"));
      resolve(false);
    }, HANDOFF_WAIT);
    channel.addEventListener("message", (event) => {
      if (event.data?.t !== "taken" || event.data.code !== code) return;
      clearTimeout(timer);
      view.setState(event.data.ok ? "handed" : "refused", t(event.data.ok ? "liveHandoffDone" : "liveHandoffRefused"));
      resolve(event.data.ok);
    });
    channel.postMessage({ t: "answer", code });
  });
}

// The page of a live link (web/live/follow.js liveRole): "guest" or "handoff".
export function startGuest(role) {
  const view = new LiveGuestView();
  return role === "guest" ? followTable(view) : handOff(view);
}
