"use strict";
// Turn reminders by Web Push, chosen by the player ("Upozornit mě, až budu na tahu"):
// registers the service worker, subscribes with the server's VAPID key, and tells the
// server which seats this browser holds (their tokens prove them). Nothing happens
// unless the player asks, and the browser asks for permission first.
window.hrajPush = (() => {
  const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  const b64 = (text) => {
    const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };

  async function serverKey() {
    const answer = await fetch("/api/push/key");
    if (!answer.ok) return null;
    return (await answer.json()).key;
  }

  // Subscribe this browser and send the seats it holds; resolves to the seats the server took.
  async function enable(lang) {
    if (!supported()) throw new Error("unsupported");
    const key = await serverKey();
    if (!key) throw new Error("no-key");
    if ((await Notification.requestPermission()) !== "granted") throw new Error("denied");
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    const subscription =
      (await registration.pushManager.getSubscription()) ||
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64(key) }));
    return send(subscription, lang);
  }

  async function send(subscription, lang) {
    const all = window.hraj.rooms.all();
    const seats = Object.entries(all)
      .flatMap(([room, held]) => Object.values((held && held.tokens) || {}).map((token) => ({ room, token })))
      .slice(-50);
    const json = subscription.toJSON();
    const answer = await fetch("/api/push", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        subscription: { endpoint: json.endpoint, keys: json.keys },
        lang,
        seats,
      }),
    });
    if (!answer.ok) throw new Error("refused");
    localStorage.setItem("hraj.push", "on");
    return (await answer.json()).seats;
  }

  // A new seat (a room joined later) is added to a subscription the player already made.
  async function refresh(lang) {
    if (!supported() || localStorage.getItem("hraj.push") !== "on") return;
    const registration = await navigator.serviceWorker.getRegistration("/");
    const subscription = registration && (await registration.pushManager.getSubscription());
    if (subscription) await send(subscription, lang);
  }

  return { supported, enable, refresh };
})();
