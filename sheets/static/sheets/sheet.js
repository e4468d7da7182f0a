/* Rollcall sheets: live editing glue on top of htmx (no build step, no dependencies).
 *
 * - 409 (someone else changed it) and 422 (not valid) answers carry their own
 *   markup, so they are swapped in like a 200; so does a 403 marked X-Table-Owned
 *   (a player's change of plot points, stress, ...: it changes at the table).
 * - The campaign socket appends re-fetch orders to #sheet-sync-<id>; each one
 *   GETs a row, a group or a counter through the viewer's own permissions.
 *   A row the viewer is editing (focus inside, or typed but unsaved) is never
 *   replaced: it is marked as changed and refreshed when the viewer leaves it,
 *   unless they saved first, in which case the server answers with a conflict
 *   that shows both versions.
 * - Leaving the page with typing not yet saved asks first (beforeunload).
 */
(function () {
  "use strict";

  var EDITABLE = ".trait, .counter, .sheet-head, .scores, .add-trait";
  // Rows carry a plain "Save" button for browsers without JavaScript; with it, fields save themselves.
  document.documentElement.classList.add("js");

  function version(el) {
    if (!el) return 0;
    var input = el.querySelector('input[name="version"]');
    var value = input ? input.value : el.getAttribute("data-version");
    return parseInt(value || "0", 10) || 0;
  }

  var TEXT_TYPES = { text: 1, number: 1, search: 1, email: 1, url: 1, tel: 1, password: 1 };

  // Being edited: something typed and not saved yet, or the caret in a text field.
  // (Focus on a picker or a button is safe: the swapped-in element with the same id gets it back.)
  function editing(el) {
    if (!el) return false;
    if (el.querySelector("[data-dirty]")) return true;
    var active = document.activeElement;
    if (!active || active === document.body || !el.contains(active)) return false;
    if (active.tagName === "TEXTAREA" || active.isContentEditable) return true;
    return active.tagName === "INPUT" && !!TEXT_TYPES[active.type];
  }

  function announce(text) {
    var status = document.getElementById("sheet-status");
    if (status) status.textContent = text;
  }

  function markStale(el) {
    if (el.classList.contains("is-stale")) return;
    el.classList.add("is-stale");
    var note = document.createElement("p");
    note.className = "stale-note";
    note.setAttribute("role", "status");
    note.textContent =
      "Someone else just changed this. It updates when you leave it; if you save first, you will see both versions.";
    el.appendChild(note);
  }

  function refresh(el) {
    var url = el.getAttribute("data-url");
    if (url && window.htmx) {
      window.htmx.ajax("GET", url, { target: el, swap: "outerHTML" });
    }
  }

  function parse(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    return tpl.content.firstElementChild;
  }

  // A group came back: swap everything except the rows (and add form) being edited,
  // which stay exactly where they are so focus and typing are not disturbed.
  function mergeGroup(target, fresh) {
    var oldList = target.querySelector("ul.traits");
    var newList = fresh.querySelector("ul.traits");
    if (!oldList || !newList) return false;
    var busy = Array.prototype.filter.call(oldList.querySelectorAll(":scope > .trait"), editing);
    var oldForm = target.querySelector(".add-trait");
    var formBusy = editing(oldForm);
    if (!busy.length && !formBusy) return false;
    var keep = {};
    busy.forEach(function (row) { keep[row.id] = row; });
    Array.prototype.slice.call(oldList.children).forEach(function (child) {
      if (!keep[child.id]) child.remove();
    });
    var anchor = null; // the kept row the next fresh rows go after
    Array.prototype.slice.call(newList.children).forEach(function (child) {
      var kept = keep[child.id];
      if (kept) {
        if (version(child) > version(kept)) markStale(kept);
        delete keep[child.id];
        anchor = kept;
        return;
      }
      if (anchor) {
        anchor.after(child);
        anchor = child;
      } else {
        var first = oldList.querySelector(":scope > .trait");
        oldList.insertBefore(child, first && busy.indexOf(first) >= 0 ? first : null);
      }
      window.htmx.process(child);
    });
    Object.keys(keep).forEach(function (id) {
      var gone = keep[id];
      announce("“" + (gone.querySelector("input[name=name]") || {}).value + "” was removed by someone else.");
      gone.remove();
    });
    var newForm = fresh.querySelector(".add-trait");
    if (!formBusy && oldForm && newForm) {
      oldForm.replaceWith(newForm);
      window.htmx.process(newForm);
    } else if (!formBusy && newForm && !oldForm) {
      var box = newForm.closest("details") || newForm;
      target.appendChild(box);
      window.htmx.process(box);
    } else if (!formBusy && oldForm && !newForm) {
      (oldForm.closest("details") || oldForm).remove();
    }
    return true;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var status = detail.xhr.status;
    if (status === 409 || status === 422 || (status === 403 && detail.xhr.getResponseHeader("X-Table-Owned"))) {
      detail.shouldSwap = true;
      detail.isError = false;
    }
    var elt = detail.requestConfig && detail.requestConfig.elt;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-sync")) return;
    var target = detail.target;
    if (status !== 200 || !target) {
      detail.shouldSwap = false;
      return;
    }
    var fresh = parse(detail.serverResponse);
    if (!fresh) {
      detail.shouldSwap = false;
      return;
    }
    if (target.classList.contains("trait-group")) {
      if (mergeGroup(target, fresh)) detail.shouldSwap = false;
      return;
    }
    // Rows, counters and the header carry the version they show; scores and groups do not
    // (they depend on other rows), so they are always taken unless being edited.
    if (target.hasAttribute("data-version") && version(fresh) <= version(target)) {
      detail.shouldSwap = false; // our own change coming back, or an older one
      return;
    }
    if (editing(target)) {
      detail.shouldSwap = false;
      markStale(target);
    }
  });

  // A row's form posts on any change inside it; tell the server which field changed,
  // so only that field is saved and only its fragment comes back.
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    var trigger = event.detail.triggeringEvent;
    if (!elt || !elt.classList || !elt.classList.contains("trait-form")) return;
    if (trigger && trigger.type === "change" && trigger.target && trigger.target.name) {
      event.detail.parameters.field = trigger.target.name;
    }
  });

  // Back after a dropped socket: changes pushed meanwhile were missed, so re-fetch
  // every part of the sheet through the same guarded path the pushes use.
  var socketOpened = false;
  document.addEventListener("htmx:wsOpen", function () {
    if (!socketOpened) {
      socketOpened = true;
      return;
    }
    var box = document.querySelector(".sheet-sync");
    if (!box || !window.htmx) return;
    var parts = document.querySelectorAll(".sheet-head[data-url], .scores[data-url], .counter[data-url], .trait-group[data-url]");
    Array.prototype.forEach.call(parts, function (part) {
      var order = document.createElement("div");
      order.setAttribute("data-sync", part.id);
      order.setAttribute("hx-get", part.getAttribute("data-url"));
      order.setAttribute("hx-trigger", "load");
      order.setAttribute("hx-target", "#" + part.id);
      order.setAttribute("hx-swap", "outerHTML");
      order.setAttribute("hx-sync", "#" + box.id + ":queue all");
      box.appendChild(order);
      window.htmx.process(order);
    });
  });

  // Re-fetch orders are one-shot.
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-sync")) elt.remove();
  });

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    if (status === 403) announce("Only the character's player and the GM can change this sheet.");
    else if (status === 404) announce("That is no longer on this sheet: reload the page.");
    else if (status >= 500) announce("Something went wrong; nothing was saved. Try again.");
  });

  document.addEventListener("htmx:sendError", function () {
    announce("The server cannot be reached; your change was not saved.");
  });

  // Typed but not yet saved.
  document.addEventListener("input", function (event) {
    var el = event.target;
    if (el && el.closest && el.closest(EDITABLE) && el.type !== "hidden") {
      el.setAttribute("data-dirty", "");
    }
  });

  // Saved: what was sent is no longer unsaved typing (a row's form sends only the field
  // that changed; every other form sends all of its fields).
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    var elt = detail.elt;
    var status = detail.xhr ? detail.xhr.status : 0; // 409 and 422 are swapped in, yet not saved
    if (status < 200 || status > 299 || !elt || !elt.closest || !elt.closest(EDITABLE)) return;
    var form = elt.closest("form");
    if (!form) return;
    var trigger = detail.requestConfig && detail.requestConfig.triggeringEvent;
    var sent = form.classList.contains("trait-form") && trigger && trigger.type === "change"
      ? [trigger.target]
      : form.querySelectorAll("[data-dirty]");
    Array.prototype.forEach.call(sent, function (field) {
      if (field && field.removeAttribute) field.removeAttribute("data-dirty");
    });
  });

  // A form sent the ordinary way (no htmx) carries its typing with it.
  document.addEventListener("submit", function (event) {
    if (event.defaultPrevented || !event.target.querySelectorAll) return;
    Array.prototype.forEach.call(event.target.querySelectorAll("[data-dirty]"), function (field) {
      field.removeAttribute("data-dirty");
    });
  });

  // Leaving the page (a link, reload, closing the tab) with typing not yet saved asks first.
  window.addEventListener("beforeunload", function (event) {
    if (!document.querySelector("[data-dirty]")) return;
    event.preventDefault();
    event.returnValue = ""; // older browsers ask only when this is set
  });

  // Leaving a row that changed under us: show the other person's version now.
  document.addEventListener("focusout", function (event) {
    var row = event.target.closest && event.target.closest(".is-stale");
    if (!row) return;
    window.setTimeout(function () {
      if (document.body.contains(row) && !editing(row)) refresh(row);
    }, 0);
  });

  // Enter in a field saves that field (through its change event), never the whole form.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!window.htmx || !form.classList || !form.classList.contains("live-form")) return;
    if (event.submitter && event.submitter.hasAttribute("hx-post")) return;
    event.preventDefault();
    var active = document.activeElement;
    if (active && form.contains(active) && active.blur) {
      active.blur(); // fires "change" if the value was edited
      active.focus();
    }
  });

  // Status lines ("Saved …") fade after a while; screen readers have announced them by then.
  var statusTimer = null;
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var status = document.getElementById("sheet-status");
    if (!status || event.target !== status) return;
    window.clearTimeout(statusTimer);
    statusTimer = window.setTimeout(function () { status.textContent = ""; }, 5000);
  });

  // The server names where focus should go after a row disappears.
  document.addEventListener("sheet:focus", function (event) {
    var selector = event.detail && event.detail.value;
    var el = selector && document.querySelector(selector);
    if (el) el.focus();
  });
})();
