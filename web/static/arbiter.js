// The arbiter's console for one round: every board and its health, the round's clocks,
// time changes and penalties with a confirmation step, an alerts feed from the round's
// stream, results and their verification, and publishing the round; between rounds, the
// next round paired by the hub, checked, edited and published, and byes and withdrawals.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import {
  ApiError, Follow, api, applyEvent, clockNow, clockText, el, param, playerName, setToken,
  token,
} from "/static/relay.js";

const BOARDS_EVERY_MS = 2000;
const CLOCKS_EVERY_MS = 5000;
const ALERTS_KEPT = 200;
const RESULTS = [["1-0", "1-0"], ["1/2-1/2", "½-½"], ["0-1", "0-1"], ["*", "* (reopen)"]];
const SHOWN_RESULT = { "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "*": "*" };
// What a clock acknowledged; anything else needs the arbiter at the board.
const DONE = new Set(["started", "paused", "resumed", "changed"]);
const CAUSE_WORDS = {
  arbiter: "arbiter's decision", "illegal-move": "illegal move", "wrong-claim": "wrong claim",
  increment: "increment",
};
const ALERT_KINDS = new Set([
  "alert", "illegal-move", "claims", "flag", "result-proposed", "draw", "end",
]);

const $ = (id) => document.getElementById(id);

const state = {
  round: null,
  rounds: [],
  tournaments: new Map(),
  games: new Map(),      // game id -> board summary, kept current by the stream
  health: new Map(),     // game id -> the last board health row
  rows: new Map(),       // game id -> { board, result } table rows and their cells
  follow: null,
  timers: [],
  seeded: false,
  lastClockAction: null,
  refreshPending: null,
  highlighted: [],
  tournamentId: null,    // the tournament the Pairings card pairs
  players: new Map(),    // start number -> player, for that tournament
  pairing: null,         // the round shown in the Pairings card, as the hub last answered
};

// --- Small helpers -----------------------------------------------------------------------

// The API's own words for a refusal (a validation error's list becomes one line).
function explain(error) {
  if (error instanceof ApiError) {
    try {
      const detail = JSON.parse(error.message);
      if (Array.isArray(detail)) {
        return detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
      }
    } catch { /* plain words already */ }
    return error.message;
  }
  if (error instanceof TypeError) return "the hub cannot be reached";
  return error && error.message ? error.message : String(error);
}

// Every call the console makes: a token refused mid-session sends the arbiter back to sign in.
async function call(path, options) {
  try {
    return await api(path, options);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      signOut(`Signed out: ${explain(error)}.`);
    }
    throw error;
  }
}

function notice(text, kind = "") {
  const node = $("notice");
  node.textContent = text;
  node.className = `notice ${kind}`;
}

function changeStatus(text, kind = "", where = "change-status") {
  const node = $(where);
  node.textContent = text;
  node.className = `change-status ${kind}`;
}

// Disable the button while its action runs, so a double click does not act twice.
async function busy(button, work) {
  button.disabled = true;
  try {
    return await work();
  } finally {
    button.disabled = false;
  }
}

// "120", "2:00" or "1:02:00" as seconds; null when it is none of those.
export function parseSeconds(text) {
  const value = text.trim();
  if (!/^\d+(\.\d+)?$|^\d+(:[0-5]?\d){1,2}(\.\d+)?$/.test(value)) return null;
  return value.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}

function duration(seconds) {
  if (seconds < 60) return `${seconds} s`;
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor(whole / 60) % 60;
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function ago(seconds) {
  if (seconds === null || seconds === undefined) return "never";
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)} h ago`;
}

function timeOfDay(unixSeconds) {
  const when = unixSeconds ? new Date(unixSeconds * 1000) : new Date();
  return when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function gameLabel(game) {
  return `Board ${game.board} · ${playerName(game.white)} – ${playerName(game.black)}`;
}

function side(game, colour) {
  return `${colour === "white" ? "White" : "Black"} (${playerName(game[colour])})`;
}

function tag(text, kind) {
  return el("span", `tag ${kind}`, text);
}

// --- Signing in and out ------------------------------------------------------------------

// The console's routes need an arbiter: one cheap arbiter read tells whether the token may.
async function checkToken() {
  try {
    await api("/api/audit?limit=1");
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      return `Token refused: ${explain(error)}. Check that it was copied whole, or ask for a new one.`;
    }
    if (error instanceof ApiError && error.status === 403) {
      return `This token cannot use the arbiter console: ${explain(error)}.`;
    }
    return `Could not check the token: ${explain(error)}.`;
  }
}

// A token given in the address (?token=) is kept for the tab by token(); it should not stay
// in the address bar, the history or a screenshot.
function dropTokenFromAddress() {
  const query = new URLSearchParams(location.search);
  if (!query.has("token")) return;
  query.delete("token");
  const rest = query.toString();
  history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}`);
}

function showLogin(message = "") {
  $("console").hidden = true;
  $("login").hidden = false;
  $("sign-out").hidden = true;
  $("status").hidden = true;
  $("round-choice").hidden = true;
  $("who").textContent = "";
  $("login-error").textContent = message;
  $("token-input").value = "";
  $("token-input").focus();
}

async function signIn(event) {
  event.preventDefault();
  const given = $("token-input").value.trim();
  if (!given) return;
  const button = event.submitter || $("login-form").querySelector("button");
  await busy(button, async () => {
    $("login-error").textContent = "";
    setToken(given);
    await enter();
  });
}

// Open the console with the tab's token, or back to the login with the reason it failed.
async function enter() {
  const refused = await checkToken();
  if (refused) {
    setToken(null);
    showLogin(refused);
    return;
  }
  await openConsole();
}

function signOut(message = "") {
  stopConsole();
  setToken(null);
  dropTokenFromAddress();
  showLogin(message);
}

function stopConsole() {
  stopRound();
  $("alerts").replaceChildren();
  updateAlertCount();
  state.pairing = null;
  state.tournamentId = null;
  state.players.clear();
}

// Let go of the round on screen: its timers, its stream, its rows.
function stopRound() {
  for (const timer of state.timers) clearInterval(timer);
  state.timers = [];
  if (state.follow) state.follow.close();
  state.follow = null;
  state.games.clear();
  state.health.clear();
  state.rows.clear();
  state.seeded = false;
  state.lastClockAction = null;
  $("boards").tBodies[0].replaceChildren();
  $("results").tBodies[0].replaceChildren();
  $("outcomes").hidden = true;
}

// --- The console -------------------------------------------------------------------------

async function openConsole() {
  $("login").hidden = true;
  $("console").hidden = false;
  $("sign-out").hidden = false;
  $("status").hidden = false;
  $("who").textContent = "Signed in · arbiter";
  notice("");
  try {
    await loadRounds();
  } catch (error) {
    notice(`Could not read the rounds: ${explain(error)}`, "error");
    return;
  }
  await openPairings();
  showRoundParts();
  if (!state.round) {
    notice("No round yet: pair the first one in the Pairings card.");
    return;
  }
  await startRound();
}

