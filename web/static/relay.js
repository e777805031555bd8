// What every page shares: the API, the live streams, boards, clocks, a game's events.
// (The page's elements, its address, the token, players and scores: dom.js, address.js,
// token.js, players.js, scores.js.) An ES module, no build.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { el } from "/static/dom.js";
import { token } from "/static/token.js";

export const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const GLYPHS = { k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };
const NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
const FILES = "abcdefgh";

export class ApiError extends Error {
  constructor(status, detail) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
    this.status = status;
  }
}

// JSON in, JSON out; the token goes along when there is one. Errors carry the API's words.
export async function api(path, { method = "GET", body, auth = true } = {}) {
  const headers = {};
  const held = auth ? token() : null;
  if (held) headers.Authorization = `Bearer ${held}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const reply = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await reply.text();
  const data = text ? JSON.parse(text) : null;
  if (!reply.ok) throw new ApiError(reply.status, data && data.detail ? data.detail : reply.statusText);
  return data;
}

// A websocket stream that reconnects by itself. For a game stream, it resumes from the last
// version seen (?since=; `since` is where to begin, e.g. the version of a game just fetched);
// a round stream starts again with a fresh snapshot. `query` adds to the stream's URL
// (a round stream's `boards` range).
export class Follow {
  constructor(path, onMessage, onStatus = () => {}, { since = 0, query = {} } = {}) {
    this.path = path;
    this.query = query;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.since = since;
    this.retry = 500;
    this.closed = false;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = new URLSearchParams(this.query);
    if (this.path.includes("/games/") && this.since) query.set("since", String(this.since));
    const held = token();
    if (held) query.set("token", held);
    const suffix = query.toString() ? `?${query}` : "";
    this.socket = new WebSocket(`${scheme}://${location.host}${this.path}${suffix}`);
    this.socket.onopen = () => { this.retry = 500; this.onStatus(true); };
    this.socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "event" && message.v > this.since) this.since = message.v;
      if (message.type === "reload") this.since = 0;
      this.onMessage(message);
    };
    this.socket.onclose = () => {
      this.onStatus(false);
      if (this.closed) return;
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 10000);
    };
  }

  // Start again from nothing (an arbiter rewrote a game: the snapshot is the truth).
  restart() {
    this.since = 0;
    if (this.socket) this.socket.close();
  }

  // Stop for good: nothing more is handed on, not even what is already on its way.
  close() {
    this.closed = true;
    if (this.socket) {
      this.socket.onmessage = null;
      this.socket.onclose = null;
      this.socket.close();
    }
  }
}

// Squares a8..h8, a7..h7, ..., a1..h1 (White at the bottom); reversed when flipped.
export function squareNames(flipped = false) {
  const names = [];
  for (let rank = 8; rank >= 1; rank--) for (const file of FILES) names.push(file + rank);
  return flipped ? names.reverse() : names;
}

export function placement(fen) {
  const cells = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, r) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else { cells[FILES[file] + (8 - r)] = ch; file += 1; }
    }
  });
  return cells;
}

// The placement part of a FEN for cells keyed by square ("e4": "P").
export function placementText(cells) {
  const rows = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = "";
    let empty = 0;
    for (const file of FILES) {
      const piece = cells[file + rank];
      if (piece) { row += (empty || "") + piece; empty = 0; } else empty += 1;
    }
    rows.push(row + (empty || ""));
  }
  return rows.join("/");
}

// What a move does to the pieces (castling moves the rook, en passant takes the pawn beside,
// a promotion changes the piece): enough for moves the hub has already found legal.
export function playUci(cells, uci) {
  const next = { ...cells };
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const piece = next[from];
  if (!piece) return next;
  delete next[from];
  const kind = piece.toLowerCase();
  const white = piece !== kind;
  const step = FILES.indexOf(to[0]) - FILES.indexOf(from[0]);
  if (kind === "k" && Math.abs(step) === 2) {
    const rank = from[1];
    const [rookFrom, rookTo] = step > 0 ? [`h${rank}`, `f${rank}`] : [`a${rank}`, `d${rank}`];
    if (next[rookFrom]) { next[rookTo] = next[rookFrom]; delete next[rookFrom]; }
  }
  if (kind === "p" && step !== 0 && !next[to]) delete next[to[0] + from[1]];
  const promotion = uci[4];
  next[to] = promotion ? (white ? promotion.toUpperCase() : promotion.toLowerCase()) : piece;
  return next;
}

