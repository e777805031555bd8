// The Tournament Secretary's list of a correspondence event (docs/correspondence.md):
// what is due today in its games and whether the hub has done it, each game linked to its
// page, and "Act now" (the hub's sweep) showing what was done. Signs in with an arbiter's
// token, kept for the tab as the arbiter console keeps it; read again every 60 s.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.
import { ApiError, api } from "/static/relay.js";
import { param } from "/static/address.js";
import { $, el, stamp } from "/static/dom.js";
import { dropTokenFromAddress, setToken, token } from "/static/token.js";
import { busy, call, explain, whenRefused } from "/static/arbiter-calls.js";
import { COLOURS, dueWords } from "/static/correspondence.js";

const REFRESH_MS = 60_000;
const desk = { event: null, timer: null };

function notice(text, kind = "") {
  $("notice").textContent = text;
  $("notice").className = `notice ${kind}`;
}

function gameLink(gameId) {
  const link = el("a", "game", `Game ${gameId}`);
  link.href = `/correspondence?game=${gameId}`;
  return link;
}

function row(item) {
  const tr = el("tr", item.done_on ? "done" : "to-do");
  tr.dataset.game = String(item.game_id);
  tr.dataset.kind = item.due.kind;
  const game = el("td", "game");
  game.append(gameLink(item.game_id));
  const what = el("td", "what", dueWords(item.due.kind));
  what.title = item.due.kind;
  tr.append(
    game,
    el("td", "white", item.white),
    el("td", "black", item.black),
    what,
    el("td", "since", item.due.since),
    el("td", "side", COLOURS[item.due.side] || item.due.side),
    el("td", "article", item.due.article),
    el("td", "done-on", item.done_on || "not yet"),
  );
  return tr;
}

function draw(items) {
  $("due").tBodies[0].replaceChildren(...items.map(row));
  $("nothing-due").hidden = items.length > 0;
  const open = items.filter((item) => !item.done_on).length;
  $("due-count").textContent = `${items.length} due today, ${open} not yet done.`;
  stamp($("updated"));
}

function drawActed(items) {
  const lines = items.map((item) => el("li", "acted-item",
    `Game ${item.game_id} (${item.white} – ${item.black}): ${dueWords(item.due.kind)}, `
    + `${COLOURS[item.due.side] || item.due.side}, ${item.due.article}, done on ${item.done_on}`));
  if (!lines.length) lines.push(el("li", "note", "Nothing was left to do."));
  $("acted").replaceChildren(...lines);
  $("acted-card").hidden = false;
}

const dueUrl = () => `/api/correspondence/${desk.event}/due`;

async function reload() {
  try {
    draw(await call(dueUrl()));
  } catch (error) {
    notice(`Could not read the list: ${explain(error)}`, "error");
  }
}

async function actNow() {
  await busy($("act-now"), async () => {
    try {
      const acted = await call(`/api/correspondence/${desk.event}/sweep`, { method: "POST" });
      drawActed(acted);
      notice(acted.length ? `Done: ${acted.length}.` : "Nothing was left to do.", "ok");
    } catch (error) {
      notice(`The hub could not act: ${explain(error)}`, "error");
    }
    await reload();
  });
}

function showLogin(message = "") {
  clearInterval(desk.timer);
  $("desk").hidden = true;
  $("login").hidden = false;
  $("sign-out").hidden = true;
  $("who").textContent = "";
  $("login-error").textContent = message;
  $("token-input").value = "";
  $("token-input").focus();
}

// The list with the tab's token, or back to signing in with the reason it failed.
async function enter() {
  let items;
  try {
    items = await api(dueUrl());
  } catch (error) {
    const refused = error instanceof ApiError && (error.status === 401 || error.status === 403);
    if (refused) setToken(null);
    if (error instanceof ApiError && error.status === 401) {
      showLogin(`Token refused: ${explain(error)}. Check that it was copied whole.`);
    } else if (error instanceof ApiError && error.status === 403) {
      showLogin(`This token cannot read the list: ${explain(error)}.`);
    } else {
      showLogin(`Could not read the list: ${explain(error)}.`);
    }
    return;
  }
  dropTokenFromAddress();
  $("login").hidden = true;
  $("desk").hidden = false;
  $("sign-out").hidden = false;
  $("who").textContent = "Signed in · arbiter";
  notice("");
  draw(items);
  clearInterval(desk.timer);
  desk.timer = setInterval(reload, REFRESH_MS);
}

async function nameEvent() {
  try {
    const events = await api("/api/correspondence", { auth: false });
    const event = events.find((e) => e.tournament_id === desk.event);
    if (!event) return;
    $("event-name").textContent = `${event.name} (${event.control}, started ${event.started})`;
    document.title = `${event.name}: due today · chess-relay`;
  } catch {
    // the list still works without the event's name
  }
}

function start() {
  const given = param("event");
  if (!given || !/^\d+$/.test(given)) {
    $("problem").textContent = "Which event? Open this page as /correspondence-due?event=N.";
    $("problem").hidden = false;
    return;
  }
  desk.event = Number(given);
  whenRefused(() => showLogin("The token was refused: sign in again."));
  $("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const typed = $("token-input").value.trim();
    if (!typed) return;
    $("login-error").textContent = "";
    setToken(typed);
    await enter();
  });
  $("sign-out").addEventListener("click", () => {
    setToken(null);
    dropTokenFromAddress();
    showLogin();
  });
  $("act-now").addEventListener("click", actNow);
  nameEvent();
  if (token()) enter();
  else showLogin();
}

start();
