// /play/{id}: the board of a game as this browser's seat (or a spectator), its legal moves to
// click, the last events, who is here, the rules, kept live by the game's stream. One status
// area says what is wrong now (web/status.js), the header's badge whether the page is live.
import { api, ApiProblem, botLevel, el, ensurePlayer, friendlyName, gameIdFromPath, knownGames, learnBotNames, newKey, player, remember, seatName, setPlayer, tokenFor, withLang } from "./api.js";
import { boardWords, drawBoard, learnPieces } from "./board.js";
import { chatPanel, followChatStream, followPlayer } from "./chat.js";
import { eventLine, resultText } from "./events.js";
import { duration, t } from "./i18n.js";
import { narrow, prepare } from "./moves.js";
import { sayWith, showPresence } from "./presence.js";
import { rulesPanel } from "./rules.js";
import { StatusArea } from "./status.js";
import "./install.js";

const id = gameIdFromPath();
let token = tokenFor(id); // a seat's token, the player's key, or null (watching)
const $ = (sel) => document.querySelector(sel);
const SHOWN = 60; // buttons per move type before asking to narrow
// `drawn`: the version the shown move list is of (a move is sent against it, never another);
// `heard`: the newest version this page has heard of (its stream's events, a move's answer).
const page = { game: null, moves: [], labels: [], summary: null, total: 0, selected: new Set(), filter: "", kind: null, sending: false,
  ended: false, source: null, lastEventId: null, refreshTimer: null, blockedUntil: 0, drawn: null, heard: 0 };

const status = new StatusArea($("#status"));
sayWith((text, tone) => status.set("chat", text, { tone, seconds: 6 })); // the seats' menus (mute, block, report)
const RETRY_MS = 1000; // while the server cannot be reached: asked again every second

// What the person just did, said for a few seconds.
function say(message, kind = "info") {
  status.set("action", message, { tone: kind, seconds: kind === "info" ? 0 : 4 });
}

// The connection badge in the header: one word.
function badge(word) {
  $("#live").textContent = word ? t(word) : "";
  $("#live").className = "live" + (word === "live" || word === "finished" ? "" : " down");
}

// The server could not be reached: one sentence while it lasts (not one per retry), cleared by
// the first request or stream that gets through (connected()).
function unreachable() {
  status.clear("action");
  status.set("connection", t(navigator.onLine === false ? "You are offline: the page reconnects when the network is back."
    : "The server cannot be reached right now: retrying."), { tone: "error" });
  if (!page.ended) badge(navigator.onLine === false ? "offline" : "reconnecting…");
  clearTimeout(page.retryTimer);
  page.retryTimer = setTimeout(refresh, RETRY_MS);
}

function connected() {
  status.clear("connection");
  if (page.source?.readyState === EventSource.OPEN) badge("live");
}

function problem(err) {
  if (!(err instanceof ApiProblem)) return unreachable();
  connected(); // the server answered, if only to refuse
  if (err.retryAfter) page.blockedUntil = Date.now() + Number(err.retryAfter) * 1000;
  status.clear("action");
  status.set("problem", err.sentence, { tone: "error", seconds: 12 });
  if (err.code === "version_conflict" || err.code === "not_your_turn") refresh();
}

const mySeat = () => page.game?.you ?? null;
// A bot plays this seat since its time ran out (until the person takes it back): not the
// person's turn, though the seat is to act.
const botPlaysMe = () => mySeat() !== null && !!page.game.seats?.[mySeat()]?.played_by_bot;
const myTurn = () => mySeat() !== null && (page.game.to_act || []).includes(mySeat()) && !botPlaysMe();
const turnOf = (g) => g.you !== null && g.you !== undefined && (g.to_act || []).includes(g.you) && !g.seats?.[g.you]?.played_by_bot;

function heard(version) {
  if (Number.isInteger(version) && version > page.heard) page.heard = version;
}

