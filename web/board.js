// Draws a game's board with its game's module, and its text alternative beside it; on a seat's
// turn the board is where the person plays (direct play, issue 35): each element a legal move
// concerns is a button, a move of several choices is built by clicks and confirmed in the bar
// above the board, and what the last player just did is outlined.
import { api, ApiProblem, el, learnBotNames, seatName, tokenFor } from "./api.js";
import { eventRefs, pickState, playsAtOnce, prepare } from "./moves.js";
import { t } from "./i18n.js";
import { scoreText } from "./events.js";
import * as splendor from "./boards/splendor.js";
import * as witches from "./boards/witches.js";
import * as setup from "./boards/setup.js";
import * as fairyTile from "./boards/fairy-tile.js";
import * as smallworld from "./boards/smallworld-of-warcraft.js";

const BOARDS = { splendor, witches, setup, "fairy-tile": fairyTile, "smallworld-of-warcraft": smallworld };
const NARROW = 560; // a container narrower than this (a phone) gets each board's narrow layout
const SHOWN_CHOICES = 16; // the bar's buttons for the moves a pick completes, at most (the list has them all)

// The board's CSS (direct play's marks, the bar, the narrow layouts): a file of its own, linked
// once (the pages' CSP allows stylesheets from the server, not inline ones).
function linkStyles() {
  if (document.querySelector('link[href="/web/boards.css"]')) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/web/boards.css" }));
}

// One direct-play state per board container: what is picked, for which game version.
const boards = new WeakMap();

function stateFor(container) {
  if (!boards.has(container)) {
    const state = { key: null, picked: new Set(), last: { key: null, refs: [] }, effects: {}, names: {}, width: 0 };
    boards.set(container, state);
    container.addEventListener("click", (e) => onPress(container, e), true); // before play.js's own listeners
    container.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") onPress(container, e); }, true);
    new ResizeObserver(() => { // a phone turned, a window resized: the other layout
      const narrow = container.clientWidth < NARROW;
      if (state.args && (narrow !== state.narrow || (narrow && Math.abs(innerWidth(container) - state.width) > 3))) drawBoard(container, ...state.args);
    }).observe(container);
  }
  return boards.get(container);
}

// The width a board is drawn in (a narrow layout is drawn 1:1 in it, so its text keeps its size).
function innerWidth(container) {
  const style = getComputedStyle(container);
  return Math.floor(container.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight));
}

export function drawBoard(container, game, moves = [], labels = null) {
  linkStyles();
  const state = stateFor(container);
  const module = BOARDS[game.type];
  game.seatNames = game.seats.map((_, i) => seatName(game, i));
  ({ names: state.names, effects: state.effects } = wordsNow(container, game, state));
  game.names = state.names;
  game.effects = state.effects;
  container.replaceChildren();
  if (game.view === null) { // before the deal (a replay's versions while the game waited): its seats
    const free = game.seats.filter((s) => !s.bot && !s.name).length;
    container.append(el("p", { class: "waiting", text: free ? t(free === 1 ? "Waiting for players: {n} free seat." : "Waiting for players: {n} free seats.", { n: free }) : t("Every seat is taken: the deal follows.") }),
      el("ol", { class: "seats" }, game.seats.map((_, i) => el("li", { "data-seat": i }, game.seatNames[i]))));
    return;
  }
  if (!module) {
    container.append(el("p", { text: t("No board drawing for {type}: its view follows.", { type: game.type }) }), el("pre", { text: JSON.stringify(game.view, null, 1) }));
    return;
  }
  const key = `${game.id}@${game.version}`;
  if (state.key !== key) { state.key = key; state.picked = new Set(); state.labels = labels; }
  if (labels) state.labels = labels;
  state.args = [game, moves, labels];
  state.narrow = container.clientWidth > 0 && container.clientWidth < NARROW;
  state.width = innerWidth(container);
  const layout = { narrow: state.narrow, width: Math.max(280, state.width), picked: state.picked, zoom: state.zoom || 0 };
  let svg;
  try {
    svg = module.render(game, moves, layout);
  } catch (err) {
    console.error(err);
    container.append(el("p", { class: "problem", text: t("This board could not be drawn ({reason}).", { reason: err.message }) }));
    return;
  }
  svg.classList.toggle("narrow", state.narrow);
  const describedBy = "board-text";
  svg.setAttribute("aria-describedby", describedBy);
  const lines = module.describe(game);
  const bar = el("div", { class: "board-bar", role: "group", "aria-label": t("Your move on the board") });
  const zoomed = module.zoomable && state.narrow ? zoomView(container, state, svg) : [svg];
  container.append(bar, ...zoomed, el("details", { class: "board-text", id: describedBy },
    el("summary", { text: t("The board in words") }), el("ul", {}, lines.map((line) => el("li", { text: line })))));
  state.prepared = prepareClicks(module, moves, state.labels, svg);
  markBoard(container, state);
  markLast(container, game, state);
  queueMicrotask(() => addTips(container, state)); // after the page names its buttons by their titles (play.js)
  if (moves.length && !state.labels) askLabels(container, game, state, key);
}

