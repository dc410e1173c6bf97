"""Whose budget a request spends (docs/web.md, "Fair use"): every per-address budget of the
server (tables a minute and in play, names, seats taken, sockets, pasts, board checks) counts a
client's *network*, not its full address. A home or a cloud machine gets a whole IPv6 /64 and
may pick any of its 2^64 addresses for each request, so counting full IPv6 addresses would give
one person 2^64 allowances; an IPv4 address is what one home gets.
"""

from __future__ import annotations

import ipaddress

IPV6_PREFIX = 64
"""The IPv6 prefix length one network has by default: what a provider hands one customer (RFC
6177 recommends a /56 or /48 for a home, and every one of those holds /64s; the /64 is the
smallest a host may pick addresses from by itself, SLAAC)."""
MIN_IPV6_PREFIX, MAX_IPV6_PREFIX = 32, 128
"""The bounds of `serve --ipv6-prefix`: /32 is a whole provider's allocation, /128 one address."""


def network_of(address: str, ipv6_prefix: int = IPV6_PREFIX) -> str:
    """The network `address` belongs to, as the key of its budgets: an IPv4 address itself
    (an IPv4-mapped IPv6 address, `::ffff:192.0.2.1`, is that IPv4 address), an IPv6 address's
    first `ipv6_prefix` bits (`2001:db8:1:2::/64`), and anything that is not an IP address
    (a test client's name, a Unix socket's empty peer) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))
    return str(ip)
