// History events as lines a person reads.
import { seatName } from "./api.js";
import { cardLabel } from "./boards/witches.js";

const nice = (str) => String(str).replaceAll("_", " ");

function brief(value) {
  if (typeof value === "string") return value.startsWith("wi-") ? cardLabel(value) : nice(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    if (value.length === 2 && value.every((n) => typeof n === "number")) return value.join(",");
    return value.length <= 6 && value.every((x) => typeof x !== "object" || x === null) ? value.map(brief).join(", ") : `${value.length} items`;
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value).filter(([, x]) => x !== null && typeof x !== "object");
    return entries.length && entries.length <= 6 ? entries.map(([k, x]) => `${nice(k)} ${brief(x)}`).join(", ") : "…";
  }
  return "";
}

export function eventLine(event, game) {
  const data = event.data || {};
  const who = event.actor === null || event.actor === undefined || event.actor === "system" ? "" : seatName(game, Number(event.actor)) + ": ";
  const skip = new Set(["type", "seat", "v", "seed_sha256", "box", "rules_version"]);
  const details = Object.entries(data).filter(([k, x]) => !skip.has(k) && x !== null && x !== undefined)
    .slice(0, 5).map(([k, x]) => `${nice(k)} ${brief(x)}`).filter((str) => !str.endsWith(" …") && str.length < 90);
  return `${event.version}. ${who}${nice(event.type)}${details.length ? " — " + details.join("; ") : ""}`;
}
