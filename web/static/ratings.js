// The IECG rating list after a period's run (docs/correspondence.md): /ratings?period=2027-2,
// the current period when none is given; earlier and later periods a click away.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.
import { api } from "/static/relay.js";
import { param } from "/static/address.js";
import { $, el } from "/static/dom.js";

const MONTHS = ["January-February", "March-April", "May-June", "July-August",
  "September-October", "November-December"];

// The period next to "YEAR-N", ``step`` periods on (negative: back).
export function shifted(period, step) {
  const [year, index] = period.split("-").map(Number);
  const count = year * 6 + (index - 1) + step;
  return `${Math.floor(count / 6)}-${(count % 6) + 1}`;
}

function periodWords(period) {
  const [year, index] = period.split("-").map(Number);
  return `${MONTHS[index - 1]} ${year}`;
}

function row(line) {
  const tr = el("tr", "player");
  tr.append(
    el("td", "num", String(line.position)),
    el("td", "num", String(line.class_position)),
    el("td", null, line.rating_class),
    el("td", "num", line.number),
    el("td", "name", line.name),
    el("td", null, line.country),
    el("td", "num rating", line.rating === null ? "" : String(line.rating)),
    el("td", "num ter", String(line.ter)),
    el("td", "num games", String(line.games)),
    el("td", "num", String(line.wins)),
    el("td", "num", String(line.draws)),
    el("td", "num", String(line.losses)),
    el("td", "indicator", line.indicator),
  );
  return tr;
}

function show(list) {
  document.title = `IECG rating list, ${periodWords(list.period)} · chess-relay`;
  $("list-period").textContent =
    `After the run of ${periodWords(list.period)} (period ${list.period}), ` +
    `published ${list.run_date}`;
  for (const [id, step] of [["earlier", -1], ["later", 1]]) {
    $(id).href = `/ratings?period=${shifted(list.period, step)}`;
  }
  $("json-link").href = `/api/correspondence/ratings?period=${list.period}`;
  $("csv-link").href = `/api/correspondence/ratings.csv?period=${list.period}`;
  $("list").tBodies[0].replaceChildren(...list.lines.map(row));
  $("empty").hidden = list.lines.length > 0;
}

async function start() {
  const period = param("period");
  if (period !== null && !/^\d{4}-[1-6]$/.test(period)) {
    $("problem").textContent = "Which period? Open this page as /ratings?period=YEAR-N (N 1 to 6).";
    $("problem").hidden = false;
    return;
  }
  const query = period ? `?period=${period}` : "";
  try {
    show(await api(`/api/correspondence/ratings${query}`, { auth: false }));
  } catch (error) {
    $("problem").textContent = `This list cannot be shown: ${error.message}`;
    $("problem").hidden = false;
  }
}

start();
