// The round as a grid of live mini-boards, a page of boards at a time: the page's stream
// (the round stream with ?boards=, so a 750-board round costs a page, not the round) sends
// their summaries first, then their events, applied to the summaries as they come. The
// snapshot also lists all the round's board numbers, from which the page links are drawn.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.
import {
  api, applyEvent, drawBoard, Follow, moveLabel, showClocks,
} from "/static/relay.js";
import { param } from "/static/address.js";
import { el, liveStatus, option } from "/static/dom.js";
import { playerName } from "/static/players.js";

const PAGE_SIZE = 24;
// A stale summary (a clock event, an arbiter's correction) is fetched again, but no sooner
// than this after the last fetch, so a burst of clock events costs one round of requests.
const REFETCH_GAP_MS = 2000;
const REFETCH_WAIT_MS = 300;
// From this many stale boards on the page, one request for the page's range is cheaper.
const BATCH_FROM = 4;
const TICK_MS = 250;

const games = new Map(); // id -> summary of the page's boards, kept current from the stream
const cards = new Map(); // id -> card elements, for the boards on the page shown
const stale = new Set(); // ids whose summary must be fetched again
let order = []; // the page's game ids in board order
let boardNumbers = []; // every board of the round, in order (from the snapshot)
let round = null;
let page = 1;
let follow = null; // the stream of the page's boards
let following = ""; // the range it follows
let refetchTimer = null;
let lastRefetch = 0;

function pageCount() {
  return Math.max(1, Math.ceil(boardNumbers.length / PAGE_SIZE));
}

// The boards of page n as a range: "25-48". Before the first snapshot the round's boards
// are taken to be numbered 1, 2, 3...; the snapshot then tells, and a gap moves the range.
function pageRange(n) {
  if (!boardNumbers.length) return `${(n - 1) * PAGE_SIZE + 1}-${n * PAGE_SIZE}`;
  const boards = boardNumbers.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE);
  if (!boards.length) return `${n * PAGE_SIZE}-${n * PAGE_SIZE}`; // past the end: none
  return `${boards[0]}-${boards[boards.length - 1]}`;
}

// Follow the boards of the page shown, unless already following them.
function followPage() {
  const range = pageRange(page);
  if (range === following) return;
  if (follow) follow.close();
  following = range;
  document.getElementById("boards").setAttribute("aria-busy", "true");
  const path = `/api/rounds/${round.id}/stream`;
  follow = new Follow(path, receive, liveStatus(), { query: { boards: range } });
}

// One card: board number and result, both players with their clocks, the board, the last move.
function card(game) {
  const root = el("article", "game");
  root.dataset.gameId = game.id;
  root.dataset.board = game.board;
  const href = `/game?id=${game.id}`;
  const title = el("h2");
  const link = el("a", "board-no", `Board ${game.board}`);
  link.href = href;
  const amended = el("span", "amended-mark", "amended");
  amended.hidden = true;
  title.append(link, amended, el("span", "result"));
  const player = (colour) => {
    const line = el("div", `player ${colour}`);
    line.append(el("span", "name"), el("span", "elo"), el("span", "clock"));
    return line;
  };
  const black = player("black");
  const boardLink = el("a", "board-link");
  boardLink.href = href;
  const board = el("div", "board");
  boardLink.append(board);
  const white = player("white");
  const meta = el("p", "meta");
  meta.append(el("span", "last-move"), el("span", "state"));
  root.append(title, black, boardLink, white, meta);
  const parts = {
    root, board, boardLink,
    result: title.querySelector(".result"),
    amended: title.querySelector(".amended-mark"),
    white: white, black: black,
    clocks: { white: white.querySelector(".clock"), black: black.querySelector(".clock") },
    last: meta.querySelector(".last-move"),
    state: meta.querySelector(".state"),
  };
  return parts;
}

