// The lobby: the hosted games, a form creating one (you, bots, seats left open or by
// invitation), and the server's listing (GET /games): open games to join, live games to play or
// watch, finished games to replay; with the player's own games (GET /players/me/games).
import { api, ApiProblem, botLabel, botLevel, el, ensurePlayer, friendlyName, learnBotNames, player, remember, setPlayer } from "./api.js";
import { personMenu } from "./person.js";
import { ago, duration, lang, t } from "./i18n.js";
import "./install.js";
import { StatusArea } from "./status.js";

const $ = (sel) => document.querySelector(sel);
let types = [];
const status = new StatusArea($("#status"));

// One sentence at a time: a refusal, an outage or the progress of what the person did.
function say(message, kind = "info") {
  status.set(kind === "error" ? "problem" : "action", message, { tone: kind, seconds: kind === "ok" ? 5 : 0 });
  if (kind !== "error") status.clear("problem");
  else status.clear("action");
}

// The name typed, else the friendly one this browser was given.
const typedName = () => $("#name").value.trim() || friendlyName();

const current = () => types.find((t) => t.type === $("#type").value);

function seatRow(choice) {
  const type = current();
  const select = el("select", { class: "seat", "aria-label": t("Who sits here"), onchange: privateByDefault },
    el("option", { value: "me" }, t("Me")), el("option", { value: "open" }, t("Open seat (anyone joins)")),
    el("option", { value: "invite" }, t("Invited (with a link)")), type.bots.map((b) => el("option", { value: "bot:" + b }, t("{bot} bot", { bot: botLevel(b) }))));
  select.value = choice;
  const row = el("li", {}, select, el("button", { type: "button", class: "remove", "aria-label": t("Remove this seat"),
    onclick: () => { if ($("#seats").children.length > type.min_seats) { row.remove(); syncSeats(); } } }, "✕"));
  return row;
}

// A game nobody else can join (you and bots, or bots only) is private unless the person says
// otherwise: the lobby's lists are for games people can join or want to show.
function privateByDefault() {
  const choices = [...document.querySelectorAll("#seats .seat")].map((s) => s.value);
  $("#private").checked = !choices.some((c) => c === "open" || c === "invite");
}

function syncSeats() {
  const type = current(), n = $("#seats").children.length;
  $("#add-seat").disabled = n >= type.max_seats;
  for (const b of document.querySelectorAll("#seats .remove")) b.disabled = n <= type.min_seats;
  privateByDefault();
}

// The chosen game: its seats (you, then its strongest bot) and its options. Its notes are the
// server's documentation, not the lobby's: only the seat counts are said here.
function showType() {
  const type = current();
  $("#type-notes").textContent = t("{min}–{max} seats.", { min: type.min_seats, max: type.max_seats });
  const strongest = type.bots[type.bots.length - 1];
  $("#seats").replaceChildren(seatRow("me"), ...Array.from({ length: type.min_seats - 1 }, () => seatRow("bot:" + strongest)));
  syncSeats();
  const box = $("#options");
  box.replaceChildren();
  for (const o of type.options) {
    let input;
    if (o.choices) {
      input = el("select", { name: o.name }, o.choices.map((c) => el("option", { value: JSON.stringify(c) }, String(c))));
      input.value = JSON.stringify(o.default);
    } else if (o.type === "boolean") {
      input = el("input", { type: "checkbox", name: o.name, checked: o.default === true });
    } else if (o.type === "integer") {
      input = el("input", { type: "number", name: o.name, value: o.default, min: o.minimum, max: o.maximum, step: 1 });
    } else {
      input = el("input", { name: o.name, value: o.default ?? "" });
    }
    input.dataset.kind = o.choices ? "choice" : o.type;
    // an option is said by its description (in the page's language), its id only when it has none
    box.append(el("label", { class: "option" }, input, " ", o.description || o.name.replaceAll("_", " ")));
  }
  $("#options-box").hidden = !type.options.length;
}