// A board a phone may zoom (Fairy Tile's kingdom, issue 55): buttons to zoom in and out, and a
// pinch of two fingers on it; zoomed, the board scrolls in a box as wide as the screen (the page
// stays its width), its centre kept where it was. The zoom is kept across the game's versions.
function zoomView(container, state, svg) {
  const step = Number(svg.dataset.zoom || 0), steps = Number(svg.dataset.zooms || 1);
  const box = el("div", { class: step ? "board-zoom zoomed" : "board-zoom" }, svg);
  const to = (next) => {
    next = Math.max(0, Math.min(steps - 1, next));
    if (next === (state.zoom || 0)) return;
    const centre = [(box.scrollLeft + box.clientWidth / 2) / (box.scrollWidth || 1), (box.scrollTop + box.clientHeight / 2) / (box.scrollHeight || 1)];
    state.zoom = next;
    drawBoard(container, ...state.args);
    const again = container.querySelector(".board-zoom");
    if (again) {
      again.scrollLeft = centre[0] * again.scrollWidth - again.clientWidth / 2;
      again.scrollTop = centre[1] * again.scrollHeight - again.clientHeight / 2;
    }
    container.querySelector(next > step ? ".zoom-in" : ".zoom-out")?.focus();
  };
  const button = (cls, sign, label, next, disabled) => {
    const b = el("button", { type: "button", class: `zoom ${cls}`, "aria-label": label, title: label, text: sign });
    b.disabled = disabled;
    b.addEventListener("click", () => to(next));
    return b;
  };
  const controls = el("div", { class: "zoom-controls", role: "group", "aria-label": t("Zoom the kingdom") },
    button("zoom-out", "−", t("Zoom out"), step - 1, step === 0),
    el("span", { class: "zoom-level", text: t("Zoom {n} of {of}", { n: step + 1, of: steps }) }),
    button("zoom-in", "+", t("Zoom in"), step + 1, step >= steps - 1));
  // a pinch: two fingers moving apart zoom in a step, together zoom out
  const fingers = new Map();
  let spread = 0;
  const apart = () => { const [a, b] = [...fingers.values()]; return Math.hypot(a.x - b.x, a.y - b.y); };
  box.addEventListener("pointerdown", (e) => { if (e.pointerType === "touch") { fingers.set(e.pointerId, { x: e.clientX, y: e.clientY }); if (fingers.size === 2) spread = apart(); } });
  box.addEventListener("pointermove", (e) => {
    if (!fingers.has(e.pointerId)) return;
    fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (fingers.size !== 2 || !spread) return;
    const ratio = apart() / spread;
    if (ratio > 1.3 || ratio < 0.77) { spread = 0; fingers.clear(); to(step + (ratio > 1 ? 1 : -1)); }
  });
  for (const end of ["pointerup", "pointercancel", "pointerleave"]) box.addEventListener(end, (e) => { fingers.delete(e.pointerId); spread = 0; });
  return [controls, box];
}

