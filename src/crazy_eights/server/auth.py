"""Accounts and sessions: register, sign in and out, guests and their upgrade, profiles and
client settings.

Passwords are argon2id hashes, made a bounded number at a time (``passwords.py``). A
session is a random token in an HttpOnly SameSite cookie; the database keeps only its
SHA-256. Names follow ``names.py``: one account per name whatever its case or Unicode
form, which a unique index guarantees even for requests at the same moment. New accounts
are throttled per client address, failed sign-ins per (name, address) and per address
(``throttle.py``).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import sqlalchemy as sa
from fastapi import Response
from pydantic import BaseModel, Field, field_validator
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import db, names
from .errors import ApiError

if TYPE_CHECKING:
    from .settings import ServerSettings

SettingsCheck = Callable[[AsyncConnection, int, Mapping[str, Any]], Awaitable[None]]
"""Refuses (raises ``ApiError``) client settings an account may not choose."""

COOKIE = "ce_session"
AVATAR_RE = re.compile(r"[a-z0-9-]{1,16}")
PASSWORD_RULE = "The password must be 8 to 200 characters."
AVATAR_RULE = "The avatar must be an avatar id: 1 to 16 of a-z, 0-9 and '-'."


class Account(BaseModel):
    id: int
    name: str
    display_name: str
    avatar: str
    guest: bool
    bot: str | None = None


def account_from_row(row: Any) -> Account:
    return Account(
        id=row.id,
        name=row.name,
        display_name=row.display_name,
        avatar=row.avatar,
        guest=row.guest,
        bot=row.bot_level,
    )


def name_taken(name: str) -> ApiError:
    return ApiError(409, "name_taken", f"The name {name!r} is taken.")


class Form(BaseModel):
    """A form the browser posts. ``RULES`` words any mistake in a field (``messages``)."""

    RULES: ClassVar[dict[str, str]] = {}


class Credentials(Form):
    RULES: ClassVar[dict[str, str]] = {
        "name": names.ACCOUNT_NAME_RULE,
        "password": PASSWORD_RULE,
    }

    name: str = Field(min_length=3, max_length=32, description="letters, digits, _ . -")
    password: str = Field(min_length=8, max_length=200)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return names.account_name(value)


class NewAccount(Credentials):
    """A name and password, and optionally how the account is shown (else its name)."""

    RULES: ClassVar[dict[str, str]] = {
        **Credentials.RULES,
        "display_name": names.DISPLAY_NAME_RULE,
    }

    display_name: str | None = Field(
        default=None, max_length=200, description="1 to 40 visible characters"
    )

    @field_validator("display_name")
    @classmethod
    def _display(cls, value: str | None) -> str | None:
        return None if value is None else names.display_name(value)


class Login(Form):
    RULES: ClassVar[dict[str, str]] = {
        "name": names.ACCOUNT_NAME_RULE,
        "password": PASSWORD_RULE,
    }

    name: str = Field(max_length=32)
    password: str = Field(max_length=200)


class Profile(Form):
    RULES: ClassVar[dict[str, str]] = {
        "display_name": names.DISPLAY_NAME_RULE,
        "avatar": AVATAR_RULE,
    }

    display_name: str | None = Field(
        default=None, max_length=200, description="1 to 40 visible characters"
    )
    avatar: str | None = Field(default=None, max_length=16)

    @field_validator("display_name")
    @classmethod
    def _display(cls, value: str | None) -> str | None:
        return None if value is None else names.display_name(value)

    @field_validator("avatar")
    @classmethod
    def _avatar(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not AVATAR_RE.fullmatch(value):
            raise ValueError(AVATAR_RULE)
        return names.avatar(value)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


MAX_SETTINGS = 8192  # bytes of compact JSON
MAX_SETTINGS_DEPTH = 6


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests more than ``limit`` objects or lists deep (looks no deeper)."""
    if isinstance(value, dict):
        children: Any = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return False
    return limit == 0 or any(_deeper_than(child, limit - 1) for child in children)


def _bad_settings(detail: str, status: int = 422) -> ApiError:
    return ApiError(status, "too_large" if status == 413 else "bad_settings", detail)


