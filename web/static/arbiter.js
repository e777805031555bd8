// The arbiter's console for one round: every board and its health, the round's clocks,
// time changes and penalties with a confirmation step, an alerts feed from the round's
// stream, results and their verification, and publishing the round; between rounds, the
// next round paired by the hub, checked, edited and published, and byes and withdrawals.
// This module starts it; each card is a module of its own (arbiter-*.js), and the cards
// call one another only once the page runs, so their imports may go both ways.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { reopenWith } from "/static/address.js";
import { $ } from "/static/dom.js";
import { dropTokenFromAddress, token } from "/static/token.js";
import { explain, whenRefused } from "/static/arbiter-calls.js";
import { namePlayers, proposeChange, proposePenalty, showClaimant } from "/static/arbiter-changes.js";
import { cancelSchedule, clockAction } from "/static/arbiter-clocks.js";
import {
  applyProposal, cancelCorrection, checkScore, confirmCorrection, gameChosen, loadMoves,
  reviewEdit, useProposal,
} from "/static/arbiter-corrections.js";
import { recordBye, recordWithdrawal } from "/static/arbiter-entries.js";
import { watchAgents } from "/static/arbiter-agents.js";
import { watchOutputs } from "/static/arbiter-outputs.js";
import { watchNames } from "/static/arbiter-names.js";
import { addBye } from "/static/arbiter-pairing-table.js";
import { pairNext, publishPairing, savePairings, undoPairings } from "/static/arbiter-pairings.js";
import { togglePublished } from "/static/arbiter-round.js";
import { enter, showLogin, signIn, signOut } from "/static/arbiter-session.js";

function wire() {
  // A token refused mid-session sends the arbiter back to sign in; an answer to a request
  // sent before the arbiter signed out changes nothing.
  whenRefused((error) => {
    if (token()) signOut(`Signed out: ${explain(error)}.`);
  });
  $("login-form").addEventListener("submit", signIn);
  $("sign-out").addEventListener("click", () => signOut("Signed out."));
  $("round-select").addEventListener("change", (event) => reopenWith("round", event.target.value));
  $("publish").addEventListener("click", (event) => togglePublished(event.currentTarget));
  $("start-all").addEventListener("click", (event) => clockAction("start", event.currentTarget));
  $("pause-all").addEventListener("click", (event) => clockAction("pause", event.currentTarget));
  $("resume-all").addEventListener("click", (event) => clockAction("resume", event.currentTarget));
  $("cancel-schedule").addEventListener("click", (event) => cancelSchedule(event.currentTarget));
  $("change-form").addEventListener("submit", proposeChange);
  $("penalty-form").addEventListener("submit", proposePenalty);
  $("change-game").addEventListener("change", namePlayers);
  $("penalty-game").addEventListener("change", namePlayers);
  $("penalty-kind").addEventListener("change", showClaimant);
  $("pair-next").addEventListener("click", (event) => pairNext(event.currentTarget));
  $("publish-pairings").addEventListener("click", (event) => publishPairing(event.currentTarget));
  $("pairings-form").addEventListener("submit", savePairings);
  $("undo-pairings").addEventListener("click", undoPairings);
  $("add-bye").addEventListener("click", addBye);
  $("bye-form").addEventListener("submit", recordBye);
  $("withdraw-form").addEventListener("submit", recordWithdrawal);
  watchNames();
  watchAgents();
  watchOutputs();
  $("correct-game").addEventListener("change", gameChosen);
  $("score-check-form").addEventListener("submit", checkScore);
  $("edit-form").addEventListener("submit", reviewEdit);
  $("edit-load").addEventListener("click", loadMoves);
  $("apply-proposal").addEventListener("click", applyProposal);
  $("use-proposal").addEventListener("click", useProposal);
  $("correction-ok").addEventListener("click", confirmCorrection);
  $("correction-cancel").addEventListener("click", cancelCorrection);
}

async function main() {
  wire();
  const held = token();
  dropTokenFromAddress();
  if (!held) {
    showLogin();
    return;
  }
  await enter();
}

main();
