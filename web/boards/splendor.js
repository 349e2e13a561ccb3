import { s, text, piece, board } from "../svg.js";

const GEM = { white: "#f8f9fa", blue: "#1c63d5", green: "#2b9348", red: "#d62828", black: "#343a40", gold: "#f2b705" };
const INK = { white: "#333", blue: "#fff", green: "#fff", red: "#fff", black: "#fff", gold: "#333" };
const COLOURS = ["white", "blue", "green", "red", "black"];

function gem(x, y, colour, n, r = 13) {
  return s("g", {}, s("circle", { cx: x, cy: y, r, fill: GEM[colour], stroke: "#555", class: "shape" }),
    n === undefined ? null : text(x, y + 5, n, { "text-anchor": "middle", fill: INK[colour], "font-size": 14, "font-weight": "bold" }));
}

function card(c, x, y, w = 92, h = 124) {
  const costs = COLOURS.filter((k) => c.cost?.[k]);
  const label = `level ${c.level} card: ${c.points || 0} points, ${c.bonus} bonus, costs ${costs.map((k) => `${c.cost[k]} ${k}`).join(", ")}`;
  return piece(c.id, label,
    s("rect", { x, y, width: w, height: h, rx: 8, fill: "#fffdf5", stroke: "#8a7f6a", "stroke-width": 1.5, class: "shape" }),
    s("rect", { x, y, width: w, height: 30, rx: 8, fill: GEM[c.bonus] }),
    c.points ? text(x + 8, y + 23, c.points, { "font-size": 22, "font-weight": "bold", fill: INK[c.bonus] }) : null,
    s("polygon", { points: `${x + w - 18},${y + 6} ${x + w - 8},${y + 15} ${x + w - 18},${y + 24} ${x + w - 28},${y + 15}`,
      fill: GEM[c.bonus], stroke: INK[c.bonus] }),
    costs.map((k, i) => gem(x + 16 + (i % 2) * 30, y + h - 16 - Math.floor(i / 2) * 28, k, c.cost[k], 12)));
}

function hiddenCard(level, x, y, w = 92, h = 124, ref = null, label = null) {
  const body = [s("rect", { x, y, width: w, height: h, rx: 8, fill: ["#2f9e44", "#e8a200", "#1864ab"][level - 1], stroke: "#333", class: "shape" }),
    text(x + w / 2, y + h / 2 + 6, "I".repeat(level), { "text-anchor": "middle", fill: "#fff", "font-size": 22, "font-weight": "bold" })];
  return ref ? piece(ref, label, ...body) : s("g", {}, ...body);
}

export function render(game) {
  const v = game.view;
  const players = v.players || [];
  const width = 760, rowH = 134, top = 110, playersTop = top + 3 * rowH + 10, pH = 150;
  const parts = [];
  (v.nobles || []).forEach((n, i) => {
    const x = 10 + i * 100;
    const req = COLOURS.filter((k) => n.requires[k]);
    parts.push(piece(n.id, `noble: ${n.points} points, needs ${req.map((k) => `${n.requires[k]} ${k} cards`).join(", ")}`,
      s("rect", { x, y: 8, width: 90, height: 90, rx: 6, fill: "#f3e9d2", stroke: "#8a6d3b", class: "shape" }),
      text(x + 8, y0(30), n.points, { "font-size": 22, "font-weight": "bold" }),
      req.map((k, j) => s("g", {}, s("rect", { x: x + 54, y: 14 + j * 26, width: 26, height: 22, rx: 3, fill: GEM[k], stroke: "#555" }),
        text(x + 67, 30 + j * 26, n.requires[k], { "text-anchor": "middle", fill: INK[k], "font-weight": "bold" })))));
  });
  for (let level = 3; level >= 1; level--) {
    const y = top + (3 - level) * rowH;
    const left = v.deck_sizes?.[level - 1] ?? 0;
    parts.push(hiddenCard(level, 10, y, 92, 124, `level=${level}`, `level ${level} deck, ${left} cards left`));
    parts.push(text(56, y + 118, left, { "text-anchor": "middle", fill: "#fff", "font-size": 13 }));
    (v.market?.[level - 1] || []).forEach((c, i) => { if (c) parts.push(card(c, 112 + i * 100, y)); });
  }
  ["white", "blue", "green", "red", "black", "gold"].forEach((k, i) => {
    parts.push(piece(k, `${v.supply?.[k] ?? 0} ${k} gems in the supply`, gem(560, top + 22 + i * 62, k, v.supply?.[k] ?? 0, 24)));
  });
  players.forEach((p, i) => {
    const y = playersTop + i * pH;
    const name = game.seatNames[p.seat];
    const acting = (game.to_act || []).includes(p.seat);
    parts.push(s("rect", { x: 4, y, width: width - 8, height: pH - 8, rx: 8, fill: acting ? "#fff4d6" : "#f4f1ea", stroke: acting ? "#e8a200" : "#ccc" }));
    parts.push(text(14, y + 24, `${name}: ${p.points} points${acting ? " — to play" : ""}`, { "font-size": 17, "font-weight": "bold" }));
    ["white", "blue", "green", "red", "black", "gold"].forEach((k, j) => {
      parts.push(gem(24 + j * 40, y + 52, k, p.tokens?.[k] ?? 0, 15));
      if (k !== "gold") parts.push(s("rect", { x: 12 + j * 40, y: y + 74, width: 24, height: 30, rx: 3, fill: GEM[k], stroke: "#555" }),
        text(24 + j * 40, y + 95, p.bonuses?.[k] ?? 0, { "text-anchor": "middle", fill: INK[k], "font-weight": "bold" }));
    });
    parts.push(text(14, y + 128, `${p.token_count ?? 0} gems, ${(p.cards || []).length} cards, ${(p.nobles || []).length} nobles`, { "font-size": 13 }));
    (p.reserved || []).forEach((c, j) => {
      const x = 300 + j * 100;
      parts.push(c && c.bonus ? card(c, x, y + 8, 88, 124) : hiddenCard(c?.level || 1, x, y + 8, 88, 124));
    });
    if ((p.reserved || []).length) parts.push(text(300, y + pH - 4, "reserved", { "font-size": 11 }));
  });
  return board(width, playersTop + players.length * pH, "Splendor board", ...parts);
}

function y0(v) { return v; }

export function describe(game) {
  const v = game.view;
  const lines = [`Supply: ${Object.entries(v.supply || {}).map(([k, n]) => `${n} ${k}`).join(", ")}.`];
  (v.players || []).forEach((p) => lines.push(`${game.seatNames[p.seat]}: ${p.points} points, ${p.token_count} gems, bonuses ${COLOURS.map((k) => `${p.bonuses[k]} ${k}`).join(", ")}, ${p.reserved.length} reserved.`));
  (v.market || []).forEach((row, i) => lines.push(`Level ${i + 1}: ` + row.filter(Boolean).map((c) => `${c.bonus} ${c.points}pt`).join("; ") + "."));
  return lines;
}