// Without a round there is nothing to run: only the Pairings card is shown.
function showRoundParts() {
  $("round-top").hidden = !state.round;
  $("round-columns").hidden = !state.round;
}

// Follow the chosen round: its games, boards, clocks and stream.
async function startRound() {
  try {
    await loadGames();
  } catch (error) {
    notice(`Could not read the games: ${explain(error)}`, "error");
  }
  await Promise.all([refreshBoards(), refreshClocks()]);
  const roundId = state.round.id;
  state.follow = new Follow(`/api/rounds/${roundId}/stream`, onMessage, onStatus);
  state.timers.push(setInterval(refreshBoards, BOARDS_EVERY_MS));
  state.timers.push(setInterval(refreshClocks, CLOCKS_EVERY_MS));
  state.timers.push(setInterval(tick, 1000));
}

async function loadRounds() {
  const [rounds, tournaments] = await Promise.all([call("/api/rounds"), call("/api/tournaments")]);
  state.rounds = rounds;
  state.tournaments = new Map(tournaments.map((t) => [t.id, t]));
  const asked = Number(param("round"));
  let round = rounds.find((r) => r.id === asked) || null;
  if (param("round") && !round) notice(`There is no round ${param("round")}; showing the newest.`, "error");
  if (!round) round = rounds[rounds.length - 1] || null;
  state.round = round;
  fillRoundChoice();
}

// The round chooser, from the rounds read last; the round on screen stays chosen.
function fillRoundChoice() {
  const { rounds, round } = state;
  const select = $("round-select");
  select.replaceChildren(...rounds.map((r) => {
    const option = el("option", null, roundName(r));
    option.value = String(r.id);
    option.selected = round && r.id === round.id;
    return option;
  }));
  // With a choice of rounds the choice names the round; the title would say it twice.
  $("round-choice").hidden = rounds.length < 2;
  $("round-title").hidden = rounds.length >= 2;
  showRound();
}

// Read the rounds again (one was paired, or made for a bye): the chooser lists it, and a
// console that had no round to run starts on it.
async function rereadRounds() {
  const had = state.round;
  const [rounds, tournaments] = await Promise.all([call("/api/rounds"), call("/api/tournaments")]);
  state.rounds = rounds;
  state.tournaments = new Map(tournaments.map((t) => [t.id, t]));
  state.round = had ? rounds.find((r) => r.id === had.id) || had : rounds[rounds.length - 1] || null;
  fillRoundChoice();
  if (!had && state.round) {
    notice("");
    showRoundParts();
    await startRound();
  }
}

function roundName(round) {
  const tournament = state.tournaments.get(round.tournament_id);
  return `${tournament ? tournament.name : `Tournament ${round.tournament_id}`} · Round ${round.number}`;
}

function showRound() {
  const round = state.round;
  if (!round) return;
  $("round-title").textContent = roundName(round);
  document.title = `Arbiter · Round ${round.number} · chess-relay`;
  $("round-heading").textContent = `Round ${round.number}`;
  $("published-state").textContent = round.published ? "published" : "not published";
  $("published-state").className = round.published ? "ok-text" : "warn-text";
  $("delay-state").textContent = round.delay_seconds
    ? `(spectators see it ${duration(round.delay_seconds)} late)` : "(no delay)";
  $("publish").textContent = round.published ? "Unpublish" : "Publish";
  $("publish").dataset.published = String(round.published);
}

async function loadGames() {
  const summaries = await call(`/api/rounds/${state.round.id}/games`);
  takeSummaries(summaries);
}

// Fresh summaries (a snapshot, or after clock events): keep whichever is newer per game.
function takeSummaries(summaries) {
  for (const summary of summaries) {
    const held = state.games.get(summary.id);
    if (!held || summary.v >= held.v) state.games.set(summary.id, summary);
  }
  for (const game of [...state.games.values()].sort((a, b) => a.board - b.board)) {
    if (!state.rows.has(game.id)) addRows(game);
    showGame(game);
  }
  fillGameChoices();
}

function fillGameChoices() {
  for (const id of ["change-game", "penalty-game"]) {
    const select = $(id);
    const chosen = select.value;
    const games = [...state.games.values()].sort((a, b) => a.board - b.board);
    select.replaceChildren(...games.map((game) => {
      const option = el("option", null, gameLabel(game));
      option.value = String(game.id);
      return option;
    }));
    if (chosen) select.value = chosen;
  }
  namePlayers();
}

// The player choices carry the names of the chosen game's players.
function namePlayers() {
  const game = state.games.get(Number($("change-game").value));
  if (game) {
    for (const option of $("change-player").options) option.textContent = side(game, option.value);
  }
  const other = state.games.get(Number($("penalty-game").value));
  if (other) {
    for (const option of $("penalty-claimant").options) option.textContent = side(other, option.value);
  }
}

// --- Board and result rows ---------------------------------------------------------------

function addRows(game) {
  const board = el("tr");
  board.id = `board-${game.id}`;
  board.tabIndex = -1;
  board.dataset.gameId = String(game.id);
  board.dataset.board = String(game.board);
  const cells = {};
  for (const name of ["board", "players", "eboard", "link", "health", "battery", "seen", "clocks", "tools"]) {
    cells[name] = name === "board" ? el("th", "bd") : el("td", name);
    board.append(cells[name]);
  }
  cells.board.scope = "row";
  cells.board.textContent = String(game.board);
  const assign = el("button", "small", "Assign…");
  assign.type = "button";
  assign.addEventListener("click", () => openAssign(game.id));
  const attach = el("button", "small", "Attach");
  attach.type = "button";
  attach.addEventListener("click", () => toggleAttach(game.id, attach));
  cells.tools.append(assign, attach);
  cells.attach = attach;
  $("boards").tBodies[0].append(board);

  const result = el("tr");
  result.id = `result-${game.id}`;
  result.tabIndex = -1;
  result.dataset.gameId = String(game.id);
  result.dataset.board = String(game.board);
  const rcells = {};
  for (const name of ["board", "white", "black", "result", "status", "entry", "verify"]) {
    rcells[name] = name === "board" ? el("th", "bd") : el("td", name);
    result.append(rcells[name]);
  }
  rcells.board.scope = "row";
  rcells.board.textContent = String(game.board);
  const form = el("form", "entry-form");
  const choice = el("select", "result-choice");
  choice.setAttribute("aria-label", `Result of board ${game.board}`);
  for (const [value, label] of RESULTS) {
    const option = el("option", null, label);
    option.value = value;
    choice.append(option);
  }
  const reason = el("input", "result-reason");
  reason.placeholder = "reason";
  reason.setAttribute("aria-label", `Reason for the result of board ${game.board}`);
  const enter = el("button", "small enter", "Enter");
  enter.type = "submit";
  form.append(choice, reason, enter);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    enterResult(game.id, choice.value, reason, enter);
  });
  rcells.entry.append(form);
  const verify = el("button", "small verify", "Verify");
  verify.type = "button";
  verify.addEventListener("click", () => verifyResult(game.id, verify));
  rcells.verify.append(verify);
  rcells.verifyButton = verify;
  rcells.choice = choice;
  $("results").tBodies[0].append(result);
  state.rows.set(game.id, { board, cells, result, rcells });
}

