// /play/{id}: the board of a game as this browser's seat (or a spectator), its legal moves to
// click, the last events, kept live by the game's stream.
import { api, ApiProblem, el, gameIdFromPath, newKey, remember, seatName, tokenFor } from "./api.js";
import { drawBoard, resultLine } from "./board.js";
import { eventLine } from "./events.js";
import { narrow, prepare } from "./moves.js";

const id = gameIdFromPath();
const token = tokenFor(id);
const $ = (sel) => document.querySelector(sel);
const SHOWN = 60; // buttons per move type before asking to narrow
const page = { game: null, moves: [], summary: null, total: 0, selected: new Set(), filter: "", sending: false,
  ended: false, source: null, lastEventId: null, refreshTimer: null, blockedUntil: 0 };

function say(message, kind = "info") {
  const box = $("#status");
  box.textContent = message;
  box.className = "status " + kind;
}

function problem(err) {
  if (!(err instanceof ApiProblem)) { // a network failure: keep what was said before it, and retry
    const before = $("#status").className.includes("error") ? $("#status").textContent + " " : "";
    say(before + "The server cannot be reached right now: retrying.", "error");
    clearTimeout(page.retryTimer);
    page.retryTimer = setTimeout(refresh, 2000);
    return;
  }
  if (err.retryAfter) page.blockedUntil = Date.now() + Number(err.retryAfter) * 1000;
  say(err.sentence, "error");
  if (err.code === "version_conflict" || err.code === "not_your_turn") refresh();
}

const mySeat = () => page.game?.you ?? null;
const myTurn = () => mySeat() !== null && (page.game.to_act || []).includes(mySeat());

async function fetchMoves() {
  page.moves = []; page.summary = null; page.total = 0;
  if (!myTurn() || page.game.status !== "active") return;
  let offset = 0;
  for (;;) { // every page: SetUp may list thousands of plays, narrowed in the page by clicks
    const res = await api(`/games/${id}/moves?limit=5000&offset=${offset}`, { token });
    if (res.version !== page.game.version) return refresh();
    page.moves.push(...res.moves);
    page.summary ||= res.summary || null;
    page.total = res.total;
    offset += res.moves.length;
    if (!res.moves.length || offset >= res.total) break;
  }
}

async function refresh() {
  clearTimeout(page.refreshTimer);
  page.refreshTimer = null;
  try {
    page.game = await api(`/games/${id}`, { token });
    await fetchMoves();
    remember(id, { type: page.game.type, status: page.game.status, version: page.game.version });
    render();
  } catch (err) { problem(err); }
}

// Events come in bursts (bot turns): one refresh after the burst, not one per event.
function refreshSoon() {
  if (!page.refreshTimer) page.refreshTimer = setTimeout(refresh, 350);
}

function render() {
  const g = page.game;
  const prepared = prepare(page.moves, g);
  document.title = `${g.type} ${id} — v${g.version}`;
  $("#title").textContent = `${g.type} · game ${id}`;
  $("#who").textContent = mySeat() === null ? "You are watching." : `You play ${seatName(g, mySeat())}.`;
  $("#version").textContent = `version ${g.version}`;
  const acting = (g.to_act || []).map((s) => (s === "system" ? "the server (scoring)" : seatName(g, s)));
  $("#turn").textContent = g.status !== "active" ? resultLine(g) : myTurn() ? "Your turn." : `Waiting for ${acting.join(", ") || "…"}.`;
  $("#turn").className = myTurn() ? "turn mine" : "turn";
  $("#replay-link").hidden = g.status === "active";
  $("#replay-link").href = `/replay/${id}`;
  drawBoard($("#board"), g, page.moves);
  wireBoard(prepared);
  renderMoves(prepared);
  renderClock();
  renderSeatControls();
}

