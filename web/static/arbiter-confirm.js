// The confirmation step of a time change or a penalty on the arbiter console: what would
// change, in a dialog, until the proposal expires; confirmed, each change made and its
// clock's answer told. An ES module, no build.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { clockText } from "/static/relay.js";
import { $, columnHeads, el } from "/static/dom.js";
import { duration } from "/static/time-text.js";
import { call, explain } from "/static/arbiter-calls.js";
import { DONE } from "/static/arbiter-clocks.js";
import { refreshGamesSoon } from "/static/arbiter-games.js";
import { changeStatus, gameLabel, side } from "/static/arbiter-text.js";

const CAUSE_WORDS = {
  arbiter: "arbiter's decision", "illegal-move": "illegal move", "wrong-claim": "wrong claim",
  increment: "increment",
};

// Show what would change; true when the arbiter confirms before the change expires.
function confirmDialog(title, body, expires) {
  const dialog = $("confirm");
  $("confirm-title").textContent = title;
  $("confirm-body").replaceChildren(body);
  const ok = $("confirm-ok");
  ok.disabled = false;
  const expiry = $("confirm-expiry");
  const countdown = () => {
    const left = Math.round(expires - Date.now() / 1000);
    if (left <= 0) {
      expiry.textContent = "Expired: nothing was changed. Cancel and ask again.";
      ok.disabled = true;
    } else {
      expiry.textContent = `Confirm within ${duration(left)}; until then nothing changes.`;
    }
  };
  countdown();
  const timer = setInterval(countdown, 1000);
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      clearInterval(timer);
      resolve(dialog.returnValue === "confirm");
    }, { once: true });
    dialog.showModal();
    $("confirm-cancel").focus();
  });
}

function changeTable(game, changes) {
  const table = el("table", "change-table");
  table.append(el("caption", null, gameLabel(game)), el("thead"), el("tbody"));
  table.tHead.append(columnHeads(["Player", "Change", "Before", "After", "Why"]));
  for (const change of changes) {
    const row = el("tr", "change");
    row.dataset.player = change.player;
    const words = { add: "add", subtract: "subtract", set: "set to" }[change.change] || change.change;
    const before = el("td", "before", clockText(change.before));
    before.dataset.seconds = String(change.before);
    const after = el("td", "after", clockText(change.after));
    after.dataset.seconds = String(change.after);
    row.append(
      el("td", "player", side(game, change.player)),
      el("td", "amount", `${words} ${duration(change.seconds)}`),
      before, after,
      el("td", "why", `${CAUSE_WORDS[change.cause] || change.cause}: ${change.reason}`),
    );
    table.tBodies[0].append(row);
  }
  return table;
}

// The changes shown; made once confirmed. True when the arbiter confirmed.
export async function confirmChanges(game, changes, title, where) {
  const expires = Math.min(...changes.map((c) => c.expires));
  if (!await confirmDialog(title, changeTable(game, changes), expires)) {
    changeStatus("Cancelled: nothing was changed.", "", where);
    return false;
  }
  const lines = [];
  let failed = false;
  for (const change of changes) {
    try {
      const done = await call(`/api/clock-changes/${encodeURIComponent(change.token)}/confirm`, { method: "POST" });
      const outcome = done.clock ? done.clock.outcome : "recorded";
      failed ||= !DONE.has(outcome);
      lines.push(`${side(game, done.player)} now ${clockText(done.after)} (clock: ${outcome})`);
    } catch (error) {
      failed = true;
      lines.push(`${side(game, change.player)}: ${explain(error)}`);
    }
  }
  changeStatus(`Board ${game.board}: ${lines.join("; ")}.`, failed ? "error" : "ok", where);
  refreshGamesSoon();
  return true;
}
