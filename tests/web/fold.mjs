// Folds stream messages into board summaries with the pages' own applyEvent, as a page
// does: reads {"cases": [{"start": summary, "steps": [{"message", "fresh"}]}]} on stdin and
// writes, for every step, the summary the page holds after it (a page whose summary went
// stale fetches it again: the step's "fresh" summary, the server's after that event).
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { register } from "node:module";

register("./static_hooks.mjs", import.meta.url);
const { applyEvent } = await import("/static/relay.js");

let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const { start, steps } of JSON.parse(input).cases) {
  let game = structuredClone(start);
  const seen = [];
  for (const { message, fresh } of steps) {
    const changed = applyEvent(game, message);
    const stale = !!game.stale;
    seen.push({ changed, stale, game: structuredClone(game) });
    if (stale) game = structuredClone(fresh);
  }
  out.push(seen);
}
process.stdout.write(JSON.stringify(out));
