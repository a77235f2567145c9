// Riposte runs only in its own window, or in a frame of its own origin. A page of another
// site that frames it (to show the GM's fight as its own, or to catch taps over it) gets a
// page that says so and does nothing else: no fight read, no engine started. GitHub Pages
// sends no header, and a meta CSP cannot say frame-ancestors: this is the check.
// Imported first by app.js; its top-level await never settles when framed, so app.js
// (and every screen) never runs.
import { h } from "../infra/dom.js";

export function framedByAnotherSite() {
  if (window.top === window.self) return false;
  const origin = window.location.origin;
  if (origin === "null") return true; // a sandboxed frame: an origin of its own, so not ours
  const ancestors = window.location.ancestorOrigins;
  if (ancestors) return [...ancestors].some((o) => o !== origin);
  try {
    return window.top.location.origin !== origin;
  } catch {
    return true; // the top page is of another origin: it cannot be read
  }
}

function refuse() {
  const open = (text) => h("a", { href: window.location.href.split("#")[0], target: "_blank", rel: "noopener noreferrer" }, text);
  document.documentElement.dataset.engine = "framed";
  document.title = "Riposte";
  document.body.replaceChildren(h("main", { class: "framed" },
    h("h1", {}, "Riposte"),
    h("p", { lang: "fr" }, "Riposte ne s'ouvre pas dans la page d'un autre site : ce site pourrait afficher ou faire jouer votre combat à votre insu. ",
      open("Ouvrir Riposte dans sa propre fenêtre"), "."),
    h("p", { lang: "en" }, "Riposte does not run inside another site's page: that site could show or play your fight without you knowing. ",
      open("Open Riposte in its own window"), ".")));
}

if (framedByAnotherSite()) {
  refuse();
  await new Promise(() => {}); // never: nothing after this module runs
}
