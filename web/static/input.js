// The game-input desk (/input?round=ID): a keyer signs in with a token, sees the round's
// games from its pairings with each one's keying status and the round's progress, opens a
// game and keys its scoresheet (input-game.js). The round's stream keeps the list current
// while other keyers work. An ES module, no build.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { ApiError, Follow, api } from "/static/relay.js";
import { $, el, liveStatus } from "/static/dom.js";
import { param } from "/static/address.js";
import { dropTokenFromAddress, setToken, token } from "/static/token.js";
import { shownResult } from "/static/scores.js";
import {
  closeGame, openGame, panel, refresh, statusWords, wirePanel,
} from "/static/input-game.js";

const state = { round: null, follow: null, games: [], timer: null, open: null };

function explain(error) {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return "the hub cannot be reached";
  return String(error && error.message ? error.message : error);
}

function notice(text, kind = "") {
  const node = $("notice");
  node.textContent = text;
  node.className = `notice ${kind}`;
}

function showLogin(message = "") {
  stop();
  $("desk").hidden = true;
  $("login").hidden = false;
  $("sign-out").hidden = true;
  $("status").hidden = true;
  $("who").textContent = "";
  $("login-error").textContent = message;
  $("token-input").value = "";
  $("token-input").focus();
}

function stop() {
  if (state.follow) state.follow.close();
  state.follow = null;
  closeGame();
}

// The round the address names, else the newest one the keyer may see.
async function chosenRound() {
  const given = param("round");
  if (given) return Number(given);
  const rounds = await api("/api/rounds");
  if (!rounds.length) return null;
  return rounds[rounds.length - 1].id;
}

async function enter() {
  let round;
  try {
    round = await chosenRound();
    if (round === null) {
      showLogin("There is no round yet.");
      return;
    }
    await api(`/api/rounds/${round}/input`);
  } catch (error) {
    setToken(null);
    if (error instanceof ApiError && error.status === 401) {
      showLogin(`Token refused: ${explain(error)}. Check that it was copied whole, or ask for a new one.`);
    } else if (error instanceof ApiError && error.status === 403) {
      showLogin(`This token cannot use the game-input desk: ${explain(error)}.`);
    } else {
      showLogin(`Could not open the desk: ${explain(error)}.`);
    }
    return;
  }
  dropTokenFromAddress();
  state.round = round;
  $("login").hidden = true;
  $("desk").hidden = false;
  $("sign-out").hidden = false;
  $("status").hidden = false;
  $("who").textContent = "Signed in";
  api("/api/me").then((me) => {
    if (me.user) $("who").textContent = `Signed in · ${me.user} (${me.role})`;
  }).catch(() => {});
  for (const node of document.querySelectorAll(".round-id")) node.textContent = String(round);
  $("skeleton-link").href = `/api/rounds/${round}/skeleton.pgn`;
  $("round-pgn-link").href = `/api/rounds/${round}/games.pgn`;
  await loadRound();
  state.follow = new Follow(`/api/rounds/${round}/stream`, onMessage, liveStatus("offline"));
  const wanted = Number(param("game"));
  if (wanted) await choose(wanted);
}

function onMessage(message) {
  if (message.type !== "event" && message.type !== "snapshot" && message.type !== "reload") return;
  // Debounced: a keyer at typing speed makes several events a second.
  clearTimeout(state.timer);
  state.timer = setTimeout(() => {
    loadRound();
    if (message.type !== "event" || (panel.game && message.game === panel.game.game_id)) refresh();
  }, 250);
}

async function loadRound() {
  let desk;
  try {
    desk = await api(`/api/rounds/${state.round}/input`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) showLogin("The token was refused: sign in again.");
    else notice(`Could not read the round: ${explain(error)}`, "error");
    return;
  }
  $("round-title").textContent = `${desk.tournament} · Round ${desk.number}`;
  const progress = desk.progress;
  $("count-to-key").textContent = String(progress.to_key);
  $("count-keyed").textContent = String(progress.keyed);
  $("count-checked").textContent = String(progress.checked);
  $("count-eboard").textContent = String(progress.eboard);
  const total = progress.to_key + progress.keyed + progress.checked;
  $("meter-keyed").style.width = total ? `${(100 * progress.keyed) / total}%` : "0";
  $("meter-checked").style.width = total ? `${(100 * progress.checked) / total}%` : "0";
  state.games = desk.games;
  drawGames();
}

function drawGames() {
  const body = $("games").querySelector("tbody");
  body.replaceChildren();
  const player = (p) => {
    const cell = el("td", "player", p.name);
    if (p.rating) cell.append(el("span", "rating", ` ${p.rating}`));
    return cell;
  };
  for (const game of state.games) {
    const row = el("tr");
    row.dataset.game = String(game.game_id);
    row.classList.toggle("open", !!panel.game && panel.game.game_id === game.game_id);
    row.append(el("th", "board", String(game.board)), player(game.white), player(game.black));
    row.append(el("td", "plies", String(game.plies)));
    const result = game.result !== "*"
      ? shownResult(game.result) + (game.verified ? " ✓" : "")
      : game.proposed_result ? `(${shownResult(game.proposed_result)})` : "";
    row.append(el("td", "result", result));
    const status = el("td", "status");
    if (game.eboard) status.append(el("span", "tag eboard", "e-board"));
    else status.append(el("span", `tag status-${game.status}`, statusWords(game.status)));
    row.append(status);
    row.tabIndex = 0;
    row.addEventListener("click", () => choose(game.game_id));
    row.addEventListener("keydown", (event) => {
      if (event.key === "Enter") choose(game.game_id);
    });
    body.append(row);
  }
}

async function choose(gameId) {
  try {
    await openGame(gameId);
    notice("");
  } catch (error) {
    notice(`Could not open the game: ${explain(error)}`, "error");
    return;
  }
  history.replaceState(null, "", `${location.pathname}?round=${state.round}&game=${gameId}`);
  drawGames();
}

function start() {
  wirePanel();
  panel.onChanged = () => loadRound();
  panel.onRefused = () => showLogin("The token was refused: sign in again.");
  $("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const given = $("token-input").value.trim();
    if (!given) return;
    setToken(given);
    $("login-error").textContent = "";
    await enter();
  });
  $("sign-out").addEventListener("click", () => {
    setToken(null);
    showLogin();
  });
  if (token()) enter();
  else showLogin();
}

start();
