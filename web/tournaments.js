// The tournaments' pages (issue 52): the list (GET /tournaments: upcoming, running, finished,
// by game type) with a form making one (POST /tournaments: format, seats, rounds or length,
// start, rated, bot entrants; the creator entered too with .../join), and a tournament's page
// (/tournament/{id}, the `links.web` the API gives): its rules in words, its standings, the
// current round's tables with links to watch (or play) each game, a countdown, join and
// withdraw, kept current by the tournament's live stream (GET /tournaments/{id}/stream: each
// event reloads GET /tournaments/{id}, whose standings the server computes).
import { api, ApiProblem, botLevel, el, ensurePlayer, learnBotNames, player } from "./api.js";
import { ago, duration, lang, t } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);

function say(message, kind = "info") {
  $("#status").textContent = message;
  $("#status").className = "status " + kind;
}

const problemText = (err) => (err instanceof ApiProblem ? err.sentence : t("The server cannot be reached."));
const number = (n) => new Intl.NumberFormat(lang(), { maximumFractionDigits: 2 }).format(n);
const moment = (ms) => new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(ms);

// The game types (their titles and bots' names in the page's language), once.
let typesOnce = null;
const gameTypes = () => (typesOnce ??= api("/game-types").then((r) => { learnBotNames(r.game_types); return r.game_types; }, () => []));
const titleOf = (types, type) => types.find((g) => g.type === type)?.title || type;

const FORMATS = { swiss: "Swiss", arena: "Arena", round_robin: "Round robin" };
const formatName = (f) => t(FORMATS[f] || f);

// A bot entrant's id is `bot:<level>` or `bot:<level>#<n>` (the n-th of that level).
function entrantName(entrant, names = {}) {
  if (entrant.startsWith("bot:")) {
    const [level, n] = entrant.slice(4).split("#");
    return n ? t("{bot} bot {n}", { bot: botLevel(level), n }) : t("{bot} bot", { bot: botLevel(level) });
  }
  return names[entrant] || entrant.replace(/^player:/, "");
}

// What a tournament's time says now: how long until it starts or ends, its rounds, its end.
function when(x) {
  const now = Date.now();
  if (x.status === "finished") return t("Finished {ago}.", { ago: ago(x.finished_at || now) });
  if (x.status === "upcoming" || now < x.start) return t("Starts in {d}.", { d: duration(Math.max(0, x.start - now)) });
  if (x.format === "arena") {
    const end = x.start + (x.duration_s || 0) * 1000;
    return end > now ? t("Ends in {d}.", { d: duration(end - now) }) : t("Time is up: the last games end.");
  }
  return x.rounds_total ? t("Round {n} of {total}.", { n: x.rounds_paired, total: x.rounds_total }) : t("Round {n}.", { n: x.rounds_paired });
}

// ---- the list ---------------------------------------------------------------------------------
async function listPage() {
  const types = await gameTypes();
  for (const g of types) {
    $("#filter").append(new Option(g.title || g.type, g.type));
    $("#t-type").append(new Option(g.title || g.type, g.type));
  }
  const asked = new URLSearchParams(location.search).get("type");
  if (asked && types.some((g) => g.type === asked)) $("#filter").value = asked;
  const load = async () => {
    const type = $("#filter").value;
    history.replaceState(null, "", type ? `?type=${encodeURIComponent(type)}` : location.pathname);
    try {
      for (const status of ["upcoming", "running", "finished"]) {
        const q = new URLSearchParams({ status, limit: "20", ...(type ? { type } : {}) });
        const page = await api(`/tournaments?${q}`);
        const box = $("#" + status);
        box.replaceChildren(...(page.tournaments.length ? [] : [el("li", { class: "hint" }, t("None."))]));
        listed(box, types, page);
      }
      say("");
    } catch (err) { say(problemText(err), "error"); }
  };
  $("#filter").addEventListener("change", load);
  await load();
  form(types);
}