def parse_settings(raw: bytes) -> dict[str, Any]:
    if len(raw) > MAX_SETTINGS * 2:
        raise _bad_settings(f"Settings are at most {MAX_SETTINGS} bytes.", 413)
    try:
        data = json.loads(raw)
    except RecursionError:
        raise _bad_settings(f"Settings nest at most {MAX_SETTINGS_DEPTH} deep.") from None
    except ValueError:
        raise ApiError(422, "bad_json", "Settings must be a JSON object.") from None
    if not isinstance(data, dict):
        raise _bad_settings("Settings must be a JSON object.")
    if _deeper_than(data, MAX_SETTINGS_DEPTH):
        raise _bad_settings(f"Settings nest at most {MAX_SETTINGS_DEPTH} deep.")
    try:
        compact = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise _bad_settings("Settings must be valid Unicode text (no lone surrogates).") from None
    if len(compact) > MAX_SETTINGS:
        raise _bad_settings(f"Settings are at most {MAX_SETTINGS} bytes.", 413)
    if any(len(key) > 64 for key in data):
        raise _bad_settings("Setting names are at most 64 characters.")
    return data


async def _save_settings(conn: AsyncConnection, account_id: int, data: dict[str, Any]) -> None:
    """Insert or replace in one statement, so two first saves at once cannot collide."""
    values = {"data": data, "updated_at": db.now()}
    dialect = {"postgresql": postgresql, "sqlite": sqlite}.get(conn.dialect.name)
    if dialect is None:
        raise NotImplementedError(f"no upsert for {conn.dialect.name}")
    statement = dialect.insert(db.account_settings).values(account_id=account_id, **values)
    await conn.execute(
        statement.on_conflict_do_update(
            index_elements=[db.account_settings.c.account_id], set_=values
        )
    )


