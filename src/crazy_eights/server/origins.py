"""What an Origin is: ``normal_origin`` writes a browser's Origin the one way it is
compared (the settings check the allowed list with it, ``security`` each request).

It imports nothing of the server, so the settings can use it without importing the
request checks.
"""

from __future__ import annotations

from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}


def normal_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` as browsers send it (lower case, no default port), or None
    for anything that is not a plain http(s) origin (``null``, paths, user names).

    >>> normal_origin("HTTPS://Room.Example:443/")
    'https://room.example'
    >>> normal_origin("http://[::1]:8000"), normal_origin("null")
    ('http://[::1]:8000', None)
    """
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname
    if (
        parts.scheme not in _DEFAULT_PORTS
        or not host
        or parts.username is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        return None
    if ":" in host:
        host = f"[{host}]"
    if port is not None and port != _DEFAULT_PORTS[parts.scheme]:
        host = f"{host}:{port}"
    return f"{parts.scheme}://{host}"
