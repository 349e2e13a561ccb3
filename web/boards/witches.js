import { s, text, piece, board, named, SEAT_COLOURS } from "../svg.js";
import { t } from "../i18n.js";

// A phase's name as the view gives it, a dictionary key ("spell choice": i18n.js has each).
const nice = (str) => String(str ?? "").replaceAll("_", " ");

const SUIT = { red: "#e03131", green: "#2f9e44", yellow: "#f0b400", blue: "#1c7ed6", wizard: "#7048e8" };

// A card's name: the server's (in the page's language), else its colour and number.
export function cardLabel(id, game = null) {
  const [, colour, n] = id.split("-");
  const name = named(game || {}, id, colour === "wizard" ? `wizard ${n}` : `${colour} ${Number(n)}`);
  // the number the face shows is part of its name (WCAG 2.5.3: a name holds its visible text)
  return colour === "wizard" || name.includes(String(Number(n))) ? name : `${name} ${Number(n)}`;
}

// A card face; every face is a piece (its id is what a move plays and an event names).
function card(game, id, x, y, w = 54, h = 80) {
  const [, colour, n] = id.split("-");
  return piece(id, cardLabel(id, game),
    s("rect", { x, y, width: w, height: h, rx: 6, fill: "#fff", stroke: SUIT[colour] || "#888", "stroke-width": 3, class: "shape" }),
    s("rect", { x: x + 4, y: y + 4, width: w - 8, height: h * 0.22, rx: 3, fill: SUIT[colour] || "#888" }),
    text(x + w / 2, y + h * 0.7, colour === "wizard" ? "✶" : Number(n), { "text-anchor": "middle", "font-size": Math.max(14, h * 0.3), "font-weight": "bold", fill: SUIT[colour] || "#333" }));
}

function back(x, y) {
  return s("rect", { x, y, width: 20, height: 30, rx: 3, fill: "#5f3dc4", stroke: "#fff" });
}

const seatLine = (v, seat) => t("{fire} fire points · {tricks} tricks", { fire: v.totals?.[seat] ?? 0, tricks: v.tricks_won?.[seat] ?? 0 });

function seatBox(game, seat, x, y, w) {
  const v = game.view, acting = (game.to_act || []).includes(seat), cards = v.hand_sizes?.[seat] ?? 0;
  return piece(`seat=${seat}`, t("{name}: {fire} fire points, {tricks} tricks, {cards} cards", { name: game.seatNames[seat], fire: v.totals?.[seat] ?? 0, tricks: v.tricks_won?.[seat] ?? 0, cards }),
    s("rect", { x: x - w / 2, y: y - 30, width: w, height: 60, rx: 10, fill: acting ? "#fff4d6" : "#f1f3f5", stroke: acting ? "#e8a200" : SEAT_COLOURS[seat % 6], "stroke-width": 2, class: "shape" }),
    text(x, y - 10, game.seatNames[seat], { "text-anchor": "middle", "font-weight": "bold", "font-size": 14 }),
    text(x, y + 8, seatLine(v, seat), { "text-anchor": "middle", "font-size": 13 }),
    text(x, y + 24, t(v.leader === seat ? "{n} cards · leads" : "{n} cards", { n: cards }), { "text-anchor": "middle", "font-size": 12 }));
}

// The cards on the table: the trick being played, else the last one taken (outlined as the
// last move by the board when it is).
function tableCards(v) {
  if ((v.trick || []).length) return Object.fromEntries(v.trick.map((t) => [t.seat, t.card]));
  return Object.fromEntries((v.last_trick?.cards || []).map((c) => [c.seat, c.card]));
}

const header = (game) => {
  const v = game.view, last = (v.trick || []).length ? null : v.last_trick;
  return [t("Round {n}", { n: v.round ?? "-" }), t(nice(v.phase)), v.led_colour ? t(`led ${v.led_colour}`) : null,
    last ? t("last trick to {name}", { name: game.seatNames[last.winner] }) : null].filter(Boolean).join(" · ");
};

