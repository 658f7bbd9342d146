"use strict";
// A room among people: taking a free seat under one's own name, the chat, and the rematch.
// The table itself is client.js's; this script hears the socket through its
// "hraj:socket" events and talks to the JSON API. Every text that people typed is put
// in with textContent, never as markup.
(() => {
  const { tr, rooms, jsonHeaders } = window.hraj;
  const root = document.getElementById("room");
  const ROOM = root.dataset.room;
  const GAME = root.dataset.game;
  const LANG = root.dataset.lang;
  const NAME_KEY = "hraj.name";
  const $ = (id) => document.getElementById(id);

  const mine = () => rooms.get(ROOM);
  const tokens = () => (mine() && mine().tokens) || {};
  const seatTokens = () => Object.values(tokens());
  const anyToken = () => seatTokens()[0] || (mine() && mine().host) || null;
  let summary = null;

  function say(box, text) {
    box.textContent = text || "";
    box.hidden = !text;
  }

  async function api(path, { method = "GET", token = null, body = undefined } = {}) {
    const headers = jsonHeaders();
    if (token) headers.authorization = `Bearer ${token}`;
    const url = new URL(`/api/rooms/${ROOM}${path}`, location.origin); // `path` may carry a query of its own
    url.searchParams.set("lang", LANG);
    const response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
    const answer = await response.json().catch(() => ({}));
    return { ok: response.ok, status: response.status, answer };
  }

  const errorText = (answer, status) => answer.text || answer.message || String(status);

  // --- taking a seat -----------------------------------------------------------------------

  async function offerSeat() {
    const url = new URL(location.href);
    const invite = url.searchParams.get("invite");
    const asked = invite !== null || url.searchParams.has("join");
    if (seatTokens().length) return; // seated already (client.js keeps a repeated invite)
    if (asked) history.replaceState(null, "", location.pathname);
    // The server says whether the link's invite is this room's, before any seat is asked for.
    const { ok, answer } = await api(invite !== null ? `?invite=${encodeURIComponent(invite)}` : "");
    if (!ok) return;
    summary = answer;
    const invited = invite !== null && answer.invited === true;
    const free = answer.seats.some((seat) => seat.kind === "person" && !seat.claimed);
    const note = $("room-note");
    if (answer.status !== "playing") return;
    if (free && (invited || answer.public)) {
      say(note, invite !== null && !invited ? tr("This invite link is not this room's; ask for a new one.") : "");
      say($("join-why"), tr(invited ? "You were invited to this game. Write your name and sit down." : "A seat of this game is free. Write your name and sit down, or just watch."));
      $("join-name").value = localStorage.getItem(NAME_KEY) || "";
      $("join-box").hidden = false;
      $("join-box").dataset.invite = invited ? invite : "";
      $("join-name").focus();
    } else if (asked && !free) {
      say(note, tr("Every seat of this room is taken, so you are watching as a spectator."));
    } else if (invite !== null) {
      say(note, tr("This invite link is not this room's; ask for a new one. You are watching as a spectator."));
    } else if (asked) {
      say(note, tr("This room is private: only its invite link gives a seat. You are watching as a spectator."));
    }
  }

  $("join-box").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("join-name").value.trim();
    const invite = $("join-box").dataset.invite || null;
    const body = { name: name || null };
    const gender = $("join-gender").value;
    if (gender) body.gender = gender;
    if (invite) body.invite = invite;
    $("join-take").disabled = true;
    const { ok, status, answer } = await api("/claim", { method: "POST", body });
    $("join-take").disabled = false;
    if (ok) {
      if (name) localStorage.setItem(NAME_KEY, name);
      rooms.put(ROOM, { game: GAME, tokens: { [answer.seat]: answer.token }, invite, at: Date.now() });
      location.replace(`/r/${ROOM}`);
    } else if (answer.code === "seat_taken") {
      $("join-box").hidden = true;
      say($("room-note"), tr("Someone took the last free seat just now, so you are watching as a spectator."));
    } else {
      say($("join-error"), errorText(answer, status));
    }
  });

  $("join-watch").addEventListener("click", () => {
    $("join-box").hidden = true;
    say($("room-note"), tr("You are watching this game."));
  });

  // --- chat --------------------------------------------------------------------------------

  const shown = new Set();

  function seatLabel(line) {
    return line.name || tr("Player {number}", { number: line.seat + 1 });
  }

  function addLine(line) {
    if (shown.has(line.number)) return;
    shown.add(line.number);
    const item = document.createElement("li");
    item.dataset.number = line.number;
    const who = document.createElement("strong");
    who.textContent = `${seatLabel(line)}: `;
    const text = document.createElement("span");
    text.textContent = line.text;
    item.append(who, text);
    const list = $("chat-lines");
    list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  /** The chat's lines and whether this page may write; a failed load (a busy server, a
   * dropped connection) is tried again after 1, 2, 4 and 8 seconds. */
  async function loadChat(attempt = 0) {
    const loaded = await api("/chat").catch(() => ({ ok: false, status: 0, answer: {} }));
    const { ok, status, answer } = loaded;
    if (!ok) {
      if (status !== 404 && attempt < 4) setTimeout(() => loadChat(attempt + 1), 1000 * 2 ** attempt);
      return;
    }
    if (!answer.chat) return;
    $("chat").hidden = false;
    const writer = seatTokens().length > 0;
    $("chat-form").hidden = !writer;
    $("chat-readonly").hidden = writer;
    for (const line of answer.messages) addLine(line);
  }

  $("chat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("chat-text");
    const text = input.value.trim();
    if (!text || !seatTokens().length) return;
    const { ok, status, answer } = await api("/chat", { method: "POST", token: seatTokens()[0], body: { text } });
    if (ok) {
      input.value = "";
      say($("chat-error"), "");
    } else {
      say($("chat-error"), errorText(answer, status));
    }
  });

  // --- rematch -------------------------------------------------------------------------------

  function goTo(next) {
    const here = mine();
    if (here) rooms.put(next, { ...here, at: Date.now() });
    location.assign(`/r/${next}`);
  }

  async function showRematch() {
    if (root.dataset.over !== "1") {
      $("rematch-box").hidden = true;
      return;
    }
    const { ok, answer } = await api("");
    if (!ok) return;
    summary = answer;
    $("rematch-box").hidden = false;
    say(
      $("rematch-rule"),
      tr(answer.rematch_passes_first ? "Same seats and options; the next player starts." : "Same seats and options; the opening roll decides who starts, as the rules say."),
    );
    const player = anyToken() !== null;
    $("rematch-start").hidden = !player || Boolean(answer.rematch);
    if (answer.rematch) rematchReady(answer.rematch);
    else if (player && answer.rematch_votes) showVotes(answer.rematch_votes);
  }

  /** Who accepted the rematch offered (or who declined it), as this browser's players see it. */
  function showVotes(votes) {
    const mineSeats = Object.keys(tokens()).map(Number);
    const start = $("rematch-start");
    const decline = $("rematch-decline");
    if (votes.declined !== null && votes.declined !== undefined) {
      say($("rematch-status"), tr("The rematch was declined."));
      start.textContent = tr("Rematch");
      start.hidden = false;
      decline.hidden = true;
    } else if (!votes.yes.length) {
      say($("rematch-status"), "");
      decline.hidden = true;
    } else if (mineSeats.every((seat) => votes.yes.includes(seat))) {
      say($("rematch-status"), tr("Waiting for the others to accept the rematch."));
      start.hidden = true;
      decline.hidden = true;
    } else {
      say($("rematch-status"), tr("A rematch is offered."));
      start.textContent = tr("Accept the rematch");
      start.hidden = false;
      decline.hidden = false;
    }
  }

  function rematchReady(next) {
    $("rematch-start").hidden = true;
    $("rematch-ready").hidden = false;
    const link = $("rematch-go");
    link.href = `/r/${next}`;
    link.dataset.room = next;
    if (anyToken() === null) link.textContent = tr("Watch the rematch");
  }

  $("rematch-go").addEventListener("click", (event) => {
    event.preventDefault();
    goTo(event.currentTarget.dataset.room);
  });

  $("rematch-start").addEventListener("click", async () => {
    $("rematch-start").disabled = true;
    const { ok, status, answer } = await api("/rematch", { method: "POST", token: anyToken() });
    $("rematch-start").disabled = false;
    if (status === 202) showVotes(answer);
    else if (ok) goTo(answer.room);
    else say($("rematch-error"), errorText(answer, status));
  });

  $("rematch-decline").addEventListener("click", async () => {
    const { ok, status, answer } = await api("/rematch/decline", { method: "POST", token: anyToken() });
    if (ok) showVotes(answer);
    else say($("rematch-error"), errorText(answer, status));
  });

  new MutationObserver(showRematch).observe(root, { attributes: true, attributeFilter: ["data-over"] });

  // --- the socket, through client.js -------------------------------------------------------

  document.addEventListener("hraj:socket", (event) => {
    const message = event.detail;
    if (message.type === "chat") addLine(message);
    else if (message.type === "rematch") rematchReady(message.rematch);
    else if (message.type === "rematch_votes" && anyToken() !== null) showVotes(message);
    else if (message.type === "welcome") loadChat(); // after a reconnection: what was missed
  });

  offerSeat();
  showRematch();
  // The socket may have said welcome before this script ran (deferred scripts can come in
  // after it on a slow line): the chat is loaded now as well, and again at each welcome.
  loadChat();
})();
