"use strict";
// "Hrát hned": seek a game (its options, rated or not) through the JSON API, renew the
// seek every two seconds while waiting (a seek that is not renewed is gone), offer the
// bot level the server proposes after a while (the one rated nearest the seeker), and
// open the room once paired, keeping the seat's token like any other.
(() => {
  const { tr, rooms, jsonHeaders } = window.hraj;
  const $ = (id) => document.getElementById(id);
  const form = $("seek-form");
  const RENEW_MS = 2000;
  let seek = null;
  let timer = 0;

  function options() {
    const game = $("seek-game").value;
    document.querySelectorAll(".seek-game-options").forEach((box) => (box.hidden = box.dataset.game !== game));
    return document.querySelector(`.seek-game-options[data-game="${game}"]`);
  }

  function fail(text) {
    $("seek-error").textContent = tr("Something went wrong: {message}", { message: text });
    $("seek-error").hidden = false;
  }

  async function call(path, init = {}) {
    const answer = await fetch(path, { ...init, headers: { ...jsonHeaders(), ...(init.headers || {}) } });
    const body = await answer.json().catch(() => ({}));
    if (!answer.ok) throw new Error(body.text || body.message || String(answer.status));
    return body;
  }

  function paired(answer) {
    seek = null;
    clearTimeout(timer);
    $("seek-status").textContent = tr("Paired! Opening the game…");
    rooms.put(answer.room, { game: $("seek-game").value, tokens: { [answer.seat]: answer.token }, at: Date.now() });
    location.assign(`/r/${answer.room}`);
  }

  function show(answer) {
    if (answer.state === "paired") return paired(answer);
    $("seek-status").textContent = tr("Waiting for an opponent… {seconds} s", { seconds: Math.round(answer.waited) });
    if (answer.bot) {
      // The level as the seat picker names it, with its rating: "Pokročilý ≈ 1 550".
      const [label] = JSON.parse(options().dataset.bots)[answer.bot] || [answer.bot];
      $("seek-bot").hidden = false;
      $("seek-bot").dataset.bot = answer.bot;
      $("seek-status").textContent += " " + tr("Nobody of a similar rating is waiting. Play against {bot} instead?", { bot: label });
    }
    timer = setTimeout(renew, RENEW_MS);
  }

  async function renew() {
    if (!seek) return;
    try {
      show(await call(`/api/seeks/${seek.seek}`, { headers: { authorization: `Bearer ${seek.secret}` } }));
    } catch (error) {
      fail(error.message);
    }
  }

  function stop() {
    if (!seek) return;
    const body = new Blob([JSON.stringify({ secret: seek.secret })], { type: "application/json" });
    navigator.sendBeacon(`/api/seeks/${seek.seek}/cancel`, body);
    seek = null;
    clearTimeout(timer);
  }

  $("seek-game").addEventListener("change", options);
  options();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const box = options();
    const clock = box.querySelector("[name=clock]").value;
    const name = $("seek-name").value.trim();
    const chosen = {};
    for (const input of box.querySelectorAll("[data-option]")) {
      const value = input.dataset.bool ? input.checked : input.dataset.int ? Number(input.value) : input.value;
      chosen[input.dataset.option] = value;
    }
    const body = {
      game: $("seek-game").value,
      options: chosen,
      players: Number(box.querySelector("[name=players]").value),
      rated: $("seek-rated").checked,
    };
    if (clock) body.clock = clock;
    if (name) body.name = name;
    try {
      seek = await call("/api/seeks", { method: "POST", body: JSON.stringify(body) });
      form.hidden = true;
      $("seek-wait").hidden = false;
      show(seek);
    } catch (error) {
      fail(error.message);
    }
  });
  $("seek-bot").addEventListener("click", async () => {
    if (!seek) return;
    try {
      paired(await call(`/api/seeks/${seek.seek}/bot`, { method: "POST", headers: { authorization: `Bearer ${seek.secret}` } }));
    } catch (error) {
      fail(error.message);
    }
  });
  $("seek-stop").addEventListener("click", () => {
    stop();
    form.hidden = false;
    $("seek-wait").hidden = true;
  });
  // A seek disappears with its page: cancelled now, and in any case no longer renewed.
  window.addEventListener("pagehide", stop);
})();
