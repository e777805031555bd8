// One game: the board, the move list to step through, both clocks, material, the players.
// LiveGame (the game kept current from its stream) is also what the demonstration board uses.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.
import {
  api, applyEvent, drawBoard, Follow, material, moveLabel, replay, showClocks, START_FEN,
} from "/static/relay.js";
import { param } from "/static/address.js";
import { el, liveStatus } from "/static/dom.js";
import { playerDetails, playerName } from "/static/players.js";

const REFETCH_GAP_MS = 1500;
const TICK_MS = 250;

// ---------------------------------------------------------------------------------------
// Positions from moves: only what a move does to the pieces (castling moves the rook, en
// passant takes the pawn beside, a promotion changes the piece); the hub checked legality.

// Placements after each ply (index 0: the start); the last one is the hub's, trusted over
// ours.
function replayed(moves, fen) {
  const positions = replay(moves);
  if (fen && moves.length) positions[positions.length - 1] = fen.split(" ")[0];
  return positions;
}

// ---------------------------------------------------------------------------------------

// "12. Nf3, White": how a move is read out.
export function spokenMove(ply, san) {
  return `${moveLabel(ply, san)}, ${ply % 2 === 1 ? "White" : "Black"}`;
}

// A game kept current: the summary (players, clock, result), the moves and the placement
// after each. onChange(kind, move) is told after every change; `move` is a new move.
export class LiveGame {
  constructor(id, { onChange = () => {}, onStatus = () => {} } = {}) {
    this.id = id;
    this.onChange = onChange;
    this.onStatus = onStatus;
    this.game = null;
    this.moves = [];
    this.positions = [];
    this.refetchTimer = null;
    this.lastRefetch = 0;
  }

  async start() {
    const detail = await api(`/api/games/${this.id}`);
    this.load(detail);
    this.onChange("load", null);
    this.follow = new Follow(
      `/api/games/${this.id}/stream`, (message) => this.receive(message), this.onStatus,
      { since: detail.v });
  }

  load(detail) {
    const { moves, claims, illegal_moves, alerts, ...summary } = detail;
    this.game = { ...summary, stale: false };
    this.moves = moves.map(({ ply, uci, san }) => ({ ply, uci, san }));
    this.positions = replayed(this.moves, summary.fen);
  }

  placement(ply) {
    return this.positions[Math.min(ply, this.positions.length - 1)];
  }

  receive(message) {
    if (message.type === "reload") {
      // The stored log was replaced: the whole log follows from the start.
      Object.assign(this.game, { v: 0, fen: START_FEN, ply: 0, last_move: null, last_san: null });
      this.moves = [];
      this.positions = replay([]);
      this.onChange("reload", null);
      return;
    }
    if (message.type !== "event" || !applyEvent(this.game, message)) return;
    const d = message.data;
    let move = null;
    if (message.kind === "move" || message.kind === "correction") {
      if (d.ply - 1 > this.moves.length) this.game.stale = true; // a gap: fetch it all
      else {
        move = { ply: d.ply, uci: d.uci, san: d.san };
        this.moves.length = d.ply - 1;
        this.positions.length = d.ply;
        this.moves.push(move);
        this.positions.push(d.fen.split(" ")[0]);
      }
    } else if (message.kind === "takeback" || (message.kind === "new-game" && this.game.ply === 0)) {
      const ply = message.kind === "takeback" ? d.ply : 0;
      this.moves.length = Math.min(ply, this.moves.length);
      this.positions.length = this.moves.length + 1;
    }
    if (this.game.stale) this.refetchSoon();
    this.onChange(message.kind, move);
  }

  // Fetch the whole game again (a clock event, an arbiter's correction), not too often.
  refetchSoon() {
    if (this.refetchTimer) return;
    const wait = Math.max(0, this.lastRefetch + REFETCH_GAP_MS - Date.now());
    this.refetchTimer = setTimeout(() => this.refetch(), wait);
  }

