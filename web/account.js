// The player's keys (one per device), passkeys and recovery code (issue 36), through the
// public API: api.js holds this browser's player; WebAuthn's JSON forms of the options and
// answers (PublicKeyCredential.parse*OptionsFromJSON, credential.toJSON) are what the server
// speaks, so no byte juggling is done here.
import { api, ApiProblem, player, setPlayer } from "/web/api.js";
import { lang, t } from "/web/i18n.js";
import "/web/install.js"; // the service worker that receives the pushes (web/sw.js, web/sw-push.js)
import { disablePush, enablePush } from "/web/push.js";

const $ = (s) => document.querySelector(s);

function say(text, kind = "info") {
  const status = $("#status");
  status.textContent = text;
  status.className = "status " + kind;
}

function failed(err) {
  say(err instanceof ApiProblem ? err.sentence : String(err.message || err), "error");
}

const when = (ms) => (ms ? new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms)) : t("never"));

// The names the server or this page gave a key or a passkey by default, read in the page's
// language (a name a person typed stays as typed).
const DEFAULT_NAMES = ["first key", "passkey", "passkey sign-in", "recovered key", "my passkey"];
const named = (name) => (DEFAULT_NAMES.includes(name) ? t(name) : name);

// Account changes that take from the other devices (revoking another key, a new recovery code,
// removing a passkey) need a fresh proof (issue 51): answered `step_up_required`, the page asks
// for one (a passkey of the player's, or the recovery code), steps up (a grant for this
// browser's key, a few minutes) and does the change again.
let pending = null;

async function withStepUp(change) {
  try {
    return await change();
  } catch (err) {
    if (!(err instanceof ApiProblem) || err.code !== "step_up_required") throw err;
    pending = change;
    $("#step-up").hidden = false;
    $("#step-up-code").focus();
    say(t("This change needs proof that this is you: use a passkey of yours or your recovery code."), "info");
    return null;
  }
}

async function steppedUp(proof) {
  await api("/players/me/step-up", { method: "POST", token: player().key, body: proof });
  $("#step-up").hidden = true;
  $("#step-up-code").value = "";
  const change = pending;
  pending = null;
  if (change) await change();
}

async function stepUpWithPasskey() {
  const me = player();
  const options = await api("/players/me/step-up/passkey-options", { method: "POST", token: me.key });
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  await steppedUp({ passkey: credential.toJSON() });
}

function row(text, button) {
  const li = document.createElement("li");
  li.append(text);
  if (button) li.append(" ", button);
  return li;
}

function action(label, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.addEventListener("click", () => onclick().catch(failed));
  return b;
}

async function showKeys(me) {
  const { keys } = await api("/players/me/keys", { token: me.key });
  $("#keys").replaceChildren(...keys.map((k) => {
    const li = row(t(k.current ? "{name} (this browser): made {made}, last used {used}" : "{name}: made {made}, last used {used}",
      { name: named(k.name), made: when(k.created), used: when(k.last_used) }),
      action(t("Revoke"), () => withStepUp(async () => {
        await api(`/players/me/keys/${encodeURIComponent(k.id)}`, { method: "DELETE", token: me.key });
        if (k.current) { setPlayer(null); say(t("This browser's key is revoked: it is signed out."), "ok"); return show(); }
        say(t("The key “{name}” is revoked.", { name: named(k.name) }), "ok");
        return showKeys(me);
      })));
    li.dataset.key = k.id;
    return li;
  }));
}

async function showPasskeys(me) {
  const { passkeys } = await api("/players/me/passkeys", { token: me.key });
  $("#passkeys").replaceChildren(...passkeys.map((p) => {
    const li = row(t("{name}: added {made}, last used {used}", { name: named(p.name), made: when(p.created), used: when(p.last_used) }),
      action(t("Remove"), () => withStepUp(async () => {
        await api(`/players/me/passkeys/${encodeURIComponent(p.id)}`, { method: "DELETE", token: me.key });
        say(t("The passkey “{name}” is removed.", { name: named(p.name) }), "ok");
        return showPasskeys(me);
      })));
    li.dataset.passkey = p.id;
    return li;
  }));
}

