// What a finished game shows every seat, watcher and the replay's last step: what was
// hidden (the game's own words, `State.revealed`), the game's story told from its log (key
// moments, who did what, the game's figures: core/story.py), and the wizard game's vote for the
// most evil player (seed 003, 8 Nov: the most evil player is the next game's wizard; votes.py).
// Games know nothing of this page: the server sends `end = {revealed, story}` once a game is over.

import { h } from "./util.js";

/** "Alice", "Alice and Bob", "Alice, Bob and Carol". */
export function andList(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

const words = (kind) => kind.replaceAll("_", " ");

function revealedPart(revealed) {
  if (!revealed?.length) return h("p", { class: "end-none" }, "Nothing was hidden in this game: everyone saw the whole table.");
  // A long list (the wizard's unturned tiles) takes the whole width, in columns.
  const long = (section) => (section.lines.length > 6 ? " long" : "");
  return h("div", { class: "end-revealed" }, revealed.map((section) => h("div", { class: `end-section${long(section)}` },
    h("h4", {}, section.heading),
    h("ul", { class: long(section).trim() || null }, section.lines.map((line) => h("li", {}, line))))));
}

function storyPart(story, who) {
  if (!story?.seats) return null;
  const rows = story.seats.map((s) => h("tr", {},
    h("th", { scope: "row" }, who(s.seat)),
    h("td", {}, String(s.actions)),
    h("td", {}, Object.entries(s.moments).map(([kind, n]) => (n === 1 ? words(kind) : `${words(kind)} ×${n}`)).join(", ") || "–")));
  // The game's figures are its own sentences (Presentation.story_figures), never raw counters.
  const figures = Array.isArray(story.figures) ? story.figures.join(" ") : "";
  const moments = story.moments.map((m) => h("li", {},
    h("span", { class: "end-step", title: "the step in the log and the replay" }, `step ${m.step}`), " ", m.text));
  return h("div", { class: "end-story" },
    h("table", { class: "end-tallies" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Who"), h("th", { scope: "col" }, "Actions"), h("th", { scope: "col" }, "Key moments"))),
      h("tbody", {}, rows)),
    figures ? h("p", { class: "end-figures" }, figures) : null,
    moments.length ? h("h4", {}, "Key moments") : null,
    moments.length ? h("ul", { class: "end-moments" }, moments) : null,
    story.moments_left_out ? h("p", { class: "note" }, `…and ${story.moments_left_out} more in the middle of the game (see the replay).`) : null);
}

/** The reveal and the story, as two foldable parts (the story open at once when nothing was
 * hidden). `who(seat)` names a seat (its player). */
export function endDetails(end, who) {
  if (!end) return null;
  const hidden = Boolean(end.revealed?.length);
  const story = h("details", { class: "end-part", open: !hidden }, h("summary", {}, "The game's story"), storyPart(end.story, who));
  // Opened by a click, the story comes into view (the end screen scrolls inside itself).
  story.addEventListener("toggle", () => { if (story.open && hidden) story.scrollIntoView({ block: "nearest" }); });
  return h("div", { class: "end-details" },
    hidden ? h("details", { class: "end-part", open: true }, h("summary", {}, "What was hidden"), revealedPart(end.revealed))
      : revealedPart(end.revealed),
    story);
}

/** The vote for the most evil player: buttons for a person who has not voted, then where the
 * vote stands, and the tally once everyone has voted. `onVote(seat)` sends a vote. */
export function voteBox(vote, { seat, seats, who, onVote }) {
  if (!vote) return null;
  const waiting = vote.voters.filter((s) => !vote.voted.includes(s)).map(who);
  let body;
  if (vote.tally) {
    const counted = Object.entries(vote.tally).sort((a, b) => b[1] - a[1])
      .map(([s, n]) => `${who(Number(s))} ${n} vote${n === 1 ? "" : "s"}`).join(", ");
    body = [
      h("p", { class: "vote-result" }, vote.most_evil === null
        ? "A tie: nobody is the most evil player. Agree on the next wizard, or keep the seats."
        : `The most evil player is ${who(vote.most_evil)}: at the rematch, ${who(vote.most_evil)} plays the wizard.`),
      h("p", { class: "note" }, counted),
    ];
  } else if (vote.can_vote) {
    body = [
      h("p", {}, "Who is the most evil player? They play the wizard at the rematch (you can't vote for yourself)."),
      h("div", { class: "buttons vote-choices" }, seats.map((_, s) => s).filter((s) => s !== seat)
        .map((s) => h("button", { type: "button", dataset: { vote: s }, onClick: () => onVote(s) }, who(s)))),
    ];
  } else {
    const mine = vote.mine === null || vote.mine === undefined ? "" : `You voted for ${who(vote.mine)}. `;
    body = [h("p", {}, `${mine}Waiting for ${andList(waiting) || "the others"} to vote; the tally shows once everyone has.`)];
  }
  return h("section", { class: "vote-box", "aria-label": "The most evil player" },
    h("h3", {}, "The most evil player"), ...body);
}
