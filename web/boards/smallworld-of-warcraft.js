import { s, text, piece, board, named, hexPoints, SEAT_COLOURS } from "../svg.js";
import { t } from "../i18n.js";

const TERRAIN = { hill: "#d8c99b", forest: "#2f9e44", mountain: "#868e96", fields: "#f4e285", swamp: "#8ca36b", lake: "#74c0fc", sea: "#4dabf7" };
const nice = (str) => String(str || "").replaceAll("_", " ");
// A race's, power's, island's or region's name: the server's, in the page's language.
const call = (game, id) => named(game, id, nice(id));
const combo = (game, power, race) => t("{power} {race}", { power: call(game, power), race: call(game, race) });

// What a person clicks: the combo picked, the region conquered, reinforced or left; the moves
// that concern no place (decline, end the conquests, score) are the bar's buttons.
export function clicks(move) {
  if (move.index !== undefined) return [`index=${move.index}`];
  if (move.region) return [move.region];
  return [];
}

// The map's regions carry no coordinates: an island's regions are numbered row by row, so a row
// ends where a region is not adjacent to the next one; the rows are drawn as offset hexes.
function islands(map) {
  const byIsland = {};
  for (const r of map) (byIsland[r.island] ||= []).push(r);
  return Object.entries(byIsland).map(([island, regions]) => {
    regions.sort((a, b) => Number(a.id.split("-").pop()) - Number(b.id.split("-").pop()));
    let cols = regions.length;
    for (let i = 0; i + 1 < regions.length; i++) if (!regions[i].adjacent.includes(regions[i + 1].id)) { cols = i + 1; break; }
    return { island, regions, cols: Math.max(cols, 2), rows: Math.ceil(regions.length / Math.max(cols, 2)) };
  });
}

const LABEL_H = 22; // an island's name above its hexes

// Where each region's hex sits: the islands side by side (wide), or one under the other, each as
// wide as the screen allows (a phone).
function layout(map, narrow, width) {
  const at = {}, names = [];
  let ox = 0, oy = 0, maxY = 0, R = 38;
  for (const { island, regions, cols, rows } of islands(map)) {
    if (narrow) R = Math.min(38, (width - 8) / ((cols + 0.5) * Math.sqrt(3)));
    const x0 = narrow ? 4 : ox, y0 = narrow ? oy : 0;
    names.push([x0 + 4, y0 + 16, island]);
    regions.forEach((r, i) => {
      const row = Math.floor(i / cols), col = i % cols;
      const x = x0 + R * Math.sqrt(3) / 2 + col * R * Math.sqrt(3) + (row % 2 ? (R * Math.sqrt(3)) / 2 : 0);
      const y = y0 + LABEL_H + R + 4 + row * R * 1.5;
      at[r.id] = [x, y, R];
      maxY = Math.max(maxY, y + R);
    });
    if (narrow) oy = y0 + LABEL_H + R * (2 + 1.5 * (rows - 1)) + 16;
    else ox += (cols + 0.5) * R * Math.sqrt(3) + 24;
  }
  return { at, names, width: narrow ? width : ox, height: maxY };
}

function region(game, m, r, x, y, R) {
  const owner = r.seat ?? null;
  const who = owner !== null ? game.seatNames[owner] : r.race ? t("lost tribe") : "";
  const where = named(game, m.id, `region ${m.id}: ${m.terrain}`) + (m.symbols.length ? ` (${m.symbols.map((sym) => t(sym)).join(", ")})` : "");
  const held = !r.tokens ? t("empty") : t(r.declined ? "{n} {race} in decline" : "{n} {race}", { n: r.tokens, race: call(game, r.race) }) + (who ? " " + t("of {who}", { who }) : "");
  const label = `${where}, ${held}`;
  const k = R / 38;
  return piece(m.id, label,
    s("polygon", { points: hexPoints(x, y, R - 1), fill: TERRAIN[m.terrain] || "#ddd", stroke: owner !== null ? SEAT_COLOURS[owner % 6] : "#495057", "stroke-width": owner !== null ? 4 : 1.5, class: "shape" }),
    text(x, y - 18 * k, m.id.split("-").pop(), { "text-anchor": "middle", "font-size": 12, "font-weight": "bold", fill: "#212529" }),
    m.symbols.includes("magic") ? text(x - 22 * k, y + 2, "✦", { "font-size": 13, fill: "#7048e8" }) : null,
    m.symbols.includes("cavern") ? text(x + 14 * k, y + 2, "◗", { "font-size": 13 }) : null,
    r.tokens ? s("g", {}, s("circle", { cx: x, cy: y + 8 * k, r: Math.max(11, 15 * k), fill: owner !== null ? SEAT_COLOURS[owner % 6] : "#fff", stroke: "#212529", opacity: r.declined ? 0.55 : 1 }),
      text(x, y + 8 * k + 5, r.tokens, { "text-anchor": "middle", "font-weight": "bold", "font-size": 14, fill: owner !== null ? "#fff" : "#212529" })) : null,
    r.fort || r.watch_tower || r.bomb || r.wisp_wall ? text(x + 18 * k, y - 8 * k, r.fort ? "F" : r.watch_tower ? "T" : r.bomb ? "B" : "W", { "font-size": 12, "font-weight": "bold" }) : null);
}

