import { s, text, piece, board, named } from "../svg.js";
import { t } from "../i18n.js";

const GEM = { white: "#f8f9fa", blue: "#1c63d5", green: "#2b9348", red: "#d62828", black: "#343a40", gold: "#f2b705" };
const INK = { white: "#333", blue: "#fff", green: "#fff", red: "#fff", black: "#fff", gold: "#333" };
const COLOURS = ["white", "blue", "green", "red", "black"];
const TOKENS = [...COLOURS, "gold"];

// What a person clicks for each move: the colours taken or given back, the card, the deck.
export function clicks(move) {
  switch (move.type) {
    case "take_gems": return move.colors;
    case "take_two": return [move.color];
    case "return_tokens": return Object.keys(move.tokens);
    case "reserve_blind": return [`level=${move.level}`];
    default: return move.card ? [move.card] : [];
  }
}

function gem(x, y, colour, n, r = 13) {
  return s("g", {}, s("circle", { cx: x, cy: y, r, fill: GEM[colour], stroke: "#555", class: "shape" }),
    n === undefined ? null : text(x, y + 5, n, { "text-anchor": "middle", fill: INK[colour], "font-size": 14, "font-weight": "bold" }));
}

// Its name is the server's (GET /game-types `pieces`, in the page's language): level, bonus, points, cost.
function card(game, c, x, y, w = 92, h = 124) {
  const costs = COLOURS.filter((k) => c.cost?.[k]);
  const label = named(game, c.id, `level ${c.level} card: ${c.points || 0} points, ${c.bonus} bonus, costs ${costs.map((k) => `${c.cost[k]} ${k}`).join(", ")}`);
  const step = Math.min(30, (w - 8) / 2);
  return piece(c.id, label,
    s("rect", { x, y, width: w, height: h, rx: 8, fill: "#fffdf5", stroke: "#8a7f6a", "stroke-width": 1.5, class: "shape" }),
    s("rect", { x, y, width: w, height: 30, rx: 8, fill: GEM[c.bonus] }),
    c.points ? text(x + 8, y + 23, c.points, { "font-size": 22, "font-weight": "bold", fill: INK[c.bonus] }) : null,
    s("polygon", { points: `${x + w - 18},${y + 6} ${x + w - 8},${y + 15} ${x + w - 18},${y + 24} ${x + w - 28},${y + 15}`,
      fill: GEM[c.bonus], stroke: INK[c.bonus] }),
    costs.map((k, i) => gem(x + 16 + (i % 2) * step, y + h - 16 - Math.floor(i / 2) * 28, k, c.cost[k], 12)));
}

function hiddenCard(level, x, y, w = 92, h = 124, ref = null, label = null) {
  const body = [s("rect", { x, y, width: w, height: h, rx: 8, fill: ["#2f9e44", "#e8a200", "#1864ab"][level - 1], stroke: "#333", class: "shape" }),
    text(x + w / 2, y + h / 2 + 6, ["Ⅰ", "Ⅱ", "Ⅲ"][level - 1], { "text-anchor": "middle", fill: "#fff", "font-size": 22, "font-weight": "bold" })];
  return ref ? piece(ref, label, ...body) : s("g", {}, ...body);
}

function noble(game, n, x, y, size) {
  const req = COLOURS.filter((k) => n.requires[k]);
  const step = (size - 12) / 3;
  return piece(n.id, named(game, n.id, `noble: ${n.points} points, needs ${req.map((k) => `${n.requires[k]} ${k} cards`).join(", ")}`),
    s("rect", { x, y, width: size, height: size, rx: 6, fill: "#f3e9d2", stroke: "#8a6d3b", class: "shape" }),
    text(x + 7, y + 24, n.points, { "font-size": 20, "font-weight": "bold" }),
    req.map((k, j) => s("g", {}, s("rect", { x: x + size - 30, y: y + 6 + j * step, width: 24, height: step - 3, rx: 3, fill: GEM[k], stroke: "#555" }),
      text(x + size - 18, y + 6 + j * step + step / 2 + 3, n.requires[k], { "text-anchor": "middle", fill: INK[k], "font-weight": "bold", "font-size": 13 }))));
}

// The geometry: the wide table (760 units), or a phone's (its own width, drawn at 1:1 so that
// text keeps its size): cards five to a row, the supply as a row below the market.
function geometry(layout, nobles) {
  if (!layout?.narrow) return { width: 760, cardW: 92, cardH: 124, gap: 8, nobleSize: 90, top: 110, supply: "column", panelW: 752 };
  const width = layout.width, gap = 5;
  const cardW = Math.floor((width - 8 - 4 * gap) / 5);
  const nobleSize = Math.min(80, Math.floor((width - 8 - (nobles - 1) * gap) / Math.max(nobles, 1)));
  return { width, cardW, cardH: Math.round(cardW * 1.4), gap, nobleSize, top: nobleSize + 14, supply: "row", panelW: width - 8 };
}

