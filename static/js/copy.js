/* Copy buttons (data-copy="text"), shown once this script runs: without it the text stays
   selectable on the page. navigator.clipboard needs a secure context (https, or this
   machine); on a plain-http LAN address the field beside the button is selected and
   copied the older way. "Copied" is said in the status beside the button
   (data-copy-status), which screen readers announce. */
(function () {
  "use strict";

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.hidden = false;
  });

  function copyBySelecting(button) {
    var field = button.parentElement.querySelector("input[readonly]");
    if (!field) { return Promise.reject(new Error("nothing to select")); }
    field.focus();
    field.select();
    var copied = document.execCommand("copy");
    button.focus();  // back where the keyboard was
    return copied ? Promise.resolve() : Promise.reject(new Error("refused"));
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("button[data-copy]");
    if (!button) { return; }
    var status = button.parentElement.querySelector("[data-copy-status]");
    var text = button.getAttribute("data-copy");
    var copying = navigator.clipboard && window.isSecureContext
      ? navigator.clipboard.writeText(text).catch(function () { return copyBySelecting(button); })
      : copyBySelecting(button);
    if (status) { status.textContent = ""; }
    copying.then(function () {
      if (status) { status.textContent = "Copied"; }
    }, function () {
      if (status) { status.textContent = "Could not copy: select the link and copy it"; }
    });
  });
})();
