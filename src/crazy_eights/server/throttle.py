"""Throttles by client address: new accounts, failed sign-ins.

The address is the connection's peer, or what a trusted proxy said it was: the app only
believes ``X-Forwarded-For`` from the addresses in ``forwarded_allow_ips`` (see
``security.py``). IPv6 clients are counted by their /64, which one host or household
holds whole, so a client cannot walk its own subnet to escape a limit.
"""

from __future__ import annotations

import ipaddress
import time
from collections import deque

from starlette.requests import HTTPConnection

from .errors import ApiError
from .settings import ServerSettings


def client_key(conn: HTTPConnection) -> str:
    """The address a throttle counts this client under.

    >>> from starlette.requests import Request
    >>> client_key(Request({"type": "http", "client": ("2001:db8::1:2:3", 5)}))
    '2001:db8::/64'
    >>> client_key(Request({"type": "http", "client": ("::ffff:192.0.2.7", 5)}))
    '192.0.2.7'
    """
    host = conn.client.host if conn.client else "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Throttle:
    """At most ``limit`` events per key in any ``window`` seconds.

    ``retry_after(key)`` > 0 means refuse (that many seconds). Memory stays bounded: keys
    are kept in order of their last event and, past ``max_keys``, the stalest are dropped.
    """

    def __init__(self, limit: int, window: float, *, max_keys: int = 100_000) -> None:
        self.limit = limit
        self.window = window
        self.max_keys = max_keys
        self._events: dict[str, deque[float]] = {}

    def retry_after(self, key: str) -> float:
        times = self._events.get(key)
        if not times:
            return 0.0
        now = time.monotonic()
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) < self.limit:
            return 0.0
        return times[0] + self.window - now

    def record(self, key: str) -> None:
        times = self._events.pop(key, None) or deque()
        times.append(time.monotonic())
        self._events[key] = times  # now the most recent key
        while len(self._events) > self.max_keys:
            del self._events[next(iter(self._events))]

    def forget(self, key: str) -> None:
        self._events.pop(key, None)


def throttled(wait: float, what: str) -> ApiError:
    """The 429 for a throttle: ``what`` says which, the wait is in the text and a header."""
    seconds = int(wait) + 1
    return ApiError(
        429,
        "throttled",
        f"{what}; try again in {seconds} s.",
        headers={"Retry-After": str(seconds)},
    )


class Throttles:
    """The room's throttles: new accounts per address, failed sign-ins per (name,
    address) and per address. A name alone is never locked, so its owner can sign in
    from their own address while someone else guesses elsewhere."""

    def __init__(self, settings: ServerSettings) -> None:
        self.signups = Throttle(settings.signup_limit, settings.signup_window)
        self.login_pairs = Throttle(settings.login_attempts, settings.login_window)
        self.login_addresses = Throttle(settings.login_address_attempts, settings.login_window)

    def admit_signup(self, address: str) -> None:
        """Count a new account (guest or registered) from ``address``, or raise a 429."""
        wait = self.signups.retry_after(address)
        if wait > 0:
            raise throttled(wait, "Too many new accounts from your address")
        self.signups.record(address)

    def check_login(self, key: str, address: str) -> None:
        wait = max(
            self.login_pairs.retry_after(f"{key}@{address}"),
            self.login_addresses.retry_after(address),
        )
        if wait > 0:
            raise throttled(wait, "Too many failed sign-ins")

    def login_failed(self, key: str, address: str) -> None:
        self.login_pairs.record(f"{key}@{address}")
        self.login_addresses.record(address)

    def login_succeeded(self, key: str, address: str) -> None:
        self.login_pairs.forget(f"{key}@{address}")