// The moves' labels (in the page's language) when the page did not hand them over: read once per
// version; the bar's choices get them (the board's nodes stay as they are).
async function askLabels(container, game, state, key) {
  if (state.labelsAsked === key) return;
  state.labelsAsked = key;
  try {
    const res = await api(`/games/${game.id}/moves?limit=5000&labels=true`, { token: tokenFor(game.id) });
    if (state.key !== key || res.version !== game.version) return;
    state.labels = res.labels || [];
    const svg = container.querySelector("svg");
    if (svg) { state.prepared = prepareClicks(BOARDS[game.type], state.args[1], state.labels, svg); markBoard(container, state); }
  } catch { /* the moves' types stand in for their labels */ }
}

// Each legal move with the board refs a person clicks for it (the module's `clicks` when it has
// one, else every ref of the move that the board draws).
function prepareClicks(module, moves, labels, svg) {
  const drawn = new Set([...svg.querySelectorAll("[data-ref]")].map((n) => n.getAttribute("data-ref")));
  return prepare(moves, labels || []).map((m) => {
    const wanted = module.clicks ? module.clicks(m.move) : m.refs;
    m.clicks = new Set([...(wanted || [])].filter((r) => drawn.has(r)));
    return m;
  });
}

// The pieces a next click may use become buttons; the bar says what the pick completes.
function markBoard(container, state) {
  const ps = pickState(state.prepared, state.picked);
  for (const node of container.querySelectorAll("svg [data-ref]")) {
    const ref = node.getAttribute("data-ref");
    const usable = ps.clickable.has(ref) && state.prepared.length > 0;
    node.classList.toggle("pickable", usable);
    node.classList.toggle("picked", state.picked.has(ref));
    if (usable) {
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      // a button is named by its title (its tooltip) as play.js names them, or its aria-label
      // holds what it shows (a board drawn again by itself: a turned phone, a resized window)
      if (node.getAttribute("aria-label") === node.querySelector(":scope > title")?.textContent) node.removeAttribute("aria-label");
      else nameHoldsText(node);
      node.setAttribute("aria-pressed", state.picked.has(ref) ? "true" : "false");
    }
  }
  // play.js marks the same nodes (its list narrows by them) after this returns: ours win
  queueMicrotask(() => {
    for (const node of container.querySelectorAll("svg [data-ref].pickable")) node.setAttribute("aria-pressed", state.picked.has(node.getAttribute("data-ref")) ? "true" : "false");
  });
  renderBar(container, state, ps);
}

// A picked element's name in the bar: its drawn name, the server's, else the client's word (a
// colour) or its ref ("q,r").
const nameOf = (ref, state, node) => node?.getAttribute("data-name") || state.names?.[ref] || state.effects[ref]?.name || t(ref).replace(/^index=(\d+)/, (_, n) => t("combo {n}", { n })).replace(/^level=(\d+)/, (_, n) => t("deck {n}", { n }));

function renderBar(container, state, ps) {
  const bar = container.querySelector(".board-bar");
  if (!bar) return;
  bar.replaceChildren();
  if (!state.prepared.length) { bar.hidden = true; return; }
  bar.hidden = false;
  const button = (text, onclick, cls = "") => el("button", { type: "button", class: "bar-button " + cls, onclick }, text);
  if (state.picked.size) {
    const names = [...state.picked].map((r) => nameOf(r, state, container.querySelector(`svg [data-ref="${CSS.escape(r)}"]`)));
    bar.append(el("span", { class: "bar-text", text: t("Chosen: {names}.", { names: names.join(", ") }) }));
    for (const m of ps.exact.slice(0, SHOWN_CHOICES)) bar.append(button(m.label, () => play(container, state, m.move), "confirm primary"));
    if (ps.exact.length > SHOWN_CHOICES) bar.append(el("span", { class: "bar-hint", text: t("{n} more in the move list.", { n: ps.exact.length - SHOWN_CHOICES }) }));
    const more = ps.candidates.length - ps.exact.length;
    if (more > 0) bar.append(el("span", { class: "bar-hint", text: t(ps.exact.length ? "or choose more on the board." : "Choose more on the board.") }));
    bar.append(button(t("Cancel"), () => { state.picked.clear(); redraw(container, state); }, "cancel"));
  } else {
    bar.append(el("span", { class: "bar-hint", text: ps.clickable.size ? t("Your turn: choose on the board.") : "" }));
  }
  // moves that concern nothing drawn (end the turn, score, decline...) are buttons of their own
  for (const m of state.prepared.filter((m) => !m.clicks.size).slice(0, SHOWN_CHOICES)) bar.append(button(m.label, () => play(container, state, m.move), "other"));
}

