// A player's menu (issue 53: "block / mute / report from a player's name anywhere"): the one
// place where the web client offers what its player may do about another one: open the profile,
// follow or unfollow, challenge, mute or unmute, block or unblock, report with a reason. Each
// place asks for the actions it fits (`offer`); what is true now (followed, muted, blocked) is
// read when the menu opens, and again after each action. Only the public API:
// /players/{id}/follow|challenge|mute|block, /players/me/following|mutes|blocks, /reports,
// /game-types.
import { api, ApiProblem, el, learnBotNames, player, remember } from "./api.js";
import { t } from "./i18n.js";

let menus = 0; // ids for the menus' fields
export const gameTitles = {}; // the game types' titles read so far (gameTypeSelect), by type

// Beside a name: its profile, mute, block and report; the profile page adds follow and challenge.
export const NAME_ACTIONS = ["profile", "mute", "block", "report"];
export const PROFILE_ACTIONS = ["follow", "challenge", "mute", "block", "report"];

const problemText = (err) => (err instanceof ApiProblem ? err.sentence : t("The server cannot be reached."));
const call = (path, options = {}) => api(path, { token: player()?.key || null, ...options });

// The game types a challenge or a group's game may be of (the API's titles, in the page's language).
export async function gameTypeSelect(id, labelText) {
  const select = el("select", { id });
  try {
    const types = (await api("/game-types")).game_types;
    learnBotNames(types);
    for (const g of types) {
      gameTitles[g.type] = g.title || g.type;
      select.append(new Option(gameTitles[g.type], g.type));
    }
  } catch { select.append(new Option("splendor", "splendor")); }
  return el("label", { class: "option" }, labelText + " ", select);
}

// A game made for the caller (a challenge, a group's game): its seat kept in this browser, then its page.
export function openMade(game, type) {
  const mine = game.seats.find((s) => s.token);
  remember(game.id, { type, token: mine?.token || null, seat: mine?.seat ?? 0, creator: true });
  location.href = `/play/${encodeURIComponent(game.id)}`;
}

// A challenge: a game with the other player's seat kept for them, opened at once.
export async function challenge(playerId, type, say = () => {}) {
  try {
    openMade(await call(`/players/${encodeURIComponent(playerId)}/challenge`, { method: "POST", body: { type } }), type);
  } catch (err) { say(problemText(err), "error"); }
}

// What is true now between the caller and `person`, for the actions offered (each list read once).
async function relation(person, offer) {
  const has = (list) => list.some((p) => (p.id ?? p) === person.id);
  const [following, mutes, blocks] = await Promise.all([
    offer.includes("follow") ? call("/players/me/following").then((r) => has(r.following)) : false,
    offer.includes("mute") ? call("/players/me/mutes").then((r) => has(r.mutes)) : false,
    offer.includes("block") ? call("/players/me/blocks").then((r) => has(r.blocks)) : false,
  ].map((p) => Promise.resolve(p).catch(() => false))); // unknown: offered as not so
  return { following, muted: mutes, blocked: blocks };
}

// A report with its reason: a message's names the message, a game's the game, else the player.
function reportForm(person, about, n, done, say) {
  const reason = el("input", { id: `report-reason-${n}`, class: "report-reason", maxlength: "1000", required: true });
  return el("form", { class: "report narrow", onsubmit: async (e) => {
    e.preventDefault();
    const body = about.message ? { kind: "message", channel: about.channel, message: about.message }
      : about.game ? { kind: "game", game: about.game } : { kind: "player", player: person.id };
    try {
      await call("/reports", { method: "POST", body: { ...body, reason: reason.value.trim() } });
      reason.value = "";
      say(t("Report sent: the moderators will look at it."), "ok");
      done(false);
    } catch (err) { say(problemText(err), "error"); }
  } }, el("label", { for: reason.id }, t(about.message ? "Report this message: why?" : "Report this player: why?")), reason,
  el("button", { type: "submit", class: "send-report" }, t("Send the report")));
}

// The actions, drawn into `box` for what is true now. `done(changed)` after each one.
async function fill(box, person, { offer, about, say, done, n }) {
  const name = person.name ?? t("a player no longer known");
  const id = encodeURIComponent(person.id);
  const now = await relation(person, offer);
  const button = (cls, words, onclick) => el("button", { type: "button", class: cls, onclick }, words);
  const act = (what, on, said) => async () => {
    if (what === "block" && on && !window.confirm(t("Block {name}? You will not meet or read each other.", { name }))) return;
    try {
      await call(`/players/${id}/${what}`, { method: on ? "POST" : "DELETE" });
      say(said, "ok");
      done(true);
    } catch (err) { say(problemText(err), "error"); }
  };
  const v = { name };
  const offered = {
    profile: () => el("a", { href: `/profile/${id}` }, t("Profile")),
    follow: () => (now.following ? button("unfollow", t("Unfollow"), act("follow", false, t("You no longer follow {name}.", v)))
      : button("follow primary", t("Follow"), act("follow", true, t("You follow {name}.", v)))),
    challenge: async () => {
      const type = await gameTypeSelect(`challenge-type-${n}`, t("Game for a challenge"));
      return el("div", { class: "narrow challenge-row" }, type,
        button("challenge primary", t("Challenge"), () => challenge(person.id, type.querySelector("select").value, say)));
    },
    mute: () => (now.muted ? button("unmute", t("Unmute"), act("mute", false, t("You unmuted {name}.", v)))
      : button("mute", t("Mute"), act("mute", true, t("You muted {name}: their messages are hidden from you.", v)))),
    block: () => (now.blocked ? button("unblock", t("Unblock"), act("block", false, t("You unblocked {name}.", v)))
      : button("block", t("Block"), act("block", true, t("You blocked {name}.", v)))),
    report: () => reportForm(person, about, n, done, say),
  };
  // a blocked player is only unblocked (or reported): no follow, challenge nor mute meanwhile
  const shown = now.blocked ? offer.filter((a) => ["profile", "block", "report"].includes(a)) : offer;
  box.replaceChildren(...await Promise.all(shown.map((a) => offered[a]())));
}

// A player's name with its menu (`details`: the name, or `label`, opens it), or, `open`, the
// actions drawn at once in a panel (the profile's). Nothing for a visitor with no player yet nor
// for the player's own name. `about`: what a report names beside the player ({channel, message}
// of a chat message, or {game}); `changed`: called after an action that changes what the page
// shows (a chat reads itself again without a muted player's messages).
export function personMenu(person, { offer = NAME_ACTIONS, about = {}, changed = () => {}, say = () => {}, label = null, open = false } = {}) {
  const name = person.name ?? t("a player no longer known");
  const me = player();
  if (!me || !person.id || me.id === person.id) return el("span", { class: "who-name" }, name);
  const n = ++menus;
  const box = el("div", { class: "person-actions", "data-player": person.id });
  let done = null; // after an action: the panel drawn again, the menu closed
  const draw = () => fill(box, person, { offer, about, say, done, n });
  if (open) {
    done = (changes) => { if (changes) { changed(); draw(); } };
    draw();
    return box;
  }
  const menu = el("details", { class: "person-menu", "data-player": person.id },
    el("summary", { "aria-label": t("{name}: mute, block or report", { name }) }, label ?? name), box);
  done = (changes) => {
    menu.open = false;
    box.replaceChildren(); // read again at the next opening
    if (changes) changed();
  };
  menu.addEventListener("toggle", () => { if (menu.open && !box.childElementCount) draw(); });
  return menu;
}