// The legal moves of `game` (this seat's, on its turn), or null when the server has moved on
// meanwhile (the moves are of another version: the game is read again).
async function fetchMoves(game) {
  const read = { moves: [], labels: [], summary: null, total: 0 };
  if (!turnOf(game) || game.status !== "active") return read;
  let offset = 0;
  for (;;) { // every page: SetUp may list thousands of plays, narrowed in the page by clicks
    const res = await api(`/games/${id}/moves?limit=5000&labels=true&offset=${offset}`, { token });
    if (res.version !== game.version) { heard(res.version); return null; }
    read.moves.push(...res.moves);
    read.labels.push(...(res.labels || []));
    read.summary ||= res.summary || null;
    read.total = res.total;
    offset += res.moves.length;
    if (!res.moves.length || offset >= res.total) break;
  }
  return read;
}

// The game and its moves are read together and only then become the page's (a refresh in
// flight never leaves page.game newer than the move list shown); one read after another that
// began later and came back first is dropped (it would draw an older board).
async function refresh() {
  clearTimeout(page.refreshTimer);
  page.refreshTimer = null;
  try {
    const game = await api(`/games/${id}`, { token });
    heard(game.version);
    const read = await fetchMoves(game);
    if (read === null) return refresh();
    if (page.drawn !== null && game.version < page.drawn) return;
    page.game = game;
    Object.assign(page, read);
    connected();
    render();
    if (game.version < page.heard) refreshSoon(); // a read behind what the stream told: read again
  } catch (err) {
    problem(err);
    // A read the server refused for now (429, or 503 with Retry-After) left the page as it was:
    // read again when the server says, or it would wait for an event that has already come.
    if (err instanceof ApiProblem && err.retryAfter) {
      clearTimeout(page.refreshTimer);
      page.refreshTimer = setTimeout(refresh, Math.max(1, Number(err.retryAfter) || 1) * 1000);
    }
  }
}

// Events come in bursts (bot turns): one refresh after the burst, not one per event.
function refreshSoon() {
  if (!page.refreshTimer) page.refreshTimer = setTimeout(refresh, 350);
}

function render() {
  const g = page.game;
  if (g.status === "waiting" || g.view === null) return renderWaiting();
  const prepared = prepare(page.moves, page.labels);
  titles(g);
  $("#who").textContent = mySeat() === null ? t("You are watching.") : t("You play {name}.", { name: g.seats[mySeat()].name });
  const acting = (g.to_act || []).map((s) => (s === "system" ? t("the server (scoring)") : seatName(g, s)));
  $("#turn").textContent = g.status !== "active" ? resultText(g) : myTurn() ? t("Your turn.")
    : botPlaysMe() && (g.to_act || []).includes(mySeat()) ? t("A bot plays your seat: take it back to play yourself.")
      : t("Waiting for {who}.", { who: acting.join(", ") || "…" });
  if (g.status !== "active") status.clear("action"); // "Played." says nothing once the game is over
  $("#turn").className = myTurn() ? "turn mine" : "turn";
  $("#replay-link").hidden = g.status === "active";
  $("#replay-link").href = `/replay/${id}`;
  // the labels this page read with its moves: the board need not read /moves a second time
  drawBoard($("#board"), g, page.moves, page.labels.length ? page.labels : null);
  keepBoard(g);
  wireBoard(prepared);
  renderMoves(prepared);
  renderClock();
  renderSeatControls();
  renderRatings();
  showPresence($("#players"), g, token);
  rulesPanel($("#rules"), g.type);
}

// The title and the tab's title: the game's title in the page's language (from GET /game-types);
// its id and version are developers' words (the id is in the address): the version is kept as
// #version's data-version (what the page's tests read), never shown.
function titles(g) {
  const name = page.titles?.[g.type] || g.type;
  document.title = g.status === "waiting" ? `${name} — ${t("Waiting")}` : name;
  $("#title").textContent = name;
  $("#version").dataset.version = g.version;
  page.drawn = g.version;
}

