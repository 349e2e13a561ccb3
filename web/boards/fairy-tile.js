import { s, text, piece, board, named, hexPoints, SEAT_COLOURS } from "../svg.js";
import { t } from "../i18n.js";

const TERRAIN = { plain: "#b2f2bb", forest: "#2f9e44", mountain: "#adb5bd", castle: "#e599f7", lake: "#74c0fc", swamp: "#94d82d" };
const DIRS = { e: 0, se: 60, sw: 120, w: 180, nw: 240, ne: 300 };
const FIGURES = { princess: ["P", "#d6336c"], knight: ["K", "#495057"], dragon: ["D", "#e03131"] };

// What a person clicks: the figure, then the hex it goes to; the place of the tile (its turns
// are the bar's choices); the card in hand to turn the page.
export function clicks(move) {
  if (move.type === "move") return [`figure:${move.figure}`, (move.to || []).join(",")];
  if (move.type === "lay_tile") return [move.at.join(",")];
  if (move.type === "turn_page") return ["hand-card"];
  return [];
}

function hex(pos, R, q, r, terrain, river, ref, label) {
  const [x, y] = pos(q, r);
  const rivers = (river || []).map((d) => {
    const a = (Math.PI / 180) * DIRS[d];
    return s("line", { x1: x, y1: y, x2: x + R * 0.87 * Math.cos(a), y2: y + R * 0.87 * Math.sin(a), stroke: "#1c7ed6", "stroke-width": 6, "stroke-linecap": "round" });
  });
  return piece(ref, label, s("polygon", { points: hexPoints(x, y, R - 1), fill: TERRAIN[terrain] || "#fff", stroke: "#5c5f66", "stroke-width": 1.5, class: "shape" }),
    rivers, terrain === "castle" ? text(x, y + 7, "♜", { "text-anchor": "middle", "font-size": Math.max(14, R * 0.6) }) : null,
    terrain === "mountain" ? text(x, y - R * 0.3, "▲", { "text-anchor": "middle", "font-size": 14, fill: "#495057" }) : null);
}

// Where a hex is, as a person sees it: the figures on it, else the nearest figure, how many hexes
// away and in which direction ("2 hexes north-east of the princess"): never coordinates.
const COMPASS = ["east", "south-east", "south-west", "west", "north-west", "north-east"]; // clockwise from east (y grows down)
const hexDistance = ([q1, r1], [q2, r2]) => (Math.abs(q1 - q2) + Math.abs(q1 + r1 - q2 - r2) + Math.abs(r1 - r2)) / 2;
function whereIs(game, q, r) {
  const on = [], figures = Object.entries(game.view.figures || {}).filter(([, at]) => at);
  for (const [name, at] of figures) if (at[0] === q && at[1] === r) on.push(named(game, name));
  if (on.length) return t("{figures} on it", { figures: on.join(t(" and ")) });
  let near = null;
  for (const [name, at] of figures) {
    const d = hexDistance([q, r], at);
    if (!near || d < near.d) near = { name, at, d };
  }
  if (!near) return null;
  const [dx, dy] = [Math.sqrt(3) * (q - near.at[0] + (r - near.at[1]) / 2), 1.5 * (r - near.at[1])];
  const dir = t(COMPASS[Math.round(((Math.atan2(dy, dx) * 180 / Math.PI) + 360) % 360 / 60) % 6]);
  return t(near.d === 1 ? "1 hex {dir} of {figure}" : "{n} hexes {dir} of {figure}", { n: near.d, dir, figure: named(game, near.name) });
}
const terrainAt = (game, at) => (game.view.kingdom || []).find((h) => h.q === at?.[0] && h.r === at?.[1])?.terrain;

