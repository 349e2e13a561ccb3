"""Which URLs a webhook may call: `https` only (plain `http` to a loopback address when
WEBHOOK_ALLOW_LOOPBACK=1, for tests and local development); addresses that are private,
link-local, loopback, multicast or otherwise not public are refused unless a network in
WEBHOOK_ALLOWED_NETWORKS holds them. An IPv6 address that embeds or maps an IPv4 one (mapped,
compatible, translated, NAT64, 6to4, Teredo) is refused when that IPv4 address would be: on a
NAT64 network `[64:ff9b::a00:1]` reaches 10.0.0.1. Checked when a subscription is made and
again at every delivery, against the addresses the name resolves to then (the connection goes
to the address checked, so a name cannot be re-pointed between the check and the call)."""
from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

MAX_URL = 2000


class AddressRefused(Exception):
    pass


@dataclass(frozen=True)
class Policy:
    allow_loopback: bool = False
    allowed_networks: tuple[Any, ...] = ()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Policy:
        env = os.environ if env is None else env
        nets = tuple(ipaddress.ip_network(n.strip(), strict=False)
                     for n in env.get("WEBHOOK_ALLOWED_NETWORKS", "").split(",") if n.strip())
        return cls(env.get("WEBHOOK_ALLOW_LOOPBACK") == "1", nets)

    def address_allowed(self, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        if ip.version == 6 and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped  # ::ffff:10.0.0.1 is 10.0.0.1
        if any(ip in net for net in self.allowed_networks):
            return True
        if ip.is_loopback:
            return self.allow_loopback
        if ip.version == 6:
            if ip in _SITE_LOCAL or ip in _NAT64_LOCAL:
                return False
            if not all(self.address_allowed(v4) for v4 in embedded_ipv4(ip)):
                return False
        return ip.is_global and not ip.is_multicast


# Deprecated site-local (RFC 3879) and the local-use NAT64 prefix (RFC 8215: its IPv4 address
# may sit at several places, RFC 6052): never public, though Python 3.11 calls them global.
_SITE_LOCAL = ipaddress.ip_network("fec0::/10")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
# Where the IPv4 address is the low 32 bits: IPv4-compatible (RFC 4291), IPv4-translated
# (RFC 2765), the well-known NAT64 prefix (RFC 6052).
_LOW_32 = tuple(ipaddress.ip_network(n) for n in ("::/96", "::ffff:0:0:0/96", "64:ff9b::/96"))


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[Any]:
    """The IPv4 addresses an IPv6 one embeds: the low 32 bits of the compatible, translated
    and NAT64 forms, 6to4's bits 16-47, Teredo's server (bits 32-63) and client (the low 32
    bits inverted). A packet to it may reach any of them."""
    if any(ip in net for net in _LOW_32):
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        return list(ip.teredo)
    return []


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query string
    address: str  # the checked address the connection goes to


def check_url(url: str, policy: Policy) -> tuple[Any, ...]:
    """(scheme, host, port, path) of an acceptable URL; AddressRefused says why not (no lookup)."""
    if not isinstance(url, str) or len(url) > MAX_URL:
        raise AddressRefused(f"A webhook URL is a string of at most {MAX_URL} characters.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise AddressRefused("The URL cannot be parsed.") from None
    if parts.scheme not in ("https", "http"):
        raise AddressRefused("Webhook URLs are https.")
    if not parts.hostname:
        raise AddressRefused("The URL has no host.")
    if parts.username or parts.password:
        raise AddressRefused("The URL must not hold credentials.")
    if parts.fragment:
        raise AddressRefused("The URL must not have a fragment.")
    if parts.scheme == "http" and not (policy.allow_loopback and _loopback_name(parts.hostname)):
        raise AddressRefused("Webhook URLs are https (plain http only to loopback, when the server allows it).")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path


def _loopback_name(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def resolve(url: str, policy: Policy, lookup: Callable[..., list[Any]] = socket.getaddrinfo) -> Target:
    """The URL checked and its host resolved to an address the policy allows."""
    scheme, host, port, path = check_url(url, policy)
    try:
        infos = lookup(host, port, type=socket.SOCK_STREAM)
    except OSError as e:
        raise AddressRefused(f"The host '{host}' cannot be resolved ({e.strerror or e}).") from None
    addresses = [info[4][0] for info in infos]
    refused: str | None = None
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%")[0])
        if policy.address_allowed(ip):
            if scheme == "http" and not ip.is_loopback:
                refused = address
                continue
            return Target(scheme, host, port, path, address)
        refused = address
    raise AddressRefused(f"The host '{host}' resolves to {refused or 'nothing'}, an address webhooks may not call "
                         "(private, link-local and loopback addresses are refused unless configured).")
