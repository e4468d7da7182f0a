// "Check this roll" on a revealed card: the roll was sealed with a SHA-256 commitment
// before anyone saw it. A check is only worth something against the commitment published
// BEFORE the reveal, so this page remembers the commitment of every sealed card it shows
// (by campaign and seq, for the tab's life: sessionStorage), and the check holds the
// opened card to it: a different commitment on the opened card fails loudly. It then
// hashes the revealed text (faces, outcome and salt) with SHA-256 in the browser,
// compares the digest with that earlier commitment, and compares the dice shown on the
// card with the committed ones. Works over plain HTTP too (js-sha256 where
// crypto.subtle is missing).
(function () {
  "use strict";

  var seen = {};  // this page's memory, when sessionStorage is unavailable

  function campaign() {
    var match = window.location.pathname.match(/^\/c\/(\d+)\//);
    return match ? match[1] : "";
  }

  function storageKey(seq) {
    return "rollcall.sealed." + campaign() + "." + seq;
  }

  function earlierCommitment(seq) {
    var key = storageKey(seq);
    try {
      var stored = window.sessionStorage.getItem(key);
      if (stored) return stored;
    } catch (err) { /* storage refused: this page's memory only */ }
    return seen[key] || "";
  }

  // The first commitment a sealed card showed for a seq is the one kept: a later card
  // for the same seq cannot replace it.
  function remember(card) {
    var seq = card.getAttribute("data-sealed-seq");
    var commitment = card.getAttribute("data-commitment");
    if (!seq || !commitment || earlierCommitment(seq)) return;
    var key = storageKey(seq);
    seen[key] = commitment;
    try {
      window.sessionStorage.setItem(key, commitment);
    } catch (err) { /* kept in this page's memory */ }
  }

  function rememberIn(node) {
    if (!node || node.nodeType !== 1) return;
    if (node.matches(".sealed-card[data-commitment]")) remember(node);
    node.querySelectorAll(".sealed-card[data-commitment]").forEach(remember);
  }

  // Sealed cards arrive with the page, over the socket, and with "load older": whichever
  // way, before a reveal swaps them out.
  rememberIn(document.documentElement);
  new MutationObserver(function (records) {
    records.forEach(function (record) { record.addedNodes.forEach(rememberIn); });
  }).observe(document.documentElement, { childList: true, subtree: true });

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

  function problem(details, card, digest, text) {
    var earlier = earlierCommitment(details.dataset.seq || "");
    var shown = details.dataset.commitment || "";
    if (earlier && shown !== earlier) {
      return "this card's commitment is not the one its sealed card showed on this page (" +
        earlier + "): the reveal does not match what was sealed.";
    }
    if (digest !== (earlier || shown)) {
      return "the committed text does not hash to the commitment.";
    }
    var committed;
    try {
      committed = JSON.parse(text);
    } catch (err) {
      return "the committed text is not readable.";
    }
    var outcome = (committed && committed.outcome) || {};
    if (JSON.stringify(committedFaces(outcome)) !== JSON.stringify(shownFaces(card))) {
      return "the dice on this card are not the committed ones.";
    }
    return "";
  }

  function check(details) {
    var card = details.closest("article");
    var result = details.querySelector(".seal-result");
    var text = details.dataset.committed || "";
    var earlier = earlierCommitment(details.dataset.seq || "");
    return sha256Hex(text).then(function (digest) {
      var why = problem(details, card, digest, text);
      var ok = !why;
      if (!ok) {
        result.textContent = "Check failed: " + why;
      } else if (earlier) {
        result.textContent = "Checked: these dice were fixed before the roll was revealed " +
          "(SHA-256 matches the commitment this page saw on the sealed card).";
      } else {
        result.textContent = "Checked against the commitment on this card (SHA-256 matches); " +
          "this page never showed the roll sealed, so compare it with the one on a player's sealed card.";
      }
      result.dataset.ok = ok ? "true" : "false";
      result.dataset.earlier = earlier ? "true" : "false";
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