function options() {
  const out = {};
  for (const input of document.querySelectorAll("#options [name]")) {
    const kind = input.dataset.kind;
    out[input.name] = kind === "boolean" ? input.checked : kind === "integer" ? Number(input.value) : kind === "choice" ? JSON.parse(input.value) : input.value;
  }
  return out;
}

// The clock a person chose (POST /games `clock`): the same time for each move, a bank with an
// increment (Fischer) or days a move (correspondence); said back through Intl ("3분, 수마다 2초").
const CLOCK_FIELDS = {
  per_move: [["per_move_s", "Minutes for each move", 5, 60, 1, 10080]],
  fischer: [["initial_s", "Minutes in the bank", 10, 60, 1, 10080], ["increment_s", "Seconds added by each move", 5, 1, 0, 3600]],
  days: [["days_per_move", "Days for each move", 3, 86400, 1, 14]],
};
function showClock() {
  const kind = $("#clock-kind").value;
  $("#clock-fields").replaceChildren(...(CLOCK_FIELDS[kind] || []).map(([name, label, value, unit, min, max]) =>
    el("label", {}, el("span", { text: t(label) }), " ",
      el("input", { type: "number", name, value, min, max, step: 1, inputmode: "numeric", "data-unit": unit, required: true, oninput: sayClock }))));
  sayClock();
}
function clock() {
  const fields = [...document.querySelectorAll("#clock-fields input")];
  if (!fields.length) return null;
  return Object.fromEntries(fields.map((f) => [f.name, Number(f.value) * (f.name === "days_per_move" ? 1 : Number(f.dataset.unit))]));
}
function sayClock() {
  const c = clock();
  const d = (s) => duration(s * 1000);
  $("#clock-said").textContent = !c ? "" : c.per_move_s ? t("Each move: {time}.", { time: d(c.per_move_s) })
    : c.days_per_move ? t("Each move: {time}, and vacations stop the clock.", { time: d(c.days_per_move * 86400) })
      : t("{bank} each, and {more} more with each move.", { bank: d(c.initial_s), more: d(c.increment_s) });
}

// Vacations (GET/POST/PATCH/DELETE /players/me/vacations): the days left this year, the ones
// planned, a plan of dates, and a day taken by itself at a deadline. Dates through Intl.
const dateSaid = (iso) => new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeZone: "UTC" }).format(new Date(iso));
function showVacations(v) {
  $("#vacation-box").hidden = false;
  $("#vacation-left").textContent = t("{left} of {allowance} days of vacation left this year.", { left: v.left_days, allowance: v.allowance_days });
  $("#vacation-auto").checked = v.auto;
  $("#vacations").replaceChildren(...v.vacations.map((x) => el("li", { "data-vacation": x.id },
    t(x.current ? "On vacation until {end}" : "{start} to {end}", { start: dateSaid(x.start), end: dateSaid(new Date(Date.parse(x.end) - 1)) }),
    x.current ? null : el("button", { type: "button", class: "cancel-vacation", text: t("Cancel the vacation"), onclick: () => vacationCall(`/players/me/vacations/${encodeURIComponent(x.id)}`, "DELETE") }))));
}
async function vacationCall(path, method, body) {
  const me = player();
  if (!me) return;
  try {
    await api(path, { method, token: me.key, body });
    showVacations(await api("/players/me/vacations", { token: me.key }));
    if (method !== "GET") say(t(method === "POST" ? "The vacation is planned." : method === "DELETE" ? "The vacation is cancelled." : "Saved."), "ok");
  } catch (err) { say(problemText(err), "error"); }
}
function startVacations() {
  const today = new Date().toISOString().slice(0, 10);
  for (const id of ["#vacation-start", "#vacation-end"]) { $(id).min = today; $(id).value ||= today; }
  $("#plan-vacation").addEventListener("submit", (e) => { e.preventDefault(); vacationCall("/players/me/vacations", "POST", { start: $("#vacation-start").value, end: $("#vacation-end").value }); });
  $("#vacation-auto").addEventListener("change", () => vacationCall("/players/me/vacations", "PATCH", { auto: $("#vacation-auto").checked }));
  if (player()) api("/players/me/vacations", { token: player().key }).then(showVacations, () => {});
}