// Each seated player's rating in this game's type (GET /players/{id}, once a page), and once a
// rated game is counted (seconds after its end) each seat's change (GET /games/{id}/ratings);
// an ended game that is not rated says why (its `unrated_reason`).
const ratingOf = (r) => (r ? `${r.rating}${r.provisional ? "?" : ""}` : t("unrated"));
const UNRATED_WHY = {
  too_short: () => t("the game ended before every seat made its first move"),
  casual: () => t("a casual game"),
  private: () => t("a private game"),
  aborted: () => t("the game was aborted"),
  abandoned: () => t("the game was abandoned"),
  anonymous_seat: () => t("a seat is played without an account"),
  one_seat: () => t("nobody to be rated against"),
};
async function renderRatings() {
  const g = page.game;
  const box = $("#table-ratings");
  const seated = g.seats.map((s, i) => ({ seat: i, player: s.player })).filter((s) => s.player);
  if (!seated.length || g.rated === false) { box.hidden = true; return; }
  page.profiles = page.profiles || {};
  for (const s of seated) {
    if (!(s.player in page.profiles)) {
      page.profiles[s.player] = null; // asked once
      api(`/players/${encodeURIComponent(s.player)}`).then((p) => { page.profiles[s.player] = p; renderRatings(); }).catch(() => {});
    }
  }
  const over = ["finished", "aborted", "abandoned"].includes(g.status);
  const unrated = over && (page.unrated || g.unrated_reason);
  if (unrated) {
    const why = UNRATED_WHY[unrated];
    box.textContent = t("Not rated: {why}.", { why: why ? why() : unrated });
    box.hidden = false;
    return;
  }
  if (over && !page.changes && !page.askingChanges && (page.changeTries || 0) < 15) {
    page.askingChanges = true;
    page.changeTries = (page.changeTries || 0) + 1;
    api(`/games/${id}/ratings`).then((r) => {
      page.askingChanges = false;
      if (r.seats) { page.changes = r.seats; renderRatings(); }
      else if (r.unrated_reason) { page.unrated = r.unrated_reason; renderRatings(); }
      else setTimeout(renderRatings, 2000);
    }).catch(() => { page.askingChanges = false; });
  }
  const parts = seated.map((s) => {
    const change = (page.changes || []).find((c) => c.seat === s.seat);
    if (change) return `${seatName(g, s.seat)} ${change.before} → ${change.after}`;
    const profile = page.profiles[s.player];
    return `${seatName(g, s.seat)} ${profile ? ratingOf(profile.ratings[g.type]) : "…"}`;
  });
  box.textContent = t("Ratings: {parts}", { parts: parts.join(" · ") });
  box.hidden = false;
}

// A clocked game: each seat's remaining time, counted down from the deadlines the server gave.
function renderClock() {
  const g = page.game;
  const line = $("#clock");
  line.hidden = !g.clock;
  if (!g.clock) return;
  const parts = g.clock.seats.filter((s) => s.remaining_ms !== null).map((s) => {
    const left = s.deadline ? Math.max(0, Date.parse(s.deadline) - Date.now()) : s.remaining_ms;
    return `${seatName(g, s.seat)} ${duration(left)}${s.deadline ? " ⏳" : ""}`;
  });
  line.textContent = parts.length ? t("Clock: {parts}", { parts: parts.join(", ") }) : "";
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
    if (confirmText && !window.confirm(t(confirmText))) return;
    try { await api(path, { method: "POST", token }); say(t("{label}: done.", { label: t(label) }), "ok"); } catch (err) { problem(err); }
    refresh();
  } }, t(label));
  if (mine.played_by_bot && !mine.resigned) {
    box.append(el("p", { class: "hint", text: t("A bot ({bot}) plays your seat since your time ran out.", { bot: botLevel(mine.played_by_bot) }) }),
      command("Take my seat back", `/games/${id}/seats/${seat}/return`));
  }
  box.append(command("Resign", `/games/${id}/resign`, "Resign this game?"));
  // Abort (end the game for everyone) only while it may be: before any person's move
  if (g.abortable) box.append(command("Abort the game", `/games/${id}/abort`, "End this game for everyone (only before anyone has moved)?"));
}

