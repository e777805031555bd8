// The arbiter console's Corrections card: an e-board's record checked against the
// scoresheet (its move count or whole score), the ways out of an illegal position on a board
// (accept the continuation the hub finds, or set the board back to the last legal position),
// and the editor of the moves from a ply. Every correction replaces the mainline from a ply
// (POST /api/games/{id}/moves), after the arbiter confirms it; the game is marked amended.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { drawBoard, moveLabel } from "/static/relay.js";
import { $, el } from "/static/dom.js";
import { busy, call, explain } from "/static/arbiter-calls.js";
import { refreshGamesSoon } from "/static/arbiter-games.js";
import { state } from "/static/arbiter-state.js";
import { changeStatus, gameLabel } from "/static/arbiter-text.js";

const STATUS = "correction-status";
let pending = null; // the correction waiting for the arbiter's confirmation
let proposal = null; // the score check's proposed correction, for its game

function chosenGame() {
  return state.games.get(Number($("correct-game").value));
}

function say(text, kind = "") {
  changeStatus(text, kind, STATUS);
}

// "4. (ply 7)" for a ply, as the arbiter reads a scoresheet.
function plyWords(ply) {
  return `${moveLabel(ply, "").trim()} (ply ${ply})`;
}

// The moves of a SAN list as typed: move numbers and results dropped.
export function sanList(text) {
  return text.split(/\s+/)
    .map((word) => word.replace(/^\d+\.+/, ""))
    .filter((word) => word && !["1-0", "0-1", "1/2-1/2", "*"].includes(word));
}

// The card on the game of an alert: what the hub proposes for the board's position
// (`board`: the piece placement the alert says the board showed; else the game's latest).
export async function openRepairs(gameId, board = null) {
  $("correct-game").value = String(gameId);
  clearResults();
  const game = state.games.get(gameId);
  $("repair-heading").textContent = game ? `${gameLabel(game)}: illegal position` : "Illegal position";
  try {
    const query = board ? `?board=${encodeURIComponent(board)}` : "";
    showRepairs(await call(`/api/games/${gameId}/repairs${query}`));
  } catch (error) {
    say(`Could not read the board's position: ${explain(error)}`, "error");
    return;
  }
  $("corrections-card").scrollIntoView({ block: "start" });
}

function showRepairs(found) {
  const section = $("repair");
  section.hidden = false;
  section.dataset.gameId = String(found.game_id);
  $("repair-words").textContent = found.words;
  $("repair-ply").textContent = found.ply ? `(ply ${found.ply})` : "(the start)";
  const changed = found.squares.map((square) => square.square);
  drawBoard($("repair-game-board"), found.game_fen, { label: "The last legal position" });
  markSquares($("repair-game-board"), changed);
  $("repair-shown").hidden = !found.board_fen;
  if (found.board_fen) {
    drawBoard($("repair-board-board"), found.board_fen, { label: "What the board shows" });
    markSquares($("repair-board-board"), changed);
  }
  $("repair-fen").textContent = found.game_fen;
  $("repair-squares").replaceChildren(...found.squares.map((square) => {
    const item = el("li", "square-change");
    item.dataset.square = square.square;
    const want = square.game ? `a ${square.game}` : "empty";
    const now = square.board ? `the board has a ${square.board}` : "the board has it empty";
    item.textContent = `${square.square}: ${want} (${now})`;
    return item;
  }));
  const accept = $("accept-continuation");
  accept.hidden = !found.continuation;
  if (found.continuation) {
    const moves = found.continuation.san.join(" ");
    accept.textContent = `Accept as played: ${moves}…`;
    accept.onclick = () => review(found.game_id, found.continuation.ply, found.continuation.san,
      "the board's position accepted (illegal-position alert)");
  }
  $("repair-edit").onclick = () => {
    $("edit-ply").value = String(Math.max(1, found.ply));
    loadMoves();
    $("edit-san").focus();
  };
}

// An uncertain-order alert's other order, put to the arbiter as the correction it is: the
// moves from the alert's ply on replaced by that order and the moves played since (the same
// position follows either order, so they stay as they were).
export async function proposeOrder(gameId, ply, order) {
  $("correct-game").value = String(gameId);
  clearResults();
  let moves;
  try {
    moves = (await call(`/api/games/${gameId}`)).moves;
  } catch (error) {
    say(`Could not read the game: ${explain(error)}`, "error");
    return;
  }
  const since = moves.slice(ply - 1 + order.length).map((move) => move.san);
  review(gameId, ply, [...order, ...since], "the other order the board fits (uncertain-order alert)");
  $("corrections-card").scrollIntoView({ block: "start" });
}

// The squares to set, outlined on both diagrams.
function markSquares(board, squares) {
  for (const cell of board.children) {
    cell.classList.toggle("to-set", squares.includes(cell.dataset.square));
  }
}

