"use strict";
// Replays: the arrow keys step through the moves.
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea")) return;
  const keys = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
  const link = keys[event.key] && document.getElementById(keys[event.key]);
  if (link) {
    event.preventDefault();
    location.assign(link.href);
  }
});
