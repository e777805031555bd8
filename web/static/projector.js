// The demonstration board: one game full screen for a projector or a commentary room, read
// from the back of the hall. ?game=ID, or ?round=ID&board=N (the newest round, board 1 by
// default): the board's game at the time the page opens.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.
import { api, drawBoard, showClocks } from "/static/relay.js";
import { param } from "/static/address.js";
import { el, liveStatus } from "/static/dom.js";
import { LiveGame, materialText, resultText, spokenMove } from "/static/game.js";
import { playerDetails, playerName } from "/static/players.js";

const LAST_FULL_MOVES = 6;
const TICK_MS = 200;

async function chosenGame() {
  const id = Number(param("game"));
  if (id) return id;
  let roundId = Number(param("round"));
  if (!roundId) {
    const rounds = await api("/api/rounds");
    if (!rounds.length) throw new Error("no round yet");
    roundId = rounds[rounds.length - 1].id;
  }
  const board = Number(param("board")) || 1;
  const games = await api(`/api/rounds/${roundId}/games`);
  const game = games.find((item) => item.board === board);
  if (!game) throw new Error(`no board ${board} in this round`);
  return game.id;
}

// The last few full moves, one row each, the newest move marked.
function drawLastMoves(list, moves) {
  const rows = [];
  const last = moves.length;
  let first = Math.max(0, last - 2 * LAST_FULL_MOVES);
  if (first % 2 === 1) first -= 1;
  for (let i = first; i < last; i += 2) {
    const row = el("li");
    row.append(el("span", "no", `${i / 2 + 1}.`));
    for (const move of moves.slice(i, i + 2)) {
      const span = el("span", move.ply === last ? "san newest" : "san", move.san);
      span.setAttribute("aria-label", spokenMove(move.ply, move.san));
      row.append(span);
    }
    rows.push(row);
  }
  list.replaceChildren(...rows);
}

async function start() {
  const board = document.getElementById("board");
  const clocks = {
    white: document.querySelector("#white .clock"),
    black: document.querySelector("#black .clock"),
  };
  let live = null;

  function draw() {
    const game = live.game;
    const ply = live.moves.length;
    const placement = live.placement(ply);
    const move = ply > 0 ? live.moves[ply - 1] : null;
    const label = move ? `after ${spokenMove(move.ply, move.san)}` : "the starting position";
    drawBoard(board, placement, { lastMove: move ? move.uci : null, label: `Live position, ${label}` });
    const holder = document.getElementById("position");
    holder.dataset.ply = ply;
    for (const colour of ["white", "black"]) {
      const side = document.getElementById(colour);
      side.querySelector(".name").textContent = playerName(game[colour]);
      side.querySelector(".details").textContent = playerDetails(game[colour]);
    }
    drawLastMoves(document.getElementById("last-moves"), live.moves);
    const result = document.getElementById("result");
    result.textContent = game.result === "*" ? "" : game.result;
    result.title = game.result === "*" ? "" : resultText(game);
    document.getElementById("material").textContent = materialText(placement);
    showClocks(game, clocks);
  }

  const id = await chosenGame();
  live = new LiveGame(id, { onChange: draw, onStatus: liveStatus() });
  await live.start();
  const game = live.game;
  const round = await api(`/api/rounds/${game.round_id}`);
  document.getElementById("caption").textContent = `Round ${round.number} · Board ${game.board}`;
  document.title = `Board ${game.board}: ${playerName(game.white)} – ${playerName(game.black)}`;
  setInterval(() => {
    if (!document.hidden) showClocks(live.game, clocks);
  }, TICK_MS);
}

start().catch((error) => {
  document.getElementById("caption").textContent = `Cannot show the game: ${error.message}`;
});
