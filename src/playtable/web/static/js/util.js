// Small helpers every page uses: building HTML and SVG elements, the JSON API (errors become
// Error objects carrying the server's one sentence), the page's URL parameters, downloads.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A seat of a table summary as people read it: its title in the game ("Hero 2", "the troll"),
 * else its id (`name`, what the lab and the records call it). */
export function seatTitle(seat) {
  return seat.title || seat.name;
}

/** An HTML element: h("button", {class: "x", onClick: f}, "text", child...). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Error from the API: `.message` is the server's one sentence, `.status` the HTTP status. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function readJson(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const sentence = body && typeof body.error === "string" ? body.error
      : `The server answered ${response.status} ${response.statusText}.`;
    throw new ApiError(sentence, response.status);
  }
  return body;
}

/** GET `url` as JSON; `headers` adds request headers (the player key, never in a URL). */
export async function getJson(url, headers = {}) {
  let response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json", ...headers } });
  } catch {
    throw new ApiError("The server cannot be reached; is it running?", 0);
  }
  return readJson(response);
}

export async function postJson(url, body, headers = {}) {
  return requestJson("POST", url, body, headers);
}

/** `method` `url` with `body` (undefined: none) as JSON; `headers` adds request headers. */
export async function requestJson(method, url, body, headers = {}) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), Accept: "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("The server cannot be reached; is it running?", 0);
  }
  return readJson(response);
}

/** Fetch a file and hand it to the browser as a download; API errors are thrown as ApiError. */
export async function download(url, filename) {
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw new ApiError("The server cannot be reached; is it running?", 0);
  }
  if (!response.ok) await readJson(response);
  const blob = await response.blob();
  const link = h("a", { href: URL.createObjectURL(blob), download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

/** The table page's address parts: /t/ID[/replay]?seat=N&token=T. */
export function tableAddress(loc = window.location) {
  const match = loc.pathname.match(/\/t\/([^/]+)/);
  const query = new URLSearchParams(loc.search);
  const seatText = query.get("seat");
  const seat = seatText !== null && /^\d+$/.test(seatText) ? Number(seatText) : null;
  return { tableId: match ? decodeURIComponent(match[1]) : null, seat, token: query.get("token") };
}

/** "?seat=0&token=T" for a seat with a token, "" for a watcher. */
export function seatQuery(seat, token) {
  if (seat === null || seat === undefined || !token) return "";
  return `?seat=${encodeURIComponent(seat)}&token=${encodeURIComponent(token)}`;
}

export function prefersReducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** "3 minutes ago" style, for table lists. */
export function ago(iso) {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const seconds = Math.max(0, Math.round((Date.now() - then) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

// The games that have a page module of their own; the others are shown by the plain outline.
const GAME_MODULES = {
  troll: "./games/troll.js", rotator: "./games/rotator.js", wizard: "./games/wizard.js", stardice: "./games/stardice.js",
};

/** The page module that draws `gameId`'s board (see frame.js for what it exports). */
export function gameModule(gameId) {
  return import(GAME_MODULES[gameId] ?? "./games/plain.js");
}
