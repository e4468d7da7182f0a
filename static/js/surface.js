/* The table's play surface: on a narrow screen the three columns (my character or the
   dashboard, the log, the table) become tabs, and the pool builder's odds fold into a
   sheet at the bottom with the Roll button. Also the dashboard's − / + steppers and its
   rows of dice. Layout is CSS (static/css/app.css, "play surface"); this only switches
   classes and ARIA (theme.js marks <html class="js"> in <head>, so the page is tabbed
   from its first paint). Without script the page is one column and every control
   still posts. */
(function () {
  "use strict";

  var NARROW = window.matchMedia("(max-width: 62.49rem)");
  var TRAY_KEY = "rollcall-open-trays";
  var openTrays = {};  // the trays the player opened, by sheet: kept for the tab's life
  try { openTrays = JSON.parse(window.sessionStorage.getItem(TRAY_KEY) || "{}") || {}; } catch (e) { openTrays = {}; }

  function tabKey(page) {
    return "rollcall-tab-" + (page.getAttribute("data-campaign") || "");
  }

  function setUpTabs() {
    var page = document.querySelector(".table-page.surface");
    var tablist = page && page.querySelector(".surface-tabs");
    if (!tablist) { return; }
    var tabs = Array.prototype.slice.call(tablist.querySelectorAll("[role=tab]"));
    var panelOf = function (tab) { return document.getElementById(tab.getAttribute("aria-controls")); };
    tabs.forEach(function (tab) {
      var panel = panelOf(tab);
      if (panel && !panel.hasAttribute("data-labelled-by")) {
        panel.setAttribute("data-labelled-by", panel.getAttribute("aria-labelledby") || "");
      }
    });

    function select(tab, focus) {
      tabs.forEach(function (t) {
        var on = t === tab;
        t.setAttribute("aria-selected", on ? "true" : "false");
        t.tabIndex = on ? 0 : -1;
        var panel = panelOf(t);
        if (panel) { panel.classList.toggle("is-active", on); }
      });
      if (focus) { tab.focus(); }
      try { window.sessionStorage.setItem(tabKey(page), tab.id); } catch (e) { /* private mode */ }
    }

    function apply() {
      var narrow = NARROW.matches;
      page.classList.toggle("surface-tabbed", narrow);
      tabs.forEach(function (tab) {
        var panel = panelOf(tab);
        if (!panel) { return; }
        if (narrow) {
          panel.setAttribute("role", "tabpanel");
          panel.setAttribute("aria-labelledby", tab.id);
        } else {
          panel.removeAttribute("role");
          var own = panel.getAttribute("data-labelled-by");
          if (own) { panel.setAttribute("aria-labelledby", own); } else { panel.removeAttribute("aria-labelledby"); }
        }
      });
    }

    var kept = null;
    try { kept = document.getElementById(window.sessionStorage.getItem(tabKey(page)) || ""); } catch (e) { kept = null; }
    var first = (kept && tabs.indexOf(kept) >= 0) ? kept
      : tabs.filter(function (t) { return t.getAttribute("data-default") === "true"; })[0] || tabs[0];
    select(first, false);
    apply();
    if (NARROW.addEventListener) { NARROW.addEventListener("change", apply); }

    tablist.addEventListener("click", function (event) {
      var tab = event.target.closest("[role=tab]");
      if (tab) { select(tab, false); }
    });
    tablist.addEventListener("keydown", function (event) {
      var at = tabs.indexOf(document.activeElement);
      if (at < 0) { return; }
      var to = null;
      if (event.key === "ArrowRight") { to = (at + 1) % tabs.length; }
      else if (event.key === "ArrowLeft") { to = (at - 1 + tabs.length) % tabs.length; }
      else if (event.key === "Home") { to = 0; }
      else if (event.key === "End") { to = tabs.length - 1; }
      if (to === null) { return; }
      event.preventDefault();
      select(tabs[to], true);
    });
  }

  // Controls that need script are shown by CSS (.js-only); here a dice picker gets its
  // remove buttons where a row may go, and a re-rendered builder its tray as it was.
  function enhance(root) {
    root.querySelectorAll("[data-dice-picker]").forEach(showRemoveButtons);
    var trays = root.matches && root.matches(".pool-tray") ? [root] : root.querySelectorAll(".pool-tray");
    Array.prototype.forEach.call(trays, function (tray) {
      setTray(tray, !!openTrays[tray.getAttribute("data-tray")]);
    });
  }

  function setTray(tray, open) {
    tray.classList.toggle("is-open", open);
    var toggle = tray.querySelector(".pool-tray-toggle");
    if (toggle) { toggle.setAttribute("aria-expanded", open ? "true" : "false"); }
  }

  // Only the player's own click opens or closes a tray; a re-render finds it as they left it.
  function keepTray(tray, open) {
    openTrays[tray.getAttribute("data-tray")] = open;
    try { window.sessionStorage.setItem(TRAY_KEY, JSON.stringify(openTrays)); } catch (e) { /* private mode */ }
  }

  function step(input, by) {
    var value = parseInt(input.value || "0", 10) || 0;
    var min = input.min === "" ? -Infinity : parseInt(input.min, 10);
    var max = input.max === "" ? Infinity : parseInt(input.max, 10);
    input.value = String(Math.min(max, Math.max(min, value + by)));
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function stepDie(select, by) {
    // Index 0 is "—" (no die): stepping d4 down clears the row, stepping "—" up gives a d4.
    var to = Math.min(select.options.length - 1, Math.max(0, select.selectedIndex + by));
    select.selectedIndex = to;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function showRemoveButtons(picker) {
    var rows = picker.querySelectorAll(".dice-row");
    rows.forEach(function (row) {
      var remove = row.querySelector("[data-dice-remove]");
      if (remove) { remove.hidden = rows.length < 2; }
    });
  }

  function addDiceRow(picker) {
    var rows = picker.querySelectorAll(".dice-row");
    if (!rows.length || rows.length >= 40) { return; }
    var row = rows[rows.length - 1].cloneNode(true);
    row.querySelector("select").selectedIndex = 0;
    row.querySelector("input").value = "";
    rows[rows.length - 1].after(row);
    showRemoveButtons(picker);
    row.querySelector("select").focus();
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest("button");
    if (!target) { return; }
    if (target.hasAttribute("data-step")) {
      var field = target.closest("[data-stepper]");
      var input = field && field.querySelector("input[type=number]");
      if (input) { step(input, parseInt(target.getAttribute("data-step"), 10)); }
    } else if (target.hasAttribute("data-die-step")) {
      var select = target.closest(".dice-row").querySelector("select");
      stepDie(select, parseInt(target.getAttribute("data-die-step"), 10));
    } else if (target.hasAttribute("data-dice-add")) {
      addDiceRow(target.closest("[data-dice-picker]"));
    } else if (target.hasAttribute("data-dice-remove")) {
      var picker = target.closest("[data-dice-picker]");
      var row = target.closest(".dice-row");
      var next = row.nextElementSibling || row.previousElementSibling;
      row.remove();
      showRemoveButtons(picker);
      if (next) { next.querySelector("select").focus(); }
    } else if (target.classList.contains("pool-tray-toggle")) {
      var tray = target.closest(".pool-tray");
      var open = !tray.classList.contains("is-open");
      setTray(tray, open);
      keepTray(tray, open);
    }
  });

  document.addEventListener("htmx:load", function (event) { enhance(event.detail.elt); });
  document.addEventListener("DOMContentLoaded", function () {
    setUpTabs();
    enhance(document);
  });
})();
