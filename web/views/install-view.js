// « Installer Riposte »: the browser's own offer where it makes one (beforeinstallprompt:
// Chromium), the steps for iOS where it cannot (Safari: Partager → Sur l'écran d'accueil),
// nothing once Riposte runs installed (display-mode standalone). The menu's "install"
// group is this view's.
import { $ } from "../infra/dom.js";

export function installed() {
  return window.matchMedia("(display-mode: standalone)").matches || window.navigator.standalone === true;
}

// iOS (an iPad says it is a Mac, with a touch screen), in Safari: its other browsers add
// to the home screen from their own menus.
export function iosSafari(nav = window.navigator) {
  const ios = /iPad|iPhone|iPod/.test(nav.userAgent) || (nav.platform === "MacIntel" && nav.maxTouchPoints > 1);
  return ios && /Safari/.test(nav.userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(nav.userAgent);
}

export class InstallView {
  constructor() {
    this.offer = null; // the browser's deferred install prompt
    window.addEventListener("beforeinstallprompt", (event) => {
      event.preventDefault(); // no mini-infobar: the menu's button offers it
      this.offer = event;
      this.show();
    });
    window.addEventListener("appinstalled", () => {
      this.offer = null;
      this.show();
    });
    $("#install-app").addEventListener("click", async () => {
      const offer = this.offer;
      if (!offer) return;
      this.offer = null; // a prompt is used once
      await offer.prompt();
      await offer.userChoice?.catch(() => null);
      this.show();
    });
    this.show();
  }

  show() {
    const standalone = installed();
    const button = !standalone && this.offer !== null;
    const ios = !standalone && !button && iosSafari();
    $("#install-app").hidden = !button;
    $("#install-ios").hidden = !ios;
    $("#install").hidden = !button && !ios;
  }
}
