// The lobby: the hosted games, a form creating one (you and bots), and the games this browser
// knows (localStorage) to play, watch or replay.
import { api, ApiProblem, el, forget, knownGames, remember } from "./api.js";

const $ = (sel) => document.querySelector(sel);
let types = [];

function say(message, kind = "info") {
  $("#status").textContent = message;
  $("#status").className = "status " + kind;
}

const current = () => types.find((t) => t.type === $("#type").value);

function seatRow(choice) {
  const t = current();
  const select = el("select", { class: "seat", "aria-label": "Who sits here" },
    el("option", { value: "me" }, "Me"), t.bots.map((b) => el("option", { value: "bot:" + b }, `Bot: ${b}`)));
  select.value = choice;
  const row = el("li", {}, select, el("button", { type: "button", class: "remove", "aria-label": "Remove this seat",
    onclick: () => { if ($("#seats").children.length > t.min_seats) { row.remove(); syncSeats(); } } }, "✕"));
  return row;
}

function syncSeats() {
  const t = current(), n = $("#seats").children.length;
  $("#add-seat").disabled = n >= t.max_seats;
  for (const b of document.querySelectorAll("#seats .remove")) b.disabled = n <= t.min_seats;
}

function showType() {
  const t = current();
  $("#type-notes").textContent = `${t.min_seats}–${t.max_seats} seats. ${t.notes || ""}`;
  const strongest = t.bots[t.bots.length - 1];
  $("#seats").replaceChildren(seatRow("me"), ...Array.from({ length: t.min_seats - 1 }, () => seatRow("bot:" + strongest)));
  syncSeats();
  const box = $("#options");
  box.replaceChildren();
  for (const o of t.options) {
    let input;
    if (o.choices) {
      input = el("select", { name: o.name }, o.choices.map((c) => el("option", { value: JSON.stringify(c) }, String(c))));
      input.value = JSON.stringify(o.default);
    } else if (o.type === "boolean") {
      input = el("input", { type: "checkbox", name: o.name, checked: o.default === true });
    } else if (o.type === "integer") {
      input = el("input", { type: "number", name: o.name, value: o.default, min: o.minimum, max: o.maximum, step: 1 });
    } else {
      input = el("input", { name: o.name, value: o.default ?? "" });
    }
    input.dataset.kind = o.choices ? "choice" : o.type;
    box.append(el("label", { class: "option" }, input, " ", o.name.replaceAll("_", " "), el("small", { class: "hint" }, " — " + (o.description || ""))));
  }
  $("#options-box").hidden = !t.options.length;
}

function options() {
  const out = {};
  for (const input of document.querySelectorAll("#options [name]")) {
    const kind = input.dataset.kind;
    out[input.name] = kind === "boolean" ? input.checked : kind === "integer" ? Number(input.value) : kind === "choice" ? JSON.parse(input.value) : input.value;
  }
  return out;
}

async function create(e) {
  e.preventDefault();
  const name = $("#name").value.trim() || "Me";
  localStorage.setItem("gameserver.name", name);
  const choices = [...document.querySelectorAll("#seats .seat")].map((s) => s.value);
  if (choices.filter((c) => c === "me").length > 1) { say("Only one seat can be yours on this page.", "error"); return; }
  const seats = choices.map((c) => (c === "me" ? { name } : { bot: c.slice(4) }));
  $("#create-btn").disabled = true;
  say("Creating…");
  try {
    const game = await api("/games", { method: "POST", body: { type: current().type, seats, options: options() } });
    const mine = game.seats.find((s) => s.token);
    remember(game.id, { type: current().type, token: mine?.token || null, seat: mine?.seat ?? null, status: "active", created: Date.now() });
    location.href = `/play/${game.id}`;
  } catch (err) {
    say(err instanceof ApiProblem ? err.sentence : "The server cannot be reached.", "error");
    $("#create-btn").disabled = false;
  }
}

async function listGames() {
  const known = Object.values(knownGames()).sort((a, b) => (b.last_seen || 0) - (a.last_seen || 0)).slice(0, 25);
  const live = $("#live-games"), done = $("#done-games");
  live.replaceChildren(); done.replaceChildren();
  for (const k of known) {
    let g;
    try { g = await api(`/games/${k.id}`, { token: k.token }); } catch (err) {
      if (err instanceof ApiProblem && err.code === "unknown_game") forget(k.id);
      continue;
    }
    remember(k.id, { type: g.type, status: g.status, version: g.version });
    const who = g.seats.map((s) => (s.bot ? `${s.bot} bot` : s.name)).join(", ");
    const mine = g.you !== null && g.you !== undefined;
    const item = el("li", { "data-game": g.id }, el("strong", {}, g.type), ` ${g.id} · ${who} · v${g.version} `);
    if (g.status === "active") {
      const myTurn = mine && (g.to_act || []).includes(g.you);
      item.append(el("a", { href: `/play/${g.id}`, class: "button" }, mine ? (myTurn ? "Play (your turn)" : "Play") : "Watch"));
      live.append(item);
    } else {
      item.append(el("a", { href: `/replay/${g.id}`, class: "button" }, "Replay"), " ", el("a", { href: `/play/${g.id}` }, "final board"));
      done.append(item);
    }
  }
  if (!live.children.length) live.append(el("li", { class: "hint" }, "None yet: create one, or make every seat a bot to watch."));
  if (!done.children.length) done.append(el("li", { class: "hint" }, "None yet."));
}

async function start() {
  $("#name").value = localStorage.getItem("gameserver.name") || "Me";
  try {
    types = (await api("/game-types")).game_types;
  } catch (err) { say(err instanceof ApiProblem ? err.sentence : "The server cannot be reached.", "error"); return; }
  $("#type").replaceChildren(...types.map((t) => el("option", { value: t.type }, t.title)));
  $("#types").replaceChildren(...types.map((t) => el("li", {}, el("strong", {}, t.title), ` (${t.type}): ${t.min_seats}–${t.max_seats} seats, bots ${t.bots.join(", ")}. `, el("span", { class: "hint" }, t.notes || ""))));
  $("#type").addEventListener("change", showType);
  $("#add-seat").addEventListener("click", () => { $("#seats").append(seatRow("bot:" + current().bots.at(-1))); syncSeats(); });
  $("#create").addEventListener("submit", create);
  $("#open").addEventListener("submit", (e) => { e.preventDefault(); location.href = `/play/${encodeURIComponent($("#open-id").value.trim())}`; });
  showType();
  listGames();
}

start();
