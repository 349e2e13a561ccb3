// /replay/{id}: the game a version at a time. The whole history comes in one request (the
// NDJSON export, GET /games/{id}/events?format=ndjson) for the event list; each board is drawn
// from GET /games/{id}/state?version=N (the rules run on the server only). #v=N links to a
// version. Once the game is over, its two chats (the table's and the spectators') are read beside
// it (GET /games/{id}/chat?channel=...: open to everyone then), read only.
import { api, apiNdjson, ApiProblem, el, gameIdFromPath, learnBotNames, tokenFor } from "./api.js";
import { boardWords, drawBoard, learnPieces } from "./board.js";
import { eventLine, resultText } from "./events.js";
import { t } from "./i18n.js";
import "./install.js";
import { StatusArea } from "./status.js";
import { chatPanel } from "./chat.js";
import { showAnalysis } from "./analysis.js";

const id = gameIdFromPath();
let token = tokenFor(id);
const $ = (sel) => document.querySelector(sel);
const states = new Map();
const page = { game: null, at: 1, first: 1, last: 1, timer: null, events: new Map() };

const status = new StatusArea($("#status"));

// One sentence at a time; "" clears it (a step drawn after a failure).
function say(message, kind = "info") {
  if (message) status.set(kind === "error" ? "problem" : "info", message, { tone: kind });
  else status.clear("problem");
}

const hashVersion = () => Number(new URLSearchParams(location.hash.slice(1)).get("v")) || null;

async function stateAt(v) {
  if (!states.has(v)) states.set(v, api(`/games/${id}/state?version=${v}`, { token }));
  try { return await states.get(v); } catch (err) { states.delete(v); throw err; }
}

async function loadEvents() {
  for (const e of await apiNdjson(`/games/${id}/events?format=ndjson`, { token })) page.events.set(e.version, e);
  const list = $("#event-list");
  list.replaceChildren(...[...page.events.values()].map((e) => el("li", { "data-version": e.version },
    el("a", { href: `#v=${e.version}` }, eventLine(e)))));
}

const eventAt = (v) => page.events.get(v);

function markStep(v) {
  const list = $("#event-list");
  list.querySelector("[aria-current]")?.removeAttribute("aria-current");
  const item = list.querySelector(`[data-version="${v}"]`);
  if (!item) return;
  item.setAttribute("aria-current", "step");
  const top = item.offsetTop; // the list is positioned: its items' offsets are inside it
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - item.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
}

async function show(v) {
  v = Math.max(page.first, Math.min(page.last, v));
  page.at = v;
  $("#slider").value = v;
  // the step as a person counts it: the moves the players made so far (a version is a developer's
  // word); the version itself is the slider's value and the address's #v=
  const said = t("move {n} of {of}", { n: movesUpTo(v), of: movesUpTo(page.last) });
  Object.assign($("#at").dataset, { version: v, last: page.last });
  $("#at").textContent = said;
  $("#slider").setAttribute("aria-valuetext", said);
  if (hashVersion() !== v) history.replaceState(null, "", `#v=${v}`);
  try {
    markStep(v);
    const g = await stateAt(v), e = eventAt(v);
    if (page.at !== v) return; // a later step was asked meanwhile
    drawBoard($("#board"), g);
    $("#step").textContent = e ? eventLine(e) : "";
    say("");
    if (v === page.last && page.game.result) $("#step").textContent += " — " + resultText(page.game);
    stateAt(Math.min(page.last, v + 1)).catch(() => {}); // the next step is ready before it is asked
  } catch (err) {
    say(problem(err), "error");
    stop();
  }
}

// The history starts after the game's setup (2 events for Splendor, 3 for Witches: the
// creation and the events no one moved); the first version the server draws is after them.
// How many moves the players made up to version v (an event a seat made; the setup's and the
// system's events are none).
function movesUpTo(v) {
  let n = 0;
  for (const [version, e] of page.events) if (version <= v && typeof e.actor === "number") n++;
  return n;
}

