// A finished game's analysis on its replay page (issue 34): GET /games/{id}/analysis drawn as
// each person's winning chance along the game (SVG, one line per seat: the chance before each
// decision, then after it), its costliest decisions marked (red dots, and a list linking to
// their versions with what the search level would have played), and for a player of the game
// a "Request analysis" button (POST, then asked again while the workers compute it).
import { api, ApiProblem, botLevel, el, player, seatName } from "./api.js";
import { lang, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
// The chart is drawn at its container's width (at most 640 px, at least 280: a phone's page is
// never widened by it) and scales with it, so its text (12 px) stays 12 CSS px as drawn.
const MAX_WIDTH = 640, MIN_WIDTH = 280, HEIGHT = 180, PAD = 34, FONT = 12;
const COLORS = ["#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b7791f", "#0987a0"];
const percent = (p) => new Intl.NumberFormat(lang(), { style: "percent", maximumFractionDigits: 0 }).format(p);

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

// The curve and the marks of `analysis` (a 200 answer) into `container`.
export function drawAnalysis(container, analysis, game) {
  const decisions = analysis.decisions;
  if (!decisions.length) {
    container.replaceChildren(el("p", { text: t("No person made a decision in this game: nothing to analyse.") }));
    return;
  }
  const WIDTH = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, container.clientWidth || MAX_WIDTH)));
  const nth = new Map(decisions.map((d, i) => [d.version, i + 1])); // a decision's number, as a person counts
  const first = decisions[0].version, last = Math.max(decisions[decisions.length - 1].version + 1, first + 1);
  const x = (v) => PAD + ((v - first) / (last - first)) * (WIDTH - 2 * PAD);
  const y = (p) => HEIGHT - PAD - p * (HEIGHT - 2 * PAD);
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: "img", class: "analysis-curve",
    "aria-label": t("Each person's winning chance before and after each decision, as the search estimates it") });
  for (const p of [0, 0.5, 1]) {
    chart.append(svg("line", { x1: PAD, x2: WIDTH - PAD, y1: y(p), y2: y(p), stroke: "#ccc", "stroke-dasharray": p === 0.5 ? "4 3" : "" }),
      svg("text", { x: 2, y: y(p) + 4, "font-size": FONT, fill: "#555" }, document.createTextNode(percent(p))));
  }
  const seats = [...new Set(decisions.map((d) => d.seat))];
  for (const seat of seats) {
    const own = decisions.filter((d) => d.seat === seat);
    const points = own.flatMap((d) => [[x(d.version), y(d.chance_before)], [x(d.version + 0.5), y(d.chance_after)]]);
    const color = COLORS[seat % COLORS.length];
    chart.append(svg("polyline", { points: points.map((p) => p.join(",")).join(" "), fill: "none", stroke: color, "stroke-width": 2, "data-seat": seat }));
    for (const d of own.filter((d) => d.marked)) {
      chart.append(svg("circle", { cx: x(d.version + 0.5), cy: y(d.chance_after), r: 5, fill: "#c53030", class: "analysis-mark", "data-version": d.version },
        svg("title", {}, document.createTextNode(t("Decision {n}: {before} → {after}", { n: nth.get(d.version), before: percent(d.chance_before), after: percent(d.chance_after) })))));
    }
  }
  const swatch = (seat) => svg("svg", { width: 18, height: 10, "aria-hidden": "true" },
    svg("line", { x1: 0, x2: 18, y1: 5, y2: 5, stroke: COLORS[seat % COLORS.length], "stroke-width": 3 }));
  const legend = el("p", { class: "analysis-legend" }, ...seats.map((seat) =>
    el("span", { "data-seat": seat }, swatch(seat), " ", seatName(game, seat), " ")));
  const marked = decisions.filter((d) => d.marked);
  // the marked decisions as a list a screen reader reads: a number, whose chance, the bot's move
  const list = marked.length
    ? el("ol", { class: "analysis-marks", "aria-label": t("Costly decisions") }, ...marked.map((d) => el("li", { "data-version": d.version },
      el("a", { href: `#v=${d.version}` }, t("Decision {n}", { n: nth.get(d.version) })), " ",
      t("{who}'s winning chance {before} → {after}.", { who: seatName(game, d.seat), before: percent(d.chance_before), after: percent(d.chance_after) }),
      d.played_suggested ? "" : " " + t("The {level} bot would have played: {move}.",
        { level: botLevel(analysis.level), move: d.suggested_label || JSON.stringify(d.suggested) }))))
    : el("p", { text: t("No decision cost much: none is marked.") });
  container.replaceChildren(el("h2", { text: t("Analysis") }), chart, legend, list);
}

// The analysis section of a replay: drawn when done, "being computed" while pending (asked
// again after Retry-After), and a button for a player of the game when nobody asked yet.
export async function showAnalysis(container, game, { poll = 2000 } = {}) {
  if (!container || !game || game.status !== "finished") return;
  const me = player();
  const say = (text, ...more) => container.replaceChildren(el("h2", { text: t("Analysis") }), el("p", { class: "analysis-status", text }), ...more);
  const button = () => el("button", { type: "button", id: "request-analysis", onclick: request }, t("Request analysis"));
  async function request() {
    try {
      const answer = await api(`/games/${game.id}/analysis`, { method: "POST", token: me.key });
      return answer.status === "done" ? drawAnalysis(container, answer, game) : wait();
    } catch (err) { say(err instanceof ApiProblem ? err.sentence : t("The server cannot be reached."), button()); }
  }
  async function wait() {
    say(t("The analysis is being computed…"));
    setTimeout(load, poll);
  }
  async function load() {
    let answer;
    try { answer = await api(`/games/${game.id}/analysis`); } catch (err) {
      return say(err instanceof ApiProblem ? err.sentence : t("The server cannot be reached."));
    }
    if (answer.status === "done") return drawAnalysis(container, answer, game);
    if (answer.status === "pending") return wait();
    const mine = me?.key && game.you !== null && game.you !== undefined;
    return mine ? say(t("No analysis yet: the search level can go through your decisions."), button())
      : say(t("No analysis yet: a player of this game can ask for one."));
  }
  return load();
}