// A page of tournaments appended to its list, and while the listing has more, a button that
// fetches the next page (each page then offers the one after it).
function listed(box, types, page) {
  box.append(...page.tournaments.map((x) => el("li", { "data-id": x.id },
    el("a", { class: "tournament-link", href: `/tournament/${encodeURIComponent(x.id)}` },
      t("{game}, {format}", { game: titleOf(types, x.type), format: formatName(x.format) })),
    " · ", t("{n} entrants", { n: number(x.entrants) }), " · ", when(x))));
  if (!page.next) return;
  const more = el("button", { type: "button", class: "more" }, t("More…"));
  const item = el("li", {}, more);
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      const next = await api(page.next);
      if (!box.contains(item)) return; // the list was loaded again meanwhile (another game chosen)
      item.remove();
      listed(box, types, next);
    } catch (err) { more.disabled = false; say(problemText(err), "error"); }
  });
  box.append(item);
}

function form(types) {
  const seats = $("#t-seats"), format = $("#t-format");
  const typeChanged = () => {
    const g = types.find((x) => x.type === $("#t-type").value);
    if (!g) return;
    seats.min = String(g.min_seats);
    seats.max = String(Math.min(6, g.max_seats));
    seats.value = String(Math.min(Math.max(Number(seats.value) || 2, g.min_seats), Number(seats.max)));
    // one number field per bot level: how many of that level enter
    $("#t-bots").replaceChildren(...g.bots.map((level) => el("label", {},
      el("span", {}, t("{bot} bot", { bot: botLevel(level) })), " ",
      el("input", { type: "number", min: "0", max: "16", value: "0", "data-bot": level }))));
    const first = $("#t-bots input");
    if (first) first.value = String(Math.max(1, Number(seats.value) - 1)); // a table's worth with the creator
  };
  const formatChanged = () => {
    $("#t-rounds-box").hidden = format.value === "arena";
    $("#t-duration-box").hidden = format.value !== "arena";
  };
  $("#t-type").addEventListener("change", typeChanged);
  format.addEventListener("change", formatChanged);
  typeChanged();
  formatChanged();
  $("#new-tournament").addEventListener("submit", async (e) => {
    e.preventDefault();
    const entrants = [...document.querySelectorAll("#t-bots input")]
      .flatMap((input) => Array.from({ length: Math.max(0, Number(input.value) || 0) }, () => ({ bot: input.dataset.bot })));
    const later = Number($("#t-start").value), playing = $("#t-me").checked;
    // "now" with the creator playing and bots enough for a table: a start two seconds ahead, so
    // that the creator enters before the first round is paired (not as a late joiner); the
    // server starts it then (its reconciler's pass)
    const start = later ? Date.now() + later * 60_000 : playing && entrants.length >= 2 ? Date.now() + 2000 : "now";
    const body = { type: $("#t-type").value, format: format.value, seats: Number(seats.value), rated: $("#t-rated").checked,
      start, entrants };
    if (format.value === "arena") body.duration_s = Math.round(Number($("#t-duration").value) * 60);
    else if (format.value === "swiss") body.rounds = Number($("#t-rounds").value);
    $("#create-tournament").disabled = true;
    say(t("Creating…"));
    try {
      const me = await ensurePlayer();
      const made = await api("/tournaments", { method: "POST", token: me.key, body });
      if (playing) await api(`/tournaments/${encodeURIComponent(made.id)}/join`, { method: "POST", token: me.key });
      location.href = new URL(made.links?.web || `/tournament/${made.id}`, location.origin).pathname;
    } catch (err) {
      say(problemText(err), "error");
      $("#create-tournament").disabled = false;
    }
  });
}

// ---- a tournament -----------------------------------------------------------------------------
const TIEBREAKS = { buchholz: "Buchholz (opponents' points)", median: "Median Buchholz", opponents_places: "Opponents' places", head_to_head: "Head to head" };
// the standings' columns, short (a phone's width), the whole name their title
const COLUMNS = { buchholz: "Buchholz", median: "Median", opponents_places: "Opp. places", head_to_head: "H2H" };
// A place at a table: English's ordinals by its plural rules ("1st", "2nd"), else the catalogue's ("1위").
function place(n) {
  if (lang() !== "en") return t("place {n}", { n });
  const rule = new Intl.PluralRules("en", { type: "ordinal" }).select(n);
  return `${n}${{ one: "st", two: "nd", few: "rd", other: "th" }[rule]}`;
}

