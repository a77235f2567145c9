// The game master's device told that a PJ's turn came or that a player's answer waits
// (the engine's answer says so: its `cue`, engine/table.py): a short beep made by WebAudio
// (no sound file fetched) and a short vibration where navigator.vibrate exists. Off by
// default; set per device (web/infra/store.js "riposte.cue"): "sound", "vibrate", "both".

let audio = null;

// A beep of `ms` at `hz`, quiet; nothing where WebAudio is missing or refuses.
function beep(ms = 180, hz = 880) {
  const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!Context) return false;
  try {
    audio ??= new Context();
    audio.resume?.()?.catch?.(() => undefined);
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = hz;
    gain.gain.value = 0.15;
    oscillator.connect(gain);
    gain.connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + ms / 1000);
    return true;
  } catch {
    return false;
  }
}

function vibrate(pattern) {
  try {
    return typeof navigator.vibrate === "function" && navigator.vibrate(pattern);
  } catch {
    return false;
  }
}

// `kind`: the engine's cue ("pj_turn": one beep, one buzz; "answer": two of each);
// `setting`: this device's choice. Returns what was done, for the tests' sake.
export function cue(kind, setting) {
  if (!kind || setting === "off") return [];
  const twice = kind === "answer";
  const done = [];
  if ((setting === "sound" || setting === "both") && beep(twice ? 120 : 180, twice ? 660 : 880)) done.push("sound");
  if ((setting === "vibrate" || setting === "both") && vibrate(twice ? [80, 60, 80] : 150)) done.push("vibrate");
  return done;
}