// Placements after each ply (index 0: the start) from the moves' UCI.
export function replay(moves) {
  let cells = placement(START_FEN);
  const positions = [placementText(cells)];
  for (const move of moves) {
    cells = playUci(cells, move.uci);
    positions.push(placementText(cells));
  }
  return positions;
}

// A board drawn with glyphs into `container` (a grid of 64 cells, made once). Each square
// has a screen-reader label ("e4 white pawn").
export function drawBoard(container, fen, { lastMove = null, flipped = false, label = "" } = {}) {
  const names = squareNames(flipped);
  if (container.children.length !== 64 || container.dataset.flipped !== String(flipped)) {
    container.replaceChildren();
    container.classList.add("board");
    container.dataset.flipped = String(flipped);
    container.setAttribute("role", "img");
    names.forEach((name) => {
      const file = FILES.indexOf(name[0]);
      const rank = Number(name[1]);
      const sq = el("div", `sq ${(file + rank) % 2 === 1 ? "d" : "l"}`);
      sq.dataset.square = name;
      container.append(sq);
    });
  }
  const cells = placement(fen);
  const last = lastMove ? [lastMove.slice(0, 2), lastMove.slice(2, 4)] : [];
  for (const sq of container.children) {
    const piece = cells[sq.dataset.square];
    sq.textContent = piece ? GLYPHS[piece.toLowerCase()] : "";
    const white = !!piece && piece === piece.toUpperCase();
    sq.classList.toggle("pw", !!piece && white);
    sq.classList.toggle("pb", !!piece && !white);
    sq.classList.toggle("last", last.includes(sq.dataset.square));
  }
  if (label) container.setAttribute("aria-label", label);
}

// Material on the board, in pawns, and White's lead (positive) or Black's (negative).
export function material(fen) {
  const values = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };
  let white = 0;
  let black = 0;
  for (const piece of Object.values(placement(fen))) {
    if (piece === piece.toUpperCase()) white += values[piece.toLowerCase()];
    else black += values[piece];
  }
  return { white, black, balance: white - black };
}

export function pieceName(letter) {
  return NAMES[letter.toLowerCase()];
}

// Clock text: h:mm:ss, with tenths under 10 seconds.
export function clockText(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor(whole / 60) % 60;
  const sec = whole % 60;
  return `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`;
}

// Both players' time now, from a summary's `clock` (centiseconds as of `since`; the running
// side counts down from then, after `delay` seconds of simple delay).
export function clockNow(clock, now = Date.now() / 1000) {
  if (!clock) return { white: null, black: null, running: null };
  const seconds = (cs) => (cs === null || cs === undefined ? null : cs / 100);
  let white = seconds(clock.white);
  let black = seconds(clock.black);
  if (clock.running && clock.since) {
    const used = Math.max(0, now - clock.since - (clock.delay || 0));
    if (clock.running === "white" && white !== null) white = Math.max(0, white - used);
    if (clock.running === "black" && black !== null) black = Math.max(0, black - used);
  }
  return { white, black, running: clock.running };
}

// Both clocks of a summary into `nodes` ({ white, black }): the time, the running side, a
// fallen flag; `empty` for a game without a clock.
export function showClocks(game, nodes, now = Date.now() / 1000, empty = "–") {
  const clock = game.clock;
  const times = clockNow(clock, now);
  for (const colour of ["white", "black"]) {
    const node = nodes[colour];
    const text = clock && times[colour] !== null ? clockText(times[colour]) : empty;
    if (node.textContent !== text) node.textContent = text;
    node.classList.toggle("running", !!clock && times.running === colour);
    node.classList.toggle("flag", !!clock && !!clock.flag && clock.flag.player === colour);
  }
}

