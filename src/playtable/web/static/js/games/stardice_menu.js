// The Star Dice table menu ("named variants of the seed's iterations ... are playable
// from the table menu"): a button above the table opens the game's named variants, each with its
// one-line description from the catalogue (GET /api/games, the game's variant_descriptions),
// grouped as the game groups them: the standard rules first, each group under its title and the
// line saying what it is (the designer's earlier versions kept apart).
// Choosing one asks once more ("Start ..."), then starts a new table in that variant through the
// rematch request (ctx.rematch(variant), docs/web.md): both players' pages follow to it, the
// solitaire (Objective 1) seats the one who chose it. Only a seated player sees the menu.

import { getJson, h } from "../util.js";

export class VariantMenu {
  constructor(ctx) {
    this.ctx = ctx;
    this.variants = null;
    this.game = null; // the catalogue's Star Dice entry: its variants' titles, standard rules and groups
    this.chosen = null;
    this.list = h("ul", { class: "stardice-variants", "aria-label": "Variants" });
    this.note = h("p", { class: "stardice-menu-note" });
    this.start = h("button", { type: "button", class: "primary stardice-start", hidden: true,
      onClick: () => this.begin() });
    this.panel = h("div", { class: "stardice-menu-panel", hidden: true },
      h("p", {}, "Start a new game in one of the designer's named variants (everyone at this table moves to it; Objective 1, the solitaire, is yours alone):"),
      this.list, this.start, this.note);
    this.toggle = h("button", { type: "button", class: "stardice-menu-button", "aria-expanded": "false",
      onClick: () => this.open(this.panel.hidden) }, "Table menu");
    this.element = this.toggle; // goes in the bar above the table; the panel opens under the bar
    this.toggle.hidden = true;
  }

  /** Shown to seated players only: a watcher cannot start a table for them. */
  show(isPlayer) {
    this.toggle.hidden = !isPlayer;
    if (!isPlayer) this.open(false);
  }

  async open(yes) {
    this.panel.hidden = !yes;
    this.toggle.setAttribute("aria-expanded", String(yes));
    if (!yes || this.variants) return;
    try {
      const { games } = await getJson("/api/games");
      this.game = games.find((game) => game.id === "stardice") ?? { variants: [] };
      this.variants = this.game.variants;
      this.draw();
    } catch (err) {
      this.note.textContent = err.message;
    }
  }

  /** The variant's name for players; its id stays in data-variant. */
  titleOf(name) {
    const variant = this.variants.find((v) => v.name === name);
    return variant?.standard ? this.game.standard.title : variant?.title ?? name;
  }

  /** The standard rules (the variant that changes nothing), each group, then the rest. */
  sections() {
    const groups = this.game.variant_groups ?? [];
    const grouped = new Set(groups.flatMap((g) => g.names));
    const known = new Set(this.variants.map((v) => v.name));
    return [{ names: this.variants.filter((v) => v.standard).map((v) => v.name) },
      ...groups.map((g) => ({ ...g, names: g.names.filter((n) => known.has(n)) })),
      { title: "Other variants", names: this.variants.filter((v) => !v.standard && !grouped.has(v.name)).map((v) => v.name) }]
      .filter((section) => section.names.length);
  }

  draw() {
    const current = this.ctx.table()?.variant ?? null;
    const description = (name) => this.variants.find((v) => v.name === name)?.description ?? "";
    const button = (name) => h("li", {}, h("button", {
      type: "button",
      class: `stardice-variant${name === this.chosen ? " selected" : ""}`,
      "aria-pressed": name === this.chosen ? "true" : "false",
      dataset: { variant: name },
      onClick: () => { this.chosen = name; this.draw(); },
    }, h("b", {}, this.titleOf(name)), name === current ? " (playing now)" : "", h("br"), description(name)));
    this.list.replaceChildren(...this.sections().map((section) => h("li", { class: "stardice-variant-group" },
      section.title ? h("h3", {}, section.title) : null, section.note ? h("p", { class: "note" }, section.note) : null,
      h("ul", {}, section.names.map(button)))));
    this.start.hidden = this.chosen === null;
    this.start.textContent = this.chosen ? `Start: ${this.titleOf(this.chosen)}` : "";
  }

  async begin() {
    if (!this.chosen) return;
    this.start.disabled = true;
    this.note.textContent = `Starting ${this.titleOf(this.chosen)}…`;
    await this.ctx.rematch(this.chosen);
    // What became of it (the others asked, or a refusal) is the frame's one status line under the
    // header, which follows the proposal (proposal.js): nothing stays here to contradict it.
    this.note.textContent = "";
    this.start.disabled = false;
    this.open(false);
  }
}
