// Signing in to the arbiter console and out of it, and opening the console once signed in.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { ApiError, api } from "/static/relay.js";
import { $ } from "/static/dom.js";
import { dropTokenFromAddress, setToken } from "/static/token.js";
import { clearAlerts } from "/static/arbiter-alerts.js";
import { busy, explain } from "/static/arbiter-calls.js";
import { openPairings } from "/static/arbiter-pairings.js";
import {
  loadRounds, showRoundParts, startRound, stopRound,
} from "/static/arbiter-round.js";
import { state } from "/static/arbiter-state.js";
import { notice } from "/static/arbiter-text.js";

// The console's routes need an arbiter: one cheap arbiter read tells whether the token may.
async function checkToken() {
  try {
    await api("/api/audit?limit=1");
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      return `Token refused: ${explain(error)}. Check that it was copied whole, or ask for a new one.`;
    }
    if (error instanceof ApiError && error.status === 403) {
      return `This token cannot use the arbiter console: ${explain(error)}.`;
    }
    return `Could not check the token: ${explain(error)}.`;
  }
}

export function showLogin(message = "") {
  $("console").hidden = true;
  $("login").hidden = false;
  $("sign-out").hidden = true;
  $("status").hidden = true;
  $("round-choice").hidden = true;
  $("who").textContent = "";
  $("login-error").textContent = message;
  $("token-input").value = "";
  $("token-input").focus();
}

export async function signIn(event) {
  event.preventDefault();
  const given = $("token-input").value.trim();
  if (!given) return;
  const button = event.submitter || $("login-form").querySelector("button");
  await busy(button, async () => {
    $("login-error").textContent = "";
    setToken(given);
    await enter();
  });
}

// Open the console with the tab's token, or back to the login with the reason it failed.
export async function enter() {
  const refused = await checkToken();
  if (refused) {
    setToken(null);
    showLogin(refused);
    return;
  }
  await openConsole();
}

export function signOut(message = "") {
  stopConsole();
  setToken(null);
  dropTokenFromAddress();
  showLogin(message);
}

function stopConsole() {
  stopRound();
  clearAlerts();
  state.pairing = null;
  state.tournamentId = null;
  state.players.clear();
}

async function openConsole() {
  $("login").hidden = true;
  $("console").hidden = false;
  $("sign-out").hidden = false;
  $("status").hidden = false;
  $("who").textContent = "Signed in · arbiter";
  notice("");
  try {
    await loadRounds();
  } catch (error) {
    notice(`Could not read the rounds: ${explain(error)}`, "error");
    return;
  }
  await openPairings();
  showRoundParts();
  if (!state.round) {
    notice("No round yet: pair the first one in the Pairings card.");
    return;
  }
  await startRound();
}
