// People around the table (issue 53): the friends page (friends with their presence and a
// "challenge" button, followers, following), the groups' pages (mine, a new one, a group's
// members, invitations, joining and leaving, its games), the privacy settings on the account
// page. A player's menu (follow, challenge, mute, block, report) is person.js's. Only the public
// API: /players/me/friends|followers|following|privacy|groups, /players/{id}/follow|challenge,
// /groups/... . The page says which part it is by <body data-page>.
import { api, ApiProblem, el, player, withLang } from "./api.js";
import { chatPanel, followPlayer } from "./chat.js";
import { challenge, gameTitles, gameTypeSelect, openMade, personMenu } from "./person.js";
import { t } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);

function say(message, kind = "info") {
  const box = $("#status") || $("#social-status");
  if (!box) return;
  box.textContent = message;
  box.className = "status " + kind;
}

const problemText = (err) => (err instanceof ApiProblem ? err.sentence : t("The server cannot be reached."));
const me = () => player();
const call = (path, options = {}) => api(path, { token: me()?.key, ...options });
const profileLink = (p) => el("a", { href: `/profile/${encodeURIComponent(p.id)}` }, p.name ?? t("a player no longer known"));

function needsPlayer() {
  if (me()) return false;
  say(t("Play a game first: the lobby makes your player, then your friends and groups appear here."));
  for (const node of document.querySelectorAll(".signed-in")) node.hidden = true;
  return true;
}

// --- the friends page -------------------------------------------------------------------------

function presence(f) {
  if (f.playing && f.game) return [t("playing now"), " ", el("a", { href: `/play/${encodeURIComponent(f.game)}` }, t("watch"))];
  if (f.playing) return [t("playing now")];
  return [f.online ? t("online") : t("offline")];
}

async function friendsPage() {
  if (needsPlayer()) return;
  $("#challenge-type-box").replaceChildren(await gameTypeSelect("challenge-type", t("Game for a challenge")));
  const load = async () => {
    try {
      const [friends, followers, following] = await Promise.all([
        call("/players/me/friends"), call("/players/me/followers"), call("/players/me/following")]);
      const followed = new Set(following.following.map((p) => p.id));
      $("#friends").replaceChildren(...friends.friends.map((f) => el("li", { "data-player": f.id },
        profileLink(f), " · ", el("span", { class: "presence" }, ...presence(f)), " ",
        el("button", { type: "button", class: "challenge primary", onclick: () => challenge(f.id, $("#challenge-type").value, say) }, t("Challenge")), " ",
        el("a", { href: `/messages?with=${encodeURIComponent(f.id)}`, class: "button message" }, t("Message")), " ",
        personMenu(f, { label: "⋯", say, changed: load }))));
      $("#followers").replaceChildren(...followers.followers.map((p) => el("li", { "data-player": p.id }, profileLink(p), " ",
        followed.has(p.id) ? el("span", { class: "hint" }, t("friend")) :
          el("button", { type: "button", class: "follow", onclick: () => follow(p.id, true) }, t("Follow back")))));
      $("#following").replaceChildren(...following.following.map((p) => el("li", { "data-player": p.id }, profileLink(p), " ",
        el("button", { type: "button", class: "unfollow", onclick: () => follow(p.id, false) }, t("Unfollow")))));
      $("#friends-empty").hidden = friends.friends.length > 0;
      $("#followers-empty").hidden = followers.followers.length > 0;
      $("#following-empty").hidden = following.following.length > 0;
      say("");
    } catch (err) { say(problemText(err), "error"); }
  };
  const follow = async (id, on) => {
    try {
      await call(`/players/${encodeURIComponent(id)}/follow`, { method: on ? "POST" : "DELETE" });
      await load();
    } catch (err) { say(problemText(err), "error"); }
  };
  await load();
  challengesForMe();
}

