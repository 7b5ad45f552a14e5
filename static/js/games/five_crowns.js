// Five Crowns: the order of the viewer's own hand is a display preference, kept on this device
// (localStorage, per table and seat) and re-applied after every swap. Sorting, dragging and the
// "Move cards" mode only reorder the page; moves are posted by the server-built buttons alone.
(function () {
  "use strict";
  const RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const SUITS = ["star", "heart", "club", "spade", "diamond"];
  let arranging = false;
  let selected = null; // index of the selected slot in the hand
  let drag = null; // {slot, x, y, moved, id}
  let swallowUntil = 0; // a click right after a drag only ends the drag
  const swallowing = () => Date.now() < swallowUntil;

  const $ = (q, root) => (root || document).querySelector(q);
  const $$ = (q, root) => Array.from((root || document).querySelectorAll(q));
  const board = () => $(".fc-board");
  const hand = () => $("[data-fc-hand]");
  const slots = () => { const h = hand(); return h ? $$(":scope > li.fc-slot", h) : []; };

  function storeKey() {
    const b = board();
    if (!b || b.dataset.viewer === undefined) return null;
    return "five_crowns:hand:" + b.dataset.table + ":" + b.dataset.viewer + ":" + (b.dataset.user || "");
  }
  function load() {
    const k = storeKey();
    if (!k) return null;
    try { return JSON.parse(localStorage.getItem(k) || "null"); } catch (e) { return null; }
  }
  function save(mode) {
    const k = storeKey();
    if (!k) return;
    const b = board();
    const prev = load() || {};
    const data = { round: b.dataset.round, mode: prev.mode || null, order: slots().map((s) => s.dataset.code) };
    if (mode !== undefined) data.mode = mode;
    try { localStorage.setItem(k, JSON.stringify(data)); } catch (e) { /* private mode */ }
  }

  function parse(code) {
    if (code === "joker") return { rank: 99, suit: 99, joker: true };
    const i = code.lastIndexOf("-");
    return { rank: RANKS.indexOf(code.slice(0, i)) + 3, suit: SUITS.indexOf(code.slice(i + 1)), joker: false };
  }
  function wildRank() { const b = board(); return b ? Number(b.dataset.wild) : 0; }

  // Put the slots in `codes` order (duplicates matched in turn); cards not named go last, in server order.
  function reorder(codes) {
    const h = hand();
    if (!h) return;
    const pool = slots();
    const out = [];
    for (const code of codes || []) {
      // A drawn twin of a card already placed is the new one: it goes last, with its tag.
      let i = pool.findIndex((s) => s.dataset.code === code && !s.classList.contains("drawn"));
      if (i < 0) i = pool.findIndex((s) => s.dataset.code === code);
      if (i >= 0) out.push(pool.splice(i, 1)[0]);
    }
    out.push(...pool);
    out.forEach((s) => h.appendChild(s));
  }

  function sortBy(mode) {
    const wild = wildRank();
    const key = (s) => {
      const c = parse(s.dataset.code);
      const isWild = c.joker || c.rank === wild;
      // Wilds (wild rank first, then Jokers) at the right end in both orders.
      if (isWild) return [1, c.joker ? 1 : 0, c.suit, 0];
      return mode === "rank" ? [0, c.rank, c.suit, 0] : [0, c.suit, c.rank, 0];
    };
    const sorted = slots().map((s, i) => [key(s), i, s]).sort((a, b) => {
      for (let j = 0; j < 4; j++) if (a[0][j] !== b[0][j]) return a[0][j] - b[0][j];
      return a[1] - b[1];
    });
    reorder(sorted.map((e) => e[2].dataset.code));
    selected = null;
    save(mode);
    paint();
  }

  function shift(dir) {
    const all = slots();
    if (selected === null || !all[selected]) return;
    const to = selected + dir;
    if (to < 0 || to >= all.length) return;
    const h = hand();
    if (dir < 0) h.insertBefore(all[selected], all[to]);
    else h.insertBefore(all[to], all[selected]);
    selected = to;
    save();
    paint();
    const focus = slots()[selected].querySelector(".card-button");
    if (focus) focus.focus();
  }

  function paint() {
    const b = board();
    if (!b) return;
    b.classList.toggle("arranging", arranging);
    const all = slots();
    if (selected !== null && !all[selected]) selected = null;
    all.forEach((s, i) => s.classList.toggle("selected", i === selected));
    const saved = load() || {};
    $$("[data-fc-sort]").forEach((btn) => btn.setAttribute("aria-pressed", btn.dataset.fcSort === saved.mode ? "true" : "false"));
    const t = $("[data-fc-arrange]");
    if (t) t.setAttribute("aria-pressed", arranging ? "true" : "false");
    $$("[data-fc-shift]").forEach((btn) => { btn.disabled = selected === null; });
  }

  // The saved order holds within a round; a new deal is sorted the way the player last chose.
  function apply() {
    const saved = load();
    const b = board();
    if (!saved || !b) { paint(); return; }
    if (saved.round === b.dataset.round && Array.isArray(saved.order)) {
      reorder(saved.order);
      save();
      paint();
    } else if (saved.mode) sortBy(saved.mode);
    else { save(); paint(); }
  }

  // --- pointer dragging (mouse and touch) ---------------------------------------------------
  document.addEventListener("pointerdown", (e) => {
    const slot = e.target.closest && e.target.closest("[data-fc-hand] > li.fc-slot");
    if (!slot || (e.pointerType === "mouse" && e.button !== 0)) return;
    drag = { slot, x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
  });
  document.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.slot.isConnected) { drag = null; return; } // the board was swapped under the finger
    if (!drag.moved) {
      if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) < 8) return;
      drag.moved = true;
      drag.slot.classList.add("dragging");
      try { drag.slot.setPointerCapture(e.pointerId); } catch (err) { /* gone */ }
    }
    e.preventDefault();
    // Insert before/after the nearest other card under the pointer's row.
    let best = null;
    let bestD = Infinity;
    for (const s of slots()) {
      if (s === drag.slot) continue;
      const r = s.getBoundingClientRect();
      const cy = Math.max(r.top, Math.min(e.clientY, r.bottom));
      const cx = r.left + r.width / 2;
      const d = Math.abs(e.clientX - cx) + 3 * Math.abs(e.clientY - cy);
      if (d < bestD) { bestD = d; best = { s, after: e.clientX > cx }; }
    }
    if (best) hand().insertBefore(drag.slot, best.after ? best.s.nextSibling : best.s);
  });
  function endDrag(e) {
    if (!drag || (e && e.pointerId !== drag.id)) return;
    if (drag.moved) {
      drag.slot.classList.remove("dragging");
      swallowUntil = Date.now() + 400;
      selected = arranging ? slots().indexOf(drag.slot) : null;
      save();
      paint();
    }
    drag = null;
  }
  document.addEventListener("pointerup", endDrag);
  document.addEventListener("pointercancel", (e) => {
    if (drag && drag.moved) drag.slot.classList.remove("dragging");
    if (drag && drag.moved) save();
    drag = null;
  });

  // --- clicks: tools, selecting, and keeping a drag or "Move cards" from posting a discard ----
  document.addEventListener("click", (e) => {
    const slot = e.target.closest && e.target.closest("[data-fc-hand] > li.fc-slot");
    if (slot && (swallowing() || arranging)) {
      e.preventDefault();
      e.stopPropagation();
      if (!swallowing()) {
        const i = slots().indexOf(slot);
        selected = selected === i ? null : i;
        paint();
      }
      swallowUntil = 0;
      return;
    }
    if (slot && !slot.querySelector("button[data-move]")) {
      const i = slots().indexOf(slot);
      selected = selected === i ? null : i;
      paint();
      return;
    }
    const tool = e.target.closest && e.target.closest(".fc-tools [data-fc-sort], .fc-tools [data-fc-arrange], .fc-tools [data-fc-shift]");
    if (!tool) return;
    if (tool.dataset.fcSort) sortBy(tool.dataset.fcSort);
    else if (tool.hasAttribute("data-fc-arrange")) { arranging = !arranging; if (!arranging) selected = null; paint(); }
    else shift(Number(tool.dataset.fcShift));
  }, true);
  document.addEventListener("htmx:confirm", (e) => {
    const slot = e.target.closest && e.target.closest("[data-fc-hand] > li.fc-slot");
    if (slot && (arranging || swallowing())) e.preventDefault();
  });

  // --- keyboard: Shift/Alt + arrows move the focused card (or the selected one) ------------------
  document.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    const slot = e.target.closest && e.target.closest("[data-fc-hand] > li.fc-slot");
    if (!slot) return;
    if (!(e.shiftKey || e.altKey || arranging)) return;
    e.preventDefault();
    selected = slots().indexOf(slot);
    shift(e.key === "ArrowLeft" ? -1 : 1);
  });

  document.addEventListener("cardclub:swapped", (e) => {
    const t = e.detail && e.detail.target;
    if (!t || t.matches(".board") || t.querySelector(".fc-board")) {
      if (!arranging) selected = null;
      drag = null;
      apply(); // a new board: put the hand back in the player's order
    }
  });
  document.addEventListener("htmx:oobAfterSwap", () => { if (hand()) paint(); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", apply);
  else apply();
})();
