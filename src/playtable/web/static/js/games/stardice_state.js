// What every part of the Star Dice page shares, in one object: stardice.js makes one
// `TableState` per board and hands it to each module (drawing, aiming and throwing, the words
// over the table, the controls, the scoring, the live match). It holds what the server last
// sent, this page's seat, the ship chosen, the throw being aimed or played back, a battle frozen
// with its scoring, the pause, and the page's elements (`ui`); its methods are what the modules
// derive from that state (whose turn, may this page throw now, the scoring shown).

import { fit } from "./stardice_draw.js";
import { FLEETS, playerName, throwHead } from "./stardice_words.js";

/** The throw paces a page may ask for, slowest first, as the server's wire.PACES. */
export const PACES = { normal: "As thrown", fast: "Fast", instant: "At once" };

const THROW_RE = /^(roll|slide) (\S+) at /;

/** A sentence's first letter in capitals ("you" at its start). */
export const Cap = (text) => text[0].toUpperCase() + text.slice(1);

/** A legal throw's head ("roll d20a") as the choice a ship button stands for ("roll d20"). */
export function choiceOf(head) {
  const { mode, kind } = throwHead(head);
  return mode === "torpedo" ? "torpedo" : `${mode} ${kind}`;
}

export class TableState {
  constructor(ctx, ui, sounds) {
    this.ctx = ctx;
    this.ui = ui; // the page's elements: box, canvas, prompt, pieceBar, choices, nextBattle, note, ...
    this.sounds = sounds; // stardice_sound.js's Sounds
    this.menu = null; // the table menu (stardice_menu.js), on a page that may start a new table
    this.obs = null; // the last observation
    this.view = null; // the last render's view
    this.viewer = null; // this page's seat (null: watching)
    this.selected = null; // the chosen ship, as "mode kind" ("roll d20", "slide d6", "roll borg", "torpedo")
    this.live = null; // a throw played back: {step, frames, start (ms), speed (over the physics' time), done}
    this.aim = null; // a throw being dragged
    this.kbd = null; // a throw being aimed from the keyboard: {s (along the frame), tx, ty}
    this.ownThrow = null; // when this page released the throw whose stream comes next
    this.pending = false; // a throw sent, its state not back yet
    this.frozen = null; // a battle of a war (a solitaire round) just scored: {event, score, pos, values, obs}
    this.paused = false;
    this.pausedAt = 0;
    this.pausedFor = 0;
    this.highlight = null; // the key of the shape whose row the pointer is on
    this.numbers = new Map(); // formation key -> its fading tag {text, owner, x, y, born, gone}
    this.stage = { width: 0, height: 0, fit: fit(1, 1) }; // the canvas's size and table transform
  }

  /** The seats' people by name when the table knows them (ctx.who), else their fleets. */
  names() {
    return [0, 1].map((seat) => this.ctx.who?.(seat) || this.ctx.seatNames?.()[seat] || FLEETS[seat]);
  }

  params() {
    return this.ctx.table?.()?.params ?? {};
  }

  /** A seat as this page's reader says it: "you", or the player's name. */
  you(seat) {
    return seat === this.viewer && this.viewer !== null ? "you" : playerName(seat, this.names());
  }

  /** The scoring system in force ("final", "multiplier", "max", "max_best"). */
  system() {
    return this.params().scoring ?? "final";
  }

  /** The page's clock in ms, stopped while paused. */
  clock() {
    return (this.paused ? this.pausedAt : performance.now()) - this.pausedFor;
  }

  togglePause() {
    this.paused = !this.paused;
    if (this.paused) this.pausedAt = performance.now();
    else this.pausedFor += performance.now() - this.pausedAt;
  }

  /** The scoring shown now: a frozen battle's, the last battle's at the end, else the table's. */
  shownScore() {
    if (this.frozen) return this.frozen.score;
    if (this.view?.terminal && this.obs?.last_score) return this.obs.last_score;
    return this.obs?.score ?? { points: [0, 0], shapes: [] };
  }

  scored() {
    return Boolean(this.frozen || this.view?.terminal);
  }

  /** A throw of this page's is on its way (sent, or still played back). */
  rolling() {
    return this.pending || Boolean(this.live && !this.live.done);
  }

  /** The heads of the legal throws ("roll d20a", "slide d6b", "torpedo"), each once. */
  throwHeads() {
    const heads = [];
    for (const { action } of this.view?.legal || []) {
      const m = THROW_RE.exec(action);
      const head = m ? `${m[1]} ${m[2]}` : action.startsWith("torpedo ") ? "torpedo" : null;
      if (head && !heads.includes(head)) heads.push(head);
    }
    return heads;
  }

  selectedHead() {
    return this.throwHeads().find((head) => choiceOf(head) === this.selected) ?? null;
  }

  canThrow() {
    const view = this.view;
    return Boolean(view && view.yourTurn && !view.terminal && !this.paused && !this.frozen
      && !(this.live && !this.live.done) && this.selectedHead() && !this.pending);
  }
}
