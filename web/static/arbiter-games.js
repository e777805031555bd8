// The round's games on the arbiter console: their summaries, read from the hub and kept
// current by the round's stream, each shown as a row of the Boards card and one of the
// Results card, in the alerts and in the game choices.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { applyEvent } from "/static/relay.js";
import { alertForEvent, seedAlerts } from "/static/arbiter-alerts.js";
import { boardRow, showBoardGame, showClocks } from "/static/arbiter-boards.js";
import { call, explain } from "/static/arbiter-calls.js";
import { fillGameChoices } from "/static/arbiter-changes.js";
import { resultRow, showResult } from "/static/arbiter-results.js";
import { state } from "/static/arbiter-state.js";
import { notice } from "/static/arbiter-text.js";

export async function loadGames() {
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

// A game's row in the Boards card and its row in the Results card.
function addRows(game) {
  state.rows.set(game.id, { ...boardRow(game), ...resultRow(game) });
}

function showGame(game) {
  if (!state.rows.has(game.id)) return;
  showBoardGame(game);
  showResult(game);
  showClocks(game);
}

export function tick() {
  for (const game of state.games.values()) showClocks(game);
}

export function onMessage(message) {
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
  alertForEvent(game, message);
}

// Clock events change times the stream does not carry: read the summaries again, once.
export function refreshGamesSoon() {
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
