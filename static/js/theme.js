/* The colour theme, set before the page paints: loaded without defer or async in <head>,
   ahead of the stylesheet, so the first frame already has the right colours (the
   Content-Security-Policy forbids the usual inline snippet). The choice is "light",
   "dark" or "system" (the default: prefers-color-scheme), kept in localStorage; the
   header's Display settings change it (static/js/comfort.js). <html data-theme> holds
   the theme in force, <html data-theme-choice> the choice. */
(function () {
  "use strict";
  var KEY = "rollcall-theme";
  var root = document.documentElement;
  var query = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function stored() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }

  function apply(choice) {
    if (choice !== "light" && choice !== "dark") { choice = "system"; }
    var theme = choice === "system" ? (query && query.matches ? "dark" : "light") : choice;
    root.setAttribute("data-theme", theme);
    root.setAttribute("data-theme-choice", choice);
    return choice;
  }

  window.rollcallTheme = {
    get: function () { return root.getAttribute("data-theme-choice") || "system"; },
    set: function (choice) {
      choice = apply(choice);
      try { localStorage.setItem(KEY, choice); } catch (e) { /* private mode: this page only */ }
    }
  };

  root.classList.add("js");  // CSS lays script-only controls and the phone's tabs out from the first paint
  apply(stored());
  if (query) {
    var follow = function () { if (window.rollcallTheme.get() === "system") { apply("system"); } };
    if (query.addEventListener) { query.addEventListener("change", follow); } else if (query.addListener) { query.addListener(follow); }
  }
})();
