/* Small behaviours shared by every page. Scripts live in static files only: the
   Content-Security-Policy refuses inline scripts and event-handler attributes. */
(function () {
  "use strict";

  // A read-only field marked data-select-on-focus (an invite link) selects its whole
  // text when focused, ready to copy.
  document.addEventListener("focusin", function (evt) {
    var field = evt.target;
    if (field.matches && field.matches("input[data-select-on-focus]")) { field.select(); }
  });
})();
