// A mid-game proposal to leave this game for a new one (docs/web.md, rematch): one status line
// under the header, where every seated person looks, that follows the proposal from asking to
// its end. The asker reads whom it waits for (and may take it back); a person asked reads who
// asks for what, with "Agree" and "Keep playing"; "Keep playing" tells the server
// (`keep_playing`), so the asker's page stops waiting. The open proposal comes in every
// welcome too, so a page reloaded or opened hours later still asks its person.

import { andList } from "./end_story.js";
import { h } from "./util.js";

/** "the wizard" -> "The wizard": a name that starts a sentence. */
export function upperFirst(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export class ProposalStatus {
  /** `send(message)` sends on the table's socket, `agree(variant)` asks for the same new game,
   * `who(seat)` names a seat. */
  constructor({ send, agree, who }) {
    this.send = send;
    this.agree = agree;
    this.who = who;
    this.proposal = null;
    this.note = "";
    this.element = h("div", { class: "proposal-status", role: "status", "aria-live": "polite", hidden: true });
  }

  /** The open proposal as the server tells it (null: none). */
  set(proposal) {
    this.proposal = proposal ?? null;
    if (proposal) this.note = "";
  }

  /** Someone kept playing: the proposal is gone, and this line says who ended it. */
  declined(message, seat) {
    this.proposal = null;
    this.note = message.seat === seat ? "You kept playing: the game goes on."
      : `${upperFirst(message.name)} wants to keep playing: the game goes on.`;
  }

  /** Something to say in the same place (the request failed, or is on its way). */
  say(text) {
    this.proposal = null;
    this.note = text;
  }

  /** Draw the line for this page's seat; `active`: a seated player at a game still going on. */
  draw(seat, active) {
    const p = active ? this.proposal : null;
    const what = p?.variant ? `a new game of ${p.variant_title ?? p.variant}` : "a new game";
    const waiting = andList((p?.waiting_for ?? []).map((s) => this.who(s)));
    let parts;
    if (!p) parts = active && this.note ? [this.note] : [];
    else if (p.seat === seat) {
      parts = [`You asked to leave this game for ${what}: waiting for ${waiting} to agree. `,
        h("button", { type: "button", class: "quiet", onClick: () => this.send({ type: "keep_playing" }) }, "Take it back")];
    } else if (p.waiting_for.includes(seat)) {
      parts = [`${upperFirst(p.name)} asks to leave this game for ${what}. `,
        h("button", { type: "button", class: "primary", onClick: () => this.agree(p.variant ?? undefined) }, "Agree"), " ",
        h("button", { type: "button", class: "quiet", onClick: () => this.send({ type: "keep_playing" }) }, "Keep playing")];
    } else {
      parts = [`${upperFirst(p.name)} asked to leave this game for ${what}: waiting for ${waiting} to agree.`];
    }
    this.element.replaceChildren(...parts);
    this.element.hidden = !parts.length;
  }
}
