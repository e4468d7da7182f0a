// The chat line (table/templates/table/_chat.html): after a line goes out over the
// socket, empty the field and keep the focus in it, so the next line can be typed at
// once. Nothing here moves the focus when a card arrives.
(function () {
  "use strict";
  document.addEventListener("htmx:wsAfterSend", function (evt) {
    var form = evt.target && evt.target.closest ? evt.target.closest("#chat-form") : null;
    if (!form) return;
    var field = form.querySelector("#chat-text");
    if (!field) return;
    var hadFocus = document.activeElement === field;
    field.value = "";
    if (hadFocus) field.focus();
  });
})();
