"use strict";
// The review's analysis, fetched once the page is shown (the strongest bot goes through
// the whole game on the server, once per game): the marks of the move list, the
// decision of this move with its options, the summary and the plot by move number.
(() => {
  const section = document.getElementById("analysis");
  if (!section) return;
  const lang = document.documentElement.lang || "";
  const move = section.dataset.move;
  const query = new URLSearchParams({ move });
  if (lang) query.set("lang", lang);

  function markMoves(marks) {
    for (const [number, [mark, words]] of Object.entries(marks)) {
      const item = document.querySelector(`.moves li[data-move="${number}"] a`);
      if (!item || item.querySelector(".mark")) continue;
      const badge = document.createElement("span");
      badge.className = `mark mark-${mark.length}`;
      badge.textContent = mark;
      badge.title = words;
      const said = document.createElement("span");
      said.className = "sr-only";
      said.textContent = ` (${words})`;
      item.append(" ", badge, said);
    }
  }

  function plotClicks(svg) {
    // A click anywhere on the plot goes to the nearest move.
    svg.addEventListener("click", (event) => {
      if (event.target.closest("a")) return;
      const box = svg.getBoundingClientRect();
      const scale = svg.viewBox.baseVal.width / box.width;
      const x = (event.clientX - box.left) * scale;
      const left = Number(svg.dataset.left);
      const right = Number(svg.dataset.right);
      const moves = Number(svg.dataset.moves);
      if (!moves || right <= left) return;
      const number = Math.round(1 + ((x - left) / (right - left)) * (moves - 1));
      location.assign(`?move=${Math.min(Math.max(number, 1), moves)}`);
    });
  }

  fetch(`/r/${section.dataset.room}/analysis?${query}`)
    .then((answer) => answer.text())
    .then((html) => {
      const parts = document.createElement("template");
      parts.innerHTML = html;
      const marks = parts.content.querySelector('[data-part="marks"]');
      const decision = parts.content.querySelector('[data-part="decision"]');
      const summary = parts.content.querySelector('[data-part="summary"]');
      if (!summary) {
        // a message instead of an analysis (a game without one)
        section.replaceChildren(...parts.content.childNodes);
        document.getElementById("decision-wait")?.remove();
        return;
      }
      if (marks) markMoves(JSON.parse(marks.dataset.marks || "{}"));
      document.getElementById("analysis-wait")?.remove();
      section.append(...summary.childNodes);
      const svg = section.querySelector(".analysis-plot > svg");
      if (svg) plotClicks(svg);
      const place = document.getElementById("decision");
      if (place && decision) {
        document.getElementById("decision-wait")?.remove();
        place.append(...decision.childNodes);
        document.dispatchEvent(new CustomEvent("hraj:decision"));
      }
    })
    .catch(() => {
      section.hidden = true;
    });
})();
