"""The ``admin`` commands: an operator's moderation on the room's database.

``crazy-eights admin grant NAME moderator`` (and ``revoke``) makes moderators; ``ban``,
``unban``, ``mute`` and ``unmute`` act as a moderator would, without the moderators'
limits (an operator may sanction a moderator); ``reports`` and ``audit`` print what the
moderation page shows. Each works on the database given as ``serve`` takes it (``--db``
or ``DATABASE_URL``), migrated first; a running room picks up a ban or a mute within
``moderation.REFRESH_SECONDS`` (and then closes the banned person's sockets). Every
action is in the audit log as done by ``operator (USER)``.
"""

from __future__ import annotations

import asyncio
import getpass
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Literal, TypeVar

import typer

if TYPE_CHECKING:
    from .moderation import Actor, AuditEntry, Moderation, Sanction
    from .reports import ReportOut, Reports

T = TypeVar("T")

Db = Annotated[
    str,
    typer.Option(
        "--db",
        help="The room's database: a SQLite file path or a URL such as "
        "postgresql://user:pass@host/name.",
        envvar="DATABASE_URL",
    ),
]
Reason = Annotated[str, typer.Option(help="Why (kept in the audit log).")]

app = typer.Typer(help="Moderation for operators: roles, bans, mutes, reports, the audit log.")


def operator() -> str:
    """How the audit log names whoever runs the command."""
    try:
        return f"operator ({getpass.getuser()})"
    except (KeyError, OSError):
        return "operator"


def _run(db: str, work: Callable[[Moderation, Reports, Actor], Awaitable[T]]) -> T:
    """Run ``work(moderation, reports, actor)`` on the database; a refusal is printed
    with its reason (exit code 2)."""
    from . import db as database
    from .errors import ApiError
    from .moderation import Actor, Moderation
    from .reports import Reports
    from .settings import ServerSettings

    async def main() -> T:
        engine = database.make_engine(ServerSettings(database_url=db).sqlalchemy_url())
        try:
            await database.migrate(engine)
            return await work(Moderation(engine), Reports(engine), Actor(operator()))
        finally:
            await engine.dispose()

    try:
        return asyncio.run(main())
    except ApiError as exc:
        typer.echo(f"Error: {exc.detail}", err=True)
        raise typer.Exit(2) from None


@app.command()
def grant(name: str, role: str, db: Db = "crazy-eights.db") -> None:
    """Give the account NAME a role (moderator)."""

    async def work(mod: Moderation, reports: Reports, actor: Actor) -> bool:
        return await mod.grant(actor, await mod.find(name=name), role)

    done = _run(db, work)
    typer.echo(f"{name} is a {role} now." if done else f"{name} was a {role} already.")


@app.command()
def revoke(name: str, role: str, db: Db = "crazy-eights.db") -> None:
    """Take a role (moderator) from the account NAME."""

    async def work(mod: Moderation, reports: Reports, actor: Actor) -> None:
        await mod.revoke(actor, await mod.find(name=name), role)

    _run(db, work)
    typer.echo(f"{name} is no longer a {role}.")


_DONE = {"ban": "banned", "mute": "muted"}


def _sanction(db: str, name: str, kind: Literal["ban", "mute"], seconds: int, reason: str) -> None:
    """Ban or mute NAME for ``seconds``, and say until when."""
    from .moderation import until_text

    async def work(mod: Moderation, reports: Reports, actor: Actor) -> Sanction:
        return await mod.sanction(actor, await mod.find(name=name), kind, seconds, reason)

    made = _run(db, work)
    typer.echo(f"{name} is {_DONE[kind]} until {until_text(made.until)}.")


def _lift(db: str, name: str, kind: Literal["ban", "mute"], reason: str) -> None:
    """Lift NAME's ban or mute."""

    async def work(mod: Moderation, reports: Reports, actor: Actor) -> None:
        await mod.lift(actor, await mod.find(name=name), kind, reason)

    _run(db, work)
    typer.echo(f"{name} is no longer {_DONE[kind]}.")


@app.command()
def ban(
    name: str,
    reason: Reason,
    days: Annotated[int, typer.Option(min=1, max=3650, help="How many days.")] = 7,
    db: Db = "crazy-eights.db",
) -> None:
    """Ban NAME for some days: their sessions end, sign-in is refused until then, and a
    running room closes their sockets."""
    _sanction(db, name, "ban", days * 86400, reason)


@app.command()
def unban(name: str, reason: Reason = "", db: Db = "crazy-eights.db") -> None:
    """Lift the ban on NAME."""
    _lift(db, name, "ban", reason)


@app.command()
def mute(
    name: str,
    minutes: Annotated[int, typer.Option(min=1, max=43200, help="How many minutes.")] = 60,
    reason: Reason = "muted by an operator",
    db: Db = "crazy-eights.db",
) -> None:
    """Mute NAME's chat at tables for some minutes."""
    _sanction(db, name, "mute", minutes * 60, reason)


@app.command()
def unmute(name: str, reason: Reason = "", db: Db = "crazy-eights.db") -> None:
    """Lift the mute on NAME."""
    _lift(db, name, "mute", reason)


@app.command()
def reports(
    every: Annotated[bool, typer.Option("--all", help="Resolved reports too.")] = False,
    db: Db = "crazy-eights.db",
) -> None:
    """The reports waiting for a moderator (or all), the newest first."""
    from .moderation import until_text

    async def work(mod: Moderation, reps: Reports, actor: Actor) -> list[ReportOut]:
        return await reps.listing("all" if every else "open")

    found = _run(db, work)
    if not found:
        typer.echo("No reports." if every else "No open reports.")
    for r in found:
        where = f" at table {r.table.id}" if r.table else ""
        typer.echo(
            f"#{r.id} {until_text(r.at)} [{r.status}] {r.reporter.name} reported "
            f"{r.target.name}{where}: {r.reason_words}" + (f": {r.text}" if r.text else "")
        )
        for line in r.chat:
            typer.echo(f"    {line.name}: {line.text}")
        if r.resolution:
            typer.echo(f"    resolved by {r.resolved_by}: {r.resolution}")


@app.command()
def audit(
    limit: Annotated[int, typer.Option(min=1, max=10000, help="How many lines.")] = 50,
    db: Db = "crazy-eights.db",
) -> None:
    """The audit log, the newest first: when, who, what, whom, why."""
    from .moderation import until_text

    async def work(mod: Moderation, reps: Reports, actor: Actor) -> list[AuditEntry]:
        return await mod.audit_log(limit=limit)

    lines = _run(db, work)
    if not lines:
        typer.echo("The audit log is empty.")
    for e in lines:
        whom = f" {e.target_name}" if e.target_name else ""
        extra = f" ({e.detail})" if e.detail else ""
        why = f": {e.reason}" if e.reason else ""
        typer.echo(f"{until_text(e.at)}  {e.actor}  {e.action}{whom}{extra}{why}")
