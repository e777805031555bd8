// One correspondence game (docs/correspondence.md): the players, the moves with the day each
// was sent, both day clocks (IECG C.6), who is to move, leaves, the result. With a player's
// key (?key=, kept for the tab, taken out of the address, never shown) the game's due list,
// the move box and the notice of delay. Dates in each player's own time zone, named. The
// page reads the hub again after each action and every 60 s.
// Also what the Tournament Secretary's page (correspondence-due.js) shares: due kinds in words.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.
import { ApiError, api, drawBoard, moveLabel } from "/static/relay.js";
import { addressWith, param } from "/static/address.js";
import { $, el, stamp } from "/static/dom.js";
import { token } from "/static/token.js";
import { playerName } from "/static/players.js";

const REFRESH_MS = 60_000;
const KEY = "relay-cc-key"; // the player's key, for this browser tab

export const COLOURS = { white: "White", black: "Black" };

// What can fall due (relay/domain/correspondence/silence.py, DueKind), in words.
const DUE_WORDS = {
  reminder: "reminder to the silent player, copy to the TS",
  "inform-ts": "the TS to be informed of the silence",
  "doubled-time": "time counts double",
  "score-as-lost": "the game may be scored as lost",
  withdrawal: "the player withdrawn from the team event",
  flag: "flag fallen: the game lost",
  forfeit: "a move over the limit: the game forfeited",
  "game-lost": "no move for 60 days: the game lost",
};

const DECISIONS = {
  "in-time": "in time", "flag-fell": "flag fallen", forfeited: "forfeited", withdrawn: "withdrawn",
};

export function dueWords(kind) {
  return DUE_WORDS[kind] || kind;
}

// A day of the hub's (a UTC date, "2027-03-01") as a date in `zone`: the date there at noon
// UTC, the same date in every zone from UTC−12 to UTC+12.
export function dayIn(day, zone) {
  const noon = new Date(`${day}T12:00:00Z`);
  try {
    return new Intl.DateTimeFormat("en-GB", {
      timeZone: zone, weekday: "short", day: "numeric", month: "short", year: "numeric",
    }).format(noon);
  } catch {
    return day; // a zone this browser does not know: the hub's date as it is
  }
}

// The words of a refused call: the hub's `detail` (a validation error's list as one line).
export function refusalWords(status, data) {
  const detail = data && data.detail;
  let words = typeof detail === "string" ? detail : "";
  if (Array.isArray(detail)) words = detail.map((d) => d.msg).join("; ");
  if (status === 401) return `the key was refused (${words || "unknown or revoked"})`;
  return words || `the hub answered ${status}`;
}

// ---------------------------------------------------------------------------------------
// The page.

const page = { id: null, key: null, game: null, days: null, event: null };

// The player's key: from ?key= (kept for the tab, then taken out of the address), else the
// one this tab was given before.
function playerKey() {
  const given = param("key");
  if (given) {
    sessionStorage.setItem(KEY, given);
    history.replaceState(null, "", addressWith({ key: null }));
  }
  return sessionStorage.getItem(KEY);
}

