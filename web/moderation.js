// The moderators' page (issue 50): the fair-play flags with their evidence (GET /moderation/flags),
// a player's void with a reason and its undo (POST /moderation/players/{id}/void, .../unvoid), and
// the chat reports' queue (GET /moderation/reports: hide the message, suspend its author from chat
// or play for a while, dismiss). The API decides who is a moderator: its 403 moderator_required
// makes the page say so, nothing else is shown.
import { api, ApiProblem, botLevel, el, player } from "./api.js";
import { t } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);

function say(message, kind = "info") {
  $("#status").textContent = message;
  $("#status").className = "status " + kind;
}

const problemText = (err) => (err instanceof ApiProblem ? err.sentence : t("The server cannot be reached."));

// What each signal is, in a person's words.
const SIGNALS = {
  boosting: "Boosting: many fast wins",
  sandbagging: "Sandbagging: many fast losses",
  same_opponent: "Fast wins over one and the same opponent",
  shared_address: "Accounts seen at one address",
  key_lineage: "Accounts made with one device's key",
  shared_identity: "Accounts of one sign-in identity",
  peeking: "Decisions explained by hidden information",
  table_overlap: "One player often last where another wins",
};

// The figures shown (the numbers; the rest is in the games and the players).
const FIGURES = {
  fast_results: "Fast results", window: "Results counted", fast_wins: "Fast wins", accounts: "Accounts",
  decisions: "Decisions", log_likelihood_ratio: "Log-likelihood ratio", min_decisions: "Decisions needed",
  decisions_where_the_models_differ: "Decisions where the two searches differ",
  played_the_hidden_states_first: "Played the hidden state's best move",
  played_the_seats_first: "Played the seat's best move",
  games_together: "Games together", won_while_the_other_was_last: "Wins while the other was last",
  chance_if_independent: "Chance by luck alone", warn_at: "Warning at", flag_at: "Flag at",
};

const number = (v) => new Intl.NumberFormat(document.documentElement.lang, { maximumSignificantDigits: 4 }).format(v);

function figures(flag) {
  const rows = Object.entries(flag.figures || {}).filter(([k, v]) => FIGURES[k] && typeof v === "number");
  return el("dl", { class: "mod-figures" }, rows.flatMap(([k, v]) => [el("dt", { text: t(FIGURES[k]) }), el("dd", { text: number(v) })]));
}

function gameLinks(flag) {
  if (!flag.games.length) return null;
  return el("p", { class: "mod-games" }, el("span", { text: t("Games:") }), " ",
    flag.games.map((id, i) => el("a", { href: `/replay/${encodeURIComponent(id)}`, "data-game": id, text: t("game {n}", { n: i + 1 }) })));
}

async function act(kind, who, reason) {
  const me = player();
  if (!reason.value.trim()) {
    say(t("Give a reason first: it is kept with the action."), "error");
    reason.focus();
    return;
  }
  try {
    const done = await api(`/moderation/players/${encodeURIComponent(who.id)}/${kind}`,
      { method: "POST", token: me.key, body: { reason: reason.value.trim() } });
    say(t(kind === "void" ? "{name}'s rated games are voided: {n} ratings re-rated." : "{name}'s rated games count again: {n} ratings re-rated.",
      { name: who.name ?? who.id, n: done.rerated.length }), "ok");
    await showFlags();
  } catch (err) { say(problemText(err), "error"); }
}

function playerRow(who) {
  if (who.bot) return el("li", {}, t("{bot} bot", { bot: botLevel(who.bot) }));
  const reason = el("input", { class: "mod-reason", maxlength: 1000, "aria-label": t("Reason"), placeholder: t("Reason") });
  const kind = who.voided ? "unvoid" : "void";
  return el("li", { "data-player": who.id },
    el("a", { href: `/profile/${encodeURIComponent(who.id)}`, class: "who", text: who.name ?? who.id }), " ",
    who.voided ? el("span", { class: "chip", text: t("voided") }) : null,
    el("span", { class: "mod-act" }, reason,
      el("button", { type: "button", class: kind === "void" ? "void" : "unvoid",
        text: t(kind === "void" ? "Void their rated games" : "Undo the void"), onclick: () => act(kind, who, reason) })));
}

