// The lobby: the hosted games, a form creating one (you, bots, seats left open or by
// invitation), and the server's listing (GET /games): open games to join, live games to play or
// watch, finished games to replay; with the player's own games (GET /players/me/games).
import { api, ApiProblem, el, ensurePlayer, player, remember, setPlayer } from "./api.js";

const $ = (sel) => document.querySelector(sel);
let types = [];

function say(message, kind = "info") {
  $("#status").textContent = message;
  $("#status").className = "status " + kind;
}

const current = () => types.find((t) => t.type === $("#type").value);

function seatRow(choice) {
  const t = current();
  const select = el("select", { class: "seat", "aria-label": "Who sits here" },
    el("option", { value: "me" }, "Me"), el("option", { value: "open" }, "Open seat (anyone joins)"),
    el("option", { value: "invite" }, "Invited (with a link)"), t.bots.map((b) => el("option", { value: "bot:" + b }, `Bot: ${b}`)));
  select.value = choice;
  const row = el("li", {}, select, el("button", { type: "button", class: "remove", "aria-label": "Remove this seat",
    onclick: () => { if ($("#seats").children.length > t.min_seats) { row.remove(); syncSeats(); } } }, "✕"));
  return row;
}

function syncSeats() {
  const t = current(), n = $("#seats").children.length;
  $("#add-seat").disabled = n >= t.max_seats;
  for (const b of document.querySelectorAll("#seats .remove")) b.disabled = n <= t.min_seats;
}

function showType() {
  const t = current();
  $("#type-notes").textContent = `${t.min_seats}–${t.max_seats} seats. ${t.notes || ""}`;
  const strongest = t.bots[t.bots.length - 1];
  $("#seats").replaceChildren(seatRow("me"), ...Array.from({ length: t.min_seats - 1 }, () => seatRow("bot:" + strongest)));
  syncSeats();
  const box = $("#options");
  box.replaceChildren();
  for (const o of t.options) {
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
    box.append(el("label", { class: "option" }, input, " ", o.name.replaceAll("_", " "), el("small", { class: "hint" }, " — " + (o.description || ""))));
  }
  $("#options-box").hidden = !t.options.length;
}

function options() {
  const out = {};
  for (const input of document.querySelectorAll("#options [name]")) {
    const kind = input.dataset.kind;
    out[input.name] = kind === "boolean" ? input.checked : kind === "integer" ? Number(input.value) : kind === "choice" ? JSON.parse(input.value) : input.value;
  }
  return out;
}

const problemText = (err) => (err instanceof ApiProblem ? err.sentence : "The server cannot be reached.");

async function create(e) {
  e.preventDefault();
  const name = $("#name").value.trim() || "Me";
  localStorage.setItem("gameserver.name", name);
  const choices = [...document.querySelectorAll("#seats .seat")].map((s) => s.value);
  if (choices.filter((c) => c === "me").length > 1) { say("Only one seat can be yours.", "error"); return; }
  const seats = choices.map((c) => (c === "me" ? { me: true } : c === "open" ? { open: true } : c === "invite" ? { invite: true } : { bot: c.slice(4) }));
  $("#create-btn").disabled = true;
  say("Creating…");
  try {
    // A seat of yours makes you a player (once per browser): the key opens your games later.
    const me = choices.includes("me") ? await ensurePlayer(name) : player();
    const game = await api("/games", { method: "POST", token: choices.includes("me") ? me.key : undefined,
      body: { type: current().type, seats, options: options() } });
    const mine = game.seats.find((s) => s.token);
    remember(game.id, { type: current().type, token: mine?.token || null, seat: mine?.seat ?? null, invite: game.invite_code || null, creator: true });
    location.href = `/play/${game.id}`;
  } catch (err) {
    say(problemText(err), "error");
    $("#create-btn").disabled = false;
  }
}

const ago = (ms) => {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  return s < 60 ? `${s} s ago` : s < 3600 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
};

