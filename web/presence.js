// Who is here: beside each seat of the play page, whether that seat has the game open now
// (GET /games/{id}/presence: a seat is "here" while it holds a live stream of the game). Asked
// when the page draws and every 5 s while the page is looked at; never chat, never more.
import { api, el, seatName } from "./api.js";
import { personMenu } from "./person.js";
import { t } from "./i18n.js";

const EVERY_MS = 5000;
// How often, in ms: 5 s, unless this browser's localStorage says otherwise (PRESENCE_EVERY: the
// browser tests ask every second, so that a seat's arrival or leaving is seen without waiting
// out 5 s; issue 48). Read at each ask: set on an open page, it holds from the next one.
const PRESENCE_EVERY = "gameserver.presence-every-ms";
function everyMs() {
  let set = NaN;
  try { set = Number(localStorage.getItem(PRESENCE_EVERY)); } catch { /* no storage: the default */ }
  return set >= 250 ? set : EVERY_MS;
}
let last = { at: 0, here: null, game: null };
let timer = null;

let asked = null; // the last call's arguments: asked again when the page is looked at again

// `now`: ask at once (this page's own stream just opened), not at most every 2 s.
export async function showPresence(box, game, token, now = false) {
  if (!box || !game) return;
  asked = [box, game, token];
  draw(box, game, last.game === game.id ? last.here : null);
  // a burst of redraws: one request (within 2 s, or within the interval when it is shorter)
  if (!now && Date.now() - last.at < Math.min(2000, everyMs()) && last.game === game.id) return;
  last.at = Date.now();
  try {
    const answer = await api(`/games/${encodeURIComponent(game.id)}/presence`, { token });
    last = { at: Date.now(), game: game.id, here: new Map(answer.seats.map((s) => [s.seat, s.here])) };
    draw(asked[0], asked[1], last.here); // the game as the page holds it now (a seat taken meanwhile)
  } catch { /* an outage is said by the status area; the seats stay as they were */ }
  clearTimeout(timer);
  if (game.status === "active" || game.status === "waiting") {
    // asked again with the latest game the page drew, never the one of this call: a seat taken
    // since is not drawn free again
    timer = setTimeout(() => { if (document.visibilityState === "visible") showPresence(...asked); else timer = null; }, everyMs());
  }
}

const menus = new Map(); // a person's menu, by player id: the same node each redraw (left open, a reason typed)
// what a menu did, said where the page says things (sayWith: the play page's status area)
let said = () => {};
export function sayWith(fn) { said = fn; }

function draw(box, game, here) {
  const seats = (game.seats || []).map((s, i) => {
    const person = !s.bot && s.name && i !== game.you; // the others: this page's own seat is here
    const known = person && here && here.has(i);
    const mark = known ? el("span", { class: "presence " + (here.get(i) ? "here" : "away"),
      title: t(here.get(i) ? "{who} has the game open." : "{who} does not have the game open.", { who: seatName(game, i) }) },
    t(here.get(i) ? "here" : "away")) : null;
    // a person's name opens their profile (follow, block, challenge there)
    const who = s.player && !s.bot ? el("a", { href: `/profile/${encodeURIComponent(s.player)}` }, seatName(game, i)) : seatName(game, i);
    // and beside another person's name, its small menu (mute, block, report), kept across redraws
    let menu = null;
    if (s.player && !s.bot && i !== game.you) {
      if (!menus.has(s.player)) menus.set(s.player, personMenu({ id: s.player, name: s.name }, { label: "⋯", say: (...a) => said(...a) }));
      menu = menus.get(s.player);
    }
    return el("li", { "data-seat": i }, el("span", { class: "seat-no" }, `${i + 1}.`), " ", who, mark ? " " : null, mark, menu ? " " : null, menu);
  });
  box.replaceChildren(el("ol", { class: "players" }, seats));
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && asked && timer === null) showPresence(...asked);
});
