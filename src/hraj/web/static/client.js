"use strict";
// A room: keeps the WebSocket, re-fetches the table of the seat on turn whenever the
// version changes, and sends clicks as actions. It never decides legality: it only
// offers what the server rendered from the seat's legal actions. Moves made in a row
// (bots') are shown one by one, each for a moment, with what changed marked.
(() => {
  const { tr, rooms, board } = window.hraj;
  const root = document.getElementById("room");
  const ROOM = root.dataset.room;
  const GAME = root.dataset.game;
  const LANG = root.dataset.lang;
  const HIDDEN_HANDS = root.dataset.hiddenHands === "1";
  const tableBox = document.getElementById("table");
  // The hint button (hints.js) sits where a game's table asks for it (`data-hint-slot`).
  const hintBox = document.getElementById("hint-box");
  const WIDE = window.matchMedia("(min-width: 601px)");
  const errorBox = document.getElementById("action-error");
  const noteBox = document.getElementById("room-note");
  const status = document.getElementById("connection");
  const SEND_ATTEMPTS = 4; // a move whose answer is lost is sent again, with its id, this many times in all

  // How long each of several moves in a row stays on screen (ms): the server's setting,
  // or this browser's own choice in localStorage (`hraj.stepMs`); 0 shows the newest at once.
  const STEP_MS = (() => {
    const own = Number(localStorage.getItem("hraj.stepMs") ?? NaN);
    return Number.isFinite(own) && own >= 0 ? own : Number(root.dataset.stepMs || 0);
  })();

  let wasActing = false; // the last swap follows this page's own click or key
  let keepFocus = false; // the focus was on the board: it stays there through re-renders
  document.addEventListener("focusin", (event) => {
    keepFocus = tableBox.contains(event.target);
  });
  let mine = rooms.get(ROOM);
  let toAct = [];
  let seats = [];
  // The page arrives with the spectator's table of its version in it.
  const first = tableBox.querySelector(".table");
  let shownSeat = null;
  let shownVersion = first ? Number(first.dataset.version) : -1;
  let latest = shownVersion; // the newest version the server announced
  let heard = []; // versions announced by the socket, each a state worth showing
  let nav = "";
  let busy = false;
  let handedTo = null;
  if (first) toAct = first.dataset.toAct ? first.dataset.toAct.split(",").map(Number) : [];

  const tokens = () => (mine && mine.tokens) || {};
  const localSeats = () => Object.keys(tokens()).map(Number).sort((a, b) => a - b);

  function note(text) {
    noteBox.textContent = text || "";
    noteBox.hidden = !text;
  }

  function showError(text) {
    errorBox.textContent = text || "";
    errorBox.hidden = !text;
  }

  function setStatus(state) {
    status.dataset.state = state;
    status.textContent = tr({ open: "connected", connecting: "connecting…", closed: "offline, reconnecting…" }[state]);
  }

  function pickSeat() {
    const local = localSeats();
    const onTurn = local.find((seat) => toAct.includes(seat));
    if (onTurn !== undefined) return onTurn;
    if (shownSeat !== null && local.includes(shownSeat)) return shownSeat;
    return local.length ? local[0] : null;
  }

  function showInvite() {
    // The invite link matters while a person's seat is still free.
    const free = seats.some((seat) => seat.kind === "person" && !seat.claimed);
    document.getElementById("invite-box").hidden = !(mine && mine.invite && free);
  }

  function seatName(seat) {
    const info = seats.find((s) => s.seat === seat);
    if (info && info.name) return info.name;
    return tr("Player {number}", { number: seat + 1 });
  }

  // --- the table -------------------------------------------------------------------------

  let fetching = false;
  let again = false;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  function announce(version) {
    if (typeof version !== "number") return;
    latest = Math.max(latest, version);
    if (version > shownVersion && !heard.includes(version)) heard.push(version);
    heard.sort((a, b) => a - b);
  }

  // The next version to show on the way to the newest, when moves are stepped through:
  // each one the socket announced, in turn, for the same seat's eyes, never while a play
  // is being built. Undefined: fetch the newest at once.
  function nextStep() {
    if (STEP_MS <= 0 || nav || shownVersion < 0) return undefined;
    const local = localSeats();
    if (shownSeat === null ? local.length : !local.includes(shownSeat)) return undefined;
    return heard.find((version) => version > shownVersion);
  }

  let shownAt = 0; // when the last step went on screen (performance.now())

  async function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      do {
        again = false;
        const step = nextStep();
        if (step !== undefined) {
          const wait = shownAt + STEP_MS - performance.now();
          if (wait > 0) await sleep(wait);
        }
        const seat = step === undefined ? pickSeat() : shownSeat;
        const headers = seat === null ? {} : { authorization: `Bearer ${tokens()[seat]}` };
        const query = `lang=${LANG}` + (step !== undefined ? `&at=${step}` : nav ? `&${nav}` : "");
        const response = await fetch(`/r/${ROOM}/table?${query}`, { headers, cache: "no-store" });
        if (!response.ok) break;
        // A version before the newest is a moment gone: shown, but nothing to click in it.
        if (!swap(await response.text(), seat, step !== undefined && step < latest)) break;
        heard = heard.filter((version) => version > shownVersion);
        if (step !== undefined) shownAt = performance.now();
        if (shownVersion < latest || nextStep() !== undefined) again = true;
      } while (again);
    } catch (error) {
      again = false;
    } finally {
      fetching = false;
    }
  }

  function focusKey(element) {
    if (!element || !tableBox.contains(element)) return null;
    for (const name of ["key", "action", "nav", "pick"]) {
      if (element.dataset && element.dataset[name] !== undefined) return `[data-${name}="${CSS.escape(element.dataset[name])}"]`;
    }
    return null;
  }

  function swap(html, seat, past) {
    const holder = document.createElement("template");
    holder.innerHTML = html.trim();
    const table = holder.content.querySelector(".table");
    if (!table) return false;
    const version = Number(table.dataset.version);
    if (version < shownVersion) return false;
    if (version > shownVersion && nav) {
      nav = "";
      again = true;
    }
    const focused = focusKey(document.activeElement);
    const active = document.activeElement;
    const onBoard = tableBox.contains(active) || active === document.body || active === null;
    const old = tableBox.querySelector(".table");
    const asking = tableBox.querySelector(".ask [data-action]");
    const previous = shownSeat;
    // What changed since the table shown before, seen by the same seat, is marked.
    board.mark(old, table, previous === seat, version === shownVersion);
    if (hintBox) tableBox.after(hintBox); // home again before the old table goes
    tableBox.replaceChildren(table);
    // Under the dice where the game puts it, on a wide screen; on a phone below the table,
    // where it pushes none of the board out of the first screen.
    const hintSlot = table.querySelector("[data-hint-slot]");
    if (hintBox && hintSlot && WIDE.matches) hintSlot.append(hintBox);
    board.fit(table);
    shownVersion = version;
    shownSeat = seat;
    if (!past) {
      toAct = table.dataset.toAct ? table.dataset.toAct.split(",").map(Number) : [];
      if (pickSeat() !== seat) again = true;
    }
    board.turn(table.dataset.myTurn === "1");
    if (HIDDEN_HANDS && localSeats().length > 1 && seat !== null && previous !== null && seat !== previous) {
      handedTo = seat;
    }
    document.getElementById("handover").hidden = handedTo === null;
    tableBox.hidden = handedTo !== null;
    if (handedTo !== null) {
      document.getElementById("handover-text").textContent = tr("Pass the screen to {name}.", { name: seatName(handedTo) });
    }
    board.rove(table, focused);
    // The focus stays on the board: on the same point, cell or card when it is still
    // there, else on the board's current item, never on the page's body.
    if (onBoard && (keepFocus || wasActing) && !tableBox.hidden) {
      board.refocus(table, focused);
      keepFocus = true;
    }
    wasActing = false;
    // A warning still open stays while the move it warns of is still offered.
    const warned = asking && table.querySelector(`[data-confirm][data-action="${CSS.escape(asking.dataset.action)}"]`);
    if (warned) ask(warned);
    root.dataset.over = table.dataset.over;
    for (const button of table.querySelectorAll("[data-seat-bot]")) button.hidden = !(mine && mine.host);
    for (const button of table.querySelectorAll("[data-seat-back]")) button.hidden = !tokens()[button.dataset.seatBack];
    return true;
  }

  document.getElementById("handover-go").addEventListener("click", () => {
    handedTo = null;
    document.getElementById("handover").hidden = true;
    tableBox.hidden = false;
  });

  // --- actions ---------------------------------------------------------------------------

  // Every move carries an id of its own: sent again with it (after a lost answer or a
  // dropped connection), the server applies it at most once and answers as the first time.
  function actionId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function post(action, seat, id) {
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await fetch(`/api/rooms/${ROOM}/actions?lang=${LANG}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${tokens()[seat]}` },
          body: JSON.stringify({ action, id }),
        });
        // 503: not stored (the store failed); anything else is the server's answer.
        if (response.status !== 503 || attempt >= SEND_ATTEMPTS) return response;
      } catch (error) {
        // No answer: stored or not, sending it again with its id is safe.
        if (attempt >= SEND_ATTEMPTS) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 400 * 2 ** attempt));
    }
  }

  async function send(action) {
    const seat = shownSeat;
    if (busy || seat === null || !tokens()[seat]) return;
    busy = true;
    tableBox.classList.add("busy");
    try {
      const response = await post(action, seat, actionId());
      if (response.ok) {
        showError("");
        board.moved();
        announce((await response.json().catch(() => ({}))).version);
      } else {
        const body = await response.json().catch(() => ({}));
        showError(body.text || body.message || String(response.status));
      }
    } catch (error) {
      showError(tr("Something went wrong: {message}", { message: error.message }));
    } finally {
      busy = false;
      tableBox.classList.remove("busy");
    }
    nav = "";
    refresh();
  }

  function composed(box) {
    const picked = [...box.querySelectorAll("[data-pick][aria-pressed=true]")];
    picked.sort((a, b) => Number(a.dataset.order) - Number(b.dataset.order));
    return box.dataset.compose + picked.map((el) => el.dataset.pick).join(box.dataset.join);
  }

  function legal() {
    const table = tableBox.querySelector(".table");
    return table ? JSON.parse(table.dataset.legal || "[]") : [];
  }

  async function seatCommand(path, token, body) {
    const response = await fetch(`/api/rooms/${ROOM}/seats/${path}?lang=${LANG}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (!response.ok) {
      const answer = await response.json().catch(() => ({}));
      showError(answer.text || answer.message || String(response.status));
    }
    refresh();
  }

  // An action the rules make costly (a misthrow) asks first, in a warning on the table.
  function ask(button) {
    closeAsk(false);
    const box = document.createElement("div");
    box.className = "ask notice warning";
    box.setAttribute("role", "alertdialog");
    box.setAttribute("aria-modal", "false");
    const text = document.createElement("p");
    text.id = "ask-text";
    text.textContent = button.dataset.confirm;
    box.setAttribute("aria-labelledby", text.id);
    const yes = document.createElement("button");
    yes.type = "button";
    yes.className = "button danger";
    yes.dataset.action = button.dataset.action;
    yes.textContent = button.dataset.confirmYes;
    const no = document.createElement("button");
    no.type = "button";
    no.className = "button";
    no.dataset.askBack = "";
    no.textContent = button.dataset.confirmBack;
    const row = document.createElement("div");
    row.className = "actions";
    row.append(yes, no);
    box.append(text, row);
    (button.closest(".actions") || button.parentElement).after(box);
    no.focus({ preventScroll: true });
    box.scrollIntoView({ block: "nearest" });
    return null;
  }

  function closeAsk(refocus) {
    const box = tableBox.querySelector(".ask");
    if (!box) return null;
    box.remove();
    if (refocus) board.refocus(tableBox.querySelector(".table"), null);
    return null;
  }

  function activate(target) {
    wasActing = true;
    const standIn = target.closest("[data-seat-bot]");
    if (standIn && mine && mine.host) {
      return seatCommand(`${standIn.dataset.seatBot}/bot`, mine.host, { bot: standIn.dataset.bot });
    }
    const back = target.closest("[data-seat-back]");
    if (back && tokens()[back.dataset.seatBack]) {
      return seatCommand(`${back.dataset.seatBack}/back`, tokens()[back.dataset.seatBack], {});
    }
    if (target.closest("[data-ask-back]")) return closeAsk(true);
    const actionEl = target.closest("[data-action]");
    if (actionEl && actionEl.dataset.confirm && !actionEl.closest(".ask")) return ask(actionEl);
    if (actionEl) return send(actionEl.dataset.action);
    const navEl = target.closest("[data-nav]");
    if (navEl) {
      nav = navEl.dataset.nav;
      return refresh();
    }
    const pick = target.closest("[data-pick]");
    if (pick) {
      pick.setAttribute("aria-pressed", pick.getAttribute("aria-pressed") === "true" ? "false" : "true");
      const box = pick.closest(".compose");
      const submit = box.querySelector("[data-compose-submit]") || tableBox.querySelector("[data-compose-submit]");
      if (submit) submit.disabled = !legal().includes(composed(box));
      return null;
    }
    const submit = target.closest("[data-compose-submit]");
    if (submit) {
      const box = submit.closest(".compose") || tableBox.querySelector(".compose");
      const action = composed(box);
      if (legal().includes(action)) return send(action);
    }
    return null;
  }

  tableBox.addEventListener("click", (event) => {
    // Board points where a move can start react to the press itself (see below).
    if (event.target.closest("a, .origin")) return;
    activate(event.target);
  });

  // Dragging on the board: pressing a checker selects it, releasing over a highlighted
  // point moves it there; a press and release in place is a plain click.
  let drag = null;
  tableBox.addEventListener("pointerdown", (event) => {
    const origin = event.target.closest(".origin[data-nav]");
    if (!origin || event.button > 0) return;
    nav = origin.dataset.nav;
    drag = { key: origin.dataset.key, ready: refresh() };
  });
  document.addEventListener("pointerup", async (event) => {
    if (!drag) return;
    const pressed = drag;
    drag = null;
    const over = document.elementFromPoint(event.clientX, event.clientY);
    const place = over && over.closest("[data-key]");
    if (!place || place.dataset.key === pressed.key) return;
    await pressed.ready;
    const target = tableBox.querySelector(`[data-key="${place.dataset.key}"].target[data-nav]`);
    if (target) {
      nav = target.dataset.nav;
      refresh();
    }
  });
  tableBox.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target.matches("[role=button]:not(button)")) {
      event.preventDefault();
      activate(event.target);
      return;
    }
    // Arrow keys move between the points, cells and cards of the board.
    if (board.arrow(event)) event.preventDefault();
  });

  // --- the socket ------------------------------------------------------------------------

  let delay = 500;
  const CLOSE_TOO_MANY = 4429;
  const OVER_LIMIT_WAIT_MS = 11000;

  function connect() {
    setStatus("connecting");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/rooms/${ROOM}`);
    const local = localSeats();
    socket.addEventListener("open", () => {
      const since = shownVersion >= 0 ? shownVersion : null;
      socket.send(JSON.stringify({ type: "hello", token: local.length ? tokens()[local[0]] : null, lang: LANG, since }));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      document.dispatchEvent(new CustomEvent("hraj:socket", { detail: message })); // chat, rematch: room-social.js
      if (message.type === "welcome") {
        delay = 500;
        seats = message.seats || [];
        showInvite();
        setStatus("open");
        latest = Math.max(latest, message.version);
        // The table on the page is the spectator's: a seat of this browser needs its own
        // (one fetch); a spectator needs none until the version moves on.
        if (pickSeat() !== shownSeat || latest > shownVersion) refresh();
      } else if (message.type === "state") {
        toAct = message.view && !message.view.outcome ? message.view.to_act || [] : [];
        announce(message.version);
        if (message.version > shownVersion) refresh();
      } else if (message.type === "seats") {
        seats = message.seats || [];
        showInvite();
        refresh();
      } else if (message.type === "error" && message.code === "unauthorized") {
        mine = null;
        note(tr("You are watching this game."));
      }
    });
    socket.addEventListener("close", (event) => {
      setStatus("closed");
      // 4429: over a limit of the server, which refuses this address for a while.
      setTimeout(connect, event.code === CLOSE_TOO_MANY ? OVER_LIMIT_WAIT_MS : delay);
      delay = Math.min(delay * 2, 8000);
    });
  }

  function keepInvite() {
    // A seated player who opens the invite again keeps it to show to friends; a
    // newcomer chooses a name and takes a seat in the join panel (room-social.js).
    const invite = new URL(location.href).searchParams.get("invite");
    if (!invite || !(mine && localSeats().length)) return;
    history.replaceState(null, "", location.pathname);
    if (!mine.invite) rooms.put(ROOM, { ...mine, invite });
  }

  async function start() {
    keepInvite();
    mine = rooms.get(ROOM);
    if (mine && mine.invite) {
      document.getElementById("invite-link").value = `${location.origin}/r/${ROOM}?invite=${mine.invite}`;
    }
    if (!localSeats().length && noteBox.hidden) note(tr("You are watching this game."));
    connect();
  }

  document.getElementById("copy-invite").addEventListener("click", async () => {
    const input = document.getElementById("invite-link");
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (error) {
      document.execCommand("copy");
    }
    document.getElementById("copy-invite").textContent = tr("Copied");
  });

  start();
})();