function showGame(game) {
  const rows = state.rows.get(game.id);
  if (!rows) return;
  const { cells, rcells } = rows;
  cells.players.replaceChildren(
    el("span", "white-name", playerName(game.white)), " – ", el("span", "black-name", playerName(game.black)),
  );
  rcells.white.textContent = playerName(game.white);
  rcells.black.textContent = playerName(game.black);
  rcells.result.textContent = SHOWN_RESULT[game.result] || game.result;
  rows.result.dataset.result = game.result;
  rows.result.dataset.verified = String(!!game.verified);
  let status;
  if (game.result !== "*") {
    status = game.verified ? tag("verified", "ok") : tag("provisional", "warn");
    if (!game.verified && game.termination) status.title = game.termination;
  } else if (game.proposed_result) {
    status = tag(`proposed ${SHOWN_RESULT[game.proposed_result] || game.proposed_result}`, "warn");
  } else if (game.draw_offer) {
    status = tag(`${game.draw_offer} offers a draw`, "info");
  } else {
    status = tag(game.ply ? `in play, move ${Math.floor((game.ply + 1) / 2)}` : "not started", "muted");
  }
  rcells.status.replaceChildren(status);
  const verify = rcells.verifyButton;
  verify.disabled = game.result === "*" || !!game.verified;
  verify.textContent = game.result === "*" ? "Verify" : `Verify ${SHOWN_RESULT[game.result]}`;
  if (game.proposed_result && game.result === "*") rcells.choice.value = game.proposed_result;
  showClocks(game);
}

function showClocks(game) {
  const rows = state.rows.get(game.id);
  if (!rows) return;
  const cell = rows.cells.clocks;
  // A game with a result has stopped, whatever its clock summary still says.
  const over = game.result !== "*" && game.clock;
  const now = clockNow(over ? { ...game.clock, running: null } : game.clock);
  const white = el("span", `clock${now.running === "white" ? " running" : ""}`, clockText(now.white));
  const black = el("span", `clock${now.running === "black" ? " running" : ""}`, clockText(now.black));
  if (game.clock && game.clock.flag) (game.clock.flag.player === "white" ? white : black).classList.add("flag");
  const parts = [white, " · ", black];
  if (game.clock && game.clock.paused) parts.push(" ", tag("paused", "warn"));
  const health = state.health.get(game.id);
  if (health && health.clock) {
    const reading = el("div", "eclock muted small",
      `e-clock ${clockText(health.clock.left)} · ${clockText(health.clock.right)}`);
    reading.title = "What the board's clock shows: left · right";
    parts.push(reading);
  }
  const sides = health ? clockSide(health) : null;
  if (sides) parts.push(sides);
  cell.replaceChildren(...parts);
}

function tick() {
  for (const game of state.games.values()) showClocks(game);
}

// --- Board health ------------------------------------------------------------------------

async function refreshBoards() {
  if (!state.round) return;
  let rows;
  try {
    rows = await call(`/api/rounds/${state.round.id}/boards`);
  } catch (error) {
    $("boards-updated").textContent = `not updated: ${explain(error)}`;
    return;
  }
  const known = $("known-eboards");
  known.replaceChildren();
  for (const row of rows) {
    const before = state.health.get(row.game_id);
    state.health.set(row.game_id, row);
    watchHealth(row, before);
    showHealth(row);
    if (row.eboard_id !== undefined && row.eboard_id !== null) {
      const option = el("option");
      option.value = String(row.eboard_id);
      option.label = `e-board ${row.eboard}`;
      known.append(option);
    }
  }
  $("boards-updated").textContent = `as of ${timeOfDay()}`;
}

// What is wrong with a board, in words, and how bad it is.
function troubles(row) {
  const found = [];
  if (row.eboard === null || row.eboard === undefined) return found;
  if (!row.attached) found.push(["not followed", "bad"]);
  else if (!row.connected) found.push(["disconnected", "bad"]);
  if (row.health === "not-responding") found.push(["not responding", "bad"]);
  if (row.health === "delayed") found.push(["answers late", "warn"]);
  if (row.rotated) found.push(["set up turned", "warn"]);
  if (row.attached && row.clock_connected === false) found.push(["no clock", "warn"]);
  if (row.battery_percent !== null && row.battery_percent !== undefined && row.battery_percent < 15) {
    found.push(["battery low", "warn"]);
  }
  if (row.clock && row.clock.battery_low) found.push(["clock battery low", "warn"]);
  const sides = row.orientation;
  if (sides && sides.setting !== "auto" && sides.against >= 2) {
    found.push([`clock presses say White is not on the ${sides.white_on}`, "warn"]);
  }
  return found;
}

// Which side of the clock White's is: the board's setting, and on auto what the presses
// decided; the reason goes in the tooltip.
function clockSide(row) {
  const sides = row.orientation;
  const setting = sides ? sides.setting : row.clock_setting;
  if (setting === null || setting === undefined) return null;
  let text;
  if (setting === "white-left") text = "clock: White left";
  else if (setting === "white-right") text = "clock: White right";
  else if (!sides) text = "clock: auto";
  else if (sides.decided) text = `clock: auto (decided: White ${sides.white_on})`;
  else text = "clock: auto (not decided yet: White taken as left)";
  const node = el("div", "clock-side muted small", text);
  if (sides && sides.reason) node.title = sides.reason;
  return node;
}

// A board that goes wrong is an alert too (the stream only carries what the games record).
function watchHealth(row, before) {
  const had = new Set((before ? troubles(before) : []).map(([text]) => text));
  for (const [text, level] of troubles(row)) {
    if (!had.has(text)) addAlert(row.game_id, level === "bad" ? "bad" : "warn", `board ${text}`, null);
  }
}

