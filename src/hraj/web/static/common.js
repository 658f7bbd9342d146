"use strict";
// Shared helpers of the hraj pages: translated strings and the rooms kept in this browser.
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
  return { tr, rooms };
})();
