"use strict";
// The start page: pick a game and who sits where, create the room, keep the seat tokens.
(() => {
  const { tr, rooms, jsonHeaders } = window.hraj;
  const lang = document.documentElement.lang;
  const form = document.getElementById("new-room");
  const template = document.getElementById("seat-row");
  const errorBox = document.getElementById("start-error");

  const chosenGame = () => form.querySelector("input[name=game]:checked").value;
  const setupOf = (game) => form.querySelector(`.game-setup[data-game="${game}"]`);
  const playersOf = (setup) => {
    const select = setup.querySelector("[data-option=players]");
    return select ? Number(select.value) : Number(setup.querySelector("[data-players-fixed]").dataset.playersFixed);
  };
  const botLabel = (name) => tr(name.charAt(0).toUpperCase() + name.slice(1));

  function drawSeats() {
    const game = chosenGame();
    for (const setup of form.querySelectorAll(".game-setup")) setup.hidden = setup.dataset.game !== game;
    const setup = setupOf(game);
    const list = setup.querySelector(".seat-list");
    const bots = setup.dataset.bots.split(",");
    const count = playersOf(setup);
    while (list.children.length > count) list.lastElementChild.remove();
    while (list.children.length < count) {
      const row = template.content.firstElementChild.cloneNode(true);
      const botSelect = row.querySelector(".seat-bot");
      const levels = JSON.parse(setup.dataset.botLevels || "{}"); // bot -> [level, what it does]
      for (const bot of bots) {
        const option = new Option(levels[bot] ? levels[bot][0] : botLabel(bot), bot);
        if (levels[bot]) option.title = levels[bot][1];
        botSelect.append(option);
      }
      botSelect.value = setup.dataset.defaultBot || bots[0];
      row.querySelector(".seat-kind").value = list.children.length === 0 ? "me" : "bot";
      list.append(row);
    }
    for (const row of list.children) {
      const kind = row.querySelector(".seat-kind").value;
      row.querySelector(".seat-bot").hidden = kind !== "bot";
      row.querySelector(".seat-name").hidden = kind !== "me" && kind !== "here";
      row.querySelector(".seat-gender").hidden = kind !== "me" && kind !== "here";
    }
  }

  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = !text;
  }

  async function post(url, body) {
    const response = await fetch(`${url}?lang=${lang}`, {
      method: "POST",
      headers: jsonHeaders(),
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.text || answer.message || String(response.status));
    return answer;
  }

  form.addEventListener("change", drawSeats);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    const game = chosenGame();
    const setup = setupOf(game);
    const options = {};
    for (const input of setup.querySelectorAll("[data-option]")) {
      const name = input.dataset.option;
      if (name === "players") continue;
      options[name] = input.dataset.bool ? input.checked : input.dataset.int ? Number(input.value) : input.value;
    }
    const rows = [...setup.querySelectorAll(".seat-row")];
    const kinds = rows.map((row) => row.querySelector(".seat-kind").value);
    if (kinds.filter((kind) => kind === "me").length > 1) {
      showError(tr("Choose at most one seat for yourself."));
      return;
    }
    // The grammatical gender a person gives with the name words the log ("Eva zapsala").
    const genderOf = (row) => row.querySelector(".seat-gender").value || null;
    const seats = rows.map((row, index) => {
      const name = row.querySelector(".seat-name").value.trim() || null;
      if (kinds[index] === "bot") return { kind: "bot", bot: row.querySelector(".seat-bot").value };
      return kinds[index] === "me" ? { kind: "person", name, gender: genderOf(row) } : { kind: "person", name: null };
    });
    const me = kinds.indexOf("me");
    const button = document.getElementById("start-button");
    button.disabled = true;
    try {
      // hints: at one screen or against bots always; with friends through a link only if allowed for all
      const allowed = document.getElementById("hints-allowed");
      const hints = kinds.every((kind) => kind !== "friend") || Boolean(allowed && allowed.checked);
      const listed = document.getElementById("public-room").checked;
      const rated = document.getElementById("rated-room").checked;
      const body = { game, options, seats, hints, claim: me >= 0 ? me : null, public: listed, rated };
      const clock = setup.querySelector("[data-clock]");
      if (clock && clock.value) body.clock = clock.value;
      const room = await post("/api/rooms", body);
      const tokens = {};
      if (room.token) tokens[room.seat] = room.token;
      for (const [index, kind] of kinds.entries()) {
        if (kind !== "here") continue;
        const name = rows[index].querySelector(".seat-name").value.trim() || null;
        const gender = genderOf(rows[index]);
        const claimed = await post(`/api/rooms/${room.room}/claim`, { invite: room.invite, seat: index, name, gender });
        tokens[claimed.seat] = claimed.token;
      }
      rooms.put(room.room, { game, tokens, invite: room.invite, host: room.host_token, at: Date.now() });
      location.assign(`/r/${room.room}`);
    } catch (error) {
      showError(tr("Something went wrong: {message}", { message: error.message }));
      button.disabled = false;
    }
  });

  document.getElementById("join-room").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = document.getElementById("join-link").value.trim();
    const watch = event.submitter && event.submitter.value === "watch";
    let target;
    try {
      const url = new URL(text, location.origin);
      target = url.pathname.startsWith("/r/") ? url.pathname + (watch ? "" : url.search) : `/r/${encodeURIComponent(text)}`;
    } catch (error) {
      target = `/r/${encodeURIComponent(text)}`;
    }
    // Joining asks the room for a free seat (the room page says why when there is none).
    if (!watch && !target.includes("invite=")) target += (target.includes("?") ? "&" : "?") + "join=1";
    location.assign(target);
  });

  const recent = Object.entries(rooms.all()).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 8);
  if (recent.length) {
    const list = document.getElementById("recent-list");
    for (const [id, room] of recent) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/r/${id}`;
      link.textContent = `${room.game || ""} · ${id}`;
      item.append(link);
      list.append(item);
    }
    document.getElementById("recent").hidden = false;
  }
  drawSeats();
})();