function clearResults() {
  $("repair").hidden = true;
  $("check-result").hidden = true;
  $("correction-confirm").hidden = true;
  pending = null;
  proposal = null;
  say("");
}

export function gameChosen() {
  clearResults();
}

export async function checkScore(event) {
  event.preventDefault();
  const game = chosenGame();
  if (!game) return;
  const score = $("sheet-score").value.trim();
  const moves = $("sheet-moves").value.trim();
  if (!score && !moves) {
    say("Give the scoresheet's number of moves, or its whole score.", "error");
    $("sheet-moves").focus();
    return;
  }
  const body = score ? { score } : { moves: Number(moves), last: $("sheet-last").value };
  const button = event.submitter || $("check-score");
  await busy(button, async () => {
    try {
      showCheck(game, await call(`/api/games/${game.id}/score-check`, { method: "POST", body }));
      say("");
    } catch (error) {
      say(`Not checked: ${explain(error)}`, "error");
    }
  });
}

function showCheck(game, found) {
  $("repair").hidden = true;
  const box = $("check-result");
  box.hidden = false;
  box.dataset.agrees = String(found.agrees);
  box.classList.toggle("agrees", found.agrees);
  $("check-words").textContent = found.agrees
    ? `Board ${game.board}: ${found.words}.`
    : `Board ${game.board}: the e-board record (${found.recorded_plies} plies) and the scoresheet (${found.scoresheet_plies}) differ.`;
  $("check-differences").replaceChildren(...found.differences.map((difference) => {
    const item = el("li", `difference ${difference.kind}`, difference.words);
    item.dataset.kind = difference.kind;
    item.dataset.ply = String(difference.ply);
    return item;
  }));
  proposal = found.correction ? { gameId: game.id, ...found.correction } : null;
  $("check-proposal").textContent = proposal ? `Proposed: ${proposal.words}.` : "";
  $("use-proposal").hidden = !proposal;
  $("apply-proposal").hidden = !proposal;
}

export function applyProposal() {
  if (!proposal) return;
  const reason = $("edit-reason").value.trim() || "checked against the scoresheet";
  review(proposal.gameId, proposal.ply, proposal.san, reason);
}

export function useProposal() {
  if (!proposal) return;
  $("edit-ply").value = String(proposal.ply);
  $("edit-san").value = proposal.san.join(" ");
  if (!$("edit-reason").value) $("edit-reason").value = "checked against the scoresheet";
  $("edit-san").focus();
}

// The record's moves from the ply chosen, into the editor.
export async function loadMoves() {
  const game = chosenGame();
  if (!game) return;
  const ply = Math.max(1, Number($("edit-ply").value) || 1);
  try {
    const detail = await call(`/api/games/${game.id}`);
    $("edit-san").value = detail.moves.filter((move) => move.ply >= ply).map((move) => move.san).join(" ");
  } catch (error) {
    say(`Could not read the moves: ${explain(error)}`, "error");
  }
}

export function reviewEdit(event) {
  event.preventDefault();
  const game = chosenGame();
  if (!game) return;
  const ply = Number($("edit-ply").value);
  const reason = $("edit-reason").value.trim();
  if (!reason) {
    say("A correction needs a reason, for the audit trail.", "error");
    $("edit-reason").focus();
    return;
  }
  review(game.id, ply, sanList($("edit-san").value), reason);
}

// What would change, shown until the arbiter confirms or cancels.
function review(gameId, ply, san, reason) {
  const game = state.games.get(gameId);
  pending = { gameId, ply, san, reason };
  const what = san.length ? `with ${san.join(" ")}` : "with nothing: they are removed";
  $("correction-summary").textContent = `${game ? gameLabel(game) : `Game ${gameId}`}: `
    + `replace the moves from ${plyWords(ply)} on ${what}. Reason: ${reason}. `
    + "The game will be marked amended.";
  $("correction-confirm").hidden = false;
  $("correction-ok").focus();
}

export function cancelCorrection() {
  pending = null;
  $("correction-confirm").hidden = true;
}

export async function confirmCorrection(event) {
  if (!pending) return;
  const { gameId, ply, san, reason } = pending;
  await busy(event.currentTarget, async () => {
    try {
      const changed = await call(`/api/games/${gameId}/moves`, {
        method: "POST", body: { ply, san, reason },
      });
      pending = null;
      $("correction-confirm").hidden = true;
      $("repair").hidden = true;
      $("check-result").hidden = true;
      say(`Corrected: the game has ${changed.ply} plies now, marked amended.`, "ok");
      refreshGamesSoon();
    } catch (error) {
      say(`Not corrected: ${explain(error)}`, "error");
    }
  });
}