export function render(game, moves = [], layout = {}) {
  const v = game.view;
  const players = v.players || [];
  const G = geometry(layout, (v.nobles || []).length);
  const rowH = G.cardH + 10, parts = [];
  (v.nobles || []).forEach((n, i) => parts.push(noble(game, n, 4 + i * (G.nobleSize + G.gap), 8, G.nobleSize)));
  for (let level = 3; level >= 1; level--) {
    const y = G.top + (3 - level) * rowH;
    const left = v.deck_sizes?.[level - 1] ?? 0;
    parts.push(hiddenCard(level, 4, y, G.cardW, G.cardH, `level=${level}`, t("{deck}, {n} cards left", { deck: named(game, `sp-deck-${level}`, `level ${level} deck`), n: left })));
    parts.push(text(4 + G.cardW / 2, y + G.cardH - 8, left, { "text-anchor": "middle", fill: "#fff", "font-size": 13 }));
    (v.market?.[level - 1] || []).forEach((c, i) => { if (c) parts.push(card(game, c, 4 + (i + 1) * (G.cardW + G.gap), y, G.cardW, G.cardH)); });
  }
  let playersTop = G.top + 3 * rowH + 10;
  TOKENS.forEach((k, i) => {
    const [x, y, r] = G.supply === "column" ? [560, G.top + 22 + i * 62, 24] : [4 + 26 + i * ((G.width - 60) / 5), playersTop + 20, 22];
    parts.push(piece(k, t("{n} {colour} gems in the supply", { n: v.supply?.[k] ?? 0, colour: t(k) }), gem(x, y, k, v.supply?.[k] ?? 0, r)));
  });
  if (G.supply === "row") playersTop += 56;
  players.forEach((p) => {
    const reserved = p.reserved || [];
    const below = layout?.narrow && reserved.length; // a phone: the reserved cards under the gems
    const pH = below ? 150 + G.cardH + 8 : 150;
    const y = playersTop;
    playersTop += pH;
    const name = game.seatNames[p.seat];
    const acting = (game.to_act || []).includes(p.seat);
    parts.push(s("rect", { x: 4, y, width: G.panelW, height: pH - 8, rx: 8, fill: acting ? "#fff4d6" : "#f4f1ea", stroke: acting ? "#e8a200" : "#ccc" }));
    parts.push(text(14, y + 24, t(acting ? "{name}: {n} points — to play" : "{name}: {n} points", { name, n: p.points }), { "font-size": 17, "font-weight": "bold" }));
    TOKENS.forEach((k, j) => {
      parts.push(gem(24 + j * 40, y + 52, k, p.tokens?.[k] ?? 0, 15));
      if (k !== "gold") parts.push(s("rect", { x: 12 + j * 40, y: y + 74, width: 24, height: 30, rx: 3, fill: GEM[k], stroke: "#555" }),
        text(24 + j * 40, y + 95, p.bonuses?.[k] ?? 0, { "text-anchor": "middle", fill: INK[k], "font-weight": "bold", "font-size": 14 }));
    });
    parts.push(text(14, y + 128, t("{gems} gems, {cards} cards, {nobles} nobles", { gems: p.token_count ?? 0, cards: (p.cards || []).length, nobles: (p.nobles || []).length }), { "font-size": 13 }));
    reserved.forEach((c, j) => {
      const [x, cy, w, h] = below ? [14 + j * (G.cardW + G.gap), y + 140, G.cardW, G.cardH] : [420 + j * 100, y + 8, 88, 124];
      parts.push(c && c.bonus ? card(game, c, x, cy, w, h) : hiddenCard(c?.level || 1, x, cy, w, h));
    });
    if (reserved.length && !below) parts.push(text(420, y + 146, t("reserved"), { "font-size": 12 }));
  });
  return board(G.width, playersTop, t("Splendor board"), ...parts);
}

export function describe(game) {
  const v = game.view;
  const gems = (counts) => COLOURS.concat("gold").filter((k) => k in (counts || {})).map((k) => t("{n} {colour}", { n: counts[k], colour: t(k) })).join(", ");
  const lines = [t("Supply: {gems}.", { gems: gems(v.supply) })];
  (v.players || []).forEach((p) => lines.push(t("{name}: {points} points, {gems} gems, bonuses {bonuses}, {reserved} reserved.",
    { name: game.seatNames[p.seat], points: p.points, gems: p.token_count, bonuses: gems(p.bonuses), reserved: p.reserved.length })));
  (v.market || []).forEach((row, i) => lines.push(t("Level {n}: {cards}.", { n: i + 1, cards: row.filter(Boolean).map((c) => named(game, c.id, `${c.bonus} ${c.points}pt`)).join("; ") })));
  return lines;
}
