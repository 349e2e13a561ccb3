"""The server's VAPID key pair (RFC 8292): the ES256 key that signs each push request's JWT,
whose public half a browser's `pushManager.subscribe` is given (`applicationServerKey`).

From VAPID_PRIVATE_KEY (the raw 32-byte key in base64url, or a PEM) when set; otherwise from
the file VAPID_KEY_FILE (default `vapid_private.pem` under DATA_DIR), which the first process
to start makes. Every process (web and workers) must use the same key: a subscription made
with one public key is refused by the push service when signed with another, so the file is
made atomically (written aside, then linked into place: a process that lost the race reads
the winner's)."""
from __future__ import annotations

import base64
import os
import tempfile

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid

KEY_FILE = "vapid_private.pem"


def key_file(configured: str, data_dir: str | None = None) -> str:
    if configured:
        return configured
    directory = data_dir or os.environ.get("DATA_DIR") or os.path.join(".", "var", "redis")
    return os.path.join(directory, KEY_FILE)


def load(private_key: str = "", path: str = "") -> Vapid:
    """The key pair: the given key, else the file's (made now if there is none)."""
    if private_key.strip():
        text = private_key.strip()
        if text.startswith("-----BEGIN"):
            return Vapid.from_pem(text.encode())
        return Vapid.from_string(text)
    path = key_file(path)
    if not os.path.exists(path):
        _make(path)
    return Vapid.from_file(path)


def _make(path: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    vapid = Vapid()
    vapid.generate_keys()
    fd, aside = tempfile.mkstemp(dir=directory, prefix=".vapid-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(vapid.private_pem())
        os.chmod(aside, 0o600)
        try:
            os.link(aside, path)  # fails if another process made it first: its key is kept
        except FileExistsError:
            pass
    finally:
        os.unlink(aside)


def public_key(vapid: Vapid) -> str:
    """The public key as a browser's `applicationServerKey` takes it: the uncompressed P-256
    point, base64url without padding."""
    raw = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
