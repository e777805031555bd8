// Times in words, and words as times. (Chess clock readings are relay.js's clockText.)
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

// "45 s", "2:00", "1:02:00".
export function duration(seconds) {
  if (seconds < 60) return `${seconds} s`;
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor(whole / 60) % 60;
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

// "3.2 s ago", "4 min ago", "2 h ago"; "never" for no time at all.
export function ago(seconds) {
  if (seconds === null || seconds === undefined) return "never";
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)} h ago`;
}

// The time of day of a Unix time (now, without one), to the second.
export function timeOfDay(unixSeconds) {
  const when = unixSeconds ? new Date(unixSeconds * 1000) : new Date();
  return when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// "120", "2:00" or "1:02:00" as seconds; null when it is none of those.
export function parseSeconds(text) {
  const value = text.trim();
  if (!/^\d+(\.\d+)?$|^\d+(:[0-5]?\d){1,2}(\.\d+)?$/.test(value)) return null;
  return value.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}
