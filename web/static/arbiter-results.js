// The arbiter console's Results card: a row per game with its result and how far it is
// (in play, proposed, provisional, verified); entering a result, verifying one.
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $, actionButton, el, option } from "/static/dom.js";
import { playerName } from "/static/players.js";
import { shownResult } from "/static/scores.js";
import { showClocks } from "/static/arbiter-boards.js";
import { busy, call, explain } from "/static/arbiter-calls.js";
import { state } from "/static/arbiter-state.js";
import { notice, tag } from "/static/arbiter-text.js";

const RESULTS = [["1-0", "1-0"], ["1/2-1/2", "½-½"], ["0-1", "0-1"], ["*", "* (reopen)"]];

// The game's row, added to the card: { result: the row, rcells: its cells and controls }.
export function resultRow(game) {
  const result = el("tr");
  result.id = `result-${game.id}`;
  result.tabIndex = -1;
  result.dataset.gameId = String(game.id);
  result.dataset.board = String(game.board);
  const rcells = {};
  for (const name of ["board", "white", "black", "result", "status", "entry", "verify"]) {
    rcells[name] = name === "board" ? el("th", "bd") : el("td", name);
    result.append(rcells[name]);
  }
  rcells.board.scope = "row";
  rcells.board.textContent = String(game.board);
  const form = el("form", "entry-form");
  const choice = el("select", "result-choice");
  choice.setAttribute("aria-label", `Result of board ${game.board}`);
  choice.append(...RESULTS.map(([value, label]) => option(value, label)));
  const reason = el("input", "result-reason");
  reason.placeholder = "reason";
  reason.setAttribute("aria-label", `Reason for the result of board ${game.board}`);
  const enter = el("button", "small enter", "Enter");
  enter.type = "submit";
  form.append(choice, reason, enter);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    enterResult(game.id, choice.value, reason, enter);
  });
  rcells.entry.append(form);
  const verify = actionButton("small verify", "Verify");
  verify.addEventListener("click", () => verifyResult(game.id, verify));
  rcells.verify.append(verify);
  rcells.verifyButton = verify;
  rcells.choice = choice;
  $("results").tBodies[0].append(result);
  return { result, rcells };
}

export function showResult(game) {
  const rows = state.rows.get(game.id);
  const { rcells } = rows;
  rcells.white.textContent = playerName(game.white);
  rcells.black.textContent = playerName(game.black);
  rcells.result.textContent = shownResult(game.result);
  rows.result.dataset.result = game.result;
  rows.result.dataset.verified = String(!!game.verified);
  let status;
  if (game.result !== "*") {
    status = game.verified ? tag("verified", "ok") : tag("provisional", "warn");
    if (!game.verified && game.termination) status.title = game.termination;
  } else if (game.proposed_result) {
    status = tag(`proposed ${shownResult(game.proposed_result)}`, "warn");
  } else if (game.draw_offer) {
    status = tag(`${game.draw_offer} offers a draw`, "info");
  } else {
    status = tag(game.ply ? `in play, move ${Math.floor((game.ply + 1) / 2)}` : "not started", "muted");
  }
  rcells.status.replaceChildren(status);
  const verify = rcells.verifyButton;
  verify.disabled = game.result === "*" || !!game.verified;
  verify.textContent = game.result === "*" ? "Verify" : `Verify ${shownResult(game.result)}`;
  if (game.proposed_result && game.result === "*") rcells.choice.value = game.proposed_result;
}

// The result changed here: its row, and the clocks it stops (or restarts).
function showChanged(game) {
  if (!state.rows.has(game.id)) return;
  showResult(game);
  showClocks(game);
}

async function enterResult(gameId, result, reasonInput, button) {
  const game = state.games.get(gameId);
  await busy(button, async () => {
    try {
      const changed = await call(`/api/games/${gameId}/result`, {
        method: "POST", body: { result, reason: reasonInput.value.trim() },
      });
      Object.assign(game, { result: changed.result, verified: changed.verified });
      reasonInput.value = "";
      showChanged(game);
      notice(`Board ${game.board}: result ${shownResult(changed.result)} entered${changed.result === "*" ? " (game reopened)" : ", provisional until verified"}.`, "ok");
    } catch (error) {
      notice(`Board ${game.board}: ${explain(error)}`, "error");
    }
  });
}

async function verifyResult(gameId, button) {
  const game = state.games.get(gameId);
  await busy(button, async () => {
    try {
      const changed = await call(`/api/games/${gameId}/verify`, {
        method: "POST", body: { result: game.result },
      });
      Object.assign(game, { result: changed.result, verified: changed.verified });
      notice(`Board ${game.board}: ${shownResult(changed.result)} verified.`, "ok");
    } catch (error) {
      notice(`Board ${game.board}: ${explain(error)}`, "error");
    }
  });
  showChanged(game);
}
