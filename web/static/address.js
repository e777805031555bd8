// The page's address: what its query asks for, and the same address with changes.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

export function param(name) {
  return new URLSearchParams(location.search).get(name);
}

// This page's path and query with some parameters set, or taken out (null).
export function addressWith(changes) {
  const query = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) query.delete(name);
    else query.set(name, value);
  }
  const suffix = query.toString();
  return `${location.pathname}${suffix ? `?${suffix}` : ""}`;
}

// Open this page again with one parameter of its query changed (a round or tournament chosen).
export function reopenWith(name, value) {
  const query = new URLSearchParams(location.search);
  query.set(name, value);
  location.search = query.toString();
}