  async refetch() {
    this.refetchTimer = null;
    this.lastRefetch = Date.now();
    try {
      const detail = await api(`/api/games/${this.id}`);
      if (detail.v >= this.game.v) {
        this.load(detail);
        this.onChange("refresh", null);
        return;
      }
    } catch {
      // fall through: try again later
    }
    if (this.game.stale) this.refetchSoon();
  }
}

// The arbiter's corrections of the moves (seed 004, ch. 18), in words; "" for none.
export function amendedText(game) {
  const marks = (game && game.amended) || [];
  if (!marks.length) return "";
  const one = (mark) => {
    const where = moveLabel(mark.ply, "").trim();
    const from = `${where} (ply ${mark.ply})`;
    const what = mark.added === 0 ? `moves removed from ${from}` : `moves replaced from ${from}`;
    return mark.reason ? `${what} (${mark.reason})` : what;
  };
  return `Amended by the arbiter: ${marks.map(one).join("; ")}`;
}

export function materialText(placement) {
  const { white, black, balance } = material(placement);
  const lead = balance === 0 ? "level" : `${balance > 0 ? "White" : "Black"} +${Math.abs(balance)}`;
  return `Material ${white}–${black}, ${lead}`;
}

export function resultText(game) {
  if (game.result === "*") {
    if (game.proposed_result) return `The players show ${game.proposed_result}, for the arbiter to confirm`;
    if (game.draw_offer) return `${game.draw_offer === "white" ? "White" : "Black"} offers a draw`;
    return "In progress";
  }
  const how = game.termination ? `, ${game.termination}` : "";
  const checked = game.verified ? "verified by the arbiter" : "not yet verified";
  return `Result ${game.result}${how} (${checked})`;
}

// ---------------------------------------------------------------------------------------
// The page.

