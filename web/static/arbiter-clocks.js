// The arbiter console's Clocks card: starting (now or at a time), pausing and resuming every
// clock of the round, a scheduled start, and what each board's clock answered.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $, el } from "/static/dom.js";
import { duration, timeOfDay } from "/static/time-text.js";
import { busy, call, explain } from "/static/arbiter-calls.js";
import { refreshGamesSoon } from "/static/arbiter-games.js";
import { state } from "/static/arbiter-state.js";
import { notice, tag } from "/static/arbiter-text.js";

// What a clock acknowledged; anything else needs the arbiter at the board.
export const DONE = new Set(["started", "paused", "resumed", "changed"]);
const ACTION_WORDS = { start: "Start", pause: "Pause", resume: "Resume" };

export async function refreshClocks() {
  if (!state.round) return;
  let clocks;
  try {
    clocks = await call(`/api/rounds/${state.round.id}/clocks`);
  } catch {
    return;
  }
  const scheduled = clocks.scheduled_at;
  $("schedule").hidden = !scheduled;
  if (scheduled) {
    const left = Math.max(0, scheduled - Date.now() / 1000);
    $("schedule-text").textContent = `Clocks start at ${timeOfDay(scheduled)} (in ${duration(Math.round(left))}).`;
  }
  // A scheduled start that has happened, or an action from another console.
  const mark = `${clocks.action}@${clocks.at}`;
  if (clocks.action && clocks.reports.length && mark !== state.lastClockAction) {
    state.lastClockAction = mark;
    showOutcomes(clocks.action, clocks.reports, clocks.at);
  }
}

function showOutcomes(action, reports, at) {
  const table = $("outcomes");
  const done = reports.filter((r) => DONE.has(r.outcome)).length;
  $("outcomes-caption").textContent =
    `${ACTION_WORDS[action] || action}: ${done} of ${reports.length} boards acknowledged · ${timeOfDay(at)}`;
  table.dataset.action = action;
  table.tBodies[0].replaceChildren(...reports.map((report) => {
    const row = el("tr");
    row.dataset.board = String(report.board);
    row.dataset.gameId = String(report.game_id);
    const board = el("th", null, String(report.board));
    board.scope = "row";
    const outcome = el("td", "outcome");
    outcome.append(tag(report.outcome, DONE.has(report.outcome) ? "ok" : "bad"));
    row.append(board, outcome, el("td", "detail", report.detail || ""));
    return row;
  }));
  table.hidden = false;
}

export async function clockAction(action, button) {
  const round = state.round;
  let body = {};
  if (action === "start" && $("start-at").value) {
    const at = new Date($("start-at").value);
    if (Number.isNaN(at.getTime())) {
      notice("The start time is not a time.", "error");
      return;
    }
    body = { at: at.toISOString() };
  }
  if (action === "pause") body = { reason: $("pause-reason").value.trim() };
  await busy(button, async () => {
    try {
      const answer = await call(`/api/rounds/${round.id}/clocks/${action}`, { method: "POST", body });
      if (answer.scheduled_at) {
        notice(`Clocks will start at ${timeOfDay(answer.scheduled_at)}.`, "ok");
        $("start-at").value = "";
        await refreshClocks();
        return;
      }
      state.lastClockAction = null;
      showOutcomes(answer.action, answer.reports, null);
      const failed = answer.reports.filter((r) => !DONE.has(r.outcome)).length;
      notice(failed ? `${failed} board(s) need the arbiter: see the clock outcomes.` : "", failed ? "error" : "");
    } catch (error) {
      notice(`${ACTION_WORDS[action]}: ${explain(error)}`, "error");
    }
  });
  refreshGamesSoon();
}

export async function cancelSchedule(button) {
  await busy(button, async () => {
    try {
      await call(`/api/rounds/${state.round.id}/clocks/schedule`, { method: "DELETE" });
      notice("The scheduled start is called off.", "ok");
    } catch (error) {
      notice(`Call off: ${explain(error)}`, "error");
    }
  });
  refreshClocks();
}
