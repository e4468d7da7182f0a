/* The live table: resume the socket from the last event seen, show the connection state.
   Everything else is htmx. No framework, no build step. */
(function () {
  "use strict";

  function lastSeq() {
    var log = document.getElementById("log");
    var seen = log ? parseInt(log.getAttribute("data-last-seq") || "0", 10) : 0;
    document.querySelectorAll("#log > [data-seq]").forEach(function (card) {
      var seq = parseInt(card.getAttribute("data-seq"), 10);
      if (seq > seen) { seen = seq; }
    });
    return seen;
  }

  function setStatus(state, text) {
    var el = document.getElementById("socket-status");
    if (!el) { return; }
    el.setAttribute("data-state", state);
    var label = el.querySelector(".socket-text");
    if (label) { label.textContent = text; }
  }

  var retry = 0;
  var reconnectTimer = null;

  // How long to wait before the next try after `attempt` failed ones: doubling from half
  // a second, never more than RECONNECT_CEILING_MS, so a page is back within a few
  // seconds of the server, however long it was gone. Each wait is drawn from its upper
  // half ("equal jitter"): the pages of a table that all lost the server at once do not
  // all come back in the same instant.
  var RECONNECT_CEILING_MS = 4000;
  function reconnectDelay(attempt) {
    var ceiling = Math.min(500 * Math.pow(2, Math.min(attempt, 10)), RECONNECT_CEILING_MS);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
  window.rollcallReconnectDelay = reconnectDelay;  // the browser tests read the schedule

  // Run `fn` once, 150 ms after the last of a burst of calls (events come in bursts).
  function debounced(fn) {
    var timer = null;
    return function () {
      clearTimeout(timer);
      timer = setTimeout(fn, 150);
    };
  }

  // Keep a handle on the live socket (htmx's documented factory hook), for the console.
  // The extension's own retries (after 1006/1011/1012/1013) follow the same schedule as
  // ours; its default doubles up to 64 s, so a page could stay away a minute after the
  // server was back.
  if (window.htmx) {
    htmx.createWebSocket = function (url) {
      var socket = new WebSocket(url);
      window.rollcallSocket = socket;
      return socket;
    };
    htmx.config.wsReconnectDelay = reconnectDelay;
  }

  // The scene panel is re-read through its own permission-checked GET after each event,
  // so points, stress, the Trouble Pool and contests change live for everyone.
  var refreshPanel = debounced(function () {
    var panel = document.getElementById("scene-panel");
    var url = panel && panel.getAttribute("data-refresh-url");
    if (url && window.htmx) { htmx.ajax("GET", url, { target: "#scene-panel", swap: "outerHTML" }); }
  });

  document.addEventListener("htmx:wsConnecting", function () {
    setStatus("connecting", "Connecting…");
  });

  document.addEventListener("htmx:wsOpen", function (evt) {
    retry = 0;
    setStatus("live", "Live");
    // Ask for every visible event after the newest one on the page, once, in order.
    evt.detail.socketWrapper.send(JSON.stringify({ type: "resume", last_seq: lastSeq() }));
  });

  document.addEventListener("htmx:wsClose", function (evt) {
    var code = evt.detail && evt.detail.event ? evt.detail.event.code : 0;
    // 4429: the same user opened this table in more tabs or devices than they may keep
    // (docs/protocol.md); this one stays closed until reloaded, or it would close the
    // newer one in turn.
    if (code === 4429) {
      setStatus("closed", "You opened this table in another tab or device; this one was closed. Reload to use it here.");
      return;
    }
    if (code >= 4400 && code < 4500) {
      setStatus("closed", "Not connected: reload the page to sign in again.");
      return;
    }
    setStatus("reconnecting", "Reconnecting…");
    // The extension reconnects by itself after 1006/1011/1012/1013; any other close
    // (a proxy, a server restart) is retried here, with a capped backoff.
    if ([1006, 1011, 1012, 1013].indexOf(code) < 0 && evt.detail.socketWrapper) {
      var wrapper = evt.detail.socketWrapper;
      clearTimeout(reconnectTimer);
      reconnectTimer = setTimeout(function () { wrapper.reconnect(); }, reconnectDelay(retry++));
    }
  });

  // A sheet changed (sheets/live.py sends re-fetch orders for the sheet page's
  // #sheet-sync-<id> box): the table page keeps no copy of the sheet, only the scene
  // panel's points and stress and the builders' traits, so it refreshes those instead
  // of swapping the order into a box it does not have.
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var text = evt.detail && typeof evt.detail.message === "string" ? evt.detail.message : "";
    if (text.indexOf("#sheet-sync-") < 0 || text.indexOf("data-seq") >= 0) { return; }
    if (document.querySelector("[id^='sheet-sync-']")) { return; }
    evt.preventDefault();
    refreshPanel();
    checkBuilders();
  });

  // A pool builder shows the sheet's traits and what the table holds (scene and session
  // Assets, the difficulty or the contest's standing its odds are against, the
  // character's points). After another member's action or a sheet edit, each builder
  // asks whether that changed (its data-depends key; 204: unchanged) and, if so,
  // re-renders itself the way a click does, keeping what is picked. A builder with a
  // roll out is left alone: the roll's answer replaces it.
  // While a builder may be about to re-render it says so (aria-busy), for screen readers
  // and for anyone about to press its Roll button.
  var checkBuildersSoon = debounced(function () {
    document.querySelectorAll(".pool-builder[data-depends][data-check-url]").forEach(function (builder) {
      var url = builder.getAttribute("data-check-url") + "?depends=" +
        encodeURIComponent(builder.getAttribute("data-depends"));
      fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true" } }).then(function (response) {
        var form = builder.isConnected ? builder.querySelector("form") : null;
        if (response.status === 200 && form && hasRequestOut(builder)) {
          // The member's own tap is on its way: a refresh now would cancel it (and what
          // it asked for, an Again or a move, with it). Ask again once its answer is in.
          recheckAfter[builder.id] = true;
        } else if (response.status === 200 && form && !form.hasAttribute("data-rolling") && window.htmx) {
          htmx.trigger(form, "change");  // the answer replaces the builder, busy no more
        } else {
          builder.removeAttribute("aria-busy");
        }
      }).catch(function () { builder.removeAttribute("aria-busy"); /* offline: the next event asks again */ });
    });
  });

  // Builder answers can cross: a refresh already on its way (another member's action,
  // the previous pick) may come back after the answer to a newer request for the same
  // builder (a tick, Again, Roll, a move from a card) and would put the older builder
  // back over it, so the tap's result never shows. Each request for a builder is
  // numbered as it leaves; an answer older than the newest one sent is not swapped in.
  var builderRequests = 0;
  var newestSent = {};  // builder id -> number of the newest request sent for it
  var recheckAfter = {};  // builder id -> a table change came while its own request was out

  function builderId(detail) {
    var target = detail && detail.target;
    return target && target.id && target.id.indexOf("builder-") === 0 ? target.id : "";
  }

  function hasRequestOut(builder) {
    return builder.matches(".htmx-request") || !!builder.querySelector(".htmx-request");
  }

  document.addEventListener("htmx:beforeRequest", function (evt) {
    var id = builderId(evt.detail);
    if (!id || !evt.detail.xhr) { return; }
    builderRequests += 1;
    evt.detail.xhr.builderRequest = builderRequests;
    newestSent[id] = builderRequests;
  });

  document.addEventListener("htmx:beforeSwap", function (evt) {
    var id = builderId(evt.detail);
    if (!id || !evt.detail.shouldSwap) { return; }
    var number = evt.detail.xhr && evt.detail.xhr.builderRequest;
    if (number && number < (newestSent[id] || 0)) { evt.detail.shouldSwap = false; }
  });

  document.addEventListener("htmx:afterSettle", function (evt) {
    var id = builderId(evt.detail);
    if (id && recheckAfter[id]) {
      delete recheckAfter[id];
      checkBuilders();
    }
  });

  function checkBuilders() {
    document.querySelectorAll(".pool-builder[data-depends][data-check-url]").forEach(function (builder) {
      builder.setAttribute("aria-busy", "true");
    });
    checkBuildersSoon();
  }

  document.addEventListener("htmx:wsAfterMessage", function (evt) {
    // Keep the newest seq on the log itself: cards can be replaced or voided in place.
    var log = document.getElementById("log");
    if (log) { log.setAttribute("data-last-seq", String(lastSeq())); }
    var text = evt.detail && typeof evt.detail.message === "string" ? evt.detail.message : "";
    if ((text.indexOf("data-seq") >= 0 || text.indexOf("sheet-sync") >= 0) && !changesNothing(text)) {
      refreshPanel();
      checkBuilders();
    }
  });

  // Events marked data-quiet changed no state (table/reading/rendering.py, changes_nothing):
  // a message of only those leaves the scene panel and the builders as they are.
  var NEW_EVENT = /<template hx-swap-oob="afterbegin:#log" data-seq="\d+"[^>]*>/g;

  function changesNothing(text) {
    if (text.indexOf("sheet-sync") >= 0) { return false; }
    var events = text.match(NEW_EVENT) || [];
    return events.length > 0 && events.every(function (tag) { return tag.indexOf(" data-quiet") >= 0; });
  }

  // Answers can cross: a scene panel older than the one shown (its data-seq, the newest
  // event it reflects) is not swapped in over it.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (!target || target.id !== "scene-panel" || !evt.detail.shouldSwap) { return; }
    var shown = parseInt(target.getAttribute("data-seq") || "0", 10);
    var answer = /id="scene-panel"[^>]*\sdata-seq="(\d+)"/.exec(evt.detail.serverResponse || "");
    if (answer && parseInt(answer[1], 10) < shown) { evt.detail.shouldSwap = false; }
  });

  // Out-of-band fragments wrapped in <template> keep their nodes in .content, which the
  // ws extension's swap does not read: move them where the swap looks.
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var frag = evt.detail && evt.detail.fragment;
    if (frag && frag.tagName === "TEMPLATE" && frag.content) {
      while (frag.content.firstChild) { frag.appendChild(frag.content.firstChild); }
    }
  });

  // A card re-rendered in place (voided, revealed) keeps "How it was read" open where the
  // reader had opened it.
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var old = evt.detail && evt.detail.target;
    var frag = evt.detail && evt.detail.fragment;
    if (!old || !frag || !old.matches || !old.matches("li.log-entry")) { return; }
    var before = old.querySelectorAll("details.reading");
    var after = frag.querySelectorAll("details.reading");
    for (var i = 0; i < before.length && i < after.length; i++) {
      if (before[i].open) { after[i].open = true; }
    }
  });

  // Pool builder: a roll on its way is never cancelled. The builder's form re-renders
  // itself on every change with hx-sync="this:replace", and the Roll button shares that
  // sync, so a refresh fired during a roll (a field's delayed input trigger, a click)
  // would abort it: the dice are rolled and logged, but the builder never hears of it
  // and still offers the plot points just spent. While a roll is out, the abort is
  // stopped here, before htmx's own listener on <body>; the refresh then waits behind
  // the roll and is dropped when the roll's answer replaces the builder.
  function rollButton(elt) {
    return elt && elt.matches && elt.matches(".pool-builder .pool-roll button[type=submit]");
  }

  document.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (rollButton(elt) && elt.form) { elt.form.setAttribute("data-rolling", "true"); }
  });

  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (rollButton(elt) && elt.form) { elt.form.removeAttribute("data-rolling"); }
  });

  document.addEventListener("htmx:abort", function (evt) {
    var form = evt.target;
    if (form && form.matches && form.matches(".pool-builder form[data-rolling]")) {
      evt.stopPropagation();
    }
  }, true);

  // Pool builder: typing in a number field re-renders the builder once typing pauses
  // (hx-trigger "poolinput delay:400ms"). An htmx event filter would say the same inline,
  // but it runs through eval, which the Content-Security-Policy forbids.
  document.addEventListener("input", function (evt) {
    var field = evt.target;
    if (field.matches && field.matches(".pool-builder input[type=number]") && field.form && window.htmx) {
      htmx.trigger(field.form, "poolinput");
    }
    if (field.matches && field.matches(".pool-builder input[type=text], .pool-builder textarea") && field.form) {
      enableWhenFilled(field.form);
    }
  });

  // Pool builder: a pool that only waits on a typed field (a goal) gets its Roll button
  // as the player types, not when the field is left (the click that leaves it would be
  // lost on a disabled button). The server still checks the field when Roll is pressed.
  function enableWhenFilled(form) {
    var roll = form.querySelector(".pool-roll button[data-ready-when-filled]");
    if (!roll) { return; }
    var names = roll.getAttribute("data-ready-when-filled").split(" ");
    var filled = names.every(function (name) {
      var input = form.elements.namedItem(name);
      return input && typeof input.value === "string" && input.value.trim() !== "";
    });
    roll.disabled = !filled;
    form.querySelectorAll("[data-cleared-by]").forEach(function (line) {
      line.hidden = filled && names.indexOf(line.getAttribute("data-cleared-by")) >= 0;
    });
  }

  // Pool builder: what a player types while the builder's own request is out (a goal, a
  // number whose pause has not come yet) is not lost when that request's answer replaces
  // the builder, and neither is their place: the fields changed since the request left
  // get their values back in the new builder, and the builder asks again with what they
  // typed. Whatever replaces the builder (a tick, Again, Roll, another member's update),
  // the focus goes back to the same control in the new one: the same trait's box (by
  // name and value), the same field, the same button (by its place among those that say
  // the same).
  var BUILDER_FIELDS = "input[type=text], input[type=number], input[type=search], textarea, select";

  function builderFields(form) {
    var values = {};
    form.querySelectorAll(BUILDER_FIELDS).forEach(function (field) {
      if (field.name) { values[field.name] = field.value; }
    });
    return values;
  }

  var keptEdits = {};

  function focusKey(el, builder) {
    if (el.id) { return { id: el.id }; }
    if (el.name && el.name !== "clicked") {
      var box = el.type === "checkbox" || el.type === "radio";
      return { name: el.name, value: box ? el.value : null };
    }
    var text = el.textContent.trim();
    var same = Array.prototype.filter.call(builder.querySelectorAll(el.tagName), function (other) {
      return other.textContent.trim() === text;
    });
    return { tag: el.tagName, text: text, index: same.indexOf(el) };
  }

  function findByKey(key, builder) {
    if (key.id) { return document.getElementById(key.id); }
    if (key.name) {
      return Array.prototype.filter.call(builder.querySelectorAll("[name]"), function (el) {
        return el.name === key.name && (key.value === null || el.value === key.value);
      })[0] || null;
    }
    return Array.prototype.filter.call(builder.querySelectorAll(key.tag), function (el) {
      return el.textContent.trim() === key.text;
    })[key.index] || null;
  }

  // Where a control is gone or disabled (Roll, once the roll has cleared the pool), focus
  // goes to what follows in the builder: Again, or its first trait.
  function focusable(el) {
    return el && !el.disabled && el.getClientRects().length > 0;
  }

  document.addEventListener("htmx:beforeRequest", function (evt) {
    var form = evt.detail && evt.detail.elt;
    if (form && form.matches && form.matches(".pool-builder form")) { form.sentFields = builderFields(form); }
  });

  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (!target || !target.matches || !target.matches(".pool-builder") || !evt.detail.shouldSwap) { return; }
    var form = target.querySelector("form");
    var sent = form && form.sentFields;
    var own = sent && !(evt.detail.requestConfig && evt.detail.requestConfig.elt !== form);
    var changed = {}, any = false;
    if (own) {
      var now = builderFields(form);
      Object.keys(now).forEach(function (name) {
        if (now[name] !== sent[name]) { changed[name] = now[name]; any = true; }
      });
    }
    var active = document.activeElement;
    var focus = active && active !== target && target.contains(active) ? {
      key: focusKey(active, target),
      start: typeof active.selectionStart === "number" ? active.selectionStart : null,
      end: typeof active.selectionEnd === "number" ? active.selectionEnd : null
    } : null;
    if (any || focus) { keptEdits[target.id] = { changed: any ? changed : null, focus: focus }; }
  });

  // The focus goes back as soon as the new builder is in the page (a key pressed before
  // it settles must not start from the top of the page), and again once it has settled.
  function refocus(kept, builder, form) {
    var field = findByKey(kept.focus.key, builder);
    if (!focusable(field)) {
      field = [builder.querySelector(".pool-again button"), form.querySelector("input[name=trait]:not([disabled])")]
        .filter(focusable)[0] || null;
    }
    if (!field || document.activeElement === field) { return; }
    field.focus({ preventScroll: true });
    if (kept.focus.start !== null && field.setSelectionRange) {
      try { field.setSelectionRange(kept.focus.start, kept.focus.end); } catch (err) { /* number fields */ }
    }
  }

  document.addEventListener("htmx:afterSwap", function () {
    Object.keys(keptEdits).forEach(function (id) {
      var builder = document.getElementById(id);
      var form = builder && builder.querySelector("form");
      if (form && keptEdits[id].focus) { refocus(keptEdits[id], builder, form); }
    });
  });

  document.addEventListener("htmx:afterSettle", function () {
    Object.keys(keptEdits).forEach(function (id) {
      var kept = keptEdits[id];
      delete keptEdits[id];
      var builder = document.getElementById(id);
      var form = builder && builder.querySelector("form");
      if (!form) { return; }
      if (kept.changed) {
        Object.keys(kept.changed).forEach(function (name) {
          var field = form.querySelector("[name='" + name + "']");
          if (field && field.matches(BUILDER_FIELDS)) { field.value = kept.changed[name]; }
        });
      }
      var lost = !document.activeElement || document.activeElement === document.body;
      if (kept.focus && lost) { refocus(kept, builder, form); }
      if (kept.changed && window.htmx) { htmx.trigger(form, "change"); }
    });
  });

  // Pool builder: the clicked trait wins a conflict (see rules/kit/builder.py).
  // Capture phase: runs before htmx reads the form on the same change event.
  document.addEventListener("change", function (evt) {
    var box = evt.target;
    if (!box.matches || !box.matches(".pool-builder input[name=trait]")) { return; }
    var form = box.form;
    if (form && form.elements.clicked) { form.elements.clicked.value = box.checked ? box.value : ""; }
  }, true);
})();
