/* Installable: registers the service worker (static/js/sw.js, served at the site's root
   by api/views.py so its scope is the whole site). The worker keeps the app shell for
   offline use; it never keeps table data and never answers a form or a roll. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) { return; }
  var worker = script.getAttribute("data-worker");
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(function (error) {
      console.warn("Rollcall: the offline shell is not available:", error);
    });
  });
})();