function showHealth(row) {
  const rows = state.rows.get(row.game_id);
  if (!rows) return;
  const { board, cells } = rows;
  cells.eboard.textContent = row.eboard === null || row.eboard === undefined ? "–" : String(row.eboard);
  if (row.url) cells.eboard.title = row.url;
  let link;
  if (row.eboard === null || row.eboard === undefined) link = tag("no board", "muted");
  else if (!row.attached) link = tag("not followed", "bad");
  else link = row.connected ? tag("connected", "ok") : tag("disconnected", "bad");
  cells.link.replaceChildren(link);
  const health = [];
  if (row.health) {
    const level = { active: "ok", delayed: "warn" }[row.health] || "bad";
    health.push(tag(row.health.replace("-", " "), level));
  } else if (row.attached) {
    health.push(tag("no report yet", "muted"));
  }
  if (row.rotated) health.push(tag("rotated", "warn"));
  if (row.attached && row.clock_connected === false) health.push(tag("no clock", "warn"));
  if (row.unsaved) health.push(tag(`${row.unsaved} unsaved`, "warn"));
  cells.health.replaceChildren(...health);
  const battery = row.battery_percent;
  cells.battery.replaceChildren(battery === null || battery === undefined
    ? el("span", "muted", "–")
    : el("span", battery < 15 ? "bad-text" : "", `${battery}%`));
  if (row.clock && row.clock.battery_low) cells.battery.append(" ", tag("clock low", "warn"));
  const seen = row.last_seen_seconds;
  cells.seen.textContent = row.attached ? ago(seen) : "–";
  cells.seen.classList.toggle("bad-text", seen !== null && seen !== undefined && seen > 10);
  cells.attach.textContent = row.attached ? "Detach" : "Attach";
  cells.attach.hidden = !row.attached && (row.eboard === null || row.eboard === undefined);
  const level = troubles(row).some(([, l]) => l === "bad") ? "bad" : troubles(row).length ? "warn" : "";
  board.dataset.trouble = level;
  const game = state.games.get(row.game_id);
  if (game) showClocks(game);
}

// --- Assigning electronic boards ---------------------------------------------------------

function openAssign(gameId) {
  const game = state.games.get(gameId);
  const row = state.health.get(gameId) || {};
  const dialog = $("assign");
  $("assign-title").textContent = `Electronic board for board ${game.board}`;
  const now = row.eboard === null || row.eboard === undefined
    ? "No electronic board is assigned."
    : `E-board ${row.eboard} is assigned${row.attached ? " and followed" : ", not followed"}.`;
  $("assign-current").textContent = now;
  $("assign-eboard").value = row.eboard_id ?? "";
  dialog.returnValue = "";
  dialog.onclose = async () => {
    if (dialog.returnValue !== "assign") return;
    const text = $("assign-eboard").value.trim();
    const eboardId = text ? Number(text) : null;
    try {
      if (row.attached) await call(`/api/games/${gameId}/detach`, { method: "POST" });
      await call(`/api/games/${gameId}/board`, { method: "PUT", body: { eboard_id: eboardId } });
      if (eboardId !== null && $("assign-attach").checked) {
        await call(`/api/games/${gameId}/attach`, { method: "POST" });
      }
      notice(eboardId === null
        ? `Board ${game.board}: electronic board taken off.`
        : `Board ${game.board}: electronic board ${eboardId} assigned.`, "ok");
    } catch (error) {
      notice(`Board ${game.board}: ${explain(error)}`, "error");
    }
    refreshBoards();
  };
  dialog.showModal();
}

async function toggleAttach(gameId, button) {
  const row = state.health.get(gameId) || {};
  const game = state.games.get(gameId);
  const action = row.attached ? "detach" : "attach";
  await busy(button, async () => {
    try {
      await call(`/api/games/${gameId}/${action}`, { method: "POST" });
      notice(`Board ${game.board}: ${action === "attach" ? "following its board" : "board let go"}.`, "ok");
    } catch (error) {
      notice(`Board ${game.board}: ${explain(error)}`, "error");
    }
  });
  refreshBoards();
}

// --- The stream and the alerts feed ------------------------------------------------------

function onStatus(live) {
  const node = $("status");
  node.textContent = live ? "live" : "offline";
  node.classList.toggle("live", live);
}

function onMessage(message) {
  if (message.type === "snapshot") {
    takeSummaries(message.games);
    if (!state.seeded) seedAlerts(message.games);
    state.seeded = true;
    return;
  }
  if (message.type !== "event") return;
  const game = state.games.get(message.game);
  if (!game || !applyEvent(game, message)) return;
  if (game.stale) {
    delete game.stale;
    refreshGamesSoon();
  }
  showGame(game);
  if (ALERT_KINDS.has(message.kind)) {
    const [level, text] = describe(message.kind, message.data);
    if (text) addAlert(game.id, level, text, message.data.at, message.kind);
  }
}

// Clock events change times the stream does not carry: read the summaries again, once.
function refreshGamesSoon() {
  if (state.refreshPending) return;
  state.refreshPending = setTimeout(async () => {
    state.refreshPending = null;
    try {
      await loadGames();
    } catch (error) {
      notice(`Could not read the games: ${explain(error)}`, "error");
    }
  }, 300);
}

// What was already waiting when the console opened.
function seedAlerts(games) {
  for (const game of games) {
    if (game.proposed_result && game.result === "*") {
      addAlert(game.id, "warn", `result ${SHOWN_RESULT[game.proposed_result]} shown on the board: enter it`, null, "result-proposed");
    }
    if (game.draw_offer) addAlert(game.id, "info", `${game.draw_offer} offers a draw`, null, "draw");
    if (game.clock && game.clock.flag) {
      addAlert(game.id, "bad", `${game.clock.flag.player}'s flag fell`, game.clock.flag.at, "flag");
    }
    if (game.result !== "*" && !game.verified) {
      addAlert(game.id, "warn", `result ${SHOWN_RESULT[game.result]} waits for verification`, null, "end");
    }
  }
}

const ALERT_WORDS = {
  "illegal-position": "illegal position on the board",
  "position-restored": "the board is back on the game's position",
  "pawn-on-last-rank": "a pawn stands on the last rank (7.5.2)",
  "promotion-assumed": "a promotion was taken as a queen: check the piece",
  "dead-position": "possibly a dead position",
  "both-flags": "both flags have fallen",
};

// An event as the arbiter reads it: [level, words]; no words means nothing to show.
function describe(kind, d) {
  switch (kind) {
    case "alert": {
      const words = ALERT_WORDS[d.alert] || d.alert;
      const level = d.alert === "position-restored" ? "info" : "bad";
      return [level, d.detail ? `${words}: ${d.detail}` : words];
    }
    case "illegal-move": {
      const penalty = d.penalty === "loss" ? "the game is lost" : `${duration(d.seconds)} for the opponent`;
      return ["bad", `${d.player} completed illegal move ${d.count}: ${penalty}${d.reason ? ` (${d.reason})` : ""}`];
    }
    case "claims": {
      if (!d.claims || !d.claims.length) return ["info", ""];
      const rule = (c) => (c.rule === "threefold" ? "threefold repetition" : "fifty-move rule");
      return ["warn", d.claims.map((c) => (c.now
        ? `${rule(c)} claimable now`
        : `${rule(c)} claimable with ${c.moves.join(" or ")}`)).join("; ")];
    }
    case "flag":
      return ["bad", `${d.player}'s flag fell`];
    case "result-proposed":
      return ["warn", `result ${SHOWN_RESULT[d.result] || d.result} shown on the board (${d.gesture}): enter it`];
    case "draw": {
      const words = { offer: "offers a draw", accept: "accepts the draw: ½-½ to confirm", decline: "declines the draw", withdraw: "withdraws the draw offer" };
      return [d.action === "accept" ? "warn" : "info", `${d.player} ${words[d.action] || d.action}`];
    }
    case "end":
      return ["warn", `game over, ${SHOWN_RESULT[d.result] || d.result}: ${d.termination}; verify it`];
    default:
      return ["info", ""];
  }
}

