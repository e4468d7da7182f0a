/* The offline shell (api/templates/api/offline.html), shown by the service worker when
   the server cannot be reached: it asks the server again every few seconds (sooner when
   the device says it is back online) and, once it answers, reloads the page that was
   asked for. */
(function () {
  "use strict";
  var main = document.querySelector("[data-offline]");
  var status = document.getElementById("offline-status");
  if (!main || !status) { return; }
  var probe = main.getAttribute("data-probe") || "/manifest.webmanifest";
  var shell = main.getAttribute("data-shell") || "/offline/";
  var FIRST = 1000, MOST = 5000;
  var wait = FIRST, timer = null;

  function back() {
    status.textContent = "The server is back: reconnecting…";
    status.className = "message success";
    if (window.location.pathname === shell) {
      window.location.assign("/");
    } else {
      window.location.reload();
    }
  }

  function later() {
    if (timer !== null) { return; }
    timer = window.setTimeout(attempt, wait);
    wait = Math.min(wait * 2, MOST);
  }

  function attempt() {
    timer = null;
    fetch(probe, { cache: "no-store", credentials: "same-origin" }).then(function (answer) {
      if (answer.ok) { back(); } else { later(); }
    }, later);
  }

  window.addEventListener("online", function () {
    if (timer !== null) { window.clearTimeout(timer); timer = null; }
    wait = FIRST;
    attempt();
  });
  later();
})();
