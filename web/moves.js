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
