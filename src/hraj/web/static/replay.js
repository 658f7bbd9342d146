"use strict";
// The review: the arrow keys step through the moves, Home and End jump to the first
// move and the end; the move list keeps the current move in sight.
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea, button") || event.altKey || event.ctrlKey || event.metaKey) return;
  const keys = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
  const link = keys[event.key] && document.getElementById(keys[event.key]);
  if (link) {
    event.preventDefault();
    location.assign(link.href);
  }
});
(() => {
  const current = document.querySelector('.moves a[aria-current="step"]');
  const list = current?.closest(".moves");
  if (current && list) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
})();
