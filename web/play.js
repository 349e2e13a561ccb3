// /play/{id}: the board of a game as this browser's seat (or a spectator), its legal moves to
// click, the last events, kept live by the game's stream.
import { api, ApiProblem, el, ensurePlayer, gameIdFromPath, knownGames, newKey, player, remember, seatName, setPlayer, tokenFor } from "./api.js";
import { drawBoard, resultLine } from "./board.js";
import { eventLine } from "./events.js";
import { narrow, prepare } from "./moves.js";

const id = gameIdFromPath();
let token = tokenFor(id); // a seat's token, the player's key, or null (watching)
const $ = (sel) => document.querySelector(sel);
const SHOWN = 60; // buttons per move type before asking to narrow
const page = { game: null, moves: [], labels: [], summary: null, total: 0, selected: new Set(), filter: "", kind: null, sending: false,
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
  page.moves = []; page.labels = []; page.summary = null; page.total = 0;
  if (!myTurn() || page.game.status !== "active") return;
  let offset = 0;
  for (;;) { // every page: SetUp may list thousands of plays, narrowed in the page by clicks
    const res = await api(`/games/${id}/moves?limit=5000&offset=${offset}`, { token });
    if (res.version !== page.game.version) return refresh();
    page.moves.push(...res.moves);
    page.labels.push(...(res.labels || []));
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
    render();
  } catch (err) { problem(err); }
}

// Events come in bursts (bot turns): one refresh after the burst, not one per event.
function refreshSoon() {
  if (!page.refreshTimer) page.refreshTimer = setTimeout(refresh, 350);
}

function render() {
  const g = page.game;
  if (g.status === "waiting" || g.view === null) return renderWaiting();
  const prepared = prepare(page.moves, page.labels);
  document.title = `${g.type} ${id} — v${g.version}`;
  $("#title").textContent = `${g.type} · game ${id}`;
  $("#who").textContent = mySeat() === null ? "You are watching." : `You play ${g.seats[mySeat()].name}.`;
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
  renderRatings();
}

// Each seated player's rating in this game's type (GET /players/{id}, once a page), and once a
// rated game is counted (seconds after its end) each seat's change (GET /games/{id}/ratings).
const ratingOf = (r) => (r ? `${r.rating}${r.provisional ? "?" : ""}` : "unrated");
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
  if (g.status === "finished" && !page.changes && !page.askingChanges && (page.changeTries || 0) < 15) {
    page.askingChanges = true;
    page.changeTries = (page.changeTries || 0) + 1;
    api(`/games/${id}/ratings`).then((r) => {
      page.askingChanges = false;
      if (r.seats) { page.changes = r.seats; renderRatings(); } else setTimeout(renderRatings, 2000);
    }).catch(() => { page.askingChanges = false; });
  }
  const parts = seated.map((s) => {
    const change = (page.changes || []).find((c) => c.seat === s.seat);
    if (change) return `${seatName(g, s.seat)} ${change.before} → ${change.after}`;
    const profile = page.profiles[s.player];
    return `${seatName(g, s.seat)} ${profile ? ratingOf(profile.ratings[g.type]) : "…"}`;
  });
  box.textContent = `Ratings: ${parts.join(" · ")}`;
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

// Once the game is over: the rematch (a new waiting game, each player's seat kept for them).
function rematchOffer() {
  const g = page.game;
  if (g.rematch) return el("p", {}, el("a", { href: `/play/${g.rematch}`, class: "button", id: "rematch-link" }, mySeat() === null ? "Watch the rematch" : "Go to the rematch"));
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
  } }, "Rematch");
}

// A game waiting for people: its seats, a Join button on each free one this browser may take,
// and for its creator the invite link.
function renderWaiting() {
  const g = page.game, you = mySeat(), known = knownGames()[id] || {};
  document.title = `${g.type} ${id} — waiting`;
  $("#title").textContent = `${g.type} · game ${id}`;
  $("#who").textContent = you === null ? "You are not seated." : `You sit in seat ${you + 1} as ${g.seats[you].name}.`;
  $("#version").textContent = `version ${g.version}`;
  const free = g.seats.filter((s) => !s.bot && !s.name).length;
  $("#turn").textContent = `Waiting for players: ${free} free seat${free === 1 ? "" : "s"}. The game starts when every seat is taken.`;
  $("#turn").className = "turn";
  $("#replay-link").hidden = true;
  const seats = el("ol", { class: "seats" }, g.seats.map((s, i) => {
    const line = el("li", { "data-seat": i }, seatName(g, i));
    const keptForOther = s.reserved_for && s.reserved_for !== player()?.id && (s.reserved_until || 0) > Date.now();
    const mayJoin = you === null && !s.bot && !s.name && !keptForOther && (s.open || (s.invite && known.invite));
    if (mayJoin) line.append(" ", el("button", { type: "button", class: "join primary", onclick: (e) => join(i, e.target) }, "Join this seat"));
    if (you === i && s.player && !known.creator && known.token) line.append(" ", el("button", { type: "button", onclick: leave }, "Leave"));
    return line;
  }));
  const parts = [el("h2", {}, "Seats"), seats];
  if (you === null && !player() && seats.querySelector(".join")) { // a person from a link: their name first
    parts.unshift(el("label", { class: "name" }, "Your name ", el("input", { id: "join-name", maxlength: 40, autocomplete: "nickname",
      value: localStorage.getItem("gameserver.name") || "", oninput: (e) => localStorage.setItem("gameserver.name", e.target.value.trim()) })));
  }
  if (you !== null && known.invite) {
    const link = `${location.origin}/play/${id}#invite=${known.invite}`;
    parts.push(el("p", {}, el("label", {}, "Invite link for the invited seats ", el("input", { readonly: true, value: link, size: 40, id: "invite-link", onfocus: (e) => e.target.select() }))));
  }
  if (g.seats.some((s) => s.open)) parts.push(el("p", { class: "hint", text: "Open seats are listed in the lobby for anyone to join; this page's address works too." }));
  $("#board").replaceChildren(el("div", { class: "waiting" }, parts));
  $("#moves").replaceChildren(el("p", { class: "hint", text: "No moves before the game starts." }));
}