// The kingdom's hexes, the places the next tile may go, and the figures on top (pieces of their
// own: a figure is what a person picks first to move it). Each is named by what a person sees.
function kingdom(game, moves, R) {
  const v = game.view;
  const pos = (q, r) => [R * Math.sqrt(3) * (q + r / 2), R * 1.5 * r];
  const spots = new Set(moves.filter((m) => m.type === "lay_tile").map((m) => m.at.join(",")));
  const coords = [...(v.kingdom || []).map((h) => [h.q, h.r]), ...[...spots].map((k) => k.split(",").map(Number))];
  const xs = coords.map(([q, r]) => pos(q, r)[0]), ys = coords.map(([q, r]) => pos(q, r)[1]);
  const box = { minX: Math.min(...xs, 0) - R - 4, minY: Math.min(...ys, 0) - R - 4, maxX: Math.max(...xs, 0) + R + 4, maxY: Math.max(...ys, 0) + R + 4 };
  const parts = [];
  for (const k of spots) {
    const [q, r] = k.split(",").map(Number), [x, y] = pos(q, r);
    parts.push(piece(k, [t("an empty place"), whereIs(game, q, r), t("the next tile may go here")].filter(Boolean).join(", "),
      s("polygon", { points: hexPoints(x, y, R - 3), fill: "#fff", "fill-opacity": 0.5, stroke: "#868e96", "stroke-dasharray": "4 3", class: "shape" })));
  }
  const figureAt = {};
  for (const [name, at] of Object.entries(v.figures || {})) if (at) (figureAt[at.join(",")] ||= []).push(name);
  for (const h of v.kingdom || []) {
    const k = `${h.q},${h.r}`, terrain = h.river?.length ? t("{terrain} with a river", { terrain: t(h.terrain) }) : t(h.terrain);
    parts.push(hex(pos, R, h.q, h.r, h.terrain, h.river, k, [terrain, whereIs(game, h.q, h.r)].filter(Boolean).join(", ")));
  }
  for (const [k, names] of Object.entries(figureAt)) {
    const [x, y] = pos(...k.split(",").map(Number)), terrain = terrainAt(game, k.split(",").map(Number));
    names.forEach((name, i) => {
      const [letter, colour] = FIGURES[name];
      const r = Math.max(12.5, R * 0.34), fx = x - (names.length - 1) * r * 0.75 + i * r * 1.5, fy = y + R * 0.25; // at least 25 px: a tap target
      const called = named(game, name);
      parts.push(s("g", { "data-ref": `figure:${name}`, "data-tip": name, "data-last": name, "data-name": called,
        "aria-label": terrain ? t("{figure} on the {terrain}", { figure: called, terrain: t(terrain) }) : called },
      s("title", {}, called),
      s("circle", { cx: fx, cy: fy, r, fill: colour, stroke: "#fff", "stroke-width": 2, class: "shape" }),
      text(fx, fy + 5, game.names?.[name]?.[0] ?? letter, { "text-anchor": "middle", fill: "#fff", "font-weight": "bold", "font-size": 14 })));
    });
  }
  return { parts, box };
}

// The side: the turn, the next tile, the seats, your card (a piece: turning the page uses it).
function side(game, sx, width) {
  const v = game.view, out = [];
  out.push(text(sx, 20, t("Turn {n} · pile {pile}", { n: v.turn, pile: v.pile_size }), { "font-weight": "bold", "font-size": 15 }));
  if (v.next_tile) { // its three hexes, and its name (the server's, terrains and river) under them
    const { tile, side: face, hexes } = v.next_tile;
    out.push(text(sx, 44, t("Next tile:"), { "font-size": 13 }));
    hexes.forEach((h, i) => out.push(s("polygon", { points: hexPoints(sx + 30 + i * 66, 72, 20), fill: TERRAIN[h.terrain] || "#fff", stroke: "#555" })));
    out.push(text(sx, 108, named(game, `${tile}:${face}`, hexes.map((h) => t(h.terrain)).join("-")), { "font-size": 12 }));
  }
  const w = Math.min(230, width - 8);
  (v.seats || []).forEach((p, i) => {
    const y = 126 + i * 50, acting = (game.to_act || []).includes(p.seat);
    out.push(s("rect", { x: sx, y, width: w, height: 44, rx: 8, fill: acting ? "#fff4d6" : "#f8f9fa", stroke: SEAT_COLOURS[p.seat % 6], "stroke-width": 2 }),
      text(sx + 8, y + 18, game.seatNames[p.seat], { "font-size": 13, "font-weight": "bold" }),
      text(sx + 8, y + 36, [t("book {n} · told {told}", { n: p.book_size, told: p.told.length }), p.magic_active ? t("magic") : null, p.out ? t("out") : null].filter(Boolean).join(" · "), { "font-size": 12 }));
  });
  let bottom = 126 + (v.seats || []).length * 50;
  if (v.hand) {
    // its title and what it asks (the rules' effect, in the page's language; its story text
    // where the rules give none)
    const y = bottom + 6, room = w - 16, called = named(game, v.hand.id, `#${v.hand.number}`); // its number until the titles in the page's language are read
    const title = wrap(t("Your card: {title}", { title: called }), room, 13), body = wrap(cardText(game, v.hand), room, 12);
    const name = [...title, ...body].join(" "); // its name and tooltip are its text (axe: label-content-name-mismatch); no effect tip: the text is the effect
    out.push(s("g", { "data-ref": "hand-card", "data-last": v.hand.id, "data-name": called, "aria-label": name },
      s("title", {}, name),
      s("rect", { x: sx, y, width: w, height: 24 + (title.length + body.length) * 16, rx: 8, fill: "#fff9db", stroke: "#e8a200", class: "shape" }),
      // each line ends in a space (not drawn): read one after another they are the card's name
      title.map((line, i) => text(sx + 8, y + 20 + i * 16, line + " ", { "font-size": 13, "font-weight": "bold" })),
      body.map((line, i) => text(sx + 8, y + 24 + (title.length + i) * 16, line + " ", { "font-size": 12 }))));
    bottom = y + 24 + (title.length + body.length) * 16;
  }
  return { parts: out, bottom };
}

