// The arbiter console's Outputs card: every output the event file asked for (a lichess
// broadcast, an export folder, FTP, the LiveChess feed; docs/outputs.md), one status line
// each: where it goes, its last success, and while it fails, why and when it tries again.
// Read every two seconds while the console is shown. The card stays hidden while the hub
// runs no output.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $, el } from "/static/dom.js";
import { call, explain } from "/static/arbiter-calls.js";
import { ago } from "/static/time-text.js";

const EVERY_MS = 2000;

export function watchOutputs() {
  const card = $("outputs-card");
  if (!card) return;
  const heading = el("h2", null, "Outputs");
  heading.id = "outputs-heading";
  const list = el("ul", "outputs");
  list.id = "outputs-list";
  const status = el("p", "change-status");
  status.id = "outputs-status";
  card.replaceChildren(heading, list, status);
  card.hidden = true;
  setInterval(refreshOutputs, EVERY_MS);
  refreshOutputs();
}

async function refreshOutputs() {
  if ($("console").hidden) return;
  let outputs;
  try {
    outputs = await call("/api/outputs");
  } catch (error) {
    $("outputs-status").textContent = `Outputs: ${explain(error)}`;
    return;
  }
  $("outputs-status").textContent = "";
  $("outputs-card").hidden = outputs.length === 0;
  $("outputs-list").replaceChildren(...outputs.map(outputItem));
}

function outputItem(output) {
  const now = Date.now() / 1000;
  const item = el("li", `output ${output.state}`);
  item.dataset.kind = output.kind;
  const line = el("p", "output-line");
  line.append(
    el("strong", "output-kind", output.kind),
    el("span", "muted", ` ${output.target}: `),
    el("span", "output-state", stateWords(output, now)),
  );
  item.append(line);
  if (output.line) {
    const last = output.last_ok_at ? ` (${ago(now - output.last_ok_at)})` : "";
    item.append(el("p", "output-last muted", `last: ${output.line}${last}`));
  }
  return item;
}

function stateWords(output, now) {
  if (output.state === "retrying") {
    const next = output.next_try_at ? Math.max(0, Math.round(output.next_try_at - now)) : 0;
    const failures = output.failures === 1 ? "1 failure" : `${output.failures} failures`;
    return `failing (${failures}): ${output.error}; next try in ${next} s`;
  }
  if (output.state === "waiting") return "nothing sent yet";
  const pending = output.pending ? `, ${output.pending} round(s) to send` : "";
  return `working${pending}`;
}
