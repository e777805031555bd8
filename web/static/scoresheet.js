// The electronic scoresheet beside one board (seed 004 ch. 17 items 3, 5-7, 10-12): the last
// moves with scroll-back, the position, both clocks and the move number; warnings for an
// illegal move, a repetition or fifty moves to claim, checkmate, a dead position, a fallen
// flag; the players' draw offers; the result; a print view of four copies with a protocol
// to sign. The "both sides" layout turns Black's half to face Black across the board.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import {
  ApiError, Follow, api, applyEvent, clockNow, clockText, drawBoard, moveLabel, replay,
} from "/static/relay.js";
import { addressWith, param } from "/static/address.js";
import { $, actionButton, el, liveStatus } from "/static/dom.js";
import { playerName } from "/static/players.js";
import { dropTokenFromAddress, token } from "/static/token.js";
import { startInput } from "/static/scoresheet-input.js";

const COLOURS = ["white", "black"];
const NAME = { white: "White", black: "Black" };
const OTHER = { white: "black", black: "white" };
const SHOWN_RESULT = { "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½–½", "*": "*" };
const COPIES = [
  ["White", "for the player of the white pieces"],
  ["Black", "for the player of the black pieces"],
  ["Administration", "for the tournament office"],
  ["Press", "for the press room and the bulletin"],
];
// A paper scoresheet's columns: 30 moves each, at least two of them.
const ROWS_PER_COLUMN = 30;
const PRINTED_ROWS = 60;
const TICK_MS = 100;

const state = {
  id: null,
  game: null, // GET /api/games/{id}, kept current by the game's stream
  round: null,
  tournament: null,
  // Every event seen, by version: replayed over a fresh snapshot, and read for the
  // illegal moves of each player (the snapshot only counts them).
  log: new Map(),
  layout: param("layout") === "normal" ? "normal" : "both",
  print: param("print") === "1",
  // ?input=1: the tablet beside a board without an e-board enters its moves (scoresheet-input.js).
  input: param("input") === "1" ? null : false,
  rendered: false,
  busy: false,
  errors: { white: "", black: "" },
};

// ---------------------------------------------------------------------------------------
// The game: a snapshot, then the stream's events; a fresh snapshot when an event needs one.

function record(game, message) {
  if (!applyEvent(game, message)) return false;
  const d = message.data;
  switch (message.kind) {
    case "move":
    case "correction":
      game.moves = game.moves.slice(0, d.ply - 1);
      game.moves.push({ ply: d.ply, uci: d.uci, san: d.san, at: d.at, clock: d.clock });
      break;
    case "move-clock": {
      // The mover pressed after the move was published: the move's time is that press's.
      const move = game.moves[d.ply - 1];
      if (move && move.ply === d.ply) game.moves[d.ply - 1] = { ...move, clock: d.clock };
      break;
    }
    case "takeback":
      game.moves = game.moves.slice(0, d.ply);
      game.claims = [];
      break;
    case "claims":
      game.claims = d.claims;
      break;
    case "illegal-move":
      game.illegal_moves += 1;
      break;
    case "alert":
      game.alerts = [...game.alerts, d.alert];
      break;
    case "new-game":
    case "arbiter-correction":
      game.stale = true; // the moves were rewritten: the snapshot is the truth
      break;
    default:
      break;
  }
  return true;
}

let refreshing = null;
let refreshAgain = false;

