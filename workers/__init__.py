"""Background work on RQ: bot turns and the system's own moves (scoring), plus the reconciler
that re-enqueues whatever a crash lost. Jobs take (key prefix, game id, version, actor) and use
`events` + `domain` through the application service; they never import the Flask app."""
