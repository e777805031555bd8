// The electronic scoresheet as an input device (/scoresheet?game=ID&token=T&input=1): on a
// tablet beside a board without an electronic board, the player enters each move after
// making it, by tapping its squares or typing it as written on paper; a promotion's piece;
// a draw claimed with the move to be played or on the position as it stands (9.2, 9.3);
// and, with scoresheet-input-result.js, the result both players confirm. Only the hub
// judges a move (its answer lists the legal moves that fit an entry it refuses); the page
// knows no chess rules beyond where the pieces stand. Entries wait on the device while the
// network is down (scoresheet-input-queue.js). An ES module, no build.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { drawBoard, moveLabel, pieceName, placement, placementText, playUci } from "/static/relay.js";
import { $, actionButton, el } from "/static/dom.js";
import { token } from "/static/token.js";
import { EntryQueue, post, refusalWords } from "/static/scoresheet-input-queue.js";
import { ResultAgreement } from "/static/scoresheet-input-result.js";

const NAME = { white: "White", black: "Black" };
const RULE = { threefold: "threefold repetition", "fifty-moves": "50 moves" };
const SHOWN = { "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "\u00bd\u2013\u00bd" };
const PROMOTIONS = ["q", "r", "b", "n"];
const GLYPHS = { q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e" };

const input = {
  gameId: null,
  game: null,
  refresh: () => {},
  queue: null,
  agreement: null,
  from: null, // the square tapped first
  to: null, // the square tapped second
  promotion: null, // the piece chosen for a pawn reaching the last rank
  acked: null, // { ply, fen } of the hub's last answer, until the game's stream catches up
  message: "",
  level: "",
  fitting: [], // the legal moves the hub offered for an entry it refused: [san, words]
  refused: null, // that entry
};

export function startInput({ gameId, refresh }) {
  input.gameId = gameId;
  input.refresh = refresh;
  $("input").hidden = false;
  document.body.classList.add("input-mode");
  input.queue = new EntryQueue(gameId, {
    send: (item) => post(`/api/games/${gameId}/${item.kind === "claim" ? "claims" : "entries"}`, body(item)),
    onAnswer: answered,
    onChange: render,
  });
  input.agreement = new ResultAgreement(gameId, { onDone: refresh });
  $("tap-board").addEventListener("click", (event) => {
    const square = event.target.closest("[data-square]");
    if (square) tap(square.dataset.square);
  });
  for (const piece of PROMOTIONS) {
    const button = actionButton("promote", GLYPHS[piece]);
    button.dataset.piece = piece;
    button.setAttribute("aria-label", `Promote to a ${pieceName(piece)}`);
    button.addEventListener("click", () => { input.promotion = piece; render(); });
    $("promotion").append(button);
  }
  $("input-send").addEventListener("click", sendTapped);
  $("input-clear").addEventListener("click", () => { clearChoice(); render(); });
  $("san-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sendTyped();
  });
  $("san-input").addEventListener("input", render);
  $("claim-threefold").addEventListener("click", () => claim("threefold"));
  $("claim-fifty").addEventListener("click", () => claim("fifty-moves"));
  $("fitting").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-san]");
    if (button && input.refused) enter({ ...input.refused, move: button.dataset.san, uci: false });
  });
  window.addEventListener("offline", render);
  input.queue.flush(); // what waited from before (the tablet was reloaded)
  return { render: (game) => { input.game = game; render(); } };
}

function body(item) {
  if (item.kind === "claim") return { ply: item.ply, rule: item.rule, move: item.move };
  return { ply: item.ply, move: item.move };
}

// The game as the device knows it: the hub's, then the moves waiting to be sent played on
// it (tapped moves only: a typed one or a claim is known once the hub answers it).
function known() {
  const game = input.game;
  let { ply, fen } = game;
  if (input.acked && input.acked.ply > ply) ({ ply, fen } = input.acked);
  else input.acked = null;
  let cells = fen ? placement(fen) : null;
  let claimWaiting = false;
  for (const item of input.queue.items) {
    if (item.kind === "claim") {
      claimWaiting = true;
      cells = null;
      continue;
    }
    cells = cells && item.uci ? playUci(cells, item.move) : null;
    ply += 1;
  }
  const mover = ply % 2 === 0 ? "white" : "black";
  return { ply, next: ply + 1, mover, cells, claimWaiting };
}

