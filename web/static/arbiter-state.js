// What the arbiter console holds while it runs, shared by its cards.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

export const state = {
  round: null,
  rounds: [],
  tournaments: new Map(),
  games: new Map(),      // game id -> board summary, kept current by the stream
  health: new Map(),     // game id -> the last board health row
  rows: new Map(),       // game id -> { board, result } table rows and their cells
  follow: null,
  timers: [],
  seeded: false,
  lastClockAction: null,
  refreshPending: null,
  highlighted: [],
  tournamentId: null,    // the tournament the Pairings card pairs
  players: new Map(),    // start number -> player, for that tournament
  pairing: null,         // the round shown in the Pairings card, as the hub last answered
};