const seatText = (s) => (s.bot ? `${s.bot} bot` : s.name ?? (s.invite ? "invited seat" : "open seat"));

// The seat this player may claim: open, and not kept for another player.
function freeSeat(g, me) {
  return g.seats.find((s) => s.open && !s.bot && !s.name && (!s.reserved_for || s.reserved_for === me?.id || (s.reserved_until || 0) < Date.now()));
}

async function join(g, button) {
  const seat = freeSeat(g, player());
  if (!seat) return;
  button.disabled = true;
  say(`Joining ${g.type} ${g.id}…`);
  try {
    const me = await ensurePlayer($("#name").value.trim() || "Me");
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

function entry(g, me) {
  const you = g.you ?? g.seats.find((s) => me && s.player === me.id)?.seat;
  const mine = you !== undefined && you !== null;
  const item = el("li", { "data-game": g.id }, el("strong", {}, g.type), " ",
    el("span", { class: "who" }, g.seats.map(seatText).join(", ")), " ", el("small", { class: "hint" }, `· v${g.version} · ${ago(g.last_move_at)} `));
  if (g.status === "waiting") {
    if (mine) item.append(el("a", { href: `/play/${g.id}`, class: "button" }, "Open (waiting for players)"));
    else if (freeSeat(g, me)) {
      const button = el("button", { type: "button", class: "join primary", "aria-label": `Join ${g.type} game ${g.id}` }, "Join");
      button.addEventListener("click", () => join(g, button));
      item.append(button);
    } else item.append(el("span", { class: "hint" }, "by invitation"));
  } else if (g.status === "active") {
    const myTurn = mine && (g.my_turn ?? (g.to_act || []).includes(you));
    item.append(el("a", { href: `/play/${g.id}`, class: "button" + (myTurn ? " primary" : "") }, mine ? (myTurn ? "Play (your turn)" : "Play") : "Watch"));
  } else {
    item.append(el("a", { href: `/replay/${g.id}`, class: "button" }, "Replay"), " ", el("a", { href: `/play/${g.id}` }, "final board"));
  }
  return item;
}

const LISTS = { "#open-games": "waiting", "#live-games": "active", "#done-games": "finished" };
const EMPTY = { "#open-games": "None: create one with an open seat.", "#live-games": "None: create one, or make every seat a bot to watch.",
  "#done-games": "None yet.", "#my-games": "None yet: create or join a game." };

// One list: its first page, and a button following `next` for more.
async function fill(list, path, me, token) {
  const box = $(list);
  let res;
  try { res = await api(path, { token }); } catch (err) {
    box.replaceChildren(el("li", { class: "hint" }, problemText(err)));
    if (err instanceof ApiProblem && err.code === "invalid_player_key") { setPlayer(null); showPlayer(); }
    return;
  }
  const items = res.games.map((g) => entry(g, me));
  if (res.next) {
    const more = el("button", { type: "button", class: "more" }, "More…");
    more.addEventListener("click", async () => {
      more.remove();
      const page = await api(res.next, { token }).catch(() => ({ games: [] }));
      box.append(...page.games.map((g) => entry(g, me)));
    });
    items.push(el("li", {}, more));
  }
  box.replaceChildren(...(items.length ? items : [el("li", { class: "hint" }, EMPTY[list])]));
}

async function listGames() {
  const me = player();
  const jobs = Object.entries(LISTS).map(([list, status]) => fill(list, `/games?status=${status}&limit=10`, me));
  if (me) jobs.push(fill("#my-games", "/players/me/games?limit=10", me, me.key));
  else $("#my-games").replaceChildren(el("li", { class: "hint" }, EMPTY["#my-games"]));
  await Promise.all(jobs);
}

// A hosted game: what it is, "Play now" (quick matchmaking) and its leaderboard.
function typeEntry(t) {
  const play = el("button", { type: "button", class: "play-now primary", "aria-label": `Play ${t.title} now` }, "Play now");
  play.addEventListener("click", () => playNow(t, play));
  return el("li", { "data-type": t.type }, el("strong", {}, t.title), ` (${t.type}): ${t.min_seats}–${t.max_seats} seats, bots ${t.bots.join(", ")}. `,
    el("span", { class: "hint" }, t.notes || ""), " ", play, " ", el("a", { href: `/leaderboard/${t.type}` }, "Leaderboard"),
    " ", el("span", { class: "my-rating" }));
}

// This browser's player's rating in each game type, beside it (GET /players/{id}).
async function showMyRatings() {
  const me = player();
  if (!me) return;
  try {
    const profile = await api(`/players/${encodeURIComponent(me.id)}`);
    for (const li of document.querySelectorAll("#types li[data-type]")) {
      const r = profile.ratings[li.dataset.type];
      li.querySelector(".my-rating").textContent = r ? `Your rating: ${r.rating}${r.provisional ? "?" : ""} (${r.games} games)` : "";
    }
  } catch (err) { /* a profile not found (a key of another server): no ratings shown */ }
}

let seeking = null; // the poll of a seek waiting for its game

async function playNow(t, button) {
  try {
    const me = await ensurePlayer($("#name").value.trim() || "Me");
    button.disabled = true;
    let seek = await api("/matchmaking", { method: "POST", token: me.key, body: { type: t.type, seats: t.min_seats } });
    const cancel = el("button", { type: "button", class: "cancel-seek" }, "Stop looking");
    const stop = () => { clearInterval(seeking); seeking = null; button.disabled = false; };
    cancel.addEventListener("click", async () => {
      stop();
      try { await api("/matchmaking", { method: "DELETE", token: me.key }); say("You left the queue.", "info"); } catch (err) { say(problemText(err), "error"); }
    });
    const follow = async () => {
      if (seek.status === "matched") {
        stop();
        remember(seek.game_id, { type: t.type, seat: seek.seat, token: null });
        location.href = `/play/${seek.game_id}`;
        return;
      }
      $("#status").replaceChildren(`Looking for ${t.min_seats - 1} more player(s) for ${t.title}… (${seek.waiting ?? 1} waiting) `, cancel);
      $("#status").className = "status info";
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
  $("#you-line").replaceChildren(...(me ? [`You are ${me.name} (player ${me.id}) on this browser. `,
    el("a", { href: `/profile/${me.id}`, id: "my-profile" }, "Your ratings")] :
    ["You become a player when you create or join a game: this browser keeps your key."]));
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
    say(`Welcome back, ${me.name}.`, "ok");
    showPlayer();
    listGames();
    showMyRatings();
  } catch (err) { say(problemText(err), "error"); }
}

async function start() {
  $("#name").value = localStorage.getItem("gameserver.name") || "Me";
  showPlayer();
  try {
    types = (await api("/game-types")).game_types;
  } catch (err) { say(problemText(err), "error"); return; }
  $("#type").replaceChildren(...types.map((t) => el("option", { value: t.type }, t.title)));
  $("#types").replaceChildren(...types.map(typeEntry));
  $("#type").addEventListener("change", showType);
  $("#add-seat").addEventListener("click", () => { $("#seats").append(seatRow("bot:" + current().bots.at(-1))); syncSeats(); });
  $("#create").addEventListener("submit", create);
  $("#open").addEventListener("submit", (e) => { e.preventDefault(); location.href = `/play/${encodeURIComponent($("#open-id").value.trim())}`; });
  $("#name").addEventListener("input", () => localStorage.setItem("gameserver.name", $("#name").value.trim() || "Me"));
  $("#refresh").addEventListener("click", listGames);
  $("#show-key").addEventListener("click", () => { $("#key-out").textContent = player()?.key || ""; });
  $("#use-key").addEventListener("submit", useKey);
  showType();
  listGames();
  showMyRatings();
  // The lists follow the server while the page is looked at (not while a list holds the focus).
  setInterval(() => {
    if (document.visibilityState === "visible" && !document.activeElement?.closest(".games")) listGames();
  }, 15000);
}

start();
