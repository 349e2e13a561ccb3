// The ratings' pages: a game type's leaderboard (GET /leaderboards/{type}, or a season's: GET
// /seasons/{type} lists them, GET /seasons/{type}/{season}/leaderboard) and a player's profile
// (GET /players/{id}) with a chart of each rating's history, its seasons' results, and the
// player's menu (person.js: follow, challenge, mute, block, report).
import { api, ApiProblem, botLabel, botLevel, el, learnBotNames, player } from "./api.js";
import { ago, lang, t } from "./i18n.js";
import { PROFILE_ACTIONS, personMenu } from "./person.js";

const $ = (sel) => document.querySelector(sel);
const last = decodeURIComponent(location.pathname.split("/").pop());

function say(message, kind = "info") {
  $("#status").textContent = message;
  $("#status").className = "status " + kind;
}

const problemText = (err) => (err instanceof ApiProblem ? err.sentence : t("The server cannot be reached."));

const whoCell = (e) => (e.bot ? el("td", {}, t("{bot} bot", { bot: botLevel(e.bot) }))
  : el("td", {}, el("a", { href: `/profile/${encodeURIComponent(e.player.id)}` }, e.player.name ?? e.player.id)));

const ratingText = (r) => `${r.rating}${r.provisional ? "?" : ""}`;

async function leaderboard() {
  // the game's title and its bots' names in the page's language (GET /game-types)
  const types = await api("/game-types").then((r) => r.game_types, () => []);
  learnBotNames(types);
  $("#title").textContent = t("Leaderboard: {type}", { type: types.find((g) => g.type === last)?.title || last });
  document.title = $("#title").textContent;
  const body = $("#board tbody");
  let next = null;
  const load = async (path, append) => {
    try {
      const page = await api(path);
      const rows = page.players.map((e) => el("tr", {}, el("td", {}, String(e.rank)), whoCell(e),
        el("td", { class: "rating" }, ratingText(e)), el("td", {}, String(e.games)), el("td", {}, String(e.wins))));
      if (append) body.append(...rows); else body.replaceChildren(...rows);
      next = page.next;
      $("#more").hidden = !next;
      say(body.children.length ? "" : t($("#provisional").checked ? "Nobody is rated yet." :
        "Nobody has an established rating yet: show the provisional ones."));
    } catch (err) { say(problemText(err), "error"); }
  };
  const first = () => {
    const provisional = $("#provisional").checked ? "include" : "exclude";
    const season = $("#season").value;
    if (season) history.replaceState(null, "", `?season=${season}`);
    else history.replaceState(null, "", location.pathname);
    return load(season ? `/seasons/${encodeURIComponent(last)}/${encodeURIComponent(season)}/leaderboard?provisional=${provisional}`
      : `/leaderboards/${encodeURIComponent(last)}?provisional=${provisional}`, false);
  };
  await seasonChoices();
  $("#provisional").addEventListener("change", first);
  // a month is short: a season's table shows everyone rated in it unless asked otherwise (the API's default)
  $("#season").addEventListener("change", () => { if ($("#season").value) $("#provisional").checked = true; first(); });
  if ($("#season").value) $("#provisional").checked = true;
  $("#more").addEventListener("click", () => next && load(next, true));
  await first();
}

// A season (a calendar month, UTC) as a person reads it: "December 2026", "2026년 12월".
const monthOf = (season) => new Intl.DateTimeFormat(lang(), { year: "numeric", month: "long", timeZone: "UTC" }).format(season.starts);

// The leaderboard's season switch: all time, the running month, the past months (newest first);
// ?season=YYYY-MM chooses one.
async function seasonChoices() {
  try {
    const list = await api(`/seasons/${encodeURIComponent(last)}`);
    for (const season of list.seasons) {
      const text = season.season === list.current ? t("{month} (this season)", { month: monthOf(season) }) : monthOf(season);
      $("#season").append(new Option(text, season.season));
    }
    const asked = new URLSearchParams(location.search).get("season");
    if (asked && list.seasons.some((s) => s.season === asked)) $("#season").value = asked;
  } catch (err) { /* no seasons for this type: all time only */ }
}

// A player's seasons, per game type, newest first: the month's rating, rank, games and wins.
async function seasonsOf(p) {
  const titles = {};
  try { for (const g of (await api("/game-types")).game_types) titles[g.type] = g.title || g.type; } catch { /* the ids then */ }
  const items = Object.entries(p.seasons || {}).flatMap(([type, seasons]) => seasons.map((s) => el("li", { "data-type": type, "data-season": s.season },
    el("strong", {}, titles[type] || type), " · ", monthOf(s), " · ",
    t("rank {rank}, rating {rating}, {n} games, {w} wins", { rank: s.rank, rating: ratingText(s), n: s.games, w: s.wins }), " ",
    el("a", { href: `/leaderboard/${encodeURIComponent(type)}?season=${s.season}` }, t("season's table")))));
  $("#seasons").replaceChildren(...items);
  $("#seasons-box").hidden = items.length === 0;
}

