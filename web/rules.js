// The rules help of the play page: GET /game-types/{type}/rules, in the page's language, shown
// in a disclosure. Its Markdown is rendered by marked and then sanitized by DOMPurify (the
// summary is the server's, but a page never puts unchecked HTML in itself); the pieces'
// effects follow as a list of names and one-line effects.
import { api, el } from "./api.js";
import { t } from "./i18n.js";
import { marked } from "./vendor/marked/marked.esm.js";
import DOMPurify from "./vendor/dompurify/purify.es.mjs";

const shown = new Map(); // container -> the game type drawn in it

export async function rulesPanel(container, type) {
  if (!container || shown.get(container) === type) return;
  shown.set(container, type);
  let rules;
  try {
    rules = await api(`/game-types/${encodeURIComponent(type)}/rules`);
  } catch {
    shown.delete(container); // asked again at the next drawing
    container.replaceChildren(el("p", { class: "hint", text: t("Rules help is not available right now.") }));
    return;
  }
  const body = el("div", { class: "rules-text", lang: rules.language, tabindex: 0 }); // it scrolls: a keyboard reaches it
  body.append(renderMarkdown(rules.markdown || ""));
  const effects = Object.values(rules.effects || {});
  const pieces = effects.length ? el("details", { class: "pieces" }, el("summary", {}, t("Pieces")),
    el("dl", { lang: rules.language, tabindex: 0 }, effects.flatMap((e) => [el("dt", {}, e.name), el("dd", {}, e.effect)]))) : null;
  container.replaceChildren(el("details", { id: "rules-box" }, el("summary", {}, t("Rules of this game")), body, pieces));
}

// Markdown as a fragment of plain HTML: no script, no handler, no javascript: link, whatever
// the text holds.
export function renderMarkdown(markdown) {
  return DOMPurify.sanitize(marked.parse(markdown), { USE_PROFILES: { html: true }, RETURN_DOM_FRAGMENT: true });
}
