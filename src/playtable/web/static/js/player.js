// Who this browser is (names without accounts): a private player key made here once
// and kept in localStorage (the server stores only its hash; it travels in request bodies and
// socket messages, never in a URL), the name chosen in the lobby, the tables this player sits
// at, and the two ways a page tells a player it is their move: the tab title and, only once the
// player has clicked to allow it, the browser's notifications.

import { ApiError, h, postJson } from "./util.js";

const KEY = "playtable.playerKey";
const NAME = "playtable.playerName";
const KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function stored(name) {
  try {
    return localStorage.getItem(name);
  } catch {
    return null;
  }
}

function store(name, value) {
  try {
    localStorage.setItem(name, value);
    return true;
  } catch {
    return false; // a private window may refuse storage: the player is then anonymous
  }
}

/** 32 random bytes as unpadded base64url: the 43 characters the server expects. */
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** This browser's player key, made on first use (null when storage is refused). */
export function playerKey() {
  let key = stored(KEY);
  if (!key || !KEY_PATTERN.test(key)) {
    key = newKey();
    if (!store(KEY, key)) return null;
  }
  return key;
}

/** The name this player chose (null: none yet; the player is anonymous). */
export function playerName() {
  return stored(NAME) || null;
}

/** Register (or change) this player's name on the server; resolves to the name it kept. */
export async function saveName(name) {
  const key = playerKey();
  if (!key) throw new ApiError("This browser refuses to keep a player key (a private window?).", 0);
  const answer = await postJson("/api/players", { name, key });
  store(NAME, answer.player.name);
  return answer.player.name;
}

/** The form where a player chooses (or changes) their name: `label` and `button` say what it
 * is for on that page; `onSaved()` runs once the server kept the name. */
export function nameForm({ label, button = "Save", primary = true, onSaved }) {
  const input = h("input", { id: "player-name", name: "name", type: "text", maxlength: 30, required: true,
    autocomplete: "nickname", placeholder: "e.g. Alice", value: playerName() ?? "" });
  const problem = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "player-form", "aria-label": "Your name" },
    h("label", { for: "player-name" }, label),
    h("div", { class: "inline" }, input, h("button", { type: "submit", class: primary ? "primary" : "" }, button)),
    problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    try {
      await saveName(input.value);
      onSaved();
    } catch (err) {
      problem.textContent = err.message;
    }
  });
  return form;
}

/** The tables this player sits at ({player, tables, your_turn}), or null for an anonymous one.
 *  A server that does not know the key (a fresh database) is told the stored name again. */
export async function myTables() {
  const name = playerName();
  const key = playerKey();
  if (!name || !key) return null;
  try {
    return await postJson("/api/players/me", { key });
  } catch (err) {
    if (err.status !== 403) throw err;
    await saveName(name);
    return postJson("/api/players/me", { key });
  }
}

// -- telling a player it is their move ------------------------------------------------------------

/** Whether notifications can still be asked for (the button is shown only then). */
export function canAskToNotify() {
  return "Notification" in window && Notification.permission === "default";
}

export function notificationsOn() {
  return "Notification" in window && Notification.permission === "granted";
}

/** Ask the browser for permission: only ever from a click on the player's own button. */
export async function askToNotify() {
  if (!("Notification" in window)) return "unsupported";
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/** Show a notification if the player allowed them (`tag`: one per table, replaced, not piled). */
export function notify(title, body, tag, url) {
  if (!notificationsOn()) return null;
  try {
    const note = new Notification(title, { body, tag });
    if (url) {
      note.addEventListener("click", () => {
        window.focus();
        window.location.assign(url);
        note.close();
      });
    }
    return note;
  } catch {
    return null; // some browsers allow notifications only from a service worker
  }
}
