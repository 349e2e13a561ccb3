// The OAuth consent page (issue 51; the page itself is the server's, GET /oauth/authorize): the
// person answers with the key this browser keeps (api.js, as every page of the web client), and
// the server says where the browser goes next (the app's redirect URI, with a code or a refusal).
import { api, ApiProblem, player } from "/web/api.js";
import { lang } from "/web/i18n.js";

const $ = (s) => document.querySelector(s);
const page = $("#consent");
const me = player();

// The page in the language chosen in the web client (the server answered the browser's).
const asked = new URLSearchParams(location.search);
if (page.dataset.lang !== lang() && !asked.has("lang")) {
  asked.set("lang", lang());
  location.replace("?" + asked.toString());
}

function answer(approve) {
  $("#approve").disabled = $("#deny").disabled = true;
  api("/oauth/authorize?" + page.dataset.query, { method: "POST", token: me.key, body: { approve } })
    .then((next) => location.assign(next.redirect))
    .catch((err) => {
      $("#status").textContent = err instanceof ApiProblem ? err.sentence : String(err.message || err);
      $("#status").className = "status error";
      $("#approve").disabled = $("#deny").disabled = false;
    });
}

if (!me || !me.key) {
  $("#no-player").hidden = false;
  $("#approve").disabled = true;
} else {
  $("#who").textContent = me.name;
}
$("#approve").addEventListener("click", () => answer(true));
$("#deny").addEventListener("click", () => answer(false));
