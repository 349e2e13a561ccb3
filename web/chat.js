// Chat in the web client (issue 53): one panel for a game's chat (the table's for a seated
// player, the spectators' for anyone else: the API decides), a group's chat and a direct
// conversation, each writer's name with its menu (person.js: mute, block, report the message); and
// the player's own stream followed for what arrives live (`chat`, `direct_message`). Only the
// public API: /games/{id}/chat(/stream), /groups/{id}/chat, /players/me/messages/{id},
// /players/me/stream-tickets.
// A message's text is shown as text (links stay text: textContent, never HTML).
import { api, ApiProblem, el, player, withLang } from "./api.js";
import { lang, t } from "./i18n.js";
import { personMenu } from "./person.js";

export const MAX_LENGTH = 500; // CHAT_MAX_LENGTH's default: the server refuses longer ones
const PAGE = 30;
let panels = 0; // ids for the panels' fields

const problemText = (err) => (err instanceof ApiProblem ? err.sentence : t("The server cannot be reached."));
const key = () => player()?.key || null;
const clock = (ms) => new Date(ms).toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" });

// A chat: its messages (oldest first, earlier ones a page at a time), a line to write with its
// length shown, sent with Enter or the button. `path`: the chat's address (GET a page, POST a
// message); `token`: the credential that reads it; `live()` is called by the page when something
// new may be there (its stream said so): the messages after the last one are read, none missed.
// `query`: what every read adds (`channel=table`); `readOnly`: a chat only read (a replay's), no
// line to write nor a word about writing.
export function chatPanel(box, { path, token = key(), canWrite = true, label = t("Message"), say = () => {}, query = "", readOnly = false }) {
  const read = (params) => `${path}?${query ? `${query}&` : ""}${params}`;
  const state = { next: null, previous: null, seen: new Set(), busy: false };
  const log = el("ol", { class: "chat-log", "aria-live": "polite", tabindex: "0", "aria-label": t("Messages") });
  const earlier = el("button", { type: "button", class: "chat-earlier", hidden: true, onclick: () => more() }, t("Earlier messages"));
  const empty = el("p", { class: "hint chat-empty" }, t("No messages yet."));
  const n = ++panels;
  const input = el("input", { id: `chat-text-${n}`, class: "chat-text", maxlength: String(MAX_LENGTH), autocomplete: "off" });
  const count = el("span", { class: "hint chat-count", "aria-live": "off" });
  const counted = () => { count.textContent = t("{n} of {max} characters", { n: input.value.length, max: MAX_LENGTH }); };
  input.addEventListener("input", counted);
  counted();
  const send = el("button", { type: "submit", class: "primary chat-send" }, t("Send"));
  const form = el("form", { class: "chat-form", onsubmit: async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text || state.busy) return;
    state.busy = true;
    send.disabled = true;
    try {
      const sent = await api(path, { method: "POST", token: key(), body: { text } });
      input.value = "";
      counted();
      add([sent]);
      await live(); // what others said meanwhile, in order
    } catch (err) { say(problemText(err), "error"); } finally { state.busy = false; send.disabled = false; input.focus(); }
  } }, el("label", { for: input.id }, label), el("div", { class: "narrow" }, input, send), count);
  box.replaceChildren(earlier, empty, log, ...(readOnly ? [] : [canWrite && key() ? form : el("p", { class: "hint" }, t("Play a game first: the lobby makes your player, then you can write."))]));

  const line = (m) => el("li", { "data-id": m.id, "data-from": m.from },
    personMenu({ id: m.from, name: m.name }, { about: { channel: m.channel, message: m.id }, changed: reload, say }),
    el("span", { class: "chat-said" }, " ", m.text), " ", el("time", { class: "hint", datetime: new Date(m.at).toISOString() }, clock(m.at)));
  function add(messages, before = false) {
    const fresh = messages.filter((m) => !state.seen.has(m.id));
    for (const m of fresh) state.seen.add(m.id);
    const nodes = fresh.map(line);
    if (before) log.prepend(...nodes); else log.append(...nodes);
    empty.hidden = log.childElementCount > 0;
    if (!before) log.scrollTop = log.scrollHeight;
  }
  async function reload() {
    state.seen.clear();
    log.replaceChildren();
    try {
      const page = await api(read(`limit=${PAGE}`), { token });
      state.next = page.next;
      state.previous = page.previous;
      add(page.messages);
      earlier.hidden = !page.previous || page.messages.length < PAGE; // a shorter page holds the first message
      return true;
    } catch (err) { say(problemText(err), "error"); return false; }
  }
  async function more() {
    try {
      const page = await api(read(`limit=${PAGE}&before=${encodeURIComponent(state.previous)}`), { token });
      add(page.messages, true);
      state.previous = page.previous || state.previous;
      earlier.hidden = !page.previous || page.messages.length < PAGE;
    } catch (err) { say(problemText(err), "error"); }
  }
  let reading = null, again = false;
  async function live() {
    if (reading) { again = true; return reading; } // one read at a time, then once more from where it ended
    reading = (async () => {
      do {
        again = false;
        try {
          const page = await api(read(`limit=200&since=${encodeURIComponent(state.next || "0-0")}`), { token });
          state.next = page.next || state.next;
          add(page.messages);
        } catch { /* the next notice, or the stream's reconnection, reads again */ }
      } while (again);
    })();
    try { await reading; } finally { reading = null; }
  }
  return { reload, live, input };
}

// The player's own stream (`POST /players/me/stream-tickets`), its events handed to `on`
// ({chat: fn, direct_message: fn}); reopened with a new ticket when it breaks (a ticket opens one
// stream), and `reopened()` then called so the page reads what it missed.
export async function followPlayer(on, reopened = () => {}) {
  if (!key()) return;
  let source = null;
  const open = async (again) => {
    try {
      const ticket = await api("/players/me/stream-tickets", { method: "POST", token: key() });
      source = new EventSource(withLang(ticket.stream));
    } catch { setTimeout(() => open(true), 3000); return; }
    for (const [type, fn] of Object.entries(on)) source.addEventListener(type, (e) => fn(JSON.parse(e.data)));
    source.onerror = () => { source.close(); setTimeout(() => open(true), 2000); };
    if (again) reopened();
  };
  window.addEventListener("pagehide", () => source?.close());
  await open(false);
}

// A game's chat stream (`GET /games/{id}/chat/stream`) read with a credential in its
// Authorization header, for a seat's token (a seat link): an EventSource sends none, and the
// player stream tells only the player's own seats. `on()` is called for each `chat` event and at
// each (re)connection (the panel then reads what was said meanwhile); the stream is opened again
// after it ends (SSE_MAX_SECONDS) or breaks, from the last message (Last-Event-ID).
export function followChatStream(path, token, on) {
  const stop = new AbortController();
  let last = null;
  window.addEventListener("pagehide", () => stop.abort());
  (async () => {
    while (!stop.signal.aborted) {
      try {
        const headers = { Authorization: "Bearer " + token, Accept: "text/event-stream" };
        if (last) headers["Last-Event-ID"] = last;
        const res = await fetch(withLang(path), { headers, signal: stop.signal });
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        on();
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n?/g, "\n");
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const lines = buffer.slice(0, end).split("\n");
            buffer = buffer.slice(end + 2);
            if (!lines.includes("event: chat")) continue; // keep-alives, the retry hint
            last = lines.find((l) => l.startsWith("id: "))?.slice(4) || last;
            on();
          }
        }
      } catch { /* broken, or refused for now: again below */ }
      if (!stop.signal.aborted) await new Promise((r) => setTimeout(r, 2000));
    }
  })();
}
