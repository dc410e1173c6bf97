// The playtest page (/p/ID): a tester chooses a name, is seated at the next game of
// the playtest (its variant and deal assigned by the server), plays it on the table page, and
// comes back here to answer the designer's questions about it.

import { nameForm, playerKey, playerName, saveName } from "./player.js";
import { ApiError, getJson, h, postJson } from "./util.js";

const root = document.getElementById("app");
const playtestId = decodeURIComponent(window.location.pathname.split("/")[2] || "");
const api = `/api/playtests/${encodeURIComponent(playtestId)}`;
const POLL_MS = 4000;
// A page whose games are answered keeps its counter current while other testers' answers are
// still to come (a shared table counts once all its testers answered), for half an hour at most.
const COUNTER_POLLS = 450;
let info = null;
let poll = null;
let counterPolls = 0;

function problemLine() {
  return h("p", { class: "error", role: "alert" });
}

function count(n, what) {
  return `${n} ${what}${n > 1 ? "s" : ""}`;
}

// Who else sits at a tester's table: " with 2 other testers and 1 bot", " against 1 bot", "".
function company(testers, bots) {
  const others = [testers ? count(testers, "other tester") : "", bots ? count(bots, "bot") : ""].filter(Boolean);
  if (!others.length) return "";
  return `${testers ? " with " : " against "}${others.join(" and ")}`;
}

function headSection() {
  return h("section", { "aria-labelledby": "playtest-title" },
    h("h1", { id: "playtest-title" }, info.title),
    h("p", {}, `You play ${info.game_name}${company(info.people - 1, info.bots)}. The server picks which `
      + "version of the rules you play, and after the game you answer a few short questions."),
    h("p", { class: "progress", id: "playtest-counter" }, counterText()));
}

function counterText() {
  return `${info.answered} of ${info.games} games played and answered so far.`;
}

function nameSection() {
  return h("section", {}, nameForm({
    label: "Choose a name (the designer sees it beside your answers)",
    onSaved: draw,
  }));
}

async function mine() {
  const key = playerKey();
  try {
    return await postJson(`${api}/me`, { key });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 403) throw err;
    await saveName(playerName()); // a server that lost the key is told the name again
    return postJson(`${api}/me`, { key });
  }
}

function playSection(me) {
  const problem = problemLine();
  const button = h("button", { type: "button", class: "primary", id: "play" },
    me.played ? "Play another game" : "Play a game");
  button.addEventListener("click", async () => {
    button.disabled = true;
    problem.textContent = "";
    try {
      const seat = await postJson(`${api}/play`, { key: playerKey() });
      window.location.assign(seat.path);
    } catch (err) {
      problem.textContent = err.message;
      button.disabled = false;
    }
  });
  const done = me.played ? h("p", { class: "thanks" }, `Thank you, ${me.player}: your answers are saved.`) : null;
  return h("section", {}, done, h("p", {}, `Playing as ${me.player}.`), button, problem);
}

function scaleQuestion(q) {
  const choices = [1, 2, 3, 4, 5].map((n) => h("label", {},
    h("input", { type: "radio", name: q.id, value: String(n), "aria-label": `${n}${n === 1 && q.low ? ` (${q.low})` : ""}${n === 5 && q.high ? ` (${q.high})` : ""}` }),
    String(n)));
  return h("fieldset", { "data-question": q.id },
    h("legend", {}, q.prompt),
    h("div", { class: "scale" }, h("span", { class: "end low" }, q.low), ...choices, h("span", { class: "end high" }, q.high)));
}

function textQuestion(q) {
  return h("fieldset", { "data-question": q.id },
    h("label", { class: "prompt", for: `q-${q.id}` }, q.prompt),
    h("textarea", { id: `q-${q.id}`, name: q.id, maxlength: 500, rows: 3 }));
}

function questionsSection(me) {
  const problem = problemLine();
  const form = h("form", { class: "questionnaire", "aria-label": "Questions about your game" },
    h("h2", {}, "Your game is over: how was it?"),
    ...info.questions.map((q) => (q.kind === "scale" ? scaleQuestion(q) : textQuestion(q))),
    h("div", { class: "inline" }, h("button", { type: "submit", class: "primary" }, "Send the answers"),
      h("a", { href: `/t/${encodeURIComponent(me.last.table_id)}/replay` }, "See the game again")),
    problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    const answers = {};
    for (const q of info.questions) {
      if (q.kind === "scale") {
        const picked = form.querySelector(`input[name="${q.id}"]:checked`);
        answers[q.id] = picked ? Number(picked.value) : null;
      } else {
        answers[q.id] = form.querySelector(`textarea[name="${q.id}"]`).value;
      }
    }
    try {
      await postJson(`${api}/answers`, { key: playerKey(), table_id: me.last.table_id, answers });
      draw(); // with the counter read again
    } catch (err) {
      problem.textContent = err.message;
    }
  });
  return h("section", {}, form);
}

function waitingSection(me) {
  const path = `/t/${encodeURIComponent(me.last.table_id)}?seat=${me.last.seat}&playtest=${encodeURIComponent(playtestId)}`;
  const waiting = me.last.waiting_for
    ? h("p", { class: "progress", id: "waiting-for" }, `Your table waits for ${count(me.last.waiting_for, "more tester")}: `
      + "the next people to open this link sit down with you.")
    : null;
  return h("section", {}, h("p", {}, "Your game is not over yet."), waiting,
    h("a", { class: "button primary", href: path, id: "continue" }, "Continue your game"),
    h("p", { class: "progress" }, "This page shows the questions once the game is over."));
}

async function draw() {
  clearTimeout(poll);
  const parts = [headSection()];
  if (!playerName() || !playerKey()) {
    parts.push(nameSection());
    root.replaceChildren(...parts);
    document.body.dataset.state = "name";
    return;
  }
  let me;
  try {
    [me, info] = await Promise.all([mine(), getJson(api)]); // the counter is fresh at every draw
    parts[0] = headSection();
  } catch (err) {
    parts.push(h("section", {}, h("p", { class: "error" }, err.message)));
    root.replaceChildren(...parts);
    return;
  }
  if (me.last && !me.last.over) {
    parts.push(waitingSection(me));
    poll = setTimeout(draw, POLL_MS);
  } else if (me.last && !me.last.answered) {
    parts.push(questionsSection(me));
  } else if (me.more) {
    parts.push(playSection(me));
    pollCounter();
  } else {
    parts.push(h("section", {}, h("p", { class: "thanks" }, `Thank you, ${me.player}: you have played every `
      + "game this playtest has for you.")));
    pollCounter();
  }
  root.replaceChildren(...parts);
  document.body.dataset.state = me.last && !me.last.over ? "playing" : me.last && !me.last.answered ? "questions" : "ready";
}

// The counter alone moves (the rest of the page stays as the tester left it) while games
// others took are still to be answered.
function pollCounter() {
  if (info.answered >= info.taken || counterPolls >= COUNTER_POLLS) return;
  counterPolls += 1;
  poll = setTimeout(async () => {
    try {
      info = await getJson(api);
    } catch {
      return; // the next draw says what is wrong
    }
    const counter = document.getElementById("playtest-counter");
    if (counter) counter.textContent = counterText();
    pollCounter();
  }, POLL_MS);
}

async function main() {
  try {
    info = await getJson(api);
  } catch (err) {
    root.replaceChildren(h("section", { class: "page-error" }, h("h1", {}, "No such playtest"),
      h("p", {}, err.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
    return;
  }
  document.title = `${info.title} · playtable`;
  draw();
}

main();