function addAlert(gameId, level, text, at, kind = "board") {
  const game = state.games.get(gameId);
  const item = el("li", `alert ${level}`);
  item.dataset.gameId = String(gameId);
  item.dataset.kind = kind;
  item.dataset.at = String(at || Date.now() / 1000);
  const head = el("div", "alert-head");
  head.append(el("time", "when", timeOfDay(at)), el("strong", "which", game ? `Board ${game.board}` : `Game ${gameId}`));
  const jump = el("button", "small jump", "Jump to board");
  jump.type = "button";
  jump.addEventListener("click", () => jumpTo(gameId));
  head.append(jump);
  item.append(head, el("p", "what", text));
  if (kind === "illegal-move") {
    const penalty = el("button", "small", "Penalty…");
    penalty.type = "button";
    penalty.addEventListener("click", () => {
      $("penalty-game").value = String(gameId);
      $("penalty-kind").value = "illegal-move";
      showClaimant();
      namePlayers();
      $("penalty-form").scrollIntoView({ block: "center" });
      $("penalty-game").focus();
    });
    head.append(penalty);
  }
  const list = $("alerts");
  list.prepend(item);
  while (list.children.length > ALERTS_KEPT) list.lastElementChild.remove();
  updateAlertCount();
}

function updateAlertCount() {
  const count = $("alerts").children.length;
  $("alert-count").textContent = String(count);
  $("no-alerts").hidden = count > 0;
}

function jumpTo(gameId) {
  const rows = state.rows.get(gameId);
  if (!rows) return;
  for (const row of state.highlighted) row.classList.remove("highlight");
  state.highlighted = [rows.board, rows.result];
  for (const row of state.highlighted) {
    // Restart the animation when the same board is jumped to twice.
    row.classList.remove("highlight");
    void row.offsetWidth;
    row.classList.add("highlight");
  }
  rows.board.scrollIntoView({ block: "center", behavior: "smooth" });
  rows.board.focus({ preventScroll: true });
}

// --- Clocks ------------------------------------------------------------------------------

async function refreshClocks() {
  if (!state.round) return;
  let clocks;
  try {
    clocks = await call(`/api/rounds/${state.round.id}/clocks`);
  } catch {
    return;
  }
  const scheduled = clocks.scheduled_at;
  $("schedule").hidden = !scheduled;
  if (scheduled) {
    const left = Math.max(0, scheduled - Date.now() / 1000);
    $("schedule-text").textContent = `Clocks start at ${timeOfDay(scheduled)} (in ${duration(Math.round(left))}).`;
  }
  // A scheduled start that has happened, or an action from another console.
  const mark = `${clocks.action}@${clocks.at}`;
  if (clocks.action && clocks.reports.length && mark !== state.lastClockAction) {
    state.lastClockAction = mark;
    showOutcomes(clocks.action, clocks.reports, clocks.at);
  }
}

const ACTION_WORDS = { start: "Start", pause: "Pause", resume: "Resume" };

function showOutcomes(action, reports, at) {
  const table = $("outcomes");
  const done = reports.filter((r) => DONE.has(r.outcome)).length;
  $("outcomes-caption").textContent =
    `${ACTION_WORDS[action] || action}: ${done} of ${reports.length} boards acknowledged · ${timeOfDay(at)}`;
  table.dataset.action = action;
  table.tBodies[0].replaceChildren(...reports.map((report) => {
    const row = el("tr");
    row.dataset.board = String(report.board);
    row.dataset.gameId = String(report.game_id);
    const board = el("th", null, String(report.board));
    board.scope = "row";
    const outcome = el("td", "outcome");
    outcome.append(tag(report.outcome, DONE.has(report.outcome) ? "ok" : "bad"));
    row.append(board, outcome, el("td", "detail", report.detail || ""));
    return row;
  }));
  table.hidden = false;
}

async function clockAction(action, button) {
  const round = state.round;
  let body = {};
  if (action === "start" && $("start-at").value) {
    const at = new Date($("start-at").value);
    if (Number.isNaN(at.getTime())) {
      notice("The start time is not a time.", "error");
      return;
    }
    body = { at: at.toISOString() };
  }
  if (action === "pause") body = { reason: $("pause-reason").value.trim() };
  await busy(button, async () => {
    try {
      const answer = await call(`/api/rounds/${round.id}/clocks/${action}`, { method: "POST", body });
      if (answer.scheduled_at) {
        notice(`Clocks will start at ${timeOfDay(answer.scheduled_at)}.`, "ok");
        $("start-at").value = "";
        await refreshClocks();
        return;
      }
      state.lastClockAction = null;
      showOutcomes(answer.action, answer.reports, null);
      const failed = answer.reports.filter((r) => !DONE.has(r.outcome)).length;
      notice(failed ? `${failed} board(s) need the arbiter: see the clock outcomes.` : "", failed ? "error" : "");
    } catch (error) {
      notice(`${ACTION_WORDS[action]}: ${explain(error)}`, "error");
    }
  });
  refreshGamesSoon();
}

async function cancelSchedule(button) {
  await busy(button, async () => {
    try {
      await call(`/api/rounds/${state.round.id}/clocks/schedule`, { method: "DELETE" });
      notice("The scheduled start is called off.", "ok");
    } catch (error) {
      notice(`Call off: ${explain(error)}`, "error");
    }
  });
  refreshClocks();
}

// --- Time changes and penalties: shown, then confirmed -----------------------------------

// Show what would change; true when the arbiter confirms before the change expires.
function confirmDialog(title, body, expires) {
  const dialog = $("confirm");
  $("confirm-title").textContent = title;
  $("confirm-body").replaceChildren(body);
  const ok = $("confirm-ok");
  ok.disabled = false;
  const expiry = $("confirm-expiry");
  const countdown = () => {
    const left = Math.round(expires - Date.now() / 1000);
    if (left <= 0) {
      expiry.textContent = "Expired: nothing was changed. Cancel and ask again.";
      ok.disabled = true;
    } else {
      expiry.textContent = `Confirm within ${duration(left)}; until then nothing changes.`;
    }
  };
  countdown();
  const timer = setInterval(countdown, 1000);
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      clearInterval(timer);
      resolve(dialog.returnValue === "confirm");
    }, { once: true });
    dialog.showModal();
    $("confirm-cancel").focus();
  });
}

