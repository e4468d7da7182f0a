/* The pool in the open (table/live_pool.py): a pool in progress that went quiet leaves
   the "building" area when its time is up, as it does on the server; and when the GM's
   additions reach a player's builder, the builder re-renders itself once so its odds
   include them (focus stays where it was: table.js keeps it across re-renders). */
(function () {
  "use strict";

  function expire() {
    var now = Date.now() / 1000;
    document.querySelectorAll(".live-pool[data-until]").forEach(function (slot) {
      if (parseFloat(slot.getAttribute("data-until")) <= now) {
        slot.removeAttribute("data-until");
        slot.classList.remove("is-live");
        slot.textContent = "";
      }
    });
  }
  setInterval(expire, 5000);

  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var box = evt.detail && evt.detail.target;
    if (!box || !box.id || box.id.indexOf("gm-additions-") !== 0) { return; }
    var fresh = document.getElementById(box.id);
    var form = fresh && fresh.closest("form");
    if (form && !form.hasAttribute("data-rolling") && window.htmx) { htmx.trigger(form, "change"); }
  });
})();
