"use strict";
// The review's rollout of one decision: start it, follow its progress bar, stop it,
// show the kept result (the server keeps it, so a second look is free).
(() => {
  const room = document.getElementById("replay")?.dataset.room;
  const lang = document.documentElement.lang || "";

  function wire(box) {
    const move = box.dataset.move;
    const start = box.querySelector(".rollout-start");
    const stop = box.querySelector(".rollout-cancel");
    const bar = box.querySelector(".rollout-progress");
    const status = box.querySelector(".rollout-status");
    const result = box.querySelector(".rollout-result");
    const url = `/r/${room}/rollout?move=${move}${lang ? `&lang=${encodeURIComponent(lang)}` : ""}`;
    let timer = null;

    function show(answer) {
      if (answer.status === "running") {
        bar.hidden = false;
        stop.hidden = false;
        start.disabled = true;
        bar.max = answer.total;
        bar.value = answer.done;
        status.textContent = `${answer.done} / ${answer.total}`;
        timer = setTimeout(poll, 500);
        return;
      }
      clearTimeout(timer);
      bar.hidden = true;
      stop.hidden = true;
      start.disabled = false;
      status.textContent = answer.text || "";
      if (answer.status === "done") {
        result.innerHTML = answer.html;
        start.hidden = true;
      }
    }

    function poll() {
      fetch(url).then((answer) => answer.json()).then(show).catch(() => {});
    }

    start.addEventListener("click", () => {
      fetch(url, { method: "POST" }).then((answer) => answer.json()).then(show).catch(() => {});
    });
    stop.addEventListener("click", () => {
      fetch(url, { method: "DELETE" }).then(() => show({ status: "none" })).catch(() => {});
    });
    poll(); // a kept rollout shows at once, a running one goes on showing its progress
  }

  function wireAll() {
    if (!room) return;
    for (const box of document.querySelectorAll(".rollout:not([data-wired])")) {
      box.dataset.wired = "1";
      wire(box);
    }
  }
  document.addEventListener("hraj:decision", wireAll);
  wireAll();
})();