// The challenges this player received (`challenged` in its player stream, from its inbox's start:
// `last_event_id=0`), each with a link to its game, where the seat kept for the player is taken.
// The open stream also shows this player online to its friends.
async function challengesForMe() {
  let ticket;
  try { ticket = await call("/players/me/stream-tickets", { method: "POST" }); } catch { return; }
  const url = ticket.stream + (ticket.stream.includes("?") ? "&" : "?") + "last_event_id=0";
  const source = new EventSource(withLang(url));
  source.addEventListener("challenged", (e) => {
    const c = JSON.parse(e.data);
    if ($(`#challenges li[data-game="${CSS.escape(c.game_id)}"]`)) return;
    const item = el("li", { "data-game": c.game_id }, c.text || c.message || "", " ",
      el("a", { href: `/play/${encodeURIComponent(c.game_id)}` }, t("Open the game")), " ",
      el("button", { type: "button", class: "decline", onclick: () => decline(c.game_id, item) }, t("Decline")));
    $("#challenges").prepend(item);
    $("#challenges-box").hidden = false;
  });
  source.onerror = () => { /* EventSource reconnects by itself with the last id */ };
}

// Declining a challenge (POST /games/{id}/decline): its game is aborted and the challenger told.
// One answered already (taken, declined, over) is said so, and leaves the list too.
async function decline(gameId, item) {
  try {
    await call(`/games/${encodeURIComponent(gameId)}/decline`, { method: "POST" });
    say(t("You declined the challenge."), "ok");
  } catch (err) {
    say(problemText(err), "error");
    if (!(err instanceof ApiProblem) || err.status !== 404) return;
  }
  item.remove();
  $("#challenges-box").hidden = !$("#challenges li");
}

// --- the groups' pages ------------------------------------------------------------------------

const ROLES = () => ({ owner: t("owner"), admin: t("admin"), member: t("member") });
const VISIBILITY = () => ({ public: t("public: anyone joins"), invitation: t("by invitation") });

async function groupsPage() {
  if (needsPlayer()) return;
  const load = async () => {
    try {
      const { groups } = await call("/players/me/groups");
      $("#groups").replaceChildren(...groups.map((g) => el("li", { "data-group": g.id },
        el("a", { href: `/web/group.html?id=${encodeURIComponent(g.id)}` }, g.name), " · ",
        t("{n} members", { n: g.members }) + " · " + ROLES()[g.role])));
      $("#groups-empty").hidden = groups.length > 0;
    } catch (err) { say(problemText(err), "error"); }
  };
  $("#new-group").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const made = await call("/groups", { method: "POST", body: {
        name: $("#group-name").value.trim(), description: $("#group-description").value.trim(),
        visibility: $("#group-visibility").value } });
      location.href = `/web/group.html?id=${encodeURIComponent(made.id)}`;
    } catch (err) { say(problemText(err), "error"); }
  });
  await load();
}

