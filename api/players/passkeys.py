"""Passkeys (WebAuthn, issue 36) through py_webauthn: a signed-in player registers a passkey
(its authenticator's public key); later, on another browser, the passkey alone signs in and
makes that browser a new device key (api/players/keys.py).

Passkeys are discoverable (resident) credentials, so signing in names no player first: the
authenticator offers its passkeys for this site, and the one chosen says whose it is.

Every ceremony answers a challenge this server made, used once: a registration's is kept under
the player (`player:{<id>}:passkey-registration`), a sign-in's under itself
(`passkey-challenge:<challenge>`), each for CHALLENGE_TTL_S and taken with GETDEL, so a
replayed answer finds nothing. Keys (single-key commands only):
- `player:{<id>}:passkeys` hash: a credential's id (base64url) -> JSON {id, name, public_key,
  sign_count, created, last_used};
- `passkey:<credential id>` -> the player's id (the index a sign-in looks the credential up in).
The relying party (its id, a domain, and the page's origin) is the edge's to say (settings, or
the request's host). Flask-free. py_webauthn (with cryptography, pyasn1, cbor2, pyOpenSSL) is
imported by each ceremony, so a process that makes none never loads it (issue 57: a web worker's
memory at rest).
"""
from __future__ import annotations

import json
import time
from typing import Any

from api.errors import ApiError, Code
from api.players.keys import KeyRing

CHALLENGE_TTL_S = 300
MAX_PASSKEYS = 20


class PasskeyRefused(ApiError):
    """401 for a sign-in; for a registration 409 (no challenge under way, registered already)
    or 422 (a well-formed answer that does not verify)."""

    status, code = 422, Code.PASSKEY_REFUSED


class UnknownPasskey(ApiError):
    status, code = 404, Code.UNKNOWN_PASSKEY


def _now_ms() -> int:
    return int(time.time() * 1000)


def _challenge_of(credential: dict[str, Any]) -> str:
    """The challenge an authenticator's answer signed (its clientDataJSON's), base64url."""
    import webauthn  # py_webauthn and its cryptography: imported at a process's first passkey ceremony
    from webauthn.helpers import bytes_to_base64url, parse_client_data_json
    from webauthn.helpers.exceptions import InvalidJSONStructure

    try:
        client_data = webauthn.base64url_to_bytes(credential["response"]["clientDataJSON"])
        return bytes_to_base64url(parse_client_data_json(client_data).challenge)
    except (KeyError, TypeError, ValueError, InvalidJSONStructure, AttributeError):
        raise PasskeyRefused("This is not a passkey's answer (a PublicKeyCredential as JSON).", status=401) from None


