// Cosplay Team Battle: choosing the cards that pay. A "Recruit" / "Fulfil" / "Send Drama" / "Poach" button
// carries one of the viewer's legal moves (with the engine's suggested payment). Clicking it opens the payment
// panel instead of posting: the suggestion is pre-selected, the player clicks cards of their hand and assistance
// zone to change it, a live tally shows the points chosen against the cost (surplus points are lost), and Pay
// posts that move with exactly the chosen cards. The engine judges the payment again on the server.
(function () {
  "use strict";
  const RES = ["badass", "kawaii", "craft"];
  // The words shown, in the page's language: templates/games/cosplay/_words.html (tables.templatetags.cosplay).
  const WORDS = (function () {
    const el = document.getElementById("cp-words");
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  })();
  function word(key, n, fields) {
    let w = WORDS[key] || key;
    if (Array.isArray(w)) w = w[n === 1 || (n === 0 && WORDS.zero_is_one) ? 0 : 1];
    return w.replace(/\{(\w+)\}/g, (m, k) => (fields && k in fields ? fields[k] : n));
  }
  const LABEL = { badass: "BADASS", kawaii: "KAWAII", craft: "CRAFT", any: word("any"), wild: word("wild") };
  let sel = null; // {btn, move, need, label, exclude}

  const $ = (q, root) => (root || document).querySelector(q);
  const $$ = (q, root) => Array.from((root || document).querySelectorAll(q));
  const board = () => $(".cp-board");
  const panel = () => $("[data-cp-panel]");
  const payers = () => $$(".cp-mine .cp-card.payer");
  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }
  function json(text, fallback) { try { return JSON.parse(text); } catch (e) { return fallback; } }
  function pts(el) { return json(el.dataset.pts, {}); }
  function normNeed(n) { return { badass: n.badass || 0, kawaii: n.kawaii || 0, craft: n.craft || 0, any: n.any || 0 }; }
  function spriteUrl() {
    const u = $(".cp-board use[href*='sprite.svg']");
    return u ? u.getAttribute("href").split("#")[0] : "";
  }
  function icon(res) { return '<svg viewBox="0 0 100 100" aria-hidden="true"><use href="' + spriteUrl() + "#r-" + res + '"/></svg>'; }

  // Display hints only, mirroring rules/cosplay/engine.py (useful, shortfall): the server decides.
  function useful(need, vec) {
    const vals = Object.values(vec);
    if ((vec.wild || 0) > 0 || need.any > 0) return vals.some((v) => v > 0);
    return RES.some((r) => (vec[r] || 0) > 0 && need[r] > 0);
  }
  function sums(vecs) {
    const t = { badass: 0, kawaii: 0, craft: 0, wild: 0 };
    vecs.forEach((v) => Object.keys(t).forEach((k) => { t[k] += v[k] || 0; }));
    return t;
  }
  function shortfall(need, vecs) {
    const t = sums(vecs);
    let deficit = 0, spare = 0;
    RES.forEach((r) => { if (t[r] < need[r]) deficit += need[r] - t[r]; else spare += t[r] - need[r]; });
    return Math.max(0, deficit - t.wild) + Math.max(0, need.any - Math.max(0, spare + t.wild - deficit));
  }

  function findFree(code, taken) {
    const els = payers().filter((e) => e.dataset.card === code && !taken.has(e));
    els.sort((a, b) => (a.dataset.from === "hand" ? 0 : 1) - (b.dataset.from === "hand" ? 0 : 1));
    return els[0] || null;
  }
  function setTag(el, cls, text) {
    $$(".chosen-tag, .excluded-tag", el).forEach((t) => t.remove());
    if (!cls) return;
    const t = document.createElement("span");
    t.className = cls;
    t.textContent = text;
    el.appendChild(t);
  }
  function preselect(pay) {
    payers().forEach((el) => { el.classList.remove("chosen", "excluded", "useless"); setTag(el, null); });
    const taken = new Set();
    if (sel.exclude) {
      const ex = findFree(sel.exclude, taken);
      if (ex) { taken.add(ex); ex.classList.add("excluded"); setTag(ex, "excluded-tag", word("excluded")); }
    }
    (pay || []).forEach((code) => {
      const el = findFree(code, taken);
      if (el) { taken.add(el); el.classList.add("chosen"); }
    });
  }
  function chosen() { return payers().filter((el) => el.classList.contains("chosen")); }

  function start(btn) {
    const move = json(btn.dataset.move, null);
    if (!move) return;
    sel = { btn: btn, move: move, need: normNeed(json(btn.dataset.need, {}) || {}), label: btn.dataset.label || word("pay"), exclude: btn.dataset.exclude || null };
    preselect(move.pay);
    render();
    const p = panel();
    if (p) p.scrollIntoView({ block: "nearest" });
  }
  function cancel() {
    sel = null;
    payers().forEach((el) => {
      el.classList.remove("chosen", "excluded", "useless");
      setTag(el, null);
      ["tabindex", "role", "aria-pressed"].forEach((a) => el.removeAttribute(a));
    });
    render();
  }

  function render() {
    const b = board(), p = panel();
    if (b) b.classList.toggle("paying", !!sel);
    document.body.classList.toggle("cp-paying", !!sel);
    if (!p) return;
    if (!sel) { p.hidden = true; p.innerHTML = ""; return; }
    const need = sel.need;
    const picked = chosen();
    payers().forEach((el) => {
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-pressed", el.classList.contains("chosen") ? "true" : "false");
      el.classList.toggle("useless", !el.classList.contains("excluded") && !useful(need, pts(el)));
      if (el.classList.contains("chosen")) setTag(el, "chosen-tag", word("pays"));
      else if (!el.classList.contains("excluded")) setTag(el, null);
    });
    const vecs = picked.map(pts);
    const t = sums(vecs);
    const missing = shortfall(need, vecs);
    const needTotal = need.badass + need.kawaii + need.craft + need.any;
    const haveTotal = t.badass + t.kawaii + t.craft + t.wild;
    const lost = missing === 0 ? Math.max(0, haveTotal - needTotal) : 0;
    let tally = "";
    RES.forEach((r) => {
      if (need[r] || t[r]) {
        const ok = t[r] >= need[r];
        tally += '<span class="t res-' + r + (need[r] ? (ok ? " ok" : " short") : "") + '">' + icon(r) + LABEL[r] + " <b>" + t[r] + "</b>" + (need[r] ? " / " + need[r] : "") + "</span>";
      }
    });
    if (t.wild) tally += '<span class="t res-wild">' + icon("wild") + esc(LABEL.wild) + " <b>" + t.wild + "</b></span>";
    if (need.any) tally += '<span class="t res-any">' + icon("any") + esc(word("anyMix", need.any)) + "</span>";
    let status;
    if (!needTotal) status = '<div class="status ok">' + esc(word("free")) + "</div>";
    else if (missing) status = '<div class="status short">' + esc(word("missing", missing)) + "</div>";
    else status = '<div class="status ok">' + esc(word("covered")) + (lost ? ' <span class="lost">' + esc(word("lost", lost)) + "</span>" : " " + esc(word("noWaste"))) + "</div>";
    const n = picked.length;
    p.innerHTML =
      "<h4>" + esc(sel.label) + ' <span class="muted-light">· ' + esc(word("costAfter", 0, { cost: needTotal ? costText(need) : word("nothing") })) + "</span></h4>" +
      '<div class="cp-tally">' + (tally || '<span class="muted-light">' + esc(word("noCard")) + "</span>") + "</div>" + status +
      '<div class="row"><button type="button" class="button pay" data-cp-pay' + (missing ? " disabled" : "") + ">" + esc(word("payWith", n)) + "</button>" +
      '<button type="button" class="button ghost small" data-cp-suggest>' + esc(word("suggested")) + "</button>" +
      '<button type="button" class="button ghost small" data-cp-cancel>' + esc(word("cancel")) + "</button></div>" +
      '<p class="hint">' + esc(word("hint")) + "</p>";
    p.hidden = false;
  }
  function costText(need) {
    return ["badass", "kawaii", "craft", "any"].filter((k) => need[k]).map((k) => need[k] + " " + LABEL[k]).join(" + ");
  }

  function toggle(el) {
    if (el.classList.contains("excluded")) return;
    if (!el.classList.contains("chosen") && el.classList.contains("useless")) return;
    el.classList.toggle("chosen");
    render();
  }
  function pay(btn) {
    const b = board();
    if (!b || !sel) return;
    const move = Object.assign({}, sel.move, { pay: chosen().map((el) => el.dataset.card) });
    window.cardclubPostMove(b, move, btn);
  }

  document.addEventListener("click", function (evt) {
    const t = evt.target;
    if (!t.closest || !board()) return;
    const payBtn = t.closest(".cp-board .cp-pay");
    if (payBtn) { evt.preventDefault(); evt.stopImmediatePropagation(); start(payBtn); return; }
    if (!sel) return;
    const card = t.closest(".cp-mine .cp-card.payer");
    if (card) { evt.preventDefault(); evt.stopImmediatePropagation(); toggle(card); return; }
    if (t.closest("[data-cp-cancel]")) cancel();
    else if (t.closest("[data-cp-suggest]")) { preselect(sel.move.pay); render(); }
    else if (t.closest("[data-cp-pay]")) pay(t.closest("[data-cp-pay]"));
  }, true);
  document.addEventListener("keydown", function (evt) {
    if (!sel) return;
    if (evt.key === "Escape") cancel();
    else if ((evt.key === "Enter" || evt.key === " ") && evt.target.classList && evt.target.classList.contains("payer")) {
      evt.preventDefault();
      toggle(evt.target);
    }
  });
  document.addEventListener("htmx:afterRequest", function () {
    const btn = $("[data-cp-pay]");
    if (btn && sel) btn.disabled = shortfall(sel.need, chosen().map(pts)) > 0;
  });
  // Watching the board change: cards that just arrived in a zone, on an objective pile or in the hand glow
  // for a moment (codes compared with the board as it was just before the swap; all public to this viewer).
  // The same position may arrive twice (the move's answer, then the live frame): compare against the board
  // as it was before the first frame of each new seq.
  let before = null, base = null, baseSeq = null;
  function snapshot() {
    const zone = (el) => { const c = el.querySelector(":scope > .cp-card[data-card]"); return c ? c.dataset.card : null; };
    return {
      zones: $$(".cp-zone").map(zone),
      piles: $$(".cp-objpile").map(zone),
      hand: $$(".cp-hand .cp-row.hand .cp-card[data-card]").map((c) => c.dataset.card),
    };
  }
  function mark(el, cls, badge) {
    if (!el) return;
    el.classList.add(cls);
    if (badge) {
      const t = document.createElement("span");
      t.className = "cp-new";
      t.textContent = badge;
      el.appendChild(t);
    }
  }
  function highlightChanges() {
    const b = board();
    if (!b) return;
    const seq = window.cardclubSeq(b);
    if (seq !== baseSeq) { base = before; baseSeq = seq; }
    before = null;
    // (a frame may keep parts of the board it does not change: their marks of the move before go first)
    $$(".cp-new", b).forEach((el) => el.remove());
    $$(".cp-arrived, .cp-moved", b).forEach((el) => el.classList.remove("cp-arrived", "cp-moved"));
    if (!base) return;
    const was = base;
    const now = snapshot();
    $$(".cp-zone").forEach((li, i) => {
      const code = now.zones[i];
      if (!code || code === was.zones[i]) return;
      const card = li.querySelector(":scope > .cp-card");
      if (was.zones.includes(code)) mark(card, "cp-moved");
      else mark(card, "cp-arrived", word("new"));
    });
    $$(".cp-objpile").forEach((li, i) => {
      const code = now.piles[i];
      if (code && code !== was.piles[i]) mark(li.querySelector(":scope > .cp-card"), "cp-arrived", word("new"));
    });
    const left = was.hand.slice();
    $$(".cp-hand .cp-row.hand .cp-card[data-card]").forEach((c) => {
      const k = left.indexOf(c.dataset.card);
      if (k >= 0) left.splice(k, 1);
      else mark(c, "cp-arrived", word("drawn"));
    });
  }
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    const t = evt.detail && evt.detail.target;
    const b = board();
    if (t && t.id && /-board$/.test(t.id) && b && window.cardclubSeq(b) !== undefined) before = snapshot();
  });
  document.addEventListener("cardclub:swapped", function (evt) {
    const t = evt.detail && evt.detail.target;
    if (t && t.id && /-board$/.test(t.id)) { sel = null; render(); highlightChanges(); }
    // A refused payment: repeat the engine's message inside the payment panel, where the player is looking.
    if (t && t.classList && t.classList.contains("move-error") && sel && t.textContent.trim()) {
      const p = panel();
      if (p) {
        const old = $(".cp-refused", p);
        if (old) old.remove();
        const e = document.createElement("p");
        e.className = "cp-refused";
        e.textContent = t.textContent.trim();
        p.insertBefore(e, p.querySelector(".row"));
      }
    }
  });
})();
