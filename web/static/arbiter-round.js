// The round on the arbiter console: the header's round chooser, the Round card (published
// or not), and following the round chosen (its games, boards, clocks and stream).
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { Follow } from "/static/relay.js";
import { param } from "/static/address.js";
import { $, liveStatus, option } from "/static/dom.js";
import { duration } from "/static/time-text.js";
import { refreshBoards } from "/static/arbiter-boards.js";
import { busy, call, explain } from "/static/arbiter-calls.js";
import { refreshClocks } from "/static/arbiter-clocks.js";
import { loadGames, onMessage, tick } from "/static/arbiter-games.js";
import { showPairingHeader } from "/static/arbiter-pairings.js";
import { state } from "/static/arbiter-state.js";
import { notice } from "/static/arbiter-text.js";

const BOARDS_EVERY_MS = 2000;
const CLOCKS_EVERY_MS = 5000;

// Without a round there is nothing to run: only the Pairings card is shown.
export function showRoundParts() {
  $("round-top").hidden = !state.round;
  $("round-columns").hidden = !state.round;
}

// Follow the chosen round: its games, boards, clocks and stream.
export async function startRound() {
  try {
    await loadGames();
  } catch (error) {
    notice(`Could not read the games: ${explain(error)}`, "error");
  }
  await Promise.all([refreshBoards(), refreshClocks()]);
  const roundId = state.round.id;
  state.follow = new Follow(`/api/rounds/${roundId}/stream`, onMessage, liveStatus("offline"));
  state.timers.push(setInterval(refreshBoards, BOARDS_EVERY_MS));
  state.timers.push(setInterval(refreshClocks, CLOCKS_EVERY_MS));
  state.timers.push(setInterval(tick, 1000));
}

// Let go of the round on screen: its timers, its stream, its rows.
export function stopRound() {
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

export async function loadRounds() {
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
  select.replaceChildren(...rounds.map((r) => option(r.id, roundName(r), round && r.id === round.id)));
  // With a choice of rounds the choice names the round; the title would say it twice.
  $("round-choice").hidden = rounds.length < 2;
  $("round-title").hidden = rounds.length >= 2;
  showRound();
}

// Read the rounds again (one was paired, or made for a bye): the chooser lists it, and a
// console that had no round to run starts on it.
export async function rereadRounds() {
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

export function showRound() {
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

export async function togglePublished(button) {
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
