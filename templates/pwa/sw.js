{% load static %}// Card Club's service worker (served as /sw.js, so its scope is the whole site): an offline page when the site
// cannot be reached, and Web Push (a push's payload is {"title", "body", "url", "tag"}; clicking opens "url").
"use strict";
const CACHE = "cardclub-offline-v1";
const OFFLINE = "{% url 'offline' %}";
const ICON = "{% static 'img/icon-192.png' %}";
const KEPT = [OFFLINE, "{% static 'css/site.css' %}", "{% static 'img/favicon.svg' %}", ICON];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(KEPT); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (key) { return key !== CACHE; }).map(function (key) { return caches.delete(key); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Pages always come from the site; only when it cannot be reached does the offline page stand in.
    event.respondWith(fetch(request).catch(function () { return caches.match(OFFLINE); }));
  } else if (KEPT.indexOf(url.pathname) >= 0) {
    event.respondWith(fetch(request).catch(function () { return caches.match(url.pathname); }));
  }
});

// A link on this site: the payload's address, kept to its path on the origin the worker serves.
function onThisSite(address) {
  try {
    const url = new URL(address || "/", self.location.origin);
    return new URL(url.pathname + url.search + url.hash, self.location.origin).href;
  } catch (err) {
    return new URL("/", self.location.origin).href;
  }
}

self.addEventListener("push", function (event) {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (err) { data = {}; }
  const options = { body: data.body || "", icon: ICON, badge: ICON, data: { url: onThisSite(data.url) } };
  if (data.tag) { options.tag = "table-" + data.tag; options.renotify = true; }  // a newer push replaces the older
  event.waitUntil(self.registration.showNotification(data.title || "Card Club", options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const target = (event.notification.data && event.notification.data.url) || onThisSite("/");
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (const client of windows) {
      if (client.url === target && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(target);
  }));
});