const problemText = (err) => (err instanceof ApiProblem ? err.sentence
  : t(navigator.onLine === false ? "You are offline: try again when the network is back." : "The server cannot be reached."));

async function create(e) {
  e.preventDefault();
  const name = typedName();
  localStorage.setItem("gameserver.name", name);
  const choices = [...document.querySelectorAll("#seats .seat")].map((s) => s.value);
  if (choices.filter((c) => c === "me").length > 1) { say(t("Only one seat can be yours."), "error"); return; }
  const seats = choices.map((c) => (c === "me" ? { me: true } : c === "open" ? { open: true } : c === "invite" ? { invite: true } : { bot: c.slice(4) }));
  $("#create-btn").disabled = true;
  say(t("Creating…"));
  try {
    // A seat of yours makes you a player (once per browser): the key opens your games later.
    const me = choices.includes("me") ? await ensurePlayer(name) : player();
    const game = await api("/games", { method: "POST", token: choices.includes("me") ? me.key : undefined,
      body: { type: current().type, seats, options: options(), private: $("#private").checked, ...(clock() ? { clock: clock() } : {}) } });
    const mine = game.seats.find((s) => s.token);
    remember(game.id, { type: current().type, token: mine?.token || null, seat: mine?.seat ?? null, invite: game.invite_code || null, creator: true });
    location.href = `/play/${game.id}`;
  } catch (err) {
    say(problemText(err), "error");
    $("#create-btn").disabled = false;
  }
}

// A seat in a listing; a bot named as everywhere else (botLabel).
function seatText(s, i, seats) {
  if (!s.bot) return s.name ?? t(s.invite ? "invited seat" : "open seat");
  return botLabel(seats, i);
}

// The seat this player may claim: open, and not kept for another player.
function freeSeat(g, me) {
  return g.seats.find((s) => s.open && !s.bot && !s.name && (!s.reserved_for || s.reserved_for === me?.id || (s.reserved_until || 0) < Date.now()));
}

async function join(g, button) {
  const seat = freeSeat(g, player());
  if (!seat) return;
  button.disabled = true;
  say(t("Joining the {type} game…", { type: titleOf(g.type) }));
  try {
    const me = await ensurePlayer(typedName());
    localStorage.setItem("gameserver.name", me.name);
    const claimed = await api(`/games/${g.id}/seats/${seat.seat}/claim`, { method: "POST", token: me.key });
    remember(g.id, { type: g.type, token: claimed.token, seat: claimed.seat });
    location.href = `/play/${g.id}`;
  } catch (err) {
    say(problemText(err), "error");
    button.disabled = false;
    if (err instanceof ApiProblem) listGames();
  }
}

// Who sits at a listed game, each other person's name with its menu (mute, block, report: issue
// 53's "from a player's name anywhere"); a visitor with no player yet has nobody to mute for.
// Each seat's words are an element of their own (`.seat-name`), apart from the menu's `⋯`.
function whoSits(g, me) {
  const who = el("span", { class: "who" });
  g.seats.forEach((s, i) => {
    if (i) who.append(", ");
    who.append(el("span", { class: "seat-name" }, seatText(s, i, g.seats)));
    if (me?.key && s.player && !s.bot && s.player !== me.id) {
      who.append(" ", personMenu({ id: s.player, name: s.name }, { label: "⋯", say }));
    }
  });
  return who;
}

function entry(g, me) {
  const you = g.you ?? g.seats.find((s) => me && s.player === me.id)?.seat;
  const mine = you !== undefined && you !== null;
  const item = el("li", { "data-game": g.id }, el("strong", {}, titleOf(g.type)), " ",
    whoSits(g, me), " ", el("small", { class: "hint" }, `· ${ago(g.last_move_at)} `));
  if (g.status === "waiting") {
    if (mine) item.append(el("a", { href: `/play/${g.id}`, class: "button" }, t("Open (waiting for players)")));
    else if (freeSeat(g, me)) {
      const button = el("button", { type: "button", class: "join primary", "aria-label": t("Join the {type} game of {who}", { type: titleOf(g.type), who: g.seats.map(seatText).join(", ") }) }, t("Join"));
      button.addEventListener("click", () => join(g, button));
      item.append(button);
    } else item.append(el("span", { class: "hint" }, t("by invitation")));
  } else if (g.status === "active") {
    const myTurn = mine && (g.my_turn ?? (g.to_act || []).includes(you));
    item.append(el("a", { href: `/play/${g.id}`, class: "button" + (myTurn ? " primary" : "") }, t(mine ? (myTurn ? "Play (your turn)" : "Play") : "Watch")));
  } else {
    item.append(el("a", { href: `/replay/${g.id}`, class: "button" }, t("Replay")), " ", el("a", { href: `/play/${g.id}` }, t("final board")));
  }
  return item;
}

