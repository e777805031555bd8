// The leader board and the public tournament chart: the standings as the hub counts them,
// and each leading player's score after each round, counted from the rounds' results the
// same way (the public counts verified results only). Kept current from the newest round's
// stream: a result or a verification there brings the standings again.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.
import { api, applyEvent, Follow } from "/static/relay.js";
import { param } from "/static/address.js";
import { el, liveStatus, stamp } from "/static/dom.js";
import { playerDetails, playerKey, playerName } from "/static/players.js";
import { SCORES, points } from "/static/scores.js";
import { editionNote } from "/static/tie-breaks.js";
import { token } from "/static/token.js";

const PODIUM = 3;
const CHART_PLAYERS = 6;
const REFRESH_WAIT_MS = 1500;
const POLL_MS = 60_000;
const SNAPSHOT_WAIT_MS = 5000;
// Colours told apart on screen, and dash patterns for a black-and-white printout.
const COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f"];
const DASHES = ["", "9 4", "2 4", "10 4 2 4", "5 5", "14 5"];
const SVG = "http://www.w3.org/2000/svg";

let tournament = null;
let rounds = []; // this tournament's rounds the reader may see, by number
const roundGames = new Map(); // round id -> board summaries
let rows = []; // the standings
let refreshTimer = null;
let snapshotSeen = false;

// The standings count verified results for the public; an operator or arbiter's tab also
// sees the provisional ones.
function counted(game) {
  return SCORES[game.result] !== undefined && (game.verified || !!token());
}

// Players the summaries cannot tell apart (the same name, rating and the rest): the game
// goes to the first of them whose standings still have room for it.
function whoPlayed(group, score, playedNow, used) {
  if (!group) return null;
  const free = group.filter((row) => !playedNow.has(row.start_number));
  if (free.length < 2) return free[0] || null;
  return free.find((row) => {
    const soFar = used.get(row.start_number);
    return soFar.played < row.played && soFar.points + score <= total(row);
  }) || free[0];
}

// Each player's total after each round (index 0: before the first), by start number.
// Players are matched by start number where the summaries carry it, else by what both the
// standings and the summaries show of them (playerKey).
function scoreLines() {
  const groups = new Map();
  const byNumber = new Map(rows.map((row) => [row.start_number, row]));
  const used = new Map();
  const lines = new Map();
  for (const row of rows) {
    const key = playerKey(row);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(row);
    used.set(row.start_number, { played: 0, points: 0 });
    lines.set(row.start_number, [0]);
  }
  rounds.forEach((round, index) => {
    const playedNow = new Set();
    for (const game of roundGames.get(round.id) || []) {
      if (!counted(game)) continue;
      SCORES[game.result].forEach((score, side) => {
        const player = side === 0 ? game.white : game.black;
        const row = byNumber.get(player.start_number)
          || whoPlayed(groups.get(playerKey(player)), score, playedNow, used);
        if (!row) return;
        playedNow.add(row.start_number);
        const soFar = used.get(row.start_number);
        soFar.played += 1;
        soFar.points += score;
      });
    }
    for (const row of rows) lines.get(row.start_number)[index + 1] = used.get(row.start_number).points;
  });
  return lines;
}

// The rounds worth a point on the chart: up to the last with a counted result.
function roundsShown() {
  let last = 0;
  rounds.forEach((round, index) => {
    if ((roundGames.get(round.id) || []).some(counted)) last = index + 1;
  });
  return rounds.slice(0, Math.max(last, Math.min(1, rounds.length)));
}

function total(row) {
  return row.points + row.provisional;
}

// The places as the hub ranks them (shared, "2=", where points and every tie-break of the
// tournament are equal): the bulletin and every other page show the same.
function ranks() {
  return rows.map((row) => row.place);
}

function drawPodium(places) {
  const podium = document.getElementById("podium");
  const leaders = rows.slice(0, PODIUM).filter((row) => total(row) > 0);
  if (!leaders.length) {
    podium.replaceChildren(el("li", "empty", "No results counted yet."));
    return;
  }
  podium.replaceChildren(...leaders.map((row, i) => {
    const item = el("li", "leader");
    item.append(el("span", "place", places[i]), el("span", "who", playerName(row)),
      el("span", "score", points(total(row))));
    const rating = playerDetails(row);
    if (rating) item.append(el("span", "details", rating));
    return item;
  }));
}

