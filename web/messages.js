// /messages: the player's direct messages (issue 53): its conversations, the newest first
// (GET /players/me/messages), the one chosen (?with=<player>: GET and POST
// /players/me/messages/{id}, earlier pages with the cursor), kept live by the player's own stream
// (`direct_message`). Who may write to whom is the recipient's privacy setting and blocks: the
// API's refusal is said as it words it.
import { api, ApiProblem, el, player } from "./api.js";
import { chatPanel, followPlayer } from "./chat.js";
import { personMenu } from "./person.js";
import { ago, t } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);
const key = () => player()?.key;

function say(message, kind = "info") {
  $("#status").textContent = message;
  $("#status").className = "status " + kind;
}

async function start() {
  if (!key()) {
    say(t("Play a game first: the lobby makes your player, then your friends and groups appear here."));
    for (const node of document.querySelectorAll(".signed-in")) node.hidden = true;
    return;
  }
  const other = new URLSearchParams(location.search).get("with");
  const list = async () => {
    try {
      const { conversations } = await api("/players/me/messages", { token: key() });
      $("#conversations").replaceChildren(...conversations.map((c) => el("li", { "data-player": c.player.id, class: c.player.id === other ? "current" : null },
        el("a", { href: `/messages?with=${encodeURIComponent(c.player.id)}`, "aria-current": c.player.id === other ? "page" : null },
          c.player.name ?? t("a player no longer known")), " · ", el("span", { class: "hint" }, ago(c.last_at)))));
      $("#conversations-empty").hidden = conversations.length > 0;
    } catch (err) { say(err instanceof ApiProblem ? err.sentence : t("The server cannot be reached."), "error"); }
  };
  let chat = null;
  if (other) {
    let name = other;
    try { name = (await api(`/players/${encodeURIComponent(other)}`)).name ?? other; } catch { /* its id, then */ }
    $("#conversation-h").textContent = t("Conversation with {name}", { name });
    $("#conversation-h").after(el("p", { class: "hint" }, t("Mute, block or report:"), " ", personMenu({ id: other, name }, { say, changed: () => chat?.reload() })));
    document.title = t("Messages") + " · " + name;
    $("#conversation").hidden = false;
    chat = chatPanel($("#dm"), { path: `/players/me/messages/${encodeURIComponent(other)}`, label: t("Message to {name}", { name }), say });
    await chat.reload();
    chat.input.focus();
  }
  await list();
  followPlayer({ direct_message: (n) => { if (chat && n.from?.id === other) chat.live(); list(); } }, () => { chat?.live(); list(); });
}

start();
