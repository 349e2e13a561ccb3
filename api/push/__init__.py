"""Web Push (issue 36): a player's browsers and apps hear `your_turn`, `game_started`,
`game_finished`, `matched` (and a clock's warning) while no page is open.

- vapid.py: the server's VAPID key pair (RFC 8292), from the settings or a file made once;
- subscriptions.py: a player's push subscriptions (the browser's PushSubscription JSON) in
  Redis, each with its language and its cursor in the player's inbox;
- messages.py: which inbox entries are pushed, and each one's payload and headers (the same
  notice the player's stream sends, in the subscription's language);
- notify.py: after an inbox is written, the push job of each player with subscriptions queued.

The sending (RFC 8291 encryption through pywebpush, an attempt deadline, a queue per push
service) runs in the webhook workers: workers/push/."""