// A call with the player's key (else the tab's token), as `Authorization: Bearer`; the whole
// answer, so that a refused move keeps its `fitting` moves.
async function send(path, { method = "GET", body } = {}) {
  const headers = {};
  const held = page.key || token();
  if (held) headers.Authorization = `Bearer ${held}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const reply = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await reply.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  return { ok: reply.ok, status: reply.status, data };
}

async function read(path) {
  const answer = await send(path);
  if (!answer.ok) throw new ApiError(answer.status, refusalWords(answer.status, answer.data));
  return answer.data;
}

function zoneOf(colour) {
  const zones = page.days.time_zones || [];
  return zones[colour === "white" ? 0 : 1] || "UTC";
}

function nameOf(colour) {
  return playerName(page.game[colour]);
}

function term(list, label, value, cls) {
  list.append(el("dt", null, label), el("dd", cls, value));
}

function clockCard(colour) {
  const clock = page.days[colour];
  const zone = zoneOf(colour);
  const card = $(`${colour}-clock`);
  const toMove = page.days.to_move === colour;
  card.classList.toggle("moving", toMove);
  const head = el("h2");
  head.append(el("span", "colour", `${COLOURS[colour]}: `), el("span", "name", nameOf(colour)));
  if (toMove) head.append(el("span", "tag", "to move"));
  const facts = el("dl");
  term(facts, "Days used", String(clock.used), "used");
  const left = el("dt");
  left.append("Days left before move ", el("span", "control", String(clock.next_control)));
  facts.append(left, el("dd", "left", String(clock.left)));
  term(facts, `Days allowed up to move ${clock.next_control}`, String(clock.allowance), "allowance");
  term(facts, "Moves made", String(clock.moves), "moves-made");
  term(facts, "State", DECISIONS[clock.decision] || clock.decision, "decision");
  const leaves = page.days[`${colour}_leaves`];
  const leaveList = el("ul", "leaves");
  for (const leave of leaves) {
    leaveList.append(el("li", "leave",
      `Leave ${dayIn(leave.first, zone)} to ${dayIn(leave.last, zone)}`
      + ` (announced ${dayIn(leave.announced, zone)})`));
  }
  card.replaceChildren(head, el("p", "zone", `Time zone ${zone}: dates shown there`), facts);
  if (leaves.length) card.append(leaveList);
  else card.append(el("p", "note no-leave", "No leave announced."));
}

function moveRows() {
  const moves = page.game.moves;
  const sent = page.days.sent;
  const cells = (move, colour) => {
    if (!move) return [el("td", "san"), el("td", "sent")];
    const day = sent[move.ply - 1];
    return [el("td", "san", move.san), el("td", "sent", day ? dayIn(day, zoneOf(colour)) : "")];
  };
  const rows = [];
  for (let i = 0; i < moves.length; i += 2) {
    const row = el("tr");
    row.append(el("td", "no", `${i / 2 + 1}.`), ...cells(moves[i], "white"),
      ...cells(moves[i + 1], "black"));
    rows.push(row);
  }
  $("moves").tBodies[0].replaceChildren(...rows);
  $("no-moves").hidden = moves.length > 0;
  $("white-sent-head").textContent = `Sent (${zoneOf("white")})`;
  $("black-sent-head").textContent = `Sent (${zoneOf("black")})`;
}

function stateLines() {
  const { game, days } = page;
  const next = game.moves.length + 1;
  $("to-move").textContent = days.to_move
    ? `${COLOURS[days.to_move]} to move (${nameOf(days.to_move)}): ${moveLabel(next, "").trim()}`
    : "The game is over.";
  const over = game.result !== "*";
  $("result").hidden = !over;
  $("result").textContent = over
    ? `Result ${game.result}${game.termination ? ` (${game.termination})` : ""}` : "";
  const kind = page.event ? `${page.event.control} control, ` : "";
  $("hub-day").textContent =
    `${kind}started ${days.started}; the hub's day is ${days.today} (UTC).`;
}

function playerDesk() {
  const { days } = page;
  $("player").hidden = !page.key;
  if (!page.key) return;
  const items = days.due.map((due) => el("li", `due ${due.kind}`,
    `${dueWords(due.kind)}: ${COLOURS[due.side]} (${nameOf(due.side)}), since `
    + `${dayIn(due.since, zoneOf(due.side))}, ${due.article}`));
  $("due").replaceChildren(...items);
  $("no-due").hidden = items.length > 0;
  // Your side (the hub says which the key plays): the move box only on your move.
  const going = !days.finished && !!days.to_move && days.you === days.to_move;
  $("move-form").hidden = !going;
  $("notice-line").hidden = !going;
  $("waiting").hidden = days.finished || going;
  $("waiting").textContent = days.you
    ? `Waiting for ${COLOURS[days.to_move]}'s move.`
    : "This key is not for a player of this game.";
  if (going) {
    const next = page.game.moves.length + 1;
    $("move-label").textContent =
      `Your move, ${COLOURS[days.to_move]}'s ${moveLabel(next, "").trim()} (in SAN)`;
  }
}

