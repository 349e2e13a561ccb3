// History events as lines a person reads: the server's sentence (`text`, in the browser's
// language, from GET /games/{id}/events, the stream and the export), numbered by version.
export function eventLine(event) {
  return `${event.version}. ${event.text ?? String(event.type).replaceAll("_", " ")}`;
}
