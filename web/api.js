// The public API, as the pages use it: fetch wrappers, problem+json turned into sentences a
// person can act on, and what this browser holds (localStorage: the server shows a key or a
// token once): the player (its name, id and key, which opens every game the player sits in),
// and per game a seat's token or an invite code.

import { lang, t } from "./i18n.js";

const STORE = "gameserver.games";
const PLAYER = "gameserver.player";

export class ApiProblem extends Error {
  constructor(status, body, retryAfter) {
    super(body.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || "http_" + status;
    this.version = body.version;
    this.retryAfter = retryAfter;
  }
  // What a person should read, and do, in the page's language.
  get sentence() {
    switch (this.code) {
      case "version_conflict": return t("Someone moved first: the board was refreshed, choose again.");
      case "not_your_turn": return t("It is not your turn: wait for the others.");
      case "rate_limited": case "too_many_streams":
        return t("Too many requests: wait {s} s and try again.", { s: this.retryAfter || t("a few") });
      case "unknown_game": return t("There is no such game (finished games may have expired).");
      case "invalid_token": return t("This browser's key for the game is not valid: you are watching.");
      case "invalid_player_key": return t("This browser's player key is not known to the server any more: the lobby makes a new player.");
      case "seat_taken": case "game_started": return t("Someone took that seat first: the list was refreshed.");
      case "invalid_invite": return t("That seat is by invitation: open the invite link the game's creator shared.");
      case "already_seated": return t("You already sit in this game.");
      case "seat_reserved": return t("That seat is kept for another player for a few minutes.");
      case "illegal_move": return t("That move is not allowed now: {why}", { why: this.message });
      case "store_unavailable": return t("The server's storage is unavailable: retrying shortly.");
      case "already_matched": return t("Your game was found already: opening it.");
      case "unknown_player": return t("There is no such player.");
      default: return this.message;
    }
  }
}

// Every request asks for the page's language: the API's words (moves, events, game types,
// rules) come back in it.
const asked = (headers) => ({ "Accept-Language": lang(), ...headers });

// An address the browser opens itself (EventSource cannot send headers): the language in it.
export function withLang(url) {
  return url + (url.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(lang());
}

export async function api(path, { method = "GET", token, body, headers = {} } = {}) {
  const h = asked({ Accept: "application/json", ...headers });
  if (token) h.Authorization = "Bearer " + token;
  if (body !== undefined) h["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 204) return null;
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiProblem(res.status, data, res.headers.get("Retry-After"));
  return data;
}

// A whole history in one request (GET /games/{id}/events as NDJSON): the events, in order.
export async function apiNdjson(path, { token } = {}) {
  const h = asked({ Accept: "application/x-ndjson" });
  if (token) h.Authorization = "Bearer " + token;
  const res = await fetch(path, { headers: h });
  if (!res.ok) throw new ApiProblem(res.status, await res.json().catch(() => ({})), res.headers.get("Retry-After"));
  return (await res.text()).split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
}

// A name for a person who typed none: an adjective and an animal in the page's language, kept
// for this browser as the two picks (the same suggestion on every page, in either language; the
// lobby's field starts with it, and the person may change it).
const NAMES = {
  en: [["Brave", "Calm", "Clever", "Lucky", "Merry", "Quick", "Quiet", "Sunny", "Swift", "Wise"],
    ["Otter", "Fox", "Heron", "Panda", "Lynx", "Badger", "Crane", "Tiger", "Whale", "Owl"]],
  ko: [["용감한", "차분한", "영리한", "운 좋은", "명랑한", "재빠른", "조용한", "해맑은", "날쌘", "지혜로운"],
    ["수달", "여우", "왜가리", "판다", "스라소니", "오소리", "두루미", "호랑이", "고래", "부엉이"]],
};
export function friendlyName() {
  const typed = localStorage.getItem("gameserver.name");
  if (typed) return typed;
  let picks = /^(\d+),(\d+)$/.exec(localStorage.getItem("gameserver.suggested-name") || "");
  if (!picks) {
    const [a, b] = crypto.getRandomValues(new Uint8Array(2));
    picks = [null, a % 10, b % 10];
    localStorage.setItem("gameserver.suggested-name", `${picks[1]},${picks[2]}`);
  }
  const [adjectives, animals] = NAMES[lang()] || NAMES.en;
  return `${adjectives[Number(picks[1])]} ${animals[Number(picks[2])]}`;
}

export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The player this browser is (POST /players made it): {id, name, key}, or null.
export function player() {
  try { return JSON.parse(localStorage.getItem(PLAYER)); } catch { return null; }
}

export function setPlayer(p) {
  if (p) localStorage.setItem(PLAYER, JSON.stringify({ id: p.id, name: p.name, key: p.key }));
  else localStorage.removeItem(PLAYER);
  return p;
}

// The player, made now when this browser has none yet; renamed when `name` is another.
export async function ensurePlayer(name) {
  let p = player();
  if (p) {
    if (!name || name === p.name) return p;
    try {
      const me = await api("/players/me", { method: "PATCH", token: p.key, body: { name } });
      return setPlayer({ ...p, name: me.name });
    } catch (err) {
      if (!(err instanceof ApiProblem) || !["invalid_player_key", "invalid_token", "token_required", "token_malformed"].includes(err.code)) throw err;
      setPlayer(null); // the server forgot this key: become a new player
    }
  }
  const made = await api("/players", { method: "POST", body: { name: name || friendlyName() } });
  // The recovery code is shown once, by this answer: kept for this tab until the person says it
  // is written down (the page may move to a game first), never in localStorage.
  if (made.recovery_code) sessionStorage.setItem(FIRST_RECOVERY, made.recovery_code);
  showRecoveryCode();
  return setPlayer(made);
}

// A new player's first recovery code (POST /players answers it once): a notice on every page
// until the person says it is written down. With it, the player is got back on another
// device when this browser's key is lost (the account page: "Or a recovery code").
const FIRST_RECOVERY = "gameserver.first-recovery";

export function showRecoveryCode() {
  const code = sessionStorage.getItem(FIRST_RECOVERY);
  if (!code || document.querySelector("#recovery-notice")) return;
  const notice = el("section", { id: "recovery-notice", class: "card", role: "alert", "aria-labelledby": "recovery-notice-h" },
    el("h2", { id: "recovery-notice-h", text: t("Your recovery code") }),
    el("p", { class: "hint", text: t("Write it down and keep it safe: it gets this player back on another device if this browser's key is lost. It is shown only now.") }),
    el("output", { id: "recovery-notice-code", class: "key", text: code }),
    el("button", { type: "button", id: "recovery-notice-done", class: "primary", text: t("I wrote it down"),
      onclick: () => { sessionStorage.removeItem(FIRST_RECOVERY); notice.remove(); } }));
  // Beside the board on a game's page (the board stays where it is), else at the page's top.
  const beside = document.querySelector("aside.side #status");
  if (beside) beside.after(notice);
  else (document.querySelector("main") || document.body).prepend(notice);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showRecoveryCode);
else showRecoveryCode();

// The games this browser holds a seat's token or an invite code for.
export function knownGames() {
  try { return JSON.parse(localStorage.getItem(STORE)) || {}; } catch { return {}; }
}

export function remember(id, fields) {
  const all = knownGames();
  all[id] = { ...(all[id] || { id, first_seen: Date.now() }), ...fields, last_seen: Date.now() };
  localStorage.setItem(STORE, JSON.stringify(all));
  return all[id];
}

export function forget(id) {
  const all = knownGames();
  delete all[id];
  localStorage.setItem(STORE, JSON.stringify(all));
}

// A link may carry a seat's token (#token=...) or an invite code (#invite=...): kept, and the
// token dropped from the address bar. Without a seat's token, the player's key (which answers
// as the player's seat, or as a spectator when the player sits elsewhere).
export function tokenFor(id) {
  const params = new URLSearchParams(location.hash.slice(1));
  const fromLink = params.get("token");
  if (params.get("invite")) remember(id, { invite: params.get("invite") });
  if (fromLink) {
    remember(id, { token: fromLink });
    params.delete("token");
    history.replaceState(null, "", location.pathname + location.search + (params.toString() ? "#" + params : ""));
  }
  return knownGames()[id]?.token || player()?.key || null;
}

export function gameIdFromPath() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// A seat as the page names it: seats are numbered from 1, the viewer's own seat says so, a bot
// as the server's sentences name it (botLabel).
export function seatName(game, seat, { plain = false } = {}) {
  if (seat === null || seat === undefined || seat === "system") return t("system");
  const s = game.seats?.[seat];
  if (!s) return t("seat {n}", { n: Number(seat) + 1 });
  if (!s.bot && !s.name) return t(s.invite ? "invited seat (free)" : "open seat (free)");
  const who = s.bot ? botLabel(game.seats, seat) : s.name;
  return game.you === seat && !plain ? t("{who} — you", { who }) : who; // plain: in a sentence, the name alone
}

// Bot levels as people read them, in the page's language (GET /game-types `bot_names`), learnt
// by the pages that read the game types; until then, the level's id.
const BOT_NAMES = {};
export function learnBotNames(gameTypes) {
  for (const g of gameTypes || []) Object.assign(BOT_NAMES, g.bot_names || {});
}

// A bot level's name ("고수" for expert at ko).
export const botLevel = (level) => BOT_NAMES[level] || level;

// A bot seat's `name` is its level's id unless its creator named it.
const botCalled = (s) => (s.name && s.name !== s.bot ? s.name : botLevel(s.bot));

// A bot seat named one way everywhere, as the server's events and labels name it
// (api/games/words.py seat_names): "Expert bot", and "Expert bot 1", "Expert bot 2" (numbered
// among the bots of that name, not by seat) when two share a name.
export function botLabel(seats, index) {
  const name = botCalled(seats[index]);
  const twins = seats.map((o, i) => (o.bot && botCalled(o) === name ? i : -1)).filter((i) => i >= 0);
  return twins.length > 1 ? t("{bot} bot {n}", { bot: name, n: twins.indexOf(index) + 1 }) : t("{bot} bot", { bot: name });
}