function show() {
  const { game } = page;
  const title = `${nameOf("white")} – ${nameOf("black")}`;
  $("game-title").textContent = title;
  document.title = `${title} · correspondence · chess-relay`;
  $("event-name").textContent = page.event ? page.event.name : "";
  const ply = game.moves.length;
  const last = ply ? `after ${moveLabel(ply, game.moves[ply - 1].san)}` : "the starting position";
  drawBoard($("board"), game.fen, { lastMove: game.last_move, label: `Position ${last}` });
  stateLines();
  for (const colour of ["white", "black"]) clockCard(colour);
  moveRows();
  playerDesk();
  stamp($("updated"));
}

async function load() {
  const [game, days] = await Promise.all([
    read(`/api/games/${page.id}`), read(`/api/correspondence/games/${page.id}`),
  ]);
  if (!page.event) {
    const events = await api("/api/correspondence", { auth: false });
    page.event = events.find((e) => e.tournament_id === days.tournament_id) || null;
  }
  Object.assign(page, { game, days });
  show();
}

async function refresh() {
  try {
    await load();
    $("problem").hidden = true;
  } catch (error) {
    $("problem").textContent = `This game cannot be shown: ${error.message}`;
    $("problem").hidden = false;
  }
}

function say(text, kind) {
  $("answer").textContent = text;
  $("answer").className = `answer ${kind}`;
}

function showFitting(fitting) {
  const items = (fitting || []).map((fit) => {
    const choose = el("button", "fit", fit.san);
    choose.type = "button";
    choose.addEventListener("click", () => {
      $("move-input").value = fit.san;
      $("move-input").focus();
    });
    const item = el("li");
    item.append(choose, el("span", "words", fit.words));
    return item;
  });
  $("fitting").replaceChildren(...items);
  $("fitting").hidden = items.length === 0;
}

// Run an action with its button held down, then read the game again.
async function act(button, work) {
  button.disabled = true;
  try {
    await work();
  } catch (error) {
    say(`Not sent: ${error instanceof TypeError ? "the hub cannot be reached" : error.message}`,
      "refused");
  } finally {
    button.disabled = false;
  }
  await refresh();
}

async function sendMove(event) {
  event.preventDefault();
  const text = $("move-input").value.trim();
  if (!text || !page.game) return;
  const ply = page.game.moves.length + 1;
  await act($("send-move"), async () => {
    const answer = await send(`/api/correspondence/games/${page.id}/moves`, {
      method: "POST", body: { ply, move: text },
    });
    if (answer.ok) {
      const move = moveLabel(answer.data.ply, answer.data.san);
      say(answer.data.repeated ? `${move} was sent already.` : `${move} sent.`, "done");
      $("move-input").value = "";
      showFitting([]);
      return;
    }
    const fits = answer.status === 422 ? answer.data && answer.data.fitting : [];
    const hint = fits && fits.length ? " Moves that fit:" : "";
    say(`Not sent: ${refusalWords(answer.status, answer.data)}.${hint}`, "refused");
    showFitting(fits);
  });
}

async function sendNotice() {
  await act($("send-notice"), async () => {
    const answer = await send(`/api/correspondence/games/${page.id}/notice`, { method: "POST" });
    if (!answer.ok) say(`Not sent: ${refusalWords(answer.status, answer.data)}.`, "refused");
    else if (answer.data.kept) say("Notice of delay sent for this move (C.3.1.B).", "done");
    else say("This move has a notice of delay already.", "done");
  });
}

function start() {
  page.key = playerKey();
  const id = param("game");
  if (!id || !/^\d+$/.test(id)) {
    $("problem").textContent = "Which game? Open this page as /correspondence?game=N.";
    $("problem").hidden = false;
    return;
  }
  page.id = Number(id);
  $("game-link").href = `/game?id=${page.id}`;
  $("pgn-link").href = `/api/games/${page.id}.pgn`;
  $("move-form").addEventListener("submit", sendMove);
  $("send-notice").addEventListener("click", sendNotice);
  refresh();
  setInterval(refresh, REFRESH_MS);
}

if (document.body.dataset.page === "correspondence") start();
