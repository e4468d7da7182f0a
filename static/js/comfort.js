/* Comfort: the Display settings (theme, dice animation and sound), and on the table page
   the keyboard shortcuts, the screen-reader announcement of each new card, and the mark
   on the viewer's own rolls. Settings are kept in localStorage; none is sent anywhere.
   The theme itself is applied by theme.js, before the page paints. */
(function () {
  "use strict";

  var ANIMATION_KEY = "rollcall-dice-animation";
  var SOUND_KEY = "rollcall-dice-sound";
  var reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function load(key) {
    try { return localStorage.getItem(key) === "on"; } catch (e) { return false; }
  }

  function save(key, on) {
    try { localStorage.setItem(key, on ? "on" : "off"); } catch (e) { /* this page only */ }
  }

  // ------------------------------------------------------------------ Display settings

  function setUpSettings() {
    var item = document.querySelector(".display-settings-item");
    if (!item) { return; }
    item.hidden = false;
    var choice = window.rollcallTheme ? window.rollcallTheme.get() : "system";
    item.querySelectorAll("input[name=display-theme]").forEach(function (radio) {
      radio.checked = radio.value === choice;
      radio.addEventListener("change", function () {
        if (radio.checked && window.rollcallTheme) { window.rollcallTheme.set(radio.value); }
      });
    });
    var animation = item.querySelector("[data-comfort-setting=animation]");
    var sound = item.querySelector("[data-comfort-setting=sound]");
    if (animation) {
      animation.checked = load(ANIMATION_KEY);
      animation.addEventListener("change", function () { save(ANIMATION_KEY, animation.checked); });
    }
    if (sound) {
      sound.checked = load(SOUND_KEY);
      sound.addEventListener("change", function () {
        save(SOUND_KEY, sound.checked);
        if (sound.checked) { audio(); }  // created inside the click, so the browser lets it play
      });
    }
  }

  // ------------------------------------------------------------------ new cards

  // A card is new when it arrives after the page loaded with a seq above every seq seen:
  // older cards loaded on demand and cards replaced in place (voided, revealed) are not.
  var newestSeen = 0;

  function seqOf(item) {
    return parseInt(item.getAttribute("data-seq") || "0", 10);
  }

  function text(el) {
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // What a screen reader hears for a card: its own words, which the visibility gate has
  // already chosen for this viewer. A sealed card says only its sealed headline.
  function announcement(card) {
    var heading = text(card.querySelector("h3"));
    if (card.classList.contains("sealed-card")) { return heading; }
    var parts = [heading];
    var headline = text(card.querySelector(".headline"));
    if (headline) { parts.push(headline); }
    if (card.classList.contains("voided")) { parts.push("voided"); }
    return parts.join(": ");
  }

  function announce(message) {
    var region = document.getElementById("roll-announcer");
    if (!region || !message) { return; }
    // One short line per card, the oldest dropped: the region is polite and never takes focus.
    var line = document.createElement("p");
    line.textContent = message;
    region.appendChild(line);
    while (region.childNodes.length > 3) { region.removeChild(region.firstChild); }
  }

  function viewer() {
    var holder = document.querySelector("[data-viewer]");
    return holder ? holder.getAttribute("data-viewer") : "";
  }

  // The characters the viewer plays (their pool builders), by id.
  function plays() {
    var holder = document.querySelector("[data-plays]");
    return holder ? holder.getAttribute("data-plays").split(" ").filter(Boolean) : [];
  }

  // Cards are cached per audience, so "mine" is marked here, per viewer; so are the
  // moves a card offers the player of its character (a players' card renders them
  // hidden, and the server refuses them to anyone else whatever the page shows).
  function markMine(item) {
    var me = viewer();
    if (!me) { return; }
    item.querySelectorAll(".roll-card[data-roller]").forEach(function (card) {
      card.classList.toggle("is-mine", card.getAttribute("data-roller") === me);
    });
    // A GM may take every card's moves; the GM's copy of a card most players read alike
    // is the players' own with the GM's tools added (table.reading.rendering), so it comes hidden.
    var mine = plays();
    var gm = !!document.querySelector(".surface-gm");
    item.querySelectorAll(".card-moves[data-moves-for][hidden]").forEach(function (moves) {
      if (gm || mine.indexOf(moves.getAttribute("data-moves-for")) >= 0) { moves.hidden = false; }
    });
    // A move against someone else's roll: shown if the viewer plays anyone else (a
    // player's move, data-players-only, never on a GM's page: its card is the players').
    item.querySelectorAll(".card-moves[data-moves-against][hidden]").forEach(function (moves) {
      if (gm && moves.hasAttribute("data-players-only")) { return; }
      var roller = moves.getAttribute("data-moves-against");
      if (mine.some(function (id) { return id !== roller; })) { moves.hidden = false; }
    });
  }

  // The dice animation and sound. Never for a sealed card (it has no dice to show, and
  // must not give away when a hidden result came out), never animated when the system
  // asks for reduced motion, and both off unless switched on in Display.
  function mayAnimate() {
    return load(ANIMATION_KEY) && !(reducedMotion && reducedMotion.matches);
  }

  function celebrate(card) {
    if (card.classList.contains("sealed-card") || !card.querySelector(".dice")) { return; }
    if (mayAnimate()) { card.classList.add("dice-arrive"); }
    if (load(SOUND_KEY)) { click(); }
  }

  var audioContext = null;

  function audio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audioContext && Context) {
      try { audioContext = new Context(); } catch (e) { audioContext = null; }
    }
    if (audioContext && audioContext.state === "suspended") { audioContext.resume(); }
    return audioContext;
  }

  // A short wooden click: a few milliseconds of a falling tone.
  function click() {
    var ctx = audio();
    if (!ctx) { return; }
    var now = ctx.currentTime;
    var tone = ctx.createOscillator();
    var gain = ctx.createGain();
    tone.type = "triangle";
    tone.frequency.setValueAtTime(900, now);
    tone.frequency.exponentialRampToValueAtTime(300, now + 0.06);
    gain.gain.setValueAtTime(0.15, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.08);
    tone.connect(gain).connect(ctx.destination);
    tone.start(now);
    tone.stop(now + 0.09);
  }

  function arrived(item) {
    markMine(item);
    var seq = seqOf(item);
    if (seq <= newestSeen) { return; }
    newestSeen = seq;
    var card = item.querySelector(".roll-card");
    if (!card) { return; }
    announce(announcement(card));
    celebrate(card);
  }

  function watchLog() {
    var log = document.getElementById("log");
    if (!log) { return; }
    // The announcer reads each new card in a line; the log itself would read the whole
    // card again, so it stays quiet while the announcer is there.
    if (document.getElementById("roll-announcer")) { log.setAttribute("aria-live", "off"); }
    log.querySelectorAll(":scope > [data-seq]").forEach(function (item) {
      markMine(item);
      newestSeen = Math.max(newestSeen, seqOf(item));
    });
    newestSeen = Math.max(newestSeen, parseInt(log.getAttribute("data-last-seq") || "0", 10));
    new MutationObserver(function (changes) {
      var added = [];
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) {
          if (node.nodeType === 1 && node.hasAttribute("data-seq")) { added.push(node); }
        });
      });
      added.sort(function (a, b) { return seqOf(a) - seqOf(b); }).forEach(arrived);
    }).observe(log, { childList: true });
  }

  // ------------------------------------------------------------------ shortcuts

  var lastBuilder = null;

  // Typing in a field never triggers a shortcut; a checkbox or a button is not typing.
  function typing(el) {
    if (!el || !el.tagName) { return false; }
    if (el.isContentEditable) { return true; }
    var tag = el.tagName.toLowerCase();
    if (tag === "textarea" || tag === "select") { return true; }
    if (tag !== "input") { return false; }
    return ["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].indexOf((el.type || "text").toLowerCase()) < 0;
  }

  function focusOn(el) {
    if (!el) { return false; }
    if (!el.matches("a[href], button, input, select, textarea, [tabindex]")) { el.setAttribute("tabindex", "-1"); }
    el.focus();
    if (el.scrollIntoView) { el.scrollIntoView({ block: "nearest" }); }
    return true;
  }

  function chatLine() {
    return document.querySelector("[data-shortcut=chat], #chat-line, #chat-input, .chat-form input[type=text], .chat-form textarea");
  }

  function currentBuilder() {
    var active = document.activeElement;
    var here = active && active.closest ? active.closest(".pool-builder") : null;
    if (here) { return here; }
    if (lastBuilder && lastBuilder.isConnected) { return lastBuilder; }
    if (lastBuilder && lastBuilder.id) {  // re-rendered by htmx since: the same builder, new node
      var again = document.getElementById(lastBuilder.id);
      if (again) { return again; }
    }
    var all = document.querySelectorAll(".pool-builder");
    return all.length === 1 ? all[0] : null;
  }

  var SHORTCUTS = {
    "/": function () { return focusOn(chatLine()); },
    "c": function () { return focusOn(chatLine()); },
    "l": function () { return focusOn(document.getElementById("log")); },
    "p": function () {
      var builder = currentBuilder() || document.querySelector(".pool-builder");
      return builder ? focusOn(builder.querySelector("input:not([type=hidden]):not([disabled]), select, button:not([disabled])")) : false;
    },
    "r": function () {
      var builder = currentBuilder();
      var roll = builder ? builder.querySelector(".pool-roll button[type=submit]") : null;
      if (!roll || roll.disabled || builder.getAttribute("aria-busy") === "true") { return false; }
      // A builder swapped in a moment ago may not be wired up by htmx yet: wire it first,
      // so the click is htmx's request and never a plain form post that reloads the page.
      if (window.htmx) { window.htmx.process(builder); }
      roll.click();
      return true;
    },
    "?": function () { return openHelp(); }
  };

  function openHelp() {
    var dialog = document.getElementById("shortcuts-dialog");
    if (!dialog || dialog.open || !dialog.showModal) { return false; }
    dialog.showModal();
    return true;
  }

  function setUpShortcuts() {
    if (!document.querySelector(".table-comfort")) { return; }
    document.addEventListener("focusin", function (evt) {
      var builder = evt.target.closest ? evt.target.closest(".pool-builder") : null;
      if (builder) { lastBuilder = builder; }
    });
    document.addEventListener("keydown", function (evt) {
      if (evt.defaultPrevented || evt.ctrlKey || evt.metaKey || evt.altKey || evt.isComposing) { return; }
      if (typing(evt.target) || document.querySelector("dialog[open]")) { return; }
      var action = SHORTCUTS[evt.key];
      if (action && action()) { evt.preventDefault(); }
    });
    document.querySelectorAll("[data-open-shortcuts]").forEach(function (button) {
      button.addEventListener("click", openHelp);
    });
  }

  function start() {
    setUpSettings();
    watchLog();
    setUpShortcuts();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
