// The arbiter console's Names card: players of the tournament whose names probably belong to
// one person ("Kramnik, V" and "Kramnik, Vladimir"), each with the hub's reasons and a merge
// button, and the starting list; the Round card's line "2 players may be the same person".
// It reads the clashes of the tournament the Pairings card pairs, when that is chosen and
// every little while (players arrive with imports), and after a merge reads the Pairings
// card and the round on screen again (start numbers and names changed).
// An ES module, no build. Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $, actionButton, el, option } from "/static/dom.js";
import { busy, call, explain } from "/static/arbiter-calls.js";
import { openPairings } from "/static/arbiter-pairings.js";
import { startRound, stopRound } from "/static/arbiter-round.js";
import { state } from "/static/arbiter-state.js";
import { changeStatus } from "/static/arbiter-text.js";

const EVERY_MS = 15000;
let shownFor = null;
let reading = null;

// Start watching: the card is read once the Pairings card has chosen a tournament.
export function watchNames() {
  const card = $("names-card");
  if (!card) return;
  buildCard(card);
  const again = () => refreshNames();
  new MutationObserver(again).observe($("pairings-tournament"), {
    childList: true, characterData: true, subtree: true,
  });
  new MutationObserver(again).observe($("console"), { attributes: true, attributeFilter: ["hidden"] });
  setInterval(() => refreshNames(false), EVERY_MS);
}

function buildCard(card) {
  const heading = el("h2", null, "Names ");
  heading.id = "names-heading";
  const count = el("span", "count", "0");
  count.id = "clash-count";
  heading.append(count);
  const intro = el("p", "muted small",
    "Players who are probably one person (accents, order, initials, one FIDE id). "
    + "Merge them before the round is published.");
  const status = el("p", "change-status");
  status.id = "names-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const list = el("ol", "name-clashes");
  list.id = "name-clashes";
  const none = el("p", "muted", "No names look alike.");
  none.id = "no-clashes";
  const details = el("details", "starting-list");
  const summary = el("summary", null, "Players");
  summary.id = "players-summary";
  const players = el("ol", "players-list");
  players.id = "players-list";
  details.append(summary, players);
  card.replaceChildren(heading, intro, status, list, none, details);
}

function namesStatus(text, kind = "") {
  changeStatus(text, kind, "names-status");
}

// Read the clashes and the starting list again (only one read at a time); `quiet`: a
// failure on a timer is not shouted.
export async function refreshNames(loud = true) {
  const tournamentId = state.tournamentId;
  if ($("console").hidden || tournamentId === null || tournamentId === undefined) return;
  while (reading) await reading;
  reading = (async () => {
    try {
      const [clashes, players] = await Promise.all([
        call(`/api/tournaments/${tournamentId}/name-clashes`),
        call(`/api/tournaments/${tournamentId}/players`),
      ]);
      if (state.tournamentId !== tournamentId) return;
      showClashes(clashes);
      showPlayers(players);
      shownFor = tournamentId;
    } catch (error) {
      if (loud || shownFor !== tournamentId) namesStatus(`Could not read the names: ${explain(error)}`, "error");
    } finally {
      reading = null;
    }
  })();
  return reading;
}

function showClashes(answer) {
  const list = $("name-clashes");
  // A name typed into a clash's field stays while the arbiter types.
  const typed = new Map([...list.querySelectorAll("li.name-clash")].map(
    (item) => [item.dataset.pair, item.querySelector("input.merge-name").value]));
  list.replaceChildren(...answer.clashes.map((clash) => clashItem(clash, typed)));
  const open = answer.clashes.filter((c) => !c.refused).length;
  $("clash-count").textContent = String(open);
  $("clash-count").classList.toggle("warn", open > 0);
  $("no-clashes").hidden = answer.clashes.length > 0;
  const warning = $("names-warning");
  if (warning) {
    warning.textContent = answer.warning ? `⚠ ${answer.warning}` : "";
    warning.hidden = !answer.warning;
  }
}

function playerLabel(player) {
  return `${player.name} (${player.start_number})`;
}

function clashItem(clash, typed) {
  const [one, two] = clash.players;
  const pair = `${Math.min(one.id, two.id)}-${Math.max(one.id, two.id)}`;
  const item = el("li", "name-clash");
  item.dataset.pair = pair;
  const names = el("p", "clash-names");
  names.append(el("strong", null, playerLabel(one)), " and ", el("strong", null, playerLabel(two)));
  const reasons = el("ul", "clash-reasons");
  reasons.append(...clash.reasons.map((reason) => el("li", null, reason)));
  item.append(names, reasons);
  if (clash.refused) {
    item.classList.add("refused");
    item.append(el("p", "muted small refused-why", `Not merged: ${clash.refused}.`));
    return item;
  }
  const form = el("div", "merge-row");
  const nameLabel = el("label", null, "Name ");
  const name = el("input", "merge-name");
  name.type = "text";
  name.value = typed.get(pair) ?? clash.name;
  name.setAttribute("aria-label", "Name of the one player");
  nameLabel.append(name);
  const keepLabel = el("label", null, "Keep ");
  const keep = el("select", "merge-keep");
  keep.setAttribute("aria-label", "The player row that stays");
  keep.append(...clash.players.map((p) => option(p.id, `${p.start_number} · ${p.name}`, p.id === clash.keep)));
  keepLabel.append(keep);
  const rewrite = !!clash.published_results;
  const button = actionButton("merge primary", rewrite ? "Merge anyway" : "Merge into one");
  form.append(nameLabel, keepLabel, button);
  item.append(form);
  if (rewrite) item.append(el("p", "warn-text small", `${clash.published_results}.`));
  button.addEventListener("click", () => merge(clash, item, button, rewrite));
  return item;
}

async function merge(clash, item, button, rewrite) {
  const keep = Number(item.querySelector("select.merge-keep").value);
  const drop = clash.players.map((p) => p.id).find((id) => id !== keep);
  const name = item.querySelector("input.merge-name").value.trim();
  const tournamentId = state.tournamentId;
  await busy(button, async () => {
    let merged;
    try {
      merged = await call(`/api/tournaments/${tournamentId}/players/merge`, {
        method: "POST",
        body: { keep, drop, name: name || null, rewrite_published: rewrite, reason: "names card" },
      });
    } catch (error) {
      namesStatus(`Merge: ${explain(error)}`, "error");
      return;
    }
    const moved = merged.games + merged.byes;
    const movedWords = moved ? `; ${moved} game(s) or bye(s) moved to it` : "";
    const [one, two] = clash.players;
    namesStatus(`Merged: ${one.name} and ${two.name} are one player now, `
      + `${merged.player.name} (start number ${merged.player.start_number})${movedWords}.`, "ok");
    await refreshNames();
    await afterMerge(tournamentId);
  });
}

// Start numbers and names changed: the Pairings card and the round on screen read again.
async function afterMerge(tournamentId) {
  try {
    await openPairings();
    if (state.round && state.round.tournament_id === tournamentId) {
      stopRound();
      await startRound();
    }
  } catch (error) {
    namesStatus(`Merged, but the console could not read the round again: ${explain(error)}`, "error");
  }
}

function showPlayers(players) {
  $("players-summary").textContent = `Players (${players.length})`;
  $("players-list").replaceChildren(...players.map((p) => {
    const item = el("li", "player", p.name);
    item.value = p.start_number;
    item.dataset.id = String(p.id);
    return item;
  }));
}
