// Card Club: the little the pages need beyond htmx.
(function () {
  "use strict";
  // Move errors (400/403/409) carry an out-of-band message: let htmx swap them.
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "4..", swap: true, error: false },
    { code: "...", swap: false, error: true },
  ];

  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    const el = evt.detail.elt;
    if (el && el.dataset && el.dataset.move) {
      document.querySelectorAll(".move-error").forEach(function (e) {
        e.textContent = ""; e.classList.add("empty"); e.removeAttribute("data-refused");
      });
      // Until the answer comes, the move buttons rest (no double post). The clicked element may be
      // swapped away before its afterRequest fires, so any swap or a timer also ends the pause.
      document.body.classList.add("moving");
      clearTimeout(document.body._movingTimer);
      document.body._movingTimer = setTimeout(doneMoving, 5000);
    }
  });
  function doneMoving() { document.body.classList.remove("moving"); }
  ["htmx:afterRequest", "htmx:oobAfterSwap", "htmx:sendError"].forEach(function (name) {
    document.addEventListener(name, doneMoving);
  });
  document.body.addEventListener("htmx:oobAfterSwap", function (evt) {
    // detail.target is the element the swap aimed at: for a whole-element swap it has just been replaced and is
    // out of the page, so every handler gets the element now in its place (same id), with the new content.
    const aimed = evt.detail.target;
    const t = aimed && aimed.id && !aimed.isConnected ? document.getElementById(aimed.id) || aimed : aimed;
    if (t && t.classList && t.classList.contains("move-error")) {
      t.classList.toggle("empty", !t.textContent.trim());
    }
    // The badge counts turns and invitations; a toast says which of them is new, once. On a table page the
    // board says whose turn it is, so only an invitation is told there.
    if (t && t.id === "your-turn-badge") {
      const invited = parseInt(t.dataset.invitations || "0", 10);
      const turns = parseInt(t.dataset.count || "0", 10) - invited;
      const words = document.getElementById("toast").dataset;  // (in the page's language)
      if (invited > parseInt(document.body.dataset.invitations || "0", 10)) {
        toast(words.invited);
      } else if (turns > parseInt(document.body.dataset.yourTurn || "0", 10) && !document.querySelector(".table-page")) {
        toast(turns === 1 ? words.one : words.many.replace("{n}", turns));
      }
      rememberBadge(t);
    }
    document.dispatchEvent(new CustomEvent("cardclub:swapped", { detail: { target: t } }));
  });
  // A move travels over the table's socket while it is open (CONTRACTS §3), else as the form's HTTP post:
  // the socket answers with the frame every seat gets, or with a refusal for this socket alone.
  document.body.addEventListener("htmx:wsOpen", function (evt) {
    evt.target.cardclubSocket = { raw: evt.detail.event.target, wrapper: evt.detail.socketWrapper };
  });
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    const el = evt.detail.elt, config = evt.detail.requestConfig;
    if (!el || !el.dataset || !el.dataset.move || !config || config.verb !== "post") return;
    const host = el.closest("[ws-connect]"), socket = host && host.cardclubSocket;
    const move = config.parameters.move, seq = config.parameters.seq;
    if (!socket || socket.raw.readyState !== WebSocket.OPEN || typeof move !== "string") return;
    let parsed;
    try { parsed = JSON.parse(move); } catch (e) { return; }
    evt.preventDefault();
    socket.wrapper.send(JSON.stringify({ move: parsed, seq: Number(seq) }), el);
  });
  document.body.addEventListener("htmx:wsError", function () { setLive(false); });
  document.body.addEventListener("htmx:wsClose", function () { setLive(false); });
  document.body.addEventListener("htmx:wsOpen", function () { setLive(true); });

  // The move log is a live region (role="log"): a frame's log is merged into the one on the page, so only the
  // moves that are new get added (and announced once), and the list scrolls to its end: the newest is in view.
  function scrollLog(el) {
    const list = el.querySelector("[role=log]") || el;
    list.scrollTop = list.scrollHeight;
  }
  document.querySelectorAll(".move-log").forEach(scrollLog);
  document.body.addEventListener("htmx:oobBeforeSwap", function (evt) {
    const t = evt.detail.target;
    if (!t || !t.classList || !t.classList.contains("move-log")) return;
    const fresh = evt.detail.fragment.querySelector(".move-log") || evt.detail.fragment.firstElementChild;
    const list = t.querySelector("[role=log] ol"), incoming = fresh && fresh.querySelector("[role=log] ol");
    if (!list || !incoming) return;
    evt.detail.shouldSwap = false;
    const title = t.querySelector("h2"), newTitle = fresh.querySelector("h2");
    if (title && newTitle && title.textContent !== newTitle.textContent) title.textContent = newTitle.textContent;
    // Each line has its own key (a move's seq, an event's id): lines the page shows as they are stay
    // untouched, the others go, and new ones go in their place in the log's order.
    // (a line is compared by what the server draws of it: its class and its content)
    function drawn(li) { return li.className + "|" + li.innerHTML; }
    const wanted = new Map();
    Array.from(incoming.children).forEach(function (li) { wanted.set(li.dataset.key || "", drawn(li)); });
    Array.from(list.children).forEach(function (li) {
      if (wanted.get(li.dataset.key || "") !== drawn(li)) li.remove();
    });
    let cursor = list.firstElementChild;
    Array.from(incoming.children).forEach(function (li) {
      if (cursor && (cursor.dataset.key || "") === (li.dataset.key || "")) {
        cursor = cursor.nextElementSibling;
      } else {
        list.insertBefore(li, cursor);
      }
    });
    while (cursor) { const next = cursor.nextElementSibling; cursor.remove(); cursor = next; }
    scrollLog(t);
  });

  function setLive(on) { document.body.classList.toggle("offline", !on); }

  function toast(message) {
    const el = document.getElementById("toast");
    if (!el) return;
    el.textContent = message;
    el.classList.add("show");
    clearTimeout(el._timer);
    el._timer = setTimeout(function () { el.classList.remove("show"); }, 4000);
  }
  window.cardclubToast = toast;

  // A move a board script assembled from several clicks (a payment, an Action with its target):
  // posted like any move button, at the board's current seq. The server judges it.
  window.cardclubPostMove = function (board, move, btn) {
    if (!confirmFinal(move)) return;
    btn.dataset.move = JSON.stringify(move);
    btn.disabled = true;
    htmx.ajax("POST", board.dataset.moveUrl, {
      source: btn,
      values: { move: JSON.stringify(move), seq: board.dataset.seq },
      swap: "none",
    });
  };

  // Turn clocks count down on the page; the server decides when time is really up.
  function pad(n) { return String(n).padStart(2, "0"); }
  function tickClocks() {
    document.querySelectorAll(".clock[data-deadline]").forEach(function (el) {
      const left = Math.max(0, Math.floor((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      const d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
      const text = d ? d + (el.dataset.day || "d") + " " + h + "h" : h ? h + "h " + pad(m) + "m" : m + ":" + pad(s);
      const out = el.querySelector(".left");
      if (out) out.textContent = text;
      el.classList.toggle("urgent", left < 300);
    });
  }
  tickClocks();
  setInterval(tickClocks, 1000);
  // Behaviour the templates ask for with data- attributes (no inline handlers: the CSP forbids them).
  document.addEventListener("click", function (evt) {
    const field = evt.target.closest && evt.target.closest("[data-select-on-click]");
    if (field) field.select();
  });
  document.addEventListener("change", function (evt) {
    if (evt.target.matches && evt.target.matches("[data-autosubmit]") && evt.target.form) evt.target.form.submit();
  });
  document.addEventListener("submit", function (evt) {
    const question = evt.target.dataset && evt.target.dataset.confirm;
    if (question && !window.confirm(question)) evt.preventDefault();
  });
  // While an Undo is on offer, a move that cannot be taken back asks first (board scripts' moves; the move
  // buttons carry hx-confirm from the server in the same case).
  function confirmFinal(move) {
    const panel = document.querySelector("[data-takeback-moves]");
    const allowed = panel ? panel.dataset.takebackMoves.split(" ").filter(Boolean) : [];
    // Only while an Undo is on offer: a final move would lock in the moves it could still take back.
    if (!document.querySelector(".takeback") || allowed.indexOf(move && move.type) >= 0) return true;
    return window.confirm(panel.dataset.takebackWarning);
  }
  // The invite link's copy button.
  document.addEventListener("click", function (evt) {
    const btn = evt.target.closest && evt.target.closest("[data-copy]");
    if (!btn) return;
    const field = document.querySelector(btn.dataset.copy);
    if (!field) return;
    const done = function () { toast(btn.dataset.copied || "Copied."); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
    } else {
      field.select();
      try { if (document.execCommand("copy")) done(); } catch (e) { /* the text stays selected */ }
    }
  });
  // Chat: a sent message empties the box; new lines keep the newest in view.
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    const form = evt.detail.elt;
    if (form && form.matches && form.matches("[data-chat-form]") && evt.detail.successful) form.reset();
  });
  function scrollChat() {
    document.querySelectorAll(".chat-log").forEach(function (el) { el.scrollTop = el.scrollHeight; });
  }
  scrollChat();
  document.body.addEventListener("htmx:oobAfterSwap", scrollChat);
  // A spectator hides a table's chat in this browser (a player mutes it on their seat, on the server). The
  // choice is a class on the body, which frames never replace (a swapped-in panel would lose one of its own).
  function chatKey() {
    const btn = document.querySelector("[data-chat-hide]");
    return btn ? "chat-hidden-" + btn.dataset.chatHide : null;
  }
  function chatHidden(key) { try { return localStorage.getItem(key) === "1"; } catch (e) { return false; } }
  document.addEventListener("click", function (evt) {
    const btn = evt.target.closest && evt.target.closest("[data-chat-hide]");
    if (!btn) return;
    const hidden = !document.body.classList.contains("chat-hidden");
    document.body.classList.toggle("chat-hidden", hidden);
    try { localStorage.setItem(chatKey(), hidden ? "1" : "0"); } catch (e) { /* private mode: no memory */ }
  });
  if (chatKey() && chatHidden(chatKey())) document.body.classList.add("chat-hidden");

  // A region that scrolls (a hand on a phone, the recruitment zones) is reachable with the keyboard: when none
  // of its contents takes the focus, it takes it itself (tabindex 0), so the arrow keys can scroll it.
  const FOCUSABLE = "a[href], button:not([disabled]), input, select, textarea, summary, [tabindex]";
  function markScrollers() {
    document.querySelectorAll("main *").forEach(function (el) {
      const style = getComputedStyle(el);
      const scrolls = (/auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1) ||
        (/auto|scroll/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1);
      if (scrolls && !el.hasAttribute("tabindex") && !el.querySelector(FOCUSABLE)) {
        el.setAttribute("tabindex", "0");
        el.dataset.scrollFocus = "";
      } else if (!scrolls && "scrollFocus" in el.dataset) {
        el.removeAttribute("tabindex");
        delete el.dataset.scrollFocus;
      }
    });
  }
  markScrollers();
  document.addEventListener("cardclub:swapped", markScrollers);

  // A name cut short with an ellipsis shows in full on hover (its text, read by screen readers, is whole).
  // A button whose face is one word ("Recruit") says in full what it does to a screen reader: its data-label,
  // "Recruit Neon Ronin", which holds what it shows.
  const CUT_NAMES = ".name-cut, .seat-name, .topbar .who, .seats-mini span, table.history td a, .replay-seats .seat-link";
  function titleCutNames() {
    document.querySelectorAll(CUT_NAMES).forEach(function (el) {
      if (!el.title) el.title = el.textContent.trim();
    });
    document.querySelectorAll("button[data-label]:not([aria-label])").forEach(function (el) {
      el.setAttribute("aria-label", el.dataset.label);
    });
  }
  titleCutNames();
  document.addEventListener("cardclub:swapped", titleCutNames);
  document.body.addEventListener("htmx:afterSwap", titleCutNames);
  window.addEventListener("resize", markScrollers);

  function rememberBadge(badge) {
    const invited = parseInt(badge.dataset.invitations || "0", 10);
    document.body.dataset.invitations = String(invited);
    document.body.dataset.yourTurn = String(parseInt(badge.dataset.count || "0", 10) - invited);
  }
  const badge = document.getElementById("your-turn-badge");
  if (badge) rememberBadge(badge);
})();
