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
  let pointed = null;

  const seq = function () {
    const status = document.querySelector("[id$='-status'][data-seq]");
    return status ? parseInt(status.dataset.seq, 10) : 0;
  };
  function save() { try { localStorage.setItem(key, String(at)); } catch (e) { /* private mode: not kept */ } }
  function unpoint() { if (pointed) pointed.classList.remove("guide-target"); pointed = null; }
  function finish() { at = steps.length; save(); render(); }
  function advance() { at += 1; armedAt = null; save(); render(); }

  function place(target) {
    const r = target.getBoundingClientRect();
    const width = Math.min(352, document.documentElement.clientWidth - 16);
    guide.style.width = width + "px";
    const left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - width - 8));
    const h = guide.offsetHeight;
    const below = r.bottom + 10 + h <= window.innerHeight || r.top - 10 - h < 0;
    guide.style.left = left + "px";
    guide.style.top = (below ? r.bottom + window.scrollY + 10 : r.top + window.scrollY - h - 10) + "px";
    guide.classList.toggle("above", !below);
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
    if (shownAt !== at) {
      shownAt = at;
      target.scrollIntoView({ block: "center" }); // (not at an edge, where the docked hand would cover it)
      if (!step.wait.length) next.focus({ preventScroll: true });
      else guide.focus({ preventScroll: true });
    }
    place(target);
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
  new MutationObserver(soon).observe(page || document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-seq"] });
  if (window.ResizeObserver) new ResizeObserver(soon).observe(page || document.body); // (a board that grows moves its parts)
  window.addEventListener("resize", render);
  window.addEventListener("scroll", function () { if (pointed && !guide.hidden) place(pointed); }, { passive: true });
  render();
})();
