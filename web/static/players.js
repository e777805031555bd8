// How the pages name players and tell them apart. An ES module, no build.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

export function playerName(player) {
  if (!player) return "?";
  return player.title ? `${player.title} ${player.name}` : player.name;
}

// "2250 · NOR": rating and federation, as far as they are known.
export function playerDetails(player) {
  if (!player) return "";
  return [player.rating, player.federation].filter(Boolean).join(" · ");
}

// Game summaries name their players without a start number: everything a summary and the
// starting list both show of a player, as one key.
export function playerKey(p) {
  return JSON.stringify([p.name, p.title ?? null, p.rating ?? null, p.fide_id ?? null,
    p.federation ?? null, p.team ?? null]);
}
