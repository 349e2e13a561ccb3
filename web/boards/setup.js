import { s, text, piece, board, named, SEAT_COLOURS } from "../svg.js";
import { t } from "../i18n.js";

const SUIT = { spade: ["♠", "#212529"], heart: ["♥", "#e03131"], diamond: ["♦", "#f76707"], club: ["♣", "#2b8a3e"], star: ["★", "#7048e8"] };
// Where each square sits (column, row): the 2x2 common squares in the middle, each seat's two
// bonus squares on its side (the view's `links` join them).
const AT = { N1: [1, 0], N2: [2, 0], W1: [0, 1], W2: [0, 2], C1: [1, 1], C2: [2, 1], C3: [1, 2], C4: [2, 2],
  E1: [3, 1], E2: [3, 2], S1: [1, 3], S2: [2, 3] };
const WIDE = { cell: 104, ox: 150, oy: 10, width: 760, tile: 76 };

// A tile's name: the server's (in the page's language), else its suit and number.
export const tileLabel = (tl, game = null) => named(game || {}, tl.id, `${tl.suit} ${tl.number}`);

function tile(game, tl, x, y, size = 76, ref = true) {
  const [sym, colour] = SUIT[tl.suit] || ["?", "#333"];
  const body = [s("rect", { x, y, width: size, height: size, rx: 8, fill: "#fffef8", stroke: colour, "stroke-width": 2.5, class: "shape" }),
    text(x + size / 2, y + size * 0.5, tl.number, { "text-anchor": "middle", "font-size": size * 0.36, "font-weight": "bold", fill: colour }),
    text(x + size / 2, y + size * 0.86, sym, { "text-anchor": "middle", "font-size": size * 0.3, fill: colour })];
  return ref ? piece(tl.id, tileLabel(tl, game), ...body) : s("g", {}, ...body);
}

// The squares' grid and the tiles' size: the wide table, or a phone's width drawn 1:1.
function geometry(layout) {
  if (!layout?.narrow) return WIDE;
  const cell = Math.floor((layout.width - 8) / 4);
  return { cell, ox: 4, oy: 6, width: layout.width, tile: Math.min(76, Math.floor((layout.width - 8) / 5) - 6) };
}

export function render(game, moves = [], layout = {}) {
  const v = game.view;
  const parts = [];
  const { cell: CELL, ox: OX, oy: OY, width, tile: T } = geometry(layout);
  const centre = (sq) => [OX + AT[sq][0] * CELL + CELL / 2, OY + AT[sq][1] * CELL + CELL / 2];
  for (const [a, b] of v.links || []) {
    if (!AT[a] || !AT[b]) continue;
    const [x1, y1] = centre(a), [x2, y2] = centre(b);
    parts.push(s("line", { x1, y1, x2, y2, stroke: "#ced4da", "stroke-width": 6 }));
  }
  for (const sq of v.board || []) {
    if (!AT[sq.square]) continue;
    const x = OX + AT[sq.square][0] * CELL + 6, y = OY + AT[sq.square][1] * CELL + 6;
    const owner = sq.owner === null || sq.owner === undefined ? null : sq.owner;
    const name = named(game, sq.square, `square ${sq.square}`);
    // an empty square shows its short name: its accessible name holds it (WCAG 2.5.3)
    const label = [sq.top || name.includes(sq.square) ? name : `${name} (${sq.square})`, owner !== null ? t("{name}'s bonus square", { name: game.seatNames[owner] }) : null,
      sq.top ? tileLabel(sq.top, game) : t("empty"), sq.covered?.length ? t("{n} covered", { n: sq.covered.length }) : null].filter(Boolean).join(", ");
    parts.push(piece(sq.square, label,
      s("rect", { x, y, width: CELL - 12, height: CELL - 12, rx: 10, fill: owner !== null ? "#f1f3f5" : "#e9ecef",
        stroke: owner !== null ? SEAT_COLOURS[owner % 6] : "#adb5bd", "stroke-width": owner !== null ? 4 : 2, class: "shape" }),
      sq.top ? tile(game, sq.top, x + 8, y + 8, CELL - 28, false) : text(x + (CELL - 12) / 2, y + (CELL - 12) / 2 + 6, sq.square, { "text-anchor": "middle", fill: "#868e96" }),
      sq.covered?.length ? text(x + CELL - 18, y + CELL - 16, `+${sq.covered.length}`, { "text-anchor": "end", "font-size": 12 }) : null));
  }
  let y = OY + 4 * CELL + 10;
  // the market and your rack: side by side on the wide table, one under the other on a phone
  const row = (title, tiles, x0) => {
    const perRow = Math.max(1, Math.floor((width - x0) / (T + 8)));
    parts.push(text(x0, y + 14, title, { "font-weight": "bold", "font-size": 14 }));
    tiles.forEach((tl, i) => parts.push(tile(game, tl, x0 + (i % perRow) * (T + 8), y + 22 + Math.floor(i / perRow) * (T + 8), T)));
    return 22 + Math.max(1, Math.ceil(tiles.length / perRow)) * (T + 8) + 6;
  };
  if (layout?.narrow) {
    y += row(t("Market (bag: {n})", { n: v.bag_count ?? "?" }), v.market || [], 4);
    if (v.rack) y += row(t("Your rack"), v.rack, 4);
  } else {
    const h = row(t("Market (bag: {n})", { n: v.bag_count ?? "?" }), v.market || [], 10);
    y += Math.max(h, v.rack ? row(t("Your rack"), v.rack, 380) : 0);
  }
  const boxW = layout?.narrow ? (width - 14) / 2 : 178, perRow = layout?.narrow ? 2 : 4;
  (v.scores || []).forEach((score, seat) => {
    const acting = (game.to_act || []).includes(seat);
    const x = 4 + (seat % perRow) * (boxW + 6), by = y + Math.floor(seat / perRow) * 48;
    parts.push(s("rect", { x, y: by, width: boxW, height: 42, rx: 8, fill: acting ? "#fff4d6" : "#f8f9fa", stroke: SEAT_COLOURS[seat % 6], "stroke-width": 2 }),
      text(x + 8, by + 17, game.seatNames[seat], { "font-size": 13, "font-weight": "bold" }),
      text(x + 8, by + 35, t("{score} / {goal} points · rack {n}", { score, goal: v.goal, n: v.rack_sizes?.[seat] ?? "?" }), { "font-size": 12 }));
  });
  return board(width, y + Math.ceil((v.scores || []).length / perRow) * 48 + 4, t("SetUp board"), ...parts);
}

export function describe(game) {
  const v = game.view;
  const tiles = (list) => list.map((tl) => tileLabel(tl, game)).join(", ");
  const lines = [(v.board || []).map((sq) => `${named(game, sq.square)}: ${sq.top ? tileLabel(sq.top, game) : t("empty")}`).join("; ") + "."];
  if (v.market) lines.push(t("Market: {tiles}.", { tiles: tiles(v.market) }));
  if (v.rack) lines.push(t("Your rack: {tiles}.", { tiles: tiles(v.rack) }));
  lines.push(t("Scores: {scores} (goal {goal}).", { scores: (v.scores || []).map((p, i) => `${game.seatNames[i]} ${p}`).join(", "), goal: v.goal }));
  return lines;
}