function fillPlayer(line, player) {
  line.querySelector(".name").textContent = playerName(player);
  line.querySelector(".elo").textContent = player && player.rating ? String(player.rating) : "";
  line.title = player && player.federation ? `${playerName(player)} (${player.federation})` : "";
}

function lastMoveText(game) {
  return game.last_san ? moveLabel(game.ply, game.last_san) : "no moves yet";
}

function update(game) {
  const parts = cards.get(game.id);
  if (!parts) return;
  parts.root.dataset.ply = game.ply;
  fillPlayer(parts.white, game.white);
  fillPlayer(parts.black, game.black);
  const last = lastMoveText(game);
  const label = `Board ${game.board}: ${playerName(game.white)} against ${playerName(game.black)}, `
    + (game.last_san ? `after ${last}` : "no moves yet")
    + (game.result !== "*" ? `, result ${game.result}` : "");
  drawBoard(parts.board, game.fen, { lastMove: game.last_move, label });
  parts.boardLink.setAttribute("aria-label", label);
  parts.last.textContent = last;
  const finished = game.result !== "*";
  parts.result.textContent = finished ? game.result : "";
  parts.result.title = finished && !game.verified ? "not yet verified by the arbiter" : "";
  parts.root.classList.toggle("finished", finished);
  // An arbiter corrected the moves (seed 004, ch. 18): the game is marked amended.
  const marks = game.amended || [];
  parts.amended.hidden = !marks.length;
  parts.amended.title = marks.map((mark) => `amended by the arbiter from ply ${mark.ply}`
    + (mark.reason ? `: ${mark.reason}` : "")).join("; ");
  parts.root.classList.toggle("amended", marks.length > 0);
  let state = "";
  if (game.check && !finished) state = "check";
  if (game.draw_offer && !finished) state = "draw offered";
  if (finished && game.termination) state = game.termination;
  parts.state.textContent = state;
  tickCard(game, parts);
}

// Both clocks of a card; none shown for a game without a clock.
function tickCard(game, parts, now = Date.now() / 1000) {
  showClocks(game, parts.clocks, now, "");
}

function tick() {
  if (document.hidden) return;
  const now = Date.now() / 1000;
  for (const [id, parts] of cards) {
    const game = games.get(id);
    if (game && game.clock && game.clock.running) tickCard(game, parts, now);
  }
}

// Page links by board range ("Boards 25–48"), shown when the round has more than one page.
function drawPager() {
  const nav = document.getElementById("pages");
  const count = pageCount();
  nav.hidden = count < 2;
  nav.replaceChildren();
  if (count < 2) return;
  for (let n = 1; n <= count; n++) {
    const [first, last] = pageRange(n).split("-");
    const link = el("a", null, `Boards ${first}–${last}`);
    link.href = `/?round=${round.id}&page=${n}`;
    link.dataset.page = n;
    if (n === page) link.setAttribute("aria-current", "page");
    link.addEventListener("click", (event) => {
      event.preventDefault();
      showPage(n, true);
    });
    nav.append(link);
  }
}

// Another page: follow its boards (its snapshot draws it).
function showPage(n, remember = false) {
  page = Math.min(Math.max(1, n), pageCount());
  if (remember) history.pushState({ page }, "", `/?round=${round.id}&page=${page}`);
  followPage();
}

// Draw the page's boards, as the snapshot gave them.
function drawPage() {
  drawPager();
  const container = document.getElementById("boards");
  cards.clear();
  const shown = order.map((id) => {
    const parts = card(games.get(id));
    cards.set(id, parts);
    return parts.root;
  });
  container.replaceChildren(...shown);
  container.removeAttribute("aria-busy");
  for (const id of cards.keys()) update(games.get(id));
  if ([...cards.keys()].some((id) => stale.has(id))) scheduleRefetch();
}

function scheduleRefetch() {
  if (refetchTimer) return;
  const wait = Math.max(REFETCH_WAIT_MS, lastRefetch + REFETCH_GAP_MS - Date.now());
  refetchTimer = setTimeout(refetch, wait);
}