function drawStandings(places) {
  const body = document.querySelector("#standings tbody");
  // A column nobody fills only takes room (a club event without federations).
  document.getElementById("standings").classList.toggle("no-fed", !rows.some((row) => row.federation));
  body.replaceChildren(...rows.map((row, i) => {
    const line = el("tr");
    line.dataset.startNumber = row.start_number;
    const extra = row.provisional ? ` (${points(row.provisional)} provisional)` : "";
    for (const text of [places[i], playerName(row), row.rating || "", row.federation || "",
      String(row.played), points(row.points) + extra]) {
      line.append(el("td", null, String(text)));
    }
    line.children[1].className = "player";
    line.children[5].className = "points";
    return line;
  }));
}

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// A line per leading player: score (up) after each round (across), drawn in SVG.
function drawChart() {
  const holder = document.getElementById("chart");
  const shown = roundsShown();
  const leaders = rows.slice(0, CHART_PLAYERS);
  const lines = scoreLines();
  // Drawn at the width shown, so that the labels keep their size on a phone.
  const width = Math.round(Math.min(900, Math.max(320, holder.clientWidth || 760)));
  const height = Math.round(Math.max(240, width * 0.45));
  const pad = { left: 44, right: 18, top: 14, bottom: 40 };
  const top = Math.max(1, ...leaders.map((row) => Math.max(...(lines.get(row.start_number) || [0]))));
  const maxY = Math.ceil(top);
  const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / Math.max(1, shown.length);
  const y = (v) => pad.top + (height - pad.top - pad.bottom) * (1 - v / maxY);
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "chart-title chart-desc",
    class: "score-chart",
  });
  chart.append(svg("title", { id: "chart-title" }, "Score after each round"));
  chart.append(svg("desc", { id: "chart-desc" }, leaders.map((row) => {
    const line = lines.get(row.start_number) || [0];
    return `${playerName(row)}: ${line.slice(1, shown.length + 1).map(points).join(", ")}`;
  }).join("; ")));
  const step = maxY <= 3 ? 0.5 : maxY <= 8 ? 1 : Math.ceil(maxY / 8);
  for (let v = 0; v <= maxY + 1e-9; v += step) {
    chart.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }));
    chart.append(svg("text", { x: pad.left - 8, y: y(v) + 5, class: "axis", "text-anchor": "end" }, points(v)));
  }
  for (let i = 0; i <= shown.length; i++) {
    chart.append(svg("text", { x: x(i), y: height - pad.bottom + 22, class: "axis", "text-anchor": "middle" },
      i === 0 ? "start" : `R${shown[i - 1].number}`));
  }
  // Equal lines would hide each other: each is drawn a little apart.
  leaders.forEach((row, n) => {
    const line = (lines.get(row.start_number) || [0]).slice(0, shown.length + 1);
    const nudge = (n - (leaders.length - 1) / 2) * 2;
    const at = line.map((v, i) => [x(i), y(v) + nudge]);
    const group = svg("g", { class: "series", "data-player": playerName(row) });
    group.append(svg("polyline", {
      points: at.map(([px, py]) => `${px},${py}`).join(" "),
      stroke: COLOURS[n], "stroke-dasharray": DASHES[n], class: "score-line",
    }));
    at.forEach(([px, py], i) => {
      const dot = svg("circle", { cx: px, cy: py, r: 4.5, fill: COLOURS[n] });
      dot.append(svg("title", {}, `${playerName(row)}: ${points(line[i])} ${i ? `after round ${shown[i - 1].number}` : "at the start"}`));
      group.append(dot);
    });
    chart.append(group);
  });
  holder.replaceChildren(chart);
  drawLegend(leaders, lines, shown);
  drawChartTable(leaders, lines, shown);
}

function drawLegend(leaders, lines, shown) {
  document.getElementById("legend").replaceChildren(...leaders.map((row, n) => {
    const item = el("li");
    const swatch = svg("svg", { viewBox: "0 0 36 10", width: 36, height: 10, "aria-hidden": "true" });
    swatch.append(svg("line", { x1: 0, x2: 36, y1: 5, y2: 5, stroke: COLOURS[n], "stroke-width": 3, "stroke-dasharray": DASHES[n] }));
    const line = lines.get(row.start_number) || [0];
    item.append(swatch, el("span", null, `${playerName(row)} ${points(line[shown.length] || 0)}`));
    return item;
  }));
}