// Why nothing can be entered now, or "" when it can.
function blocked(k) {
  if (!token()) return "Entering moves needs this board's device token: open the page with &token=…";
  if (input.game.result !== "*") return "The game is over";
  if (k.claimWaiting) return "A draw claim waits to be sent: call the arbiter";
  return "";
}

function own(piece, mover) {
  return !!piece && (piece === piece.toUpperCase()) === (mover === "white");
}

function tap(square) {
  const k = known();
  if (blocked(k) || !k.cells) return;
  const piece = k.cells[square];
  if (!input.from || input.to) {
    clearChoice();
    if (own(piece, k.mover)) input.from = square;
    else say(`Tap one of ${NAME[k.mover]}'s pieces first, then the square it went to`, "hint");
  } else if (square === input.from) {
    input.from = null;
  } else if (own(piece, k.mover)) {
    input.from = square;
  } else {
    input.to = square;
  }
  render();
}

function needsPromotion(k) {
  if (!input.from || !input.to || !k.cells) return false;
  const piece = k.cells[input.from];
  const last = k.mover === "white" ? "8" : "1";
  return !!piece && piece.toLowerCase() === "p" && input.to[1] === last;
}

// The tapped move as UCI, once complete (with its promotion piece when it needs one).
function tapped(k) {
  if (!input.from || !input.to) return null;
  if (needsPromotion(k) && !input.promotion) return null;
  return `${input.from}${input.to}${needsPromotion(k) ? input.promotion : ""}`;
}

function clearChoice() {
  input.from = null;
  input.to = null;
  input.promotion = null;
}

function sendTapped() {
  const k = known();
  const uci = tapped(k);
  if (!uci || blocked(k)) return;
  clearChoice();
  enter({ kind: "move", ply: k.next, move: uci, uci: true });
}

function sendTyped() {
  const k = known();
  const text = $("san-input").value.trim();
  if (blocked(k)) return;
  if (!text) {
    say("Type the move as on a paper scoresheet: Rad1, exd5, O-O, e8=Q", "hint");
    return;
  }
  $("san-input").value = "";
  clearChoice();
  enter({ kind: "move", ply: k.next, move: text, uci: false });
}

// A claim goes with the move chosen (tapped or typed, not entered: 9.2.1.1, 9.3.1), or
// without one, on the position as it stands.
function claim(rule) {
  const k = known();
  if (blocked(k)) return;
  const uci = tapped(k);
  const move = uci || $("san-input").value.trim() || null;
  $("san-input").value = "";
  clearChoice();
  enter({ kind: "claim", ply: k.next, rule, move, uci: !!uci });
}

function enter(item) {
  input.fitting = [];
  input.refused = null;
  say(`Sending ${label(item)}…`, "sending");
  input.queue.add(item);
}

// "12. Nf3", "12... e7–e8=Q" (a tapped move), "a draw claim (50 moves) before move 40".
function label(item) {
  const written = item.move && item.uci ? tappedWords(item.move) : item.move;
  const move = item.move ? moveLabel(item.ply, written) : `before move ${Math.floor((item.ply + 1) / 2)}`;
  return item.kind === "claim" ? `a draw claim (${RULE[item.rule]}) ${item.move ? `with ${move}` : move}` : move;
}

function tappedWords(uci) {
  const promotion = uci[4] ? `=${uci[4].toUpperCase()}` : "";
  return `${uci.slice(0, 2)}–${uci.slice(2, 4)}${promotion}`;
}

function answered(item, answer) {
  if (!answer.ok) {
    const words = refusalWords(answer.status, answer.data);
    const dropped = answer.dropped.length
      ? ` Not sent either, enter again: ${answer.dropped.map(label).join(", ")}.`
      : "";
    const fitting = answer.status === 422 && answer.data && answer.data.fitting;
    input.fitting = fitting ? fitting.map((f) => [f.san, f.words]) : [];
    input.refused = input.fitting.length ? item : null;
    const check = input.fitting.length ? " Tap the move played:" : " Check the moves shown against the board; call the arbiter if they differ.";
    say(`Not recorded: ${label(item)}: ${words}.${dropped}${check}`, "refused");
    input.refresh();
    return;
  }
  const data = answer.data;
  if (item.kind === "claim") {
    input.acked = { ply: data.plies, fen: null };
    const verdict = data.correct ? "Claim correct" : "Claim not correct";
    say(`${verdict}: ${data.words}. Call the arbiter.`, data.correct ? "claim" : "refused");
  } else {
    input.acked = { ply: data.plies, fen: data.fen };
    const move = moveLabel(data.ply, data.san);
    if (input.queue.items.length === 0) {
      say(data.repeated ? `${move} was recorded already` : `${move} recorded`, "done");
    }
  }
  input.refresh();
}

