/* Push notices on this device (the settings page, campaigns/views/push.py): subscribe with the
   site's VAPID public key through the service worker, post the subscription, or stop. The page
   works without it; it says push needs JavaScript. */
(function () {
  const box = document.getElementById("push-this-device");
  if (!box) return;
  const supported = "serviceWorker" in navigator && "PushManager" in window && window.isSecureContext;
  if (!supported) {
    const note = document.getElementById("push-unsupported");
    if (note) note.hidden = false;
    return;
  }
  box.hidden = false;
  const form = document.getElementById("push-form");
  const on = document.getElementById("push-on");
  const off = document.getElementById("push-off");
  const status = document.getElementById("push-status");
  const token = form.querySelector("input[name=csrfmiddlewaretoken]").value;

  // What the browser answered, in words: its error names (NotAllowedError …) are not for people.
  const REFUSED = {
    NotAllowedError:
      "Push notices were not allowed on this device: allow notifications for this site in the browser's settings, then try again.",
    AbortError: "This browser's push service did not take this device: try again later.",
    other: "This device could not take push notices: try again later.",
  };

  function keyBytes(base64url) {
    const text = atob((base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  }

  async function post(url, fields) {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    return fetch(url, { method: "POST", body, headers: { "X-CSRFToken": token }, credentials: "same-origin" });
  }

  async function current() {
    const registration = await navigator.serviceWorker.ready;
    return { registration, subscription: await registration.pushManager.getSubscription() };
  }

  function show(subscribed, words) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    status.textContent = words || (subscribed ? "This device takes your push notices." : "");
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const { registration } = await current();
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(box.dataset.publicKey),
      });
      const json = subscription.toJSON();
      const answer = await post(box.dataset.subscribe, {
        endpoint: json.endpoint,
        p256dh: json.keys.p256dh,
        auth: json.keys.auth,
        label: document.getElementById("push-label").value,
      });
      if (answer.ok) {
        window.location.reload();
        return;
      }
      const errors = (await answer.json()).errors || {};
      await subscription.unsubscribe();
      show(false, Object.values(errors).flat().join(" ") || "The site refused this device.");
    } catch (error) {
      show(false, REFUSED[error && error.name] || REFUSED.other);
    }
  });

  off.addEventListener("click", async () => {
    const { subscription } = await current();
    if (subscription) {
      await post(box.dataset.remove, { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    window.location.reload();
  });

  current().then(({ subscription }) => show(Boolean(subscription))).catch(() => show(false));
})();