function drawChartTable(leaders, lines, shown) {
  const table = document.getElementById("chart-table");
  const head = el("tr");
  head.append(el("th", null, "Player"), ...shown.map((round) => el("th", null, `Round ${round.number}`)));
  const body = leaders.map((row) => {
    const line = lines.get(row.start_number) || [0];
    const tr = el("tr");
    tr.append(el("th", null, playerName(row)), ...shown.map((_, i) => el("td", null, points(line[i + 1] || 0))));
    return tr;
  });
  table.replaceChildren(head, ...body);
}

// Which rounds the standings count: "After round 2 of 5" once every game of round 2 has a
// counted result, and the round being played, if any.
function roundsNote() {
  const planned = tournament.rounds_planned ? ` of ${tournament.rounds_planned}` : "";
  let finished = null;
  let playing = null;
  for (const round of rounds) {
    const games = roundGames.get(round.id) || [];
    if (!games.length) continue;
    if (games.every(counted)) finished = round;
    else if (!playing) playing = { round, over: games.every((game) => SCORES[game.result] !== undefined) };
  }
  const parts = [];
  if (finished) parts.push(`After round ${finished.number}${planned}`);
  if (playing) {
    const state = playing.over ? "results being verified" : "in play";
    parts.push(`round ${playing.round.number}${finished ? "" : planned} ${state}`);
  }
  const text = parts.join(" · ");
  return text ? text[0].toUpperCase() + text.slice(1) : "No round played yet";
}

function draw() {
  document.getElementById("rounds-note").textContent = roundsNote();
  const places = ranks();
  drawPodium(places);
  drawStandings(places);
  drawChart();
  stamp(document.getElementById("updated"));
}

async function loadRounds(ids) {
  const fetched = await Promise.all(ids.map((id) => api(`/api/rounds/${id}/games`)));
  ids.forEach((id, i) => roundGames.set(id, fetched[i]));
}

// The standings again; if our count of the rounds disagrees with them (a result verified in
// a round we do not follow), the rounds again too.
async function refresh() {
  refreshTimer = null;
  rows = await api(`/api/tournaments/${tournament.id}/standings`);
  const lines = scoreLines();
  const agrees = rows.every((row) => {
    const line = lines.get(row.start_number) || [0];
    return (line[rounds.length] || 0) === total(row);
  });
  if (!agrees) await loadRounds(rounds.map((round) => round.id));
  draw();
}

function refreshSoon() {
  if (!refreshTimer) refreshTimer = setTimeout(() => refresh().catch(() => {}), REFRESH_WAIT_MS);
}

function receive(message, newest) {
  if (message.type === "snapshot") {
    snapshotSeen = true;
    roundGames.set(newest.id, message.games);
    draw();
    return;
  }
  if (message.type !== "event") return;
  const game = (roundGames.get(newest.id) || []).find((item) => item.id === message.game);
  if (!game || !applyEvent(game, message)) return;
  if (["end", "result", "verified", "arbiter-correction", "takeback"].includes(message.kind)) refreshSoon();
}

async function start() {
  const tournaments = await api("/api/tournaments");
  const wanted = Number(param("tournament"));
  tournament = tournaments.find((t) => t.id === wanted) || tournaments[tournaments.length - 1];
  if (!tournament) {
    document.getElementById("tournament-name").textContent = "No tournament yet";
    return;
  }
  document.getElementById("tournament-name").textContent = tournament.name;
  document.title = `${tournament.name} · leader board`;
  const [standings, allRounds, rules] = await Promise.all([
    api(`/api/tournaments/${tournament.id}/standings`), api("/api/rounds"),
    api(`/api/tournaments/${tournament.id}/rules`).catch(() => null),
  ]);
  rows = standings;
  document.getElementById("tie-break-note").textContent = editionNote(rules, tournament);
  rounds = allRounds.filter((round) => round.tournament_id === tournament.id)
    .sort((a, b) => a.number - b.number);
  const newest = rounds[rounds.length - 1];
  if (newest) document.getElementById("boards-link").href = `/?round=${newest.id}`;
  // The newest round comes with its stream's snapshot; the others are read once.
  await loadRounds(rounds.slice(0, -1).map((round) => round.id));
  draw();
  if (!newest) return;
  new Follow(`/api/rounds/${newest.id}/stream`, (message) => receive(message, newest), liveStatus());
  setTimeout(() => {
    if (!snapshotSeen) loadRounds([newest.id]).then(draw).catch(() => {});
  }, SNAPSHOT_WAIT_MS);
  setInterval(() => { if (!document.hidden) refreshSoon(); }, POLL_MS);
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(drawChart, 200);
  });
}

start().catch((error) => {
  document.getElementById("tournament-name").textContent = `Cannot load the leader board: ${error.message}`;
});
