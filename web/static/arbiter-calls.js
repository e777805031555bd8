// How the arbiter console calls the hub: the API's words for a refusal, a call that notices
// a token refused mid-session, a button kept from acting twice.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { ApiError, api } from "/static/relay.js";

let onRefused = () => {};

// What to do when the hub refuses the token mid-session (sign the arbiter out).
export function whenRefused(handler) {
  onRefused = handler;
}

// The API's own words for a refusal (a validation error's list becomes one line).
export function explain(error) {
  if (error instanceof ApiError) {
    try {
      const detail = JSON.parse(error.message);
      if (Array.isArray(detail)) {
        return detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
      }
    } catch { /* plain words already */ }
    return error.message;
  }
  if (error instanceof TypeError) return "the hub cannot be reached";
  return error && error.message ? error.message : String(error);
}

// Every call the console makes: a token refused mid-session sends the arbiter back to sign in.
export async function call(path, options) {
  try {
    return await api(path, options);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) onRefused(error);
    throw error;
  }
}

// Disable the button while its action runs, so a double click does not act twice.
export async function busy(button, work) {
  button.disabled = true;
  try {
    return await work();
  } finally {
    button.disabled = false;
  }
}
