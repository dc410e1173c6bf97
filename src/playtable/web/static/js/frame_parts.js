// The pieces of the page frame that are not about the connection: the confirmation dialog, the
// chooser shown when one spot on a board offers several actions, the log in plain words, the
// rules panel and the end screen. frame.js puts them together.

import { renderMarkdown } from "./markdown.js";
import { learnButtons } from "./tutorial.js";
import { getJson, h, prefersReducedMotion } from "./util.js";

/** Ask the player to confirm `warning`; resolves true (do it) or false (cancel). */
export function confirmWarning(actionLabel, warning) {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-title" },
      h("h2", { id: "confirm-title" }, "Are you sure?"),
      h("p", { class: "warning-text" }, warning),
      h("p", {}, "Action: ", h("strong", {}, actionLabel)),
      h("form", { method: "dialog", class: "buttons" },
        h("button", { value: "cancel", class: "primary", autofocus: true }, "Cancel"),
        h("button", { value: "confirm", class: "danger" }, "Do it anyway")));
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "confirm");
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** A small menu next to `anchor` listing `choices` ([{action, label}]); calls pick(action). */
export function showChooser(anchor, choices, pick) {
  closeChooser();
  const menu = h("div", { class: "chooser", role: "menu", "aria-label": "Choose an action" });
  for (const choice of choices) {
    menu.append(h("button", {
      role: "menuitem", dataset: { action: choice.action },
      onClick: () => { closeChooser(); pick(choice.action); },
    }, choice.label));
  }
  menu.append(h("button", { class: "quiet", onClick: closeChooser }, "Cancel"));
  document.body.append(menu);
  const box = anchor.getBoundingClientRect();
  const width = menu.offsetWidth;
  const left = Math.min(window.innerWidth - width - 8, Math.max(8, box.left + box.width / 2 - width / 2));
  const below = box.bottom + 6 + menu.offsetHeight < window.innerHeight;
  menu.style.left = `${left + window.scrollX}px`;
  menu.style.top = `${(below ? box.bottom + 6 : Math.max(8, box.top - menu.offsetHeight - 6)) + window.scrollY}px`;
  menu.querySelector("button").focus();
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      closeChooser();
      anchor.focus?.();
    }
  });
}

export function closeChooser() {
  document.querySelectorAll(".chooser").forEach((menu) => menu.remove());
}

/** The log in plain words: one entry per step, the action and then what happened. */
export class GameLog {
  /** `words(entry)`, when given, may word a step's events itself: [{kind, text}] (a game page's
   *  `logLines`, e.g. Star Dice's "the Klingon d12 knocks your d6 out of the square"); null or
   *  undefined keeps the events' own texts. */
  constructor(list, words = null) {
    this.list = list;
    this.entries = [];
    this.words = words;
  }

  /** Replace everything with the server's log ([{step, seat, action, events}]). */
  reset(entries, describe) {
    this.entries = [];
    this.list.replaceChildren();
    for (const entry of entries) this.add(entry, describe);
  }

  /** Add one step; `describe(entry)` gives the heading ("Setup", "You: move left"). */
  add(entry, describe) {
    if (this.entries.length && this.entries[this.entries.length - 1].step >= entry.step) {
      this.dropAfter(entry.step - 1);
    }
    const lines = this.words?.(entry) ?? (entry.events || []);
    const item = h("li", { dataset: { step: entry.step } },
      h("span", { class: "log-head" }, describe(entry)),
      lines.length ? h("ul", {}, lines.map((e) => h("li", { class: `ev-${e.kind}` }, e.text))) : null);
    this.entries.push({ step: entry.step, item });
    this.list.append(item);
    this.list.parentElement.scrollTop = this.list.parentElement.scrollHeight;
  }

  /** Forget the steps after `step` (after an undo). */
  dropAfter(step) {
    while (this.entries.length && this.entries[this.entries.length - 1].step > step) {
      this.entries.pop().item.remove();
    }
  }

  get lastStep() {
    return this.entries.length ? this.entries[this.entries.length - 1].step : -1;
  }
}

/** The rules panel: the game's player rules, fetched once and rendered from markdown. */
export class RulesPanel {
  constructor(gameId) {
    this.gameId = gameId;
    this.loaded = false;
    this.body = h("div", { class: "rules-body" }, h("p", {}, "Loading the rules…"));
    this.panel = h("aside", { class: "rules-panel", id: "rules", hidden: true, "aria-label": "Rules" },
      h("div", { class: "rules-head" },
        h("h2", {}, "How to play"),
        h("button", { class: "quiet close", "aria-label": "Close the rules", onClick: () => this.toggle(false) }, "✕")),
      h("p", { class: "rules-learn" }, learnButtons(gameId)), this.body);
    document.body.append(this.panel);
  }

  get isOpen() {
    return !this.panel.hidden;
  }

  async toggle(open = !this.isOpen) {
    this.panel.hidden = !open;
    document.body.classList.toggle("rules-open", open);
    if (open) this.panel.querySelector(".close").focus();
    if (open && !this.loaded) {
      try {
        const data = await getJson(`/api/games/${encodeURIComponent(this.gameId)}/rules`);
        this.body.replaceChildren(renderMarkdown(data.markdown));
        this.loaded = true;
      } catch (err) {
        this.body.replaceChildren(h("p", { class: "error" }, err.message));
      }
    }
  }
}

/** The game has just ended on this page: its end screen comes into view where it is not (on a
 * phone it sits under the board, below the fold; a person scrolled down to the controls on a
 * desktop too), its top just under what stays pinned at the window's top (a proposal's status,
 * Rotator's actions on a phone), so its title and verdict are read first, and far enough for its
 * buttons (what to do next) where the title stays in view. */
export function bringIntoView(panel) {
  if (!panel) return;
  const pinned = Math.max(0, ...[...document.querySelectorAll(".proposal-status, .actions-panel")]
    .filter((el) => !el.hidden && getComputedStyle(el).position === "sticky").map((el) => el.offsetHeight));
  const top = panel.getBoundingClientRect().top;
  // What to do next (its buttons) must show too: on a phone the panel's top came into view
  // with its buttons below the fold. Scroll just enough for them, never past the panel's top.
  const actions = panel.querySelector(".buttons") ?? panel;
  const short = actions.getBoundingClientRect().bottom - (window.innerHeight - 8);
  const topShown = top >= pinned && top < window.innerHeight;
  if (topShown && short <= 0) return;
  const by = topShown ? Math.min(short, top - pinned - 8) : top - pinned - 8;
  window.scrollBy({ top: by, behavior: prefersReducedMotion() ? "auto" : "smooth" });
}

/** The end screen over the board: who won, why the game ended, what was hidden and the game's
 * story (`details`, end_story.js), the wizard game's vote, and what to do next. */
export function endScreen({ title, text, won, details = null, vote = null, replayUrl, onRematch, onClose }) {
  const rematch = onRematch
    ? h("button", { class: "primary", onClick: onRematch, "data-key": "n" }, "Rematch (n)") : null;
  return h("section", { class: `end-screen ${won ? "won" : "lost"}`, role: "dialog", "aria-live": "polite",
    "aria-labelledby": "end-title" },
  h("h2", { id: "end-title" }, title),
  h("p", { class: "end-reason" }, text),
  vote,
  h("div", { class: "buttons" },
    rematch,
    h("a", { class: "button", href: replayUrl }, "Watch the replay"),
    h("a", { class: "button", href: "/" }, "Back to the lobby"),
    h("button", { class: "quiet", onClick: onClose }, "Look at the board")),
  details);
}