const LISTS = { "#open-games": "waiting", "#live-games": "active", "#done-games": "finished" };
const EMPTY = { "#open-games": "None: create one with an open seat.", "#live-games": "None: create one, or make every seat a bot to watch.",
  "#done-games": "None yet.", "#my-games": "None yet: create or join a game." };
const titleOf = (type) => types.find((x) => x.type === type)?.title || type;

// One list: its first page (after `first`, this player's own games of the list not listed
// there, e.g. its private finished games), and a button following `next` for more.
async function fill(list, path, me, token, first = []) {
  const box = $(list);
  let res;
  try { res = await api(path, { token }); } catch (err) {
    box.replaceChildren(el("li", { class: "hint" }, problemText(err)));
    if (err instanceof ApiProblem && err.code === "invalid_player_key") { setPlayer(null); showPlayer(); }
    return;
  }
  const listed = new Set(res.games.map((g) => g.id));
  const items = [...first.filter((g) => !listed.has(g.id)), ...res.games].map((g) => entry(g, me));
  if (res.next) {
    const more = el("button", { type: "button", class: "more" }, t("More…"));
    more.addEventListener("click", async () => {
      more.remove();
      const page = await api(res.next, { token }).catch(() => ({ games: [] }));
      box.append(...page.games.map((g) => entry(g, me)));
    });
    items.push(el("li", {}, more));
  }
  box.replaceChildren(...(items.length ? items : [el("li", { class: "hint" }, t(EMPTY[list]))]));
}

async function listGames() {
  const me = player();
  // This player's finished games, private ones too, head the finished list.
  const mineDone = me ? (await api("/players/me/games?status=finished&limit=5", { token: me.key }).catch(() => ({ games: [] }))).games : [];
  const jobs = Object.entries(LISTS).map(([list, state]) => fill(list, `/games?status=${state}&limit=10`, me, undefined, state === "finished" ? mineDone : []));
  if (me) jobs.push(fill("#my-games", "/players/me/games?limit=10", me, me.key));
  else $("#my-games").replaceChildren(el("li", { class: "hint" }, t(EMPTY["#my-games"])));
  await Promise.all(jobs);
}

// A hosted game: what it is, "Play now" (quick matchmaking) and its leaderboard.
function typeEntry(type) {
  const play = el("button", { type: "button", class: "play-now primary", "aria-label": `${t("Play now")}: ${type.title}` }, t("Play now")); // the visible words first in its name
  play.addEventListener("click", () => playNow(type, play));
  return el("li", { "data-type": type.type }, el("strong", {}, type.title), " ",
    t("{min}–{max} seats, bots {bots}.", { min: type.min_seats, max: type.max_seats, bots: type.bots.map(botLevel).join(", ") }), " ",
    play, " ", el("a", { href: `/leaderboard/${type.type}` }, t("Leaderboard")), " ", el("span", { class: "my-rating" }));
}

// This browser's player's rating in each game type, beside it (GET /players/{id}).
async function showMyRatings() {
  const me = player();
  if (!me) return;
  try {
    const profile = await api(`/players/${encodeURIComponent(me.id)}`);
    for (const li of document.querySelectorAll("#types li[data-type]")) {
      const r = profile.ratings[li.dataset.type];
      li.querySelector(".my-rating").textContent = r ? t("Your rating: {r} ({n} games)", { r: `${r.rating}${r.provisional ? "?" : ""}`, n: r.games }) : "";
    }
  } catch (err) { /* a profile not found (a key of another server): no ratings shown */ }
}

