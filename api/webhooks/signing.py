"""Standard Webhooks signatures (https://www.standardwebhooks.com/): `webhook-id`,
`webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of
"<id>.<timestamp>.<body>">`, keyed with the secret `whsec_<base64 key>`."""
from __future__ import annotations

import base64
import binascii
import secrets as random_secrets
from datetime import UTC, datetime
from typing import Any

from standardwebhooks.webhooks import Webhook

PREFIX = "whsec_"
KEY_BYTES = 32


def new_secret() -> str:
    return PREFIX + base64.b64encode(random_secrets.token_bytes(KEY_BYTES)).decode()


def secret_problem(secret: str) -> str | None:
    """Why a client's own secret cannot be used, or None: `whsec_` and base64 of 24 to 64 bytes."""
    if not isinstance(secret, str) or not secret.startswith(PREFIX):
        return "A secret is 'whsec_' followed by base64 of 24 to 64 random bytes."
    try:
        key = base64.b64decode(secret[len(PREFIX):], validate=True)
    except (binascii.Error, ValueError):
        return "The part after 'whsec_' is not base64."
    if not 24 <= len(key) <= 64:
        return f"The key is {len(key)} bytes; use 24 to 64."
    return None


def headers(secret: str, message_id: str, body: str, now: float) -> dict[str, Any]:
    """The three headers a delivery carries; the timestamp is the attempt's."""
    timestamp = datetime.fromtimestamp(int(now), tz=UTC)
    return {"webhook-id": message_id, "webhook-timestamp": str(int(now)),
            "webhook-signature": Webhook(secret).sign(message_id, timestamp, body)}
