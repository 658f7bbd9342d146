"use strict";
// The analysis section of a finished game's replay, fetched once the page is shown
// (the strongest bot goes through the whole game on the server).
(() => {
  const section = document.getElementById("analysis");
  if (!section) return;
  const lang = document.documentElement.lang || "";
  fetch(`/r/${section.dataset.room}/analysis${lang ? `?lang=${encodeURIComponent(lang)}` : ""}`)
    .then((answer) => answer.text())
    .then((html) => {
      section.innerHTML = html;
    })
    .catch(() => {
      section.hidden = true;
    });
})();
