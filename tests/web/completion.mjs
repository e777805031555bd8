// Runs the game-input desk's completion (web/static/input-completion.js) under Node: reads
// {"cases": [{"legal": [...], "typed": "..."}]} on stdin and writes, per case, the
// completions and the exact move.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { register } from "node:module";

register("./static_hooks.mjs", import.meta.url);
const { completions, exactMove } = await import("/static/input-completion.js");

let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).cases.map(({ legal, typed }) => ({
  completions: completions(legal, typed),
  exact: exactMove(legal, typed),
}));
process.stdout.write(JSON.stringify(out));
