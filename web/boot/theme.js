// The colour theme, set before the first paint: a classic script in <head> (not a module,
// which would run after the page is drawn), so a dark page never flashes light. The
// choice is the menu's (views/menu-view.js MenuView.showTheme, infra/store.js "riposte.theme"): "light"
// or "dark" sets data-theme on <html>; anything else leaves the phone's own
// (prefers-color-scheme, style.css).
(function applyTheme() {
  let theme = null;
  try {
    theme = window.localStorage.getItem("riposte.theme");
  } catch {
    // storage refused (private mode): the phone's theme
  }
  if (theme !== "light" && theme !== "dark") return;
  document.documentElement.dataset.theme = theme;
  document.querySelector('meta[name="color-scheme"]')?.setAttribute("content", theme);
})();
