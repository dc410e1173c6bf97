// The table chat: every connection reads it; a seated player writes one line at a
// time (a solitaire's page shows no chat: `setSolo`) (the server refuses watchers and checks the line). Lines arrive as `chat` messages, and
// a (re)connecting page gets the table's last lines in its `welcome`.

import { h } from "./util.js";

export class ChatPanel {
  constructor(send) {
    this.list = h("ol", { class: "chat-list", "aria-live": "polite" });
    this.input = h("input", { type: "text", maxlength: 300, placeholder: "Say something to the table", "aria-label": "Chat message" });
    this.form = h("form", { class: "chat-form", onSubmit: (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (text) send({ type: "chat", text });
      this.input.value = "";
    } }, this.input, h("button", { type: "submit" }, "Send"));
    // Keys typed into the chat are words, not the board's shortcuts.
    this.input.addEventListener("keydown", (e) => e.stopPropagation());
    this.heading = h("h2", {}, "Table chat");
    this.element = h("section", { class: "chat-panel", "aria-label": "Table chat" }, this.heading, this.list, this.form);
    this.solo = false;
  }

  setSeated(seated) {
    this.form.hidden = !seated || this.solo;
  }

  /** A table of one person (a solitaire) has nobody to chat with: no chat, only the server's
   * notices (a timer run out), under their own heading and shown once there is one. */
  setSolo(solo) {
    this.solo = solo;
    this.heading.textContent = solo ? "Notices" : "Table chat";
    this.element.setAttribute("aria-label", solo ? "Notices" : "Table chat");
    if (solo) this.form.hidden = true;
    this.element.hidden = solo && !this.list.children.length;
  }

  reset(lines) {
    this.list.replaceChildren();
    for (const line of lines || []) this.add(line);
  }

  add(line) {
    this.list.append(h("li", {}, h("strong", {}, `${line.name}: `), line.text));
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** A line from the server itself (a bot replaced, a timer run out), set apart from people's. */
  notice(line) {
    this.list.append(h("li", { class: "chat-notice" }, h("strong", {}, "Table: "), line.text));
    this.element.hidden = false;
    this.list.scrollTop = this.list.scrollHeight;
  }
}