// A newcomer's rating (api/ratings/ledger.py: the displayed estimate starts at 1500): where a
// history's line starts, so one game already draws a line.
const START = 1500;

// A rating's history as an SVG line (the newest on the right), from the newcomer's start: drawn
// at its container's width (a phone's too), its points marked, the first and last ratings said
// beside it in text (12 px and up, never scaled down).
function chart(points) {
  if (!points.length) return null;
  const values = [START, ...points.map((p) => p.rating)];
  const w = 320, h = 90, pad = 8, lo = Math.min(...values), hi = Math.max(...values), span = Math.max(1, hi - lo);
  const xy = values.map((v, i) => [pad + i * (w - 2 * pad) / (values.length - 1), h - pad - (v - lo) * (h - 2 * pad) / span]);
  const svgEl = (tag, attrs) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  const said = t("Rating from {from} to {to} over {n} games", { from: values[0], to: values.at(-1), n: points.length });
  const svg = svgEl("svg", { viewBox: `0 0 ${w} ${h}`, class: "chart", role: "img", "aria-label": said, preserveAspectRatio: "none" });
  svg.append(svgEl("polyline", { points: xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "), fill: "none", stroke: "currentColor", "stroke-width": 2, "vector-effect": "non-scaling-stroke" }));
  return el("figure", { class: "rating-chart" }, svg, el("figcaption", { class: "hint", text: said }));
}

// The player's finished public games (GET /players/{id}/games), newest first: the game's title,
// who sat, how the player finished, when, and its replay; more on request.
function gameItem(g, titles, id) {
  const you = g.you ?? g.seats.findIndex((s) => s.player === id);
  const others = g.seats.map((s, i) => (i === you ? null : s.bot ? botLabel(g.seats, i) : s.name)).filter(Boolean).join(", ");
  const r = g.result || {};
  const outcome = r.outcome === "abandoned" ? t("abandoned") : r.outcome === "aborted" ? t("aborted")
    : (r.winners || []).includes(you) ? t("won") : (r.winners || []).length ? t("lost") : t("no winner");
  return el("li", { "data-game": g.id }, el("strong", {}, titles[g.type] || g.type), " · ",
    t("with {others}", { others: others || "–" }), " · ", el("span", { class: "outcome" }, outcome), " · ", ago(g.last_move_at), " ",
    el("a", { href: `/replay/${encodeURIComponent(g.id)}`, class: "button" }, t("Replay")));
}
async function finishedGames(id, titles) {
  let next = `/players/${encodeURIComponent(id)}/games?limit=10`;
  const more = async () => {
    try {
      const page = await api(next);
      $("#games").append(...page.games.map((g) => gameItem(g, titles, id)));
      next = page.next;
      $("#more-games").hidden = !next;
      $("#games-box").hidden = $("#games").children.length === 0;
    } catch (err) { say(problemText(err), "error"); }
  };
  $("#more-games").addEventListener("click", more);
  await more();
}

// What the visitor's player may do about this one, laid open (nothing on one's own profile).
function actions(p) {
  const me = player();
  if (!me || me.id === p.id) return;
  $("#actions").replaceChildren(el("h2", { id: "actions-h" }, t("You and {name}", { name: p.name })),
    personMenu(p, { offer: PROFILE_ACTIONS, say, open: true }),
    el("p", {}, el("a", { href: "/web/friends.html" }, t("Your friends"))));
  $("#actions").hidden = false;
}

async function profile() {
  try {
    const [p, types] = await Promise.all([api(`/players/${encodeURIComponent(last)}`), api("/game-types").then((r) => r.game_types, () => [])]);
    learnBotNames(types);
    const titles = Object.fromEntries(types.map((g) => [g.type, g.title || g.type]));
    $("#title").textContent = p.name;
    document.title = p.name;
    const items = Object.entries(p.ratings).map(([type, r]) => el("li", { "data-type": type },
      el("strong", {}, titles[type] || type), " ", el("span", { class: "rating" }, ratingText(r)),
      " · " + t("{n} games, {w} wins", { n: r.games, w: r.wins }) + " ", el("a", { href: `/leaderboard/${encodeURIComponent(type)}` }, t("leaderboard")),
      chart(r.history)));
    $("#ratings").replaceChildren(...items);
    await Promise.all([seasonsOf(p), finishedGames(p.id || last, titles)]);
    actions(p);
    say(items.length ? "" : t("No rated game yet."));
  } catch (err) { say(problemText(err), "error"); }
}

if (document.body.dataset.page === "leaderboard") leaderboard(); else profile();