// The zoomed views of a phone's kingdom: the hexes' radius at each step, from as big as fit the
// screen to one where every hex is at least 44 px across (a radius of 27: WCAG's enhanced target
// size), and beyond, at most 48.
export const zoomable = true;
const ZOOM_STEP = 1.4, ZOOMED_R = 27, MOST_R = 48;
export function zoomSteps(fit) {
  const steps = [fit];
  while (steps.at(-1) < MOST_R && steps.length < 6) steps.push(Math.min(MOST_R, Math.max(steps.at(-1) * ZOOM_STEP, ZOOMED_R)));
  return steps;
}

export function render(game, moves = [], layout = {}) {
  if (!layout.narrow) {
    const { parts, box } = kingdom(game, moves, 34);
    const w = box.maxX - box.minX, h = box.maxY - box.minY;
    const { parts: aside, bottom } = side(game, w + 20, 240);
    return board(Math.max(w + 260, 500), Math.max(h, bottom + 10), t("Fairy Tile kingdom"),
      s("g", { transform: `translate(${-box.minX},${-box.minY})` }, ...parts), ...aside);
  }
  // a phone: the kingdom as wide as the screen (its hexes as big as fit, at most the desktop's),
  // the side below it; zoomed in (layout.zoom, a step of zoomSteps), wider than the screen: the
  // page scrolls it (board.js)
  const width = layout.width;
  const probe = kingdom(game, moves, 34).box;
  const fit = Math.max(16, Math.min(34, 34 * (width - 4) / (probe.maxX - probe.minX)));
  const steps = zoomSteps(fit), step = Math.min(layout.zoom || 0, steps.length - 1);
  const { parts, box } = kingdom(game, moves, steps[step]);
  const h = box.maxY - box.minY, wide = step ? Math.max(width, box.maxX - box.minX + 8) : width, dx = (wide - (box.maxX - box.minX)) / 2;
  const { parts: aside, bottom } = side(game, 4 + (wide - width) / 2, width); // under the kingdom's centre, where a zoom starts
  const svg = board(wide, h + bottom + 10, t("Fairy Tile kingdom"),
    s("g", { transform: `translate(${dx - box.minX},${-box.minY})` }, ...parts), s("g", { transform: `translate(0,${h + 4})` }, ...aside));
  svg.dataset.zoom = step;
  svg.dataset.zooms = steps.length;
  if (wide > width) { // drawn 1:1, wider than the screen
    svg.setAttribute("width", wide);
    svg.setAttribute("height", h + bottom + 10);
    svg.classList.add("zoomed");
  }
  return svg;
}

// Lines of at most `room` px at `size` px: a Hangul or CJK letter is about 1 em wide, a Latin one
// about 0.55 em.
// A story card's line: its condition in the page's language (the rules' effects, GET
// /game-types/{type}/rules), once they are read; until then none (the card's own text is
// English flavour, never translated: a Korean page would show it for a moment).
function cardText(game, card) {
  return game.effects?.[card.id]?.effect ?? "";
}

function wrap(str, room, size) {
  const wide = (c) => c.codePointAt(0) >= 0x1100;
  const width = (line) => [...line].reduce((sum, c) => sum + (wide(c) ? 1.0 : 0.56) * size, 0);
  const out = [];
  let line = "";
  for (const word of String(str || "").split(" ")) {
    const longer = (line + " " + word).trim();
    if (line && width(longer) > room) { out.push(line); line = word; } else line = longer;
  }
  if (line) out.push(line);
  return out.slice(0, 7);
}

export function describe(game) {
  const v = game.view;
  const where = Object.entries(v.figures || {}).filter(([, at]) => at)
    .map(([k, at]) => t("{figure} on the {terrain}", { figure: named(game, k), terrain: t(terrainAt(game, at) || "plain") })).join(", ");
  const lines = [t("{n} hexes in the kingdom; {figures}.", { n: (v.kingdom || []).length, figures: where })];
  if (v.hand) lines.push([t("Your card: {title}", { title: named(game, v.hand.id, `#${v.hand.number}`) }), cardText(game, v.hand)].filter(Boolean).join(" — "));
  (v.seats || []).forEach((p) => lines.push(t("{name}: book {n}, told {told}.", { name: game.seatNames[p.seat], n: p.book_size, told: p.told.length })));
  return lines;
}