function changeTable(game, changes) {
  const table = el("table", "change-table");
  const head = el("tr");
  for (const text of ["Player", "Change", "Before", "After", "Why"]) {
    const th = el("th", null, text);
    th.scope = "col";
    head.append(th);
  }
  table.append(el("caption", null, gameLabel(game)), el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const change of changes) {
    const row = el("tr", "change");
    row.dataset.player = change.player;
    const words = { add: "add", subtract: "subtract", set: "set to" }[change.change] || change.change;
    const before = el("td", "before", clockText(change.before));
    before.dataset.seconds = String(change.before);
    const after = el("td", "after", clockText(change.after));
    after.dataset.seconds = String(change.after);
    row.append(
      el("td", "player", side(game, change.player)),
      el("td", "amount", `${words} ${duration(change.seconds)}`),
      before, after,
      el("td", "why", `${CAUSE_WORDS[change.cause] || change.cause}: ${change.reason}`),
    );
    table.tBodies[0].append(row);
  }
  return table;
}

async function confirmChanges(game, changes, title, where) {
  const expires = Math.min(...changes.map((c) => c.expires));
  if (!await confirmDialog(title, changeTable(game, changes), expires)) {
    changeStatus("Cancelled: nothing was changed.", "", where);
    return false;
  }
  const lines = [];
  let failed = false;
  for (const change of changes) {
    try {
      const done = await call(`/api/clock-changes/${encodeURIComponent(change.token)}/confirm`, { method: "POST" });
      const outcome = done.clock ? done.clock.outcome : "recorded";
      failed ||= !DONE.has(outcome);
      lines.push(`${side(game, done.player)} now ${clockText(done.after)} (clock: ${outcome})`);
    } catch (error) {
      failed = true;
      lines.push(`${side(game, change.player)}: ${explain(error)}`);
    }
  }
  changeStatus(`Board ${game.board}: ${lines.join("; ")}.`, failed ? "error" : "ok", where);
  refreshGamesSoon();
  return true;
}

async function proposeChange(event) {
  event.preventDefault();
  const button = event.submitter || $("change-form").querySelector("button");
  const game = state.games.get(Number($("change-game").value));
  if (!game) return;
  const seconds = parseSeconds($("change-seconds").value);
  if (seconds === null) {
    changeStatus("Time: give seconds (120) or minutes and seconds (2:00).", "error");
    $("change-seconds").focus();
    return;
  }
  const body = {
    player: $("change-player").value,
    change: $("change-kind").value,
    seconds,
    cause: $("change-cause").value,
    reason: $("change-reason").value.trim(),
  };
  await busy(button, async () => {
    let proposal;
    try {
      proposal = await call(`/api/games/${game.id}/clock/changes`, { method: "POST", body });
    } catch (error) {
      changeStatus(`Board ${game.board}: ${explain(error)}`, "error");
      return;
    }
    if (await confirmChanges(game, [proposal], "Confirm the time change", "change-status")) {
      $("change-reason").value = "";
      $("change-seconds").value = "";
    }
  });
}

async function proposePenalty(event) {
  event.preventDefault();
  const button = event.submitter || $("penalty-form").querySelector("button");
  const game = state.games.get(Number($("penalty-game").value));
  if (!game) return;
  const kind = $("penalty-kind").value;
  const body = kind === "wrong-claim" ? { kind, claimant: $("penalty-claimant").value } : { kind };
  await busy(button, async () => {
    let answer;
    try {
      answer = await call(`/api/games/${game.id}/clock/penalties`, { method: "POST", body });
    } catch (error) {
      changeStatus(`Board ${game.board}: ${explain(error)}`, "error", "penalty-status");
      return;
    }
    await confirmChanges(game, answer.changes, "Confirm the penalty", "penalty-status");
  });
}

function showClaimant() {
  $("claimant-label").hidden = $("penalty-kind").value !== "wrong-claim";
}

// --- Results -----------------------------------------------------------------------------

async function enterResult(gameId, result, reasonInput, button) {
  const game = state.games.get(gameId);
  await busy(button, async () => {
    try {
      const changed = await call(`/api/games/${gameId}/result`, {
        method: "POST", body: { result, reason: reasonInput.value.trim() },
      });
      Object.assign(game, { result: changed.result, verified: changed.verified });
      reasonInput.value = "";
      showGame(game);
      notice(`Board ${game.board}: result ${SHOWN_RESULT[changed.result]} entered${changed.result === "*" ? " (game reopened)" : ", provisional until verified"}.`, "ok");
    } catch (error) {
      notice(`Board ${game.board}: ${explain(error)}`, "error");
    }
  });
}

async function verifyResult(gameId, button) {
  const game = state.games.get(gameId);
  await busy(button, async () => {
    try {
      const changed = await call(`/api/games/${gameId}/verify`, {
        method: "POST", body: { result: game.result },
      });
      Object.assign(game, { result: changed.result, verified: changed.verified });
      notice(`Board ${game.board}: ${SHOWN_RESULT[changed.result]} verified.`, "ok");
    } catch (error) {
      notice(`Board ${game.board}: ${explain(error)}`, "error");
    }
  });
  showGame(game);
}

// --- Publishing --------------------------------------------------------------------------

async function togglePublished(button) {
  const wanted = !state.round.published;
  await busy(button, async () => {
    try {
      state.round = await call(`/api/rounds/${state.round.id}/publish`, {
        method: "POST", body: { published: wanted },
      });
      notice(wanted ? "The round is public." : "The round is hidden from spectators.", "ok");
      if (state.pairing && state.pairing.round_id === state.round.id) {
        state.pairing.published = state.round.published;
        showPairingHeader();
      }
    } catch (error) {
      notice(`Publish: ${explain(error)}`, "error");
    }
  });
  showRound();
}

// --- Pairings ----------------------------------------------------------------------------

const BYE_WORDS = { pab: "pairing-allocated bye", half: "half-point bye", full: "full-point bye", zero: "zero-point bye" };

// The Pairings card pairs the tournament of the round on screen (or the only one) and
// opens on that tournament's newest round.
async function openPairings() {
  const tournamentId = state.round ? state.round.tournament_id : [...state.tournaments.keys()][0];
  if (tournamentId === undefined) {
    pairingsStatus("There is no tournament yet: load an event file first.", "error");
    $("pair-next").disabled = true;
    return;
  }
  state.tournamentId = tournamentId;
  const tournament = state.tournaments.get(tournamentId);
  $("pairings-tournament").textContent = tournament ? `· ${tournament.name}` : "";
  try {
    const players = await call(`/api/tournaments/${tournamentId}/players`);
    state.players = new Map(players.map((p) => [p.start_number, p]));
  } catch (error) {
    pairingsStatus(`Could not read the players: ${explain(error)}`, "error");
  }
  const ours = state.rounds.filter((r) => r.tournament_id === tournamentId);
  const newest = ours[ours.length - 1];
  if (!newest) {
    showPairing(null);
    return;
  }
  try {
    showPairing(await call(`/api/rounds/${newest.id}/pairings`));
  } catch (error) {
    pairingsStatus(`Could not read round ${newest.number}'s pairings: ${explain(error)}`, "error");
  }
}