// Hands as the view shows them: yours (to play), or every seat's once the history reveals them
// (a finished game's replay).
function hands(game, x, top, width, cw, ch) {
  const v = game.view, parts = [];
  const shown = v.hand ? [[game.you, v.hand, t("Your hand")]] : (v.hands || []).map((h, seat) => [seat, h, t("{name}'s hand", { name: game.seatNames[seat] })]).filter(([, h]) => h.length);
  const perRow = Math.max(1, Math.floor((width - x) / (cw + 3)));
  let y = top;
  for (const [, hand, title] of shown) {
    parts.push(text(x, y + 16, title, { "font-size": 14, "font-weight": "bold" }));
    hand.forEach((id, i) => parts.push(card(game, id, x + (i % perRow) * (cw + 3), y + 24 + Math.floor(i / perRow) * (ch + 6), cw, ch)));
    y += 24 + Math.max(1, Math.ceil(hand.length / perRow)) * (ch + 6) + 4;
  }
  return { parts, bottom: y };
}

export function render(game, moves = [], layout = {}) {
  return layout.narrow ? renderNarrow(game, layout.width) : renderWide(game);
}

function renderWide(game) {
  const v = game.view;
  const n = v.n_seats || game.seats.length;
  const width = 760, parts = [];
  const cx = 380, cy = 200, rx = 290, ry = 120;
  const onTable = tableCards(v);
  for (let seat = 0; seat < n; seat++) {
    const a = Math.PI / 2 + (2 * Math.PI * (seat - (game.you ?? 0))) / n;
    const x = cx + rx * Math.cos(a), y = cy + ry * Math.sin(a);
    parts.push(seatBox(game, seat, x, y, 190));
    if (seat !== game.you && !v.hands) { // your own hand is drawn once, face up, below
      const cards = v.hand_sizes?.[seat] ?? 0;
      for (let i = 0; i < Math.min(cards, 14); i++) parts.push(back(x - 70 + i * 10, y + (y > cy ? 34 : -66)));
    }
    if (onTable[seat]) parts.push(card(game, onTable[seat], cx + (x - cx) * 0.4 - 27, cy + (y - cy) * 0.3 - 40));
  }
  parts.push(text(8, 18, header(game), { "font-size": 14 }));
  const { parts: held, bottom } = hands(game, 10, 370, width, 54, 80);
  return board(width, Math.max(bottom, 400) + 6, t("Witches table"), ...parts, ...held);
}

// A phone: the seats as a list, the cards on the table in a row, the hand wrapped below.
function renderNarrow(game, width) {
  const v = game.view;
  const n = v.n_seats || game.seats.length;
  const parts = [text(6, 18, header(game), { "font-size": 13 })];
  const cols = 2, w = (width - 6 * (cols + 1)) / cols;
  const onTable = tableCards(v);
  for (let seat = 0; seat < n; seat++) {
    const x = 6 + (seat % cols) * (w + 6) + w / 2, y = 62 + Math.floor(seat / cols) * 134;
    parts.push(seatBox(game, seat, x, y, w));
    if (onTable[seat]) parts.push(card(game, onTable[seat], x - 24, y + 34, 48, 64));
  }
  const top = 62 + Math.ceil(n / cols) * 134 - 28;
  const { parts: held, bottom } = hands(game, 6, top, width, 50, 72);
  return board(width, bottom + 6, t("Witches table"), ...parts, ...held);
}

export function describe(game) {
  const v = game.view;
  const lines = [`${t("Round {n}", { n: v.round })}, ${t(nice(v.phase))}.`];
  if (v.hand) lines.push(t("Your hand: {cards}.", { cards: v.hand.map((id) => cardLabel(id, game)).join(", ") }));
  if (v.trick?.length) lines.push(t("Trick: {cards}.", { cards: v.trick.map((c) => cardLabel(c.card || c, game)).join(", ") }));
  game.seats.forEach((_, i) => lines.push(t("{name}: {n} fire points.", { name: game.seatNames[i], n: v.totals?.[i] ?? 0 })));
  return lines;
}
