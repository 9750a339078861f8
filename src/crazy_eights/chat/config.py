"""The chat host's settings: a frozen dataclass read from ``CE_CHAT_*`` variables and a
TOML file (secrets never from the command line alone)."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from crazy_eights.bots import BOT_LEVELS

PrivateKind = Literal["notice", "privmsg"]
ENV_PREFIX = "CE_CHAT_"


class ConfigError(ValueError):
    """A setting with a bad value: the message names it and what it allows."""


@dataclass(frozen=True, kw_only=True)
class HostConfig:
    """How the host behaves on every network.

    ``turn_seconds`` is the turn timer (a reminder at half time); ``away_seconds`` how
    long a player who quit keeps the seat; ``start_wait`` after how long anyone may
    ``!start`` a table its maker has not started; ``lines_per_second`` and ``burst``
    the output token bucket; ``commands_per_second`` and ``command_burst`` how fast one
    nick may give commands; ``line_bytes`` the longest line the host sends (IRC: the
    protocol's 512 bytes less the prefix the server adds); ``seed`` makes the tables'
    seeds reproducible (tests), else each table draws one. ``db`` is the card room's
    database (a SQLite file or a PostgreSQL URL, as ``crazy-eights serve`` takes it):
    with it every table is a table of the room (``roomgateway``), without it the tables
    live in the host alone; ``room_url`` is the card room's address, for ``!link``;
    ``redis`` the card room's cluster Redis (with ``db``): each move is told there too,
    so browsers watching the table see it at once (``server.cluster.hostednews``).
    """

    prefix: str = "!"
    turn_seconds: float = 120.0
    away_seconds: float = 300.0
    start_wait: float = 60.0
    lines_per_second: float = 1.0
    burst: int = 4
    commands_per_second: float = 0.5
    command_burst: int = 5
    line_bytes: int = 400
    private: PrivateKind = "notice"
    bot_level: str = "heuristic"
    bot_delay: float = 1.0
    seed: int | None = None
    db: str | None = field(default=None, repr=False)
    room_url: str | None = None
    redis: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.prefix or len(self.prefix) > 3 or any(c.isspace() for c in self.prefix):
            raise ConfigError("prefix must be 1 to 3 characters without spaces, e.g. '!'")
        for name in ("turn_seconds", "away_seconds", "lines_per_second", "commands_per_second"):
            if not getattr(self, name) > 0:
                raise ConfigError(f"{name} must be above 0; got {getattr(self, name)!r}")
        for name in ("start_wait", "bot_delay"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{name} must be 0 or more; got {getattr(self, name)!r}")
        if self.burst < 1 or self.command_burst < 1:
            raise ConfigError("burst and command_burst must be at least 1")
        if not 100 <= self.line_bytes <= 4000:
            raise ConfigError(f"line_bytes must be 100 to 4000; got {self.line_bytes!r}")
        if self.private not in ("notice", "privmsg"):
            raise ConfigError(f"private must be notice or privmsg; got {self.private!r}")
        if self.bot_level not in BOT_LEVELS:
            raise ConfigError(f"bot_level must be one of {', '.join(BOT_LEVELS)}")
        if self.room_url is not None and not self.room_url.startswith(("http://", "https://")):
            raise ConfigError(f"room_url must be an http(s):// address; got {self.room_url!r}")
        if self.redis is not None and not self.redis.startswith(
            ("redis://", "rediss://", "unix://")
        ):
            raise ConfigError("redis must be a redis://, rediss:// or unix:// URL")

    def check_whole(self) -> None:
        """Refuse settings that only make sense together, once every source (file,
        variables, command line) has been read: ``redis`` without ``db``."""
        if self.redis and not self.db:
            raise ConfigError("redis needs db: the card room's database the tables are in")


@dataclass(frozen=True, kw_only=True)
class IrcNetwork:
    """One IRC network: ``irc://nick@host:port/#chan,#chan2``; the password (if any)
    comes from ``CE_CHAT_IRC_PASSWORD`` or the file, never the URL."""

    host: str
    port: int = 6667
    nick: str = "eights"
    channels: tuple[str, ...] = ()
    password: str | None = field(default=None, repr=False)
    tls: bool = False

    @classmethod
    def from_url(cls, url: str, password: str | None = None) -> IrcNetwork:
        """Read ``irc://nick@host:port/#a,#b`` (``ircs://`` for TLS)."""
        scheme, sep, rest = url.partition("://")
        if not sep or scheme not in ("irc", "ircs"):
            raise ConfigError(f"an IRC network is irc://nick@host:port/#channel; got {url!r}")
        where, _, chans = rest.partition("/")
        nick, at, hostport = where.rpartition("@")
        if not at:
            nick, hostport = "eights", where
        if ":" in nick:
            raise ConfigError("put the IRC password in CE_CHAT_IRC_PASSWORD, not in the URL")
        host, colon, port_text = hostport.partition(":")
        try:
            port = int(port_text) if colon else (6697 if scheme == "ircs" else 6667)
        except ValueError:
            raise ConfigError(f"bad port in {url!r}") from None
        channels = tuple(c.strip() for c in chans.split(",") if c.strip())
        for channel in channels:
            if channel[0] not in "#&" or " " in channel:
                raise ConfigError(f"{channel!r} is not a channel name (it starts with #)")
        if not host:
            raise ConfigError(f"no host in {url!r}")
        return cls(
            host=host,
            port=port,
            nick=nick or "eights",
            channels=channels,
            password=password,
            tls=scheme == "ircs",
        )


@dataclass(frozen=True, kw_only=True)
class MatrixNetwork:
    """A homeserver, the host's user id, and its rooms; the password comes from
    ``CE_CHAT_MATRIX_PASSWORD`` or the settings file, never the command line."""

    homeserver: str
    user: str
    rooms: tuple[str, ...]
    password: str | None = field(default=None, repr=False)


_FIELDS = {f.name: f for f in dataclasses.fields(HostConfig)}


def _convert(name: str, value: Any) -> Any:
    """A setting from text (a variable) or TOML, as its field's type."""
    kind = _FIELDS[name].type
    if not isinstance(value, str):
        return value
    try:
        if kind == "float":
            return float(value)
        if kind in ("int", "int | None"):
            return None if value.strip().lower() in ("", "none") else int(value)
    except ValueError:
        raise ConfigError(f"{name} must be a number; got {value!r}") from None
    return value


def load_config(
    env: Mapping[str, str] | None = None, file: Path | None = None
) -> tuple[HostConfig, dict[str, Any]]:
    """The host's settings from a TOML file's ``[host]`` table, then ``CE_CHAT_*``
    variables (which win); also the file's other tables (``[irc]``) for the networks."""
    env = os.environ if env is None else env
    data: dict[str, Any] = {}
    if file is not None:
        try:
            data = tomllib.loads(file.read_text())
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read {file}: {exc}") from None
    values: dict[str, Any] = {}
    for name, value in dict(data.get("host", {})).items():
        if name not in _FIELDS:
            raise ConfigError(f"unknown setting {name!r} in [host]; known: {', '.join(_FIELDS)}")
        values[name] = _convert(name, value)
    for name in _FIELDS:
        key = ENV_PREFIX + name.upper()
        if key in env:
            values[name] = _convert(name, env[key])
    try:
        config = HostConfig(**values)
    except TypeError as exc:
        raise ConfigError(str(exc)) from None
    return config, {k: v for k, v in data.items() if k != "host"}
