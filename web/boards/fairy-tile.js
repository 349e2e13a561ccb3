import { s, text, piece, board, hexPoints, SEAT_COLOURS } from "../svg.js";

const TERRAIN = { plain: "#b2f2bb", forest: "#2f9e44", mountain: "#adb5bd", castle: "#e599f7", lake: "#74c0fc", swamp: "#94d82d" };
const DIRS = { e: 0, se: 60, sw: 120, w: 180, nw: 240, ne: 300 };
const FIGURES = { princess: ["P", "#f783ac"], knight: ["K", "#495057"], dragon: ["D", "#e03131"] };
const R = 34;

const pos = (q, r) => [R * Math.sqrt(3) * (q + r / 2), R * 1.5 * r];

function hex(q, r, terrain, river, ref, label, extra = []) {
  const [x, y] = pos(q, r);
  const rivers = (river || []).map((d) => {
    const a = (Math.PI / 180) * DIRS[d];
    const ex = x + R * 0.87 * Math.cos(a), ey = y + R * 0.87 * Math.sin(a);
    return s("line", { x1: x, y1: y, x2: ex, y2: ey, stroke: "#1c7ed6", "stroke-width": 6, "stroke-linecap": "round" });
  });
  return piece(ref, label, s("polygon", { points: hexPoints(x, y, R - 1), fill: TERRAIN[terrain] || "#fff", stroke: "#5c5f66", "stroke-width": 1.5, class: "shape" }),
    rivers, terrain === "castle" ? text(x, y + 6, "♜", { "text-anchor": "middle", "font-size": 22 }) : null,
    terrain === "mountain" ? text(x, y - 10, "▲", { "text-anchor": "middle", "font-size": 14, fill: "#495057" }) : null, extra);
}

export function render(game, moves = []) {
  const v = game.view;
  const parts = [];
  const spots = new Set();
  for (const m of moves) if (m.type === "lay_tile") spots.add(m.at.join(","));
  const coords = [...(v.kingdom || []).map((h) => [h.q, h.r]), ...[...spots].map((k) => k.split(",").map(Number))];
  const xs = coords.map(([q, r]) => pos(q, r)[0]), ys = coords.map(([q, r]) => pos(q, r)[1]);
  const minX = Math.min(...xs, 0) - R - 4, minY = Math.min(...ys, 0) - R - 4;
  const maxX = Math.max(...xs, 0) + R + 4, maxY = Math.max(...ys, 0) + R + 4;
  for (const k of spots) {
    const [q, r] = k.split(",").map(Number);
    const [x, y] = pos(q, r);
    parts.push(piece(k, `empty place ${q},${r}: the next tile may go here`, s("polygon", { points: hexPoints(x, y, R - 3), fill: "#fff", "fill-opacity": 0.5, stroke: "#868e96", "stroke-dasharray": "4 3", class: "shape" })));
  }
  const figureAt = {};
  for (const [name, at] of Object.entries(v.figures || {})) if (at) figureAt[at.join(",")] = [...(figureAt[at.join(",")] || []), name];
  for (const h of v.kingdom || []) {
    const k = `${h.q},${h.r}`;
    const [x, y] = pos(h.q, h.r);
    const figs = (figureAt[k] || []).map((name, i) => {
      const [letter, colour] = FIGURES[name];
      return s("g", {}, s("circle", { cx: x - 8 + i * 14, cy: y + 8, r: 11, fill: colour, stroke: "#fff", "stroke-width": 2 }),
        text(x - 8 + i * 14, y + 13, letter, { "text-anchor": "middle", fill: "#fff", "font-weight": "bold", "font-size": 13 }));
    });
    const who = (figureAt[k] || []).join(" and ");
    parts.push(hex(h.q, h.r, h.terrain, h.river, k, `hex ${k}: ${h.terrain}${h.river?.length ? ", river" : ""}${who ? ", " + who : ""}`, figs));
  }
  const w = maxX - minX, h = maxY - minY;
  const map = s("g", { transform: `translate(${-minX},${-minY})` }, ...parts);
  const side = [];
  const sx = w + 20;
  side.push(text(sx, 20, `Turn ${v.turn} · pile ${v.pile_size}`, { "font-weight": "bold" }));
  if (v.next_tile) {
    side.push(text(sx, 44, "Next tile:", { "font-size": 13 }));
    v.next_tile.hexes.forEach((t, i) => {
      const x = sx + 26 + i * 44, y = 76;
      side.push(s("polygon", { points: hexPoints(x, y, 20), fill: TERRAIN[t.terrain] || "#fff", stroke: "#555" }),
        text(x, y + 34, t.terrain, { "text-anchor": "middle", "font-size": 10 }));
    });
  }
  (v.seats || []).forEach((p, i) => {
    const y = 130 + i * 50, acting = (game.to_act || []).includes(p.seat);
    side.push(s("rect", { x: sx, y, width: 230, height: 44, rx: 8, fill: acting ? "#fff4d6" : "#f8f9fa", stroke: SEAT_COLOURS[p.seat % 6], "stroke-width": 2 }),
      text(sx + 8, y + 18, game.seatNames[p.seat], { "font-size": 13, "font-weight": "bold" }),
      text(sx + 8, y + 36, `book ${p.book_size} · told ${p.told.length}${p.magic_active ? " · magic" : ""}${p.out ? " · out" : ""}`, { "font-size": 12 }));
  });
  if (v.hand) {
    const y = 140 + (v.seats || []).length * 50;
    const title = wrap(`Your card: ${v.hand.title}`, 30), body = wrap(v.hand.text, 34);
    side.push(s("rect", { x: sx, y, width: 230, height: 24 + (title.length + body.length) * 16, rx: 8, fill: "#fff9db", stroke: "#e8a200" }),
      title.map((line, i) => text(sx + 8, y + 20 + i * 16, line, { "font-size": 13, "font-weight": "bold" })),
      body.map((line, i) => text(sx + 8, y + 24 + (title.length + i) * 16, line, { "font-size": 12 })));
  }
  const width = Math.max(w + 260, 500), height = Math.max(h, 140 + (v.seats || []).length * 50 + (v.hand ? 160 : 10));
  return board(width, height, "Fairy Tile kingdom", map, ...side);
}

function wrap(str, n) {
  const out = [];
  let line = "";
  for (const word of String(str || "").split(" ")) {
    if ((line + " " + word).trim().length > n) { out.push(line); line = word; } else line = (line + " " + word).trim();
  }
  if (line) out.push(line);
  return out.slice(0, 4);
}

export function describe(game) {
  const v = game.view;
  const lines = [`${(v.kingdom || []).length} hexes in the kingdom; ` + Object.entries(v.figures || {}).map(([k, at]) => `${k} at ${at?.join(",")}`).join(", ") + "."];
  if (v.hand) lines.push(`Your card: ${v.hand.title} — ${v.hand.text}`);
  (v.seats || []).forEach((p) => lines.push(`${game.seatNames[p.seat]}: book ${p.book_size}, told ${p.told.length}.`));
  return lines;
}
