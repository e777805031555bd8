// Finding, making and filling the pages' elements. An ES module, no build.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

export const $ = (id) => document.getElementById(id);

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

// A button that does something on the page (not a form's submit button).
export function actionButton(cls, text) {
  const node = el("button", cls, text);
  node.type = "button";
  return node;
}

// A choice in a <select>: its value, its words, whether it is the one chosen.
export function option(value, text, selected = false) {
  const node = el("option", null, text);
  node.value = String(value);
  if (selected) node.selected = true;
  return node;
}

// A row of column headings: each a text, or [text, class, title].
export function columnHeads(headers) {
  const row = el("tr");
  for (const header of headers) {
    const [text, cls, title] = Array.isArray(header) ? header : [header];
    const th = el("th", cls, text);
    th.scope = "col";
    if (title) th.title = title;
    row.append(th);
  }
  return row;
}

// The header's live light (#status) for a stream's onStatus: "live", or `offline` words.
export function liveStatus(offline = "reconnecting") {
  return (live) => {
    const status = $("status");
    status.textContent = live ? "live" : offline;
    status.classList.toggle("live", live);
  };
}

export function stamp(element) {
  element.textContent = `Last updated ${new Date().toLocaleTimeString()}`;
  element.dataset.updated = String(Date.now());
}
