// The arbiter console's Time change and Penalty cards: a change to a player's time, or the
// Laws' penalty for an illegal move or a wrong claim, asked of the hub and made once the
// arbiter confirms it (arbiter-confirm.js).
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $, option } from "/static/dom.js";
import { parseSeconds } from "/static/time-text.js";
import { busy, call, explain } from "/static/arbiter-calls.js";
import { confirmChanges } from "/static/arbiter-confirm.js";
import { state } from "/static/arbiter-state.js";
import { changeStatus, gameLabel, side } from "/static/arbiter-text.js";

// The cards' game choices (Time change, Penalty, Corrections), from the round's games;
// the game chosen stays chosen.
export function fillGameChoices() {
  for (const id of ["change-game", "penalty-game", "correct-game"]) {
    const select = $(id);
    const chosen = select.value;
    const games = [...state.games.values()].sort((a, b) => a.board - b.board);
    select.replaceChildren(...games.map((game) => option(game.id, gameLabel(game))));
    if (chosen) select.value = chosen;
  }
  namePlayers();
}

// The player choices carry the names of the chosen game's players.
export function namePlayers() {
  const game = state.games.get(Number($("change-game").value));
  if (game) {
    for (const choice of $("change-player").options) choice.textContent = side(game, choice.value);
  }
  const other = state.games.get(Number($("penalty-game").value));
  if (other) {
    for (const choice of $("penalty-claimant").options) choice.textContent = side(other, choice.value);
  }
}

export function showClaimant() {
  $("claimant-label").hidden = $("penalty-kind").value !== "wrong-claim";
}

// The Penalty card, ready for the penalty of `kind` on a game (from an alert): the illegal
// move just completed, or a wrong draw claim by `claimant` ("white" or "black"; when it is not
// known, the arbiter chooses).
export function choosePenalty(gameId, kind = "illegal-move", claimant = null) {
  $("penalty-game").value = String(gameId);
  $("penalty-kind").value = kind;
  if (claimant) $("penalty-claimant").value = claimant;
  showClaimant();
  namePlayers();
  $("penalty-form").scrollIntoView({ block: "center" });
  $("penalty-game").focus();
}

export async function proposeChange(event) {
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

export async function proposePenalty(event) {
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
