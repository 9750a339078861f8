"""The socket messages, both ways, as Pydantic models (docs/protocol.md describes them).

Client messages are parsed by ``parse_client``: anything that is not a known, well-formed
message becomes a ``ProtocolError`` with a code, never an exception that reaches a table.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal

import pydantic_core
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

MAX_MESSAGE = 4096
MAX_CHAT = 200


def _printable(value: str) -> str:
    """Refuse control characters other than white space (a NUL, an escape, a bell).

    They mean nothing in a chat line or a name, and PostgreSQL cannot store a NUL at all.

    >>> _printable("8 of hearts\\n")
    '8 of hearts\\n'
    >>> _printable("a\\x00b")
    Traceback (most recent call last):
    ValueError: control characters are not allowed
    """
    if any(unicodedata.category(c) == "Cc" and not c.isspace() for c in value):
        raise ValueError("control characters are not allowed")
    return value


Printable = Annotated[str, AfterValidator(_printable)]
"""Text people type (chat, names): white space is fine, other control characters are not."""


class ProtocolError(Exception):
    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


# -- client to server ------------------------------------------------------------------


class _Client(BaseModel):
    """Strict: ``"seq": "0"`` or ``"seq": true`` is refused, not converted."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class MoveIn(_Client):
    type: Literal["move"]
    seq: int = Field(ge=0, le=10_000_000, description="the version the move answers")
    move: str = Field(min_length=1, max_length=16, description="move text, RULES G3")


class CallIn(_Client):
    type: Literal["call"]


class ChatIn(_Client):
    type: Literal["chat"]
    text: Printable = Field(min_length=1, max_length=MAX_CHAT)


class HintIn(_Client):
    type: Literal["hint"]


class SyncIn(_Client):
    type: Literal["sync"]


class BackIn(_Client):
    type: Literal["back"]


class PingIn(_Client):
    type: Literal["ping"]
    t: float | None = None


REACTIONS = ("thumbs_up", "well_played", "oops", "hurry_up", "thanks", "wow", "sad", "laugh")
"""The fixed set of reactions (the browser draws each; the server knows only the ids)."""
Reaction = Literal["thumbs_up", "well_played", "oops", "hurry_up", "thanks", "wow", "sad", "laugh"]


class ReactIn(_Client):
    """A reaction from the fixed set, shown a few seconds on the sender's panel."""

    type: Literal["react"]
    reaction: Reaction


class NextRoundIn(_Client):
    """The player has read the round summary and is ready for the next round."""

    type: Literal["next_round"]


