"""Signed webhooks: integrations told of a game's events by push (Standard Webhooks).

- subscriptions.py: the subscriptions and their owners, per-(subscription, game) progress,
  the attempts log; Redis keys (a game's keys share its `{id}` hash tag; global keys are only
  touched by single-key commands).
- messages.py: what a subscription is told of a game's events (derived from the stream, the
  truth; redacted as the owner may see).
- signing.py, addresses.py, sender.py: Standard Webhooks signatures, which URLs may be called,
  and one POST with a short timeout, no redirects and a pinned, checked address.
- manage.py: the application side of the endpoints (no Flask).
- notify.py: the after-append step that hands a subscribed game's new events to the webhook
  queue; workers/deliveries/ delivers them.
"""