// A clocked game: each seat's remaining time, counted down from the deadlines the server gave.
function renderClock() {
  const g = page.game;
  const line = $("#clock");
  line.hidden = !g.clock;
  if (!g.clock) return;
  const parts = g.clock.seats.filter((s) => s.remaining_ms !== null).map((s) => {
    const left = s.deadline ? Math.max(0, Date.parse(s.deadline) - Date.now()) : s.remaining_ms;
    return `${seatName(g, s.seat)} ${Math.ceil(left / 1000)} s${s.deadline ? " ⏳" : ""}`;
  });
  line.textContent = parts.length ? "Clock: " + parts.join(", ") : "";
}
setInterval(() => { if (page.game?.clock && page.game.status === "active") renderClock(); }, 1000);

// Resign, abort, or take the seat back from the bot that plays it since its time ran out.
function renderSeatControls() {
  const g = page.game;
  const seat = mySeat();
  const box = $("#seat-controls");
  $("#seat-section").hidden = seat === null || g.status !== "active";
  box.replaceChildren();
  if (seat === null || g.status !== "active") return;
  const mine = g.seats[seat] || {};
  const command = (label, path, confirmText) => el("button", { type: "button", class: "move", onclick: async () => {
    if (confirmText && !window.confirm(confirmText)) return;
    try { await api(path, { method: "POST", token }); say(`${label}: done.`, "ok"); } catch (err) { problem(err); }
    refresh();
  } }, label);
  if (mine.played_by_bot && !mine.resigned) {
    box.append(el("p", { class: "hint", text: `A bot (${mine.played_by_bot}) plays your seat since your time ran out.` }),
      command("Take my seat back", `/games/${id}/seats/${seat}/return`));
  }
  box.append(command("Resign", `/games/${id}/resign`, "Resign this game?"),
    command("Abort", `/games/${id}/abort`, "Abort this game (only before anyone has moved)?"));
}

// Board elements a legal move refers to become buttons: clicking selects them, which narrows
// the moves to those using every selected element.
function wireBoard(prepared) {
  const usable = new Set();
  for (const m of prepared) for (const r of m.refs) usable.add(r);
  for (const node of document.querySelectorAll("#board [data-ref]")) {
    const ref = node.getAttribute("data-ref");
    if (!usable.has(ref)) continue;
    node.classList.add("can");
    node.classList.toggle("sel", page.selected.has(ref));
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-pressed", page.selected.has(ref) ? "true" : "false");
    const toggle = () => {
      if (page.selected.has(ref)) page.selected.delete(ref); else page.selected.add(ref);
      render();
      document.querySelector(`#board [data-ref="${CSS.escape(ref)}"]`)?.focus();
    };
    node.addEventListener("click", toggle);
    node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
  }
}

function renderMoves(prepared) {
  const box = $("#moves");
  box.replaceChildren();
  if (!myTurn() || page.game.status !== "active") {
    box.append(el("p", { class: "hint", text: page.game.status !== "active" ? "The game is over." : mySeat() === null ? "Spectators have no moves." : "No moves for you now." }));
    return;
  }
  const s = page.summary;
  if (s && s.play_count !== undefined) box.append(el("p", { class: "hint", text: `${s.play_count} plays and ${s.swap_count} swaps. Click tiles and squares on the board to find yours.` }));
  const shown = narrow(prepared, page.selected, page.filter);
  const chips = [...page.selected].map((r) => el("button", { type: "button", class: "chip", "aria-label": `unselect ${r}`, onclick: () => { page.selected.delete(r); render(); } }, r + " ✕"));
  box.append(el("div", { class: "narrow" },
    el("label", {}, "Find ", el("input", { type: "search", id: "move-filter", value: page.filter, placeholder: "e.g. buy, red, C2",
      oninput: (e) => { page.filter = e.target.value; renderMovesOnly(); } })),
    chips, chips.length ? el("button", { type: "button", class: "chip", onclick: () => { page.selected.clear(); render(); } }, "clear") : null));
  box.append(el("p", { class: "hint", id: "move-count", text: `${shown.length} of ${page.total} moves${page.selected.size ? " use what you selected" : ""}.` }));
  const groups = {};
  for (const m of shown) (groups[m.move.type] ||= []).push(m);
  const list = el("div", { id: "move-groups" });
  for (const [type, ms] of Object.entries(groups)) {
    const open = Object.keys(groups).length <= 3 || ms.length <= 12 || page.selected.size > 0 || page.filter;
    list.append(el("details", { open, class: "group" }, el("summary", {}, `${type.replaceAll("_", " ")} (${ms.length})`),
      el("div", { class: "move-list" }, ms.slice(0, SHOWN).map((m) => el("button", { type: "button", class: "move", "data-move": JSON.stringify(m.move),
        disabled: page.sending, onclick: () => send(m.move) }, m.label))),
      ms.length > SHOWN ? el("p", { class: "hint", text: `${ms.length - SHOWN} more: select on the board or type to narrow.` }) : null));
  }
  box.append(list);
}

