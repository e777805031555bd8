// The arbiter's or operator's token, kept for the browser tab. An ES module, no build.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { addressWith, param } from "/static/address.js";

const KEY = "relay-token";

// From ?token= (kept for the tab), else the tab's own.
export function token() {
  const given = param("token");
  if (given) sessionStorage.setItem(KEY, given);
  return sessionStorage.getItem(KEY);
}

export function setToken(value) {
  if (value) sessionStorage.setItem(KEY, value);
  else sessionStorage.removeItem(KEY);
}

// A token given in the address is kept for the tab by token(); it should not stay in the
// address bar, the history or a screenshot.
export function dropTokenFromAddress() {
  if (!new URLSearchParams(location.search).has("token")) return;
  history.replaceState(null, "", addressWith({ token: null }));
}