// Fetch again the stale summaries of the boards shown; the others wait until they are shown.
async function refetch() {
  refetchTimer = null;
  const due = [...stale].filter((id) => cards.has(id));
  if (!due.length) return;
  lastRefetch = Date.now();
  due.forEach((id) => stale.delete(id));
  let fresh;
  try {
    fresh = due.length >= BATCH_FROM
      ? await api(`/api/rounds/${round.id}/games?boards=${following}`)
      : await Promise.all(due.map((id) => api(`/api/games/${id}`)));
  } catch {
    due.forEach((id) => stale.add(id));
    scheduleRefetch();
    return;
  }
  for (const summary of fresh) merge(summary);
}

// A fetched summary replaces ours unless the stream has already brought something newer
// (then it is fetched again later).
function merge(summary) {
  const game = games.get(summary.id);
  if (!game) return;
  if (summary.v < game.v) {
    if (game.stale) {
      stale.add(game.id);
      scheduleRefetch();
    }
    return;
  }
  const { moves, claims, illegal_moves, alerts, ...fields } = summary;
  Object.assign(game, fields, { stale: false });
  stale.delete(game.id);
  update(game);
}

function receive(message) {
  if (message.type === "snapshot") {
    games.clear();
    stale.clear();
    for (const game of message.games) games.set(game.id, game);
    order = [...message.games].sort((a, b) => a.board - b.board).map((game) => game.id);
    boardNumbers = [...message.boards].sort((a, b) => a - b);
    page = Math.min(page, pageCount());
    if (pageRange(page) !== following) {
      followPage(); // the round's numbering moved the page's range: follow the right one
      return;
    }
    drawPage();
    return;
  }
  if (message.type !== "event") return;
  const game = games.get(message.game);
  if (!game || !applyEvent(game, message)) return;
  if (game.stale) {
    stale.add(game.id);
    if (cards.has(game.id)) scheduleRefetch();
  }
  update(game);
}

function roundName(item, tournaments) {
  const many = new Set(tournaments.map((t) => t.id)).size > 1;
  const tournament = tournaments.find((t) => t.id === item.tournament_id);
  return many && tournament ? `${tournament.name}, round ${item.number}` : `Round ${item.number}`;
}

function chooser(rounds, tournaments) {
  const select = document.getElementById("round-choice");
  for (const item of rounds) {
    select.append(option(item.id, roundName(item, tournaments), item.id === round.id));
  }
  select.closest("p").hidden = rounds.length < 2;
  select.addEventListener("change", () => {
    location.assign(`/?round=${select.value}`);
  });
}

async function start() {
  const [rounds, tournaments] = await Promise.all([api("/api/rounds"), api("/api/tournaments")]);
  const wanted = Number(param("round"));
  round = rounds.find((r) => r.id === wanted) || rounds[rounds.length - 1];
  if (!round) {
    document.getElementById("round-title").textContent = "No round yet.";
    document.getElementById("boards").removeAttribute("aria-busy");
    return;
  }
  page = Math.max(1, Number(param("page")) || 1);
  const tournament = tournaments.find((t) => t.id === round.tournament_id);
  if (tournament) {
    document.getElementById("event-name").textContent = tournament.name;
    document.title = `${tournament.name} · round ${round.number}`;
  }
  document.getElementById("round-title").textContent = `Round ${round.number}`;
  document.getElementById("round-pgn").href = `/api/rounds/${round.id}/games.pgn`;
  document.getElementById("leaders-link").href = `/leaders?tournament=${round.tournament_id}`;
  chooser(rounds, tournaments);
  window.addEventListener("popstate", () => showPage(Number(param("page")) || 1));
  setInterval(tick, TICK_MS);
  followPage();
}

start().catch((error) => {
  document.getElementById("round-title").textContent = `Cannot load the round: ${error.message}`;
});
