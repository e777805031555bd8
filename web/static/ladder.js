// A club ladder's public table (docs/ladders.md): rank, points, games, whether each player
// qualifies, and each player's games with the points they moved (a row opens its history).
// Licence: GPL-3.0-or-later, like the rest of chess-relay.
import { api } from "/static/relay.js";
import { param } from "/static/address.js";
import { $, el } from "/static/dom.js";

const RATES = { standard: "standard play", rapid: "rapid play", all: "all rates of play" };
const SCORE_WORDS = { 1: "won", 0.5: "drew", 0: "lost" };

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function historyRow(line, columns) {
  const row = el("tr", "history");
  row.id = `history-${line.player}`;
  row.hidden = true;
  const cell = el("td");
  cell.colSpan = columns;
  const games = el("table", "games");
  const head = el("tr");
  for (const text of ["Date", "Opponent", "Colour", "Result", "Before", "Change", "After"]) {
    const th = el("th", null, text);
    th.scope = "col";
    head.append(th);
  }
  games.append(head);
  for (const game of line.history) {
    const tr = el("tr", "game");
    tr.append(
      el("td", null, game.played_on),
      el("td", null, `${game.opponent_name} (${game.opponent_before})`),
      el("td", null, game.colour),
      el("td", null, SCORE_WORDS[game.score]),
      el("td", "num", String(game.before)),
      el("td", "num change", signed(game.change)),
      el("td", "num", String(game.after)),
    );
    games.append(tr);
  }
  cell.append(games);
  row.append(cell);
  return row;
}

function playerRows(line) {
  const row = el("tr", line.qualified ? "player qualified" : "player");
  row.dataset.player = String(line.player);
  const toggle = el("button", "toggle", line.name);
  toggle.type = "button";
  toggle.setAttribute("aria-expanded", "false");
  toggle.setAttribute("aria-controls", `history-${line.player}`);
  const name = el("td", "name");
  name.append(toggle);
  row.append(
    el("td", "rank", line.place),
    name,
    el("td", "num points", String(line.points)),
    el("td", "num", String(line.games)),
    el("td", "num", `${line.wins}–${line.draws}–${line.losses}`),
    el("td", "qualified", line.qualified ? "✓" : ""),
  );
  if (line.qualified) row.cells[5].title = "qualified";
  const history = historyRow(line, 6);
  toggle.addEventListener("click", () => {
    history.hidden = !history.hidden;
    toggle.setAttribute("aria-expanded", String(!history.hidden));
  });
  return [row, history];
}

function show(table) {
  const { ladder, club } = table;
  document.title = `${ladder.name} · ${club.name}`;
  $("ladder-name").textContent = `${club.name}: ${ladder.name}`;
  const graded = ladder.graded ? ", graded" : "";
  $("ladder-rules").textContent =
    `${RATES[ladder.rate]}, ${ladder.starts} to ${ladder.ends}${graded}; ` +
    `everyone starts on ${ladder.initial_points} points`;
  $("qualify-note").textContent =
    `✓: played at least ${ladder.min_games} games, the minimum for the final placings; ` +
    "qualified players are ranked first. Click a name for the player's games.";
  const body = $("table").tBodies[0];
  body.replaceChildren(...table.lines.flatMap(playerRows));
  $("empty").hidden = table.lines.length > 0;
}

async function start() {
  const id = param("id");
  if (!id || !/^\d+$/.test(id)) {
    $("problem").textContent = "Which ladder? Open this page as /ladder?id=N.";
    $("problem").hidden = false;
    return;
  }
  $("json-link").href = `/api/ladders/${id}`;
  $("csv-link").href = `/api/ladders/${id}.csv`;
  try {
    show(await api(`/api/ladders/${id}`, { auth: false }));
  } catch (error) {
    $("problem").textContent = `This ladder cannot be shown: ${error.message}`;
    $("problem").hidden = false;
  }
}

start();