class Accounts:
    """Account and session storage; one per app."""

    def __init__(
        self,
        engine: AsyncEngine,
        settings: ServerSettings,
        *,
        check_settings: SettingsCheck | None = None,
    ) -> None:
        self.engine = engine
        self.session_days = settings.session_days
        self.secure_cookies = settings.secure_cookies
        self.check_settings = check_settings
        """Refuses client settings the account may not choose (in the saving transaction)."""

    async def get(self, account_id: int) -> Account | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(db.accounts).where(db.accounts.c.id == account_id))
            ).first()
        return None if row is None else account_from_row(row)

    async def find(self, name: str) -> Any:
        """The account row whose name is ``name`` in any case or Unicode form, or None."""
        query = sa.select(db.accounts).where(db.accounts.c.name_key == names.name_key(name))
        async with self.engine.connect() as conn:
            return (await conn.execute(query)).first()

    async def _insert(self, **values: Any) -> int:
        """Insert an account; raises ``IntegrityError`` when its name (key) is held."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                db.accounts.insert().values(
                    name_key=names.name_key(values["name"]), created_at=db.now(), **values
                )
            )
        return int(result.inserted_primary_key[0])  # type: ignore[index]

    async def create(
        self, *, name: str, display_name: str, password_hash: str | None, guest: bool
    ) -> Account:
        """A new account; 409 ``name_taken`` if any spelling of the name is held."""
        try:
            account_id = await self._insert(
                name=name,
                display_name=display_name,
                avatar="default",
                password_hash=password_hash,
                guest=guest,
            )
        except sa.exc.IntegrityError:
            raise name_taken(name) from None
        return Account(
            id=account_id, name=name, display_name=display_name, avatar="default", guest=guest
        )

    async def create_guest(self) -> Account:
        """A guest ``guest-<8 hex>`` shown as "Guest <4 hex>" (a new tag if one is held)."""
        for _ in range(4):
            tag = secrets.token_hex(4)
            try:
                return await self.create(
                    name=f"guest-{tag}",
                    display_name=f"Guest {tag[:4]}",
                    password_hash=None,
                    guest=True,
                )
            except ApiError as exc:
                if exc.code != "name_taken":
                    raise
        raise ApiError(503, "busy", "No free guest name was found; try again.")

    async def bot_account(self, level: str) -> int:
        """The account that plays (and is rated) for a bot level; made on first use."""
        query = sa.select(db.accounts.c.id).where(db.accounts.c.bot_level == level)
        # A second name in case a person took "bot-<level>" before such names were kept
        # for the bots; a race with another table making it is settled by bot_level.
        for name in (f"bot-{level}", f"bot-{level}-{secrets.token_hex(3)}"):
            async with self.engine.connect() as conn:
                row = (await conn.execute(query)).first()
            if row is not None:
                return int(row.id)
            try:
                return await self._insert(
                    name=name,
                    display_name=f"{level.capitalize()} bot",  # as its seats are named
                    avatar="bot",
                    password_hash=None,
                    guest=False,
                    bot_level=level,
                )
            except sa.exc.IntegrityError:
                continue
        raise ApiError(503, "busy", f"The {level} bot's account could not be made.")

    async def upgrade(
        self, account: Account, *, name: str, password_hash: str, display_name: str | None
    ) -> tuple[Account, str]:
        """Give a guest a name and password. Every session of the guest ends and a new
        one begins (returned): whoever held the guest's token does not hold the account."""
        values: dict[str, Any] = {
            "name": name,
            "name_key": names.name_key(name),
            "password_hash": password_hash,
            "guest": False,
        }
        if display_name is not None:
            values["display_name"] = display_name
        token = secrets.token_urlsafe(32)
        try:
            async with self.engine.begin() as conn:
                done = await conn.execute(
                    db.accounts.update()
                    .where(db.accounts.c.id == account.id, db.accounts.c.guest == sa.true())
                    .values(**values)
                )
                if done.rowcount != 1:
                    raise ApiError(409, "not_a_guest", "This account already has a password.")
                await conn.execute(
                    db.sessions.delete().where(db.sessions.c.account_id == account.id)
                )
                await self._add_session(conn, token, account.id)
        except sa.exc.IntegrityError:
            raise name_taken(name) from None
        values.pop("name_key")
        values.pop("password_hash")
        return account.model_copy(update=values), token

    async def _add_session(self, conn: AsyncConnection, token: str, account_id: int) -> None:
        now = db.now()
        await conn.execute(
            db.sessions.insert().values(
                token_hash=token_hash(token),
                account_id=account_id,
                created_at=now,
                expires_at=now + self.session_days * 86400,
            )
        )

    async def new_session(self, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        async with self.engine.begin() as conn:
            await self._add_session(conn, token, account_id)
        return token

    async def from_token(self, token: str | None) -> Account | None:
        if not token or len(token) > 100:
            return None
        query = (
            sa.select(db.accounts)
            .join(db.sessions, db.sessions.c.account_id == db.accounts.c.id)
            .where(db.sessions.c.token_hash == token_hash(token))
            .where(db.sessions.c.expires_at > db.now())
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else account_from_row(row)

    async def end_session(self, token: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                db.sessions.delete().where(db.sessions.c.token_hash == token_hash(token))
            )

    def set_cookie(self, response: Response, token: str) -> None:
        response.set_cookie(
            COOKIE,
            token,
            max_age=self.session_days * 86400,
            httponly=True,
            samesite="lax",
            secure=self.secure_cookies,
            path="/",
        )

    async def settings_of(self, account_id: int) -> dict[str, Any]:
        """The account's client settings (``{}`` until it saves some)."""
        query = sa.select(db.account_settings.c.data).where(
            db.account_settings.c.account_id == account_id
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return {} if row is None else dict(row.data)

    async def save_settings(self, account_id: int, data: dict[str, Any]) -> None:
        """Replace the account's client settings (checked first: nothing is saved when
        the check refuses them)."""
        async with self.engine.begin() as conn:
            if self.check_settings is not None:
                await self.check_settings(conn, account_id, data)
            await _save_settings(conn, account_id, data)

    async def update_profile(self, account_id: int, values: dict[str, Any]) -> None:
        """Change how the account is shown (``display_name``, ``avatar``)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                db.accounts.update().where(db.accounts.c.id == account_id).values(**values)
            )
