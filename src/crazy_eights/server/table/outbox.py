"""What a table says to its members: one member, a seat's members, or everyone.

The outbox turns the table's messages into text once per audience and hands (member,
text) pairs to the table's ``Fanout`` (the transport seam, see ``transport``). It never
knows how a member is connected.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..protocol import ErrorOut, ServerMessage
from . import messages
from .members import Member
from .state import TableState
from .transport import Fanout


class Outbox:
    """The messages of one table, addressed by member, seat or everyone."""

    def __init__(self, table: TableState, fanout: Fanout) -> None:
        self._table = table
        self._fanout = fanout

    def deliver(self, items: Iterable[tuple[Member, str]]) -> None:
        """Send texts already made for each member (``messages.state_texts``)."""
        self._fanout.deliver(self._table.id, items)

    def send(self, member: Member, message: ServerMessage) -> None:
        """One message to one member."""
        self.deliver([(member, message.model_dump_json())])

    def to_seat(self, seat: int, message: ServerMessage) -> None:
        """One message to every member playing ``seat`` (a player's tabs)."""
        text = message.model_dump_json()
        self.deliver([(m, text) for m in self._table.members if m.seat == seat])

    def to_all(self, message: ServerMessage) -> None:
        """One message to every member, players and watchers."""
        self.to_all_text(message.model_dump_json())

    def to_all_from(self, account: int | None, message: ServerMessage) -> None:
        """One message said by ``account`` to every member but those who blocked it."""
        text = message.model_dump_json()
        self.deliver([(m, text) for m in self._table.members if account not in m.hides])

    def to_all_text(self, text: str) -> None:
        """One text to every member."""
        self.deliver([(m, text) for m in self._table.members])

    def error(self, member: Member, code: str, reason: str, seq: int | None = None) -> None:
        """Tell a member what the table refused of theirs, and where the game is."""
        table = self._table
        message = ErrorOut(
            table=table.id,
            clock=messages.clock(table),
            code=code,
            reason=reason,
            seq=seq,
            version=table.version,
        )
        self.send(member, message)

    def welcome(self, member: Member, *, stood_in: int = 0) -> None:
        """Everything a member needs on arrival (or to catch up); ``stood_in``: the
        moves a stand-in played for the member's seat, when this arrival ended it."""
        self.send(member, messages.welcome(self._table, member, stood_in=stood_in))

    def close(self, member: Member, code: int) -> None:
        """Close the member's connection after what was already sent to it."""
        self._fanout.close(member, code)
