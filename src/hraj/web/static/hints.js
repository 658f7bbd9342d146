"use strict";
// The hint button of a room (and the key H): the options of this browser's seat whose
// turn it is, ranked by the strongest bot. Shown only where the room allows hints.
(() => {
  const root = document.getElementById("room");
  const box = document.getElementById("hint-box");
  if (!root || !box) return;
  const id = root.dataset.room;
  const button = document.getElementById("hint-button");
  const result = document.getElementById("hint-result");
  const note = document.getElementById("hint-note");
  const tokens = () => ((window.hraj && window.hraj.rooms.get(id)) || {}).tokens || {};
  let allowed = false;
  let asking = false;

  async function load() {
    try {
      const answer = await fetch(`/api/rooms/${id}`);
      if (!answer.ok) return;
      const info = await answer.json();
      allowed = Boolean(info.hints);
      const people = info.seats.filter((seat) => seat.kind === "person").length;
      note.hidden = !(allowed && people > 1);
      box.hidden = !(allowed && Object.keys(tokens()).length && info.status !== "over");
    } catch (error) {
      box.hidden = true;
    }
  }

  async function ask() {
    if (!allowed || asking || box.hidden) return;
    asking = true;
    result.hidden = false;
    result.textContent = box.dataset.wait;
    try {
      const entries = Object.entries(tokens());
      for (const [index, [, token]] of entries.entries()) {
        const answer = await fetch(`/r/${id}/hint`, { headers: { authorization: `Bearer ${token}` } });
        const html = await answer.text();
        if (answer.status === 409 && index < entries.length - 1) continue; // another seat of this screen acts
        result.innerHTML = html;
        break;
      }
    } finally {
      asking = false;
    }
  }

  button.addEventListener("click", ask);
  document.addEventListener("keydown", (event) => {
    if (event.key !== "h" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select")) return;
    ask();
  });
  const table = document.getElementById("table");
  if (table) {
    // a new position makes the old hint wrong
    new MutationObserver(() => {
      result.hidden = true;
      result.textContent = "";
    }).observe(table, { childList: true });
  }
  load();
})();
