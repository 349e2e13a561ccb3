// Legal moves as a person sees them: a readable label each, the board elements each refers to
// (so clicking the board narrows the list), grouped by move type.
import { cardLabel } from "./boards/witches.js";

const nice = (str) => String(str).replaceAll("_", " ");

// The tokens a move refers to: ids and names as they are, coordinates "q,r", numbers "key=n".
export function refsOf(move) {
  const refs = new Set();
  const walk = (value, key) => {
    if (typeof value === "string") { if (key !== "type") refs.add(value); }
    else if (typeof value === "number") refs.add(`${key}=${value}`);
    else if (Array.isArray(value)) {
      if (value.length === 2 && value.every((n) => typeof n === "number")) refs.add(value.join(","));
      else value.forEach((x) => walk(x, key));
    } else if (value && typeof value === "object") {
      for (const [k, x] of Object.entries(value)) { refs.add(k); walk(x, k); }
    }
  };
  walk(move, "");
  return refs;
}

function thing(value) {
  if (typeof value !== "string") return Array.isArray(value) ? value.join(",") : JSON.stringify(value);
  if (value.startsWith("wi-")) return cardLabel(value);
  if (value.startsWith("su-")) { const [, suit, n] = value.split("-"); return `${suit} ${n}`; }
  if (value.startsWith("sp-")) return "card " + value.slice(3);
  return nice(value);
}

export function labelOf(move, game) {
  const t = move.type;
  if (game?.type === "splendor") {
    if (t === "take_gems") return `Take ${move.colors.join(", ")}`;
    if (t === "take_two") return `Take two ${move.color}`;
    if (t === "reserve") return `Reserve ${cardName(move.card, game)}`;
    if (t === "reserve_blind") return `Reserve the top of deck ${move.level}`;
    if (t === "buy") return `Buy ${cardName(move.card, game)}` + (move.payment ? ` paying ${Object.entries(move.payment).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(", ") || "nothing"}` : "");
    if (t === "return_tokens") return `Return ${Object.entries(move.tokens || {}).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(", ")}`;
  }
  if (game?.type === "fairy-tile") {
    const hex = (at) => at.join(",");
    const who = { princess: "Princess", knight: "Knight", dragon: "Dragon" }[move.figure] || move.figure;
    if (t === "move" && move.direction) return `${who} flies ${({ e: "east", w: "west", ne: "north-east", nw: "north-west", se: "south-east", sw: "south-west" })[move.direction] || move.direction}`;
    if (t === "move") return `${who} to ${hex(move.to)}${move.via ? ` via ${hex(move.via)}` : ""}`;
    if (t === "lay_tile") return `Lay the tile at ${hex(move.at)}, turned ${move.rotation * 60}°`;
    if (t === "turn_page") return "Turn the page";
    if (t === "finish") return "Finish the adventure";
  }
  if (t === "play" && move.place) return "Play " + Object.entries(move.place).map(([sq, id]) => `${thing(id)} on ${sq}`).join(", ");
  const rest = Object.entries(move).filter(([k]) => k !== "type")
    .map(([k, v]) => `${nice(k)} ${Array.isArray(v) && v.length && typeof v[0] !== "number" ? v.map(thing).join(", ") : thing(v)}`);
  return nice(t).replace(/^./, (c) => c.toUpperCase()) + (rest.length ? ": " + rest.join("; ") : "");
}

function cardName(id, game) {
  const v = game.view;
  const all = [...(v.market || []).flat(), ...(v.players || []).flatMap((p) => p.reserved || [])];
  const c = all.find((x) => x && x.id === id);
  return c && c.bonus ? `${c.bonus} ${c.points || 0}pt card (level ${c.level})` : thing(id);
}

// The moves that use every selected board element, simplest first.
export function narrow(moves, selected, filter) {
  const needle = (filter || "").trim().toLowerCase();
  return moves.filter((m) => [...selected].every((r) => m.refs.has(r)) && (!needle || m.label.toLowerCase().includes(needle)))
    .sort((a, b) => a.size - b.size);
}

export function prepare(moves, game) {
  return moves.map((move, i) => ({ move, i, refs: refsOf(move), label: labelOf(move, game), size: JSON.stringify(move).length }));
}
