// Legal moves as a person sees them: the server's label each (GET /games/{id}/moves `labels`,
// in the browser's language), the board elements each refers to (so clicking the board narrows
// the list), grouped by move type.

// The tokens a move refers to: ids and names as they are, coordinates "q,r", numbers "key=n".
export function refsOf(move) {
  const refs = new Set();
  const walk = (value, key) => {
    if (typeof value === "string") { if (key !== "type") refs.add(value); }
    else if (typeof value === "number") refs.add(`${key}=${value}`);
    else if (Array.isArray(value)) {
      if (value.length === 2 && value.every((n) => typeof n === "number")) refs.add(value.join(","));
      else value.forEach((x) => walk(x, key));
    } else if (value && typeof value === "object") {
      for (const [k, x] of Object.entries(value)) { refs.add(k); walk(x, k); }
    }
  };
  walk(move, "");
  return refs;
}

// The moves that use every selected board element, simplest first.
export function narrow(moves, selected, filter) {
  const needle = (filter || "").trim().toLowerCase();
  return moves.filter((m) => [...selected].every((r) => m.refs.has(r)) && (!needle || m.label.toLowerCase().includes(needle)))
    .sort((a, b) => a.size - b.size);
}

// The server's refs (piece and place ids) join the move's own tokens (coordinates, "key=n").
export function prepare(moves, labels = []) {
  return moves.map((move, i) => {
    const said = (labels || [])[i];
    const refs = refsOf(move);
    for (const r of said?.refs || []) refs.add(r);
    return { move, i, refs, label: said ? said.label : move.type, size: JSON.stringify(move).length };
  });
}

// Direct play (issue 35): a move is built by clicking the board elements it concerns. `clicks`
// is the set of board refs a person clicks for a move (a board module may say it: Splendor's
// colours, Fairy Tile's figure and target hex); `picked` the refs clicked so far.

// The moves still possible with what is picked, those it completes, and what may be clicked next.
export function pickState(prepared, picked) {
  const candidates = prepared.filter((m) => m.clicks.size && [...picked].every((r) => m.clicks.has(r)));
  const exact = candidates.filter((m) => m.clicks.size === picked.size);
  const clickable = new Set(picked);
  for (const m of candidates) for (const r of m.clicks) clickable.add(r);
  return { candidates: picked.size ? candidates : prepared.filter((m) => m.clicks.size), exact: picked.size ? exact : [], clickable };
}

// One click that leaves a single move, complete: it is played at once (a card in Witches, a
// combo in Small World); a move of several choices always waits for the confirm.
export function playsAtOnce(state, picked) {
  return picked.size === 1 && state.candidates.length === 1 && state.exact.length === 1;
}

// The refs a finished event names (its message's pieces, places and words).
export function eventRefs(event) {
  const refs = [];
  for (const arg of Object.values(event?.message?.args || {})) {
    if (!["piece", "place", "word"].includes(arg.kind)) continue; // a word: Splendor's colours
    const ids = arg.kind === "word" ? arg.value : arg.id;
    for (const id of Array.isArray(ids) ? ids : [ids]) refs.push(String(id));
  }
  return refs;
}
