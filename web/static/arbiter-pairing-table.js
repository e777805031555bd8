// The Pairings card's tables on the arbiter console: the round's games and byes as rows to
// edit by start number, each with the player's name beside it, and read back for the hub.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $, actionButton, el, option } from "/static/dom.js";
import { playerName } from "/static/players.js";
import { state } from "/static/arbiter-state.js";

export const BYE_WORDS = { pab: "pairing-allocated bye", half: "half-point bye", full: "full-point bye", zero: "zero-point bye" };

// "3 · Player, Name (2250)" for a start number; words when nobody has it.
export function entrant(number) {
  const player = state.players.get(number);
  if (!player) return null;
  return `${playerName(player)}${player.rating ? ` (${player.rating})` : ""}`;
}

// A start-number input with the player's name beside it, kept current as it is typed.
function playerField(number, label, cls) {
  const cell = el("td", `entrant ${cls}`);
  const input = el("input", `start-number ${cls}-number`);
  input.type = "number";
  input.min = "1";
  input.step = "1";
  input.required = true;
  input.value = number === null ? "" : String(number);
  input.setAttribute("aria-label", label);
  const name = el("span", `player-name ${cls}-name`);
  const show = () => {
    const value = Number(input.value);
    const who = input.value.trim() && Number.isInteger(value) ? entrant(value) : null;
    name.textContent = who || (input.value.trim() ? "no such player" : "");
    name.classList.toggle("bad-text", !who && !!input.value.trim());
  };
  input.addEventListener("input", () => { show(); markDirty(); });
  show();
  cell.append(input, " ", name);
  return cell;
}

export function gameRow(game) {
  const row = el("tr");
  row.dataset.board = String(game.board);
  const board = el("th", "bd", String(game.board));
  board.scope = "row";
  const white = playerField(game.white, `Board ${game.board}, White's start number`, "white");
  const black = playerField(game.black, `Board ${game.board}, Black's start number`, "black");
  const tools = el("td", "tools");
  const flip = actionButton("small flip", "Swap colours");
  flip.setAttribute("aria-label", `Swap colours on board ${game.board}`);
  flip.addEventListener("click", () => {
    const [w, b] = [white.querySelector("input"), black.querySelector("input")];
    [w.value, b.value] = [b.value, w.value];
    for (const input of [w, b]) input.dispatchEvent(new Event("input"));
  });
  tools.append(flip);
  row.append(board, white, black, tools);
  return row;
}

export function byeRow(bye) {
  const row = el("tr", "bye");
  const player = playerField(bye.player, "Start number of the player with a bye", "bye");
  const kind = el("td", "kind");
  const choice = el("select", "bye-kind");
  choice.setAttribute("aria-label", "Kind of bye");
  choice.append(...Object.entries(BYE_WORDS).map(([value, words]) => option(value, words)));
  choice.value = bye.kind;
  choice.addEventListener("change", markDirty);
  kind.append(choice);
  const tools = el("td", "tools");
  const remove = actionButton("small", "Remove");
  remove.setAttribute("aria-label", "Remove this bye");
  remove.addEventListener("click", () => { row.remove(); markDirty(); });
  tools.append(remove);
  row.append(player, kind, tools);
  return row;
}

// "Add a bye": a new row to fill in.
export function addBye() {
  const row = byeRow({ player: null, kind: "half" });
  $("pairing-byes").tBodies[0].append(row);
  markDirty();
  row.querySelector("input").focus();
}

function markDirty() {
  $("pairings-dirty").hidden = false;
  showByesEmpty();
}

export function showByesEmpty() {
  const none = $("pairing-byes").tBodies[0].rows.length === 0;
  $("pairing-byes").tHead.hidden = none;
  $("no-byes").hidden = !none;
}

// The edited rows as the hub takes them; words for the first thing that is not a number.
export function editedPairing() {
  const number = (input, what) => {
    const value = Number(input.value);
    if (!input.value.trim() || !Number.isInteger(value) || value < 1) {
      input.focus();
      throw new Error(`${what}: give a start number`);
    }
    return value;
  };
  const games = [...$("pairings").tBodies[0].rows].map((row) => {
    const board = row.dataset.board;
    return [
      number(row.querySelector("input.white-number"), `Board ${board}, White`),
      number(row.querySelector("input.black-number"), `Board ${board}, Black`),
    ];
  });
  const byes = [...$("pairing-byes").tBodies[0].rows].map((row) => ({
    player: number(row.querySelector("input.bye-number"), "Bye"),
    kind: row.querySelector("select.bye-kind").value,
  }));
  return { games, byes };
}
