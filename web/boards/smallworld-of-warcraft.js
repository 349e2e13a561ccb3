import { s, text, piece, board, hexPoints, SEAT_COLOURS } from "../svg.js";

const TERRAIN = { hill: "#d8c99b", forest: "#2f9e44", mountain: "#868e96", fields: "#f4e285", swamp: "#8ca36b", lake: "#74c0fc", sea: "#4dabf7" };
const R = 38;
const nice = (str) => String(str || "").replaceAll("_", " ");

// The map's regions carry no coordinates: an island's regions are numbered row by row, so a row
// ends where a region is not adjacent to the next one; the rows are drawn as offset hexes.
function layout(map) {
  const byIsland = {};
  for (const r of map) (byIsland[r.island] ||= []).push(r);
  const at = {};
  let ox = 0, maxY = 0;
  for (const island of Object.keys(byIsland)) {
    const regions = byIsland[island].sort((a, b) => Number(a.id.split("-").pop()) - Number(b.id.split("-").pop()));
    let cols = regions.length;
    for (let i = 0; i + 1 < regions.length; i++) if (!regions[i].adjacent.includes(regions[i + 1].id)) { cols = i + 1; break; }
    cols = Math.max(cols, 2);
    regions.forEach((r, i) => {
      const row = Math.floor(i / cols), col = i % cols;
      const x = ox + R + col * R * Math.sqrt(3) + (row % 2 ? (R * Math.sqrt(3)) / 2 : 0);
      const y = R + 4 + row * R * 1.5; // room for the top row's outline
      at[r.id] = [x, y];
      maxY = Math.max(maxY, y + R);
    });
    ox += (cols + 0.5) * R * Math.sqrt(3) + 24;
  }
  return { at, width: ox, height: maxY };
}

export function render(game) {
  const v = game.view;
  const { at, width: mapW, height: mapH } = layout(v.map || []);
  const regions = Object.fromEntries((v.regions || []).map((r) => [r.id, r]));
  const parts = [], labels = []; // the race names on top of every hex (the next row overlaps a hex's foot)
  for (const m of v.map || []) {
    const [x, y] = at[m.id];
    const r = regions[m.id] || {};
    const owner = r.seat ?? null;
    const who = owner !== null ? game.seatNames[owner] : r.race ? "lost tribe" : "";
    const label = `region ${m.id}: ${m.terrain}${m.symbols.length ? " (" + m.symbols.join(", ") + ")" : ""}${r.tokens ? `, ${r.tokens} ${nice(r.race)}${r.declined ? " in decline" : ""}${who ? " of " + who : ""}` : ", empty"}`;
    parts.push(piece(m.id, label,
      s("polygon", { points: hexPoints(x, y, R - 1), fill: TERRAIN[m.terrain] || "#ddd", stroke: owner !== null ? SEAT_COLOURS[owner % 6] : "#495057", "stroke-width": owner !== null ? 4 : 1.5, class: "shape" }),
      text(x, y - 18, m.id.split("-").pop(), { "text-anchor": "middle", "font-size": 10, fill: "#212529" }),
      m.symbols.includes("magic") ? text(x - 22, y + 2, "✦", { "font-size": 12, fill: "#7048e8" }) : null,
      m.symbols.includes("cavern") ? text(x + 14, y + 2, "◗", { "font-size": 12 }) : null,
      r.tokens ? s("g", {}, s("circle", { cx: x, cy: y + 8, r: 15, fill: owner !== null ? SEAT_COLOURS[owner % 6] : "#fff", stroke: "#212529", opacity: r.declined ? 0.55 : 1 }),
        text(x, y + 13, r.tokens, { "text-anchor": "middle", "font-weight": "bold", "font-size": 14, fill: owner !== null ? "#fff" : "#212529" })) : null,
      r.fort || r.watch_tower || r.bomb || r.wisp_wall ? text(x + 18, y - 8, r.fort ? "F" : r.watch_tower ? "T" : r.bomb ? "B" : "W", { "font-size": 11, "font-weight": "bold" }) : null));
  }
  for (const m of v.map || []) {
    const r = regions[m.id] || {};
    const [x, y] = at[m.id];
    if (r.tokens) labels.push(text(x, y + 33, nice(r.race).slice(0, 12), { "text-anchor": "middle", "font-size": 10, fill: "#212529",
      stroke: "#fff", "stroke-width": 3, "paint-order": "stroke", "aria-hidden": "true" }));
  }
  const side = [], sx = mapW + 10;
  side.push(text(sx, 18, `Round ${v.round}/${v.rounds} · ${nice(v.phase)}`, { "font-weight": "bold" }));
  (v.display || []).forEach((c, i) => {
    const y = 28 + i * 34;
    side.push(piece(`index=${i}`, `combo ${i}: ${nice(c.race)} with ${nice(c.power)}, costs ${c.cost}, ${c.coins} coins on it`,
      s("rect", { x: sx, y, width: 250, height: 30, rx: 6, fill: "#f8f0fc", stroke: "#9c36b5", class: "shape" }),
      text(sx + 6, y + 19, `${nice(c.race)} · ${nice(c.power)}`, { "font-size": 12 }),
      text(sx + 244, y + 19, `${c.cost}¢${c.coins ? ` +${c.coins}` : ""}`, { "font-size": 12, "text-anchor": "end" })));
  });
  let y = 40 + (v.display || []).length * 34;
  (v.players || []).forEach((p) => {
    const acting = (game.to_act || []).includes(p.seat);
    side.push(s("rect", { x: sx, y, width: 250, height: 62, rx: 8, fill: acting ? "#fff4d6" : "#f8f9fa", stroke: SEAT_COLOURS[p.seat % 6], "stroke-width": 2 }),
      text(sx + 8, y + 18, `${game.seatNames[p.seat]}${p.coins !== undefined ? ` · ${p.coins} coins` : ""}`, { "font-size": 13, "font-weight": "bold" }),
      text(sx + 8, y + 36, p.race ? `${nice(p.race)} · ${nice(p.power)}` : "no race yet", { "font-size": 11 }),
      text(sx + 8, y + 52, `${p.tokens_on_board} on the map, ${p.hand} in hand`, { "font-size": 11 }));
    y += 68;
  });
  return board(sx + 260, Math.max(mapH, y) + 6, "Small World of Warcraft map", ...parts, s("g", {}, labels), ...side);
}

export function describe(game) {
  const v = game.view;
  const lines = [`Round ${v.round} of ${v.rounds}, ${nice(v.phase)}.`];
  (v.players || []).forEach((p) => lines.push(`${game.seatNames[p.seat]}: ${p.race ? nice(p.race) + " " + nice(p.power) : "no race yet"}, ${p.tokens_on_board} tokens on the map${p.coins !== undefined ? `, ${p.coins} coins` : ""}.`));
  const held = (v.regions || []).filter((r) => r.tokens);
  lines.push(`${held.length} regions hold tokens.`);
  return lines;
}