function redraw(container, state) {
  const focused = document.activeElement?.getAttribute?.("data-ref");
  drawBoard(container, ...state.args);
  const again = focused && container.querySelector(`svg [data-ref="${CSS.escape(focused)}"]`);
  (again || container.querySelector(".board-bar .confirm") || container.querySelector("svg .pickable"))?.focus();
}

// A click (or Enter, or a tap) on a board element: add it to the pick or take it out; a pick
// that leaves one complete move of one click plays it.
function onPress(container, e) {
  const node = e.target.closest?.("svg [data-ref]");
  const state = boards.get(container);
  if (!node || !state || !node.classList.contains("pickable")) return;
  const ref = node.getAttribute("data-ref");
  const picked = new Set(state.picked);
  if (picked.has(ref)) picked.delete(ref); else picked.add(ref);
  const ps = pickState(state.prepared, picked);
  if (playsAtOnce(ps, picked)) {
    e.preventDefault();
    e.stopPropagation(); // play.js's list is not narrowed for a move that is sent now
    play(container, state, ps.exact[0].move);
    return;
  }
  state.picked = picked;
  if (node.classList.contains("can")) return; // play.js's listener narrows its list and draws the board again
  e.preventDefault();
  e.stopPropagation();
  redraw(container, state);
}

// The move goes through the page's own sending (its list's button for it: the status line, the
// conflict's refresh and the list's reset are the page's); a page that listens to "board-move"
// sends it itself.
async function play(container, state, move) {
  const asked = new CustomEvent("board-move", { bubbles: true, cancelable: true, detail: { move } });
  if (!container.dispatchEvent(asked)) return;
  const wanted = JSON.stringify(move);
  const listed = [...document.querySelectorAll("#moves button.move")].find((b) => b.getAttribute("data-move") === wanted);
  if (listed) { listed.click(); return; }
  const game = state.args[0];
  const bar = container.querySelector(".board-bar");
  try {
    await api(`/games/${game.id}/moves`, { method: "POST", token: tokenFor(game.id), body: { expected_version: game.version, move },
      headers: { "Idempotency-Key": crypto.randomUUID() } });
    bar?.replaceChildren(el("span", { class: "bar-text", text: t("Played.") })); // the stream draws what follows
  } catch (err) {
    bar?.replaceChildren(el("span", { class: "bar-text problem", text: err.sentence || err.message }));
  }
}

// What the last player just did (their events since the turn passed to them): its pieces and
// places outlined. The history is read a page ahead (a replay stepping on asks once per 100
// versions, not once a step: the server's rate limit counts every request).
const LOOK_BACK = 12;
const histories = new Map(); // game id -> Map(version -> event), as this page's viewer sees them

async function eventsUpTo(game) {
  if (!histories.has(game.id)) histories.set(game.id, new Map());
  const known = histories.get(game.id), from = Math.max(0, game.version - LOOK_BACK);
  const wanted = Array.from({ length: game.version - from }, (_, i) => from + 1 + i);
  if (wanted.some((v) => !known.has(v))) {
    const page = await api(`/games/${game.id}/events?after=${from}&limit=100`, { token: tokenFor(game.id) });
    for (const e of page.events || []) known.set(e.version, e);
  }
  return wanted.map((v) => known.get(v)).filter(Boolean);
}

