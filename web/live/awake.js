// The screen kept awake while the live table is on (Screen Wake Lock, where there is one):
// a player's phone while it follows, the game master's while players follow
// (a game master's phone that locks its screen freezes the table). Taken again when the
// page comes back to the front (the browser drops it when hidden). `data-awake` on <html>
// says where it stands: "on", "off", "refused" or "unavailable".
export function keepAwake() {
  let lock = null;
  let wanted = false;
  let asking = false;
  const mark = (state) => {
    document.documentElement.dataset.awake = state;
  };
  const take = async () => {
    if (!navigator.wakeLock) return mark("unavailable");
    if (!wanted || lock || asking || document.visibilityState !== "visible") return undefined;
    asking = true;
    try {
      lock = await navigator.wakeLock.request("screen");
      if (!wanted) {
        lock.release().catch(() => {});
        lock = null;
        return undefined;
      }
      mark("on");
      lock.addEventListener("release", () => {
        lock = null;
        mark("off");
      });
    } catch {
      mark("refused"); // battery saver, no permission: the phone may sleep
    } finally {
      asking = false;
    }
    return undefined;
  };
  document.addEventListener("visibilitychange", take);
  return {
    on() {
      wanted = true;
      take();
    },
    off() {
      if (!wanted) return;
      wanted = false;
      lock?.release().catch(() => {});
      lock = null;
      if (navigator.wakeLock) mark("off");
    },
  };
}
