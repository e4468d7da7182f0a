// "Check this roll" on a revealed card: the roll was sealed with a SHA-256 commitment
// before anyone saw it. The check hashes the committed text the card carries, compares
// the result with the commitment, and compares the dice shown on the card with the
// committed ones. Works over plain HTTP too (js-sha256 where crypto.subtle is missing).
(function () {
  "use strict";

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer))
      .map(function (b) { return b.toString(16).padStart(2, "0"); })
      .join("");
  }

  function sha256Hex(text) {
    if (window.crypto && window.crypto.subtle) {
      return window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(hex);
    }
    return Promise.resolve(window.sha256(text));
  }

  function shownFaces(card) {
    var list = card.querySelector(":scope > ul.dice");
    if (!list) return [];
    return Array.from(list.querySelectorAll(":scope > li.die")).map(function (die) {
      return Array.from(die.querySelectorAll(".face-value")).map(function (face) {
        return face.textContent.trim();
      }).join("+");
    });
  }

  function committedFaces(outcome) {
    return (outcome.dice || []).map(function (die) {
      return String(die.face) + (die.plus_face ? "+" + String(die.plus_face) : "");
    });
  }

  function check(details) {
    var card = details.closest("article");
    var result = details.querySelector(".seal-result");
    var text = details.dataset.committed || "";
    return sha256Hex(text).then(function (digest) {
      var committed;
      try {
        committed = JSON.parse(text);
      } catch (err) {
        committed = null;
      }
      var ok = false;
      var why = "";
      if (digest !== details.dataset.commitment) {
        why = "the committed text does not hash to the commitment.";
      } else if (!committed || JSON.stringify(committedFaces(committed.outcome || {})) !==
                 JSON.stringify(shownFaces(card))) {
        why = "the dice on this card are not the committed ones.";
      } else {
        ok = true;
      }
      result.textContent = ok
        ? "Checked: these dice were fixed before the roll was revealed (SHA-256 matches)."
        : "Check failed: " + why;
      result.dataset.ok = ok ? "true" : "false";
      return ok;
    });
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest("[data-check-seal]");
    if (!button) return;
    check(button.closest(".seal-check"));
  });

  window.rollcallCheckSeal = check;
})();