async function join(seat, button) {
  button.disabled = true;
  say("Joining…");
  try {
    const me = await ensurePlayer(localStorage.getItem("gameserver.name") || "Player"); // the name typed above, if any
    const invite = knownGames()[id]?.invite;
    const s = page.game.seats[seat];
    const claimed = await api(`/games/${id}/seats/${seat}/claim${s.invite && invite ? "?invite=" + encodeURIComponent(invite) : ""}`, { method: "POST", token: me.key });
    remember(id, { type: page.game.type, token: claimed.token, seat: claimed.seat });
    token = claimed.token;
    say(`You sit in seat ${seat + 1}.`, "ok");
    reopenStream();
  } catch (err) { problem(err); }
  await refresh();
}

async function leave() {
  try {
    await api(`/games/${id}/seats/${mySeat()}/leave`, { method: "POST", token });
    remember(id, { token: null, seat: null });
    token = null;
    say("You left the seat.", "ok");
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
    if (page.game.status !== "active") box.append(rematchOffer());
    return;
  }
  const s = page.summary;
  if (s && s.play_count !== undefined) box.append(el("p", { class: "hint", text: `${s.play_count} plays and ${s.swap_count} swaps. Click tiles and squares on the board to find yours.` }));
  if (s && s.figures) box.append(kinds(s));
  const shown = narrowed(prepared);
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
    const open = Object.keys(groups).length <= 3 || ms.length <= 12 || page.selected.size > 0 || page.filter || page.kind;
    list.append(el("details", { open, class: "group" }, el("summary", {}, `${type.replaceAll("_", " ")} (${ms.length})`),
      el("div", { class: "move-list" }, ms.slice(0, SHOWN).map((m) => el("button", { type: "button", class: "move", "data-move": JSON.stringify(m.move),
        disabled: page.sending, onclick: () => send(m.move) }, m.label))),
      ms.length > SHOWN ? el("p", { class: "hint", text: `${ms.length - SHOWN} more: select on the board or type to narrow.` }) : null));
  }
  box.append(list);
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
  const choices = Object.entries(s.figures).map(([f, where]) => [f, `Move the ${nice[f] || f} (${where.length} ${f === "dragon" ? "direction" : "place"}${where.length === 1 ? "" : "s"})`]);
  const places = Object.keys(s.tile).length;
  if (places) choices.push(["lay_tile", `Lay the tile (${places} place${places === 1 ? "" : "s"})`]);
  const pick = (kind) => { page.kind = page.kind === kind ? null : kind; page.selected.clear(); render(); document.querySelector(`#kinds [data-kind="${kind}"]`)?.focus(); };
  return el("div", { id: "kinds", class: "narrow", role: "group", "aria-label": "Kind of move" },
    el("span", { class: "hint" }, `${s.move_count} moves:`),
    choices.map(([kind, label]) => el("button", { type: "button", class: "kind" + (page.kind === kind ? " on" : ""), "data-kind": kind,
      "aria-pressed": page.kind === kind ? "true" : "false", onclick: () => pick(kind) }, label)));
}

function renderMovesOnly() {
  const focusAt = document.activeElement?.id;
  renderMoves(prepare(page.moves, page.labels));
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
    page.kind = null;
    say(`Played (version ${res.version}).`, "ok");
  } catch (err) { problem(err); } finally { page.sending = false; }
  await refresh();
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
      const t = await api(`/games/${id}/stream-tickets`, { method: "POST", token });
      url = t.stream;
    }
  } catch (err) { problem(err); setTimeout(openStream, 3000); return; }
  if (page.source) return; // another opened meanwhile
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
    if (page.ended || page.source !== source) return;
    $("#live").textContent = "reconnecting…";
    if (token || source.readyState === EventSource.CLOSED) { // a ticket opens one stream: ask another
      source.close();
      page.source = null;
      setTimeout(openStream, 1500);
    }
  };
}

async function start() {
  try {
    try {
      page.game = await api(`/games/${id}`, { token });
    } catch (err) { // a key or token the server does not know: look as a spectator
      if (!(err instanceof ApiProblem) || !["invalid_player_key", "invalid_token"].includes(err.code)) throw err;
      if (err.code === "invalid_player_key") setPlayer(null); else remember(id, { token: null });
      token = null;
      page.game = await api(`/games/${id}`);
    }
  } catch (err) { problem(err); $("#title").textContent = `Game ${id}`; return; }
  if (token === player()?.key && mySeat() === null) token = null; // the player sits elsewhere: watch
  const hist = await api(`/games/${id}/events?after=${Math.max(0, page.game.version - 15)}&limit=15`, { token }).catch(() => ({ events: [] }));
  for (const e of hist.events) addEvent(e);
  page.lastEventId = page.game.version;
  await refresh();
  if (page.game.status !== "finished" && page.game.status !== "abandoned") openStream(); else { page.ended = true; $("#live").textContent = "finished"; }
}

window.addEventListener("pagehide", () => { page.ended = true; page.source?.close(); }); // leaving: no half-read stream
start();