function rulesInWords(x, types) {
  const r = x.rules, lines = [];
  lines.push(t("{game}, {format}.", { game: titleOf(types, r.game_type), format: formatName(r.format) }));
  if (r.format === "arena") lines.push(t("Games for {d}: a player who finishes is paired again with idle players of close standing (never the same opponent twice in a row); {n} straight wins and the next wins count double.", { d: duration((r.duration_s || 0) * 1000), n: r.streak_bonus }));
  else if (r.format === "swiss") lines.push(t("{n} rounds; each round puts players with close scores (then ratings) together, avoiding repeat opponents.", { n: r.rounds }));
  else lines.push(t("Every pair of players meets as evenly as the numbers allow ({n} rounds).", { n: x.rounds_total ?? "?" }));
  lines.push(r.min_seats < r.seats ? t("{n} players a table (at least {min}).", { n: r.seats, min: r.min_seats }) : t("{n} players a table.", { n: r.seats }));
  for (const [size, points] of Object.entries(r.points || {})) {
    lines.push(t("At a table of {n}, points by place: {points}.", { n: size, points: points.map(number).join(" / ") }));
  }
  if (r.bye_points) lines.push(t("A bye is worth {n} points.", { n: number(r.bye_points) }));
  lines.push(r.late_join && r.format !== "round_robin" ? t("Late joining is allowed, worth {n} points.", { n: number(r.late_join_points) })
    : t("No late joining."));
  if (r.tiebreaks?.length) lines.push(t("Ties are broken by: {list}.", { list: r.tiebreaks.map((k) => t(TIEBREAKS[k] || k)).join(", ") }));
  lines.push(t(r.rated ? "Rated: the games count for the ratings." : "Casual: the games are not rated."));
  if (r.clock) lines.push(t("Each game has a clock; a player whose time runs out {n} times is withdrawn.", { n: r.no_show_after }));
  if (r.min_rating != null || r.max_rating != null) lines.push(t("Entry: a rating from {min} to {max}.", { min: r.min_rating ?? 0, max: r.max_rating ?? "∞" }));
  if (r.invited) lines.push(t("Entry: by invitation only."));
  if (r.group) lines.push(t("Entry: members of a group only."));
  return lines.map((line) => el("li", {}, line));
}

function standingsTable(x) {
  const tiebreaks = x.rules.tiebreaks || [];
  const mine = player() && `player:${player().id}`;
  const head = [el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("Player")), el("th", { scope: "col" }, t("Points")),
    ...tiebreaks.map((k) => el("th", { scope: "col", title: t(TIEBREAKS[k] || k) }, t(COLUMNS[k] || k))), el("th", { scope: "col" }, t("Games played"))];
  $("#standings thead tr").replaceChildren(...head);
  const rows = x.standings.map((s) => el("tr", { class: [s.entrant === mine ? "me" : "", s.active === false ? "out" : ""].join(" ").trim() || null, "data-entrant": s.entrant },
    el("td", {}, number(s.rank)),
    el("td", {}, s.entrant.startsWith("player:")
      ? el("a", { href: `/profile/${encodeURIComponent(s.entrant.slice(7))}` }, s.name || s.entrant.slice(7))
      : entrantName(s.entrant),
    s.active === false ? [" ", el("span", { class: "hint" }, t("(withdrawn)"))] : null,
    s.voided ? [" ", el("span", { class: "hint" }, t("(voided)"))] : null),
    el("td", { class: "points" }, number(s.points)),
    ...tiebreaks.map((k) => el("td", {}, s[k] === undefined ? "" : number(s[k]))),
    el("td", {}, number(s.games ?? 0))));
  $("#standings tbody").replaceChildren(...rows);
}

function currentRound(x, names) {
  const round = x.rounds.at(-1);
  const mine = player() && `player:${player().id}`;
  if (!round) {
    $("#round-h").textContent = t("Current round");
    $("#tables").replaceChildren(el("li", { class: "hint" }, t("No round is paired yet.")));
    $("#byes").textContent = "";
    return;
  }
  $("#round-h").textContent = t("Round {n}", { n: round.round });
  // an arena pairs whoever is idle: its games being played, whichever "round" paired them
  const shown = x.format === "arena" ? x.rounds.flatMap((r) => r.tables.filter((k) => !k.places && !k.void)) : round.tables;
  $("#tables").replaceChildren(...(shown.length ? shown.map((k) => {
    const seated = k.seats.map((e) => (k.places ? t("{place} {name}", { place: place(k.places[e]), name: entrantName(e, names) }) : entrantName(e, names)));
    const link = k.game_id ? el("a", { class: "button", href: `/play/${encodeURIComponent(k.game_id)}` },
      k.seats.includes(mine) && !k.places ? t("Play your game") : k.places ? t("Replay") : t("watch")) : null;
    const state = k.void ? t("(voided)") : k.places ? "" : k.game_id ? "" : t("(its game is being made)");
    return el("li", { "data-table": k.table }, t("Table {n}: {who}", { n: k.table, who: seated.join(", ") }), " ", state, link);
  }) : [el("li", { class: "hint" }, t("No game is being played now."))]));
  $("#byes").textContent = round.byes.length ? t("Bye: {who}.", { who: round.byes.map((b) => entrantName(b.entrant, names)).join(", ") }) : "";
}

