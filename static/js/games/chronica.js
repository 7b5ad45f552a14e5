// Chronica Universalis: assemble a move in steps (card in hand -> target -> options -> confirm with the
// honour preview) from the viewer's own legal moves embedded in the board (#cu-moves). The honour a move
// would win or lose is asked of the server for that one move when it is shown (GET data-preview-url).
// Only the embedded moves are ever posted; the server (the engine) judges them again.
(function () {
  "use strict";
  let sel = null; // {card, mode, seat, slot, cands, chosen}
  // The words shown, in the page's language: templates/games/chronica/_words.html (tables.templatetags.chronica).
  const WORDS = (function () {
    const el = document.getElementById("cu-words");
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  })();
  function word(key, fields) {
    return String(WORDS[key] || key).replace(/\{(\w+)\}/g, (m, k) => (fields && k in fields ? fields[k] : m));
  }

  const $ = (q, root) => (root || document).querySelector(q);
  const $$ = (q, root) => Array.from((root || document).querySelectorAll(q));
  const board = () => $(".cu-board");
  function choices() {
    const el = document.getElementById("cu-moves");
    if (!el) return [];
    try { return JSON.parse(el.textContent).map((m) => ({ move: m })); } catch (e) { return []; }
  }
  // Previews by move, for the board on show (a new frame empties it): a promise of {html, delta} or
  // {error}. The fragment comes from the server's autoescaped template.
  let previews = new Map();
  function preview(move) {
    const b = board();
    const key = JSON.stringify(move);
    if (!b || !b.dataset.previewUrl) return Promise.resolve({ error: "" });
    if (!previews.has(key)) {
      const url = b.dataset.previewUrl + "?move=" + encodeURIComponent(key);
      previews.set(key, fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
        .then((r) => r.text().then((text) => {
          if (!r.ok) return { error: text };
          const box = document.createElement("div");
          box.innerHTML = text;
          const p = box.querySelector(".cu-preview");
          return { html: text, delta: p ? Number(p.dataset.delta) : 0 };
        }))
        .catch(() => ({ error: word("noPreview") })));
    }
    return previews.get(key);
  }
  // Writes a move's honour change into a badge once the server has told it.
  function deltaInto(el, move) {
    if (!el) return;
    preview(move).then((p) => {
      if (!el.isConnected || p.error !== undefined) return;
      el.textContent = signed(p.delta);
      el.classList.remove("up", "down", "even", "pending");
      el.classList.add(cls(p.delta));
    });
  }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }
  // A card's name as printed on it, without the soft hyphens that let a small card break it (tables/hyphens.py).
  function printedName(card) {
    const name = card.querySelector(":scope > strong");
    return name ? name.textContent.replace(/\u00ad/g, "") : card.dataset.card;
  }
  function nameOf(code) {
    const el = $('.cu-card[data-card="' + CSS.escape(code) + '"]');
    return el ? printedName(el) : code;
  }
  function seatName(s) {
    const el = $('.cu-side[data-seat="' + s + '"]');
    return el ? el.dataset.name : word("seat", { n: Number(s) + 1 });
  }
  function viewer() { const b = board(); return b ? Number(b.dataset.viewer) : null; }
  function slotEl(seat, slot) { return $('.cu-side[data-seat="' + seat + '"] .cu-slot[data-slot="' + slot + '"]'); }
  function slotLabel(i) { return (WORDS.slots || [])[i] || String(i + 1); }
  function slotCards(seat, slot) {
    const el = slotEl(seat, slot);
    return el ? $$(".cu-card", el).map(printedName) : [];
  }
  const PLACE_TYPES = ["build", "replace", "place"];
  function signed(n) { return n > 0 ? "+" + n : n < 0 ? "\u2212" + -n : "\u00b10"; }

  function cls(d) { return d > 0 ? "up" : d < 0 ? "down" : "even"; }

  // What a power's choice adds to a move's words: the opponent a Disgrace hits, the character an Exile sends home.
  function powerChoice(m) {
    let t = "";
    if (m.disgrace !== undefined) t += "; " + word("disgrace", { seat: seatName(m.disgrace) });
    if (m.exile) t += "; " + word("exile", { owner: seatName(m.exile.seat), card: slotCards(m.exile.seat, m.exile.slot)[0] });
    return t;
  }
  function describe(m) {
    return describeMove(m) + powerChoice(m);
  }
  function describeMove(m) {
    const me = viewer();
    if (m.type === "build") {
      const here = slotCards(me, m.slot);
      const where = { card: nameOf(m.card), here: here[0], slot: slotLabel(m.slot) };
      let t = word(here.length ? "buildUnder" : "buildOn", where);
      if (m.welcome) t += word("andWelcome", { owner: seatName(m.welcome.seat), card: slotCards(m.welcome.seat, m.welcome.slot)[0] });
      if (m.target !== undefined) t += "; " + word("loses", { seat: seatName(m.target) });
      return t;
    }
    if (m.type === "replace") return word("replace", { old: slotCards(me, m.slot)[0], card: nameOf(m.card) });
    if (m.type === "place") {
      const here = slotCards(me, m.slot);
      let t = word(here.length ? "placeIn" : "placeOn", { card: nameOf(m.card), here: here[0], slot: slotLabel(m.slot) });
      if (m.target !== undefined) t += "; " + word("loses", { seat: seatName(m.target) });
      return t;
    }
    if (m.type === "action") {
      let who = nameOf(m.card);
      if (m.reinforce) who += " + " + (m.reinforce.from === "hand" ? nameOf(m.reinforce.card) : slotCards(me, m.reinforce.slot).slice(-1)[0]);
      return word("action", { who: who, owner: seatName(m.target.seat), cards: slotCards(m.target.seat, m.target.slot).join(" + ") });
    }
    return m.type;
  }
  function optionLabel(m) {
    const t = optionWords(m);
    const extra = powerChoice(m);
    return extra && t === word("justBuild") ? extra.slice(2) : t + extra;
  }
  function optionWords(m) {
    if (m.type === "action") {
      if (!m.reinforce) return word("noReinforcement");
      if (m.reinforce.from === "hand") return word("fromHand", { card: nameOf(m.reinforce.card) });
      return word("fromProvince", { card: slotCards(viewer(), m.reinforce.slot).slice(-1)[0] });
    }
    if (m.welcome) return word("welcome", { owner: seatName(m.welcome.seat), card: slotCards(m.welcome.seat, m.welcome.slot)[0] });
    if (m.target !== undefined) return word("loses", { seat: seatName(m.target) });
    return word("justBuild");
  }

  // A slot is named by its place ("Frontier 1": the board's aria-label). A slot that is a button while a move is
  // put together is named by what it shows instead: its place (an empty slot's, drawn by the stylesheet; an
  // occupied one's, in words a screen reader alone hears), its cards, its badge ("Frontier 2, Alcuin −4",
  // "Frontier 3 Build"). A button's name holds the words a reader sees on it (WCAG 2.5.3), which an aria-label
  // of its place alone did not.
  function named(el) {
    if (el.dataset.label === undefined) el.dataset.label = el.getAttribute("aria-label") || "";
    const place = el.querySelector(":scope > .cu-place");
    if (el.getAttribute("role") !== "button") {
      el.setAttribute("aria-label", el.dataset.label);
      if (place) place.remove();
    } else {
      el.removeAttribute("aria-label");
      if (!place && !el.classList.contains("empty")) {
        el.insertAdjacentHTML("afterbegin", '<span class="visually-hidden cu-place">' + esc(el.dataset.label) + ", </span>");
      }
    }
  }
  function clear() {
    $$(".cu-slot").forEach((el) => {
      el.classList.remove("target", "attack", "helper", "chosen", "out-of-reach");
      el.removeAttribute("tabindex");
      el.setAttribute("role", "group"); // (its aria-label needs a role)
      const b = el.querySelector(".cu-badge");
      if (b) b.remove();
      named(el);
    });
    $$(".cu-hand .cu-pick").forEach((el) => el.classList.remove("selected", "helper"));
  }
  function markSlot(seat, slot, classes, badge, badgeClass) {
    const el = slotEl(seat, slot);
    if (!el) return;
    el.classList.add(...classes);
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    named(el);
    if (badge !== undefined) {
      const b = document.createElement("span");
      b.className = "cu-badge " + (badgeClass || "");
      b.textContent = badge;
      el.appendChild(b);
      return b;
    }
    return null;
  }

  function render() {
    const step = $("[data-cu-step]");
    clear();
    const b = board();
    if (b) b.classList.toggle("selecting", !!sel);
    if (!step) return;
    if (!sel) { step.innerHTML = ""; return; }
    const pick = $('.cu-hand .cu-pick[data-pick="' + CSS.escape(sel.card) + '"]');
    if (pick) pick.classList.add("selected");
    const all = choices().filter((c) => c.move.card === sel.card && (PLACE_TYPES.includes(c.move.type) || c.move.type === "action"));
    const canPlace = all.some((c) => PLACE_TYPES.includes(c.move.type));
    const canAct = all.some((c) => c.move.type === "action");
    const isBuilding = all.some((c) => c.move.type === "build" || c.move.type === "replace");
    if (!sel.mode) sel.mode = canPlace ? "place" : "action";
    let html = '<p class="cu-step-title"><strong>' + esc(nameOf(sel.card)) + "</strong> ";
    html += '<span class="cu-modes">';
    if (canPlace) html += '<button type="button" class="button small' + (sel.mode === "place" ? "" : " ghost") + '" data-cu-mode="place">' + esc(word(isBuilding ? "modeBuild" : "modePlace")) + "</button>";
    if (canAct) html += '<button type="button" class="button small' + (sel.mode === "action" ? "" : " ghost") + '" data-cu-mode="action">' + esc(word("modeAction")) + "</button>";
    if (!canPlace && !canAct) html += '<span class="muted">' + esc(word("noTarget")) + "</span>";
    html += '</span> <button type="button" class="button small ghost" data-cu-cancel>' + esc(word("cancel")) + "</button></p>";

    if (sel.chosen) {
      html += '<div class="cu-confirm"><p>' + esc(describe(sel.chosen.move)) + '.</p><div class="cu-preview-slot" aria-live="polite"><span class="muted">' + esc(word("working")) + "</span></div>";
      html += '<button type="button" class="button" data-cu-confirm>' + esc(word("confirm")) + '</button> <button type="button" class="button ghost small" data-cu-back>' + esc(word("back")) + "</button></div>";
      const m = sel.chosen.move;
      if (m.type === "action") markSlot(m.target.seat, m.target.slot, ["chosen", "attack"]);
      else markSlot(viewer(), m.slot, ["chosen"]);
      step.innerHTML = html;
      const chosen = sel.chosen;
      preview(m).then((p) => {
        const slot = $(".cu-preview-slot", step);
        if (!slot || !sel || sel.chosen !== chosen) return;
        if (p.error !== undefined) slot.textContent = p.error;
        else slot.innerHTML = p.html;
      });
      return;
    }
    if (sel.slot !== undefined && sel.cands) {
      const first = sel.cands[0].move;
      if (first.type === "action") {
        html += "<p>" + esc(word("reinforce")) + "</p>";
        markSlot(first.target.seat, first.target.slot, ["chosen", "attack"]);
        for (const c of sel.cands) {
          const r = c.move.reinforce;
          if (r && r.from === "province") deltaInto(markSlot(viewer(), r.slot, ["helper"], "\u2026", "pending"), c.move);
          if (r && r.from === "hand") { const h = $('.cu-hand .cu-pick[data-pick="' + CSS.escape(r.card) + '"]'); if (h) h.classList.add("helper"); }
        }
      } else {
        html += "<p>" + esc(word("choose")) + "</p>";
        markSlot(viewer(), first.slot, ["chosen"]);
        for (const c of sel.cands) if (c.move.welcome) markSlot(c.move.welcome.seat, c.move.welcome.slot, ["helper"], word("welcomeBadge"));
        for (const c of sel.cands) if (c.move.exile && !c.move.welcome) markSlot(c.move.exile.seat, c.move.exile.slot, ["helper"], word("exileBadge"));
      }
      html += '<div class="choices">';
      sel.cands.forEach((c, k) => {
        html += '<button type="button" class="button small cu-option" data-cu-option="' + k + '">' + esc(optionLabel(c.move)) + ' <span class="cu-delta pending">\u2026</span></button>';
      });
      html += "</div>";
      step.innerHTML = html;
      $$("[data-cu-option]", step).forEach((btn) => deltaInto($(".cu-delta", btn), sel.cands[Number(btn.dataset.cuOption)].move));
      return;
    }
    const cands = all.filter((c) => (sel.mode === "action" ? c.move.type === "action" : PLACE_TYPES.includes(c.move.type)));
    if (sel.mode === "action") {
      html += "<p>" + esc(word("chooseTarget")) + "</p>";
      const seen = new Set();
      for (const c of cands) {
        const t = c.move.target;
        const key = t.seat + ":" + t.slot;
        if (seen.has(key)) continue;
        seen.add(key);
        const plain = cands.find((x) => x.move.target.seat === t.seat && x.move.target.slot === t.slot && !x.move.reinforce) || c;
        deltaInto(markSlot(t.seat, t.slot, ["target", "attack"], "\u2026", "pending"), plain.move);
      }
      $$(".cu-side.top .cu-slot:not(.empty):not(.target)").forEach((el) => el.classList.add("out-of-reach"));
    } else {
      html += "<p>" + esc(word("chooseSlot")) + "</p>";
      const seen = new Set();
      for (const c of cands) {
        if (seen.has(c.move.slot)) continue;
        seen.add(c.move.slot);
        const here = slotCards(viewer(), c.move.slot);
        const label = c.move.type === "replace" ? "labelReplace" : here.length ? (c.move.type === "build" ? "labelBuildUnder" : "labelOccupy") : c.move.type === "build" ? "labelBuild" : "labelPlace";
        markSlot(viewer(), c.move.slot, ["target"], word(label), "label");
      }
    }
    step.innerHTML = html;
  }

  function chooseSlot(seat, slot) {
    const all = choices().filter((c) => c.move.card === sel.card);
    let cands;
    if (sel.mode === "action") cands = all.filter((c) => c.move.type === "action" && c.move.target.seat === seat && c.move.target.slot === slot);
    else cands = all.filter((c) => PLACE_TYPES.includes(c.move.type) && seat === viewer() && c.move.slot === slot);
    if (!cands.length) return;
    if (cands.length === 1) sel.chosen = cands[0];
    else { sel.slot = slot; sel.cands = cands; }
    render();
  }

  function post(move, btn) {
    const b = board();
    if (!b) return;
    window.cardclubPostMove(b, move, btn);
  }

  document.addEventListener("click", function (evt) {
    const t = evt.target;
    if (!t.closest || !board()) return;
    const pick = t.closest(".cu-hand [data-pick]");
    if (pick) {
      const code = pick.dataset.pick;
      if (sel && sel.cands && pick.classList.contains("helper")) {
        const c = sel.cands.find((x) => x.move.reinforce && x.move.reinforce.from === "hand" && x.move.reinforce.card === code);
        if (c) { sel.chosen = c; render(); return; }
      }
      sel = sel && sel.card === code ? null : { card: code };
      render();
      return;
    }
    if (!sel) return;
    if (t.closest("[data-cu-cancel]")) { sel = null; render(); return; }
    if (t.closest("[data-cu-back]")) { sel = { card: sel.card, mode: sel.mode }; render(); return; }
    const mode = t.closest("[data-cu-mode]");
    if (mode) { sel = { card: sel.card, mode: mode.dataset.cuMode }; render(); return; }
    const opt = t.closest("[data-cu-option]");
    if (opt && sel.cands) { sel.chosen = sel.cands[Number(opt.dataset.cuOption)]; render(); return; }
    const confirm = t.closest("[data-cu-confirm]");
    if (confirm && sel.chosen) { post(sel.chosen.move, confirm); return; }
    const slot = t.closest(".cu-slot");
    if (slot && !sel.chosen) {
      const seat = Number(slot.closest(".cu-side").dataset.seat), i = Number(slot.dataset.slot);
      if (sel.cands && slot.classList.contains("helper")) {
        const c = sel.cands.find((x) => (x.move.reinforce && x.move.reinforce.from === "province" && x.move.reinforce.slot === i && seat === viewer()) || (x.move.welcome && x.move.welcome.seat === seat && x.move.welcome.slot === i) || (x.move.exile && !x.move.welcome && x.move.exile.seat === seat && x.move.exile.slot === i));
        if (c) { sel.chosen = c; render(); }
        return;
      }
      if (slot.classList.contains("target")) chooseSlot(seat, i);
    }
  });
  document.addEventListener("keydown", function (evt) {
    if ((evt.key === "Enter" || evt.key === " ") && evt.target.classList && evt.target.classList.contains("cu-slot") && evt.target.getAttribute("role") === "button") {
      evt.preventDefault();
      evt.target.click();
    }
    if (evt.key === "Escape" && sel) { sel = null; render(); }
  });
  document.addEventListener("cardclub:swapped", function (evt) {
    const t = evt.detail && evt.detail.target;
    if (t && t.id && /-board$/.test(t.id)) { sel = null; previews = new Map(); render(); }
  });
})();
