"use strict";
// The service worker of hraj: shows the server's "your turn" reminders (Web Push) while
// no page of the game is open, and opens or focuses the room when one is clicked.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = {};
  }
  const title = message.title || "hraj";
  const url = typeof message.url === "string" && message.url.startsWith("/r/") ? message.url : "/";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: message.body || "",
      tag: message.tag || url,
      renotify: true,
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((pages) => {
      const open = pages.find((page) => page.url.split("?")[0] === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