async function markLast(container, game, state) {
  const key = `${game.id}@${game.version}`;
  if (state.last.key !== key) {
    state.last = { key, refs: [] };
    try {
      state.last.refs = lastTurnRefs(await eventsUpTo(game));
    } catch { container.dataset.lastRead = game.version; return; } // no history to read: nothing outlined
    if (state.last.key !== key) return;
  }
  for (const node of container.querySelectorAll("svg [data-ref]")) node.classList.toggle("last", state.last.refs.includes(node.getAttribute("data-ref")));
  for (const node of container.querySelectorAll("svg [data-last]")) node.classList.toggle("last", state.last.refs.some((r) => node.getAttribute("data-last").split(" ").includes(r)));
  // The version whose last turn is now marked (what the page's tests wait on: a last turn whose
  // pieces left the board, a trick taken, outlines nothing), never shown.
  container.dataset.lastRead = game.version;
}

export function lastTurnRefs(events) {
  const moved = events.filter((e) => typeof e.actor === "number");
  if (!moved.length) return [];
  const actor = moved[moved.length - 1].actor;
  const refs = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (typeof e.actor === "number" && e.actor !== actor) break;
    refs.push(...eventRefs(e));
  }
  return refs;
}

// The pieces' names (GET /game-types `pieces`) and one-line effects (GET /game-types/{type}/rules
// `effects`), in the page's language (api.js asks in it): read once per game type; the boards
// draw their pieces by these names (game.names, game.effects), the tooltips add the effects. A
// page reads them before its first drawing (boardWords): a board drawn before them shows its
// pieces' English ids. A read that failed (the network, the server away) is not kept: the next
// drawing asks again, and the board is named once they come. An answer refusing them (a type
// without rules) is kept as no words.
const known = {}; // game type -> { names, effects }, once read
const asked = {}; // game type -> its promise
let allNames = null;

const refused = (err) => (err instanceof ApiProblem && err.status < 500 && err.status !== 429 ? {} : Promise.reject(err));

// The pieces' names from a page's own read of GET /game-types: not asked for again.
export function learnPieces(gameTypes) {
  if (!gameTypes?.length) return; // the read failed: the board asks itself
  allNames ||= Promise.resolve(Object.fromEntries((gameTypes || []).map((g) => [g.type, g.pieces || {}])));
}

function wordsFor(type) {
  allNames ||= api("/game-types").then((r) => { learnBotNames(r.game_types); return Object.fromEntries(r.game_types.map((g) => [g.type, g.pieces || {}])); })
    .catch((err) => { allNames = null; return refused(err); });
  asked[type] ||= Promise.all([allNames.then((all) => all[type] || {}),
    api(`/game-types/${type}/rules`).then((r) => r.effects || {}).catch(refused)])
    .then(([names, effects]) => { known[type] = { names, effects }; return known[type]; })
    .catch(() => { delete asked[type]; return null; });
  return asked[type];
}

// The words of a game type's board read (or their read failed): a page awaits it before drawing.
export const boardWords = (type) => wordsFor(type).then(() => undefined);

// The words a board is drawn with; a board drawn before they were read (a failed read: never
// before a page's first drawing, which awaits them) is drawn again once they are.
function wordsNow(container, game, state) {
  if (known[game.type]) return known[game.type];
  wordsFor(game.type).then((words) => { if (words && state.args?.[0]?.type === game.type) relabel(container, state); });
  return { names: {}, effects: {} };
}

