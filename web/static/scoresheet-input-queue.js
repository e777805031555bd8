// The electronic scoresheet's entries on their way to the hub: moves and draw claims, each
// for its ply, kept on the device (localStorage, one queue per game) until the hub answers,
// and sent one at a time, in order. A network that is down keeps them waiting; they go when
// it returns. The hub acknowledges an entry it already has (the answer was lost, not the
// request), so nothing is played twice; an entry it refuses is taken off the queue with
// every later one, and its words are shown. An ES module, no build.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { token } from "/static/token.js";

const RETRY_MS = 3000;

// POST JSON with the tablet's token: { status, data } for any answer of the hub; a network
// that is down throws (fetch's TypeError).
export async function post(path, body) {
  const headers = { "Content-Type": "application/json" };
  const held = token();
  if (held) headers.Authorization = `Bearer ${held}`;
  const reply = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await reply.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (error) {
    data = { detail: text };
  }
  return { status: reply.status, data };
}

// The words for a refusal, as the player reads them.
export function refusalWords(status, data) {
  if (status === 401 || status === 403) {
    return "this tablet's token may not do this for this game: call the arbiter";
  }
  const detail = data && data.detail;
  if (typeof detail === "string") return detail;
  return `the hub answered ${status}`;
}

export class EntryQueue {
  // `send(item)` posts one entry and resolves to { status, data }; `onAnswer(item, answer)`
  // hears each answer (accepted, repeated or refused, with what was dropped with it);
  // `onChange()` hears every change of the queue or the network.
  constructor(gameId, { send, onAnswer, onChange }) {
    this.key = `relay-esc-queue:${gameId}`;
    this.send = send;
    this.onAnswer = onAnswer;
    this.onChange = onChange;
    this.items = this.load();
    this.sending = null;
    this.offline = false;
    this.timer = null;
    window.addEventListener("online", () => this.flush());
  }

  load() {
    try {
      const saved = JSON.parse(localStorage.getItem(this.key) || "[]");
      return Array.isArray(saved) ? saved : [];
    } catch (error) {
      return [];
    }
  }

  save() {
    if (this.items.length) localStorage.setItem(this.key, JSON.stringify(this.items));
    else localStorage.removeItem(this.key);
  }

  add(item) {
    this.items.push(item);
    this.save();
    this.onChange();
    return this.flush();
  }

  // Send what waits, one entry at a time; a second call while sending joins the first.
  flush() {
    if (!this.sending) {
      this.sending = this.drain().finally(() => {
        this.sending = null;
        this.onChange();
      });
    }
    return this.sending;
  }

  async drain() {
    while (this.items.length) {
      const item = this.items[0];
      let answer;
      try {
        answer = await this.send(item);
      } catch (error) {
        this.offline = true; // no answer: it waits, and goes again later
        this.retryLater();
        return;
      }
      this.offline = false;
      if (answer.status >= 500 || answer.status === 429 || answer.status === 408) {
        this.retryLater(); // the hub is busy or failed: not a refusal of the entry
        return;
      }
      if (answer.status >= 200 && answer.status < 300) {
        this.items.shift();
        this.save();
        this.onAnswer(item, { ok: true, data: answer.data, dropped: [] });
      } else {
        // Refused: this entry and every later one (their plies follow from it).
        const dropped = this.items.splice(0);
        dropped.shift();
        this.save();
        this.onAnswer(item, { ok: false, status: answer.status, data: answer.data, dropped });
      }
      this.onChange();
    }
  }

  retryLater() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, RETRY_MS);
  }
}
