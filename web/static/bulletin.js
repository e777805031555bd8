// The tournament bulletin: each round's pairings and results, the standings with whatever
// tie-breaks the hub returns, and a crosstable worked out here from the rounds' games.
// Printable. It is what the public sees: no token goes along, verified results count.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { Follow, api } from "/static/relay.js";
import { param, reopenWith } from "/static/address.js";
import { $, columnHeads, el, option, stamp } from "/static/dom.js";
import { playerKey, playerName } from "/static/players.js";
import { SCORES, points, shownResult } from "/static/scores.js";
import { editionNote } from "/static/tie-breaks.js";

// The newest round's stream says when something changed; this is only the fallback.
const REFRESH_MS = 30000;
const SETTLE_MS = 700;
// Events that change what the bulletin shows.
const CHANGES = new Set(["result", "verified", "end", "arbiter-correction", "new-game"]);

const get = (path) => api(path, { auth: false });

const state = { tournament: null, follow: null, followed: null, loading: false, again: false, timer: null };

function number(value) {
  if (typeof value !== "number") return value === null || value === undefined ? "" : String(value);
  return Number.isInteger(value * 2) ? points(value) : value.toFixed(2);
}

function cell(tag, text, cls) {
  return el(tag, cls, text);
}

function headRow(table, headers) {
  const head = el("thead");
  head.append(columnHeads(headers));
  table.replaceChildren(head);
  return table.appendChild(el("tbody"));
}

// --- Players in games --------------------------------------------------------------------

// Game summaries name their players without a start number: find each one in the starting
// list by everything the summary shows. Where two players look alike, the first one not yet
// paired in that round is taken (each player plays once per round).
function playerFinder(players) {
  const alike = new Map();
  for (const player of [...players].sort((a, b) => a.start_number - b.start_number)) {
    const k = playerKey(player);
    if (!alike.has(k)) alike.set(k, []);
    alike.get(k).push(player);
  }
  return (shown, used) => {
    if (shown.start_number) return shown.start_number;
    const candidates = alike.get(playerKey(shown)) || [];
    const found = candidates.find((p) => !used.has(p.start_number)) || candidates[0];
    if (!found) return null;
    used.add(found.start_number);
    return found.start_number;
  };
}

// Rounds as pairings by start number: [{round, games: [{game, white, black}]}].
function pairRounds(rounds, gamesByRound, players) {
  const find = playerFinder(players);
  return rounds.map((round, i) => {
    const used = new Set();
    const games = [...gamesByRound[i]].sort((a, b) => a.board - b.board).map((game) => ({
      game,
      white: find(game.white, used),
      black: find(game.black, used),
    }));
    return { round, games };
  });
}

// --- Rendering ---------------------------------------------------------------------------

function resultCell(game) {
  const td = el("td", "result");
  if (game.result in SCORES) {
    td.append(el("span", "score", shownResult(game.result)));
    if (!game.verified) {
      td.classList.add("provisional");
      td.append(el("span", "flag-note", "provisional"));
      td.title = "Not yet verified by the arbiter";
    }
  } else {
    td.append(el("span", "pending", game.ply ? "in play" : ""));
  }
  td.dataset.result = game.result;
  td.dataset.verified = String(!!game.verified);
  return td;
}

function roundSection(paired, { latest }) {
  const { round, games } = paired;
  const section = el("section", latest ? null : "sheet round");
  section.id = latest ? "latest-round" : `round-${round.number}`;
  section.dataset.round = String(round.number);
  const title = el(latest ? "h2" : "h3", null, `Round ${round.number}`);
  if (round.starts_at) {
    const when = new Date(round.starts_at);
    title.append(el("span", "when", ` · ${when.toLocaleDateString()} ${when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`));
  }
  section.append(title);
  if (!games.length) {
    section.append(el("p", "note", "Not paired yet."));
    return section;
  }
  const table = el("table", "table pairings");
  const body = headRow(table, [
    ["Bd", "num"], ["No.", "num"], ["White", "name"], ["Rtg", "num"], ["Result", "result"],
    ["No.", "num"], ["Black", "name"], ["Rtg", "num"],
  ]);
  table.prepend(el("caption", "sr-only", `Round ${round.number}: pairings and results`));
  for (const { game, white, black } of games) {
    const row = el("tr");
    row.dataset.board = String(game.board);
    row.dataset.gameId = String(game.id);
    row.append(
      cell("td", String(game.board), "num"),
      cell("td", white ?? "", "num"),
      cell("td", playerName(game.white), "name white"),
      cell("td", game.white.rating ?? "", "num"),
      resultCell(game),
      cell("td", black ?? "", "num"),
      cell("td", playerName(game.black), "name black"),
      cell("td", game.black.rating ?? "", "num"),
    );
    body.append(row);
  }
  const scroll = el("div", "scroll");
  scroll.append(table);
  section.append(scroll);
  return section;
}

