// The deck editor: catalog entries already in the deck are marked, after every htmx swap too.
(function () {
  "use strict";
  function mark() {
    const inDeck = new Set(Array.prototype.map.call(document.querySelectorAll("#deck-form input[name=cards]"), function (i) { return i.value; }));
    document.querySelectorAll("#catalog-results .cat-item").forEach(function (li) { li.classList.toggle("in-deck", inDeck.has(li.dataset.code)); });
  }
  document.body.addEventListener("htmx:afterSettle", mark);
  mark();
})();
