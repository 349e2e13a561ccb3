"""Who is on the other end of a request, for limits that apply to callers without a token.

The socket's peer is the client unless it is one of the proxies named in TRUSTED_PROXIES
(comma-separated addresses or CIDR networks, e.g. `127.0.0.1,10.0.0.0/8`). Only then is
`X-Forwarded-For` read, from the right: each hop a trusted proxy added is skipped, and the first
address not trusted is the client. A client cannot forge its way past a limit by sending the
header itself: an untrusted peer's header is ignored, and a trusted proxy appends the real peer
after whatever the client wrote. The same trust decides which origin a request was sent to
(`origin`: the served spec's `servers`).
"""
from __future__ import annotations

import ipaddress
import re
from functools import lru_cache
from typing import Any

from flask import current_app, request


@lru_cache(maxsize=16)
def trusted_networks(setting: str) -> tuple[Any, ...]:
    networks = []
    for part in setting.split(","):
        part = part.strip()
        if part:
            networks.append(ipaddress.ip_network(part, strict=False))
    return tuple(networks)


def _trusted(address: str, networks: tuple[Any, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in net for net in networks)


def resolve(peer: str, forwarded_for: str | None, setting: str) -> str:
    """The client's address from the socket peer, the X-Forwarded-For header and the setting
    (pure, for tests)."""
    networks = trusted_networks(setting or "")
    if not networks or not _trusted(peer, networks) or not forwarded_for:
        return peer
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, networks):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return peer  # garbage where an address should be: the proxy is the client
    return hops[0] if hops else peer


@lru_cache(maxsize=65536)
def network_of(address: str, prefix_v4: int, prefix_v6: int) -> str:
    """The network an address's budgets are shared with (`10.1.2.0/24`, `2001:db8::/64`): one
    client holds many addresses of one network, rarely many networks. Not an address: itself."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = prefix_v4 if ip.version == 4 else prefix_v6
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def client_address() -> str:
    """The address of the client of the current request."""
    peer = request.remote_addr or "unknown"
    return resolve(peer, request.headers.get("X-Forwarded-For"), current_app.config.get("TRUSTED_PROXIES", ""))


_HOST = re.compile(r"(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")


def _last(header: str | None) -> str | None:
    """The value the nearest proxy gave a comma-separated forwarding header."""
    hops = [h.strip() for h in (header or "").split(",") if h.strip()]
    return hops[-1] if hops else None


def origin(scheme: str, host: str, peer: str, forwarded_proto: str | None, forwarded_host: str | None,
           setting: str) -> str | None:
    """The origin (`https://games.example:8443`) a request was sent to: its scheme and Host, or
    behind a proxy of TRUSTED_PROXIES what the proxy says it received (`X-Forwarded-Proto`,
    `X-Forwarded-Host`; an untrusted peer's are ignored). None when the host is no host name
    (pure, for tests)."""
    networks = trusted_networks(setting or "")
    if networks and _trusted(peer, networks):
        scheme = (_last(forwarded_proto) or scheme).lower()
        host = _last(forwarded_host) or host
    if scheme not in ("http", "https") or not _HOST.fullmatch(host):
        return None
    return f"{scheme}://{host}"


def request_origin() -> str | None:
    """The origin of the current request."""
    return origin(request.scheme, request.host, request.remote_addr or "", request.headers.get("X-Forwarded-Proto"),
                  request.headers.get("X-Forwarded-Host"), current_app.config.get("TRUSTED_PROXIES", ""))
