// Work that can wait until the page has painted the frame a tap changed (the tap's board
// first): run after the next frame as background work (the Prioritized Task Scheduling
// API: Chromium, Firefox; a plain task in Safari), at once when the page is hidden (no
// frame comes), and at the latest LATEST ms later (a page hidden before its frame). Once.
const LATEST = 200; // ms

export function afterPaint(task) {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    task();
  };
  if (globalThis.document?.visibilityState !== "visible") return run();
  const later = () => (globalThis.scheduler?.postTask ? scheduler.postTask(run, { priority: "background" }) : setTimeout(run));
  requestAnimationFrame(later);
  setTimeout(run, LATEST);
  return undefined;
}

// A promise of the same moment: resolved once the next frame is painted (afterPaint).
export function painted() {
  return new Promise((resolve) => {
    afterPaint(resolve);
  });
}

// Work for when the page has nothing else to do. Safari (WebKit) has no
// requestIdleCallback: there a plain timer (docs/BROWSERS.md).
export const whenIdle = globalThis.requestIdleCallback?.bind(globalThis) ?? ((run) => setTimeout(run, 1000));