function pairingsStatus(text, kind = "") {
  changeStatus(text, kind, "pairings-status");
}

// "3 · Player, Name (2250)" for a start number; words when nobody has it.
function entrant(number) {
  const player = state.players.get(number);
  if (!player) return null;
  return `${playerName(player)}${player.rating ? ` (${player.rating})` : ""}`;
}

// A start-number input with the player's name beside it, kept current as it is typed.
function playerField(number, label, cls) {
  const cell = el("td", `entrant ${cls}`);
  const input = el("input", `start-number ${cls}-number`);
  input.type = "number";
  input.min = "1";
  input.step = "1";
  input.required = true;
  input.value = number === null ? "" : String(number);
  input.setAttribute("aria-label", label);
  const name = el("span", `player-name ${cls}-name`);
  const show = () => {
    const value = Number(input.value);
    const who = input.value.trim() && Number.isInteger(value) ? entrant(value) : null;
    name.textContent = who || (input.value.trim() ? "no such player" : "");
    name.classList.toggle("bad-text", !who && !!input.value.trim());
  };
  input.addEventListener("input", () => { show(); markDirty(); });
  show();
  cell.append(input, " ", name);
  return cell;
}

function gameRow(game) {
  const row = el("tr");
  row.dataset.board = String(game.board);
  const board = el("th", "bd", String(game.board));
  board.scope = "row";
  const white = playerField(game.white, `Board ${game.board}, White's start number`, "white");
  const black = playerField(game.black, `Board ${game.board}, Black's start number`, "black");
  const tools = el("td", "tools");
  const flip = el("button", "small flip", "Swap colours");
  flip.type = "button";
  flip.setAttribute("aria-label", `Swap colours on board ${game.board}`);
  flip.addEventListener("click", () => {
    const [w, b] = [white.querySelector("input"), black.querySelector("input")];
    [w.value, b.value] = [b.value, w.value];
    for (const input of [w, b]) input.dispatchEvent(new Event("input"));
  });
  tools.append(flip);
  row.append(board, white, black, tools);
  return row;
}

function byeRow(bye) {
  const row = el("tr", "bye");
  const player = playerField(bye.player, "Start number of the player with a bye", "bye");
  const kind = el("td", "kind");
  const choice = el("select", "bye-kind");
  choice.setAttribute("aria-label", "Kind of bye");
  for (const [value, words] of Object.entries(BYE_WORDS)) {
    const option = el("option", null, words);
    option.value = value;
    choice.append(option);
  }
  choice.value = bye.kind;
  choice.addEventListener("change", markDirty);
  kind.append(choice);
  const tools = el("td", "tools");
  const remove = el("button", "small", "Remove");
  remove.type = "button";
  remove.setAttribute("aria-label", "Remove this bye");
  remove.addEventListener("click", () => { row.remove(); markDirty(); });
  tools.append(remove);
  row.append(player, kind, tools);
  return row;
}

function markDirty() {
  $("pairings-dirty").hidden = false;
  showByesEmpty();
}

function showByesEmpty() {
  const none = $("pairing-byes").tBodies[0].rows.length === 0;
  $("pairing-byes").tHead.hidden = none;
  $("no-byes").hidden = !none;
}

function showPairingHeader() {
  const pairing = state.pairing;
  $("pairing-round").hidden = !pairing;
  $("publish-pairings").hidden = !pairing;
  if (!pairing) return;
  $("pairing-round-name").textContent = `Round ${pairing.number}`;
  $("pairing-published").replaceChildren(pairing.published
    ? tag("published", "ok") : tag("not published: spectators do not see it", "warn"));
  $("pairing-round").dataset.published = String(pairing.published);
  $("publish-pairings").disabled = pairing.published;
  $("publish-pairings").textContent = pairing.published ? "Published" : "Publish round";
}

// Put a default in a field, unless the arbiter has typed something else into it: a
// pairing that arrives while they type must not overwrite them.
function suggest(input, value) {
  if (input.value === "" || input.value === input.dataset.suggested) input.value = value;
  input.dataset.suggested = value;
}

// The round as the hub answered: its games and byes in editable rows, its warnings.
function showPairing(pairing) {
  state.pairing = pairing;
  showPairingHeader();
  $("no-pairing").hidden = !!pairing;
  $("pairings-form").hidden = !pairing;
  suggest($("bye-round"), String(pairing ? pairing.number + 1 : 1));
  if (!pairing) return;
  $("pairings-form").dataset.roundId = String(pairing.round_id);
  $("pairings-caption").textContent = `Round ${pairing.number}: games`;
  $("pairings").tBodies[0].replaceChildren(...pairing.games.map(gameRow));
  $("pairing-byes").tBodies[0].replaceChildren(...pairing.byes.map(byeRow));
  showByesEmpty();
  const warnings = $("pairing-warnings");
  warnings.replaceChildren(...pairing.warnings.map((text) => {
    const item = el("li", "pairing-warning");
    item.append(el("span", "sign", "⚠ "), el("span", "words", text));
    return item;
  }));
  $("warning-count").textContent = String(pairing.warnings.length);
  $("warning-count").classList.toggle("warn", pairing.warnings.length > 0);
  $("no-warnings").hidden = pairing.warnings.length > 0;
  $("pairings-dirty").hidden = true;
}

// The edited rows as the hub takes them; words for the first thing that is not a number.
function editedPairing() {
  const number = (input, what) => {
    const value = Number(input.value);
    if (!input.value.trim() || !Number.isInteger(value) || value < 1) {
      input.focus();
      throw new Error(`${what}: give a start number`);
    }
    return value;
  };
  const games = [...$("pairings").tBodies[0].rows].map((row) => {
    const board = row.dataset.board;
    return [
      number(row.querySelector("input.white-number"), `Board ${board}, White`),
      number(row.querySelector("input.black-number"), `Board ${board}, Black`),
    ];
  });
  const byes = [...$("pairing-byes").tBodies[0].rows].map((row) => ({
    player: number(row.querySelector("input.bye-number"), "Bye"),
    kind: row.querySelector("select.bye-kind").value,
  }));
  return { games, byes };
}

async function pairNext(button) {
  await busy(button, async () => {
    let pairing;
    try {
      pairing = await call(`/api/tournaments/${state.tournamentId}/rounds/next`, { method: "POST" });
    } catch (error) {
      pairingsStatus(`Pair next round: ${explain(error)}`, "error");
      return;
    }
    showPairing(pairing);
    const warned = pairing.warnings.length ? `, with ${pairing.warnings.length} warning(s)` : "";
    pairingsStatus(`Round ${pairing.number} is paired${warned}: check it, edit it if need be, then publish it.`, "ok");
    await afterPairingChange(pairing);
  });
}