function say(message, level) {
  input.message = message;
  input.level = level;
  render();
}

function render() {
  if (!input.game) return;
  const k = known();
  const why = blocked(k);
  const game = input.game;
  document.body.dataset.queued = String(input.queue.items.length);
  let turn = `Move ${Math.floor(k.ply / 2) + 1}: ${NAME[k.mover]} enters a move`;
  const shown = (result) => SHOWN[result] || result;
  if (game.result !== "*") turn = `Game over: ${shown(game.result)}`;
  else if (game.proposed_result) turn = `${shown(game.proposed_result)} proposed: the arbiter confirms it`;
  $("input-turn").textContent = turn;
  $("input-turn").dataset.mover = k.mover;
  renderBoard(k);
  const uci = tapped(k);
  let chosen = `Tap the piece ${NAME[k.mover]} moved, then its square; or type the move`;
  if (why) chosen = why;
  else if (!k.cells) chosen = "The position comes with the hub's answer: type the next move";
  else if (input.from && !input.to) chosen = `${input.from} → ? (tap the square it went to)`;
  else if (input.to && !uci) chosen = `${input.from} → ${input.to}: choose the new piece`;
  else if (uci) chosen = `${moveLabel(k.next, `${input.from}–${input.to}`)}${input.promotion ? ` = ${pieceName(input.promotion)}` : ""}`;
  $("input-chosen").textContent = chosen;
  $("promotion").hidden = !(input.to && needsPromotion(k));
  for (const button of $("promotion").children) {
    button.classList.toggle("chosen", button.dataset.piece === input.promotion);
  }
  $("input-send").disabled = !uci || !!why;
  $("input-clear").disabled = !input.from;
  $("san-input").disabled = !!why;
  $("san-send").disabled = !!why;
  renderMessage();
  renderQueue();
  const typed = $("san-input").value.trim();
  const withMove = uci ? `${input.from}–${input.to}` : typed;
  $("claim-how").textContent = withMove
    ? `${NAME[k.mover]} claims with ${moveLabel(k.next, withMove)}, written and not played`
    : `${NAME[k.mover]} claims on the position now; to claim with your next move, choose it first`;
  $("claim-threefold").disabled = !!why;
  $("claim-fifty").disabled = !!why;
  input.agreement.render(game, !!token() && !input.queue.offline);
}

function renderBoard(k) {
  const board = $("tap-board");
  const cells = k.cells || placement(input.game.fen);
  const lastMove = input.queue.items.length || input.acked ? null : input.game.last_move;
  drawBoard(board, placementText(cells), {
    lastMove, label: `The position, ${NAME[k.mover]} to move: tap a piece, then its square`,
  });
  board.classList.toggle("unknown", !k.cells);
  for (const sq of board.children) {
    sq.classList.toggle("from", sq.dataset.square === input.from);
    sq.classList.toggle("to", sq.dataset.square === input.to);
    sq.setAttribute("role", "button");
  }
}

function renderMessage() {
  const box = $("input-message");
  const waiting = input.level === "sending" && input.queue.offline;
  box.hidden = !input.message;
  box.dataset.level = waiting ? "hint" : input.level;
  $("input-words").textContent = waiting
    ? "No network: your entries wait on this tablet and go by themselves when it is back"
    : input.message;
  const list = $("fitting");
  list.replaceChildren(...input.fitting.map(([san, words]) => {
    const button = actionButton("fit", san);
    button.dataset.san = san;
    button.setAttribute("aria-label", `Enter ${san}: ${words}`);
    const item = el("li");
    item.append(button, el("span", null, words));
    return item;
  }));
  list.hidden = input.fitting.length === 0;
}

function renderQueue() {
  const items = input.queue.items;
  const line = $("queue-status");
  const offline = input.queue.offline || navigator.onLine === false;
  line.dataset.count = String(items.length);
  line.dataset.offline = String(offline);
  if (!items.length) {
    line.textContent = offline ? "No network: entries wait on this tablet" : "Every entry is with the hub";
    return;
  }
  const what = items.map(label).join(", ");
  const where = offline ? "no network, they go when it is back" : "sending";
  line.textContent = `${items.length} waiting on this tablet (${where}): ${what}`;
}
