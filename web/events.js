// History events as lines a person reads: the server's sentence (`text`, in the page's
// language, from GET /games/{id}/events, the stream and the export), numbered by version; and
// a finished game's result in a sentence.
import { seatName } from "./api.js";
import { t } from "./i18n.js";

export function eventLine(event) {
  return `${event.version}. ${event.text ?? String(event.type).replaceAll("_", " ")}`;
}

const names = (game, seats) => (seats || []).map((s) => seatName(game, s, { plain: true })).join(t(" and "));

// A score as words: a number, or a game's several counts ("fire 3, points 12").
export function scoreText(score) {
  if (score === null || score === undefined) return "–";
  if (typeof score !== "object") return String(score);
  return Object.entries(score).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`).join(", ");
}

// The result of a finished game; "" while it is not over (never the word "null").
export function resultText(game) {
  const r = game.result;
  if (!r) return "";
  if (r.outcome === "abandoned") return t("The game was abandoned.");
  if (r.outcome === "aborted") return t("The game was aborted before anyone moved.");
  if (r.outcome === "resigned") return t("Game over: {left} left the game. Won by {winners}.", { left: names(game, r.resigned), winners: names(game, r.winners) });
  const scores = Array.isArray(r.scores) ? r.scores.map((sc, i) => `${seatName(game, i)} ${scoreText(sc)}`).join(", ") : "";
  const tail = scores ? t(" (scores: {scores})", { scores }) : "";
  return (r.winners || []).length ? t("Game over. Won by {winners}{scores}.", { winners: names(game, r.winners), scores: tail })
    : t("Game over. No winner{scores}.", { scores: tail });
}
