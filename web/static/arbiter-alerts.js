// The arbiter console's Alerts card: what the round's stream and the boards' health call the
// arbiter to, newest first, with a jump to the board (and to a penalty for an illegal move).
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $, actionButton, el } from "/static/dom.js";
import { shownResult } from "/static/scores.js";
import { duration, timeOfDay } from "/static/time-text.js";
import { choosePenalty } from "/static/arbiter-changes.js";
import { openRepairs, proposeOrder } from "/static/arbiter-corrections.js";
import { moveLabel } from "/static/relay.js";
import { state } from "/static/arbiter-state.js";

const ALERTS_KEPT = 200;
const ALERT_KINDS = new Set([
  "alert", "illegal-move", "claims", "flag", "result-proposed", "draw", "end",
]);
const ALERT_WORDS = {
  "illegal-position": "illegal position on the board",
  "position-restored": "the board is back on the game's position",
  "pawn-on-last-rank": "a pawn stands on the last rank (7.5.2)",
  "promotion-assumed": "a promotion was taken as a queen: check the piece",
  "dead-position": "possibly a dead position",
  "both-flags": "both flags have fallen",
  "draw-claim": "a correct draw claim on the scoresheet: end the game drawn",
  "wrong-claim": "a wrong draw claim: two minutes to the opponent (9.5.3), one in rapid and blitz",
  "uncertain-order": "moves caught up in an order the board cannot confirm",
};
// Alerts that get a kind of their own in the feed (and the buttons that go with it).
const OWN_KIND = new Set(["illegal-position", "wrong-claim", "uncertain-order"]);

// An event of the round's stream, applied to `game`: an alert when it is one to show.
export function alertForEvent(game, message) {
  if (!ALERT_KINDS.has(message.kind)) return;
  const [level, text] = describe(message.kind, message.data);
  const kind = message.kind === "alert" && OWN_KIND.has(message.data.alert)
    ? message.data.alert : message.kind;
  if (!text) return;
  const item = addAlert(game.id, level, text, message.data.at, kind);
  // What the board showed, for the Corrections card: "board <placement> differs from ...".
  const shown = kind === "illegal-position" ? /^board (\S+) differs/.exec(message.data.detail || "") : null;
  if (shown) item.dataset.board = shown[1];
  // Who claimed: "White claims a draw by ...".
  const claimant = kind === "wrong-claim" ? /^(White|Black) claims/.exec(message.data.detail || "") : null;
  if (claimant) item.dataset.claimant = claimant[1].toLowerCase();
  if (kind === "uncertain-order") offerOrders(item, game.id, message.data);
}

// One button per other order the board fits: the correction, to review and confirm.
function offerOrders(item, gameId, d) {
  const head = item.querySelector(".alert-head");
  for (const order of d.orders || []) {
    const words = order.map((san, index) => {
      const ply = d.ply + index;
      return ply % 2 === 1 || index === 0 ? moveLabel(ply, san) : san;
    }).join(" ");
    const use = actionButton("small correct", `Use ${words}…`);
    use.addEventListener("click", () => proposeOrder(gameId, d.ply, order));
    head.append(use);
  }
}

// What was already waiting when the console opened.
export function seedAlerts(games) {
  for (const game of games) {
    if (game.proposed_result && game.result === "*") {
      addAlert(game.id, "warn", `result ${shownResult(game.proposed_result)} shown on the board: enter it`, null, "result-proposed");
    }
    if (game.draw_offer) addAlert(game.id, "info", `${game.draw_offer} offers a draw`, null, "draw");
    if (game.clock && game.clock.flag) {
      addAlert(game.id, "bad", `${game.clock.flag.player}'s flag fell`, game.clock.flag.at, "flag");
    }
    if (game.result !== "*" && !game.verified) {
      addAlert(game.id, "warn", `result ${shownResult(game.result)} waits for verification`, null, "end");
    }
  }
}