function flagItem(flag) {
  return el("li", { class: `mod-flag ${flag.level}`, "data-signal": flag.signal },
    el("h3", {}, el("span", { class: "chip", text: t(flag.level === "flag" ? "Flag" : "Warning") }), " ",
      t(SIGNALS[flag.signal] || flag.signal)),
    el("ul", { class: "players" }, flag.players.map(playerRow)),
    figures(flag), gameLinks(flag));
}

async function showFlags() {
  const found = await api("/moderation/flags", { token: player().key });
  $("#flags").replaceChildren(...found.flags.map(flagItem));
  if (!found.flags.length) $("#flags").append(el("li", { class: "hint", text: t("No flags: nothing to judge now.") }));
  $("#flags-card").hidden = false;
}

// ---- the chat reports' queue ---------------------------------------------------------------

const PERIODS = [[3600, "1 hour"], [86400, "1 day"], [7 * 86400, "7 days"], [30 * 86400, "30 days"]];

async function resolve(report, outcome, reason, actions = []) {
  await api(`/moderation/reports/${encodeURIComponent(report.id)}/resolve`,
    { method: "POST", token: player().key, body: { outcome, reason, actions } });
}

function reportItem(report) {
  const message = report.context?.message;
  const author = report.subject?.player;
  const reason = el("input", { class: "mod-reason", maxlength: 1000, "aria-label": t("Reason"), placeholder: t("Reason") });
  const scope = el("select", { "aria-label": t("Suspended from") },
    el("option", { value: "chat", text: t("chat") }), el("option", { value: "play", text: t("play") }));
  const period = el("select", { "aria-label": t("For") }, PERIODS.map(([s, label]) => el("option", { value: s, text: t(label) })));
  const run = async (work) => {
    if (!reason.value.trim()) { say(t("Give a reason first: it is kept with the action."), "error"); reason.focus(); return; }
    try { await work(reason.value.trim()); say(t("Done."), "ok"); await showReports(); } catch (err) { say(problemText(err), "error"); }
  };
  const hide = () => run(async (why) => {
    const done = await api("/moderation/chat/hide", { method: "POST", token: player().key,
      body: { channel: report.subject.channel, message: report.subject.id, reason: why } });
    await resolve(report, "actioned", why, [done.action]);
  });
  const suspend = () => run(async (why) => {
    const done = await api(`/moderation/players/${encodeURIComponent(author)}/suspend`, { method: "POST", token: player().key,
      body: { scope: scope.value, seconds: Number(period.value), reason: why } });
    await resolve(report, "actioned", why, [done.action]);
  });
  const dismiss = () => run((why) => resolve(report, "dismissed", why));
  return el("li", { class: "mod-report", "data-report": report.id },
    el("p", {}, el("strong", { text: t("Reported for:") }), " ", el("span", { class: "who", text: report.reason })),
    message ? el("blockquote", { class: "who" }, `${message.name ?? ""}: ${message.text ?? ""}`) : null,
    report.context?.game ? el("p", {}, el("a", { href: `/replay/${encodeURIComponent(report.context.game)}`, text: t("The game") })) : null,
    el("div", { class: "mod-act" }, reason,
      message ? el("button", { type: "button", text: t("Hide the message"), onclick: hide }) : null,
      author ? el("span", { class: "mod-suspend" }, scope, period, el("button", { type: "button", text: t("Suspend"), onclick: suspend })) : null,
      el("button", { type: "button", text: t("Dismiss"), onclick: dismiss })));
}

async function showReports() {
  try {
    const found = await api("/moderation/reports", { token: player().key });
    $("#reports").replaceChildren(...found.reports.map(reportItem));
    if (!found.reports.length) $("#reports").append(el("li", { class: "hint", text: t("No open reports.") }));
    $("#reports-card").hidden = false;
  } catch (err) {
    if (!(err instanceof ApiProblem && err.status === 404)) throw err; // a server without chat reports: no queue
  }
}

async function start() {
  if (!player()?.key) {
    say(t("This page is for moderators: play a game first, then ask the operator for the role."), "error");
    return;
  }
  try {
    await showFlags();
    await showReports();
  } catch (err) {
    if (err instanceof ApiProblem && ["moderator_required", "invalid_player_key", "token_required"].includes(err.code)) {
      say(t("This page is for moderators only. The server's operator grants the role; ask them if you should have it."), "error");
    } else say(problemText(err), "error");
  }
}

start();
