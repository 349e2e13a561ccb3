import { s, text, piece, board, SEAT_COLOURS } from "../svg.js";

const SUIT = { red: "#e03131", green: "#2f9e44", yellow: "#f0b400", blue: "#1c7ed6", wizard: "#7048e8" };

export function cardLabel(id) {
  const [, colour, n] = id.split("-");
  return colour === "wizard" ? `wizard ${n}` : `${colour} ${Number(n)}`;
}

function card(id, x, y, w = 54, h = 80, clickable = true) {
  const [, colour, n] = id.split("-");
  const body = [s("rect", { x, y, width: w, height: h, rx: 6, fill: "#fff", stroke: SUIT[colour] || "#888", "stroke-width": 3, class: "shape" }),
    s("rect", { x: x + 4, y: y + 4, width: w - 8, height: 18, rx: 3, fill: SUIT[colour] || "#888" }),
    text(x + w / 2, y + 56, colour === "wizard" ? "W" : Number(n), { "text-anchor": "middle", "font-size": 24, "font-weight": "bold", fill: SUIT[colour] || "#333" })];
  return clickable ? piece(id, cardLabel(id), ...body) : s("g", {}, s("title", {}, cardLabel(id)), ...body);
}

function back(x, y) {
  return s("rect", { x, y, width: 20, height: 30, rx: 3, fill: "#5f3dc4", stroke: "#fff" });
}

export function render(game) {
  const v = game.view;
  const n = v.n_seats || game.seats.length;
  const width = 760, parts = [];
  // the table: the seats around the trick
  const cx = 380, cy = 200, rx = 290, ry = 120;
  const played = Object.fromEntries((v.trick || []).map((t) => [t.seat, t.card]));
  const shownTrick = (v.trick || []).length ? null : v.last_trick;
  for (let seat = 0; seat < n; seat++) {
    const a = Math.PI / 2 + (2 * Math.PI * (seat - (game.you ?? 0))) / n;
    const x = cx + rx * Math.cos(a), y = cy + ry * Math.sin(a);
    const acting = (game.to_act || []).includes(seat);
    const cards = v.hand_sizes?.[seat] ?? 0;
    parts.push(piece(`seat=${seat}`, `${game.seatNames[seat]}: ${v.totals?.[seat] ?? 0} fire points, ${v.tricks_won?.[seat] ?? 0} tricks, ${cards} cards`,
      s("rect", { x: x - 95, y: y - 30, width: 190, height: 60, rx: 10, fill: acting ? "#fff4d6" : "#f1f3f5", stroke: acting ? "#e8a200" : SEAT_COLOURS[seat % 6], "stroke-width": 2, class: "shape" }),
      text(x, y - 10, game.seatNames[seat], { "text-anchor": "middle", "font-weight": "bold", "font-size": 14 }),
      text(x, y + 8, `${v.totals?.[seat] ?? 0} fire points · ${v.tricks_won?.[seat] ?? 0} tricks`, { "text-anchor": "middle", "font-size": 13 }),
      text(x, y + 24, `${cards} cards${v.leader === seat ? " · leads" : ""}`, { "text-anchor": "middle", "font-size": 12 })));
    // the seat's hand as card backs, and its card in the trick between it and the centre
    for (let i = 0; i < Math.min(cards, 14); i++) parts.push(back(x - 70 + i * 10, y + (y > cy ? 34 : -66)));
    const inTrick = played[seat] || shownTrick?.cards?.find((c) => c.seat === seat)?.card;
    if (inTrick) parts.push(card(inTrick, cx + (x - cx) * 0.4 - 27, cy + (y - cy) * 0.3 - 40, 54, 80, true));
  }
  parts.push(text(8, 18, `Round ${v.round ?? "-"} · ${v.phase}${v.led_colour ? " · led " + v.led_colour : ""}${shownTrick ? " · last trick to " + game.seatNames[shownTrick.winner] : ""}`, { "font-size": 14 }));
  // your hand
  const hand = v.hand || [];
  const handTop = 395;
  parts.push(text(10, handTop - 6, hand.length ? "Your hand" : "", { "font-size": 14, "font-weight": "bold" }));
  const perRow = 13;
  hand.forEach((id, i) => parts.push(card(id, 10 + (i % perRow) * 57, handTop + Math.floor(i / perRow) * 86)));
  const rows = Math.ceil(hand.length / perRow);
  return board(width, handTop + Math.max(rows, 1) * 86 + 10, "Witches table", ...parts);
}

export function describe(game) {
  const v = game.view;
  const lines = [`Round ${v.round}, ${v.phase}.`];
  if (v.hand) lines.push("Your hand: " + v.hand.map(cardLabel).join(", ") + ".");
  if (v.trick?.length) lines.push("Trick: " + v.trick.map((t) => cardLabel(t.card || t)).join(", ") + ".");
  game.seats.forEach((_, i) => lines.push(`${game.seatNames[i]}: ${v.totals?.[i] ?? 0} fire points.`));
  return lines;
}