// Keep a summary current from a stream event; true when the summary changed. The fold is
// the server's own (relay/hub/game_views.py game_summary over the game's log, checked event
// by event in tests/web/test_summary_fold.py) wherever the event says enough; where it does
// not (a takeback, a clock the hub counts itself, the arbiter's clock work) the summary is
// marked `stale` and the page fetches it again. A kind this page does not know is stale too.
export function applyEvent(game, message) {
  if (message.type !== "event" || message.v <= game.v) return false;
  game.v = message.v;
  const fold = FOLDS[message.kind];
  if (fold === undefined) game.stale = true;
  else if (fold !== null) fold(game, message.data);
  return true;
}

const other = (colour) => (colour === "white" ? "black" : "white");

function played(game, d) {
  Object.assign(game, {
    fen: d.fen, ply: d.ply, last_move: d.uci, last_san: d.san, check: /[+#]$/.test(d.san),
  });
  const mover = d.ply % 2 === 1 ? "white" : "black";
  if (game.draw_offer && game.draw_offer !== mover) game.draw_offer = null; // lapsed (9.1.2)
  game.proposed_result = null;
  const clock = game.clock;
  if (!clock) return;
  if (d.clock !== null && d.clock !== undefined) clock[mover] = Math.round(d.clock * 100);
  else if (clock[mover] !== null) game.stale = true; // the hub's own count: ask for it
  if (game.result !== "*") return;
  // The mover's time stands; the other side's runs from the move.
  Object.assign(clock, { running: other(mover), since: d.at, paused: false });
}

function ended(game, result, termination) {
  Object.assign(game, { result, termination });
  // The clocks stop where they stood at that moment: the hub's summary has the times.
  if (game.clock && game.clock.running) game.stale = true;
}

// Per kind: how it changes a summary; null for kinds that change nothing a summary holds.
const FOLDS = {
  move: played,
  correction: played,
  // The mover pressed after the move was published: their time at the press, and the
  // opponent's time runs from it. Anything but the last move on running clocks: fetch it.
  "move-clock": (game, d) => {
    const clock = game.clock;
    if (!clock) return;
    const mover = d.ply % 2 === 1 ? "white" : "black";
    if (d.ply !== game.ply || clock.paused || clock.running !== other(mover)) {
      game.stale = true;
      return;
    }
    clock[mover] = Math.round(d.clock * 100);
    clock.since = d.at;
  },
  takeback: (game) => { game.stale = true; }, // the move before is not in the summary
  "new-game": (game) => { game.stale = true; },
  end: (game, d) => ended(game, d.result, d.termination),
  result: (game, d) => {
    game.verified = false;
    if (d.result === "*") Object.assign(game, { result: "*", termination: null });
    else ended(game, d.result, d.forfeit ? "forfeit" : "arbiter");
  },
  verified: (game) => { game.verified = true; },
  "result-proposed": (game, d) => { game.proposed_result = d.result; },
  draw: (game, d) => {
    game.draw_offer = d.action === "offer" ? d.player : null;
    if (d.action === "accept") game.proposed_result = "1/2-1/2";
  },
  flag: (game, d) => {
    if (!game.clock) return;
    const running = game.clock.running;
    game.clock.flag = { player: d.player, at: d.at };
    game.clock[d.player] = 0;
    Object.assign(game.clock, { running: null, since: null });
    if (running && running !== d.player) game.stale = true; // the other side's time stopped
  },
  "illegal-move": null,
  claims: null,
  alert: null,
  "clocks-started": (game) => { game.stale = true; },
  "clocks-paused": (game) => { game.stale = true; },
  "clocks-resumed": (game) => { game.stale = true; },
  time: (game) => { game.stale = true; },
  "clock-side": (game) => { game.stale = true; },
  "arbiter-correction": (game) => { game.stale = true; },
  // The game-input desk's notes and status: in the game's PGN and on the desk, not in a summary.
  note: null,
  "input-status": null,
};

// "12. Nf3" or "12... Nf6" for the move at `ply`.
export function moveLabel(ply, san) {
  const number = Math.floor((ply + 1) / 2);
  return ply % 2 === 1 ? `${number}. ${san}` : `${number}... ${san}`;
}