ClientMessage = Annotated[
    MoveIn | CallIn | ChatIn | HintIn | SyncIn | BackIn | PingIn | NextRoundIn | ReactIn,
    Field(discriminator="type"),
]
_client_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def parse_client(text: str | bytes) -> ClientMessage:
    """One client message from socket text, or ``ProtocolError`` saying what is wrong.

    The size limit counts UTF-8 bytes. The JSON reader refuses what no client sends:
    nesting deeper than 200, lone surrogates, NaN and infinities.
    """
    if too_large(text):
        raise ProtocolError("too_large", f"messages are at most {MAX_MESSAGE} bytes")
    try:
        data = pydantic_core.from_json(text, allow_inf_nan=False)
    except ValueError:
        raise ProtocolError("bad_json", "a message must be a JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    try:
        return _client_adapter.validate_python(data, strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["type"] == "union_tag_invalid":
            raise ProtocolError("unknown_type", f"unknown message type {data['type']!r}") from None
        if first["type"] == "union_tag_not_found":
            raise ProtocolError("bad_message", "a message needs a 'type'") from None
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError("bad_message", f"{where}: {first['msg']}") from None


def too_large(text: str | bytes) -> bool:
    """Whether a frame is over ``MAX_MESSAGE`` bytes of UTF-8 (not characters).

    >>> too_large("€" * 1400), too_large("e" * 1400)
    (True, False)
    """
    if isinstance(text, bytes):
        return len(text) > MAX_MESSAGE
    if len(text) * 4 <= MAX_MESSAGE:  # small enough whatever its characters
        return False
    return len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE


# A chat message arms a call only when the whole message is the call: a call phrase
# ("last card", "uno", "one card", "1 card", optionally "left"), perhaps repeated, with at
# most a few words around it that say it is the speaker's own ("I have", "down to",
# "only", "my", "for me"). A question, or a sentence that merely mentions cards ("I
# played one card too fast", "one left to go"), never does.
_CALL_CORE = (
    r"(?:(?:my|the|only|just|a|single)\s+)*(?:last\s+card|uno|(?:one|1)\s+card)(?:\s+left)?"
)
_CALL = re.compile(
    r"(?:(?:ok|okay|so|and|now|yes|yay|ha|haha|i|i m|im|i am|i have|i ve|ive|i ve got|"
    r"i got|got|have|on|down to|calling|call)\s+)*"
    rf"{_CALL_CORE}(?:\s+{_CALL_CORE})*"
    r"(?:\s+(?:for me|here|now|left|called|calling|guys|everyone|all))*"
)


def calls_last_card(text: str) -> bool:
    """Whether a chat message is its speaker calling "last card" in their own words.

    >>> [calls_last_card(t) for t in ("Last card!", "uno", "I have 1 card left!")]
    [True, True, True]
    >>> [calls_last_card(t) for t in ("I played one card too fast", "is that the last one?")]
    [False, False]
    """
    plain = re.sub(r"<[^>]*>", " ", text).strip()
    if re.search(r"\?\W*$", plain):  # a question is never a call
        return False
    words = " ".join(re.sub(r"[^a-z0-9]+", " ", plain.lower()).split())
    return _CALL.fullmatch(words) is not None


# -- server to client ------------------------------------------------------------------


class SeatInfo(BaseModel):
    seat: int
    account: int | None = None
    name: str | None = None
    avatar: str | None = None
    bot: str | None = None
    connected: bool = False
    standin: bool = False
    left: bool = False
    away_left: float | None = None
    """Seconds until a stand-in bot plays this absent player's seat (None: not waiting)."""
    held_left: float | None = None
    """Seconds this empty seat stays held for an invited friend or a rematch's old player
    (None: not held); only they may take it meanwhile."""
    archon: list[str] = []
    """The rulesets whose Master Card Archon title this seat's player holds."""


class TableInfo(BaseModel):
    id: str
    name: str
    ruleset: str
    rules: dict[str, Any]
    status: Literal["open", "playing", "finished", "abandoned"]
    public: bool
    rated: bool
    hints: bool
    takeover_after: int
    creator: int | None
    invite: str | None = None
    seats: list[SeatInfo]
    spectators: int = 0
    version: int = 0
    created_at: float
    place: str | None = None
    """Where another process plays the table: a chat channel (``irc:host:#cards``)."""


class Clock(BaseModel):
    seat: int
    left: float
    timer: int


class Pause(BaseModel):
    """Between rounds: the summary of the round that ended and who is still reading it."""

    summary: dict[str, Any] = Field(description="the round's round_over event")
    waiting: list[int] = Field(description='seats still to press "Next round"')
    pressed: list[int]
    left: float = Field(description="seconds until the table goes on by itself")
    seconds: float


class State(BaseModel):
    version: int
    move: str | None = None
    by: int | None = None
    ack: int | None = None
    events: list[dict[str, Any]] = Field(default_factory=list)
    view: dict[str, Any]
    legal: list[str] = Field(default_factory=list)
    moves: list[dict[str, Any]] = Field(
        default_factory=list,
        description="the legal moves as the engine's LegalMoveData, in the order of legal",
    )
    called: bool = False
    pause: Pause | None = None
    words: dict[str, str] = Field(
        default_factory=dict,
        description="the engine's words for rules the table says: blockade (who wins a "
        "blocked round and why), answer (what a pending draw-two allows)",
    )


class You(BaseModel):
    account: int | None
    seat: int | None
    role: Literal["player", "spectator"]


class _Server(BaseModel):
    table: str
    clock: Clock | None = None


class ChatOut(_Server):
    type: Literal["chat"] = "chat"
    seat: int | None
    account: int | None
    name: str
    text: str = Field(description="HTML-escaped")
    at: float
    call: bool = False


class RatingChange(BaseModel):
    """One person's rating before and after a finished game (as people read it)."""

    seat: int
    account: int
    before: int
    after: int


class Rematch(BaseModel):
    """A finished table's follow-up ("Play again": same people, same rules)."""

    table: str = Field(description="the follow-up table's id")
    by: str = Field(description="who asked first (and so made the follow-up)")
    seated: list[str] = Field(description="this table's players seated there so far")
    accounts: list[int] = Field(description="their accounts, in the same order")


class Welcome(_Server):
    type: Literal["welcome"] = "welcome"
    you: You
    info: TableInfo
    state: State | None
    chat: list[ChatOut]
    ratings: list[RatingChange] | None = None
    rematch: Rematch | None = None
    stood_in: int = Field(
        default=0,
        description="moves a stand-in bot played for your seat while you were away, when "
        "this arrival gave the seat back",
    )


class BackOut(_Server):
    """A player has their seat back from the stand-in bot that played it."""

    type: Literal["back"] = "back"
    seat: int
    name: str | None
    moves: int


class StateOut(_Server):
    type: Literal["state"] = "state"
    state: State


class TableOut(_Server):
    type: Literal["table"] = "table"
    info: TableInfo


class PresenceOut(_Server):
    """Who came and went: the seats whose presence changed, and how many watch."""

    type: Literal["presence"] = "presence"
    seats: list[SeatInfo]
    spectators: int


class ReactionOut(_Server):
    """Someone at the table reacted (not sent to those who blocked them)."""

    type: Literal["reaction"] = "reaction"
    seat: int | None = Field(description="the sender's seat; null for a spectator")
    account: int
    name: str
    reaction: Reaction


class CalledOut(_Server):
    type: Literal["called"] = "called"
    seat: int


class HintOut(_Server):
    type: Literal["hint"] = "hint"
    version: int
    move: str
    data: dict[str, Any] = Field(description="the move as the engine's MoveData")


class ErrorOut(_Server):
    type: Literal["error"] = "error"
    code: str
    reason: str
    seq: int | None = None
    version: int | None = None


class PongOut(_Server):
    type: Literal["pong"] = "pong"
    t: float | None = None


class PauseOut(_Server):
    """The pause between rounds changed: someone pressed "Next round", or (``pause``
    null) the table goes on."""

    type: Literal["pause"] = "pause"
    pause: Pause | None


class RatingsOut(_Server):
    """A finished game is recorded: each person's rating change (rated tables only)."""

    type: Literal["ratings"] = "ratings"
    rated: bool
    changes: list[RatingChange]


class RematchOut(_Server):
    """Someone of this finished table asked to play again: the follow-up table and who
    of this table sits there now (sent again as each one joins)."""

    type: Literal["rematch"] = "rematch"
    rematch: Rematch


ServerMessage = (
    Welcome
    | StateOut
    | TableOut
    | PresenceOut
    | ChatOut
    | ReactionOut
    | CalledOut
    | HintOut
    | ErrorOut
    | PongOut
    | PauseOut
    | RatingsOut
    | RematchOut
    | BackOut
)


# -- lobby socket ----------------------------------------------------------------------


class LobbyTables(BaseModel):
    type: Literal["tables"] = "tables"
    tables: list[TableInfo]


class LobbyTable(BaseModel):
    type: Literal["table"] = "table"
    table: TableInfo


class LobbyRemoved(BaseModel):
    type: Literal["removed"] = "removed"
    id: str


# -- matchmaking (HTTP /api/match and the socket /ws/match) ----------------------------


class QueueEntry(BaseModel):
    account: int
    name: str
    avatar: str


class QueueState(BaseModel):
    """A queue: who waits (longest-waiting first) and when its window closes."""

    type: Literal["queue"] = "queue"
    ruleset: str
    players: int
    length: Literal["round", "match"]
    waiting: list[QueueEntry]
    closes_at: float
    seconds_left: float


class MatchTicket(BaseModel):
    """A person's place in a queue (``table``: where they were seated, once matched)."""

    ticket: str
    queue: QueueState
    table: str | None = None


class MatchedOut(BaseModel):
    """Told on the match socket: you have a seat at ``table``."""

    type: Literal["matched"] = "matched"
    table: str


class MatchGone(BaseModel):
    """Told on the match socket: you are no longer waiting (cancelled elsewhere)."""

    type: Literal["gone"] = "gone"
