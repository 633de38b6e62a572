/* Muster on a phone: the service worker that keeps the person's own campaign pages for when the
   network is gone (campaigns/views/installable.py). Pages work without it. */
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}
