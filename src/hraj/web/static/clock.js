"use strict";
// The room's clocks: what each seat has left, counting down smoothly between the
// server's messages. The server is the only judge of time: each message carries what
// every seat had left when it was made (`clock` in welcome, state and seats messages),
// and this page counts down from there by its own clock, so the two machines' clocks
// never need to agree. Near the end of this browser's own time the tab's title shows
// the time left and, if this browser chose sound, a chime sounds once.
(() => {
  const { tr, rooms, board } = window.hraj;
  const root = document.getElementById("room");
  const box = document.getElementById("clocks");
  if (!root || !box) return;
  const ROOM = root.dataset.room;
  const WARN_S = 10; // seconds left when this browser's player is warned
  const BASE_TITLE = document.title;

  let clock = null; // the latest clock view and when it arrived (performance.now())
  let arrived = 0;
  let seats = [];
  let warned = false;
  let frame = 0;

  const mySeats = () => Object.keys((rooms.get(ROOM) || {}).tokens || {}).map(Number);

  function pad(n) {
    return String(n).padStart(2, "0");
  }

  /** A figure as players read one: m:ss, h:mm:ss, or days and hours for a correspondence turn. */
  function figure(seconds) {
    const whole = Math.max(0, Math.ceil(seconds));
    const days = Math.floor(whole / 86400);
    const hours = Math.floor((whole % 86400) / 3600);
    const minutes = Math.floor((whole % 3600) / 60);
    if (days) return tr("{days} d {hours} h", { days, hours });
    if (hours) return `${hours}:${pad(minutes)}:${pad(whole % 60)}`;
    return `${minutes}:${pad(whole % 60)}`;
  }

  /** What a seat has left now: its per-move time first, then its reserve. */
  function left(seat) {
    const elapsed = seat.running ? (performance.now() - arrived) / 1000 : 0;
    const move = Math.max(0, seat.move - elapsed);
    const reserve = Math.max(0, seat.reserve - Math.max(0, elapsed - seat.move));
    return { move, reserve, total: move + reserve };
  }

  function nameOf(number) {
    const seat = seats.find((s) => s.seat === number);
    if (seat && seat.name) return seat.name;
    return tr("Player {number}", { number: number + 1 });
  }

  function render() {
    frame = 0;
    if (!clock) return;
    const mine = mySeats();
    let urgent = null;
    box.querySelectorAll("[data-clock-seat]").forEach((row) => {
      const number = Number(row.dataset.clockSeat);
      const seat = clock.seats[number];
      const time = left(seat);
      row.querySelector(".clock-move").textContent = figure(time.move);
      row.querySelector(".clock-reserve").textContent = figure(time.reserve);
      row.classList.toggle("running", seat.running);
      row.classList.toggle("low", seat.running && time.total <= WARN_S);
      if (seat.running && mine.includes(number) && (urgent === null || time.total < urgent)) urgent = time.total;
    });
    if (urgent !== null && urgent <= WARN_S) {
      document.title = tr("⏰ {time} left – {title}", { time: figure(urgent), title: BASE_TITLE });
      if (!warned) {
        warned = true;
        if (localStorage.getItem("hraj.sound") === "on") board.chime();
      }
    } else if (warned) {
      warned = false;
      document.title = BASE_TITLE;
    }
    if (clock.seats.some((seat) => seat.running)) schedule();
  }

  function schedule() {
    // About ten times a second is smooth for a display of whole seconds.
    if (!frame) frame = setTimeout(() => requestAnimationFrame(render), 100);
  }

  /** A correspondence game offers reminders by Web Push to a player of this browser. */
  let offered = false;
  function offerPush() {
    const offer = document.getElementById("push-box");
    const button = document.getElementById("push-enable");
    const note = document.getElementById("push-note");
    if (offered || !offer || !window.hrajPush || !window.hrajPush.supported() || !mySeats().length) return;
    if (clock.control.kind !== "correspondence") return;
    offered = true;
    offer.hidden = false;
    const lang = root.dataset.lang;
    if (localStorage.getItem("hraj.push") === "on") {
      button.hidden = true;
      note.textContent = tr("You will be reminded when it is your turn.");
      window.hrajPush.refresh(lang).catch(() => {});
      return;
    }
    button.addEventListener("click", async () => {
      try {
        await window.hrajPush.enable(lang);
        button.hidden = true;
        note.textContent = tr("You will be reminded when it is your turn.");
      } catch (error) {
        note.textContent =
          error.message === "denied"
            ? tr("The browser does not allow notifications for this site.")
            : tr("Reminders cannot be set up in this browser.");
      }
    });
  }

  function build() {
    box.replaceChildren();
    const heading = document.createElement("h2");
    heading.className = "sr-only";
    heading.textContent = tr("Clocks");
    box.append(heading);
    clock.seats.forEach((seat, number) => {
      const row = document.createElement("div");
      row.className = "clock";
      row.dataset.clockSeat = String(number);
      const who = document.createElement("span");
      who.className = "clock-name";
      who.textContent = nameOf(number);
      const move = document.createElement("span");
      move.className = "clock-move";
      move.title = tr("time for this move");
      const reserve = document.createElement("span");
      reserve.className = "clock-reserve";
      reserve.title = tr("reserve");
      row.append(who, move, document.createTextNode(" + "), reserve);
      box.append(row);
    });
    box.hidden = false;
  }

  document.addEventListener("hraj:socket", (event) => {
    const message = event.detail;
    if (message.seats) seats = message.seats;
    if (message.type === "timeout") {
      const note = document.getElementById("time-note");
      note.textContent = tr("Time ran out for {name}: the stand-in bot played that turn.", { name: nameOf(message.seat) });
      note.hidden = false;
      return;
    }
    if (!message.clock) return;
    const fresh = !clock || clock.seats.length !== message.clock.seats.length;
    clock = message.clock;
    arrived = performance.now();
    if (fresh) build();
    else box.querySelectorAll(".clock-name").forEach((name, number) => (name.textContent = nameOf(number)));
    offerPush(); // once this browser holds a seat (it may take one after the first clock)
    if (frame) clearTimeout(frame);
    frame = 0;
    render();
  });
})();