// A fresh snapshot, with whatever the stream brought meanwhile played over it.
function refresh() {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    try {
      do {
        refreshAgain = false;
        const game = await api(`/api/games/${state.id}`);
        const newer = [...state.log.keys()].filter((v) => v > game.v).sort((a, b) => a - b);
        for (const v of newer) record(game, state.log.get(v));
        state.game = game;
        problem("");
        render();
      } while (refreshAgain);
    } catch (error) {
      problem(`Cannot read the game: ${error.message}`);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

function onMessage(message) {
  if (message.type === "reload") {
    state.log.clear(); // the whole log follows from the start
    refresh();
    return;
  }
  if (message.type !== "event") return;
  state.log.set(message.v, message);
  if (!state.game) return; // the snapshot on its way replays it
  // Even an event the snapshot has may change what the log tells (illegal moves per player).
  record(state.game, message);
  render();
  if (state.game.stale) refresh();
}

async function gameId() {
  const given = param("game");
  if (given) return Number(given);
  const round = param("round");
  const board = param("board");
  if (round && board) {
    const games = await api(`/api/rounds/${encodeURIComponent(round)}/games`);
    const found = games.find((game) => String(game.board) === board);
    if (!found) throw new Error(`round ${round} has no board ${board}`);
    return found.id;
  }
  throw new Error("open the scoresheet as /scoresheet?game=ID or /scoresheet?round=ID&board=N");
}

// The event, round and board for the headings and the printed copies.
async function loadEvent() {
  try {
    state.round = await api(`/api/rounds/${state.game.round_id}`);
    const tournaments = await api("/api/tournaments");
    state.tournament = tournaments.find((t) => t.id === state.round.tournament_id) || null;
  } catch (error) {
    // The headings say "?" for what could not be read; the game goes on.
  }
  render();
}

// ---------------------------------------------------------------------------------------
// What the position and the Laws say, as text.

function toMove(game) {
  return game.ply % 2 === 0 ? "white" : "black";
}

function when(at) {
  return new Date(at * 1000).toLocaleTimeString();
}

function ordinal(n) {
  return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

// Completed illegal moves per player, from the events (the snapshot only has a total), and
// whether the last one is the latest thing on the board (no move since).
function illegalMoves(game) {
  const events = [...state.log.values()].filter((m) => m.v <= game.v).sort((a, b) => a.v - b.v);
  const illegal = events.filter((m) => m.kind === "illegal-move");
  const count = { white: 0, black: 0 };
  for (const item of illegal) count[item.data.player] += 1;
  const last = illegal.length ? illegal[illegal.length - 1] : null;
  const isMove = (m) => m.kind === "move" || m.kind === "correction";
  const moved = !!last && events.some((m) => isMove(m) && m.v > last.v);
  return { count, last: last && last.data, current: !!last && !moved, total: game.illegal_moves };
}

function penaltyText(item) {
  if (item.penalty === "loss") return `proposed: ${NAME[item.player]} loses (7.5.5)`;
  const minutes = item.seconds % 60 === 0 ? `${item.seconds / 60} min` : `${item.seconds} s`;
  return `proposed: +${minutes} for ${NAME[OTHER[item.player]]} (7.5.5)`;
}

function claimText(claim, game) {
  const player = NAME[toMove(game)];
  const rule = claim.rule === "threefold" ? "Third repetition" : "50 moves";
  const article = claim.rule === "threefold" ? "9.2" : "9.3";
  if (claim.now) {
    return { title: `${rule}: claimable now`, detail: `${player} may claim a draw (${article}.2)` };
  }
  const moves = claim.moves.join(" or ");
  return {
    title: `${rule}: claimable with move ${moves}`,
    detail: `${player} may claim by writing ${moves} and not playing it (${article}.1)`,
  };
}

function winnerText(result) {
  if (result === "1-0") return "White wins";
  if (result === "0-1") return "Black wins";
  if (result === "1/2-1/2") return "Draw";
  return "";
}

// How the game ended, when the Laws ended it: [kind, level, title, detail] or null.
function ending(game) {
  const termination = game.termination || "";
  if (termination === "checkmate") {
    return ["checkmate", "end", "Checkmate", winnerText(game.result)];
  }
  if (termination === "stalemate") return ["stalemate", "end", "Stalemate", "a draw (5.2.1)"];
  if (/insufficient material|cannot checkmate|dead/.test(termination)) {
    const why = termination.startsWith("flag")
      ? "the opponent cannot checkmate: a draw (6.9)"
      : "a dead position: a draw (5.2.2)";
    return ["no-mate", "end", "No checkmate possible", why];
  }
  if (termination === "fivefold repetition") {
    return ["repetition", "end", "Fivefold repetition", "a draw (9.6.1)"];
  }
  if (termination === "seventy-five moves") {
    return ["fifty-moves", "end", "75 moves without capture or pawn move", "a draw (9.6.2)"];
  }
  return null;
}

// The warnings to show, weightiest first: [{ key, kind, level, title, detail }].
function warnings(game) {
  const list = [];
  const add = (kind, level, title, detail = "") => {
    list.push({ key: `${kind}:${level}:${title}`, kind, level, title, detail });
  };
  const clock = game.clock || {};
  const ended = game.result !== "*";
  if (clock.flag) {
    const detail = `at ${when(clock.flag.at)} · the times are frozen`;
    add("flag", "alarm", `${NAME[clock.flag.player]}'s flag has fallen`, detail);
  } else if ((game.termination || "").startsWith("flag fall")) {
    add("flag", "alarm", "A flag has fallen", game.termination);
  }
  if (game.alerts.includes("both-flags")) {
    add("flag", "alarm", "Both flags have fallen", "the arbiter decides (III.3.1)");
  }
  const end = ending(game);
  if (end) add(...end);
  const illegal = illegalMoves(game);
  if (illegal.current && !ended) {
    const last = illegal.last;
    const title = `Illegal move completed by ${NAME[last.player]} (${ordinal(last.count)})`;
    add("illegal", "alarm", title, penaltyText(last));
  } else if (illegal.total > 0) {
    const { white, black } = illegal.count;
    const detail = white + black === illegal.total ? `White ${white}, Black ${black}` : "";
    add("illegal", "info", `Illegal moves completed: ${illegal.total}`, detail);
  }
  const board = game.alerts.filter((a) => a === "illegal-position" || a === "position-restored");
  if (!ended && board[board.length - 1] === "illegal-position") {
    add("illegal", "alarm", "The board shows no legal position", "set up the last position again");
  }
  if (!ended) {
    for (const claim of game.claims) {
      const text = claimText(claim, game);
      const kind = claim.rule === "threefold" ? "threefold" : "fifty-moves";
      add(kind, "claim", text.title, text.detail);
    }
    if (game.alerts.includes("dead-position")) {
      const detail = "a locked position: the arbiter decides (5.2.2)";
      add("no-mate", "claim", "No checkmate possible?", detail);
    }
    if (clock.paused) add("paused", "info", "The clocks are paused", "by the arbiter");
  }
  return list;
}

// ---------------------------------------------------------------------------------------
// The live view: two halves (or one), each complete for its player.

function sides() {
  return [...document.querySelectorAll("#sheet .side")];
}

function buildSide(section) {
  const side = section.dataset.side;
  section.replaceChildren($("side-template").content.cloneNode(true));
  // Both halves say the same: a screen reader hears the warnings once, from White's.
  if (side === "black") section.querySelector(".warnings").setAttribute("aria-live", "off");
  const scroll = section.querySelector(".moves .scroll");
  scroll.addEventListener("scroll", () => {
    const bottom = scroll.scrollTop + scroll.clientHeight >= scroll.scrollHeight - 4;
    scroll.dataset.stick = String(bottom);
    section.querySelector(".latest").disabled = bottom && !section.dataset.shown;
  });
  scroll.dataset.stick = "true";
  section.querySelector(".earlier").addEventListener("click", () => {
    scroll.scrollBy({ top: -scroll.clientHeight * 0.8 });
  });
  section.querySelector(".latest").addEventListener("click", () => {
    delete section.dataset.shown;
    scroll.scrollTop = scroll.scrollHeight;
    render();
  });
  section.querySelector("tbody").addEventListener("click", (event) => {
    const cell = event.target.closest("button[data-ply]");
    if (!cell) return;
    const ply = Number(cell.dataset.ply);
    if (ply === state.game.ply) delete section.dataset.shown;
    else section.dataset.shown = String(ply);
    render();
  });
  section.querySelector(".position").addEventListener("click", () => {
    if (!section.dataset.shown) return;
    delete section.dataset.shown;
    render();
  });
  section.querySelector(".draw-buttons").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (button) drawAction(button.dataset.player, button.dataset.action, side);
  });
}

// Whose half it is: the side's colour, or White's in the normal layout (one half).
function owner(section) {
  return state.layout === "normal" ? "white" : section.dataset.side;
}

// Changes come in bursts (a reconnection replays the log): one drawing per frame.
let drawing = false;

function render() {
  if (drawing) return;
  drawing = true;
  requestAnimationFrame(() => {
    drawing = false;
    draw();
  });
}

function draw() {
  const game = state.game;
  if (!game) return;
  document.body.classList.toggle("layout-normal", state.layout === "normal");
  document.body.classList.toggle("layout-both", state.layout === "both");
  document.body.classList.toggle("print-mode", state.print);
  document.body.dataset.ply = String(game.ply);
  document.body.dataset.result = game.result;
  renderHeading(game);
  for (const section of sides()) renderSide(section, game);
  renderPrint(game);
  if (state.input) state.input.render(game);
  tick();
  state.rendered = true;
}

function renderHeading(game) {
  const parts = [`Board ${game.board}`];
  parts.push(state.round ? `Round ${state.round.number}` : "Round ?");
  if (state.tournament) parts.push(state.tournament.name);
  $("title").textContent = parts.join(" · ");
  document.title = `Board ${game.board} · scoresheet · chess-relay`;
  $("layout").textContent = state.layout === "both" ? "Normal layout" : "Both sides";
  $("layout").setAttribute("aria-pressed", String(state.layout === "normal"));
}

function renderSide(section, game) {
  const me = owner(section);
  const shown = section.dataset.shown ? Number(section.dataset.shown) : null;
  // Clocks: the owner's first.
  const [own, opp] = section.querySelectorAll(".clock-box");
  for (const [box, player] of [[own, me], [opp, OTHER[me]]]) {
    box.dataset.player = player;
    const who = box.querySelector(".who");
    who.replaceChildren(el("b", null, NAME[player]), el("span", "name", playerName(game[player])));
  }
  // The move number and who is to move.
  const ply = game.ply;
  const ended = game.result !== "*";
  section.querySelector(".move-no").textContent = `Move ${Math.floor(ply / 2) + 1}`;
  section.querySelector(".to-move").textContent =
    ended ? "game over" : `${NAME[toMove(game)]} to move`;
  section.querySelector(".count").textContent =
    `moves played: White ${Math.ceil(ply / 2)}, Black ${Math.floor(ply / 2)}`;
  renderResult(section.querySelector(".result"), game);
  renderWarnings(section.querySelector(".warnings"), warnings(game));
  renderDraw(section, game);
  renderMoves(section, game, shown);
  renderPosition(section, game, shown);
}

function renderResult(box, game) {
  const proposed = game.result === "*" && game.proposed_result;
  box.hidden = game.result === "*" && !proposed;
  if (box.hidden) return;
  const result = proposed ? game.proposed_result : game.result;
  box.dataset.state = proposed ? "proposed" : game.verified ? "verified" : "provisional";
  box.querySelector(".score").textContent = SHOWN_RESULT[result] || result;
  const how = proposed
    ? "proposed by the players"
    : [winnerText(result), game.termination].filter(Boolean).join(" · ");
  box.querySelector(".how").textContent = how;
  box.querySelector(".standing").textContent = proposed
    ? "The arbiter confirms it"
    : game.verified ? "Result verified by the arbiter" : "Provisional: the arbiter verifies it";
}

// Warnings keep their element while they stand, so only a new one flashes.
function renderWarnings(list, items) {
  const old = new Map([...list.children].map((li) => [li.dataset.key, li]));
  const rows = items.map((item) => {
    let li = old.get(item.key);
    if (!li) {
      li = el("li", `warning ${item.level}`);
      li.dataset.key = item.key;
      li.dataset.kind = item.kind;
      li.append(el("strong", null, item.title), el("span", null, item.detail));
      if (state.rendered && item.level !== "info") li.classList.add("fresh");
    } else {
      li.lastChild.textContent = item.detail;
    }
    return li;
  });
  list.replaceChildren(...rows);
  list.hidden = rows.length === 0;
}

function renderDraw(section, game) {
  const me = owner(section);
  const players = state.layout === "normal" ? COLOURS : [me];
  const held = !!token();
  const over = game.result !== "*";
  const offer = game.draw_offer || null;
  const agreed = !over && !offer && game.proposed_result === "1/2-1/2";
  // Once the game is over there is nothing to offer; the result says what happened.
  section.querySelector(".draw").hidden = over;
  let status = "No draw offer";
  if (offer) {
    const toYou = offer !== me && players.length === 1;
    status = `${NAME[offer]} offers ${toYou ? "you " : ""}a draw`;
  } else if (agreed) {
    status = "Draw agreed: the arbiter confirms";
  }
  const statusLine = section.querySelector(".draw-status");
  statusLine.textContent = status;
  statusLine.dataset.offer = offer || "";
  // Buttons are made again only when they change: a press is never lost to a redraw.
  const buttons = section.querySelector(".draw-buttons");
  const usable = held && !over && !state.busy;
  const signature = JSON.stringify([players, offer, agreed, usable]);
  if (buttons.dataset.signature !== signature) {
    buttons.dataset.signature = signature;
    buttons.replaceChildren(...(agreed ? [] : players.map((p) => drawButtons(p, offer, usable))));
  }
  const hint = section.querySelector(".draw-hint");
  hint.hidden = held || agreed;
  hint.textContent = "Draw offers need this scoresheet's operator token, or this board's device token: open it with &token=…";
  const error = section.querySelector(".draw-error");
  error.textContent = state.errors[me] || "";
  error.hidden = !state.errors[me];
}

// What a player may do about a draw: offer one, withdraw theirs, or answer the other's.
function drawButtons(player, offer, usable) {
  const group = el("div", "draw-player");
  group.dataset.player = player;
  if (state.layout === "normal") group.append(el("span", "draw-who", NAME[player]));
  let actions = [["offer", "Offer a draw"]];
  if (offer === player) actions = [["withdraw", "Withdraw the offer"]];
  else if (offer) actions = [["accept", "Accept the draw"], ["decline", "Decline"]];
  for (const [action, label] of actions) {
    const button = actionButton(`draw-${action}`, label);
    button.dataset.player = player;
    button.dataset.action = action;
    button.disabled = !usable;
    button.setAttribute("aria-label", `${NAME[player]}: ${label.toLowerCase()}`);
    group.append(button);
  }
  return group;
}

async function drawAction(player, action, side) {
  state.busy = true;
  state.errors[side] = "";
  render();
  try {
    const body = { player, action };
    const answer = await api(`/api/games/${state.id}/draw`, { method: "POST", body });
    // The stream brings the same change; showing the answer now saves the wait.
    state.game.draw_offer = answer.draw_offer;
    state.game.proposed_result = answer.proposed_result;
  } catch (error) {
    let why = error.message;
    if (!(error instanceof ApiError)) why = "no network; try again when it is back, or call the arbiter";
    else if (error.status === 401 || error.status === 403) why = "this token may not record draw offers";
    state.errors[side] = `Not recorded: ${why}`;
  } finally {
    state.busy = false;
    render();
  }
}

function renderMoves(section, game, shown) {
  const scroll = section.querySelector(".moves .scroll");
  const body = section.querySelector("tbody");
  const last = game.moves[game.moves.length - 1];
  const signature = `${game.moves.length}:${last ? last.uci : ""}:${shown}`;
  if (body.dataset.signature !== signature) {
    body.dataset.signature = signature;
    const rows = [];
    for (let number = 1; 2 * number - 1 <= game.moves.length; number++) {
      const row = el("tr");
      row.append(el("th", "no", String(number)));
      for (const ply of [2 * number - 1, 2 * number]) {
        const cell = el("td", ply % 2 === 1 ? "w" : "b");
        const move = game.moves[ply - 1];
        if (move) {
          const button = actionButton("mv", move.san);
          button.dataset.ply = String(ply);
          button.setAttribute("aria-label", moveLabel(ply, move.san));
          if (ply === game.moves.length) button.classList.add("last");
          if (ply === shown) button.classList.add("shown");
          cell.append(button);
        }
        row.append(cell);
      }
      rows.push(row);
    }
    if (!rows.length) {
      const empty = el("tr", "empty");
      const cell = el("td", null, "No moves yet");
      cell.colSpan = 3;
      empty.append(cell);
      rows.push(empty);
    }
    body.replaceChildren(...rows);
  }
  // At the latest move it stays there, even when the space above it changes (a result shown).
  if (scroll.dataset.stick === "true") scroll.scrollTop = scroll.scrollHeight;
  section.querySelector(".latest").disabled = scroll.dataset.stick === "true" && shown === null;
}

function renderPosition(section, game, shown) {
  const board = section.querySelector(".board");
  const viewing = section.querySelector(".viewing");
  if (shown !== null && shown <= game.moves.length) {
    const moves = game.moves.slice(0, shown);
    drawBoard(board, positionAfter(moves), {
      lastMove: shown ? moves[shown - 1].uci : null,
      label: `Position after ${moveLabel(shown, moves[shown - 1].san)}`,
    });
    viewing.hidden = false;
    viewing.textContent = `After ${moveLabel(shown, moves[shown - 1].san)} · tap to return`;
  } else {
    delete section.dataset.shown;
    drawBoard(board, game.fen, {
      lastMove: game.last_move,
      label: game.last_san
        ? `Position after ${moveLabel(game.ply, game.last_san)}`
        : "Start position",
    });
    viewing.hidden = true;
  }
}

// The position after some moves (for scrolling back).
function positionAfter(moves) {
  return `${replay(moves).at(-1)} w - - 0 1`;
}

// Both times, ten times a second; frozen once a flag has fallen or the clocks stopped.
function tick() {
  const game = state.game;
  if (!game) return;
  const clock = game.clock;
  const now = clockNow(clock && clock.paused ? { ...clock, running: null } : clock);
  for (const box of document.querySelectorAll("#sheet .clock-box")) {
    const player = box.dataset.player;
    if (!player) continue;
    const text = box.querySelector(".clock");
    text.textContent = clockText(now[player]);
    const running = !!clock && !clock.paused && clock.running === player && game.result === "*";
    text.classList.toggle("running", running);
    box.classList.toggle("running", running);
    const fallen = !!clock && !!clock.flag && clock.flag.player === player;
    text.classList.toggle("flag", fallen);
    box.classList.toggle("flag", fallen);
  }
}

// ---------------------------------------------------------------------------------------
// The print view: four full copies, each on its own page, and a protocol to sign.

// Rendered with every change, so that printing the live page (Ctrl+P) prints it as it is.
function renderPrint(game) {
  const copies = COPIES.map(([title, purpose]) => printedCopy(game, title, purpose));
  $("copies").replaceChildren(...copies);
}

function printedCopy(game, title, purpose) {
  const copy = el("section", "copy");
  copy.dataset.copy = title;
  copy.append(
    copyHead(title, purpose),
    copyFacts(game),
    copyPlayers(game),
    copyMoves(game),
    copyResult(game),
    copyProtocol(game),
    el("footer", "copy-foot",
      `Recorded from the electronic board by chess-relay · printed ${new Date().toLocaleString()}`),
  );
  return copy;
}

function copyHead(title, purpose) {
  const head = el("header", "copy-head");
  const heading = el("div");
  const event = state.tournament ? state.tournament.name : "?";
  heading.append(el("p", "copy-kind", "Scoresheet"), el("h1", "copy-event", event));
  const badge = el("div", "copy-badge");
  badge.append(el("h2", "copy-title", title), el("p", "copy-for", `copy ${purpose}`));
  head.append(heading, badge);
  return head;
}

function copyFacts(game) {
  const t = state.tournament || {};
  const facts = el("dl", "facts");
  for (const [term, value] of [
    ["Site", t.site],
    ["Date", t.start_date],
    ["Round", state.round ? state.round.number : null],
    ["Board", game.board],
    ["Time control", t.time_control],
    ["Game", `#${game.id}`],
  ]) {
    const item = el("div");
    const known = value !== null && value !== undefined && value !== "";
    item.append(el("dt", null, term), el("dd", null, known ? String(value) : "?"));
    facts.append(item);
  }
  return facts;
}

function tableHead(labels) {
  const head = el("thead");
  const row = el("tr");
  for (const label of labels) row.append(el("th", null, label));
  head.append(row);
  return head;
}

function copyPlayers(game) {
  const table = el("table", "players");
  const body = el("tbody");
  for (const colour of COLOURS) {
    const p = game[colour] || {};
    const row = el("tr");
    row.dataset.player = colour;
    row.append(
      el("th", null, NAME[colour]),
      el("td", "name", playerName(p)),
      el("td", null, p.rating ? String(p.rating) : ""),
      el("td", null, p.federation || ""),
      el("td", null, p.fide_id ? String(p.fide_id) : ""),
    );
    body.append(row);
  }
  table.append(tableHead(["", "Name", "Rating", "Federation", "FIDE ID"]), body);
  return table;
}

// Numbered rows in columns of 30, as on paper; empty rows to fill by hand if need be.
function copyMoves(game) {
  const numbers = Math.ceil(game.moves.length / 2);
  const rows = Math.max(PRINTED_ROWS, Math.ceil(numbers / ROWS_PER_COLUMN) * ROWS_PER_COLUMN);
  const columns = el("div", "move-columns");
  columns.style.setProperty("--columns", String(Math.min(4, rows / ROWS_PER_COLUMN)));
  for (let first = 1; first <= rows; first += ROWS_PER_COLUMN) {
    const table = el("table", "printed-moves");
    const body = el("tbody");
    for (let number = first; number < first + ROWS_PER_COLUMN; number++) {
      const white = game.moves[2 * number - 2];
      const black = game.moves[2 * number - 1];
      const row = el("tr");
      if (white) row.classList.add("played");
      row.append(
        el("td", "no", String(number)),
        el("td", null, white ? white.san : ""),
        el("td", null, black ? black.san : ""),
      );
      body.append(row);
    }
    table.append(tableHead(["No.", "White", "Black"]), body);
    columns.append(table);
  }
  return columns;
}

function copyResult(game) {
  const line = el("p", "printed-result");
  line.append(el("span", null, "Result: "));
  if (game.result === "*") {
    line.append(el("span", "blank", ""), el("span", null, " (the game is not over)"));
    return line;
  }
  const how = [winnerText(game.result), game.termination].filter(Boolean).join(" · ");
  const standing = game.verified ? "verified by the arbiter" : "provisional";
  line.append(
    el("b", "score", SHOWN_RESULT[game.result] || game.result),
    el("span", null, ` ${how} · ${standing}`),
  );
  return line;
}

// The paper protocol both players and the arbiter sign at the end (ch. 17 item 12).
function copyProtocol(game) {
  const protocol = el("div", "protocol");
  const moves = Math.ceil(game.moves.length / 2);
  const what = moves === 0
    ? "the result"
    : `the ${moves} ${moves === 1 ? "move" : "moves"} and the result`;
  protocol.append(
    el("h3", null, "Protocol"),
    el("p", null, `We, the players and the arbiter, confirm ${what} above.`),
  );
  const signatures = el("div", "signatures");
  for (const [role, who] of [
    ["White", playerName(game.white)],
    ["Black", playerName(game.black)],
    ["Arbiter", null],
  ]) {
    const signature = el("div", "signature");
    signature.dataset.role = role;
    signature.append(
      el("div", "line"),
      el("p", "caption", who ? `${role}: ${who}` : role),
      el("p", "sign-time", who ? "Signature · time" : "Name, signature · time"),
    );
    signatures.append(signature);
  }
  protocol.append(signatures);
  return protocol;
}

// ---------------------------------------------------------------------------------------

function problem(text) {
  $("problem").textContent = text;
  $("problem").hidden = !text;
}

async function start() {
  token(); // keeps ?token= for the tab; the address need not show it on a public device
  if (param("token")) dropTokenFromAddress();
  if (state.input === null) state.layout = "normal"; // one upright half beside the input
  for (const section of sides()) buildSide(section);
  $("layout").addEventListener("click", () => {
    state.layout = state.layout === "both" ? "normal" : "both";
    history.replaceState(null, "", addressWith({ layout: state.layout === "normal" ? "normal" : null }));
    render();
  });
  $("print-link").href = addressWith({ print: "1" });
  $("live-link").href = addressWith({ print: null });
  $("print-now").addEventListener("click", () => window.print());
  document.body.classList.toggle("print-mode", state.print);
  try {
    state.id = await gameId();
  } catch (error) {
    problem(error.message);
    $("title").textContent = "No game";
    return;
  }
  $("print-link").href = addressWith({ print: "1" });
  $("live-link").href = addressWith({ print: null });
  if (state.input === null) state.input = startInput({ gameId: state.id, refresh });
  await refresh();
  if (state.game) loadEvent();
  // From version 0: the replay fills the log (illegal moves per player); what the snapshot
  // already has is skipped, and a reconnection resumes where it stopped.
  new Follow(`/api/games/${state.id}/stream`, onMessage, liveStatus("offline"));
  setInterval(tick, TICK_MS);
}

start();
