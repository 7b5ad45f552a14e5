// Card Club: the installable site and Web Push, on the page's side.
// - Registers the service worker (/sw.js: the offline page, and showing pushes).
// - On the profile, offers "Enable notifications on this device": asks the browser's permission, subscribes with
//   the site's VAPID key (GET /api/push/key) and sends the subscription to the session URL of the button.
// - On a table page, tells the site while the table is in view, so no push about it reaches any device meanwhile.
(function () {
  "use strict";
  const VIEWING_URL = "/accounts/push/viewing/";
  const VIEWING_EVERY = 15000;  // ms; the site forgets a view 45 s after the last word

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (err) {
      return "";
    }
  }

  function postJSON(url, data, keepalive) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      keepalive: !!keepalive,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(data),
    });
  }

  const registration = "serviceWorker" in navigator
    ? navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { return null; })
    : Promise.resolve(null);

  // --- The profile's offer ---------------------------------------------------------------------
  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(padded);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function setupOffer(offer) {
    const button = offer.querySelector("[data-push-enable]");
    const status = offer.querySelector("[data-push-status]");
    const say = function (which) { status.textContent = status.dataset[which] || ""; };
    if (!("PushManager" in window) || !("Notification" in window) || !("serviceWorker" in navigator)) {
      const unsupported = document.querySelector("[data-push-unsupported]");
      if (unsupported) unsupported.hidden = false;
      return;
    }
    offer.hidden = false;
    registration.then(function (reg) {
      return reg ? reg.pushManager.getSubscription() : null;
    }).then(function (existing) {
      if (existing && Notification.permission === "granted") say("here");
    }).catch(function () {});

    button.addEventListener("click", function () {
      button.disabled = true;
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") { say("denied"); throw null; }
        return Promise.all([
          navigator.serviceWorker.ready,
          fetch("/api/push/key", { credentials: "same-origin" }).then(function (r) { return r.json(); }),
        ]);
      }).then(function (both) {
        const reg = both[0], key = both[1].public_key;
        return reg.pushManager.getSubscription().then(function (old) {
          return old || reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
        });
      }).then(function (subscription) {
        return postJSON(button.dataset.url, subscription.toJSON());
      }).then(function (response) {
        if (!response.ok) throw new Error("refused: " + response.status);
        say("done");
        window.location.reload();  // the device now shows in the list
      }).catch(function (err) {
        if (err !== null) say("failed");
      }).finally(function () {
        button.disabled = false;
      });
    });
  }

  const offer = document.querySelector("[data-push-offer]");
  if (offer) setupOffer(offer);

  // Preselect the browser's own time zone in the notification settings while none was chosen (UTC).
  const zone = document.querySelector(".notification-form select[name=time_zone]");
  if (zone && zone.value === "UTC" && window.Intl) {
    const mine = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (mine && zone.querySelector('option[value="' + CSS.escape(mine) + '"]')) zone.value = mine;
  }

  // --- A table in view -------------------------------------------------------------------------
  // Only a signed-in person's view counts: a visitor's first word is answered 401, and the page stops telling.
  const table = document.querySelector(".table-page[data-table]");
  if (table) {
    const id = parseInt(table.dataset.table, 10);
    let timer = null;
    let listening = true;
    const tell = function (visible, leaving) {
      if (!listening) return;
      postJSON(VIEWING_URL, { table: id, visible: visible }, leaving).then(function (response) {
        if (response.status === 401 || response.status === 403) { listening = false; clearInterval(timer); }
      }).catch(function () {});
    };
    const update = function () {
      const visible = document.visibilityState === "visible";
      tell(visible, false);
      clearInterval(timer);
      timer = visible && listening ? setInterval(function () { tell(true, false); }, VIEWING_EVERY) : null;
    };
    document.addEventListener("visibilitychange", update);
    window.addEventListener("pagehide", function () { clearInterval(timer); tell(false, true); });
    window.addEventListener("pageshow", function (event) { if (event.persisted) update(); });
    update();
  }
})();