async function show() {
  const me = player();
  for (const section of document.querySelectorAll(".signed-in")) section.hidden = !me;
  $("#who").textContent = me ? t("This browser is {name}.", { name: me.name }) : t("This browser holds no player: sign in with a passkey or a recovery code.");
  if (!me) return;
  await Promise.all([showKeys(me), showPasskeys(me)]);
}

async function addPasskey() {
  const me = player();
  const options = await api("/players/me/passkey-options", { method: "POST", token: me.key });
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  await api("/players/me/passkeys", { method: "POST", token: me.key,
    body: { credential: credential.toJSON(), name: $("#new-passkey-name").value.trim() || t("passkey") } });
  say(t("The passkey is added: sign in with it on another browser."), "ok");
  await showPasskeys(me);
}

async function signInWithPasskey() {
  const options = await api("/passkeys/sign-in/options", { method: "POST" });
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  const signedIn = await api("/passkeys/sign-in", { method: "POST",
    body: { credential: credential.toJSON(), name: $("#sign-in-name").value.trim() || t("passkey sign-in") } });
  setPlayer(signedIn);
  say(t("Signed in as {name}: this browser has a key of its own now.", { name: signedIn.name }), "ok");
  await show();
}

async function recover() {
  const recovered = await api("/recover", { method: "POST",
    body: { code: $("#recover-code").value.trim(), name: $("#sign-in-name").value.trim() || t("recovered key") } });
  setPlayer(recovered);
  $("#recover-code").value = "";
  await show();
  $("#recovery-out").textContent = recovered.recovery_code;
  say(t("Signed in as {name}. The code is used up: your next one is shown below (keep it).", { name: recovered.name }), "ok");
}

function onSubmit(form, run) {
  $(form).addEventListener("submit", (e) => { e.preventDefault(); run().catch(failed); });
}

onSubmit("#passkey-sign-in", signInWithPasskey);
onSubmit("#recover", recover);
onSubmit("#new-passkey", addPasskey);
onSubmit("#new-key", async () => {
  const me = player();
  const made = await api("/players/me/keys", { method: "POST", token: me.key, body: { name: $("#new-key-name").value.trim() } });
  $("#new-key-out").textContent = made.key;
  say(t("A key for “{name}” is shown below, once: use it on that device (the lobby's “Use a key”).", { name: made.name }), "ok");
  await showKeys(me);
});
$("#new-recovery").addEventListener("click", () => withStepUp(async () => {
  const { recovery_code } = await api("/players/me/recovery-code", { method: "POST", token: player().key });
  $("#recovery-out").textContent = recovery_code;
  say(t("A new recovery code is shown below, once; the old one no longer works."), "ok");
}).catch(failed));
onSubmit("#step-up-form", () => steppedUp({ recovery_code: $("#step-up-code").value.trim() }));
$("#step-up-passkey").addEventListener("click", () => stepUpWithPasskey().catch(failed));
// Why a browser says no, in words: enablePush's reasons (the permission's state, or no Push API).
const PUSH_REFUSED = { unsupported: t("This browser cannot receive notifications (no Push API here)."),
  denied: t("Notifications are blocked for this site: allow them in the browser's site settings, then try again."),
  default: t("Notifications were not allowed: try again and answer the browser's question.") };
$("#push-on").addEventListener("click", () => (async () => {
  const done = await enablePush(api, { token: player().key, lang: lang() });
  if (done.ok) say(t("This device will be told of your turn, even with the page closed."), "ok");
  else say(PUSH_REFUSED[done.reason] || PUSH_REFUSED.default, "error");
})().catch(failed));
$("#push-off").addEventListener("click", () => (async () => {
  const stopped = await disablePush(api, { token: player().key });
  say(t(stopped ? "This device is told nothing more." : "This device was not being notified."), "ok");
})().catch(failed));
// The fields' default names in the page's language.
$("#new-passkey-name").value = t("my passkey");
$("#sign-in-name").value = t("passkey sign-in");
show().catch(failed);