async function groupPage() {
  if (needsPlayer()) return;
  const id = new URLSearchParams(location.search).get("id") || "";
  const path = `/groups/${encodeURIComponent(id)}`;
  let groupChat = null;
  $("#game-type-box").replaceChildren(await gameTypeSelect("group-game-type", t("Game")));
  const load = async () => {
    let group;
    try { group = await call(path); } catch (err) { say(problemText(err), "error"); return; }
    $("#title").textContent = group.name;
    document.title = group.name;
    $("#group-about").textContent = [group.description, VISIBILITY()[group.visibility], t("{n} members", { n: group.members })].filter(Boolean).join(" · ");
    // a group by invitation shows its members and games to its members only: not asked otherwise
    let members = [], mine = null;
    try { mine = (await call("/players/me/groups")).groups.find((g) => g.id === group.id) || null; } catch (err) { say(problemText(err), "error"); }
    const open = Boolean(mine) || group.visibility === "public";
    if (open) {
      try {
        members = (await call(`${path}/members`)).members;
        $("#members").replaceChildren(...members.map((m) => el("li", { "data-player": m.id }, profileLink(m), " · " + ROLES()[m.role])));
      } catch (err) { say(problemText(err), "error"); }
    } else $("#members").replaceChildren(el("li", { class: "hint" }, t("Only its members see who they are.")));
    $("#join").hidden = Boolean(mine);
    $("#leave").hidden = !mine;
    $("#member-only").hidden = !mine;
    $("#group-chat-box").hidden = !mine;
    if (mine && !groupChat) { // the members' chat, live by each member's own stream (`chat` notices)
      groupChat = chatPanel($("#group-chat"), { path: `${path}/chat`, label: t("Message to the group"), say });
      groupChat.reload();
      followPlayer({ chat: (n) => { if (n.group_id === group.id) groupChat.live(); } }, () => groupChat.live());
    }
    $("#invite").hidden = !mine || mine.role === "member";
    if (mine && mine.role !== "member") await inviteChoices(members);
    if (!open) { $("#group-games").replaceChildren(); $("#games-empty").hidden = false; say(""); return; }
    try {
      const { games } = await call(`${path}/games`);
      $("#group-games").replaceChildren(...games.map((g) => el("li", { "data-game": g.id },
        el("a", { href: `/play/${encodeURIComponent(g.id)}` }, gameTitles[g.type] || g.type), " · ",
        t("{n} free seats", { n: (g.seats || []).filter((s) => !s.bot && !s.name).length }))));
      $("#games-empty").hidden = games.length > 0;
    } catch { $("#group-games").replaceChildren(); $("#games-empty").hidden = false; }
    say("");
  };
  // Whom to invite: the players the caller follows or is followed by, not members yet.
  const inviteChoices = async (members) => {
    const inside = new Set(members.map((m) => m.id));
    const [followers, following] = await Promise.all([call("/players/me/followers"), call("/players/me/following")]);
    const people = new Map([...following.following, ...followers.followers].filter((p) => !inside.has(p.id)).map((p) => [p.id, p]));
    $("#invite-who").replaceChildren(...[...people.values()].map((p) => new Option(p.name ?? p.id, p.id)));
    $("#invite-none").hidden = people.size > 0;
    $("#invite-btn").disabled = people.size === 0;
  };
  const act = (fn, done) => async (e) => {
    e?.preventDefault?.();
    try {
      await fn();
      await load();
      if (done) say(done(), "ok");
    } catch (err) { say(problemText(err), "error"); }
  };
  $("#join").addEventListener("click", act(() => call(`${path}/join`, { method: "POST" })));
  $("#leave").addEventListener("click", act(() => call(`${path}/leave`, { method: "POST" })));
  $("#invite").addEventListener("submit", act(() => call(`${path}/invitations`, { method: "POST", body: { player: $("#invite-who").value } }),
    () => t("Invited: they join from their groups' invitation.")));
  $("#new-group-game").addEventListener("click", async () => {
    const type = $("#group-game-type").value;
    try { openMade(await call(`${path}/games`, { method: "POST", body: { type } }), type); } catch (err) { say(problemText(err), "error"); }
  });
  await load();
}

// --- privacy, on the account page ---------------------------------------------------------------

const LEVELS = () => ({ everyone: t("everyone"), friends: t("friends only"), nobody: t("nobody") });

async function privacySection() {
  if (!me()) return;
  const fields = [["follow", t("Who may follow me")], ["challenge", t("Who may challenge me")], ["message", t("Who may message me")]];
  const section = el("section", { id: "privacy", class: "card", "aria-labelledby": "privacy-h" },
    el("h2", { id: "privacy-h" }, t("Privacy")),
    el("div", { id: "social-status", class: "status", role: "status", "aria-live": "polite" }),
    ...fields.map(([name, label]) => el("label", { class: "option privacy" }, label + " ",
      // disabled until the settings are read and a change would be saved: a choice made sooner was
      // lost (no listener yet) or undone by the read arriving after it
      el("select", { id: `privacy-${name}`, "data-field": name, disabled: true },
        ...Object.entries(LEVELS()).map(([v, text]) => new Option(text, v))))),
    el("p", {}, el("a", { href: "/web/friends.html" }, t("Friends")), " · ", el("a", { href: "/web/groups.html" }, t("Groups"))));
  ($("main") || document.body).append(section);
  try {
    const now = await call("/players/me/privacy");
    for (const [name] of fields) $(`#privacy-${name}`).value = now[name];
  } catch (err) { say(problemText(err), "error"); return; }
  for (const select of section.querySelectorAll("select")) {
    select.addEventListener("change", async () => {
      try {
        await call("/players/me/privacy", { method: "PATCH", body: { [select.dataset.field]: select.value } });
        say(t("Saved."), "ok");
      } catch (err) { say(problemText(err), "error"); }
    });
    select.disabled = false;
  }
}

const PAGES = { friends: friendsPage, groups: groupsPage, group: groupPage, account: privacySection };
PAGES[document.body.dataset.page]?.();