let seeking = null; // the poll of a seek waiting for its game

async function playNow(type, button) {
  try {
    const me = await ensurePlayer(typedName());
    button.disabled = true;
    let seek = await api("/matchmaking", { method: "POST", token: me.key, body: { type: type.type, seats: type.min_seats } });
    const cancel = el("button", { type: "button", class: "cancel-seek" }, t("Stop looking"));
    const stop = () => { clearInterval(seeking); seeking = null; button.disabled = false; };
    cancel.addEventListener("click", async () => {
      stop();
      try { await api("/matchmaking", { method: "DELETE", token: me.key }); say(t("You left the queue."), "ok"); } catch (err) { say(problemText(err), "error"); }
    });
    const follow = async () => {
      if (seek.status === "matched") {
        stop();
        remember(seek.game_id, { type: type.type, seat: seek.seat, token: null });
        location.href = `/play/${seek.game_id}`;
        return;
      }
      status.set("action", [t("Looking for {n} more player(s) for {title}… ({waiting} waiting) ", { n: type.min_seats - 1, title: type.title, waiting: seek.waiting ?? 1 }), cancel]);
    };
    await follow();
    if (seek.status !== "matched") {
      clearInterval(seeking);
      seeking = setInterval(async () => {
        try { seek = await api("/matchmaking", { token: me.key }); await follow(); } catch (err) { stop(); say(problemText(err), "error"); }
      }, 1000);
    }
  } catch (err) {
    say(problemText(err), "error");
    button.disabled = false;
  }
}

function showPlayer() {
  const me = player();
  $("#you-line").replaceChildren(...(me ? [t("You are {name} on this browser. ", { name: me.name }),
    el("a", { href: `/profile/${me.id}`, id: "my-profile" }, t("Your ratings"))] :
    [t("You become a player when you create or join a game: this browser keeps your key.")]));
  $("#show-key").hidden = !me;
  $("#key-out").textContent = "";
  if (me && !localStorage.getItem("gameserver.name")) $("#name").value = me.name;
}

async function useKey(e) {
  e.preventDefault();
  const key = $("#key-in").value.trim();
  try {
    const me = await api("/players/me", { token: key });
    setPlayer({ ...me, key });
    $("#key-in").value = "";
    say(t("Welcome back, {name}.", { name: me.name }), "ok");
    showPlayer();
    listGames();
    showMyRatings();
  } catch (err) { say(problemText(err), "error"); }
}

async function start() {
  $("#name").value = localStorage.getItem("gameserver.name") || player()?.name || friendlyName();
  showPlayer();
  try {
    types = (await api("/game-types")).game_types;
    learnBotNames(types);
  } catch (err) { say(problemText(err), "error"); return; }
  $("#type").replaceChildren(...types.map((t) => el("option", { value: t.type }, t.title)));
  $("#types").replaceChildren(...types.map(typeEntry));
  $("#type").addEventListener("change", showType);
  $("#add-seat").addEventListener("click", () => { $("#seats").append(seatRow("bot:" + current().bots.at(-1))); syncSeats(); });
  $("#create").addEventListener("submit", create);
  $("#open").addEventListener("submit", (e) => { e.preventDefault(); location.href = `/play/${encodeURIComponent($("#open-id").value.trim())}`; });
  $("#name").addEventListener("input", () => { if ($("#name").value.trim()) localStorage.setItem("gameserver.name", $("#name").value.trim()); });
  $("#refresh").addEventListener("click", listGames);
  $("#show-key").addEventListener("click", () => { $("#key-out").textContent = player()?.key || ""; });
  $("#use-key").addEventListener("submit", useKey);
  $("#clock-kind").addEventListener("change", showClock);
  showType();
  showClock();
  startVacations();
  listGames();
  showMyRatings();
  // The lists follow the server while the page is looked at (not while a list holds the focus).
  setInterval(() => {
    if (document.visibilityState === "visible" && !document.activeElement?.closest(".games")) listGames();
  }, 15000);
}

start();