// Once the game is over: the rematch (a new waiting game, each player's seat kept for them).
function rematchOffer() {
  const g = page.game;
  if (g.rematch) return el("p", {}, el("a", { href: `/play/${g.rematch}`, class: "button", id: "rematch-link" }, t(mySeat() === null ? "Watch the rematch" : "Go to the rematch")));
  if (mySeat() === null) return null;
  return el("button", { type: "button", id: "rematch", onclick: async (e) => {
    e.target.disabled = true;
    try {
      const made = await api(`/games/${id}/rematch`, { method: "POST", token });
      const next = await api(`/games/${made.id}`), me = player();
      const kept = next.seats.find((s) => me && s.reserved_for === me.id); // this player's seat, kept a while
      if (kept) {
        const claimed = await api(`/games/${made.id}/seats/${kept.seat}/claim`, { method: "POST", token: me.key });
        remember(made.id, { type: next.type, token: claimed.token, seat: claimed.seat });
      }
      location.href = `/play/${made.id}`;
    } catch (err) { problem(err); e.target.disabled = false; }
  } }, t("Rematch"));
}

// A game waiting for people: its seats, a Join button on each free one this browser may take,
// and for its creator the invite link.
function renderWaiting() {
  const g = page.game, you = mySeat(), known = knownGames()[id] || {};
  titles(g);
  $("#who").textContent = you === null ? t("You are not seated.") : t("You sit in seat {n} as {name}.", { n: you + 1, name: g.seats[you].name });
  const free = g.seats.filter((s) => !s.bot && !s.name).length;
  $("#turn").textContent = free === 1 ? t("Waiting for players: 1 free seat. The game starts when every seat is taken.")
    : t("Waiting for players: {n} free seats. The game starts when every seat is taken.", { n: free });
  $("#turn").className = "turn";
  $("#replay-link").hidden = true;
  const seats = el("ol", { class: "seats" }, g.seats.map((s, i) => {
    // a person's name opens their profile (follow, block, challenge there)
    const line = el("li", { "data-seat": i }, s.player && !s.bot ? el("a", { href: `/profile/${encodeURIComponent(s.player)}` }, seatName(g, i)) : seatName(g, i));
    const keptForOther = s.reserved_for && s.reserved_for !== player()?.id && (s.reserved_until || 0) > Date.now();
    const mayJoin = you === null && !s.bot && !s.name && !keptForOther && (s.open || (s.invite && known.invite));
    if (mayJoin) line.append(" ", el("button", { type: "button", class: "join primary", onclick: (e) => join(i, e.target) }, t("Join this seat")));
    if (you === i && s.player && !known.creator && known.token) line.append(" ", el("button", { type: "button", onclick: leave }, t("Leave")));
    return line;
  }));
  const parts = [el("h2", {}, t("Seats")), seats];
  if (you === null && !player() && seats.querySelector(".join")) { // a person from a link: their name first
    parts.unshift(el("label", { class: "name" }, t("Your name") + " ", el("input", { id: "join-name", maxlength: 40, autocomplete: "nickname",
      value: localStorage.getItem("gameserver.name") || "", placeholder: friendlyName(), oninput: (e) => localStorage.setItem("gameserver.name", e.target.value.trim()) })));
  }
  if (you !== null && known.invite) {
    const link = `${location.origin}/play/${id}#invite=${known.invite}`;
    parts.push(el("p", {}, el("label", {}, t("Invite link for the invited seats") + " ", el("input", { readonly: true, value: link, size: 40, id: "invite-link", onfocus: (e) => e.target.select() }))));
  }
  if (g.seats.some((s) => s.open)) parts.push(el("p", { class: "hint", text: t("Open seats are listed in the lobby for anyone to join; this page's address works too.") }));
  $("#board").replaceChildren(el("div", { class: "waiting" }, parts));
  $("#moves").replaceChildren(el("p", { class: "hint", text: t("No moves before the game starts.") }));
  showPresence($("#players"), g, token);
  rulesPanel($("#rules"), g.type);
}

