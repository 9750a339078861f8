"""A live table, taken apart by concern.

``actor.TableActor`` is the referee of one table: it runs the table's operations
(``ops``) one at a time and owns the game. It drives the pieces beside it through small
interfaces: a ``store.TableStore`` for what must last, a ``fanout.Fanout`` that carries
text to the members' sockets (on this node or another), ``bots.BotTurns`` for bot moves
and hints, ``clock.TurnClock`` for the turn timer, ``chat.ChatRoom`` for the table's
chat, ``seats.Seats`` for who sits where and ``members.Members`` for who is connected.
``messages`` builds what each seat is sent, from the actor's public state.
"""