function entryButtons(x, id) {
  const me = player();
  const entrant = me && `player:${me.id}`;
  const standing = x.standings.find((s) => s.entrant === entrant);
  const inIt = standing && standing.active !== false;
  const act = (what) => async () => {
    try {
      const who = await ensurePlayer();
      shown(await api(`/tournaments/${encodeURIComponent(id)}/${what}`, { method: "POST", token: who.key }));
      say(t(what === "join" ? "You are in the tournament." : "You withdrew from the tournament."), "ok");
    } catch (err) { say(problemText(err), "error"); }
  };
  const parts = [];
  if (x.status !== "finished") {
    if (inIt) parts.push(el("span", {}, t("You are in.")), el("button", { type: "button", id: "withdraw", onclick: act("withdraw") }, t("Withdraw")));
    else if (!standing) parts.push(el("button", { type: "button", id: "join", class: "primary", onclick: act("join") }, t("Join the tournament")));
    else parts.push(el("span", {}, t("You withdrew.")));
  }
  $("#entry").replaceChildren(...parts);
}

let types = [];
let current = null;

function shown(x) {
  current = x;
  const names = Object.fromEntries(x.standings.map((s) => [s.entrant, s.name || s.entrant]));
  $("#title").textContent = t("Tournament: {game}, {format}", { game: titleOf(types, x.type), format: formatName(x.format) });
  document.title = $("#title").textContent;
  $("#countdown").textContent = when(x) + (x.status === "upcoming" ? " " + t("({at})", { at: moment(x.start) }) : "");
  entryButtons(x, x.id);
  standingsTable(x);
  currentRound(x, names);
  $("#rules").replaceChildren(...rulesInWords(x, types));
  $("#history").href = `/tournaments/${encodeURIComponent(x.id)}/events`;
}

async function tournamentPage() {
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  types = await gameTypes();
  let failed = false; // a reload clears its own refusal, never what the person was just told
  const load = async () => {
    try {
      shown(await api(`/tournaments/${encodeURIComponent(id)}`));
      if (failed) say("");
      failed = false;
    } catch (err) { say(problemText(err), "error"); failed = true; }
  };
  await load();
  // the game's season leaderboard (GET /seasons/{type}: `current` names the running month)
  if (current) {
    const board = `/leaderboard/${encodeURIComponent(current.type)}`;
    $("#season-link").href = board;
    api(`/seasons/${encodeURIComponent(current.type)}`).then((s) => { $("#season-link").href = `${board}?season=${encodeURIComponent(s.current)}`; }, () => {});
  }
  // the countdown, each second
  setInterval(() => { if (current) $("#countdown").textContent = when(current) + (current.status === "upcoming" ? " " + t("({at})", { at: moment(current.start) }) : ""); }, 1000);
  // live: each event of the tournament's stream reloads it (a burst of events, once)
  let pending = null;
  const again = () => { clearTimeout(pending); pending = setTimeout(load, 150); };
  const stream = new EventSource(`/tournaments/${encodeURIComponent(id)}/stream`);
  for (const type of ["entrant_entered", "entrant_late_joined", "entrant_withdrawn", "round_paired", "game_linked",
    "game_result", "result_adjusted", "tournament_finished"]) stream.addEventListener(type, again);
  stream.addEventListener("open", () => { $("#live").textContent = t("live"); $("#live").classList.remove("down"); load(); });
  stream.addEventListener("error", () => {
    if (current?.status === "finished") { stream.close(); $("#live").textContent = t("finished"); return; }
    $("#live").textContent = t("reconnecting…");
    $("#live").classList.add("down");
  });
}

if (document.body.dataset.page === "tournament") tournamentPage(); else listPage();
