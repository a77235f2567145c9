// « Scanner la réponse »: the camera, read for a QR code. The browser's BarcodeDetector
// where it has one that reads QR codes; else the `barcode-detector` polyfill (ZXing in
// WebAssembly), vendored with the site and loaded only now (tools/build_site.py).
// Addresses from the page's own (the site's root), not from this module's: the build
// bundles this module into a file that is not in live/ (tools/bundle.mjs).
import { t } from "../infra/i18n.js";
import { SCAN_EVERY } from "./timing.js";

const POLYFILL = "runtime/barcode-detector/ponyfill.js";
const ZXING = "runtime/zxing-wasm/";

let made = null;

function detector() {
  made ??= (async () => {
    if (typeof globalThis.BarcodeDetector === "function") {
      const formats = await Promise.resolve(globalThis.BarcodeDetector.getSupportedFormats?.()).catch(() => []) ?? [];
      if (formats.includes("qr_code")) return new globalThis.BarcodeDetector({ formats: ["qr_code"] });
    }
    const { BarcodeDetector, setZXingModuleOverrides } = await import(new URL(POLYFILL, document.baseURI).href);
    // The WebAssembly file from this origin (the library would ask a CDN).
    setZXingModuleOverrides({ locateFile: (file) => new URL(`${ZXING}${file}`, document.baseURI).href });
    return new BarcodeDetector({ formats: ["qr_code"] });
  })();
  made.catch(() => {
    made = null; // a failed load is tried again at the next scan
  });
  return made;
}

// Starts the back camera in `video` and calls onText(text) with the first QR code seen;
// with `keep`, with every QR code seen, until stopped (the game master's scanner takes
// several answers in a row). The video is shown while it runs. Returns {stop}. Throws what
// getUserMedia throws (NotAllowedError: the camera refused), or an Error where there is no
// camera at all (`cameraTrouble` words either).
export async function scanner(video, onText, { keep = false } = {}) {
  if (!navigator.mediaDevices?.getUserMedia) throw new Error("no camera");
  const reader = await detector();
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  video.srcObject = stream;
  await video.play();
  video.hidden = false;
  let running = true;
  let timer = null;
  const look = async () => {
    if (!running) return;
    try {
      const [code] = video.readyState >= 2 ? await reader.detect(video) : [];
      if (code?.rawValue && running) {
        await onText(code.rawValue);
        if (!keep) return;
      }
    } catch {
      /* a frame it could not read: the next one */
    }
    if (running) timer = setTimeout(look, SCAN_EVERY);
  };
  look();
  return {
    stop() {
      running = false;
      clearTimeout(timer);
      for (const track of stream.getTracks()) track.stop();
      video.srcObject = null;
      video.hidden = true;
    },
  };
}

// Why the camera did not start (what `scanner` threw), in the reader's words.
export function cameraTrouble(error) {
  return t(error?.name === "NotAllowedError" ? "liveCameraDenied" : "liveCameraNone");
}
