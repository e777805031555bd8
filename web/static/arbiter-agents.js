// The arbiter console's Agents card: each venue agent (`relay agent`, docs/venue-agent.md)
// as the hub sees it: connected, silent (connected, but not heard for 2 s: a link that
// holds everything stays open until its pings time out), or away since when; when it was last heard; the last
// input the hub holds from it; the inputs waiting at the venue (its backlog, as it last said);
// its boards and whether a game follows each. Read every two
// seconds while the console is shown, so an outage at the venue shows at once. The card
// stays hidden while the hub has never heard of an agent.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $, el } from "/static/dom.js";
import { call, explain } from "/static/arbiter-calls.js";
import { ago } from "/static/time-text.js";

const EVERY_MS = 2000;

export function watchAgents() {
  const card = $("agents-card");
  if (!card) return;
  const heading = el("h2", null, "Venue agents");
  heading.id = "agents-heading";
  const list = el("ul", "agents");
  list.id = "agents-list";
  const status = el("p", "change-status");
  status.id = "agents-status";
  card.replaceChildren(heading, list, status);
  card.hidden = true;
  setInterval(refreshAgents, EVERY_MS);
  refreshAgents();
}

async function refreshAgents() {
  if ($("console").hidden) return;
  let agents;
  try {
    agents = await call("/api/agents");
  } catch (error) {
    $("agents-status").textContent = `Agents: ${explain(error)}`;
    return;
  }
  $("agents-status").textContent = "";
  $("agents-card").hidden = agents.length === 0;
  $("agents-list").replaceChildren(...agents.map(agentItem));
}

function agentItem(agent) {
  const now = Date.now() / 1000;
  const shown = agent.connected ? (agent.silent ? "silent" : "connected") : "away";
  const item = el("li", `agent ${shown}`);
  item.dataset.agent = agent.agent;
  const since = agent.since ? ago(now - agent.since) : "it started";
  const states = {
    connected: "connected",
    silent: "silent: its link is probably down",
    away: `away since ${since}`,
  };
  const state = states[shown];
  const heard = agent.last_heard ? `, last heard ${ago(now - agent.last_heard)}` : "";
  const line = el("p", "agent-line");
  line.append(
    el("strong", "agent-name", agent.agent),
    el("span", "agent-state", ` ${state}`),
    el("span", "muted", `${heard}; inputs held up to ${agent.acked}`),
  );
  if (agent.backlog > 0) {
    // What the agent holds beyond the hub's acknowledgement, as it last said.
    const when = agent.connected ? "" : " when last heard";
    line.append(el("span", "agent-backlog", `; ${agent.backlog} waiting at the venue${when}`));
  }
  const boards = el("ul", "agent-boards");
  for (const board of agent.boards) {
    const followed = board.followed ? "followed" : "no game follows it";
    boards.append(el("li", null, `board ${board.board} (${board.port}): ${followed}`));
  }
  item.append(line, boards);
  return item;
}