function renderMovesOnly() {
  const focusAt = document.activeElement?.id;
  renderMoves(prepare(page.moves, page.game));
  if (focusAt === "move-filter") { const f = $("#move-filter"); f.focus(); f.setSelectionRange(f.value.length, f.value.length); }
}

async function send(move) {
  if (Date.now() < page.blockedUntil) { say(`Too many requests: wait ${Math.ceil((page.blockedUntil - Date.now()) / 1000)} s.`, "error"); return; }
  page.sending = true;
  say("Sending…");
  try {
    const res = await api(`/games/${id}/moves`, { method: "POST", token, body: { expected_version: page.game.version, move },
      headers: { "Idempotency-Key": newKey() } });
    page.selected.clear();
    page.filter = "";
    say(`Played (version ${res.version}).`, "ok");
  } catch (err) { problem(err); } finally { page.sending = false; }
  await refresh();
}

function addEvent(event) {
  const log = $("#events");
  log.prepend(el("li", { text: eventLine(event, page.game) }));
  while (log.children.length > 40) log.lastChild.remove();
}

async function openStream() {
  if (page.ended) return;
  let url = `/games/${id}/stream`;
  try {
    if (token) { // EventSource cannot send Authorization: a single-use ticket names the seat
      const t = await api(`/games/${id}/stream-tickets`, { method: "POST", token });
      url = t.stream;
    }
  } catch (err) { problem(err); setTimeout(openStream, 3000); return; }
  if (page.lastEventId !== null) url += (url.includes("?") ? "&" : "?") + "last_event_id=" + page.lastEventId;
  const source = new EventSource(url);
  page.source = source;
  $("#live").textContent = "live";
  source.addEventListener("state", (e) => { page.lastEventId = e.lastEventId; page.game = JSON.parse(e.data); refreshSoon(); });
  source.addEventListener("game_event", (e) => {
    page.lastEventId = e.lastEventId;
    addEvent(JSON.parse(e.data));
    refreshSoon();
  });
  source.addEventListener("end", () => {
    page.ended = true;
    source.close();
    $("#live").textContent = "finished";
    refresh();
  });
  source.onerror = () => {
    if (page.ended) return;
    $("#live").textContent = "reconnecting…";
    if (token || source.readyState === EventSource.CLOSED) { // a ticket opens one stream: ask another
      source.close();
      setTimeout(openStream, 1500);
    }
  };
}

async function start() {
  try {
    page.game = await api(`/games/${id}`, { token });
  } catch (err) { problem(err); $("#title").textContent = `Game ${id}`; return; }
  remember(id, { type: page.game.type, status: page.game.status, version: page.game.version });
  const hist = await api(`/games/${id}/events?after=${Math.max(0, page.game.version - 15)}&limit=15`, { token }).catch(() => ({ events: [] }));
  for (const e of hist.events) addEvent(e);
  page.lastEventId = page.game.version;
  await refresh();
  if (page.game.status === "active") openStream(); else { page.ended = true; $("#live").textContent = "finished"; }
}

start();
