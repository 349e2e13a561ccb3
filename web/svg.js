// A few SVG helpers the boards share.
const NS = "http://www.w3.org/2000/svg";

export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return node;
}

// A piece's or place's name as the server gives it in the page's language (game.names, from GET
// /game-types `pieces`: board.js reads them), else the board's own English description.
export const named = (game, id, fallback = id) => game.names?.[id] ?? fallback;

export const text = (x, y, str, attrs = {}) => s("text", { x, y, ...attrs }, String(str));

// A board element a move can refer to: `ref` is the token its moves carry (a card id, a square,
// "q,r" for a hex, "index=2"...); play.js makes it a focusable button when a legal move uses it.
export function piece(ref, label, ...children) {
  return s("g", { "data-ref": ref, "aria-label": label }, s("title", {}, label), ...children);
}

export function board(width, height, label, ...children) {
  return s("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": label, class: "board-svg" },
    ...children);
}

export function hexPoints(cx, cy, r, pointy = true) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i + (pointy ? 30 : 0));
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

export const SEAT_COLOURS = ["#d9480f", "#1971c2", "#2b8a3e", "#9c36b5", "#e67700", "#0c8599"];
