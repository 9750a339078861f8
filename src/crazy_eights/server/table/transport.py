"""The seam between a table and the transports its members are connected by.

A table never touches a connection. Everything crosses this seam in two directions:

**In: operations.** A transport tells a table who is connected and what they ask by
queueing operations (``ops``) on the table's ``TableHandle`` (``tables.py``; on one
process the actor itself, in a cluster maybe a route to the node running the table):

1. When a person's connection opens, make a ``Member`` (their account, their display
   name, ``node`` = this process's node) and ``request(Join(member, code))``. The answer
   is a ``Joined``; when it is not ``ok``, close the connection with its ``close_code``
   and ``reason``. From then on the member counts as connected: the table's ``Members``
   know which seat it plays (None: it watches), and that is all a table knows of who is
   here.
2. Turn each message the person sends into an operation and ``submit`` it: the socket
   protocol's messages go through ``ops.from_client``; another transport makes the same
   operations (``Play``, ``Say``, ``Call``, ``NextRound``, ...) from its own syntax.
3. When the connection closes, ``submit(Part(member.id))``.

**Out: text.** A table sends each message as JSON text (``protocol.ServerMessage``,
described in docs/protocol.md) to members through its ``Fanout``: ``deliver`` (member,
text) pairs, and ``close`` a member. The table addresses a member, a seat's members or
everyone (``outbox.Outbox``); the ``Fanout`` finds each member's connection. On one
process that is ``fanout.LocalFanout`` over ``fanout.LocalSockets``, which holds one
``Link`` per member id; in a cluster, the cluster's fan-out carries a member's text to
the node named by ``member.node``, whose ``LocalFanout`` hands it on.

**How to add a transport** (a chat host's bot on IRC or Matrix, beside the WebSockets of
``api/table_socket.py``): give each person at a table a ``Link`` (``send`` one text, ``close``
with a code) that renders the table's JSON messages in the transport's own words; add
it to the process's ``LocalSockets`` under the member's id when the member is made, and
remove it when it goes; then drive the table with operations as above. Nothing in the
table changes: it keeps talking to members, and the ``Fanout`` finds the ``Link``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from .members import Member


class Fanout(Protocol):
    """What a table needs of its members' transports: text to members, and closing."""

    def deliver(self, table_id: str, items: Iterable[tuple[Member, str]]) -> None:
        """Send each text to its member's connection, in order, without waiting."""

    def close(self, member: Member, code: int) -> None:
        """Close the member's connection after what was already sent to it."""


class Link(Protocol):
    """One member's connection on this process (a WebSocket's ``connection.Conn``)."""

    def send(self, text: str) -> None:
        """Queue one message for the member; never waits."""

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after the messages already queued have gone out."""