class Passkeys:
    def __init__(self, connection: Any, prefix: str, keys: KeyRing, rp_name: str = "Game server") -> None:
        self.redis = connection
        self.prefix = prefix
        self.keys = keys
        self.rp_name = rp_name

    def _registered(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:passkeys"

    def _registration(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:passkey-registration"

    def _index(self, credential_id: str) -> str:
        return f"{self.prefix}passkey:{credential_id}"

    def _sign_in_challenge(self, challenge: str) -> str:
        return f"{self.prefix}passkey-challenge:{challenge}"

    # ---- registering --------------------------------------------------------------------
    def registration_options(self, player_id: str, player_name: str, rp_id: str) -> dict[str, Any]:
        """The options for `navigator.credentials.create` (as JSON), its challenge kept."""
        import webauthn
        from webauthn.helpers import bytes_to_base64url
        from webauthn.helpers.structs import (
            AuthenticatorSelectionCriteria,
            PublicKeyCredentialDescriptor,
            ResidentKeyRequirement,
            UserVerificationRequirement,
        )

        held = self.redis.hkeys(self._registered(player_id))
        if len(held) >= MAX_PASSKEYS:
            raise PasskeyRefused(f"A player holds at most {MAX_PASSKEYS} passkeys: remove one first.", status=409)
        options = webauthn.generate_registration_options(
            rp_id=rp_id, rp_name=self.rp_name, user_id=player_id.encode(), user_name=player_name,
            user_display_name=player_name, timeout=CHALLENGE_TTL_S * 1000,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=webauthn.base64url_to_bytes(c.decode()))
                                 for c in held])
        self.redis.set(self._registration(player_id), bytes_to_base64url(options.challenge), ex=CHALLENGE_TTL_S)
        return dict(json.loads(webauthn.options_to_json(options)))

    def register(self, player_id: str, credential: dict[str, Any], name: str, rp_id: str,
                 origin: str, counts_from: int = 0) -> dict[str, Any]:
        """Verifies the authenticator's answer to the player's registration challenge and keeps
        the passkey; its entry (no key material). `counts_from`: when it proves a step-up (ms)."""
        import webauthn
        from webauthn.helpers import bytes_to_base64url
        from webauthn.helpers.exceptions import InvalidJSONStructure, InvalidRegistrationResponse

        challenge = self.redis.getdel(self._registration(player_id))
        if challenge is None:
            raise PasskeyRefused("No passkey registration is under way (or it took longer than "
                                 f"{CHALLENGE_TTL_S} s): ask for the options again.", status=409)
        try:
            verified = webauthn.verify_registration_response(
                credential=credential, expected_challenge=webauthn.base64url_to_bytes(challenge.decode()),
                expected_rp_id=rp_id, expected_origin=origin)
        except (InvalidRegistrationResponse, InvalidJSONStructure, KeyError, TypeError, ValueError) as e:
            raise PasskeyRefused(f"The passkey could not be registered: {e}") from None
        credential_id = bytes_to_base64url(verified.credential_id)
        entry = {"id": credential_id, "name": name, "created": _now_ms(), "last_used": None,
                 "public_key": bytes_to_base64url(verified.credential_public_key), "sign_count": verified.sign_count,
                 "counts_from": counts_from}
        if not self.redis.set(self._index(credential_id), player_id, nx=True):
            raise PasskeyRefused("This passkey is registered already.", status=409)
        self.redis.hset(self._registered(player_id), credential_id, json.dumps(entry))
        return _shown(entry)

    # ---- signing in ---------------------------------------------------------------------
    def authentication_options(self, rp_id: str) -> dict[str, Any]:
        """The options for `navigator.credentials.get` (any of this site's passkeys)."""
        import webauthn
        from webauthn.helpers import bytes_to_base64url
        from webauthn.helpers.structs import UserVerificationRequirement

        options = webauthn.generate_authentication_options(
            rp_id=rp_id, timeout=CHALLENGE_TTL_S * 1000, user_verification=UserVerificationRequirement.PREFERRED)
        challenge = bytes_to_base64url(options.challenge)
        self.redis.set(self._sign_in_challenge(challenge), "1", ex=CHALLENGE_TTL_S)
        return dict(json.loads(webauthn.options_to_json(options)))

    def sign_in(self, credential: dict[str, Any], device: str, rp_id: str, origin: str) -> tuple[str, dict[str, Any],
                str]:
        """(the passkey's player, the new device key's entry, the key) for an answer to one of
        this server's sign-in challenges, verified against the passkey's public key."""
        if self.redis.getdel(self._sign_in_challenge(_challenge_of(credential))) is None:
            raise PasskeyRefused("This passkey answer is not to a sign-in challenge of this server's, or it was "
                                 f"used already or took longer than {CHALLENGE_TTL_S} s: start again.", status=401)
        owner, entry = self._registered_entry(credential)
        self._verify(owner, entry, credential, rp_id, origin)
        key_entry, key = self.keys.add(owner, device)
        return owner, key_entry, key

    def _verify(self, owner: str, entry: dict[str, Any], credential: dict[str, Any], rp_id: str, origin: str) -> None:
        """Verifies an answer (its challenge taken already) against the passkey's public key,
        and notes its use."""
        import webauthn
        from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidJSONStructure

        try:
            verified = webauthn.verify_authentication_response(
                credential=credential, expected_challenge=webauthn.base64url_to_bytes(_challenge_of(credential)),
                expected_rp_id=rp_id, expected_origin=origin,
                credential_public_key=webauthn.base64url_to_bytes(entry["public_key"]),
                credential_current_sign_count=entry["sign_count"])
        except (InvalidAuthenticationResponse, InvalidJSONStructure, KeyError, TypeError, ValueError) as e:
            raise PasskeyRefused(f"The passkey's answer does not verify: {e}", status=401) from None
        entry.update(sign_count=verified.new_sign_count, last_used=_now_ms())
        self.redis.hset(self._registered(owner), entry["id"], json.dumps(entry))

    # ---- a step-up (api/players/step_up.py) ------------------------------------------------
    def _step_up_challenge(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:passkey-step-up"

    def step_up_options(self, player_id: str, rp_id: str) -> dict[str, Any]:
        """The options for `navigator.credentials.get` offering the player's own passkeys."""
        import webauthn
        from webauthn.helpers import bytes_to_base64url
        from webauthn.helpers.structs import PublicKeyCredentialDescriptor, UserVerificationRequirement

        held = self.redis.hkeys(self._registered(player_id))
        if not held:
            raise PasskeyRefused("The player has no passkey: step up with the recovery code or an identity token.",
                                 status=409)
        options = webauthn.generate_authentication_options(
            rp_id=rp_id, timeout=CHALLENGE_TTL_S * 1000, user_verification=UserVerificationRequirement.PREFERRED,
            allow_credentials=[PublicKeyCredentialDescriptor(id=webauthn.base64url_to_bytes(c.decode())) for c in held])
        self.redis.set(self._step_up_challenge(player_id), bytes_to_base64url(options.challenge), ex=CHALLENGE_TTL_S)
        return dict(json.loads(webauthn.options_to_json(options)))

    def step_up(self, player_id: str, credential: dict[str, Any], rp_id: str, origin: str) -> dict[str, Any]:
        """The entry of the player's passkey whose answer to the player's step-up challenge
        verifies (PasskeyRefused otherwise); the challenge is used once."""
        challenge = self.redis.getdel(self._step_up_challenge(player_id))
        if challenge is None or challenge.decode() != _challenge_of(credential):
            raise PasskeyRefused("This passkey answer is not to the player's step-up challenge, or it was used "
                                 f"already or took longer than {CHALLENGE_TTL_S} s: ask for the options again.",
                                 status=401)
        owner, entry = self._registered_entry(credential)
        if owner != player_id:
            raise PasskeyRefused("This passkey is another player's.", status=401)
        self._verify(owner, entry, credential, rp_id, origin)
        return entry

    def _registered_entry(self, credential: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """(its player, its entry) of the passkey an answer names."""
        credential_id = credential.get("id")
        found = None
        if isinstance(credential_id, str) and 0 < len(credential_id) <= 1400:  # at most 1023 bytes, base64url
            player_id = self.redis.get(self._index(credential_id))
            raw = self.redis.hget(self._registered(player_id.decode()), credential_id) if player_id else None
            found = (player_id.decode(), json.loads(raw)) if player_id and raw else None
        if found is None:
            raise PasskeyRefused("This passkey is not registered here (or was removed).", status=401)
        return found

    # ---- listing, removing ----------------------------------------------------------------
    def listing(self, player_id: str) -> list[dict[str, Any]]:
        entries = [json.loads(raw) for raw in self.redis.hvals(self._registered(player_id))]
        return sorted((_shown(e) for e in entries), key=lambda e: (e["created"], e["id"]))

    def remove(self, player_id: str, credential_id: str) -> None:
        if not self.redis.hdel(self._registered(player_id), credential_id):
            raise UnknownPasskey("The player has no passkey of this id (GET /players/me/passkeys lists them).")
        self.redis.delete(self._index(credential_id))


def _shown(entry: dict[str, Any]) -> dict[str, Any]:
    return {"id": entry["id"], "name": entry["name"], "created": entry["created"], "last_used": entry["last_used"],
            "counts_from": entry.get("counts_from", 0)}
