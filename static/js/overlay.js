/* The stream overlay (api/templates/api/overlay.html): the server sends the whole list
   of cards again whenever it changes (a new event, a sealed card opened by a reveal),
   and EventSource reconnects by itself after a drop. A revoked link empties the page. */
(function () {
  "use strict";
  var log = document.getElementById("overlay-log");
  if (!log || !window.EventSource) { return; }
  var source = new EventSource(log.getAttribute("data-stream"));
  source.addEventListener("cards", function (message) {
    log.innerHTML = JSON.parse(message.data).html;  // cards rendered and escaped by the server
  });
  source.addEventListener("end", function (message) {
    if (JSON.parse(message.data).revoked) {
      source.close();
      log.innerHTML = "";
    }
  });
})();
