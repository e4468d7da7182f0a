/* Rollcall's service worker (api/views.py serves it at /sw.js, after a line that sets
   self.ROLLCALL_SHELL: the offline page's address, the shell's static files under their
   hashed names, and a version that changes with any of them or with this file).

   It keeps the app shell, nothing else: pages are always asked of the server, and only
   when the server cannot be reached does a page come from here, as the offline shell,
   which says so and reconnects by itself. Forms, rolls, table fragments, sockets and
   the API go to the network only: nothing is rolled or kept offline. */
"use strict";

var SHELL = self.ROLLCALL_SHELL;
var PREFIX = "rollcall-shell-";
var CACHE = PREFIX + SHELL.version;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      // Without cookies: the shell is the same for everyone.
      var requests = SHELL.files.concat([SHELL.offline]).map(function (url) {
        return new Request(url, { credentials: "omit" });
      });
      return cache.addAll(requests);
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf(PREFIX) === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }  // a form, a roll: the network's, always
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () {
      return caches.match(SHELL.offline).then(function (shell) {
        return shell || Response.error();
      });
    }));
    return;
  }
  if (SHELL.files.indexOf(url.pathname) !== -1) {
    event.respondWith(caches.match(request).then(function (kept) {
      return kept || fetch(request);
    }));
  }
});