// Tie-break columns, in the order the standings give them (FIDE C.07 abbreviations).
const TIE_BREAK_NAMES = {
  "BH-C1": "Buchholz cut 1",
  BH: "Buchholz",
  SB: "Sonneborn-Berger",
  WIN: "games won",
  BPG: "games played with Black",
  ARO: "average rating of opponents",
};

function tieBreakColumns(rows) {
  const names = rows.length ? Object.keys(rows[0].tie_breaks || {}) : [];
  return names.map((name) => ({
    title: name,
    description: TIE_BREAK_NAMES[name] || name,
    get: (row) => (row.tie_breaks || {})[name],
  }));
}

function renderStandings(rows, rankOf) {
  const table = $("standings");
  const extra = tieBreakColumns(rows);
  const hasRating = rows.some((r) => r.rating);
  const hasFed = rows.some((r) => r.federation);
  const hasProvisional = rows.some((r) => r.provisional);
  const headers = [["Rk", "num"], ["No.", "num"], ["Name", "name"]];
  if (hasRating) headers.push(["Rtg", "num"]);
  if (hasFed) headers.push(["Fed", "fed"]);
  headers.push(["Pts", "num pts"], ["Games", "num", "games with a verified result"]);
  for (const column of extra) headers.push([column.title, "num tb", column.description]);
  if (hasProvisional) headers.push(["Prov.", "num", "points from results not yet verified"]);
  const body = headRow(table, headers);
  // The places as the hub ranks them: shared ("2=") where points and every tie-break of the
  // tournament are equal, as on the leader board.
  rows.forEach((row) => {
    rankOf.set(row.start_number, row.place);
    const tr = el("tr");
    tr.dataset.startNumber = String(row.start_number);
    tr.append(cell("td", row.place, "num rank"), cell("td", String(row.start_number), "num"),
      cell("td", playerName(row), "name"));
    if (hasRating) tr.append(cell("td", row.rating ?? "", "num"));
    if (hasFed) tr.append(cell("td", row.federation ?? "", "fed"));
    tr.append(cell("td", points(row.points), "num pts"), cell("td", String(row.played ?? ""), "num"));
    for (const column of extra) tr.append(cell("td", number(column.get(row)), "num tb"));
    if (hasProvisional) tr.append(cell("td", row.provisional ? points(row.provisional) : "", "num"));
    body.append(tr);
  });
}

function renderCrosstable(players, paired, rankOf) {
  const table = $("crosstable");
  const hasRating = players.some((p) => p.rating);
  const headers = [["No.", "num"], ["Name", "name"]];
  if (hasRating) headers.push(["Rtg", "num"]);
  for (const { round } of paired) headers.push([String(round.number), "rd", `Round ${round.number}`]);
  headers.push(["Pts", "num pts"], ["Rk", "num"]);
  const body = headRow(table, headers);
  // start number -> round number -> what that player did
  const lines = new Map(players.map((p) => [p.start_number, new Map()]));
  for (const { round, games } of paired) {
    for (const { game, white, black } of games) {
      const scores = SCORES[game.result];
      for (const [me, them, colour, index] of [[white, black, "w", 0], [black, white, "b", 1]]) {
        if (me === null || !lines.has(me)) continue;
        lines.get(me).set(round.number, {
          opponent: them, colour, score: scores ? scores[index] : null, verified: !!game.verified,
        });
      }
    }
  }
  for (const player of [...players].sort((a, b) => a.start_number - b.start_number)) {
    const line = lines.get(player.start_number);
    const tr = el("tr");
    tr.dataset.startNumber = String(player.start_number);
    tr.append(cell("td", String(player.start_number), "num"), cell("td", playerName(player), "name"));
    if (hasRating) tr.append(cell("td", player.rating ?? "", "num"));
    let total = 0;
    for (const { round } of paired) {
      const td = el("td", "rd");
      td.dataset.round = String(round.number);
      const played = line.get(round.number);
      if (!played) {
        td.textContent = "–";
        td.classList.add("none");
      } else {
        const score = played.score === null ? "" : points(played.score);
        td.append(el("span", "opp", played.opponent ?? "?"), el("span", `col ${played.colour}`, played.colour),
          el("span", "sc", score));
        td.dataset.opponent = String(played.opponent ?? "");
        td.dataset.colour = played.colour;
        td.dataset.score = score;
        if (played.score !== null && !played.verified) {
          td.classList.add("provisional");
          td.title = "Not yet verified by the arbiter: not counted";
        } else if (played.score !== null) {
          total += played.score;
        }
      }
      tr.append(td);
    }
    tr.append(cell("td", points(total), "num pts"), cell("td", String(rankOf.get(player.start_number) ?? ""), "num"));
    body.append(tr);
  }
}

