// The arbiter console's Boards card: a row per game with its players, its electronic board
// and that board's health, both clocks; assigning, following and letting go of e-boards.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { clockNow, clockText } from "/static/relay.js";
import { $, actionButton, el } from "/static/dom.js";
import { playerName } from "/static/players.js";
import { ago, timeOfDay } from "/static/time-text.js";
import { addAlert, clearBoardAlerts } from "/static/arbiter-alerts.js";
import { busy, call, explain } from "/static/arbiter-calls.js";
import { state } from "/static/arbiter-state.js";
import { notice, tag } from "/static/arbiter-text.js";

const CELLS = ["board", "players", "eboard", "link", "health", "battery", "seen", "clocks", "tools"];

// The game's row, added to the card: { board: the row, cells: its cells by name }.
export function boardRow(game) {
  const board = el("tr");
  board.id = `board-${game.id}`;
  board.tabIndex = -1;
  board.dataset.gameId = String(game.id);
  board.dataset.board = String(game.board);
  const cells = {};
  for (const name of CELLS) {
    cells[name] = name === "board" ? el("th", "bd") : el("td", name);
    board.append(cells[name]);
  }
  cells.board.scope = "row";
  cells.board.textContent = String(game.board);
  const assign = actionButton("small", "Assign…");
  assign.addEventListener("click", () => openAssign(game.id));
  const attach = actionButton("small", "Attach");
  attach.addEventListener("click", () => toggleAttach(game.id, attach));
  cells.tools.append(assign, attach);
  cells.attach = attach;
  $("boards").tBodies[0].append(board);
  return { board, cells };
}

export function showBoardGame(game) {
  const { cells } = state.rows.get(game.id);
  cells.players.replaceChildren(
    el("span", "white-name", playerName(game.white)), " – ", el("span", "black-name", playerName(game.black)),
  );
}

export function showClocks(game) {
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

// --- Board health ------------------------------------------------------------------------

export async function refreshBoards() {
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

// A board that goes wrong is an alert too (the stream only carries what the games record),
// and the alert goes once the trouble has.
function watchHealth(row, before) {
  const had = new Set((before ? troubles(before) : []).map(([text]) => text));
  const now = troubles(row);
  for (const [text, level] of now) {
    if (had.has(text)) continue;
    const item = addAlert(row.game_id, level === "bad" ? "bad" : "warn", `board ${text}`, null);
    item.dataset.trouble = text;
  }
  clearBoardAlerts(row.game_id, new Set(now.map(([text]) => text)));
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
  const assigned = row.eboard_id !== null && row.eboard_id !== undefined;
  $("assign-port-box").hidden = !assigned;
  if (assigned) {
    $("assign-port-title").textContent = `Port of e-board ${row.eboard}`;
    $("assign-port").value = row.url || "";
  }
  dialog.returnValue = "";
  dialog.onclose = async () => {
    if (dialog.returnValue === "port") {
      await movePort(game, row, $("assign-port").value.trim());
      return;
    }
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

// The e-board moved to another port (replugged, or the machine restarted); a game that does
// not follow it yet is attached there when the box says so.
async function movePort(game, row, url) {
  if (!url) {
    notice(`Board ${game.board}: a port is needed.`, "error");
    return;
  }
  try {
    const moved = await call(`/api/eboards/${row.eboard_id}/port`, { method: "PUT", body: { url } });
    const failed = moved.not_followed[String(game.id)];
    if (failed) {
      notice(`Board ${game.board}: e-board ${moved.number} is on ${url}, not followed: ${failed}`, "error");
    } else if (!row.attached && $("assign-attach").checked) {
      await call(`/api/games/${game.id}/attach`, { method: "POST" });
      notice(`Board ${game.board}: e-board ${moved.number} on ${url}, followed.`, "ok");
    } else {
      notice(`Board ${game.board}: e-board ${moved.number} is on ${url}.`, "ok");
    }
  } catch (error) {
    notice(`Board ${game.board}: ${explain(error)}`, "error");
  }
  refreshBoards();
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
