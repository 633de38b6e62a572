/* Muster without signal (docs/architecture.md, "Steps without signal"): a step submitted on a
   campaign page while the network is gone is queued in this browser (IndexedDB) with its
   idempotency key and the time of the page it was made on, shown as "waiting to send" with a way to cancel it, and sent in order
   when the network is back. The server checks each like any submission (never forced): an
   accepted step shows as sent; a refused one comes back with the server's reason and the form
   again with the person's input kept. A step sent twice is written once (its key).

   Only the person's own steps are kept, under their opaque key (<meta name="muster-person">);
   steps kept for anyone else on this phone are dropped. A page the service worker served from
   what it kept becomes the page itself again when the site answers ("back from a kept page").
   Pages work without this script. */
(() => {
  "use strict";
  const DB = "muster-queue";
  const STORE = "steps";
  const SINCE = "muster-offline-since";
  const SUBMIT = /^\/campaigns\/(\d+)\/submit\/$/;
  const person = meta("muster-person");
  if (!person || !("indexedDB" in window)) return;
  const keptAt = meta("muster-kept-at"); // set by the service worker on a page it served offline
  const pageAt = keptAt ? new Date(keptAt) : new Date();
  const here = (location.pathname.match(/^\/campaigns\/(\d+)\/$/) || [])[1] || null;
  let syncing = false;
  let signIn = false; // the site asked for a sign-in: the steps wait for it
  let unsent = 0; // steps not sent yet (what signing out would drop)
  const said = new Map(); // steps sent, shown on this page (gone from the store)
  const SENT_KEYS = "muster-sent-keys"; // keys of steps sent lately: never given to a new step
  const submitters = new WeakMap(); // the button each form was last sent with (its "_then")
  let pendingHere = 0; // steps of this page's campaign not sent yet: a new one queues behind them
  let editing = false; // the person has typed in a form: the page is not reloaded under them

  function meta(name) {
    const found = document.querySelector(`meta[name="${name}"]`);
    return found ? found.content : "";
  }

  function clock(when) {
    return new Date(when).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  function freshKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /* --- the store: one object store of steps, in the order they were made ------------------- */

  function opened() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  async function stored(mode, act) {
    const db = await opened();
    try {
      return await new Promise((resolve, reject) => {
        const transaction = db.transaction(STORE, mode);
        const request = act(transaction.objectStore(STORE));
        transaction.oncomplete = () => resolve(request.result);
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () => reject(transaction.error || new Error("The step store refused."));
      });
    } finally {
      db.close();
    }
  }

  /* This person's steps, oldest first; another person's (a session that ended without signing
     out) are dropped: never shown, never sent. */
  async function mine() {
    const all = await stored("readonly", (store) => store.getAll());
    const others = all.filter((step) => step.person !== person);
    for (const step of others) await stored("readwrite", (store) => store.delete(step.id));
    return all.filter((step) => step.person === person).sort((a, b) => a.id - b.id);
  }

  const put = (step) => stored("readwrite", (store) => store.put(step));
  const drop = (id) => stored("readwrite", (store) => store.delete(id));
  const one = (id) => stored("readonly", (store) => store.get(id));

  function sentKeys() {
    try {
      return JSON.parse(localStorage.getItem(SENT_KEYS) || "[]");
    } catch (unreadable) {
      return [];
    }
  }

  function rememberSent(key) {
    localStorage.setItem(SENT_KEYS, JSON.stringify([...sentKeys().filter((k) => k !== key), key].slice(-200)));
  }

  /* --- queueing a step ------------------------------------------------------------------------ */

  function queueable(form) {
    if (!(form instanceof HTMLFormElement) || (form.method || "").toLowerCase() !== "post") return false;
    return SUBMIT.test(new URL(form.action, location.href).pathname);
  }

  function labelOf(form) {
    return words(form.querySelector("h3")) || "A step";
  }

  /* A label's words as a person reads them (the required mark is for the eye only). */
  function words(node) {
    if (!node) return "";
    const copy = node.cloneNode(true);
    copy.querySelectorAll("[aria-hidden=true], .req, .rule").forEach((mark) => mark.remove());
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  function fieldLabel(element) {
    if (element.type !== "checkbox" && element.type !== "radio") return words(element.labels && element.labels[0]);
    const group = element.closest("fieldset");
    return words(group && group.querySelector("legend"));
  }

  /* What the person entered, in the words of the form: "Count: 2", "Stance: Attack". */
  function described(form) {
    const lines = [];
    for (const element of form.elements) {
      if (!element.name || element.disabled || ["hidden", "submit", "button"].includes(element.type)) continue;
      if ((element.type === "checkbox" || element.type === "radio") && !element.checked) continue;
      let value = element.value;
      if (element.tagName === "SELECT") value = Array.from(element.selectedOptions, (o) => o.text).join(", ");
      if (element.type === "checkbox" || element.type === "radio") {
        value = words(element.labels && element.labels[0]) || value;
      }
      if (!String(value).trim()) continue;
      const label = fieldLabel(element);
      lines.push(label && label !== value ? `${label}: ${value}` : value);
    }
    return lines.slice(0, 20);
  }

  /* `fields` with the step's idempotency key in place of the one the form carried. */
  function withKey(fields, key) {
    const others = fields.filter(([name]) => name !== "idempotency_key");
    return [...others, ["idempotency_key", key]];
  }

  /* The step a form makes now: its fields as posted (never the CSRF token), in its own words. */
  function stepOf(form, submitter) {
    const data = new FormData(form, submitter || undefined);
    data.delete("csrfmiddlewaretoken");
    const fields = [];
    for (const [name, value] of data) if (typeof value === "string") fields.push([name, value]);
    const now = document.getElementById("now");
    return {
      person,
      campaign: new URL(form.action, location.href).pathname.match(SUBMIT)[1],
      url: new URL(form.action, location.href).pathname,
      fields,
      key: String(data.get("idempotency_key") || ""),
      label: labelOf(form),
      lines: described(form),
      dice: now ? now.dataset.diceMode || "" : "",
      diceEntered: fields.some(([name, value]) => name.startsWith("dice:") && value.trim()),
      madeAt: new Date().toISOString(),
      pageAt: pageAt.toISOString(),
      state: "waiting",
    };
  }

  async function queue(form, submitter) {
    const step = stepOf(form, submitter);
    const keyInput = form.querySelector("input[name=idempotency_key]");
    if (keyInput) keyInput.value = freshKey(); // the next step from this form is another one
    const details = form.querySelector("details");
    if (details) details.open = false; // folded at once: the step is listed above
    const steps = await mine();
    // A page kept offline carries the keys it was drawn with: a step made from it again is
    // another step, with a key of its own.
    if (!step.key || sentKeys().includes(step.key) || steps.some((s) => s.key === step.key)) step.key = freshKey();
    step.fields = withKey(step.fields, step.key);
    await put(step);
    editing = false;
    await drawn();
    const panel = document.getElementById("queued");
    if (panel) panel.scrollIntoView({ block: "nearest" });
    if (navigator.onLine) syncOnce();
  }

  /* A refused step redone in the form it came back with: the same step (its place in the order
     and its key, never written), with what the person typed now. */
  async function redo(form, submitter, id) {
    const before = await one(id);
    if (!before) return queue(form, submitter);
    const step = Object.assign(stepOf(form, submitter), { id, key: before.key, madeAt: before.madeAt, pageAt: before.pageAt });
    step.fields = withKey(step.fields, before.key);
    await put(step);
    editing = false;
    await drawn(true);
    if (navigator.onLine) syncOnce();
  }

  /* --- sending ---------------------------------------------------------------------------------- */

  function csrf() {
    const cookie = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
    if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (unreadable) {
      return "";
    }
  }

  /* One step to the server: "sent", "refused" (with the reason and the form), "signin" (the
     session ended), or "later" (no network, or the site is busy: it waits). */
  async function send(step) {
    const token = csrf();
    const body = new URLSearchParams(step.fields);
    body.set("csrfmiddlewaretoken", token);
    let response;
    try {
      response = await fetch(step.url, {
        method: "POST",
        body,
        credentials: "same-origin",
        redirect: "manual",
        headers: {
          "X-Muster-Queued": "1",
          "X-CSRFToken": token,
          "X-Muster-Person": step.person,
        },
      });
    } catch (offline) {
      return { state: "later" };
    }
    if (response.type === "opaqueredirect") return { state: "signin" };
    const type = response.headers.get("Content-Type") || "";
    if ([200, 400, 409].includes(response.status) && type.startsWith("application/json")) {
      return response.json();
    }
    // A CSRF refusal (a new sign-in since) or a seat lost: the person signs in again; the step waits.
    if (response.status === 403) return { state: "signin" };
    if (response.status === 404) {
      return { state: "refused", reason: "The site does not find this campaign for you any more.", form: "" };
    }
    return { state: "later" };
  }

  /* The form the site sent back, kept without its CSRF token (the redo goes through the queue). */
  function withoutToken(html) {
    const box = document.createElement("div");
    box.innerHTML = html;
    box.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach((input) => input.remove());
    return box.innerHTML;
  }

  /* Sends what waits, in order; "busy" when a send is already under way (here or in another
     tab), "reloading" when steps landed and the page is being drawn again, else "done". */
  async function sync() {
    if (syncing) return "busy";
    if (!navigator.onLine) return "done";
    syncing = true;
    let sent = 0;
    try {
      const held = new Set(); // a campaign whose earlier step came back: its next steps wait
      for (const listed of await mine()) {
        const step = await one(listed.id); // cancelled or redone meanwhile: as it is now
        if (!step) continue;
        if (step.state === "refused") held.add(step.campaign);
        // "sending": a page closed while it was on its way; sent again with its key, written once.
        if (!["waiting", "sending"].includes(step.state) || held.has(step.campaign)) continue;
        step.state = "sending"; // no longer cancelled from the page: it may be landing now
        await put(step);
        await drawn();
        const answer = await send(step);
        if (!(await one(step.id))) continue; // cancelled while it was on its way: nothing to say
        if (answer.state === "sent") {
          rememberSent(step.key);
          const message = answer.replayed ? "It had been sent already: nothing new was written." : String(answer.message || "");
          Object.assign(step, { state: "sent", message });
          await put(step);
          sent += 1;
        } else if (answer.state === "refused") {
          Object.assign(step, { state: "refused", reason: String(answer.reason || ""), form: withoutToken(String(answer.form || "")) });
          await put(step);
          held.add(step.campaign);
        } else {
          step.state = "waiting";
          await put(step);
          signIn = answer.state === "signin";
          break;
        }
      }
    } finally {
      syncing = false;
    }
    if (sent && !editing) {
      location.reload(); // the page as it is now, with the steps that landed
      return "reloading";
    }
    await drawn(sent > 0);
    return "done";
  }

  function syncOnce() {
    // One tab sends at a time (each step has its key: two would still write it once).
    if (navigator.locks) return navigator.locks.request("muster-queue-sync", { ifAvailable: true }, (lock) => (lock ? sync() : "busy"));
    return sync();
  }

  /* --- back from a kept page ---------------------------------------------------------------- */

  /* A page the worker served from what it kept becomes the page itself once the site answers.
     The "online" event does not say so: it may come before this script runs, or while the site
     cannot be reached yet (the reload is then the kept copy again, and no other event comes while
     the phone stays online). So the page asks the site itself whether its page can be had: at
     once, when the phone says it is online, when the page is shown again or gets the focus, and
     else on a schedule doubling from 1 s to at most every 15 s while the page is shown. A reload
     that brought the kept copy back is counted for this tab, so the next one waits longer. */
  const RELOADS = "muster-kept-reloads"; // sessionStorage: reloads from a kept page in a row
  const reloads = keptAt ? Number(sessionStorage.getItem(RELOADS)) || 0 : 0;
  let unanswered = 0; // asks on this page that found no site
  let asking = false;
  let nextAsk = null;

  function pause(tries) {
    return Math.min(15000, 1000 * 2 ** Math.max(0, tries - 1));
  }

  function askLater(delay) {
    clearTimeout(nextAsk);
    nextAsk = setTimeout(askTheSite, delay);
  }

  /* The page's own address answers (a server error or a gateway's is not an answer: the kept
     copy is worth more than an error page). The worker lets anything but a navigation through. */
  async function siteAnswers() {
    if (!navigator.onLine) return false; // the phone knows there is no network: nothing asked
    try {
      const response = await fetch(location.pathname, { method: "HEAD", cache: "no-store", credentials: "same-origin", redirect: "manual" });
      return response.type === "opaqueredirect" || response.status < 500;
    } catch (unreachable) {
      return false;
    }
  }

  async function askTheSite() {
    clearTimeout(nextAsk);
    if (asking || document.visibilityState === "hidden") return; // hidden: asked when shown again
    asking = true;
    try {
      if (await siteAnswers()) {
        // The steps not sent go first (a send that lands reloads the page itself); then the page.
        const sending = await syncOnce();
        if (sending === "reloading") return;
        if (sending === "done" && !editing) {
          sessionStorage.setItem(RELOADS, String(reloads + 1));
          location.reload();
          return;
        }
      } else {
        unanswered += 1;
      }
    } finally {
      asking = false;
    }
    askLater(pause(reloads + unanswered)); // another tab was sending, the person types, or no site
  }

  /* --- what the page shows ------------------------------------------------------------------- */

  function element(tag, attributes, ...children) {
    const made = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
    for (const child of children) if (child !== null && child !== undefined) made.append(child);
    return made;
  }

  function diceWords(step) {
    if (step.dice === "server") return "Dice it needs are rolled by the site when it is sent.";
    if (step.diceEntered) return "The dice you entered go with it.";
    if (step.dice === "entered") return "If it needs dice, the form asks for them when it is sent.";
    return null;
  }

  function drawStep(step, heldBy) {
    const box = element("div", { class: `queued-step ${step.state}`, "data-step": String(step.id) });
    const states = {
      waiting: heldBy ? "Waiting: the step before it came back" : "Waiting to send",
      sending: "Sending",
      refused: "Came back",
      sent: "Sent",
    };
    box.append(element("p", {}, element("strong", {}, step.label), " — ", element("span", { class: "badge" }, states[step.state] || "")));
    if (step.lines.length) box.append(element("ul", { class: "result" }, ...step.lines.map((line) => element("li", {}, line))));
    if (step.state === "sent") {
      if (step.message) box.append(element("p", {}, step.message));
      return box;
    }
    box.append(element("p", { class: "muted" }, `Made at ${clock(step.madeAt)} on the page as of ${clock(step.pageAt)}.`));
    const dice = step.state === "waiting" ? diceWords(step) : null;
    if (dice) box.append(element("p", { class: "muted" }, dice));
    if (step.state === "refused") {
      box.append(element("p", { class: "notice", role: "alert" }, step.reason || "The step was not accepted."));
      if (step.form && here === step.campaign) {
        const redo = element("div", { class: "redo", "data-redo": String(step.id) });
        redo.innerHTML = step.form; // the server's own form for this person, their input kept
        ownIds(redo, `queued-${step.id}-`);
        box.append(element("p", {}, "Redo it below, or drop it."), redo);
      }
    }
    if (step.state === "sending") return box;
    const cancel = element("button", { type: "button", class: "secondary small", "data-cancel": String(step.id) },
      step.state === "refused" ? "Drop this step" : "Cancel this step");
    box.append(element("p", {}, cancel));
    return box;
  }

  /* The page holds the same form for this to-do: the ids of the one that came back are its own. */
  function ownIds(box, prefix) {
    const renamed = new Map();
    box.querySelectorAll("[id]").forEach((node) => {
      renamed.set(node.id, prefix + node.id);
      node.id = prefix + node.id;
    });
    box.querySelectorAll("[for], [aria-describedby], [aria-labelledby]").forEach((node) => {
      for (const name of ["for", "aria-describedby", "aria-labelledby"]) {
        const value = node.getAttribute(name);
        if (value) node.setAttribute(name, value.split(/\s+/).map((id) => renamed.get(id) || id).join(" "));
      }
    });
  }

  function banner(waiting) {
    let shown = document.getElementById("offline-status");
    const offline = !navigator.onLine || !!keptAt;
    const words = [];
    if (offline) {
      const since = localStorage.getItem(SINCE) || pageAt.toISOString();
      words.push(`Offline since ${clock(since)}`);
    } else if (signIn) {
      words.push("Sign in again to send the waiting steps");
    } else if (waiting) {
      words.push("Sending the waiting steps");
    }
    if (waiting) words.push(`${waiting} step${waiting === 1 ? "" : "s"} waiting`);
    if (!words.length) {
      if (shown) shown.remove();
      return;
    }
    let text = words.join(" — ") + ".";
    if (offline) text += ` This page as of ${clock(pageAt)}: what the other side did since is not shown.`;
    if (!shown) {
      shown = element("p", { id: "offline-status", class: "offline-banner", role: "status" });
      const main = document.getElementById("main");
      if (!main) return;
      main.prepend(shown);
    }
    shown.textContent = text;
    document.querySelectorAll(".offline-banner:not(#offline-status)").forEach((old) => old.remove());
  }

  /* The banner and the panel of steps as the store holds them. `force`: redrawn even while the
     person types in a form that came back (their own redo or cancel did it). */
  async function drawn(force) {
    document.documentElement.classList.toggle("offline", !navigator.onLine || !!keptAt);
    const steps = await mine();
    for (const step of steps) {
      if (step.state !== "sent" || step.campaign !== here || syncing) continue; // said on its page
      await drop(step.id); // said once: on the page drawn after sending, for as long as it is shown
      said.set(step.id, step);
    }
    const landing = steps.filter((step) => step.state === "sent" && step.campaign === here && syncing);
    const open = steps.filter((step) => step.state !== "sent");
    unsent = open.length;
    pendingHere = open.filter((step) => step.campaign === here).length;
    banner(open.filter((step) => step.state === "waiting" || step.state === "sending").length);
    let panel = document.getElementById("queued");
    if (panel && !force && panel.contains(document.activeElement) && panel.querySelector("[data-redo]")) return;
    if (panel) panel.remove();
    const now = document.getElementById("now");
    const shown = [...said.values(), ...landing, ...open]
      .filter((step) => step.campaign === here)
      .sort((a, b) => a.id - b.id);
    if (!shown.length || !now) return;
    panel = element("section", { id: "queued", class: "card", "aria-labelledby": "queued-h" },
      element("h2", { id: "queued-h" }, "Steps made without the network"));
    if (said.size && editing) {
      panel.append(element("p", { class: "notice" }, "Sent. ", element("a", { href: location.pathname }, "See the page as it is now"), " (what you are typing is not sent)."));
    }
    const held = new Set();
    for (const step of shown) {
      panel.append(drawStep(step, step.state === "waiting" && held.has(step.campaign)));
      if (step.state === "refused") held.add(step.campaign);
    }
    now.before(panel);
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest && event.target.closest("[data-cancel]");
    if (!button) return;
    button.disabled = true;
    await drop(Number(button.dataset.cancel));
    await drawn(true);
    if (navigator.onLine) syncOnce(); // a step held behind the dropped one may go now
  });

  function failed(form, error) {
    form.prepend(element("p", { class: "notice", role: "alert" },
      "This phone could not keep the step to send later: try again when the network is back."));
    console.error(error);
  }

  document.addEventListener("input", (event) => {
    if (event.target.closest && event.target.closest("form.action")) editing = true;
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!queueable(form)) return;
    submitters.set(form, event.submitter || null);
    const redone = form.closest("[data-redo]");
    // Offline, redone, or behind steps of this campaign not sent yet: it goes through the queue,
    // in its place in the order.
    if (navigator.onLine && !redone && !pendingHere) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const done = redone ? redo(form, event.submitter, Number(redone.dataset.redo)) : queue(form, event.submitter);
    done.catch((error) => failed(form, error));
  }, true);

  // Sent while the network looked there but was not (one bar of signal): the request may or may
  // not have reached the site; queued with the same key, it is written at most once.
  document.addEventListener("htmx:sendError", (event) => {
    const form = event.detail && event.detail.elt && event.detail.elt.closest("form");
    if (queueable(form)) queue(form, submitters.get(form) || null).catch((error) => failed(form, error));
  });

  // Signing out empties this browser's storage for the site (Clear-Site-Data): say what is lost.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches("[data-sign-out]") || !unsent) return;
    const many = unsent === 1 ? ["step", "has", "it"] : ["steps", "have", "them"];
    const question = `${unsent} ${many[0]} made without the network ${many[1]} not been sent. Signing out drops ${many[2]}. Sign out anyway?`;
    if (!confirm(question)) event.preventDefault();
  }, true);

  window.addEventListener("offline", () => {
    if (!localStorage.getItem(SINCE)) localStorage.setItem(SINCE, new Date().toISOString());
    drawn();
  });
  window.addEventListener("online", () => {
    localStorage.removeItem(SINCE);
    if (keptAt) askTheSite();
    else syncOnce();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    if (keptAt) askTheSite();
    else if (navigator.onLine) syncOnce();
  });
  window.addEventListener("focus", () => {
    if (keptAt) askTheSite();
  });

  if (!navigator.onLine || keptAt) {
    if (!localStorage.getItem(SINCE)) localStorage.setItem(SINCE, (keptAt ? new Date() : pageAt).toISOString());
  } else {
    localStorage.removeItem(SINCE);
  }
  if (keptAt) {
    drawn().then(() => askLater(reloads ? pause(reloads) : 0));
  } else {
    sessionStorage.removeItem(RELOADS); // the page itself: the way back worked
    drawn().then(() => (navigator.onLine ? syncOnce() : null));
  }
  // A network that comes back without an "online" event (one bar of signal): try now and then.
  setInterval(() => {
    if (navigator.onLine && !syncing) mine().then((steps) => (steps.some((s) => ["waiting", "sending"].includes(s.state)) ? syncOnce() : null));
  }, 30000);
})();
