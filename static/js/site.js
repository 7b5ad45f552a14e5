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
  // A socket's frames after its first carry only what changed (tables/frame_diff.py): an element marked
  // data-attrs-only gives its element in the page these attributes and keeps its content; an element whose
  // parts the page already shows holds them as stubs (data-kept), replaced here by the page's own element of
  // that id as the page was when the frame came (a card that moved from one zone to the next is kept: its
  // old place is swapped in the same frame). The board's scripts hear of the board once all of a frame is in
  // ("cardclub:swapped" on the board), as they did when every frame replaced it whole.
  const settled = new Set();  // elements whose "cardclub:swapped" waits for the end of the frame
  const held = new Map();  // {id: the page's element} for each stub of the frame being applied
  // A socket's first frame, on connect (or reconnect), draws the table as it is. When the page shows that very
  // revision already (the status section's data-rev: its own request drew it, or a frame before the socket
  // dropped), the frame's status and board are left as they are, so that what the player did on the board
  // meanwhile stays done: a card picked in Chronica's hand, the mode chosen for it (a frame replacing the board
  // undid them, a second or so after the page came on a slow line).
  // frame: the socket's message being applied, {shown: whether it draws the revision the page shows}; null
  // while anything else is swapped (an answer to a request). A message is applied in the task that brings it.
  let frame = null;
  const STATUS = /<section id="[^"]*-status"[^>]*>/;
  document.body.addEventListener("htmx:wsBeforeMessage", function (evt) {
    held.clear();
    const message = evt.detail.message;
    if (typeof message !== "string") return;
    const tag = STATUS.exec(message), page = document.querySelector("section.table-status[data-rev]");
    const rev = tag && / data-rev="(\d+)"/.exec(tag[0]);
    frame = { shown: !!(rev && page && rev[1] === page.dataset.rev && tag[0].indexOf("data-attrs-only") < 0) };
    queueMicrotask(function () { frame = null; });
    for (const m of message.matchAll(/ id="([^"]+)" data-kept>/g)) {
      const live = document.getElementById(m[1]);
      if (live) held.set(m[1], live);
    }
  });
  function broken() { window.location.reload(); }  // (a page that is not what the frame applies to: load it anew)
  function setAttributes(target, fresh) {
    const names = function (el) { return Array.from(el.attributes).map(function (a) { return a.name; }); };
    const wanted = names(fresh).filter(function (n) { return n !== "data-attrs-only"; });
    if (names(target).join(" ") !== wanted.join(" ")) {
      names(target).forEach(function (n) { target.removeAttribute(n); });
    }
    wanted.forEach(function (n) {
      const v = fresh.getAttribute(n);
      if (target.getAttribute(n) !== v) target.setAttribute(n, v);
    });
  }
  // What the player is typing in a box of an element a socket's frame replaces whole (the chat panel: it comes whole
  // in a socket's first frame, on connect and on every reconnect) goes into the new box, which keeps the focus
  // and the caret: the frame left an empty box, and the line being typed was lost.
  let typing = null;  // {id, start, end} of the box that had the focus, given it back once the frame is in
  function keepTyping(t, fragment) {
    if (!t.querySelectorAll) return;
    t.querySelectorAll("input[id]:not([type]), input[id][type=text], textarea[id]").forEach(function (box) {
      const focused = document.activeElement === box;
      const fresh = fragment.querySelector("#" + CSS.escape(box.id));
      if (!fresh || (!box.value && !focused)) return;
      fresh.value = box.value;
      if (focused) typing = { id: box.id, start: box.selectionStart, end: box.selectionEnd };
    });
  }
  document.body.addEventListener("htmx:oobBeforeSwap", function (evt) {
    const t = evt.detail.target, fresh = evt.detail.fragment && evt.detail.fragment.firstElementChild;
    if (!t || !fresh) return;
    if (frame && frame.shown && t.matches && t.matches("section.table-status, section.board")) {
      evt.detail.shouldSwap = false;  // (the page shows this revision: above)
      evt.detail.kept = true;  // (nothing to tell the board's scripts: oobAfterSwap)
      return;
    }
    const board = t.closest && t.closest(".board");
    if (board && board !== t) settled.add(board);
    if (fresh.hasAttribute("data-attrs-only")) {
      evt.detail.shouldSwap = false;
      evt.detail.attrsOnly = true;
      setAttributes(t, fresh);
      settled.add(t);
      return;
    }
    if (logOf(t)) return;  // (its lines are merged below)
    if (frame) keepTyping(t, evt.detail.fragment);
    evt.detail.fragment.querySelectorAll("[data-kept]").forEach(function (stub) {
      const live = held.get(stub.id);
      if (live) stub.replaceWith(live); else broken();
    });
  });
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    held.clear();
    const box = typing && document.getElementById(typing.id);
    if (box && document.activeElement !== box) {
      box.focus({ preventScroll: true });
      try { box.setSelectionRange(typing.start, typing.end); } catch (e) { /* a box without a caret */ }
    }
    typing = null;
    const waiting = Array.from(settled);
    settled.clear();
    waiting.forEach(function (el) {
      const t = el.isConnected ? el : el.id && document.getElementById(el.id);
      if (t) document.dispatchEvent(new CustomEvent("cardclub:swapped", { detail: { target: t } }));
    });
  });
  document.body.addEventListener("htmx:oobAfterSwap", function (evt) {
    // (htmx tells every element a frame swapped in so far of each later swap: each swap is handled once)
    if (evt.detail.cardclubSeen) return;
    evt.detail.cardclubSeen = true;
    if (evt.detail.attrsOnly || evt.detail.kept) return;  // (told once the whole frame is in; or left as it was)
    // detail.target is the element the swap aimed at: for a whole-element swap it has just been replaced and is
    // out of the page, so every handler gets the element now in its place (same id), with the new content.
    const aimed = evt.detail.target;
    const t = aimed && aimed.id && !aimed.isConnected ? document.getElementById(aimed.id) || aimed : aimed;
    if (t && t.classList && t.classList.contains("move-error")) {
      t.classList.toggle("empty", !t.textContent.trim());
    }
    // The badge counts turns and invitations; a toast says which of them is new, once. On a table page the
    // board says whose turn it is, so only an invitation is told there.
    // News for this person (a challenge of theirs answered) arrives beside their badge: told as a toast.
    if (t && t.id === "club-news" && t.textContent.trim()) toast(t.textContent.trim());
    if (t && t.id === "your-turn-badge") {
      const invited = parseInt(t.dataset.invitations || "0", 10);
      const challenged = parseInt(t.dataset.challenges || "0", 10);
      const turns = parseInt(t.dataset.count || "0", 10) - invited - challenged;
      const words = document.getElementById("toast").dataset;  // (in the page's language)
      if (challenged > parseInt(document.body.dataset.challenges || "0", 10)) {
        toast(words.challenged);
      } else if (invited > parseInt(document.body.dataset.invitations || "0", 10)) {
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
    if (document.visibilityState === "hidden" && evt.target.matches(".table-page")) tellSight(evt.target);
  });
  // The socket of the page's element ``host`` (its ws-connect) while it is open, else null.
  function openSocket(host) {
    const socket = host && host.cardclubSocket;
    return socket && socket.raw.readyState === WebSocket.OPEN ? socket : null;
  }
  // A page out of sight (another tab in front, a phone put away) asks its table's socket for no frames until
  // it is back in sight; then the socket sends the table as it is (tables/consumers.py: frames nobody would
  // see are not drawn). The "Your turn" badge, the tab's title and the push notifications come otherwise.
  function tellSight(host) {
    const socket = openSocket(host);
    if (socket) socket.raw.send(JSON.stringify({ visible: document.visibilityState !== "hidden" }));
  }
  document.addEventListener("visibilitychange", function () {
    document.querySelectorAll(".table-page[ws-connect]").forEach(tellSight);
  });
  // The seq the page shows: its board section's data-seq (the one place that holds it, for every script).
  function seqOf(el) {
    const at = (el && el.closest("[data-seq]")) || document.querySelector(".board[data-seq]");
    return at ? at.dataset.seq : undefined;
  }
  window.cardclubSeq = seqOf;
  // A move button carries its move alone (data-move, {% move_attrs %}): it is played at the seq the page
  // shows when it is clicked, so a frame may keep a button from a move before.
  document.body.addEventListener("htmx:configRequest", function (evt) {
    const el = evt.detail.elt, params = evt.detail.parameters;
    if (!el || !el.dataset || !el.dataset.move || el.hasAttribute("hx-vals") || params.move !== undefined) return;
    const seq = seqOf(el);
    if (seq === undefined) return;
    params.move = el.dataset.move;
    params.seq = seq;
  });
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    const el = evt.detail.elt, config = evt.detail.requestConfig;
    if (!el || !el.dataset || !el.dataset.move || !config || config.verb !== "post") return;
    const socket = openSocket(el.closest("[ws-connect]"));
    const move = config.parameters.move, seq = config.parameters.seq;
    if (!socket || typeof move !== "string") return;
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
  // The log, when a frame swaps it whole or its list of lines alone (a partial frame: tables/frame_diff.py).
  function logOf(t) {
    if (!t || !t.classList) return null;
    if (t.classList.contains("move-log")) return t;
    return t.matches("[role=log] > ol") ? t.closest(".move-log") : null;
  }
  document.body.addEventListener("htmx:oobBeforeSwap", function (evt) {
    const t = evt.detail.target, log = logOf(t);
    if (!log || evt.detail.attrsOnly) return;
    const whole = t === log;
    const fresh = (whole && evt.detail.fragment.querySelector(".move-log")) || evt.detail.fragment.firstElementChild;
    const list = whole ? t.querySelector("[role=log] ol") : t;
    const incoming = fresh && (whole ? fresh.querySelector("[role=log] ol") : fresh);
    if (!list || !incoming) return;
    evt.detail.shouldSwap = false;
    const title = whole && t.querySelector("h2"), newTitle = whole && fresh.querySelector("h2");
    if (title && newTitle && !newTitle.hasAttribute("data-kept") && title.textContent !== newTitle.textContent) {
      title.textContent = newTitle.textContent;
    }
    // Each line has its own key (a move's seq, an event's id): lines the page shows as they are drawn now (or
    // that the frame keeps: data-kept) stay where they are, untouched; the others go, and new ones go in
    // their place in the log's order, with the text between them as the frame has it.
    const have = new Map();
    Array.from(list.children).forEach(function (li) { have.set(li.id || li.dataset.key || "", li); });
    const wanted = [].concat.apply([], Array.from(incoming.childNodes).map(function (node) {
      if (node.nodeType !== 1) return node;
      if (node.dataset.kept) {  // (lines the page shows as they are, by their keys)
        return node.dataset.kept.split(" ").map(function (key) { return have.get(key) || broken() || node; });
      }
      const mine = have.get(node.id || node.dataset.key || "");
      if (node.hasAttribute("data-kept")) { if (!mine) broken(); return mine || node; }
      // (a line is compared by what the server draws of it: its class and its content)
      return mine && mine.className === node.className && mine.innerHTML === node.innerHTML ? mine : node;
    }));
    const staying = new Set(wanted);
    Array.from(list.children).forEach(function (li) { if (!staying.has(li)) li.remove(); });
    let cursor = list.firstChild;
    wanted.forEach(function (node) {
      if (cursor === node) { cursor = cursor.nextSibling; return; }
      if (node.nodeType === 3 && cursor && cursor.nodeType === 3 && cursor.data === node.data) {
        cursor = cursor.nextSibling;
        return;
      }
      list.insertBefore(node, cursor);
    });
    while (cursor) { const next = cursor.nextSibling; cursor.remove(); cursor = next; }
    scrollLog(log);
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
  // posted like any move button, at the seq the page shows. The server judges it.
  window.cardclubPostMove = function (board, move, btn) {
    if (!confirmFinal(move)) return;
    btn.dataset.move = JSON.stringify(move);
    btn.disabled = true;
    htmx.ajax("POST", board.dataset.moveUrl, {
      source: btn,
      values: { move: JSON.stringify(move), seq: seqOf(board) },
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
  // While an Undo is on offer, a move that cannot be taken back asks first: a move button's (below) as a board
  // script's (cardclubPostMove). The page lists the moves that can (the chat panel's data-takeback-moves), so
  // a button says nothing of it and reads the same whether or not an Undo is on offer.
  document.body.addEventListener("htmx:confirm", function (evt) {
    const el = evt.detail.elt;
    // (a board script's move has asked already: cardclubPostMove, whose htmx.ajax has no triggering event)
    if (!evt.detail.triggeringEvent || !el || !el.dataset || !el.dataset.move || el.classList.contains("takeback")) return;
    let move;
    try { move = JSON.parse(el.dataset.move); } catch (e) { return; }
    if (!confirmFinal(move)) evt.preventDefault();
  });
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
    const challenged = parseInt(badge.dataset.challenges || "0", 10);
    document.body.dataset.invitations = String(invited);
    document.body.dataset.challenges = String(challenged);
    document.body.dataset.yourTurn = String(parseInt(badge.dataset.count || "0", 10) - invited - challenged);
  }
  const badge = document.getElementById("your-turn-badge");
  if (badge) rememberBadge(badge);

  // A card opens large, with its full text in the reader's language (/games/<game>/cards/<code>/): a tap on a
  // card that is not a move, a long press on any card (a move's too), the pointer resting on it, or the focus
  // resting on a card's button. Only a card drawn face up in view has a code (data-card) to ask for; Escape,
  // its close button (the answer's) or a tap outside close it. The game is the page's (its body's game-<slug> class).
  const ZOOM_WAIT = 600; // ms the pointer or the focus rests on a card before it opens
  const LONG_PRESS = 450; // ms
  // (swallowUntil: until when the click that ends a long press is swallowed, once the press is released;
  // a touch sends none after a long press, so a flag left up would eat the next tap, the view's Close.)
  let zoom = null, zoomTimer = null, zoomShown = null, pressed = null, longPressed = false, swallowUntil = 0, zoomAsked = 0, modalAsked = false, closedAt = -1e9;
  const SWALLOW = 250; // ms after the release of a long press
  function pageGame() {
    const m = /(?:^|\s)game-(?!page(?:\s|$))([a-z0-9_]+)/.exec(document.body.className);
    return m ? m[1] : null;
  }
  function zoomable(el) {
    const card = el && el.closest && el.closest("[data-card]");
    if (!card || !pageGame() || card.closest(".card-zoom")) return null;
    return card.checkVisibility && !card.checkVisibility() ? null : card;
  }
  function zoomDialog() {
    if (zoom) return zoom;
    zoom = document.createElement("dialog");
    zoom.className = "card-zoom";
    zoom.setAttribute("aria-labelledby", "card-zoom-title");
    const body = document.createElement("div");
    body.className = "card-zoom-content";
    zoom.appendChild(body);
    zoom.addEventListener("click", function (evt) {
      if (evt.target === zoom || evt.target.closest("[data-zoom-close]")) closeZoom();
    });
    zoom.addEventListener("close", function () {
      // (the event comes a task after close(): a card asked for since then keeps its ask)
      if (zoomAsked === closedAsk) zoomShown = null;
      closedAt = performance.now();
    });
    document.body.appendChild(zoom);
    return zoom;
  }
  let closedAsk = 0; // the ask the view showed when it was last closed
  function closeZoom() {
    clearTimeout(zoomTimer);
    closedAsk = zoomAsked;
    if (zoom && zoom.open) zoom.close();
    zoomShown = null;
  }
  function openZoom(card, modal) {
    const code = card.dataset.card, game = pageGame();
    if (!code || !game) return;
    if (!modal && modalAsked) return; // nor one on its way
    if (zoom && zoom.open) {
      const isModal = !zoom.classList.contains("peek");
      if (!modal && isModal) return; // a peek never replaces a card opened large
      if (zoomShown === code && modal === isModal) return;
    }
    zoomShown = code;
    const asked = ++zoomAsked; // the latest ask wins, whichever answer arrives last
    modalAsked = modal;
    fetch("/games/" + encodeURIComponent(game) + "/cards/" + encodeURIComponent(code) + "/", { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        if (asked === zoomAsked) modalAsked = false;
        if (zoomShown !== code || asked !== zoomAsked) return;
        const dialog = zoomDialog();
        const content = dialog.querySelector(".card-zoom-content");
        content.innerHTML = html; // the site's own autoescaped template
        const title = content.querySelector("h2");
        if (title) title.id = "card-zoom-title";
        dialog.classList.toggle("peek", !modal);
        closedAsk = asked - 1; // (this close's event must not forget the card shown now)
        if (dialog.open) dialog.close();
        if (modal) { dialog.showModal(); const close = dialog.querySelector("[data-zoom-close]"); if (close) close.focus(); }
        else dialog.show();
      })
      .catch(function () { zoomShown = null; if (asked === zoomAsked) modalAsked = false; });
  }
  document.addEventListener("click", function (evt) {
    if (performance.now() < swallowUntil && !evt.target.closest("[data-zoom-close]")) {
      swallowUntil = 0;
      evt.preventDefault();
      evt.stopPropagation();
      return;
    }
    const card = zoomable(evt.target);
    if (card && !acts(evt.target)) { clearTimeout(zoomTimer); openZoom(card, true); }
  }, true);
  // Whether a tap on this element already does something (a move, a choice, a link, a card the game lets you
  // pick, which looks clickable): then a tap does that, and a long press opens the card.
  const ACTIVE = "button, a, label, input, select, textarea, [data-move], [data-pick], [hx-get], [hx-post], [role=button], [tabindex]";
  function acts(el) {
    for (let up = el; up && up !== document.body; up = up.parentElement) {
      if ("scrollFocus" in up.dataset) continue; // (a region that scrolls, focusable for its arrow keys only)
      if (up.matches(ACTIVE) || getComputedStyle(up).cursor === "pointer") return true;
    }
    return false;
  }
  document.addEventListener("pointerdown", function (evt) {
    const card = zoomable(evt.target);
    if (!card) return;
    clearTimeout(zoomTimer); // a press is no resting pointer
    pressed = { x: evt.clientX, y: evt.clientY, timer: setTimeout(function () {
      pressed = null;
      longPressed = true; // the press opened the card; the click that ends it (if any) does not play it
      openZoom(card, true);
    }, LONG_PRESS) };
  });
  function unpress(evt) {
    if (longPressed && evt.type !== "pointermove") { longPressed = false; swallowUntil = performance.now() + SWALLOW; }
    if (!pressed) return;
    if (evt.type === "pointermove" && Math.hypot(evt.clientX - pressed.x, evt.clientY - pressed.y) < 8) return;
    clearTimeout(pressed.timer);
    pressed = null;
  }
  ["pointerup", "pointercancel", "pointermove"].forEach(function (t) { document.addEventListener(t, unpress); });
  document.addEventListener("contextmenu", function (evt) { if (zoomable(evt.target) && zoom && zoom.open) evt.preventDefault(); });
  const finePointer = window.matchMedia("(hover: hover) and (pointer: fine)");
  document.addEventListener("pointerover", function (evt) {
    if (!finePointer.matches || evt.pointerType !== "mouse") return;
    const card = zoomable(evt.target);
    clearTimeout(zoomTimer);
    if (card) zoomTimer = setTimeout(function () { openZoom(card, false); }, ZOOM_WAIT);
    else if (zoom && zoom.open && zoom.classList.contains("peek") && !evt.target.closest(".card-zoom")) closeZoom();
  });
  document.addEventListener("focusin", function (evt) {
    const card = evt.target.matches && evt.target.matches("button, [tabindex]:not([data-scroll-focus])") ? evt.target.querySelector("[data-card]") : null;
    clearTimeout(zoomTimer);
    if (performance.now() - closedAt < 500) return; // the focus coming back to the card a closed view showed
    if (card && zoomable(card)) zoomTimer = setTimeout(function () { openZoom(card, false); }, ZOOM_WAIT);
    else if (zoom && zoom.open && zoom.classList.contains("peek") && !zoom.contains(evt.target)) closeZoom();
  });
  document.addEventListener("keydown", function (evt) {
    if (evt.key === "Escape" && zoom && zoom.open) { evt.preventDefault(); closeZoom(); }
  });
  document.body.addEventListener("htmx:beforeSwap", function () { if (zoom && zoom.open && zoom.classList.contains("peek")) closeZoom(); });

  // The phone's header menu (the links past the lobby and your turn): the Menu button opens and closes it;
  // Escape or a click elsewhere closes it.
  const navToggle = document.querySelector(".nav-toggle");
  if (navToggle) {
    const bar = navToggle.closest(".topbar");
    const setMenu = function (open) { bar.classList.toggle("menu-open", open); navToggle.setAttribute("aria-expanded", String(open)); };
    navToggle.addEventListener("click", function () { setMenu(!bar.classList.contains("menu-open")); });
    document.addEventListener("click", function (evt) { if (!bar.contains(evt.target)) setMenu(false); });
    document.addEventListener("keydown", function (evt) {
      if (evt.key === "Escape" && bar.classList.contains("menu-open")) { setMenu(false); navToggle.focus(); }
    });
  }

  // A chat message's time (written in UTC by the server) in the reader's own clock, hours and minutes.
  function localTimes() {
    document.querySelectorAll("time[data-local-time]:not([data-shown])").forEach(function (el) {
      const at = new Date(el.getAttribute("datetime"));
      if (!isNaN(at)) el.textContent = at.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
      el.dataset.shown = "1";
    });
  }
  localTimes();
  document.body.addEventListener("htmx:afterSwap", localTimes);
  document.body.addEventListener("htmx:oobAfterSwap", localTimes);
  document.addEventListener("cardclub:swapped", localTimes);
})();