async function join(seat, button) {
  button.disabled = true;
  say(t("Joining…"));
  try {
    const me = await ensurePlayer(friendlyName()); // the name typed above, or the one made for this browser
    const invite = knownGames()[id]?.invite;
    const s = page.game.seats[seat];
    const claimed = await api(`/games/${id}/seats/${seat}/claim${s.invite && invite ? "?invite=" + encodeURIComponent(invite) : ""}`, { method: "POST", token: me.key });
    remember(id, { type: page.game.type, token: claimed.token, seat: claimed.seat });
    token = claimed.token;
    say(t("You sit in seat {n}.", { n: seat + 1 }), "ok");
    reopenStream();
  } catch (err) { problem(err); }
  await refresh();
}

async function leave() {
  try {
    await api(`/games/${id}/seats/${mySeat()}/leave`, { method: "POST", token });
    remember(id, { token: null, seat: null });
    token = null;
    say(t("You left the seat."), "ok");
    reopenStream();
  } catch (err) { problem(err); }
  await refresh();
}

// Board elements a legal move refers to become buttons: clicking selects them, which narrows
// the moves to those using every selected element.
function wireBoard(prepared) {
  const usable = new Set(page.selected); // what the chosen moves use (and what is selected, to unselect it)
  for (const m of narrowed(prepared)) for (const r of m.refs) usable.add(r);
  for (const node of document.querySelectorAll("#board [data-ref]")) {
    const ref = node.getAttribute("data-ref");
    if (!usable.has(ref)) continue;
    node.classList.add("can");
    node.classList.toggle("sel", page.selected.has(ref));
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    nameByTitle(node);
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

// A board button is named by its <title> (the board's label, also its tooltip), not by an
// aria-label beside it: an aria-label must then contain the figures drawn on the piece, in
// their order, which reads badly ("...costs 7 red, 3 black 5 7 3").
function nameByTitle(node) {
  const title = node.querySelector(":scope > title")?.textContent;
  if (title && title === node.getAttribute("aria-label")) node.removeAttribute("aria-label");
}

function renderMoves(prepared) {
  const box = $("#moves");
  box.replaceChildren();
  if (!myTurn() || page.game.status !== "active") {
    box.append(el("p", { class: "hint", text: t(page.game.status !== "active" ? "The game is over." : mySeat() === null ? "Spectators have no moves." : "No moves for you now.") }));
    const rematch = page.game.status !== "active" ? rematchOffer() : null; // none for a spectator of a game without one
    if (rematch) box.append(rematch);
    return;
  }
  const s = page.summary;
  if (s && s.play_count !== undefined) box.append(el("p", { class: "hint", text: t("{plays} plays and {swaps} swaps. Click tiles and squares on the board to find yours.", { plays: s.play_count, swaps: s.swap_count }) }));
  if (s && s.figures) box.append(kinds(s));
  const shown = narrowed(prepared);
  const chips = [...page.selected].map((r) => el("button", { type: "button", class: "chip", "aria-label": t("unselect {r}", { r }), onclick: () => { page.selected.delete(r); render(); } }, r + " ✕"));
  box.append(el("div", { class: "narrow" },
    el("label", {}, t("Find") + " ", el("input", { type: "search", id: "move-filter", value: page.filter, placeholder: t("e.g. buy, red, C2"),
      oninput: (e) => { page.filter = e.target.value; renderMovesOnly(); } })),
    chips, chips.length ? el("button", { type: "button", class: "chip", onclick: () => { page.selected.clear(); render(); } }, t("clear")) : null));
  box.append(el("p", { class: "hint", id: "move-count", text: t("{n} of {total} moves", { n: shown.length, total: page.total }) + (page.selected.size ? t(" use what you selected") : "") + "." }));
  const groups = {};
  for (const m of shown) (groups[m.move.type] ||= []).push(m);
  const list = el("div", { id: "move-groups" });
  for (const [type, ms] of Object.entries(groups)) {
    const open = Object.keys(groups).length <= 3 || ms.length <= 12 || page.selected.size > 0 || page.filter || page.kind;
    list.append(el("details", { open, class: "group" }, el("summary", { title: page.moveTypes?.[type] }, `${moveTypeName(type)} (${ms.length})`),
      el("div", { class: "move-list" }, ms.slice(0, SHOWN).map((m) => el("button", { type: "button", class: "move", "data-move": JSON.stringify(m.move),
        disabled: page.sending, onclick: () => send(m.move) }, m.label))),
      ms.length > SHOWN ? el("p", { class: "hint", text: t("{n} more: select on the board or type to narrow.", { n: ms.length - SHOWN }) }) : null));
  }
  box.append(list);
}

// A kind of move in words: the first clause of the game's own description of it (GET
// /game-types, in the page's language), else its id.
function moveTypeName(type) {
  const said = page.moveTypes?.[type];
  const clause = said ? said.split(/ ?[(:.;]/)[0].trim() : "";
  return clause && clause.length <= 60 ? clause : type.replaceAll("_", " ");
}

// The moves the selection, the chosen kind and the filter leave.
function narrowed(prepared) {
  const kept = narrow(prepared, page.selected, page.filter);
  return page.kind ? kept.filter((m) => m.move.type === page.kind || m.move.figure === page.kind) : kept;
}

// Fairy Tile's summary as a first choice: which figure to move, or the tile to lay; the board
// then lights the hexes that choice may use.
function kinds(s) {
  const nice = { princess: "Princess", knight: "Knight", dragon: "Dragon" };
  const choices = Object.entries(s.figures).map(([f, where]) => [f, t(f === "dragon" ? "Move the {figure} ({n} directions)" : "Move the {figure} ({n} places)",
    { figure: nice[f] ? t(nice[f]) : f, n: where.length })]);
  const places = Object.keys(s.tile).length;
  if (places) choices.push(["lay_tile", t("Lay the tile ({n} places)", { n: places })]);
  const pick = (kind) => { page.kind = page.kind === kind ? null : kind; page.selected.clear(); render(); document.querySelector(`#kinds [data-kind="${kind}"]`)?.focus(); };
  return el("div", { id: "kinds", class: "narrow", role: "group", "aria-label": t("Kind of move") },
    el("span", { class: "hint" }, t("{n} moves:", { n: s.move_count })),
    choices.map(([kind, label]) => el("button", { type: "button", class: "kind" + (page.kind === kind ? " on" : ""), "data-kind": kind,
      "aria-pressed": page.kind === kind ? "true" : "false", onclick: () => pick(kind) }, label)));
}

function renderMovesOnly() {
  const focusAt = document.activeElement?.id;
  renderMoves(prepare(page.moves, page.labels));
  if (focusAt === "move-filter") { const f = $("#move-filter"); f.focus(); f.setSelectionRange(f.value.length, f.value.length); }
}

// A move of the list shown, sent against the version that list is of. One at a time: the
// list's buttons are disabled at once (a second tap is not a second move) and stay so until the
// next state's list is drawn. A list the page knows is of an earlier state (its stream or a
// move's answer told of a newer version: the redraw is on its way) is not sent at all: on a
// slow phone a tap may land between a move's answer and the redraw.
async function send(move) {
  if (page.sending) return;
  if (Date.now() < page.blockedUntil) { say(t("Too many requests: wait {s} s.", { s: Math.ceil((page.blockedUntil - Date.now()) / 1000) }), "error"); return; }
  const expected = page.drawn;
  if (expected === null || page.heard > expected || page.game.version !== expected) {
    status.clear("action");
    status.set("problem", t("The game moved on: the moves were refreshed, choose again."), { tone: "info", seconds: 6 });
    refresh();
    return;
  }
  page.sending = true;
  for (const button of document.querySelectorAll("#moves button.move")) button.disabled = true;
  status.clear("problem");
  say(t("Sending…"));
  try {
    const answer = await api(`/games/${id}/moves`, { method: "POST", token, body: { expected_version: expected, move },
      headers: { "Idempotency-Key": newKey() } });
    heard(answer?.version);
    page.selected.clear();
    page.filter = "";
    page.kind = null;
    say(t("Played."), "ok");
  } catch (err) { problem(err); } finally { page.sending = false; }
  await refresh();
  focusAfterMove();
}

// The control that sent a move is gone with the old board: the focus goes to the next thing to
// do (a lit piece or a move when it is this seat's turn again, else the moves' heading), never
// back to <body>, so a keyboard player does not Tab through the page again.
function focusAfterMove() {
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected) return;
  const next = myTurn() ? document.querySelector("#board [data-ref].can, #kinds .kind, #moves button.move") : null;
  (next || $("#moves-h")).focus();
}

function addEvent(event) {
  const log = $("#events");
  log.prepend(el("li", { text: eventLine(event) }));
  while (log.children.length > 40) log.lastChild.remove();
}

function reopenStream() {
  page.source?.close();
  page.source = null;
  openStream();
}

async function openStream() {
  if (page.ended || page.source) return;
  let url = `/games/${id}/stream`;
  try {
    if (token) { // EventSource cannot send Authorization: a single-use ticket names the seat
      const ticket = await api(`/games/${id}/stream-tickets`, { method: "POST", token });
      url = ticket.stream;
    }
  } catch (err) { problem(err); setTimeout(openStream, err instanceof ApiProblem ? 3000 : RETRY_MS); return; }
  if (page.source || page.ended) return; // another opened meanwhile
  if (page.lastEventId !== null) url += (url.includes("?") ? "&" : "?") + "last_event_id=" + page.lastEventId;
  const source = new EventSource(withLang(url));
  page.source = source;
  source.addEventListener("open", () => {
    if (page.source !== source) return;
    badge("live");
    if (status.has("connection")) { connected(); refresh(); } // back after an outage: catch up
    showPresence($("#players"), page.game, token, true);
  });
  // A state or an event tells of a version: the board and its moves are read again (refresh);
  // until they are drawn, the list shown is known to be of an earlier state (send()).
  source.addEventListener("state", (e) => { page.lastEventId = e.lastEventId; heard(Number(e.lastEventId)); refreshSoon(); });
  source.addEventListener("game_event", (e) => {
    page.lastEventId = e.lastEventId;
    heard(Number(e.lastEventId));
    addEvent(JSON.parse(e.data));
    refreshSoon();
  });
  source.addEventListener("end", () => {
    page.ended = true;
    source.close();
    badge("finished");
    refresh();
  });
  // The stream broke (a restart, the network): reopened by this page a second later, with a
  // new ticket (a ticket opens one stream) and the last event seen, so nothing is missed.
  source.onerror = () => {
    if (page.ended || page.source !== source) return;
    badge(navigator.onLine === false ? "offline" : "reconnecting…");
    source.close();
    page.source = null;
    // Is the server there? (a spectator's stream asks no ticket that would tell): the outage,
    // if it is one, is then said in the status line; the board waits for the stream's catch-up.
    fetch("/health/live", { cache: "no-store" }).catch(() => { if (!page.ended) unreachable(); });
    setTimeout(openStream, RETRY_MS);
  };
}

// The last board this browser held of each game (the ten latest games), shown when the page
// opens offline: the game as its seat saw it, and its title.
const BOARDS = "gameserver.boards";
function keepBoard(game) {
  try {
    const all = JSON.parse(localStorage.getItem(BOARDS) || "{}");
    delete all[id];
    all[id] = { game, title: page.titles?.[game.type] || null };
    const ids = Object.keys(all);
    for (const old of ids.slice(0, Math.max(0, ids.length - 10))) delete all[old];
    localStorage.setItem(BOARDS, JSON.stringify(all));
  } catch { /* storage full or refused: nothing kept */ }
}
function keptBoard() {
  try { return JSON.parse(localStorage.getItem(BOARDS) || "{}")[id] || null; } catch { return null; }
}

async function start() {
  page.titles = await gameTitles();
  try {
    try {
      page.game = await api(`/games/${id}`, { token });
    } catch (err) { // a key or token the server does not know: look as a spectator
      if (!(err instanceof ApiProblem) || !["invalid_player_key", "invalid_token"].includes(err.code)) throw err;
      if (err.code === "invalid_player_key") setPlayer(null); else remember(id, { token: null });
      token = null;
      page.game = await api(`/games/${id}`);
    }
  } catch (err) {
    if (err instanceof ApiProblem) { $("#title").textContent = t("Game"); problem(err); return; }
    // Offline, or the server away: the board this browser last held of the game, and why it
    // does not move (the device is offline, or the server cannot be reached); tried again.
    const kept = keptBoard();
    if (kept) {
      $("#title").textContent = kept.title || kept.game.type;
      drawBoard($("#board"), kept.game, [], null);
    } else $("#title").textContent = t("Game");
    const offline = navigator.onLine === false;
    status.set("connection", t(offline ? "You are offline: the page reconnects when the network is back."
      : "The server cannot be reached right now: retrying."), { tone: "error" });
    badge(offline ? "offline" : "reconnecting…");
    setTimeout(start, RETRY_MS);
    return;
  }
  page.moveTypes = page.moveTypes?.[page.game.type] || {};
  if (token === player()?.key && mySeat() === null) token = null; // the player sits elsewhere: watch
  // the board's words (its pieces' names) read before its first drawing, beside the last events:
  // drawn before them, its pieces showed their English ids a moment (a Korean page, issue 55)
  const words = boardWords(page.game.type);
  const hist = await api(`/games/${id}/events?after=${Math.max(0, page.game.version - 15)}&limit=15`, { token }).catch(() => ({ events: [] }));
  for (const e of hist.events) addEvent(e);
  await words;
  page.lastEventId = page.game.version;
  await refresh();
  if (page.game.status !== "finished" && page.game.status !== "abandoned") openStream(); else { page.ended = true; badge("finished"); }
  startChat();
}

// The game's chat beside the board: the table's for a seated player, the spectators' for anyone
// else (the API decides by the credential; during play a player never reads the spectators').
// Open at once on a desktop, a tap away on a phone (below the board, never over it). Live: a
// seated player's own stream tells it of the table's messages (`chat`), a spectator follows the
// chat's stream, and so does a seat opened with its seat's token (a seat link: the browser's
// player, if any, sits elsewhere or nowhere, so its stream says nothing of this table), with the
// token in the request's header; either way the page then reads the messages after its last one.
function startChat() {
  const me = player(), seat = mySeat();
  const seatedAsMe = seat !== null && me && page.game.seats[seat]?.player === me.id;
  const chatToken = seat !== null && !seatedAsMe ? token : me?.key || token;
  $("#chat-h").textContent = t(seat !== null ? "Table chat" : "Spectators' chat");
  $("#chat-details").open = window.matchMedia("(min-width: 761px)").matches;
  $("#chat-section").hidden = false;
  const chat = chatPanel($("#chat"), { path: `/games/${encodeURIComponent(id)}/chat`, token: chatToken, canWrite: seat === null || seatedAsMe,
    label: t(seat !== null ? "Message to the table" : "Message to the other spectators"), say: (text, tone) => status.set("chat", text, { tone, seconds: 6 }) });
  chat.reload();
  if (seatedAsMe) followPlayer({ chat: (n) => { if (n.game_id === id) chat.live(); } }, chat.live);
  else if (seat !== null) followChatStream(`/games/${encodeURIComponent(id)}/chat/stream`, chatToken, () => chat.live());
  else {
    const source = new EventSource(withLang(`/games/${encodeURIComponent(id)}/chat/stream`));
    source.addEventListener("chat", () => chat.live());
    source.addEventListener("open", () => chat.live()); // (re)connected: what was said meanwhile
    window.addEventListener("pagehide", () => source.close());
  }
}

// The games' titles in the page's language ({type: title}) and the game's move types'
// descriptions; nothing (ids shown instead) if they cannot be had.
async function gameTitles() {
  try {
    const types = (await api("/game-types")).game_types;
    learnBotNames(types);
    learnPieces(types); // the board's pieces' names: read once for the page
    page.moveTypes = Object.fromEntries(types.map((g) => [g.type, g.move_types])); // replaced below by this game's
    return Object.fromEntries(types.map((g) => [g.type, g.title]));
  } catch { return {}; }
}

window.addEventListener("offline", () => { if (!page.ended) unreachable(); });
window.addEventListener("online", () => { if (!page.ended && !page.source) openStream(); refresh(); });
window.addEventListener("pagehide", () => { page.ended = true; page.source?.close(); }); // leaving: no half-read stream
start();
