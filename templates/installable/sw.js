/* Muster's service worker (campaigns/views/installable.py says what it keeps and why). */
const VERSION = "{{ version }}";
const PRECACHE = {{ precache|safe }};
{% verbatim %}
const STATIC = "muster-static-" + VERSION;
const PAGES = "muster-pages-";        // + the person's key: one person's kept pages
const PERSON = "muster-person";       // who the kept pages are for
const KEPT_PAGE = /^\/campaigns\/\d+\/$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("muster-static-") && name !== STATIC) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(request, url));
  } else if (PRECACHE.includes(url.pathname)) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  }
});

/* A push: a notice's own words, and its link opened when the notification is clicked
   (campaigns/push/sending.py sends nothing else). */
self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (unreadable) {
    notice = {};
  }
  const link = typeof notice.link === "string" && notice.link.startsWith("/") ? notice.link : "/notices/";
  event.waitUntil(self.registration.showNotification("Muster", {
    body: notice.words || "You have a new notice.",
    data: { link },
    icon: PRECACHE.find((path) => path.endsWith(".png")),
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data || {}).link || "/notices/", self.location.origin).href;
  event.waitUntil((async () => {
    for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});

/* The person a page was drawn for: their key, "" when signed out, null when the page says nothing. */
function personOf(html) {
  const found = html.match(/<meta name="muster-person" content="([0-9a-f]*)">/);
  return found ? found[1] : null;
}

async function keptPerson() {
  const kept = await (await caches.open(PERSON)).match("/person");
  return kept ? kept.text() : "";
}

/* Another person (or nobody) on this phone now: every page kept for anyone else goes, and the
   push subscription of the one before ends (its push service then answers 410: the site forgets it). */
async function nowFor(person) {
  if (await keptPerson()) {
    const subscription = await self.registration.pushManager.getSubscription().catch(() => null);
    if (subscription) await subscription.unsubscribe().catch(() => false);
  }
  for (const name of await caches.keys()) {
    if (name.startsWith(PAGES) && name !== PAGES + person) await caches.delete(name);
  }
  await (await caches.open(PERSON)).put("/person", new Response(person));
}

async function navigate(request, url) {
  let response;
  try {
    response = await fetch(request);
  } catch (offline) {
    return offlineAnswer(url);
  }
  const type = response.headers.get("Content-Type") || "";
  if (response.ok && type.startsWith("text/html")) {
    const html = await response.clone().text();
    const person = personOf(html);
    if (person !== null) {
      if (person !== await keptPerson()) await nowFor(person);
      if (person && KEPT_PAGE.test(url.pathname) && !url.search) await keep(person, url, html);
    }
  }
  return response;
}

async function keep(person, url, html) {
  const title = (html.match(/<title>([^<]*)<\/title>/) || [null, "Campaign"])[1];
  const headers = {
    "Content-Type": "text/html; charset=utf-8",
    "X-Muster-Kept-At": new Date().toISOString(),
    "X-Muster-Title": encodeURIComponent(title),
  };
  await (await caches.open(PAGES + person)).put(url.pathname, new Response(html, { headers }));
}

function escape(text) {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function clock(iso) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/* No network: the person's kept copy of the page, marked as of its time; else what is kept. */
async function offlineAnswer(url) {
  const person = await keptPerson();
  const pages = person ? await caches.open(PAGES + person) : null;
  const kept = pages && (await pages.match(url.pathname));
  if (kept) {
    const at = kept.headers.get("X-Muster-Kept-At");
    const banner =
      `<p class="offline-banner" role="status"><strong>Offline: this page as of ${escape(clock(at))}.</strong> ` +
      "What the other side did since is not shown; steps made now wait on this phone until the network is back.</p>";
    // The page's script (static/js/queue.js) reads when the page was kept, and queues steps.
    const html = (await kept.text())
      .replace("<head>", `<head><meta name="muster-kept-at" content="${escape(at)}">`)
      .replace("<html", '<html class="offline"')
      .replace('<main id="main" tabindex="-1">', (main) => main + banner);
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
  const links = [];
  for (const request of pages ? await pages.keys() : []) {
    const page = await pages.match(request);
    const title = decodeURIComponent(page.headers.get("X-Muster-Title") || "Campaign");
    const path = new URL(request.url).pathname;
    links.push(`<li><a href="${escape(path)}">${escape(title)}</a> (as of ${escape(clock(page.headers.get("X-Muster-Kept-At")))})</li>`);
  }
  const list = links.length
    ? `<p>The campaign pages you opened on this phone are kept:</p><ul>${links.join("")}</ul>`
    : "<p>No page of yours is kept on this phone yet: open your campaign's page while the network is there.</p>";
  const body =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · Muster</title>' +
    `<link rel="stylesheet" href="${PRECACHE[0]}"></head><body><main id="main"><div class="card">` +
    `<h1>You are offline</h1>${list}</div></main></body></html>`;
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
{% endverbatim %}