// The round's games were made again: the chooser lists the round, and the console reads
// the games again when it is the round on screen (their ids changed).
async function afterPairingChange(pairing) {
  try {
    const had = state.round;
    await rereadRounds();
    if (had && had.id === pairing.round_id) {
      stopRound();
      await startRound();
    } else if (had) {
      notice(`Round ${pairing.number} is in the round list: choose it to run it.`, "ok");
    }
  } catch (error) {
    notice(`Could not read the rounds: ${explain(error)}`, "error");
  }
}

async function savePairings(event) {
  event.preventDefault();
  const pairing = state.pairing;
  if (!pairing) return;
  let body;
  try {
    body = editedPairing();
  } catch (error) {
    pairingsStatus(error.message, "error");
    return;
  }
  body.reason = $("pairings-reason").value.trim();
  await busy($("save-pairings"), async () => {
    let saved;
    try {
      saved = await call(`/api/rounds/${pairing.round_id}/pairings`, { method: "PUT", body });
    } catch (error) {
      pairingsStatus(`Save pairings: ${explain(error)}`, "error");
      return;
    }
    showPairing(saved);
    $("pairings-reason").value = "";
    const warned = saved.warnings.length ? `; ${saved.warnings.length} warning(s) to weigh` : "";
    pairingsStatus(`Round ${saved.number}: pairings saved${warned}.`, saved.warnings.length ? "warn" : "ok");
    await afterPairingChange(saved);
  });
}

async function publishPairing(button) {
  const pairing = state.pairing;
  if (!pairing) return;
  if (!$("pairings-dirty").hidden) {
    pairingsStatus("Save or undo the changes before publishing the round.", "error");
    return;
  }
  await busy(button, async () => {
    try {
      const round = await call(`/api/rounds/${pairing.round_id}/publish`, {
        method: "POST", body: { published: true },
      });
      pairing.published = round.published;
      if (state.round && state.round.id === round.id) state.round = round;
      state.rounds = state.rounds.map((r) => (r.id === round.id ? round : r));
      showRound();
      pairingsStatus(`Round ${pairing.number} is published: spectators see its pairings.`, "ok");
    } catch (error) {
      pairingsStatus(`Publish round: ${explain(error)}`, "error");
    }
  });
  showPairingHeader();
}

function wholeNumber(input) {
  const value = Number(input.value);
  return input.value.trim() && Number.isInteger(value) ? value : null;
}

async function recordBye(event) {
  event.preventDefault();
  const button = event.submitter || $("bye-form").querySelector("button");
  const number = wholeNumber($("bye-round"));
  const player = wholeNumber($("bye-player"));
  if (number === null || player === null) {
    changeStatus("Bye: give the round and the player's start number.", "error", "entries-status");
    return;
  }
  const kind = $("bye-kind").value || null;
  await busy(button, async () => {
    try {
      await call(`/api/tournaments/${state.tournamentId}/rounds/${number}/byes/${player}`, {
        method: "PUT", body: { kind },
      });
    } catch (error) {
      changeStatus(`Bye for ${player}: ${explain(error)}`, "error", "entries-status");
      return;
    }
    const who = entrant(player) || `player ${player}`;
    changeStatus(kind
      ? `Round ${number}: ${BYE_WORDS[kind]} for ${who}.`
      : `Round ${number}: ${who} has no bye asked for.`, "ok", "entries-status");
    $("bye-player").value = "";
    try {
      await rereadRounds();
      if (state.pairing && state.pairing.number === number) {
        showPairing(await call(`/api/rounds/${state.pairing.round_id}/pairings`));
      }
    } catch (error) {
      notice(`Could not read the rounds: ${explain(error)}`, "error");
    }
  });
}

async function recordWithdrawal(event) {
  event.preventDefault();
  const button = event.submitter || $("withdraw-form").querySelector("button");
  const player = wholeNumber($("withdraw-player"));
  const after = $("withdraw-after").value.trim() ? wholeNumber($("withdraw-after")) : null;
  if (player === null || ($("withdraw-after").value.trim() && after === null)) {
    changeStatus("Withdrawal: give the player's start number and the last round played.", "error", "entries-status");
    return;
  }
  await busy(button, async () => {
    try {
      await call(`/api/tournaments/${state.tournamentId}/players/${player}/withdrawal`, {
        method: "PUT", body: { after_round: after },
      });
    } catch (error) {
      changeStatus(`Withdrawal of ${player}: ${explain(error)}`, "error", "entries-status");
      return;
    }
    const who = entrant(player) || `player ${player}`;
    changeStatus(after === null
      ? `${who} is back in the tournament.`
      : `${who} withdraws after round ${after}: not paired from round ${after + 1}.`, "ok", "entries-status");
    $("withdraw-player").value = "";
    $("withdraw-after").value = "";
  });
}

// --- Start -------------------------------------------------------------------------------

function wire() {
  $("login-form").addEventListener("submit", signIn);
  $("sign-out").addEventListener("click", () => signOut("Signed out."));
  $("round-select").addEventListener("change", (event) => {
    const query = new URLSearchParams(location.search);
    query.set("round", event.target.value);
    location.search = query.toString();
  });
  $("publish").addEventListener("click", (event) => togglePublished(event.currentTarget));
  $("start-all").addEventListener("click", (event) => clockAction("start", event.currentTarget));
  $("pause-all").addEventListener("click", (event) => clockAction("pause", event.currentTarget));
  $("resume-all").addEventListener("click", (event) => clockAction("resume", event.currentTarget));
  $("cancel-schedule").addEventListener("click", (event) => cancelSchedule(event.currentTarget));
  $("change-form").addEventListener("submit", proposeChange);
  $("penalty-form").addEventListener("submit", proposePenalty);
  $("change-game").addEventListener("change", namePlayers);
  $("penalty-game").addEventListener("change", namePlayers);
  $("penalty-kind").addEventListener("change", showClaimant);
  $("pair-next").addEventListener("click", (event) => pairNext(event.currentTarget));
  $("publish-pairings").addEventListener("click", (event) => publishPairing(event.currentTarget));
  $("pairings-form").addEventListener("submit", savePairings);
  $("undo-pairings").addEventListener("click", () => {
    showPairing(state.pairing);
    pairingsStatus("Changes undone: the pairings are as saved.");
  });
  $("add-bye").addEventListener("click", () => {
    const row = byeRow({ player: null, kind: "half" });
    $("pairing-byes").tBodies[0].append(row);
    markDirty();
    row.querySelector("input").focus();
  });
  $("bye-form").addEventListener("submit", recordBye);
  $("withdraw-form").addEventListener("submit", recordWithdrawal);
}

async function main() {
  wire();
  const held = token();
  dropTokenFromAddress();
  if (!held) {
    showLogin();
    return;
  }
  await enter();
}

main();
