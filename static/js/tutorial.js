// Learn to play: the steps of a guided table (tables/tutorial.py, drawn by tables/_guide.html) shown one at a
// time in a bubble beside the board element each points at. A step ends with "Next", or with the player's move
// of a kind it names: the move is seen when a move button of that kind is pressed, and the step ends when the
// live frame after it arrives (the table's seq grows). The step reached is kept in this browser, per table;
// Escape or "Skip the guide" ends the guide, and the game goes on.
(function () {
  "use strict";
  const guide = document.getElementById("guide");
  const data = document.getElementById("guide-steps");
  if (!guide || !data) return;
  const steps = JSON.parse(data.textContent);
  document.body.appendChild(guide); // (placed over the page, outside the parts the live frames swap)
  const page = document.querySelector(".table-page");
  const key = "guide:" + guide.dataset.table;
  const text = guide.querySelector("[data-guide-text]");
  const count = guide.querySelector("[data-guide-count]");
  const next = guide.querySelector("[data-guide-next]");
  const wait = guide.querySelector("[data-guide-wait]");
  let at = parseInt(localStorage.getItem(key) || "0", 10) || 0;
  let armedAt = null; // the seq when the awaited move was pressed
  let shownAt = -1; // the step the bubble last showed (focus moves to a step once)
  let shownPressable = false; // whether that step's awaited buttons were there when it was brought on screen
  let pointed = null;
  let pressable = []; // the buttons the step waits for, as the last render found them (read again on a change)
  let cleared = false; // whether the step was shown with its bubble covering none of them
  let scrolledTo = 0; // where the guide scrolled the page to show the step (the player may scroll on since)

  const seq = function () {
    const status = document.querySelector("[id$='-status'][data-seq]");
    return status ? parseInt(status.dataset.seq, 10) : 0;
  };
  function save() { try { localStorage.setItem(key, String(at)); } catch (e) { /* private mode: not kept */ } }
  function unpoint() { if (pointed) pointed.classList.remove("guide-target"); pointed = null; }
  function finish() { at = steps.length; save(); render(); }
  function advance() { at += 1; armedAt = null; save(); render(); }

  // The buttons a waiting step's move starts from, as shown (a folded one, such as Chronica's pass, is not):
  // those of the moves of the kinds it asks for, and the cards a board has picked before their move (data-pick).
  function awaited(step) {
    if (!step.wait.length) return [];
    return Array.prototype.filter.call(document.querySelectorAll("[data-move], [data-pick]"), function (button) {
      // (a folded button has boxes in Chromium, out of sight: the closed <details> hides it by content-visibility)
      if (!button.getClientRects().length || (button.checkVisibility && !button.checkVisibility())) return false;
      if (!button.dataset.move) return true;
      try { return step.wait.indexOf(JSON.parse(button.dataset.move).type) >= 0; } catch (e) { return false; }
    });
  }
  // The box (in the viewport) around the buttons of the moves themselves (not a card to pick: a docked hand
  // stays on screen) that lie outside the target, which the bubble never covers; null when there are none.
  function around(buttons, target) {
    const out = buttons.filter(function (b) { return b.dataset.move && !target.contains(b); });
    if (!out.length) return null;
    const boxes = out.map(function (b) { return b.getBoundingClientRect(); });
    return {
      top: Math.min.apply(null, boxes.map(function (r) { return r.top; })),
      bottom: Math.max.apply(null, boxes.map(function (r) { return r.bottom; })),
    };
  }
  // The board's prompt of a waiting step ("Your turn: draw a card — click the stock or the discard."): the
  // question the player answers, which the bubble leaves uncovered too where it can (on a phone, say, the bubble
  // below the piles and their prompt rather than between them, over the question). Null for a "Next" step, or
  // when the prompt holds the target or lies within it.
  function question(target) {
    const step = steps[at];
    if (!step || !step.wait.length) return null;
    const prompt = Array.prototype.find.call(document.querySelectorAll("[id$='-prompt']"), function (p) {
      return p.getClientRects().length > 0;
    });
    if (!prompt || prompt.contains(target) || target.contains(prompt)) return null;
    return prompt;
  }
  // The box (in the viewport) of the words of the table's turn line on a waiting step ("Your turn."), which the
  // bubble leaves uncovered too where it can (after the question); null for a "Next" step or without one.
  function turnLine() {
    const step = steps[at], line = document.querySelector(".table-status .turn-line");
    if (!step || !step.wait.length || !line || !line.getClientRects().length) return null;
    const words = document.createRange();
    words.selectNodeContents(line);
    const r = words.getBoundingClientRect();
    return r.width ? r : null;
  }
  // The boxes of the parts of the board marked data-guide-keep outside the target on a waiting step (Five Crowns'
  // Go out panel), and at any step those of the docked hand's own tools outside the target (the words of its
  // title, "Your hand (7)", and its buttons other than cards: "Sort by suit", "Move cards"), which the bubble
  // leaves uncovered where it can, after the question and the turn line.
  function keptParts(target) {
    const step = steps[at];
    const marked = step && step.wait.length ? document.querySelectorAll("[data-guide-keep]") : [];
    const parts = Array.prototype.filter.call(marked, function (part) {
      return part.getClientRects().length && !part.contains(target) && !target.contains(part);
    }).map(function (part) { return part.getBoundingClientRect(); });
    Array.prototype.forEach.call(document.querySelectorAll("[id$='-hand']"), function (hand) {
      Array.prototype.forEach.call(hand.querySelectorAll(":scope h3, :scope button:not([data-move]):not([data-pick])"), function (el) {
        if (!el.getClientRects().length || el.querySelector("[data-card]") || el.closest(".card-button") || target.contains(el)) return;
        if (!el.matches("h3")) { parts.push(el.getBoundingClientRect()); return; }
        const words = document.createRange();
        words.selectNodeContents(el);
        const r = words.getBoundingClientRect();
        if (r.width) parts.push(r);
      });
    });
    return parts;
  }
  // Where the screen's room begins: below the site's bar where it stays on screen (sticky on a wide screen).
  function roomTop() {
    const bar = document.querySelector(".topbar");
    return bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  }

  // Bring the step on screen: its target in the middle (not at an edge, where a docked hand would cover it);
  // then, for a waiting step whose move buttons are still off screen, the target and those buttons: both in
  // the middle when they fit (the bubble then finds room beside the target: place), else the buttons whole at
  // the edge on their side and as much of the target as fits. Last, when the bubble would cover a button the
  // step waits for wherever it goes (a laptop's docked hand under a tall province), the target just under the
  // site's bar with the bubble below it, or the bubble just under the bar with the target below, or the step's
  // question just under the bar, if one leaves every such button uncovered and one of them on screen (and, for
  // any step, the bubble whole on screen: a tall target on a laptop leaves room on neither side of it when in
  // the middle); a place that also shows the question whole and the turn line uncovered first (clear's levels).
  function show(target, buttons) {
    target.scrollIntoView({ block: "center" });
    const box = around(buttons, target), edge = roomTop();
    if (box && (box.top < edge || box.bottom > window.innerHeight)) {
      const r = target.getBoundingClientRect();
      const top = Math.min(r.top, box.top), bottom = Math.max(r.bottom, box.bottom);
      if (bottom - top <= window.innerHeight - edge - 16) {
        window.scrollBy(0, (top + bottom) / 2 - (edge + window.innerHeight) / 2);
      } else if (box.top < r.top) window.scrollBy(0, box.top - edge - 8);
      else window.scrollBy(0, box.bottom - window.innerHeight + 8);
    }
    // (first where the step's question is whole on screen and uncovered, the turn line too, with the parts it keeps
    // uncovered and every move button it waits for on screen, then with one of them, then where its buttons are
    // (clear's levels 2, 1, 0); tried as the page is, with the target or the bubble just under the site's bar,
    // and with the question there: Five Crowns' prompt, its Go out panel under it, above the docked hand whose
    // cards the step asks for)
    const from = window.scrollY, r = target.getBoundingClientRect(), h = sized();
    const prompt = question(target), bys = [0, r.top - edge - 8, r.top - edge - 18 - h];
    if (prompt) bys.push(prompt.getBoundingClientRect().top - roomTop() - 8);
    cleared = false;
    for (const level of [2, 1, 0]) {
      for (const by of bys) {
        window.scrollTo(window.scrollX, from + by);
        if ((cleared = clear(target, buttons, level))) break;
      }
      if (cleared) break;
    }
    if (!cleared) window.scrollTo(window.scrollX, from);
    showQuestion(target, buttons);
    scrolledTo = window.scrollY;
  }
  // The board's prompt those buttons sit in ("Keep your hand?" above "Keep this hand"), whole on screen when a
  // small scroll shows it (its question cut at the top of the screen, say) and leaves the target's middle on
  // screen and the bubble as clear of the buttons as it was: a player reads the question with its buttons.
  function showQuestion(target, buttons) {
    const button = buttons.find(function (b) { return b.dataset.move && !target.contains(b) && b.closest("[id$='-prompt']"); });
    const prompt = button && button.closest("[id$='-prompt']");
    if (!prompt || prompt.contains(target)) return;
    const p = prompt.getBoundingClientRect(), edge = roomTop();
    if (p.bottom - p.top > window.innerHeight - edge - 16) return;
    const by = p.top < edge ? p.top - edge - 8 : p.bottom > window.innerHeight ? p.bottom - window.innerHeight + 8 : 0;
    if (!by) return;
    const from = window.scrollY;
    window.scrollBy(0, by);
    const r = target.getBoundingClientRect(), middle = (r.top + r.bottom) / 2;
    const kept = cleared ? clear(target, buttons) : middle >= roomTop() && middle <= window.innerHeight;
    if (!kept) window.scrollTo(window.scrollX, from);
  }
  // Whether, as the page is scrolled now, the bubble has a side whole on screen that covers none of the
  // buttons the step waits for, with the target's middle and one of those buttons (if any) on screen; from
  // ``level`` 1, with the step's question (question) and turn line (turnLine) uncovered too, the question whole
  // on screen where it fits there; at level 2, with the parts it keeps (keptParts) uncovered and every button of
  // the moves it waits for outside the target whole on screen as well (Five Crowns' Go out panel and its button
  // above the hand's cards to discard).
  function clear(target, buttons, level) {
    const s = side(target, buttons), r = target.getBoundingClientRect(), middle = (r.top + r.bottom) / 2;
    const edge = roomTop();
    const whole = function (q) { return q.top >= edge && q.bottom <= window.innerHeight; };
    if (!s || s.covered || middle < edge || middle > window.innerHeight) return false;
    if (level >= 1) {
      const prompt = question(target), p = prompt && prompt.getBoundingClientRect();
      if (s.cut || (p && p.bottom - p.top <= window.innerHeight - edge && !whole(p))) return false;
    }
    if (level >= 2 && (s.kept || !buttons.every(function (b) { return !b.dataset.move || target.contains(b) || whole(b.getBoundingClientRect()); }))) return false;
    return !buttons.length || buttons.some(function (b) { return whole(b.getBoundingClientRect()); });
  }

  // The bubble's width for this screen (set, so that its height can be read), and that height.
  function sized() {
    guide.style.width = Math.min(352, document.documentElement.clientWidth - 16) + "px";
    return guide.offsetHeight;
  }
  // The bubble's left edge at ``x`` (in the viewport), held on screen.
  function onScreen(x) { return Math.max(8, Math.min(x, document.documentElement.clientWidth - guide.offsetWidth - 8)); }
  // The bubble's side for the page as scrolled now: below or above the target, or below or above the target
  // and the step's question together (Five Crowns' piles and the prompt under them), whole on screen, lined up
  // with the target's left edge, its right edge or the screen's right edge, whichever covers the fewest of
  // the buttons the step waits for, then (cut) not the step's question, then not its turn line, then (kept) the
  // fewest of the parts it keeps (in that order when even, below first): {top, left, covered, cut, kept}; null
  // when no side is whole on screen.
  function side(target, buttons) {
    const r = target.getBoundingClientRect(), h = sized(), width = guide.offsetWidth, edge = roomTop();
    const xs = [onScreen(r.left), onScreen(r.right - width), onScreen(Infinity)]
      .filter(function (x, i, all) { return all.indexOf(x) === i; });
    const boxes = buttons.filter(function (b) { return !target.contains(b); }).map(function (b) { return b.getBoundingClientRect(); });
    const prompt = question(target), p = prompt && prompt.getBoundingClientRect(), line = turnLine();
    const parts = keptParts(target);
    const over = function (q, top, x) { return q.bottom > top && q.top < top + h && q.right > x && q.left < x + width; };
    const covered = function (top, x) { return boxes.filter(function (q) { return over(q, top, x); }).length; };
    const cut = function (top, x) { return (p && over(p, top, x) ? 2 : 0) + (line && over(line, top, x) ? 1 : 0); };
    const kept = function (top, x) { return parts.filter(function (q) { return over(q, top, x); }).length; };
    const tops = [r.bottom + 10, r.top - 10 - h];
    if (p) tops.splice(1, 0, Math.max(r.bottom, p.bottom) + 10); // (below the target and its question, then above)
    if (p) tops.push(Math.min(r.top, p.top) - 10 - h);
    const sides = [];
    xs.forEach(function (x) {
      tops.filter(function (top, i) { return tops.indexOf(top) === i; }).forEach(function (top) {
        if (top >= edge && top + h <= window.innerHeight) {
          sides.push({ top: top, left: x, covered: covered(top, x), cut: cut(top, x), kept: kept(top, x) });
        }
      });
    });
    const better = function (s, best) {
      if (s.covered !== best.covered) return s.covered < best.covered;
      return s.cut < best.cut || (s.cut === best.cut && s.kept < best.kept);
    };
    return sides.length ? sides.reduce(function (best, s) { return better(s, best) ? s : best; }) : null;
  }
  // The bubble placed on its side (side); where neither below nor above is whole on screen, on the one with
  // more room, held on screen (it may cover part of the target, never leave the screen).
  function place(target, buttons) {
    let s = side(target, buttons);
    if (!s) {
      const r = target.getBoundingClientRect(), h = guide.offsetHeight, edge = roomTop();
      const below = window.innerHeight - r.bottom >= r.top - edge;
      const top = Math.max(edge, Math.min(below ? r.bottom + 10 : r.top - 10 - h, window.innerHeight - h));
      s = { top: top, left: onScreen(r.left) };
    }
    guide.style.left = s.left + window.scrollX + "px";
    guide.style.top = s.top + window.scrollY + "px";
  }

  function render() {
    if (at >= steps.length) { unpoint(); guide.hidden = true; return; }
    const step = steps[at];
    const target = document.querySelector(step.target);
    if (pointed !== target) { unpoint(); if (target) { pointed = target; target.classList.add("guide-target"); } }
    if (!target) { guide.hidden = true; return; } // (it shows when the board draws it: the bot's move, a new turn)
    const counted = count.dataset.template.replace("{n}", at + 1).replace("{total}", steps.length);
    if (text.textContent !== step.text) text.textContent = step.text;
    if (count.textContent !== counted) count.textContent = counted;
    next.hidden = step.wait.length > 0;
    wait.hidden = step.wait.length === 0;
    guide.hidden = false;
    pressable = awaited(step);
    if (shownAt !== at) {
      shownAt = at;
      shownPressable = pressable.length > 0;
      show(target, pressable);
      if (!step.wait.length) next.focus({ preventScroll: true });
      else guide.focus({ preventScroll: true });
    } else if (pressable.length && !shownPressable) {
      shownPressable = true; // (once more when the moves it waits for come: the bot decided first, say)
      show(target, pressable);
    } else if (cleared && Math.abs(window.scrollY - scrolledTo) < 2 && !clear(target, pressable)) {
      show(target, pressable); // (once more when a live frame moved the board under a page left where it was)
    }
    place(target, pressable);
  }

  next.addEventListener("click", advance);
  guide.querySelector("[data-guide-skip]").addEventListener("click", finish);
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Escape" || guide.hidden || document.querySelector("dialog[open]")) return;
    finish();
  });
  // The awaited move: pressed on a button that posts it (data-move holds the move as JSON).
  document.addEventListener("click", function (evt) {
    const button = evt.target.closest && evt.target.closest("[data-move]");
    const step = steps[at];
    if (!button || !step || !step.wait.length) return;
    let move;
    try { move = JSON.parse(button.dataset.move); } catch (e) { return; }
    if (step.wait.indexOf(move.type) >= 0) armedAt = seq();
  }, true);
  let queued = false;
  function soon() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(function () {
      queued = false;
      if (armedAt !== null && seq() > armedAt) advance();
      else render();
    });
  }
  // (the bubble follows its target at once, before the page is drawn again, when a live frame moved the board:
  // the rest waits for the next frame)
  new MutationObserver(function () {
    if (pointed && pointed.isConnected && !guide.hidden) place(pointed, pressable);
    soon();
  }).observe(page || document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-seq"] });
  if (window.ResizeObserver) new ResizeObserver(soon).observe(page || document.body); // (a board that grows moves its parts)
  window.addEventListener("resize", render);
  window.addEventListener("scroll", function () {
    if (pointed && !guide.hidden) place(pointed, pressable);
  }, { passive: true });
  render();
})();
