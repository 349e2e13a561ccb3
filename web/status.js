// One status area per page: it says the most pressing condition now in force, once, and clears
// itself when that condition ends. Conditions are named ("connection", "problem", "action"...):
// setting one again replaces its sentence instead of adding another, so an outage retried every
// second is one line, not one line per retry; clearing it lets the next condition (or nothing)
// show. A sentence may carry a lifetime (a move's "Played." or a refusal fades on its own).

// Most pressing first: a refusal just said (it fades) before a lasting outage, before the
// person's own action's progress.
const ORDER = ["problem", "connection", "action", "info"];

export class StatusArea {
  constructor(box) {
    this.box = box;
    this.conditions = new Map(); // name -> {text, tone, timer}
  }

  // `tone`: "error", "info" or "ok"; `seconds`: how long the sentence stays (0: until cleared).
  set(name, text, { tone = "info", seconds = 0 } = {}) {
    const before = this.conditions.get(name);
    clearTimeout(before?.timer);
    const timer = seconds ? setTimeout(() => this.clear(name), seconds * 1000) : null;
    this.conditions.set(name, { text, tone, timer });
    this.show();
  }

  clear(name) {
    const before = this.conditions.get(name);
    if (!before) return;
    clearTimeout(before.timer);
    this.conditions.delete(name);
    this.show();
  }

  has(name) { return this.conditions.has(name); }

  show() {
    const name = ORDER.find((n) => this.conditions.has(n)) ?? [...this.conditions.keys()][0];
    const now = name === undefined ? null : this.conditions.get(name);
    const text = now ? now.text : "";
    if (typeof text !== "string") this.box.replaceChildren(...text); // a sentence with a control in it
    else if (this.box.textContent !== text || this.box.children.length) this.box.textContent = text; // a live region speaks only a change
    this.box.className = "status" + (now ? " " + now.tone : "");
    this.box.dataset.condition = name ?? "";
  }
}
