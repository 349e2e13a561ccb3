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

// The kingdom's hexes, the places the next tile may go, and the figures on top (pieces of their
// own: a figure is what a person picks first to move it).
function kingdom(game, moves, R) {
  const v = game.view;
  const pos = (q, r) => [R * Math.sqrt(3) * (q + r / 2), R * 1.5 * r];
  const spots = new Set(moves.filter((m) => m.type === "lay_tile").map((m) => m.at.join(",")));
  const coords = [...(v.kingdom || []).map((h) => [h.q, h.r]), ...[...spots].map((k) => k.split(",").map(Number))];
  const xs = coords.map(([q, r]) => pos(q, r)[0]), ys = coords.map(([q, r]) => pos(q, r)[1]);
  const box = { minX: Math.min(...xs, 0) - R - 4, minY: Math.min(...ys, 0) - R - 4, maxX: Math.max(...xs, 0) + R + 4, maxY: Math.max(...ys, 0) + R + 4 };
  const parts = [];
  for (const k of spots) {
    const [x, y] = pos(...k.split(",").map(Number));
    parts.push(piece(k, t("empty place {at}: the next tile may go here", { at: k }), s("polygon", { points: hexPoints(x, y, R - 3), fill: "#fff", "fill-opacity": 0.5, stroke: "#868e96", "stroke-dasharray": "4 3", class: "shape" })));
  }
  const figureAt = {};
  for (const [name, at] of Object.entries(v.figures || {})) if (at) (figureAt[at.join(",")] ||= []).push(name);
  for (const h of v.kingdom || []) {
    const k = `${h.q},${h.r}`, who = (figureAt[k] || []).map((f) => named(game, f)).join(t(" and "));
    parts.push(hex(pos, R, h.q, h.r, h.terrain, h.river, k, [t("hex {at}: {terrain}", { at: k, terrain: t(h.terrain) }), h.river?.length ? t("river") : null, who || null].filter(Boolean).join(", ")));
  }
  for (const [k, names] of Object.entries(figureAt)) {
    const [x, y] = pos(...k.split(",").map(Number));
    names.forEach((name, i) => {
      const [letter, colour] = FIGURES[name];
      const r = Math.max(12.5, R * 0.34), fx = x - (names.length - 1) * r * 0.75 + i * r * 1.5, fy = y + R * 0.25; // at least 25 px: a tap target
      const called = named(game, name);
      parts.push(s("g", { "data-ref": `figure:${name}`, "data-tip": name, "data-last": name, "data-name": called, "aria-label": t("{figure} at {at}", { figure: called, at: k }) },
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
    out.push(text(sx, 108, named(game, `${tile}:${face}`, hexes.map((h) => h.terrain).join("-")), { "font-size": 12 }));
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
    const y = bottom + 6, room = w - 16, called = named(game, v.hand.id, v.hand.title);
    const title = wrap(t("Your card: {title}", { title: called }), room, 13), body = wrap(game.effects?.[v.hand.id]?.effect ?? v.hand.text, room, 12);
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

export function render(game, moves = [], layout = {}) {
  if (!layout.narrow) {
    const { parts, box } = kingdom(game, moves, 34);
    const w = box.maxX - box.minX, h = box.maxY - box.minY;
    const { parts: aside, bottom } = side(game, w + 20, 240);
    return board(Math.max(w + 260, 500), Math.max(h, bottom + 10), t("Fairy Tile kingdom"),
      s("g", { transform: `translate(${-box.minX},${-box.minY})` }, ...parts), ...aside);
  }
  // a phone: the kingdom as wide as the screen (its hexes as big as fit, at most the desktop's),
  // the side below it
  const width = layout.width;
  const probe = kingdom(game, moves, 34).box;
  const R = Math.max(16, Math.min(34, 34 * (width - 4) / (probe.maxX - probe.minX)));
  const { parts, box } = kingdom(game, moves, R);
  const h = box.maxY - box.minY, dx = (width - (box.maxX - box.minX)) / 2;
  const { parts: aside, bottom } = side(game, 4, width);
  return board(width, h + bottom + 10, t("Fairy Tile kingdom"),
    s("g", { transform: `translate(${dx - box.minX},${-box.minY})` }, ...parts), s("g", { transform: `translate(0,${h + 4})` }, ...aside));
}

// Lines of at most `room` px at `size` px: a Hangul or CJK letter is about 1 em wide, a Latin one
// about 0.55 em.
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
  const where = Object.entries(v.figures || {}).map(([k, at]) => t("{figure} at {at}", { figure: named(game, k), at: at?.join(",") })).join(", ");
  const lines = [t("{n} hexes in the kingdom; {figures}.", { n: (v.kingdom || []).length, figures: where })];
  if (v.hand) lines.push(t("Your card: {title}", { title: named(game, v.hand.id, v.hand.title) }) + " — " + (game.effects?.[v.hand.id]?.effect ?? v.hand.text));
  (v.seats || []).forEach((p) => lines.push(t("{name}: book {n}, told {told}.", { name: game.seatNames[p.seat], n: p.book_size, told: p.told.length })));
  return lines;
}
