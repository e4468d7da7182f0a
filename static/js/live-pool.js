/* The pool in the open (table/pools/live_pool.py): a pool in progress that went quiet leaves
   the "building" area when its time is up, as it does on the server; the GM's card keeps
   what the GM was choosing when it is re-sent; and when the GM's additions reach a
   player's builder, the builder re-renders itself once so its odds include them (focus
   stays where it was: table.js keeps it across re-renders). */
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

  // The GM's card is re-sent with each click of the player: what the GM was choosing
  // (a die in the picker, a difficulty half typed) and where their focus was survive it.
  var kept = {};
  var KEPT = "select[name], input[type=number][name], input[type=text][name]";
  var FOCUSABLE = "select, input:not([type=hidden]), button";

  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var slot = evt.detail && evt.detail.target;
    if (!slot || !slot.id || slot.id.indexOf("live-pool-") !== 0) { return; }
    var fields = {};
    slot.querySelectorAll(KEPT).forEach(function (field, index) {
      var changed = field.tagName === "SELECT" ? field.selectedIndex > 0 : field.value !== field.defaultValue;
      if (changed) { fields[index] = { name: field.name, value: field.value }; }
    });
    var active = document.activeElement;
    var focus = active && slot.contains(active) ? Array.prototype.indexOf.call(slot.querySelectorAll(FOCUSABLE), active) : -1;
    kept[slot.id] = { fields: fields, focus: focus };
  });

  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var slot = evt.detail && evt.detail.target;
    var was = slot && slot.id ? kept[slot.id] : null;
    if (!was) { return; }
    delete kept[slot.id];
    var fresh = document.getElementById(slot.id);
    if (!fresh) { return; }
    // A field is found again by its place among the card's fields (a GM pool has
    // several dice named "die"), and only where it is still the same field.
    var now = fresh.querySelectorAll(KEPT);
    Object.keys(was.fields).forEach(function (index) {
      var saved = was.fields[index];
      var field = now[index];
      if (!field || field.name !== saved.name) { return; }
      if (field.tagName === "SELECT" && !Array.prototype.some.call(field.options, function (o) { return o.value === saved.value; })) { return; }
      field.value = saved.value;
    });
    if (was.focus >= 0) {
      var focus = fresh.querySelectorAll(FOCUSABLE)[was.focus];
      if (focus) { focus.focus({ preventScroll: true }); }
    }
  });

  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var box = evt.detail && evt.detail.target;
    if (!box || !box.id || box.id.indexOf("gm-additions-") !== 0) { return; }
    var fresh = document.getElementById(box.id);
    if (evt.target !== fresh) { return; }  // the event comes once for each settled element
    if (fresh.textContent.trim() === box.textContent.trim()) { return; }  // nothing new
    var form = fresh && fresh.closest("form");
    if (form && !form.hasAttribute("data-rolling") && window.htmx) { htmx.trigger(form, "change"); }
  });
})();
