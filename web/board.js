// Draws a game's board with its game's module, and its text alternative beside it.
import { el, seatName } from "./api.js";
import * as splendor from "./boards/splendor.js";
import * as witches from "./boards/witches.js";
import * as setup from "./boards/setup.js";
import * as fairyTile from "./boards/fairy-tile.js";
import * as smallworld from "./boards/smallworld-of-warcraft.js";

const BOARDS = { splendor, witches, setup, "fairy-tile": fairyTile, "smallworld-of-warcraft": smallworld };

export function drawBoard(container, game, moves = []) {
  const module = BOARDS[game.type];
  game.seatNames = game.seats.map((_, i) => seatName(game, i));
  container.replaceChildren();
  if (game.view === null) { // before the deal (a replay's versions while the game waited): its seats
    const free = game.seats.filter((s) => !s.bot && !s.name).length;
    container.append(el("p", { class: "waiting", text: free ? `Waiting for players: ${free} free seat${free === 1 ? "" : "s"}.` : "Every seat is taken: the deal follows." }),
      el("ol", { class: "seats" }, game.seats.map((_, i) => el("li", { "data-seat": i }, game.seatNames[i]))));
    return;
  }
  if (!module) {
    container.append(el("p", { text: `No board drawing for ${game.type}: its view follows.` }), el("pre", { text: JSON.stringify(game.view, null, 1) }));
    return;
  }
  let svg;
  try {
    svg = module.render(game, moves);
  } catch (err) {
    console.error(err);
    container.append(el("p", { class: "problem", text: `This board could not be drawn (${err.message}).` }));
    return;
  }
  const describedBy = "board-text";
  svg.setAttribute("aria-describedby", describedBy);
  const lines = module.describe(game);
  container.append(svg, el("details", { class: "board-text", id: describedBy },
    el("summary", { text: "The board in words" }), el("ul", {}, lines.map((line) => el("li", { text: line })))));
}

export function resultLine(game) {
  const r = game.result;
  if (!r) return "";
  if (r.outcome === "abandoned") return "The game was abandoned.";
  if (r.outcome === "aborted") return "The game was aborted before anyone moved.";
  if (r.outcome === "resigned") {
    const left = (r.resigned || []).map((s) => seatName(game, s)).join(" and ");
    return `Game over: ${left} left the game. Won by ${(r.winners || []).map((w) => seatName(game, w)).join(" and ")}.`;
  }
  const winners = (r.winners || []).map((w) => seatName(game, w));
  const scores = Array.isArray(r.scores) ? r.scores.map((sc, i) => `${seatName(game, i)} ${typeof sc === "object" ? JSON.stringify(sc) : sc}`).join(", ") : "";
  return `Game over. ${winners.length ? "Won by " + winners.join(" and ") : "No winner"}${scores ? ` (scores: ${scores})` : ""}.`;
}
