// Results as points and as words. An ES module, no build.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

// Points for White and Black by result, as the standings count them.
export const SCORES = { "1-0": [1, 0], "0-1": [0, 1], "1/2-1/2": [0.5, 0.5] };

// A result as shown: "½-½" for a draw; the others as they are ("1-0", "0-1", "*").
export function shownResult(result) {
  return result === "1/2-1/2" ? "½-½" : result;
}

// 1.5 as "1½", 0.5 as "½".
export function points(value) {
  if (value === null || value === undefined) return "";
  const whole = Math.floor(value);
  const half = value - whole >= 0.5;
  if (!half) return String(whole);
  return whole ? `${whole}½` : "½";
}