export function render(game, moves = [], opts = {}) {
  const v = game.view;
  const narrow = Boolean(opts.narrow);
  const { at, names, width: mapW, height: mapH } = layout(v.map || [], narrow, opts.width);
  const regions = Object.fromEntries((v.regions || []).map((r) => [r.id, r]));
  const parts = [], labels = []; // the race names on top of every hex (the next row overlaps a hex's foot)
  for (const [x, y, island] of names) parts.push(text(x, y, named(game, island, `Island ${island}`), { "font-size": 14, "font-weight": "bold", fill: "#343a40" }));
  for (const m of v.map || []) {
    const [x, y, R] = at[m.id];
    const r = regions[m.id] || {};
    parts.push(region(game, m, r, x, y, R));
    if (r.tokens && R >= 30) labels.push(text(x, y + R * 0.87, call(game, r.race).slice(0, 12), { "text-anchor": "middle", "font-size": 12, fill: "#212529",
      stroke: "#fff", "stroke-width": 3, "paint-order": "stroke", "aria-hidden": "true" }));
  }
  const [sx, sy] = narrow ? [4, mapH + 12] : [mapW + 10, 0];
  const sideW = narrow ? opts.width - 8 : 250;
  const side = [text(sx, sy + 18, t("Round {n}/{rounds} · {phase}", { n: v.round, rounds: v.rounds, phase: t(nice(v.phase)) }), { "font-weight": "bold", "font-size": 14 })];
  (v.display || []).forEach((c, i) => {
    const y = sy + 28 + i * 38;
    side.push(piece(`index=${i}`, t("combo {n}: {combo}, costs {cost}, {coins} coins on it", { n: i + 1, combo: combo(game, c.power, c.race), cost: c.cost, coins: c.coins }),
      s("rect", { x: sx, y, width: sideW, height: 34, rx: 6, fill: "#f8f0fc", stroke: "#9c36b5", class: "shape" }),
      text(sx + 6, y + 22, combo(game, c.power, c.race), { "font-size": 13 }),
      text(sx + sideW - 6, y + 22, `${c.cost}¢${c.coins ? ` +${c.coins}` : ""}`, { "font-size": 13, "text-anchor": "end" })));
    const node = side[side.length - 1];
    node.setAttribute("data-tip", `${c.race} ${c.power}`);
    node.setAttribute("data-last", `${c.race} ${c.power}`);
    node.setAttribute("data-name", combo(game, c.power, c.race));
  });
  let y = sy + 40 + (v.display || []).length * 38;
  (v.players || []).forEach((p) => {
    const acting = (game.to_act || []).includes(p.seat);
    side.push(s("g", { "data-tip": [p.race, p.power].filter(Boolean).join(" ") },
      s("rect", { x: sx, y, width: sideW, height: 64, rx: 8, fill: acting ? "#fff4d6" : "#f8f9fa", stroke: SEAT_COLOURS[p.seat % 6], "stroke-width": 2 }),
      text(sx + 8, y + 18, p.coins !== undefined ? t("{name} · {n} coins", { name: game.seatNames[p.seat], n: p.coins }) : game.seatNames[p.seat], { "font-size": 13, "font-weight": "bold" }),
      text(sx + 8, y + 37, p.race ? combo(game, p.power, p.race) : t("no race yet"), { "font-size": 12 }),
      text(sx + 8, y + 54, t("{n} on the map, {hand} in hand", { n: p.tokens_on_board, hand: p.hand }), { "font-size": 12 })));
    y += 70;
  });
  const width = narrow ? opts.width : sx + 260;
  return board(width, Math.max(mapH, y) + 6, t("Small World of Warcraft map"), ...parts, s("g", {}, labels), ...side);
}

export function describe(game) {
  const v = game.view;
  const lines = [t("Round {n} of {rounds}, {phase}.", { n: v.round, rounds: v.rounds, phase: t(nice(v.phase)) })];
  (v.players || []).forEach((p) => lines.push(t("{name}: {race}, {n} tokens on the map", { name: game.seatNames[p.seat], race: p.race ? combo(game, p.power, p.race) : t("no race yet"), n: p.tokens_on_board })
    + (p.coins !== undefined ? ", " + t("{n} coins", { n: p.coins }) : "") + "."));
  const held = (v.regions || []).filter((r) => r.tokens);
  lines.push(t("{n} regions hold tokens.", { n: held.length }));
  return lines;
}