function renderHeader(tournament, rounds) {
  $("title").textContent = tournament.name;
  document.title = `${tournament.name} · bulletin`;
  const parts = [];
  if (tournament.site) parts.push(tournament.site);
  if (tournament.start_date) {
    parts.push(tournament.end_date && tournament.end_date !== tournament.start_date
      ? `${tournament.start_date} – ${tournament.end_date}` : tournament.start_date);
  }
  const planned = tournament.rounds_planned;
  if (rounds.length) {
    const last = rounds[rounds.length - 1].number;
    parts.push(planned ? `Round ${last} of ${planned}` : `Round ${last}`);
  }
  if (tournament.time_control) parts.push(tournament.time_control);
  $("subtitle").textContent = parts.join(" · ");
}

function render(tournament, players, paired, standings, rules) {
  renderHeader(tournament, paired.map((p) => p.round));
  const latest = paired[paired.length - 1];
  const latestSection = $("latest");
  if (latest) {
    latestSection.replaceChildren(roundSection(latest, { latest: true }));
  } else {
    latestSection.replaceChildren(el("h2", null, "Rounds"), el("p", "note", "No round is published yet."));
  }
  $("standings-title").textContent = standingsTitle(paired);
  const rankOf = new Map();
  renderStandings(standings, rankOf);
  $("tie-break-note").textContent = editionNote(rules, tournament);
  renderCrosstable(players, paired, rankOf);
  const earlier = paired.slice(0, -1).reverse();
  const earlierSection = $("earlier");
  earlierSection.replaceChildren(...(earlier.length ? [el("h2", "earlier-title", "Earlier rounds")] : []),
    ...earlier.map((p) => roundSection(p, { latest: false })));
  $("earlier-link").hidden = !earlier.length;
}

// "after round 3" once every game of round 3 is verified, "during round 4" until then.
function standingsTitle(paired) {
  const counted = paired.filter((p) => p.games.some((g) => g.game.verified));
  const last = counted[counted.length - 1];
  if (!last) return "Standings";
  const complete = last.games.every((g) => g.game.verified);
  return `Standings ${complete ? "after" : "during"} round ${last.round.number}`;
}

// --- Loading -----------------------------------------------------------------------------

async function chooseTournament() {
  const tournaments = await get("/api/tournaments");
  if (!tournaments.length) return null;
  const asked = Number(param("tournament"));
  const chosen = tournaments.find((t) => t.id === asked) || tournaments[tournaments.length - 1];
  const select = $("tournament-select");
  select.replaceChildren(...tournaments.map((t) => option(t.id, t.name, t.id === chosen.id)));
  $("tournament-choice").hidden = tournaments.length < 2;
  if (param("tournament") && chosen.id !== asked) problem(`There is no tournament ${param("tournament")}; showing the newest.`);
  return chosen;
}

function problem(text) {
  $("problem").textContent = text;
}

async function load() {
  if (state.loading) {
    state.again = true;
    return;
  }
  state.loading = true;
  try {
    if (!state.tournament) state.tournament = await chooseTournament();
    const tournament = state.tournament;
    if (!tournament) {
      problem("No tournament yet.");
      return;
    }
    const id = tournament.id;
    const [players, allRounds, standings, rules] = await Promise.all([
      get(`/api/tournaments/${id}/players`), get("/api/rounds"), get(`/api/tournaments/${id}/standings`),
      get(`/api/tournaments/${id}/rules`).catch(() => null),
    ]);
    const rounds = allRounds.filter((r) => r.tournament_id === id).sort((a, b) => a.number - b.number);
    const games = await Promise.all(rounds.map((r) => get(`/api/rounds/${r.id}/games`)));
    const paired = pairRounds(rounds, games, players);
    render(tournament, players, paired, standings, rules);
    follow(rounds[rounds.length - 1]);
    if (!$("problem").textContent.startsWith("There is no")) problem("");
    stamp($("updated"));
  } catch (error) {
    problem(`Could not refresh the bulletin (${error.message}); trying again shortly.`);
  } finally {
    state.loading = false;
    if (state.again) {
      state.again = false;
      load();
    }
  }
}

// Refresh a moment after the newest round's stream reports a result (several boards often
// finish together: one refresh for them all).
function refreshSoon() {
  clearTimeout(state.timer);
  state.timer = setTimeout(load, SETTLE_MS);
}

function follow(round) {
  if (!round || state.followed === round.id) return;
  if (state.follow) state.follow.close();
  state.followed = round.id;
  let first = true;
  state.follow = new Follow(`/api/rounds/${round.id}/stream`, (message) => {
    if (message.type === "snapshot") {
      // A reconnect: what was missed meanwhile is in the snapshot.
      if (!first) refreshSoon();
      first = false;
    } else if (message.type === "event" && CHANGES.has(message.kind)) {
      refreshSoon();
    }
  });
}

function main() {
  $("print").addEventListener("click", () => window.print());
  $("tournament-select").addEventListener("change", (event) => {
    reopenWith("tournament", event.target.value);
  });
  load();
  setInterval(load, REFRESH_MS);
}

main();
