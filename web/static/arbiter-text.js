// The arbiter console's words: the notice line, a card's status line, tags, and games and
// players named. An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $, el } from "/static/dom.js";
import { playerName } from "/static/players.js";

export function notice(text, kind = "") {
  const node = $("notice");
  node.textContent = text;
  node.className = `notice ${kind}`;
}

export function changeStatus(text, kind = "", where = "change-status") {
  const node = $(where);
  node.textContent = text;
  node.className = `change-status ${kind}`;
}

export function tag(text, kind) {
  return el("span", `tag ${kind}`, text);
}

export function gameLabel(game) {
  return `Board ${game.board} · ${playerName(game.white)} – ${playerName(game.black)}`;
}

export function side(game, colour) {
  return `${colour === "white" ? "White" : "Black"} (${playerName(game[colour])})`;
}
