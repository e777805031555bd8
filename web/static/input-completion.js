// The game-input desk's completion: the legal moves (SAN, from the hub) that start with what
// was typed, as scoresheets write moves: with or without "x", "+", "#", "-", "=", zeros for
// the O of castling. An ES module, no build. Licence: GPL-3.0-or-later, like the rest of
// chess-relay.

// The letters that tell a move apart: no capture, check or promotion signs, O for 0.
export function moveKey(text) {
  return text.trim().replace(/0/g, "O").replace(/[x:+#!?=\-\s]/g, "");
}

// The legal moves that fit `typed`, at most `limit`: exact first, then by length and SAN. A
// capture written ("ex", "Nx") fits captures only.
export function completions(legal, typed, limit = 8) {
  const wanted = moveKey(typed);
  if (!wanted) return [];
  const capture = /[x:]/.test(typed);
  const fits = legal.filter((san) => moveKey(san).startsWith(wanted) && (!capture || san.includes("x")));
  fits.sort((a, b) => {
    const exact = Number(moveKey(b) === wanted) - Number(moveKey(a) === wanted);
    return exact || moveKey(a).length - moveKey(b).length || a.localeCompare(b);
  });
  return fits.slice(0, limit);
}

// The legal move `typed` names exactly (the same letters), or null.
export function exactMove(legal, typed) {
  const wanted = moveKey(typed);
  return legal.find((san) => moveKey(san) === wanted) || null;
}