async function firstVersion() {
  let v = 1;
  while (page.events.get(v + 1) && (page.events.get(v + 1).actor === null || page.events.get(v + 1).actor === undefined)) v++;
  for (; v < page.last; v++) { // a game whose first moves are the system's: ask on
    try { await stateAt(v); return v; } catch (err) { if (!(err instanceof ApiProblem) || err.code !== "version_out_of_range") throw err; }
  }
  return page.last;
}

function stop() {
  clearInterval(page.timer);
  page.timer = null;
  $("#play").textContent = "▶";
  $("#play").setAttribute("aria-label", t("Play"));
}

function play() {
  if (page.timer) return stop();
  if (page.at >= page.last) show(page.first);
  $("#play").textContent = "❚❚";
  $("#play").setAttribute("aria-label", t("Pause"));
  page.timer = setInterval(() => { if (page.at >= page.last) stop(); else show(page.at + 1); }, Number($("#speed").value));
}

const problem = (err) => (err instanceof ApiProblem ? err.sentence : t("The server cannot be reached."));

// A request that failed while loading: the title stops saying "Loading…" and the status says why.
function failed(err) {
  $("#title").textContent = t("Replay"); // its id is in the address: a developer's word
  say(problem(err), "error");
}

async function start() {
  // the games' titles and the bots' names in the page's language, before anything is drawn
  const types = await api("/game-types").then((r) => r.game_types, () => []);
  learnBotNames(types);
  learnPieces(types);
  try {
    page.game = await api(`/games/${id}`, { token }).catch((err) => {
      if (!(err instanceof ApiProblem) || !["invalid_player_key", "invalid_token"].includes(err.code)) throw err;
      token = null; // a key the server no longer knows: replay as a spectator
      return api(`/games/${id}`);
    });
    await loadEvents();
    page.last = Math.max(...page.events.keys(), 1);
    page.first = await firstVersion();
  } catch (err) { return failed(err); }
  await boardWords(page.game.type); // the board drawn in its pieces' names from its first drawing
  // the game's title in the page's language (GET /game-types): its id and type are developers' words
  const title = types.find((g) => g.type === page.game.type)?.title;
  $("#title").textContent = t("Replay · {title}", { title: title || page.game.type });
  document.title = $("#title").textContent;
  $("#slider").max = page.last;
  $("#slider").min = page.first;
  if (page.game.status === "active") say(t("This game is still running: the replay goes up to its last move."), "info");
  $("#first").onclick = () => { stop(); show(page.first); };
  $("#prev").onclick = () => { stop(); show(page.at - 1); };
  $("#next").onclick = () => { stop(); show(page.at + 1); };
  $("#last").onclick = () => { stop(); show(page.last); };
  $("#play").onclick = play;
  $("#speed").onchange = () => { if (page.timer) { stop(); play(); } };
  $("#slider").oninput = (e) => { stop(); show(Number(e.target.value)); };
  window.addEventListener("hashchange", () => { const v = hashVersion(); if (v && v !== page.at) show(v); });
  document.addEventListener("keydown", (e) => {
    if (e.target.matches("input, select, textarea")) return;
    const keys = { ArrowLeft: () => show(page.at - 1), ArrowRight: () => show(page.at + 1), Home: () => show(page.first), End: () => show(page.last), " ": play };
    if (keys[e.key]) { e.preventDefault(); if (e.key !== " ") stop(); keys[e.key](); }
  });
  show(hashVersion() || page.first);
  showAnalysis($("#analysis"), page.game);
  showChats();
}

// The finished game's chats, each a read-only panel (its earlier messages a page at a time);
// nothing while the game runs (a player may not read the spectators' then).
function showChats() {
  if (page.game.status !== "finished" && page.game.status !== "abandoned") return;
  $("#replay-chat").hidden = false;
  for (const channel of ["table", "spectators"]) {
    chatPanel($(`#${channel}-chat`), { path: `/games/${encodeURIComponent(id)}/chat`, query: `channel=${channel}`,
      token, readOnly: true, say }).reload();
  }
}

start();
