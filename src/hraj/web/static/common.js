"use strict";
// Shared helpers of the hraj pages: translated strings, the rooms kept in this browser, API requests.
window.hraj = (() => {
  const node = document.getElementById("i18n");
  const strings = node ? JSON.parse(node.textContent) : {};
  const tr = (text, params) =>
    (strings[text] || text).replace(/\{(\w+)\}/g, (all, name) => (params && name in params ? params[name] : all));
  const KEY = "hraj.rooms";
  const rooms = {
    all() {
      try {
        return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
      } catch (error) {
        return {};
      }
    },
    get(id) {
      return this.all()[id] || null;
    },
    put(id, room) {
      const all = this.all();
      all[id] = room;
      localStorage.setItem(KEY, JSON.stringify(all));
    },
  };
  // The CSRF token of this browser's cookie: a change the cookie makes must carry it.
  const csrf = () => (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  const jsonHeaders = () => ({ "content-type": "application/json", "x-csrf-token": csrf() });
  // A JSON request to the API; its answer, or an Error with the server's reason in the page's language.
  async function send(method, path, body) {
    const lang = document.documentElement.lang;
    const response = await fetch(`${path}${path.includes("?") ? "&" : "?"}lang=${lang}`, {
      method,
      headers: jsonHeaders(),
      body: body === null || body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.text || answer.message || String(response.status));
    return answer;
  }
  return { tr, rooms, jsonHeaders, send };
})();
