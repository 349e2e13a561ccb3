// The ratings' pages: a game type's leaderboard (GET /leaderboards/{type}) and a player's
// profile (GET /players/{id}) with a chart of each rating's history.
import { api, ApiProblem, botLevel, el, learnBotNames } from "./api.js";
import { t } from "./i18n.js";

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
  const first = () => load(`/leaderboards/${encodeURIComponent(last)}?provisional=${$("#provisional").checked ? "include" : "exclude"}`, false);
  $("#provisional").addEventListener("change", first);
  $("#more").addEventListener("click", () => next && load(next, true));
  await first();
}

// A rating's history as an SVG line (the newest on the right).
function chart(points) {
  const w = 320, h = 90, pad = 6;
  if (points.length < 2) return el("span", { class: "hint" }, points.length ? t("one game so far") : "");
  const values = points.map((p) => p.rating), lo = Math.min(...values), hi = Math.max(...values), span = Math.max(1, hi - lo);
  const xy = values.map((v, i) => `${(pad + i * (w - 2 * pad) / (values.length - 1)).toFixed(1)},${(h - pad - (v - lo) * (h - 2 * pad) / span).toFixed(1)}`);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("Rating from {from} to {to} over {n} games", { from: values[0], to: values.at(-1), n: values.length }));
  const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
  line.setAttribute("points", xy.join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  return svg;
}

async function profile() {
  try {
    const p = await api(`/players/${encodeURIComponent(last)}`);
    $("#title").textContent = p.name;
    document.title = p.name;
    const items = Object.entries(p.ratings).map(([type, r]) => el("li", { "data-type": type },
      el("strong", {}, type), " ", el("span", { class: "rating" }, ratingText(r)),
      " · " + t("{n} games, {w} wins", { n: r.games, w: r.wins }) + " ", el("a", { href: `/leaderboard/${encodeURIComponent(type)}` }, t("leaderboard")),
      el("div", {}, chart(r.history))));
    $("#ratings").replaceChildren(...items);
    say(items.length ? "" : t("No rated game yet."));
  } catch (err) { say(problemText(err), "error"); }
}

if (document.body.dataset.page === "leaderboard") leaderboard(); else profile();
