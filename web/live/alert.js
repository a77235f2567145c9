// How a player's phone says that its PJ's turn came: a vibration (on by default, where the
// phone can vibrate) and a short beep (off by default), each its player's choice, kept on
// the phone (web/infra/store.js liveAlert). The beep is made by WebAudio (an oscillator:
// no sound file is fetched). No DOM here.

let choice = { vibrate: true, sound: false };
let audio = null; // the AudioContext, made once the player turned the beep on (a tap)

// The player's choice ({vibrate, sound}), as kept or just changed. Turning the beep on is a
// tap: the audio is made then, which browsers allow only after one.
export function choose(chosen) {
  choice = { vibrate: chosen.vibrate !== false, sound: chosen.sound === true };
  if (choice.sound) sound();
  return choice;
}

function sound() {
  const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!audio && typeof Context === "function") {
    try {
      audio = new Context();
    } catch {
      audio = null;
    }
  }
  if (audio?.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// The phone vibrates (`pattern`, as navigator.vibrate takes it) when its player lets it, and
// only once they have tapped the page: before that the browser refuses, and says so in the
// console (a page just reloaded).
export function buzz(pattern) {
  if (!choice.vibrate) return;
  if (typeof navigator.vibrate === "function" && navigator.userActivation?.hasBeenActive !== false) navigator.vibrate(pattern);
}

// A short beep (a fifth of a second at 880 Hz, soft), when the player chose it.
export function beep() {
  if (!choice.sound) return;
  const context = sound();
  if (!context) return;
  try {
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = 880;
    gain.gain.value = 0.2;
    tone.connect(gain).connect(context.destination);
    tone.start();
    tone.stop(context.currentTime + 0.2);
  } catch {
    /* no sound this time */
  }
}

// This phone's PJ's turn came: what its player chose.
export function ring() {
  buzz(200);
  beep();
}
