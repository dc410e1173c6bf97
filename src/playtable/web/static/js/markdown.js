// A tiny markdown renderer for the games' player rules (HOW_TO_PLAY.md): headings, paragraphs,
// nested bullet and numbered lists, fenced code, and inline bold, italic and code. Everything is
// built as DOM nodes (never innerHTML), so no text from a file can inject markup.

import { h } from "./util.js";

/** Inline text: `code`, **bold**, *italic* / _italic_, as DOM nodes. */
export function inline(text) {
  const out = [];
  const pattern = /`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s][^*]*?)\*|\b_([^_]+?)_\b/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    if (match[1] !== undefined) out.push(h("code", {}, match[1]));
    else if (match[2] !== undefined || match[3] !== undefined) {
      out.push(h("strong", {}, inline(match[2] ?? match[3])));
    } else out.push(h("em", {}, inline(match[4] ?? match[5])));
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;

function indentOf(line) {
  return line.length - line.trimStart().length;
}

/** Parse list lines starting at `start` with indentation `indent`; returns [element, next index]. */
function parseList(lines, start, indent) {
  const first = lines[start].match(LIST_ITEM);
  const ordered = /\d/.test(first[2]);
  const list = h(ordered ? "ol" : "ul");
  let i = start;
  let item = null;
  let text = [];
  const flush = () => {
    if (item && text.length) item.prepend(...inline(text.join(" ")));
    text = [];
  };
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      // A blank line ends the list unless the next line continues it at this depth or deeper.
      const next = lines[i + 1];
      if (next === undefined || indentOf(next) < indent || !next.trim()) break;
      if (indentOf(next) === indent && !LIST_ITEM.test(next)) break;
      i += 1;
      continue;
    }
    const match = line.match(LIST_ITEM);
    const depth = indentOf(line);
    if (depth < indent) break;
    if (match && depth === indent) {
      flush();
      item = h("li");
      list.append(item);
      text = [match[3]];
      i += 1;
    } else if (match && depth > indent && item) {
      flush();
      const [sub, next] = parseList(lines, i, depth);
      item.append(sub);
      i = next;
    } else if (item && depth > indent) {
      text.push(line.trim());
      i += 1;
    } else {
      break;
    }
  }
  flush();
  return [list, i];
}

/** The markdown text as a DocumentFragment. */
export function renderMarkdown(markdown) {
  const lines = String(markdown).replace(/\r\n?/g, "\n").split("\n");
  const out = document.createDocumentFragment();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    if (line.startsWith("```")) {
      const code = [];
      i += 1;
      while (i < lines.length && !lines[i].startsWith("```")) code.push(lines[i++]);
      out.append(h("pre", {}, h("code", {}, code.join("\n"))));
      i += 1;
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*?)\s*#*\s*$/);
    if (heading) {
      // The page's own title is h1; the rules file's headings sit below it.
      const level = Math.min(6, heading[1].length + 1);
      out.append(h(`h${level}`, {}, inline(heading[2])));
      i += 1;
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const [list, next] = parseList(lines, i, indentOf(line));
      out.append(list);
      i = next;
      continue;
    }
    const paragraph = [];
    while (i < lines.length && lines[i].trim() && !LIST_ITEM.test(lines[i])
      && !/^#{1,6}\s/.test(lines[i]) && !lines[i].startsWith("```")) {
      paragraph.push(lines[i].trim());
      i += 1;
    }
    out.append(h("p", {}, inline(paragraph.join(" "))));
  }
  return out;
}
