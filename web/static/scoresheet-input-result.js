// The result both players agree on the electronic scoresheet, as they sign a paper one
// (seed 004 ch. 17 item 12): a result chosen, White's tap to confirm it, then Black's; only
// then does it go to the hub, which proposes it for the arbiter. It needs the network: a
// result is not left waiting on the device. An ES module, no build.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { $, actionButton } from "/static/dom.js";
import { post, refusalWords } from "/static/scoresheet-input-queue.js";

const SHOWN = { "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½–½" };
const WORDS = { "1-0": "White wins", "0-1": "Black wins", "1/2-1/2": "a draw" };
const NAME = { white: "White", black: "Black" };

export class ResultAgreement {
  constructor(gameId, { onDone }) {
    this.gameId = gameId;
    this.onDone = onDone;
    this.chosen = null; // the result being confirmed
    this.signed = []; // who confirmed it so far, in order
    this.busy = false;
    this.message = "";
    this.level = "";
    for (const result of Object.keys(SHOWN)) {
      const button = actionButton("agree-choice", SHOWN[result]);
      button.dataset.result = result;
      button.setAttribute("aria-label", `Result ${SHOWN[result]}: ${WORDS[result]}`);
      button.addEventListener("click", () => this.choose(result));
      $("agree-choices").append(button);
    }
    $("agree-confirm").addEventListener("click", () => this.confirm());
    $("agree-cancel").addEventListener("click", () => this.cancel());
  }

  choose(result) {
    this.chosen = result;
    this.signed = [];
    this.say("", "");
  }

  cancel() {
    this.chosen = null;
    this.signed = [];
    this.say("", "");
  }

  async confirm() {
    if (!this.chosen || this.busy) return;
    this.signed.push(this.signed.length === 0 ? "white" : "black");
    if (this.signed.length < 2) {
      this.render();
      return;
    }
    this.busy = true;
    this.render();
    const result = this.chosen;
    try {
      const answer = await post(`/api/games/${this.gameId}/result-agreement`, {
        result, signed: this.signed,
      });
      if (answer.status === 200) {
        this.chosen = null;
        this.say(`${SHOWN[result]} agreed by both players: the arbiter confirms it`, "done");
        this.onDone();
      } else {
        this.signed = [];
        this.say(`Not recorded: ${refusalWords(answer.status, answer.data)}`, "refused");
      }
    } catch (error) {
      this.signed = [];
      this.say("No network: the result was not sent. Confirm it again when the network is back, or call the arbiter", "refused");
    } finally {
      this.busy = false;
      this.render();
    }
  }

  say(message, level) {
    this.message = message;
    this.level = level;
    this.render();
  }

  // `game`: the summary as the page knows it; `usable`: whether the tablet may act.
  render(game = this.game, usable = this.usable) {
    this.game = game;
    this.usable = usable;
    if (!game) return;
    const over = game.result !== "*";
    $("agree").hidden = over;
    for (const button of $("agree-choices").children) {
      button.disabled = !usable || this.busy;
      button.classList.toggle("chosen", button.dataset.result === this.chosen);
    }
    const confirming = !!this.chosen;
    $("agree-step").hidden = !confirming;
    if (confirming) {
      const next = this.signed.length === 0 ? "white" : "black";
      const who = game[next] ? ` (${game[next].name})` : "";
      $("agree-confirm").textContent = `${NAME[next]}${who}: confirm ${SHOWN[this.chosen]}`;
      $("agree-confirm").dataset.player = next;
      $("agree-confirm").disabled = !usable || this.busy;
      $("agree-signed").textContent = this.signed.length
        ? `White confirmed ${SHOWN[this.chosen]}; now Black`
        : `${SHOWN[this.chosen]}: ${WORDS[this.chosen]}. White confirms first, then Black`;
    }
    $("agree-message").textContent = this.message;
    $("agree-message").hidden = !this.message;
    $("agree-message").dataset.level = this.level;
  }
}
