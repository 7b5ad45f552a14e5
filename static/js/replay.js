// Replay: the left and right arrow keys (and Home, End) step through the game with the page's own links.
document.addEventListener("keydown", function (evt) {
  if (evt.altKey || evt.ctrlKey || evt.metaKey) return;
  var target = evt.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
  var link = document.querySelector('#replay-step a[data-key="' + evt.key + '"]:not(.disabled)');
  if (!link) return;
  evt.preventDefault();
  link.click();
});
