// The Pairings card's side forms on the arbiter console: a bye asked for in a round, and a
// withdrawal after a round (or back in), which shape the rounds the hub pairs next.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $ } from "/static/dom.js";
import { busy, call, explain } from "/static/arbiter-calls.js";
import { BYE_WORDS, entrant } from "/static/arbiter-pairing-table.js";
import { showPairing } from "/static/arbiter-pairings.js";
import { rereadRounds } from "/static/arbiter-round.js";
import { state } from "/static/arbiter-state.js";
import { changeStatus, notice } from "/static/arbiter-text.js";

function wholeNumber(input) {
  const value = Number(input.value);
  return input.value.trim() && Number.isInteger(value) ? value : null;
}

export async function recordBye(event) {
  event.preventDefault();
  const button = event.submitter || $("bye-form").querySelector("button");
  const number = wholeNumber($("bye-round"));
  const player = wholeNumber($("bye-player"));
  if (number === null || player === null) {
    changeStatus("Bye: give the round and the player's start number.", "error", "entries-status");
    return;
  }
  const kind = $("bye-kind").value || null;
  await busy(button, async () => {
    try {
      await call(`/api/tournaments/${state.tournamentId}/rounds/${number}/byes/${player}`, {
        method: "PUT", body: { kind },
      });
    } catch (error) {
      changeStatus(`Bye for ${player}: ${explain(error)}`, "error", "entries-status");
      return;
    }
    const who = entrant(player) || `player ${player}`;
    changeStatus(kind
      ? `Round ${number}: ${BYE_WORDS[kind]} for ${who}.`
      : `Round ${number}: ${who} has no bye asked for.`, "ok", "entries-status");
    $("bye-player").value = "";
    try {
      await rereadRounds();
      if (state.pairing && state.pairing.number === number) {
        showPairing(await call(`/api/rounds/${state.pairing.round_id}/pairings`));
      }
    } catch (error) {
      notice(`Could not read the rounds: ${explain(error)}`, "error");
    }
  });
}

export async function recordWithdrawal(event) {
  event.preventDefault();
  const button = event.submitter || $("withdraw-form").querySelector("button");
  const player = wholeNumber($("withdraw-player"));
  const after = $("withdraw-after").value.trim() ? wholeNumber($("withdraw-after")) : null;
  if (player === null || ($("withdraw-after").value.trim() && after === null)) {
    changeStatus("Withdrawal: give the player's start number and the last round played.", "error", "entries-status");
    return;
  }
  await busy(button, async () => {
    try {
      await call(`/api/tournaments/${state.tournamentId}/players/${player}/withdrawal`, {
        method: "PUT", body: { after_round: after },
      });
    } catch (error) {
      changeStatus(`Withdrawal of ${player}: ${explain(error)}`, "error", "entries-status");
      return;
    }
    const who = entrant(player) || `player ${player}`;
    changeStatus(after === null
      ? `${who} is back in the tournament.`
      : `${who} withdraws after round ${after}: not paired from round ${after + 1}.`, "ok", "entries-status");
    $("withdraw-player").value = "";
    $("withdraw-after").value = "";
  });
}
