"use strict";
// How a room's board behaves between the server's tables: what changed since the table
// shown before is marked (and animated, unless the reader asked for less motion), the
// tab's title says when it is your turn (with a sound if this browser chose one), and the
// arrow keys move between the points, cells and cards. It never decides legality.
window.hraj.board = (() => {
  const { tr } = window.hraj;
  const SOUND_KEY = "hraj.sound";
  const BASE_TITLE = document.title;
  // The board's items the arrows move between; text buttons (confirm, write) keep Tab.
  const ITEMS = "[data-board] :is(button, [role=button][tabindex]):not(.button):not([disabled]):not([hidden])";
  let wasMyTurn = false;
  let movedSince = false;
  let audio = null;
  let sounds = 0;

  // --- what changed -----------------------------------------------------------------------

  /** Mark the parts of `next` (`[data-mark]`, with its state in `data-sig`) that differ
   * from `old`: new ones and changed ones. A re-render of the same version (a step of a
   * play being built) keeps the earlier marks. Another seat's eyes compare nothing. */
  function mark(old, next, sameEyes, sameVersion) {
    if (!old || !sameEyes) return;
    const before = new Map();
    for (const el of old.querySelectorAll("[data-mark]")) before.set(el.dataset.mark, el);
    if (!before.size) return;
    for (const el of next.querySelectorAll("[data-mark]")) {
      const was = before.get(el.dataset.mark);
      if (!was || was.dataset.sig !== el.dataset.sig) {
        el.classList.add("changed", "fresh");
      } else if (sameVersion && was.classList.contains("changed")) {
        el.classList.add("changed");
      }
    }
  }

  // --- your turn --------------------------------------------------------------------------

  const soundOn = () => localStorage.getItem(SOUND_KEY) === "on";

  /** Two short tones made by WebAudio (no sound file); silent where audio is refused. */
  function chime() {
    try {
      audio = audio || new AudioContext();
      if (audio.state === "suspended") audio.resume();
      const start = audio.currentTime + 0.01;
      [660, 880].forEach((pitch, index) => {
        const tone = audio.createOscillator();
        const gain = audio.createGain();
        const at = start + index * 0.14;
        tone.frequency.value = pitch;
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
        tone.connect(gain).connect(audio.destination);
        tone.start(at);
        tone.stop(at + 0.27);
      });
      sounds += 1;
      document.body.dataset.turnSounds = String(sounds);
    } catch (error) {
      // No audio here: the title still tells.
    }
  }

  /** The tab's title while it is this browser's turn; a chime when it becomes so, or
   * when a new decision is asked after this browser's own move (a game may ask everyone). */
  function turn(myTurn) {
    document.title = myTurn ? tr("● Your turn – {title}", { title: BASE_TITLE }) : BASE_TITLE;
    if (myTurn && (!wasMyTurn || movedSince) && soundOn()) chime();
    if (myTurn) movedSince = false;
    wasMyTurn = myTurn;
  }

  /** This browser has just moved: the title is itself again until the next turn. */
  function moved() {
    movedSince = true;
    document.title = BASE_TITLE;
  }

  function soundToggle(button) {
    if (!button) return;
    const show = () => {
      const text = soundOn() ? tr("Sound on your turn: on") : tr("Sound on your turn: off");
      button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
      button.setAttribute("aria-label", text);
      button.title = text;
      button.textContent = "♪";
    };
    show();
    button.hidden = false;
    button.addEventListener("click", () => {
      localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
      show();
      if (soundOn()) chime(); // a sample, and the click lets the page play sound later
    });
  }

  // --- the keyboard ----------------------------------------------------------------------

  const items = (table) => [...table.querySelectorAll(ITEMS)].filter((el) => el.getClientRects().length);

  /** One item of the board is in the Tab order (the focused one, else the first that
   * does something now); the arrows reach the others, so Tab passes the board in one press. */
  function rove(table, focusedKey) {
    const all = items(table);
    if (!all.length) return;
    const current =
      (focusedKey && table.querySelector(focusedKey)) || all.find((el) => el.getAttribute("aria-disabled") !== "true") || all[0];
    for (const el of all) el.setAttribute("tabindex", el === current ? "0" : "-1");
  }

  /** Put the focus back on the board after it was re-rendered: never on a button that
   * takes a step back (`data-undo`), where the next Enter would undo what was just done. */
  function refocus(table, focusedKey) {
    const button = (kind) => `[data-board] .button${kind}:not([disabled]):not([data-undo]), .actions .button${kind}:not([disabled]):not([data-undo])`;
    const choices = [
      focusedKey && table.querySelector(focusedKey), // the same point, cell or card, if it still takes focus
      table.querySelector(`${ITEMS}[tabindex="0"]`),
      table.querySelector(button(".primary")),
      table.querySelector(button("")),
      table,
    ];
    for (const choice of choices) {
      if (!choice) continue;
      choice.focus({ preventScroll: true });
      if (document.activeElement === choice) return;
    }
  }

  const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  /** Move the focus to the nearest item in the arrow's direction; true when it moved. */
  function arrow(event) {
    const direction = DIRECTIONS[event.key];
    const table = event.target.closest(".table");
    if (!direction || !table || event.altKey || event.ctrlKey || event.metaKey) return false;
    const all = items(table);
    if (!all.includes(event.target)) return false;
    const centre = (el) => {
      const box = el.getBoundingClientRect();
      return [box.left + box.width / 2, box.top + box.height / 2];
    };
    const [x, y] = centre(event.target);
    let best = null;
    let bestScore = Infinity;
    for (const el of all) {
      if (el === event.target) continue;
      const [ex, ey] = centre(el);
      const along = (ex - x) * direction[0] + (ey - y) * direction[1];
      const across = Math.abs((ex - x) * direction[1] + (ey - y) * direction[0]);
      if (along <= 1) continue;
      const score = along + across * 3;
      if (score < bestScore) {
        best = el;
        bestScore = score;
      }
    }
    if (!best) return true; // the edge of the board: stay, and do not scroll the page
    event.target.setAttribute("tabindex", "-1");
    best.setAttribute("tabindex", "0");
    best.focus();
    return true;
  }

  // --- the first screen ---------------------------------------------------------------

  /** A part of the table marked `data-fits-screen` (a board drawn to fit) is sized in CSS
   * from `--fit-top`, where it starts on the page, so that it ends within the first
   * screen whatever lies above it (an invite link, a notice). */
  function fit(table) {
    const part = table && table.querySelector("[data-fits-screen]");
    if (!part) return;
    const top = Math.round(part.getBoundingClientRect().top + scrollY);
    if (table.style.getPropertyValue("--fit-top") !== `${top}px`) table.style.setProperty("--fit-top", `${top}px`);
  }

  const room = document.getElementById("room");
  if (room && window.ResizeObserver) {
    // Something above the table appeared or went (an invite box, a notice): fit again.
    new ResizeObserver(() => fit(document.querySelector("#table .table"))).observe(room);
  }

  soundToggle(document.getElementById("sound-toggle"));
  return { mark, turn, moved, rove, refocus, arrow, chime, fit };
})();
