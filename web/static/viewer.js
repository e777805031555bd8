// Live boards of one round: a snapshot first, then every move as it is stored.
"use strict";

const GLYPHS = { k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };
const FILES = "abcdefgh";
const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const games = new Map();
let roundId = null;
let retryMs = 500;
let socket = null;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Square names in display order: a8..h8, a7..h7, ..., a1..h1.
function squareNames() {
  const names = [];
  for (let rank = 8; rank >= 1; rank--) for (const file of FILES) names.push(file + rank);
  return names;
}
const SQUARES = squareNames();

function placement(fen) {
  const cells = [];
  for (const row of fen.split(" ")[0].split("/")) {
    for (const ch of row) {
      if (/\d/.test(ch)) for (let i = 0; i < Number(ch); i++) cells.push(null);
      else cells.push(ch);
    }
  }
  return cells;
}

function card(game) {
  const root = el("article", "game");
  root.dataset.gameId = game.id;
  const title = el("h2");
  title.append(el("span", null, `Board ${game.board}`));
  const pgn = el("a", null, "PGN");
  pgn.href = `/api/games/${game.id}.pgn`;
  title.append(pgn);
  const black = el("div", "player black");
  const board = el("div", "board");
  board.setAttribute("role", "img");
  SQUARES.forEach((name, i) => {
    const sq = el("div", "sq " + ((Math.floor(i / 8) + i) % 2 === 0 ? "l" : "d"));
    sq.dataset.square = name;
    board.append(sq);
  });
  const white = el("div", "player white");
  const meta = el("div", "meta");
  meta.append(el("span", "last-move"), el("span", "result"));
  root.append(title, black, board, white, meta);
  return root;
}

function playerLine(node, player) {
  const name = player.title ? `${player.title} ${player.name}` : player.name;
  node.replaceChildren(
    el("span", "name", name), el("span", "elo", player.rating ? String(player.rating) : ""));
}

function render(game) {
  let root = document.querySelector(`article[data-game-id="${game.id}"]`);
  if (!root) {
    root = card(game);
    const after = [...document.querySelectorAll("article.game")].find(
      (other) => games.get(Number(other.dataset.gameId)).board > game.board);
    document.getElementById("boards").insertBefore(root, after || null);
  }
  root.dataset.ply = game.ply;
  playerLine(root.querySelector(".white"), game.white);
  playerLine(root.querySelector(".black"), game.black);
  const cells = placement(game.fen);
  const last = game.last_move ? [game.last_move.slice(0, 2), game.last_move.slice(2, 4)] : [];
  root.querySelectorAll(".sq").forEach((sq, i) => {
    const piece = cells[i];
    sq.textContent = piece ? GLYPHS[piece.toLowerCase()] : "";
    sq.classList.toggle("pw", !!piece && piece === piece.toUpperCase());
    sq.classList.toggle("pb", !!piece && piece !== piece.toUpperCase());
    sq.classList.toggle("last", last.includes(sq.dataset.square));
  });
  const moveNo = Math.floor((game.ply + 1) / 2);
  const lastText = game.last_san ? `${moveNo}.${game.ply % 2 ? "" : ".."} ${game.last_san}` : "start";
  root.querySelector(".last-move").textContent = lastText;
  root.querySelector(".result").textContent = game.result === "*" ? "" : game.result;
  root.querySelector(".board").setAttribute(
    "aria-label",
    `Board ${game.board}, ${game.white.name} against ${game.black.name}, ${lastText}`);
}

function apply(message) {
  if (message.type === "snapshot") {
    for (const game of message.games) { games.set(game.id, game); render(game); }
    return;
  }
  if (message.type !== "event") return;
  const game = games.get(message.game);
  if (!game || message.v <= game.v) return;
  game.v = message.v;
  const d = message.data;
  if (message.kind === "move" || message.kind === "correction") {
    Object.assign(game, { fen: d.fen, ply: d.ply, last_move: d.uci, last_san: d.san });
  } else if (message.kind === "takeback") {
    Object.assign(game, { fen: d.fen, ply: d.ply, last_move: null, last_san: null });
  } else if (message.kind === "new-game" && game.result === "*") {
    Object.assign(game, { fen: START_FEN, ply: 0, last_move: null, last_san: null });
  } else if (message.kind === "end" || message.kind === "result") {
    game.result = d.result;
  } else if (message.kind === "arbiter-correction") {
    // An arbiter rewrote the moves: start again from a fresh snapshot.
    if (socket) socket.close();
    return;
  }
  render(game);
}

function setStatus(live) {
  const status = document.getElementById("status");
  status.textContent = live ? "live" : "reconnecting";
  status.classList.toggle("live", live);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/rounds/${roundId}/stream`);
  socket.onopen = () => { retryMs = 500; setStatus(true); };
  socket.onmessage = (event) => apply(JSON.parse(event.data));
  socket.onclose = () => {
    setStatus(false);
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 10000);
  };
}

async function start() {
  const rounds = await (await fetch("/api/rounds")).json();
  const wanted = Number(new URLSearchParams(location.search).get("round"));
  const round = rounds.find((r) => r.id === wanted) || rounds[rounds.length - 1];
  if (!round) {
    document.getElementById("round-title").textContent = "No round yet.";
    return;
  }
  roundId = round.id;
  document.getElementById("round-title").textContent = `Round ${round.number}`;
  document.getElementById("round-pgn").href = `/api/rounds/${round.id}/games.pgn`;
  connect();
}

start();
