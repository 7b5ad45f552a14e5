// Card Club: being told it is your turn in any open tab, "Next game", and the result panel of a finished game.
// Everything reads the "Your turn" badge (tables/_badge.html), which the notifications socket swaps in on every
// page whenever a turn of yours begins or ends: data-count (turns + invitations + challenges), data-invitations, data-challenges, data-waiting
// (the pages of the most urgent waiting tables, space-separated) and data-changed (the table that just changed).
(function () {
  "use strict";
  const words = (document.getElementById("toast") || { dataset: {} }).dataset;  // (in the page's language)
  const pageTitle = document.title;
  const icon = document.querySelector("link[rel=icon]");
  const plainIcon = icon ? icon.href : null;
  let iconSvg = null;  // the favicon's own markup, fetched once (same origin), a dot and count drawn over it
  let shownTurns = null;  // the turns the page shows now (null: not read yet)

  function turnsOf(badge) {
    const others = parseInt(badge.dataset.invitations || "0", 10) + parseInt(badge.dataset.challenges || "0", 10);
    return Math.max(0, parseInt(badge.dataset.count || "0", 10) - others);
  }

  // --- The tab: its title and its icon -------------------------------------------------------------------
  function setTitle(turns) {
    document.title = turns > 0 ? "(" + turns + ") " + (words.title || "Your turn") + " · Card Club" : pageTitle;
  }
  function dotted(svg, turns) {
    const label = turns > 9 ? "9+" : String(turns);
    const dot = '<circle cx="23" cy="9" r="9" fill="#c0392b" stroke="#fff" stroke-width="1.5"/>' +
      '<text x="23" y="13" text-anchor="middle" font-family="Arial,sans-serif" font-weight="700" font-size="' +
      (label.length > 1 ? 9 : 12) + '" fill="#fff">' + label + "</text>";
    return svg.replace(/<\/svg>\s*$/, dot + "</svg>");
  }
  function setIcon(turns) {
    if (!icon) return;
    if (turns <= 0) {
      if (icon.href !== plainIcon) icon.href = plainIcon;
      icon.removeAttribute("data-turns");
      return;
    }
    const draw = function () {
      if (shownTurns !== turns) return;  // a newer count came in meanwhile
      icon.href = "data:image/svg+xml," + encodeURIComponent(dotted(iconSvg, turns));
      icon.dataset.turns = String(turns);
    };
    if (iconSvg) return draw();
    fetch(plainIcon).then(function (r) { return r.text(); }).then(function (text) {
      iconSvg = /<svg[\s>]/.test(text) ? text : '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"></svg>';
      draw();
    }, function () {
      iconSvg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="3" y="3" width="26" height="26" rx="5" fill="#1d3557"/></svg>';
      draw();
    });
  }

  // --- Told once across tabs: the sound and the browser notification ---------------------------------------
  // Every open tab gets the badge at once; the first to claim the moment speaks for all of them.
  function claim(key) {
    try {
      const last = parseInt(localStorage.getItem(key) || "0", 10);
      if (Date.now() - last < 2000) return false;
      localStorage.setItem(key, String(Date.now()));
    } catch (e) { /* private mode: every tab speaks */ }
    return true;
  }
  let audio = null;
  function ding() {
    if (document.body.dataset.turnSound !== "on" || !claim("cardclub-turn-sound")) return;
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      audio = audio || new Ctx();
      const t = audio.currentTime, osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.setValueAtTime(784, t);
      osc.frequency.setValueAtTime(1175, t + 0.13);
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.18, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.4);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.42);
    } catch (e) { /* no sound, no harm */ }
  }
  function notify(badge) {
    if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
    const waiting = (badge.dataset.waiting || "").split(" ").filter(Boolean);
    const url = waiting.indexOf(badge.dataset.changed) >= 0 ? badge.dataset.changed : waiting[0];
    if (!url || !claim("cardclub-turn-note")) return;
    try {
      const note = new Notification(words.title || "Your turn", {
        body: badge.dataset.changedTitle ? words.at.replace("{table}", badge.dataset.changedTitle) : badge.title,
        tag: "cardclub-turn-" + url,  // a newer notice for the same table replaces the older one
        icon: plainIcon || undefined,
      });
      note.addEventListener("click", function () {
        window.focus();
        window.location.href = url;
        note.close();
      });
    } catch (e) { /* a browser that allows notifications only from a service worker */ }
  }

  // --- "Next game": the most urgent table waiting for you, but this one ------------------------------------
  function nextFor(holder, badge) {
    const here = "/tables/" + holder.dataset.nextGame + "/";
    const waiting = ((badge && badge.dataset.waiting) || "").split(" ").filter(Boolean);
    return waiting.filter(function (path) { return path !== here; })[0] || null;
  }
  function showNext(badge) {
    // The table page's bar shows once the game is on or over and it is not your turn there (the status
    // section, redrawn by every frame, says both).
    const status = document.querySelector("section.table-status");
    document.querySelectorAll("[data-next-bar]").forEach(function (bar) {
      bar.hidden = !status || !/^(playing|finished)$/.test(status.dataset.status) || "myTurn" in status.dataset;
    });
    document.querySelectorAll("[data-next-game]").forEach(function (holder) {
      const link = holder.querySelector("[data-next-link]"), none = holder.querySelector("[data-next-none]");
      if (!link || !none || !badge) return;
      const next = nextFor(holder, badge);
      link.hidden = !next;
      none.hidden = !!next;
      none.textContent = next ? "" : holder.dataset.none;
      if (next) link.href = next;
    });
  }
  function typing(el) {
    return el && (el.isContentEditable || /^(input|textarea|select)$/i.test(el.tagName));
  }
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "n" || evt.ctrlKey || evt.metaKey || evt.altKey || evt.repeat || typing(evt.target)) return;
    const holders = Array.from(document.querySelectorAll("[data-next-game]")).filter(function (h) {
      return h.getClientRects().length;  // the one shown (the result panel's, or the status bar's)
    });
    if (!holders.length) return;
    const link = holders[0].querySelector("[data-next-link]");
    evt.preventDefault();
    if (link && !link.hidden) {
      window.location.href = link.href;
    } else if (window.cardclubToast) {
      window.cardclubToast(holders[0].dataset.none);
    }
  });

  // --- The badge, on load and whenever it is swapped in -------------------------------------------------
  function read(badge, live) {
    const turns = turnsOf(badge);
    if (live && shownTurns !== null && turns > shownTurns) {
      ding();
      notify(badge);
    }
    shownTurns = turns;
    setTitle(turns);
    setIcon(turns);
    showNext(badge);
  }
  function badgeNow() { return document.getElementById("your-turn-badge"); }
  document.addEventListener("cardclub:swapped", function (evt) {
    const t = evt.detail && evt.detail.target;
    if (t && t.id === "your-turn-badge") read(t, true);
    else if (t && t.matches && (t.matches("section.table-status") || t.querySelector("[data-next-game]"))) showNext(badgeNow());
    if (t && t.querySelector && t.querySelector("[data-result-panel]")) resultShown(t);
  });
  if (badgeNow()) read(badgeNow(), false);
  else showNext(null);

  // --- Notifications in this tab: the Your turn page offers to allow them --------------------------------
  function notifyControl() {
    const box = document.querySelector("[data-tab-notify]");
    if (!box || !("Notification" in window)) return;
    const ask = box.querySelector("[data-notify-ask]"), state = box.querySelector("[data-notify-state]");
    box.hidden = false;
    ask.hidden = Notification.permission !== "default";
    state.textContent = Notification.permission === "granted" ? state.dataset.granted
      : Notification.permission === "denied" ? state.dataset.denied : "";
  }
  document.addEventListener("click", function (evt) {
    if (!evt.target.closest || !evt.target.closest("[data-notify-ask]")) return;
    Promise.resolve(Notification.requestPermission()).then(notifyControl, notifyControl);
  });
  notifyControl();

  // --- The result panel: over the board when a game ends; dismissed to look at the final board -----------
  function resultShown(scope) {
    const panel = scope.querySelector("[data-result-panel]");
    if (!panel || document.body.classList.contains("result-dismissed")) return;
    const title = panel.querySelector("h2");
    if (title && !panel.dataset.seen) {
      panel.dataset.seen = "1";
      title.setAttribute("tabindex", "-1");
      title.focus({ preventScroll: true });
    }
  }
  document.addEventListener("click", function (evt) {
    const close = evt.target.closest && evt.target.closest("[data-result-dismiss]");
    const open = evt.target.closest && evt.target.closest("[data-result-show]");
    if (close) {
      document.body.classList.add("result-dismissed");
      const show = document.querySelector("[data-result-show]");
      if (show) show.focus();
    } else if (open) {
      document.body.classList.remove("result-dismissed");
      const panel = document.querySelector("[data-result-panel] .result-close");
      if (panel) panel.focus();
    } else if (evt.target.matches && evt.target.matches(".result-panel")) {
      document.body.classList.add("result-dismissed");  // a click on the veil around the card
    }
  });
  document.addEventListener("keydown", function (evt) {
    if (evt.key === "Escape" && document.querySelector("[data-result-panel]") &&
        !document.body.classList.contains("result-dismissed")) {
      document.body.classList.add("result-dismissed");
    }
  });
})();