// The pieces' names read after the board was first drawn: the board drawn again in them, its
// pieces' nodes kept (the page's marks and listeners are on them: play.js narrows its list by
// them), their drawing, name and tooltip replaced.
function relabel(container, state) {
  const old = container.querySelector("svg.board-svg"), [game, moves] = state.args;
  const module = BOARDS[game.type];
  if (!old || !module) return;
  ({ names: state.names, effects: state.effects } = known[game.type]);
  [game.names, game.effects] = [state.names, state.effects];
  let svg;
  try {
    svg = module.render(game, moves, { narrow: state.narrow, width: Math.max(280, state.width), picked: state.picked, zoom: state.zoom || 0 });
  } catch { return; } // the board stays as it was first drawn
  for (const fresh of svg.querySelectorAll("[data-ref]")) {
    const kept = old.querySelector(`[data-ref="${CSS.escape(fresh.getAttribute("data-ref"))}"]`);
    if (!kept) continue;
    const byTitle = !kept.hasAttribute("aria-label"); // the page named it by its title: so again
    for (const { name, value } of fresh.attributes) if (name !== "class") kept.setAttribute(name, value);
    if (byTitle) kept.removeAttribute("aria-label");
    kept.replaceChildren(...fresh.childNodes);
    fresh.replaceWith(kept);
  }
  for (const name of ["class", "aria-describedby"]) svg.setAttribute(name, old.getAttribute(name));
  old.replaceWith(svg);
  container.querySelector(".board-text ul")?.replaceChildren(...module.describe(game).map((line) => el("li", { text: line })));
  state.prepared = prepareClicks(module, moves, state.labels, svg);
  markBoard(container, state);
  markLast(container, game, state);
  addTips(container, state);
}

// Each piece's tooltip: its name (drawn) and its effect.
function addTips(container, state) {
  for (const node of container.querySelectorAll("svg [data-ref], svg [data-tip]")) {
    const ids = (node.getAttribute("data-tip") || node.getAttribute("data-ref") || "").split(" ");
    const tips = ids.map((i) => state.effects[i]).filter(Boolean).map((e) => `${e.name}: ${e.effect}`);
    if (!tips.length) continue;
    let title = node.querySelector(":scope > title");
    if (!title) { title = document.createElementNS("http://www.w3.org/2000/svg", "title"); node.prepend(title); }
    if (!title.dataset.tipped) { title.textContent = [title.textContent, ...tips].filter(Boolean).join("\n"); title.dataset.tipped = "1"; }
    nameHoldsText(node); // its tooltip is now more than its name
  }
}

// A piece named by an aria-label holds the text a person (and axe's label-content-name-mismatch,
// WCAG 2.5.3) finds in it, in its order: its tooltip (<title>: its name, then its effect) and the
// figures drawn on it ("2" on a card, "S1" on a square, "3¢ +2" on a Small World combo). Added
// where the name does not already hold it: a piece whose tooltip gained its effect keeps its
// aria-label when play.js names its buttons (the name is no longer the title), at every window
// size and whichever ran first.
const bare = (str) => str.toLowerCase().replace(/[!-/:-@[-`{-~]/g, " ").replace(/\s+/g, " ").trim();
export function nameHoldsText(node) {
  const label = node.getAttribute("aria-label");
  if (label === null) return;
  const title = (node.querySelector(":scope > title")?.textContent || "").split("\n").map((x) => x.trim()).filter(Boolean).join(" ");
  const drawn = [...node.querySelectorAll("text")].map((x) => x.textContent.trim()).filter((x) => /[\p{L}\p{N}]/u.test(x)).join(" ");
  const seen = [title, drawn].filter(Boolean).join(" ");
  if (!seen || bare(label).includes(bare(seen))) return;
  node.setAttribute("aria-label", bare(seen).startsWith(bare(label)) ? seen : `${label}, ${seen}`);
}

export function resultLine(game) {
  const r = game.result;
  if (!r) return "";
  const and = (seats) => (seats || []).map((s) => seatName(game, s, { plain: true })).join(t(" and "));
  if (r.outcome === "abandoned") return t("The game was abandoned.");
  if (r.outcome === "aborted") return t("The game was aborted before anyone moved.");
  if (r.outcome === "resigned") return t("Game over: {left} left the game. Won by {winners}.", { left: and(r.resigned), winners: and(r.winners) });
  const scores = Array.isArray(r.scores) ? r.scores.map((sc, i) => `${seatName(game, i)} ${scoreText(sc)}`).join(", ") : "";
  const won = r.winners?.length ? t("Won by {winners}", { winners: and(r.winners) }) : t("No winner");
  return scores ? t("Game over. {won} (scores: {scores}).", { won, scores }) : t("Game over. {won}.", { won });
}