// An event as the arbiter reads it: [level, words]; no words means nothing to show.
function describe(kind, d) {
  switch (kind) {
    case "alert": {
      const words = ALERT_WORDS[d.alert] || d.alert;
      const level = d.alert === "position-restored" ? "info"
        : d.alert === "uncertain-order" ? "warn" : "bad";
      return [level, d.detail ? `${words}: ${d.detail}` : words];
    }
    case "illegal-move": {
      const penalty = d.penalty === "loss" ? "the game is lost" : `${duration(d.seconds)} for the opponent`;
      return ["bad", `${d.player} completed illegal move ${d.count}: ${penalty}${d.reason ? ` (${d.reason})` : ""}`];
    }
    case "claims": {
      if (!d.claims || !d.claims.length) return ["info", ""];
      const rule = (c) => (c.rule === "threefold" ? "threefold repetition" : "fifty-move rule");
      return ["warn", d.claims.map((c) => (c.now
        ? `${rule(c)} claimable now`
        : `${rule(c)} claimable with ${c.moves.join(" or ")}`)).join("; ")];
    }
    case "flag":
      return ["bad", `${d.player}'s flag fell`];
    case "result-proposed":
      return ["warn", `result ${shownResult(d.result)} shown on the board (${d.gesture}): enter it`];
    case "draw": {
      const words = { offer: "offers a draw", accept: "accepts the draw: ½-½ to confirm", decline: "declines the draw", withdraw: "withdraws the draw offer" };
      return [d.action === "accept" ? "warn" : "info", `${d.player} ${words[d.action] || d.action}`];
    }
    case "end":
      return ["warn", `game over, ${shownResult(d.result)}: ${d.termination}; verify it`];
    default:
      return ["info", ""];
  }
}

export function addAlert(gameId, level, text, at, kind = "board") {
  const game = state.games.get(gameId);
  const item = el("li", `alert ${level}`);
  item.dataset.gameId = String(gameId);
  item.dataset.kind = kind;
  item.dataset.at = String(at || Date.now() / 1000);
  const head = el("div", "alert-head");
  head.append(el("time", "when", timeOfDay(at)), el("strong", "which", game ? `Board ${game.board}` : `Game ${gameId}`));
  const jump = actionButton("small jump", "Jump to board");
  jump.addEventListener("click", () => jumpTo(gameId));
  head.append(jump);
  item.append(head, el("p", "what", text));
  if (kind === "illegal-move" || kind === "wrong-claim") {
    const penalty = actionButton("small", "Penalty…");
    penalty.addEventListener("click", () => choosePenalty(gameId, kind, item.dataset.claimant || null));
    head.append(penalty);
  }
  if (kind === "illegal-move" || kind === "illegal-position") {
    // Accept the board's position, set the board back, or edit the moves (Corrections card).
    const correct = actionButton("small correct", "Correct…");
    correct.addEventListener("click", () => openRepairs(gameId, item.dataset.board || null));
    head.append(correct);
  }
  const list = $("alerts");
  list.prepend(item);
  while (list.children.length > ALERTS_KEPT) list.lastElementChild.remove();
  updateAlertCount();
  return item;
}

// A board's trouble that is gone (connected again, followed, its battery changed): its
// alert goes too, so the card lists what still needs the arbiter.
export function clearBoardAlerts(gameId, keep) {
  for (const item of $("alerts").querySelectorAll(`li[data-kind="board"][data-game-id="${gameId}"]`)) {
    if (item.dataset.trouble && !keep.has(item.dataset.trouble)) item.remove();
  }
  updateAlertCount();
}

function updateAlertCount() {
  const count = $("alerts").children.length;
  $("alert-count").textContent = String(count);
  $("no-alerts").hidden = count > 0;
}

// Signed out: the feed starts again empty.
export function clearAlerts() {
  $("alerts").replaceChildren();
  updateAlertCount();
}

function jumpTo(gameId) {
  const rows = state.rows.get(gameId);
  if (!rows) return;
  for (const row of state.highlighted) row.classList.remove("highlight");
  state.highlighted = [rows.board, rows.result];
  for (const row of state.highlighted) {
    // Restart the animation when the same board is jumped to twice.
    row.classList.remove("highlight");
    void row.offsetWidth;
    row.classList.add("highlight");
  }
  rows.board.scrollIntoView({ block: "center", behavior: "smooth" });
  rows.board.focus({ preventScroll: true });
}
