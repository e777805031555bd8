// The arbiter console's Pairings card: the next round paired by the hub, checked against
// its warnings, edited, saved and published. It pairs the tournament of the round on screen
// (or the only one) and opens on that tournament's newest round.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $, el } from "/static/dom.js";
import { busy, call, explain } from "/static/arbiter-calls.js";
import { byeRow, editedPairing, gameRow, showByesEmpty } from "/static/arbiter-pairing-table.js";
import { rereadRounds, showRound, startRound, stopRound } from "/static/arbiter-round.js";
import { state } from "/static/arbiter-state.js";
import { changeStatus, notice, tag } from "/static/arbiter-text.js";

export async function openPairings() {
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

export function showPairingHeader() {
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
export function showPairing(pairing) {
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

// "Undo changes": the rows as the hub last answered.
export function undoPairings() {
  showPairing(state.pairing);
  pairingsStatus("Changes undone: the pairings are as saved.");
}

export async function pairNext(button) {
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

export async function savePairings(event) {
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

export async function publishPairing(button) {
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
