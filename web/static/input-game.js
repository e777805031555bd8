// The game-input desk's keying panel: one game's score keyed from its paper scoresheet at
// typing speed, with completion from the legal moves, the position beside it (←/→ to move
// about), an illegal entry flagged with the legal moves that fit it, notes, the scoresheet's
// result, and the game marked keyed or checked.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { ApiError, drawBoard, moveLabel } from "/static/relay.js";
import { $, actionButton, el } from "/static/dom.js";
import { token } from "/static/token.js";
import { shownResult } from "/static/scores.js";
import { completions, exactMove } from "/static/input-completion.js";

const STATUS_WORDS = { "to-key": "to key", keyed: "keyed", checked: "checked" };

export const panel = {
  game: null, // the hub's view of the open game (GET /api/games/{id}/input)
  shown: 0, // the ply whose position is drawn (0: the start)
  chosen: 0, // the suggestion Tab takes
  onChanged: () => {}, // the round's list hears of every change made here
  onRefused: () => {}, // a token refused mid-session
};

// A call whose refusal keeps the hub's whole answer (a 422 entry's `fitting` moves).
async function send(path, body) {
  const headers = { "Content-Type": "application/json" };
  const held = token();
  if (held) headers.Authorization = `Bearer ${held}`;
  const reply = await fetch(path, { method: body === undefined ? "GET" : "POST", headers,
    body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await reply.text();
  const data = text ? JSON.parse(text) : null;
  if (reply.status === 401) panel.onRefused();
  return { ok: reply.ok, status: reply.status, data };
}

function words(data, fallback) {
  if (!data || data.detail === undefined) return fallback;
  if (typeof data.detail === "string") return data.detail;
  return data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
}

export function statusWords(status) {
  return STATUS_WORDS[status] || status;
}

function says(text, kind = "") {
  const node = $("action-state");
  node.textContent = text;
  node.className = kind;
}

export async function openGame(gameId) {
  const answer = await send(`/api/games/${gameId}/input`);
  if (!answer.ok) throw new ApiError(answer.status, words(answer.data, "not found"));
  show(answer.data, true);
  hideError();
  says("");
  $("keying").hidden = false;
  $("entry").value = "";
  suggest();
  $("entry").focus();
}

// Reload the open game (another keyer changed it); the view stays where it was unless it
// was at the end.
export async function refresh() {
  if (!panel.game) return;
  const answer = await send(`/api/games/${panel.game.game_id}/input`);
  if (answer.ok && answer.data.v !== panel.game.v) show(answer.data, panel.shown === panel.game.plies);
}

export function closeGame() {
  panel.game = null;
  $("keying").hidden = true;
}

function show(game, toEnd) {
  panel.game = game;
  panel.shown = toEnd ? game.plies : Math.min(panel.shown, game.plies);
  render();
}

function render() {
  const game = panel.game;
  const player = (p) => `${p.name}${p.rating ? ` (${p.rating})` : ""}`;
  $("game-heading").textContent = `Board ${game.board}: ${player(game.white)} – ${player(game.black)}`;
  const status = $("game-status");
  status.replaceChildren(el("span", `tag status-${game.status}`, statusWords(game.status)));
  if (game.checked_by) status.append(` by ${game.checked_by} (keyed by ${game.keyed_by})`);
  else if (game.keyed_by) status.append(` by ${game.keyed_by}`);
  if (game.eboard) status.append(el("span", "tag eboard", "e-board game"));
  const next = game.plies + 1;
  const number = Math.floor((next + 1) / 2);
  const side = next % 2 === 1 ? "White" : "Black";
  const over = game.result !== "*";
  $("entry-label").textContent = over
    ? `The game is over (${shownResult(game.result)})`
    : `Move ${number}, ${side}`;
  $("entry").disabled = over;
  $("entry").dataset.ply = String(next);
  drawScore();
  drawPosition();
  drawResult();
  $("mark-keyed").disabled = game.status !== "to-key";
  $("mark-checked").disabled = game.status !== "keyed";
}

function drawScore() {
  const game = panel.game;
  const notes = new Map();
  for (const note of game.note_list) {
    const ply = Math.min(note.ply, game.plies);
    notes.set(ply, [...(notes.get(ply) || []), note.text]);
  }
  const score = $("score");
  score.replaceChildren();
  const noteNode = (ply) => el("span", "note", `{ ${notes.get(ply).join("; ")} }`);
  if (notes.has(0)) {
    const opening = el("li", "opening");
    opening.append(noteNode(0));
    score.append(opening);
  }
  let row = null;
  for (const move of game.moves) {
    if (move.ply % 2 === 1 || row === null) {
      row = el("li", "row");
      row.append(el("span", "number", `${Math.floor((move.ply + 1) / 2)}.`));
      if (move.ply % 2 === 0) row.append(el("span", "move empty", "…"));
      score.append(row);
    }
    const node = actionButton("move", move.san);
    node.dataset.ply = String(move.ply);
    node.setAttribute("aria-label", moveLabel(move.ply, move.san));
    node.classList.toggle("current", move.ply === panel.shown);
    node.addEventListener("click", () => goTo(move.ply));
    row.append(node);
    if (notes.has(move.ply)) row.append(noteNode(move.ply));
  }
  const current = score.querySelector(".move.current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function drawPosition() {
  const game = panel.game;
  const ply = panel.shown;
  const move = ply > 0 ? game.moves[ply - 1] : null;
  const fen = move ? move.fen : game.start_fen;
  const where = move ? `After ${moveLabel(move.ply, move.san)}` : "The start position";
  drawBoard($("position"), fen, { lastMove: move ? move.uci : null, label: where });
  $("position-label").textContent = `${where} (${ply} of ${game.plies})`;
  $("note-label").textContent = move
    ? `Note after ${moveLabel(move.ply, move.san)}`
    : "Note before the first move";
  for (const node of $("score").querySelectorAll(".move")) {
    node.classList.toggle("current", Number(node.dataset.ply) === ply);
  }
  $("take-back").hidden = ply >= game.plies || game.status === "checked" || game.result !== "*";
}

function drawResult() {
  const game = panel.game;
  let text = "";
  if (game.result !== "*") {
    text = `result ${shownResult(game.result)}${game.verified ? ", verified" : ", not verified yet"}`;
  } else if (game.proposed_result) {
    text = `proposed ${shownResult(game.proposed_result)}: the arbiter enters and verifies it`;
  }
  $("result-state").textContent = text;
  for (const button of document.querySelectorAll(".result-choice")) {
    button.disabled = game.result !== "*";
    button.classList.toggle("chosen", button.dataset.result === game.proposed_result);
  }
}

export function goTo(ply) {
  if (!panel.game) return;
  panel.shown = Math.max(0, Math.min(ply, panel.game.plies));
  drawPosition();
}

// The suggestions for what is typed; the one Tab takes is marked.
export function suggest() {
  const list = $("suggestions");
  list.replaceChildren();
  const typed = $("entry").value;
  // While entries wait for the hub, the position they lead to is not known here: no
  // suggestions from an older one.
  const fits = panel.game && !waiting ? completions(panel.game.legal, typed) : [];
  panel.chosen = Math.min(panel.chosen, Math.max(0, fits.length - 1));
  fits.forEach((san, index) => {
    const item = el("li", index === panel.chosen ? "chosen" : "", san);
    item.setAttribute("role", "option");
    item.setAttribute("aria-selected", String(index === panel.chosen));
    item.addEventListener("mousedown", (event) => { event.preventDefault(); enter(san); });
    list.append(item);
  });
}

function complete() {
  if (waiting) return false;
  const fits = completions(panel.game.legal, $("entry").value);
  if (!fits.length) return false;
  $("entry").value = fits[panel.chosen] || fits[0];
  panel.chosen = 0;
  suggest();
  return true;
}

function hideError() {
  $("entry-error").hidden = true;
  $("fitting").replaceChildren();
  $("entry").classList.remove("wrong");
}

function flag(text, fitting) {
  $("entry-error").hidden = false;
  $("entry-error-text").textContent = text;
  $("entry").classList.add("wrong");
  const list = $("fitting");
  list.replaceChildren();
  for (const fit of fitting) {
    const item = el("li");
    const button = actionButton("fit", fit.san);
    button.addEventListener("click", () => { $("entry").value = ""; enter(fit.san); });
    item.append(button, el("span", "words", fit.words));
    list.append(item);
  }
}

// Entries wait their turn: a keyer at typing speed presses Enter before the hub has answered
// the move before. A refused entry drops the ones typed after it (they followed a move that
// is not in), and comes back to the box to be put right.
let pending = Promise.resolve();
let generation = 0;
let waiting = 0; // entries sent or queued, not yet answered

// Enter `text` for the next ply: recorded, or flagged with the legal moves that fit it.
export function enter(text) {
  if (!panel.game || !text.trim()) return pending;
  const turn = generation;
  $("entry").value = "";
  panel.chosen = 0;
  suggest();
  waiting += 1;
  pending = pending
    .then(() => (turn === generation ? record(text) : dropped(text)))
    .finally(() => { waiting -= 1; suggest(); });
  return pending;
}

let droppedTexts = [];

function dropped(text) {
  droppedTexts.push(text.trim());
  $("entry-error-text").textContent = `${$("entry-error-text").dataset.refusal} ` +
    `Not sent, typed after it: ${droppedTexts.join(" ")}.`;
}

async function record(text) {
  const game = panel.game;
  const written = exactMove(game.legal, text) || text.trim();
  const ply = game.plies + 1;
  let answer;
  try {
    // Keyed after the game from its paper scoresheet: no one's clock is charged for it.
    answer = await send(`/api/games/${game.game_id}/entries`, { ply, move: written, timed: false });
  } catch (error) {
    answer = { ok: false, status: 0, data: { detail: "the hub cannot be reached" } };
  }
  if (!answer.ok) {
    generation += 1;
    droppedTexts = [];
    $("entry").value = text.trim();
    flag(words(answer.data, "refused"), (answer.data && answer.data.fitting) || []);
    $("entry-error-text").dataset.refusal = $("entry-error-text").textContent;
    suggest();
    $("entry").focus();
    return;
  }
  hideError();
  await reloadToEnd();
  suggest();
  $("entry").focus();
}

async function reloadToEnd() {
  const answer = await send(`/api/games/${panel.game.game_id}/input`);
  if (answer.ok) show(answer.data, true);
  panel.onChanged();
}

// A desk action on the open game (a note, the result, the status, a take-back): the game as
// the hub left it, or the hub's words for a refusal.
async function act(path, body, done) {
  const game = panel.game;
  if (!game) return;
  const answer = await send(`/api/games/${game.game_id}/input/${path}`, body);
  if (!answer.ok) {
    says(words(answer.data, "refused"), "error");
    return;
  }
  show(answer.data, path === "takeback" || panel.shown === game.plies);
  says(done, "ok");
  panel.onChanged();
}

function onEntryKey(event) {
  const input = $("entry");
  const fits = panel.game && !waiting ? completions(panel.game.legal, input.value) : [];
  if (event.key === "Tab" && !event.shiftKey && input.value && fits.length) {
    event.preventDefault();
    complete();
  } else if (event.key === "ArrowDown" && fits.length) {
    event.preventDefault();
    panel.chosen = (panel.chosen + 1) % fits.length;
    suggest();
  } else if (event.key === "ArrowUp" && fits.length) {
    event.preventDefault();
    panel.chosen = (panel.chosen + fits.length - 1) % fits.length;
    suggest();
  } else if (!input.value && navigate(event.key)) {
    event.preventDefault();
  }
}

// ←/→ (and Home/End) move about the game; true when the key did.
export function navigate(key) {
  if (!panel.game) return false;
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (key in moves) goTo(panel.shown + moves[key]);
  else if (key === "Home") goTo(0);
  else if (key === "End") goTo(panel.game.plies);
  else return false;
  return true;
}

export function wirePanel() {
  $("entry-form").addEventListener("submit", (event) => {
    event.preventDefault();
    enter($("entry").value);
  });
  $("entry").addEventListener("input", () => { panel.chosen = 0; hideError(); suggest(); });
  $("entry").addEventListener("keydown", onEntryKey);
  document.addEventListener("keydown", (event) => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
    if (!typing && navigate(event.key)) event.preventDefault();
  });
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(panel.shown - 1));
  $("forward").addEventListener("click", () => goTo(panel.shown + 1));
  $("last").addEventListener("click", () => goTo(panel.game ? panel.game.plies : 0));
  $("note-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("note-text").value.trim();
    if (!text) return;
    act("notes", { ply: panel.shown, text }, `Note added: ${text}`)
      .then(() => { $("note-text").value = ""; });
  });
  for (const button of document.querySelectorAll(".quick")) {
    button.addEventListener("click", () => {
      act("notes", { ply: panel.shown, text: button.dataset.note }, `Note added: ${button.dataset.note}`);
    });
  }
  for (const button of document.querySelectorAll(".result-choice")) {
    button.addEventListener("click", () => {
      const result = button.dataset.result;
      act("result", { result }, `Result ${shownResult(result)} proposed: the arbiter enters and verifies it.`);
    });
  }
  $("mark-keyed").addEventListener("click", () => act("status", { status: "keyed" }, "Marked keyed: a second keyer checks it."));
  $("mark-checked").addEventListener("click", () => act("status", { status: "checked" }, "Marked checked."));
  $("take-back").addEventListener("click", () => {
    const ply = panel.shown;
    act("takeback", { ply }, `The moves after ply ${ply} were taken back: key them again.`);
  });
}