function startPage() {
  const id = Number(param("id"));
  const board = document.getElementById("board");
  const list = document.getElementById("moves");
  const announce = document.getElementById("announce");
  const clocks = {
    white: document.querySelector("#white .clock"),
    black: document.querySelector("#black .clock"),
  };
  let viewing = null; // the ply shown, or null for the live position
  let live = null;

  const shownPly = () => (viewing === null ? live.moves.length : viewing);

  function moveButton(move) {
    const button = el("button", "move", move.san);
    button.type = "button";
    button.dataset.ply = move.ply;
    button.tabIndex = -1;
    button.setAttribute("aria-label", spokenMove(move.ply, move.san));
    const amended = (live.game.amended || []).find((mark) => mark.ply === move.ply);
    if (amended) {
      button.classList.add("amended");
      button.title = amended.reason ? `amended by the arbiter: ${amended.reason}` : "amended by the arbiter";
    }
    return button;
  }

  // The move list as rows of full moves: "12." White's move, Black's move.
  function drawMoves() {
    const rows = [];
    for (let i = 0; i < live.moves.length; i += 2) {
      const row = el("li", "row");
      row.append(el("span", "no", `${i / 2 + 1}.`), moveButton(live.moves[i]));
      if (live.moves[i + 1]) row.append(moveButton(live.moves[i + 1]));
      rows.push(row);
    }
    list.replaceChildren(...rows);
  }

  function appendMove(move) {
    const last = list.lastElementChild;
    if (move.ply % 2 === 0 && last && last.children.length === 2) last.append(moveButton(move));
    else {
      const row = el("li", "row");
      row.append(el("span", "no", `${Math.floor((move.ply + 1) / 2)}.`), moveButton(move));
      list.append(row);
    }
  }

  function drawPosition() {
    const ply = shownPly();
    const placement = live.placement(ply);
    const move = ply > 0 ? live.moves[ply - 1] : null;
    const after = move ? `after ${spokenMove(move.ply, move.san)}` : "the starting position";
    const where = viewing === null ? "Live position" : "Earlier position";
    drawBoard(board, placement, { lastMove: move ? move.uci : null, label: `${where}, ${after}` });
    const holder = document.getElementById("position");
    holder.dataset.ply = ply;
    holder.dataset.livePly = live.moves.length;
    holder.classList.toggle("history", viewing !== null);
    document.getElementById("material").textContent = materialText(placement);
    document.getElementById("viewing").textContent = viewing === null
      ? "" : `Showing the position ${after}.`;
    document.getElementById("live").setAttribute("aria-pressed", String(viewing === null));
    let current = null;
    for (const button of list.querySelectorAll("button.move")) {
      const here = Number(button.dataset.ply) === ply;
      button.classList.toggle("current", here);
      button.tabIndex = here ? 0 : -1;
      if (here) { button.setAttribute("aria-current", "step"); current = button; } else button.removeAttribute("aria-current");
    }
    if (current) keepInView(current);
    else if (viewing === null) list.scrollTop = list.scrollHeight;
  }

  function keepInView(button) {
    const top = button.offsetTop;
    const bottom = top + button.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top - 4;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 4;
  }

  function drawSummary() {
    const game = live.game;
    for (const colour of ["white", "black"]) {
      const line = document.getElementById(colour);
      line.querySelector(".name").textContent = playerName(game[colour]);
      line.querySelector(".details").textContent = playerDetails(game[colour]);
    }
    document.getElementById("result").textContent = resultText(game);
    document.getElementById("result").classList.toggle("over", game.result !== "*");
    const amended = document.getElementById("amended");
    amended.textContent = amendedText(game);
    amended.hidden = !amended.textContent;
    showClocks(game, clocks);
  }

  function show(ply) {
    viewing = ply === null || ply >= live.moves.length ? null : Math.max(0, ply);
    drawPosition();
  }

  function onChange(kind, move) {
    if (kind === "load" || kind === "refresh" || kind === "reload" || kind === "takeback"
        || kind === "new-game" || (move && move.ply <= list.querySelectorAll("button.move").length)) {
      drawMoves();
    } else if (move) appendMove(move);
    if (viewing !== null && viewing > live.moves.length) viewing = null;
    drawSummary();
    drawPosition();
    if (move && kind === "move") announce.textContent = spokenMove(move.ply, move.san);
    if (kind === "end" || kind === "result") announce.textContent = resultText(live.game);
  }

  list.addEventListener("click", (event) => {
    const button = event.target.closest("button.move");
    if (button) show(Number(button.dataset.ply));
  });
  document.getElementById("to-start").addEventListener("click", () => show(0));
  document.getElementById("back").addEventListener("click", () => show(shownPly() - 1));
  document.getElementById("forward").addEventListener("click", () => show(shownPly() + 1));
  document.getElementById("live").addEventListener("click", () => show(null));
  document.addEventListener("keydown", (event) => {
    if (!live || !live.game || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, select, textarea")) return;
    const steps = {
      ArrowLeft: () => shownPly() - 1,
      ArrowRight: () => shownPly() + 1,
      Home: () => 0,
      End: () => null,
    };
    if (!(event.key in steps)) return;
    event.preventDefault();
    show(steps[event.key]());
    // Keep the focus on the move shown, so a screen reader reads it.
    const current = list.querySelector("button.move.current");
    if (list.contains(document.activeElement) && current) current.focus();
  });

  if (!id) {
    document.getElementById("game-title").textContent = "No game chosen";
    return;
  }
  document.getElementById("pgn-link").href = `/api/games/${id}.pgn`;
  document.getElementById("projector-link").href = `/projector?game=${id}`;
  live = new LiveGame(id, { onChange, onStatus: liveStatus() });
  live.start().then(() => {
    const game = live.game;
    const title = `Board ${game.board}: ${playerName(game.white)} – ${playerName(game.black)}`;
    document.getElementById("game-title").textContent = title;
    document.title = `${title} · chess-relay`;
    document.getElementById("back-link").href = `/?round=${game.round_id}`;
    return api(`/api/rounds/${game.round_id}`).then((round) => {
      document.getElementById("game-round").textContent = `Round ${round.number}`;
    });
  }).catch((error) => {
    document.getElementById("game-title").textContent = `Cannot load game ${id}: ${error.message}`;
  });
  setInterval(() => {
    if (live.game && !document.hidden) showClocks(live.game, clocks);
  }, TICK_MS);
}

if (document.body.dataset.page === "game") startPage();
